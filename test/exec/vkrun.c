/*
 * vkrun.c - a minimal Vulkan compute runner for the execution tests (see vkrun.h).
 *
 * SPDX-License-Identifier: Apache-2.0
 */
#include "vkrun.h"

#include "vulkan_setup.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define VKR_DEFAULT_BUFFER_SIZE ((size_t)1 << 20)
#define VKR_FENCE_TIMEOUT_NS 30000000000ull

struct vkr_context {
    VkInstance instance;
    VkPhysicalDevice physical;
    VkDevice device;
    VkQueue queue;
    uint32_t queue_family;
    vkr_device_info info;
    vkr_features features;
    size_t buffer_size;
    VkBuffer buffers[2];
    VkDeviceMemory memory[2];
    void *mapped[2];
    VkDescriptorSetLayout set_layout;
    VkPipelineLayout pipeline_layout;
    VkDescriptorPool descriptor_pool;
    VkDescriptorSet descriptor_set;
    VkCommandPool command_pool;
    VkCommandBuffer command_buffer;
    VkFence fence;
};

const char *vkr_result_string(VkResult r)
{
    switch (r) {
    case VK_SUCCESS: return "VK_SUCCESS";
    case VK_NOT_READY: return "VK_NOT_READY";
    case VK_TIMEOUT: return "VK_TIMEOUT";
    case VK_INCOMPLETE: return "VK_INCOMPLETE";
    case VK_ERROR_OUT_OF_HOST_MEMORY: return "VK_ERROR_OUT_OF_HOST_MEMORY";
    case VK_ERROR_OUT_OF_DEVICE_MEMORY: return "VK_ERROR_OUT_OF_DEVICE_MEMORY";
    case VK_ERROR_INITIALIZATION_FAILED: return "VK_ERROR_INITIALIZATION_FAILED";
    case VK_ERROR_DEVICE_LOST: return "VK_ERROR_DEVICE_LOST";
    case VK_ERROR_MEMORY_MAP_FAILED: return "VK_ERROR_MEMORY_MAP_FAILED";
    case VK_ERROR_LAYER_NOT_PRESENT: return "VK_ERROR_LAYER_NOT_PRESENT";
    case VK_ERROR_EXTENSION_NOT_PRESENT: return "VK_ERROR_EXTENSION_NOT_PRESENT";
    case VK_ERROR_FEATURE_NOT_PRESENT: return "VK_ERROR_FEATURE_NOT_PRESENT";
    case VK_ERROR_INCOMPATIBLE_DRIVER: return "VK_ERROR_INCOMPATIBLE_DRIVER";
    case VK_ERROR_TOO_MANY_OBJECTS: return "VK_ERROR_TOO_MANY_OBJECTS";
    case VK_ERROR_FORMAT_NOT_SUPPORTED: return "VK_ERROR_FORMAT_NOT_SUPPORTED";
    case VK_ERROR_FRAGMENTED_POOL: return "VK_ERROR_FRAGMENTED_POOL";
    case VK_ERROR_UNKNOWN: return "VK_ERROR_UNKNOWN";
    case VK_ERROR_OUT_OF_POOL_MEMORY: return "VK_ERROR_OUT_OF_POOL_MEMORY";
    case VK_ERROR_INVALID_EXTERNAL_HANDLE: return "VK_ERROR_INVALID_EXTERNAL_HANDLE";
    case VK_ERROR_FRAGMENTATION: return "VK_ERROR_FRAGMENTATION";
    case VK_PIPELINE_COMPILE_REQUIRED: return "VK_PIPELINE_COMPILE_REQUIRED";
    case VK_ERROR_INVALID_SHADER_NV: return "VK_ERROR_INVALID_SHADER_NV";
    default: return "VkResult(?)";
    }
}

static void decode_driver_version(vkr_device_info *info)
{
    uint32_t v = info->driver_version;
    if (info->vendor_id == 0x10de) { /* NVIDIA: 10.8.8.6 bits */
        (void)snprintf(info->driver_version_string, sizeof info->driver_version_string,
                       "%u.%u.%u.%u", v >> 22, (v >> 14) & 0xffu, (v >> 6) & 0xffu, v & 0x3fu);
    } else {
        (void)snprintf(info->driver_version_string, sizeof info->driver_version_string, "%u.%u.%u",
                       VK_API_VERSION_MAJOR(v), VK_API_VERSION_MINOR(v), VK_API_VERSION_PATCH(v));
    }
}

static int has_extension(const VkExtensionProperties *props, uint32_t count, const char *name)
{
    for (uint32_t i = 0; i < count; ++i)
        if (strcmp(props[i].extensionName, name) == 0) return 1;
    return 0;
}

static int find_memory_type(const vkr_context *ctx, uint32_t type_bits, VkMemoryPropertyFlags want,
                            uint32_t *out)
{
    VkPhysicalDeviceMemoryProperties mp;
    vkGetPhysicalDeviceMemoryProperties(ctx->physical, &mp);
    for (uint32_t i = 0; i < mp.memoryTypeCount; ++i) {
        if ((type_bits & (1u << i)) != 0 && (mp.memoryTypes[i].propertyFlags & want) == want) {
            *out = i;
            return 1;
        }
    }
    return 0;
}

#define VKR_CHECK(call, what)                                                                      \
    do {                                                                                           \
        VkResult r_ = (call);                                                                      \
        if (r_ != VK_SUCCESS) {                                                                    \
            spvbc_vk_format(msg, msg_size, "%s failed: %s (%d)", what, vkr_result_string(r_),      \
                            (int)r_);                                                              \
            return VKR_ERROR;                                                                      \
        }                                                                                          \
    } while (0)

static vkr_status pick_device(vkr_context *ctx, char *msg, size_t msg_size)
{
    uint32_t count = 0;
    VKR_CHECK(vkEnumeratePhysicalDevices(ctx->instance, &count, NULL),
              "vkEnumeratePhysicalDevices");
    if (count == 0) {
        spvbc_vk_format(msg, msg_size, "the Vulkan loader found no physical device");
        return VKR_NO_DEVICE;
    }
    VkPhysicalDevice *devs = calloc(count, sizeof *devs);
    if (devs == NULL) {
        spvbc_vk_format(msg, msg_size, "out of memory");
        return VKR_ERROR;
    }
    VkResult r = vkEnumeratePhysicalDevices(ctx->instance, &count, devs);
    if (r != VK_SUCCESS && r != VK_INCOMPLETE) {
        free(devs);
        spvbc_vk_format(msg, msg_size, "vkEnumeratePhysicalDevices failed: %s",
                        vkr_result_string(r));
        return VKR_ERROR;
    }
    uint32_t index = 0;
    const char *env = getenv("SPVBC_VK_DEVICE");
    if (env != NULL && *env != '\0') {
        unsigned long v = strtoul(env, NULL, 10);
        if (v >= count) {
            free(devs);
            spvbc_vk_format(msg, msg_size, "SPVBC_VK_DEVICE=%s but the loader lists %u device(s)",
                            env, count);
            return VKR_ERROR;
        }
        index = (uint32_t)v;
    }
    ctx->physical = devs[index];
    ctx->info.device_index = index;
    ctx->info.device_count = count;
    free(devs);
    return VKR_OK;
}

static vkr_status create_device(vkr_context *ctx, char *msg, size_t msg_size)
{
    VkPhysicalDeviceProperties props;
    vkGetPhysicalDeviceProperties(ctx->physical, &props);
    if (VK_API_VERSION_MINOR(props.apiVersion) < 2 && VK_API_VERSION_MAJOR(props.apiVersion) == 1) {
        spvbc_vk_format(
            msg, msg_size,
            "device '%s' supports Vulkan %u.%u only; SPIR-V 1.5 modules need Vulkan 1.2",
            props.deviceName, VK_API_VERSION_MAJOR(props.apiVersion),
            VK_API_VERSION_MINOR(props.apiVersion));
        return VKR_NO_DEVICE;
    }
    VkPhysicalDeviceDriverProperties driver = {
        .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_DRIVER_PROPERTIES};
    VkPhysicalDeviceFloatControlsProperties fc = {
        .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FLOAT_CONTROLS_PROPERTIES, .pNext = &driver};
    VkPhysicalDeviceProperties2 props2 = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2,
                                          .pNext = &fc};
    vkGetPhysicalDeviceProperties2(ctx->physical, &props2);
    vkr_device_info *info = &ctx->info;
    (void)snprintf(info->device_name, sizeof info->device_name, "%s", props.deviceName);
    (void)snprintf(info->driver_name, sizeof info->driver_name, "%s", driver.driverName);
    (void)snprintf(info->driver_info, sizeof info->driver_info, "%s", driver.driverInfo);
    info->driver_id = (uint32_t)driver.driverID;
    info->api_version = props.apiVersion;
    info->driver_version = props.driverVersion;
    info->vendor_id = props.vendorID;
    info->device_id = props.deviceID;
    decode_driver_version(info);
    /* The Mesa 25 runs must not pass on another driver (SPVBC_EXPECT_DRIVER_INFO). */
    if (spvbc_vk_check_expected_driver(info->driver_info, msg, msg_size) != SPVBC_VK_OK)
        return VKR_ERROR;

    /* Extensions: only VK_EXT_graphics_pipeline_library is optional here (chained modules). */
    uint32_t ext_count = 0;
    VKR_CHECK(vkEnumerateDeviceExtensionProperties(ctx->physical, NULL, &ext_count, NULL),
              "vkEnumerateDeviceExtensionProperties");
    VkExtensionProperties *exts = calloc(ext_count + 1u, sizeof *exts);
    if (exts == NULL) {
        spvbc_vk_format(msg, msg_size, "out of memory");
        return VKR_ERROR;
    }
    VkResult er = vkEnumerateDeviceExtensionProperties(ctx->physical, NULL, &ext_count, exts);
    int has_gpl = (er == VK_SUCCESS || er == VK_INCOMPLETE) &&
                  has_extension(exts, ext_count, VK_EXT_GRAPHICS_PIPELINE_LIBRARY_EXTENSION_NAME) &&
                  has_extension(exts, ext_count, VK_KHR_PIPELINE_LIBRARY_EXTENSION_NAME);
    free(exts);

    VkPhysicalDeviceGraphicsPipelineLibraryFeaturesEXT gpl = {
        .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_GRAPHICS_PIPELINE_LIBRARY_FEATURES_EXT};
    VkPhysicalDeviceVulkan12Features f12 = {
        .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES,
        .pNext = has_gpl ? (void *)&gpl : NULL};
    VkPhysicalDeviceVulkan11Features f11 = {
        .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_1_FEATURES, .pNext = &f12};
    VkPhysicalDeviceFeatures2 f2 = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2,
                                    .pNext = &f11};
    vkGetPhysicalDeviceFeatures2(ctx->physical, &f2);

    vkr_features *f = &ctx->features;
    f->shader_int8 = f12.shaderInt8 == VK_TRUE;
    f->shader_float16 = f12.shaderFloat16 == VK_TRUE;
    f->storage_buffer8 = f12.storageBuffer8BitAccess == VK_TRUE;
    f->storage_buffer16 = f11.storageBuffer16BitAccess == VK_TRUE;
    f->shader_int16 = f2.features.shaderInt16 == VK_TRUE;
    f->shader_int64 = f2.features.shaderInt64 == VK_TRUE;
    f->shader_float64 = f2.features.shaderFloat64 == VK_TRUE;
    f->float_controls_preserve32 = fc.shaderDenormPreserveFloat32 == VK_TRUE;
    f->chained_module = has_gpl && gpl.graphicsPipelineLibrary == VK_TRUE;

    /* Enable exactly the features the tests can use, nothing else. */
    VkPhysicalDeviceGraphicsPipelineLibraryFeaturesEXT gpl_on = {
        .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_GRAPHICS_PIPELINE_LIBRARY_FEATURES_EXT,
        .graphicsPipelineLibrary = f->chained_module ? VK_TRUE : VK_FALSE};
    VkPhysicalDeviceVulkan12Features on12 = {
        .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES,
        .pNext = f->chained_module ? (void *)&gpl_on : NULL,
        .shaderInt8 = f12.shaderInt8,
        .shaderFloat16 = f12.shaderFloat16,
        .storageBuffer8BitAccess = f12.storageBuffer8BitAccess};
    VkPhysicalDeviceVulkan11Features on11 = {
        .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_1_FEATURES,
        .pNext = &on12,
        .storageBuffer16BitAccess = f11.storageBuffer16BitAccess};
    VkPhysicalDeviceFeatures2 on2 = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2,
                                     .pNext = &on11};
    on2.features.shaderInt16 = f2.features.shaderInt16;
    on2.features.shaderInt64 = f2.features.shaderInt64;
    on2.features.shaderFloat64 = f2.features.shaderFloat64;

    uint32_t qcount = 0;
    vkGetPhysicalDeviceQueueFamilyProperties(ctx->physical, &qcount, NULL);
    VkQueueFamilyProperties *qprops = calloc(qcount + 1u, sizeof *qprops);
    if (qprops == NULL) {
        spvbc_vk_format(msg, msg_size, "out of memory");
        return VKR_ERROR;
    }
    vkGetPhysicalDeviceQueueFamilyProperties(ctx->physical, &qcount, qprops);
    uint32_t family = UINT32_MAX;
    for (uint32_t i = 0; i < qcount; ++i) {
        if ((qprops[i].queueFlags & VK_QUEUE_COMPUTE_BIT) != 0) {
            family = i;
            break;
        }
    }
    free(qprops);
    if (family == UINT32_MAX) {
        spvbc_vk_format(msg, msg_size, "device '%s' has no compute queue", info->device_name);
        return VKR_NO_DEVICE;
    }
    ctx->queue_family = family;

    const char *dev_exts[2];
    uint32_t dev_ext_count = 0;
    if (f->chained_module) {
        dev_exts[dev_ext_count++] = VK_KHR_PIPELINE_LIBRARY_EXTENSION_NAME;
        dev_exts[dev_ext_count++] = VK_EXT_GRAPHICS_PIPELINE_LIBRARY_EXTENSION_NAME;
    }
    float priority = 1.0f;
    VkDeviceQueueCreateInfo qci = {.sType = VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO,
                                   .queueFamilyIndex = family,
                                   .queueCount = 1,
                                   .pQueuePriorities = &priority};
    VkDeviceCreateInfo dci = {.sType = VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO,
                              .pNext = &on2,
                              .queueCreateInfoCount = 1,
                              .pQueueCreateInfos = &qci,
                              .enabledExtensionCount = dev_ext_count,
                              .ppEnabledExtensionNames = dev_ext_count ? dev_exts : NULL};
    VKR_CHECK(vkCreateDevice(ctx->physical, &dci, NULL, &ctx->device), "vkCreateDevice");
    vkGetDeviceQueue(ctx->device, family, 0, &ctx->queue);
    return VKR_OK;
}

static vkr_status create_resources(vkr_context *ctx, char *msg, size_t msg_size)
{
    for (int i = 0; i < 2; ++i) {
        VkBufferCreateInfo bci = {.sType = VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO,
                                  .size = ctx->buffer_size,
                                  .usage = VK_BUFFER_USAGE_STORAGE_BUFFER_BIT,
                                  .sharingMode = VK_SHARING_MODE_EXCLUSIVE};
        VKR_CHECK(vkCreateBuffer(ctx->device, &bci, NULL, &ctx->buffers[i]), "vkCreateBuffer");
        VkMemoryRequirements req;
        vkGetBufferMemoryRequirements(ctx->device, ctx->buffers[i], &req);
        uint32_t type = 0;
        if (!find_memory_type(ctx, req.memoryTypeBits,
                              VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT |
                                  VK_MEMORY_PROPERTY_HOST_COHERENT_BIT,
                              &type)) {
            spvbc_vk_format(msg, msg_size,
                            "no host-visible coherent memory type for a storage buffer");
            return VKR_ERROR;
        }
        VkMemoryAllocateInfo mai = {.sType = VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO,
                                    .allocationSize = req.size,
                                    .memoryTypeIndex = type};
        VKR_CHECK(vkAllocateMemory(ctx->device, &mai, NULL, &ctx->memory[i]), "vkAllocateMemory");
        VKR_CHECK(vkBindBufferMemory(ctx->device, ctx->buffers[i], ctx->memory[i], 0),
                  "vkBindBufferMemory");
        VKR_CHECK(vkMapMemory(ctx->device, ctx->memory[i], 0, VK_WHOLE_SIZE, 0, &ctx->mapped[i]),
                  "vkMapMemory");
    }
    VkDescriptorSetLayoutBinding bindings[2];
    for (uint32_t i = 0; i < 2; ++i) {
        bindings[i] =
            (VkDescriptorSetLayoutBinding){.binding = i,
                                           .descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER,
                                           .descriptorCount = 1,
                                           .stageFlags = VK_SHADER_STAGE_COMPUTE_BIT};
    }
    VkDescriptorSetLayoutCreateInfo dslci = {
        .sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO,
        .bindingCount = 2,
        .pBindings = bindings};
    VKR_CHECK(vkCreateDescriptorSetLayout(ctx->device, &dslci, NULL, &ctx->set_layout),
              "vkCreateDescriptorSetLayout");
    VkPipelineLayoutCreateInfo plci = {.sType = VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO,
                                       .setLayoutCount = 1,
                                       .pSetLayouts = &ctx->set_layout};
    VKR_CHECK(vkCreatePipelineLayout(ctx->device, &plci, NULL, &ctx->pipeline_layout),
              "vkCreatePipelineLayout");
    VkDescriptorPoolSize pool_size = {.type = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER,
                                      .descriptorCount = 2};
    VkDescriptorPoolCreateInfo dpci = {.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO,
                                       .maxSets = 1,
                                       .poolSizeCount = 1,
                                       .pPoolSizes = &pool_size};
    VKR_CHECK(vkCreateDescriptorPool(ctx->device, &dpci, NULL, &ctx->descriptor_pool),
              "vkCreateDescriptorPool");
    VkDescriptorSetAllocateInfo dsai = {.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO,
                                        .descriptorPool = ctx->descriptor_pool,
                                        .descriptorSetCount = 1,
                                        .pSetLayouts = &ctx->set_layout};
    VKR_CHECK(vkAllocateDescriptorSets(ctx->device, &dsai, &ctx->descriptor_set),
              "vkAllocateDescriptorSets");
    spvbc_vk_bind_two_buffers(ctx->device, ctx->descriptor_set, ctx->buffers);
    VkCommandPoolCreateInfo cpci = {.sType = VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO,
                                    .flags = VK_COMMAND_POOL_CREATE_RESET_COMMAND_BUFFER_BIT,
                                    .queueFamilyIndex = ctx->queue_family};
    VKR_CHECK(vkCreateCommandPool(ctx->device, &cpci, NULL, &ctx->command_pool),
              "vkCreateCommandPool");
    VkCommandBufferAllocateInfo cbai = {.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO,
                                        .commandPool = ctx->command_pool,
                                        .level = VK_COMMAND_BUFFER_LEVEL_PRIMARY,
                                        .commandBufferCount = 1};
    VKR_CHECK(vkAllocateCommandBuffers(ctx->device, &cbai, &ctx->command_buffer),
              "vkAllocateCommandBuffers");
    VkFenceCreateInfo fci = {.sType = VK_STRUCTURE_TYPE_FENCE_CREATE_INFO};
    VKR_CHECK(vkCreateFence(ctx->device, &fci, NULL, &ctx->fence), "vkCreateFence");
    return VKR_OK;
}

vkr_status vkr_create(const vkr_create_options *options, vkr_context **out, char *msg,
                      size_t msg_size)
{
    if (out == NULL) return VKR_ERROR;
    *out = NULL;
    vkr_context *ctx = calloc(1, sizeof *ctx);
    if (ctx == NULL) {
        spvbc_vk_format(msg, msg_size, "out of memory");
        return VKR_ERROR;
    }
    ctx->buffer_size = (options != NULL && options->buffer_size != 0) ? options->buffer_size
                                                                      : VKR_DEFAULT_BUFFER_SIZE;
    uint32_t loader_version = VK_API_VERSION_1_0;
    if (vkEnumerateInstanceVersion(&loader_version) != VK_SUCCESS ||
        loader_version < VK_API_VERSION_1_2) {
        spvbc_vk_format(msg, msg_size, "the Vulkan loader supports API %u.%u only; 1.2 is needed",
                        VK_API_VERSION_MAJOR(loader_version), VK_API_VERSION_MINOR(loader_version));
        free(ctx);
        return VKR_NO_DEVICE;
    }
    VkApplicationInfo app = {.sType = VK_STRUCTURE_TYPE_APPLICATION_INFO,
                             .pApplicationName = "spirv-bitcast exec tests",
                             .applicationVersion = 1,
                             .pEngineName = "spvbc-vkrun",
                             .engineVersion = 1,
                             .apiVersion = VK_API_VERSION_1_2};
    VkInstanceCreateInfo ici = {.sType = VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO,
                                .pApplicationInfo = &app,
                                .enabledLayerCount = options != NULL ? options->layer_count : 0,
                                .ppEnabledLayerNames = options != NULL ? options->layers : NULL};
    VkResult r = vkCreateInstance(&ici, NULL, &ctx->instance);
    if (r != VK_SUCCESS) {
        spvbc_vk_format(
            msg, msg_size, "vkCreateInstance failed: %s (%d)%s", vkr_result_string(r), (int)r,
            r == VK_ERROR_INCOMPATIBLE_DRIVER ? ": the loader found no Vulkan driver" : "");
        free(ctx);
        return r == VK_ERROR_INCOMPATIBLE_DRIVER ? VKR_NO_DEVICE : VKR_ERROR;
    }
    vkr_status st = pick_device(ctx, msg, msg_size);
    if (st == VKR_OK) st = create_device(ctx, msg, msg_size);
    if (st == VKR_OK) st = create_resources(ctx, msg, msg_size);
    if (st != VKR_OK) {
        vkr_destroy(ctx);
        return st;
    }
    *out = ctx;
    return VKR_OK;
}

void vkr_destroy(vkr_context *ctx)
{
    if (ctx == NULL) return;
    if (ctx->device != VK_NULL_HANDLE) {
        (void)vkDeviceWaitIdle(ctx->device);
        if (ctx->fence != VK_NULL_HANDLE) vkDestroyFence(ctx->device, ctx->fence, NULL);
        if (ctx->command_pool != VK_NULL_HANDLE)
            vkDestroyCommandPool(ctx->device, ctx->command_pool, NULL);
        if (ctx->descriptor_pool != VK_NULL_HANDLE)
            vkDestroyDescriptorPool(ctx->device, ctx->descriptor_pool, NULL);
        if (ctx->pipeline_layout != VK_NULL_HANDLE)
            vkDestroyPipelineLayout(ctx->device, ctx->pipeline_layout, NULL);
        if (ctx->set_layout != VK_NULL_HANDLE)
            vkDestroyDescriptorSetLayout(ctx->device, ctx->set_layout, NULL);
        for (int i = 0; i < 2; ++i) {
            if (ctx->buffers[i] != VK_NULL_HANDLE)
                vkDestroyBuffer(ctx->device, ctx->buffers[i], NULL);
            if (ctx->memory[i] != VK_NULL_HANDLE) vkFreeMemory(ctx->device, ctx->memory[i], NULL);
        }
        vkDestroyDevice(ctx->device, NULL);
    }
    if (ctx->instance != VK_NULL_HANDLE) vkDestroyInstance(ctx->instance, NULL);
    free(ctx);
}

const vkr_device_info *vkr_info(const vkr_context *ctx)
{
    return &ctx->info;
}

const vkr_features *vkr_get_features(const vkr_context *ctx)
{
    return &ctx->features;
}

int vkr_is_lavapipe(const vkr_context *ctx)
{
    return ctx->info.driver_id == (uint32_t)VK_DRIVER_ID_MESA_LLVMPIPE;
}

void vkr_describe(const vkr_context *ctx, char *buf, size_t size)
{
    const vkr_device_info *i = &ctx->info;
    (void)snprintf(buf, size, "%s [%s: %s; driverVersion %s (0x%08x)], Vulkan %u.%u.%u",
                   i->device_name, i->driver_name, i->driver_info, i->driver_version_string,
                   i->driver_version, VK_API_VERSION_MAJOR(i->api_version),
                   VK_API_VERSION_MINOR(i->api_version), VK_API_VERSION_PATCH(i->api_version));
}

#define VKR_RUN_CHECK(call, what)                                                                  \
    do {                                                                                           \
        VkResult r_ = (call);                                                                      \
        if (r_ != VK_SUCCESS) {                                                                    \
            res->result = r_;                                                                      \
            res->stage = what;                                                                     \
            spvbc_vk_format(msg, msg_size, "%s failed: %s (%d)", what, vkr_result_string(r_),      \
                            (int)r_);                                                              \
            goto done;                                                                             \
        }                                                                                          \
    } while (0)

vkr_status vkr_run(vkr_context *ctx, const uint32_t *words, size_t word_count, vkr_module_path path,
                   const void *in, size_t in_size, void *out, size_t out_size, uint8_t out_fill,
                   uint32_t groups, vkr_run_result *res, char *msg, size_t msg_size)
{
    vkr_run_result local;
    if (res == NULL) res = &local;
    res->result = VK_SUCCESS;
    res->stage = NULL;
    if (ctx == NULL || words == NULL || in_size > ctx->buffer_size || out_size > ctx->buffer_size) {
        res->result = VK_ERROR_UNKNOWN;
        res->stage = "vkr_run arguments";
        spvbc_vk_format(msg, msg_size, "vkr_run: bad arguments (sizes above %zu bytes?)",
                        ctx != NULL ? ctx->buffer_size : (size_t)0);
        return VKR_ERROR;
    }
    if (path == VKR_MODULE_CHAINED && !ctx->features.chained_module) {
        res->result = VK_ERROR_FEATURE_NOT_PRESENT;
        res->stage = "chained VkShaderModuleCreateInfo";
        spvbc_vk_format(msg, msg_size, "the device cannot take a chained VkShaderModuleCreateInfo");
        return VKR_ERROR;
    }
    VkShaderModule module = VK_NULL_HANDLE;
    VkPipeline pipeline = VK_NULL_HANDLE;
    memset(ctx->mapped[0], 0, ctx->buffer_size);
    if (in_size > 0) memcpy(ctx->mapped[0], in, in_size);
    memset(ctx->mapped[1], out_fill, ctx->buffer_size);

    VkShaderModuleCreateInfo smci = {.sType = VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO,
                                     .codeSize = word_count * sizeof(uint32_t),
                                     .pCode = words};
    if (path == VKR_MODULE_OBJECT)
        VKR_RUN_CHECK(vkCreateShaderModule(ctx->device, &smci, NULL, &module),
                      "vkCreateShaderModule");
    VkComputePipelineCreateInfo cpci = {
        .sType = VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO,
        .stage = {.sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO,
                  .pNext = path == VKR_MODULE_CHAINED ? &smci : NULL,
                  .stage = VK_SHADER_STAGE_COMPUTE_BIT,
                  .module = module,
                  .pName = "main"},
        .layout = ctx->pipeline_layout};
    VKR_RUN_CHECK(vkCreateComputePipelines(ctx->device, VK_NULL_HANDLE, 1, &cpci, NULL, &pipeline),
                  "vkCreateComputePipelines");
    VkCommandBufferBeginInfo cbbi = {.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO,
                                     .flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT};
    VKR_RUN_CHECK(vkResetCommandBuffer(ctx->command_buffer, 0), "vkResetCommandBuffer");
    VKR_RUN_CHECK(vkBeginCommandBuffer(ctx->command_buffer, &cbbi), "vkBeginCommandBuffer");
    vkCmdBindPipeline(ctx->command_buffer, VK_PIPELINE_BIND_POINT_COMPUTE, pipeline);
    vkCmdBindDescriptorSets(ctx->command_buffer, VK_PIPELINE_BIND_POINT_COMPUTE,
                            ctx->pipeline_layout, 0, 1, &ctx->descriptor_set, 0, NULL);
    vkCmdDispatch(ctx->command_buffer, groups, 1, 1);
    VkMemoryBarrier barrier = {.sType = VK_STRUCTURE_TYPE_MEMORY_BARRIER,
                               .srcAccessMask = VK_ACCESS_SHADER_WRITE_BIT,
                               .dstAccessMask = VK_ACCESS_HOST_READ_BIT};
    vkCmdPipelineBarrier(ctx->command_buffer, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT,
                         VK_PIPELINE_STAGE_HOST_BIT, 0, 1, &barrier, 0, NULL, 0, NULL);
    VKR_RUN_CHECK(vkEndCommandBuffer(ctx->command_buffer), "vkEndCommandBuffer");
    VkSubmitInfo si = {.sType = VK_STRUCTURE_TYPE_SUBMIT_INFO,
                       .commandBufferCount = 1,
                       .pCommandBuffers = &ctx->command_buffer};
    VKR_RUN_CHECK(vkResetFences(ctx->device, 1, &ctx->fence), "vkResetFences");
    VKR_RUN_CHECK(vkQueueSubmit(ctx->queue, 1, &si, ctx->fence), "vkQueueSubmit");
    VKR_RUN_CHECK(vkWaitForFences(ctx->device, 1, &ctx->fence, VK_TRUE, VKR_FENCE_TIMEOUT_NS),
                  "vkWaitForFences");
    if (out_size > 0) memcpy(out, ctx->mapped[1], out_size);
done:
    if (pipeline != VK_NULL_HANDLE) vkDestroyPipeline(ctx->device, pipeline, NULL);
    if (module != VK_NULL_HANDLE) vkDestroyShaderModule(ctx->device, module, NULL);
    return res->result == VK_SUCCESS ? VKR_OK : VKR_ERROR;
}

VkResult vkr_create_module(vkr_context *ctx, const uint32_t *words, size_t word_count)
{
    if (ctx == NULL || words == NULL) return VK_ERROR_UNKNOWN;
    VkShaderModuleCreateInfo smci = {.sType = VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO,
                                     .codeSize = word_count * sizeof(uint32_t),
                                     .pCode = words};
    VkShaderModule module = VK_NULL_HANDLE;
    VkResult r = vkCreateShaderModule(ctx->device, &smci, NULL, &module);
    if (r == VK_SUCCESS) vkDestroyShaderModule(ctx->device, module, NULL);
    return r;
}

VkInstance vkr_instance(const vkr_context *ctx)
{
    return ctx->instance;
}

VkDevice vkr_device(const vkr_context *ctx)
{
    return ctx->device;
}

VkResult vkr_create_vertex_pipeline(vkr_context *ctx, const uint32_t *words, size_t word_count,
                                    vkr_module_path path)
{
    if (ctx == NULL || words == NULL) return VK_ERROR_UNKNOWN;
    if (path == VKR_MODULE_CHAINED && !ctx->features.chained_module)
        return VK_ERROR_FEATURE_NOT_PRESENT;
    VkShaderModuleCreateInfo smci = {.sType = VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO,
                                     .codeSize = word_count * sizeof(uint32_t),
                                     .pCode = words};
    VkShaderModule module = VK_NULL_HANDLE;
    VkRenderPass pass = VK_NULL_HANDLE;
    VkPipeline pipeline = VK_NULL_HANDLE;
    VkResult r = VK_SUCCESS;
    if (path == VKR_MODULE_OBJECT) {
        r = vkCreateShaderModule(ctx->device, &smci, NULL, &module);
        if (r != VK_SUCCESS) goto done;
    }
    VkSubpassDescription subpass = {.pipelineBindPoint = VK_PIPELINE_BIND_POINT_GRAPHICS};
    VkRenderPassCreateInfo rpci = {.sType = VK_STRUCTURE_TYPE_RENDER_PASS_CREATE_INFO,
                                   .subpassCount = 1,
                                   .pSubpasses = &subpass};
    r = vkCreateRenderPass(ctx->device, &rpci, NULL, &pass);
    if (r != VK_SUCCESS) goto done;
    VkPipelineShaderStageCreateInfo stage = {
        .sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO,
        .pNext = path == VKR_MODULE_CHAINED ? &smci : NULL,
        .stage = VK_SHADER_STAGE_VERTEX_BIT,
        .module = module,
        .pName = "main"};
    VkPipelineVertexInputStateCreateInfo vi = {
        .sType = VK_STRUCTURE_TYPE_PIPELINE_VERTEX_INPUT_STATE_CREATE_INFO};
    VkPipelineInputAssemblyStateCreateInfo ia = {
        .sType = VK_STRUCTURE_TYPE_PIPELINE_INPUT_ASSEMBLY_STATE_CREATE_INFO,
        .topology = VK_PRIMITIVE_TOPOLOGY_POINT_LIST};
    VkPipelineRasterizationStateCreateInfo rs = {
        .sType = VK_STRUCTURE_TYPE_PIPELINE_RASTERIZATION_STATE_CREATE_INFO,
        .rasterizerDiscardEnable = VK_TRUE,
        .polygonMode = VK_POLYGON_MODE_FILL,
        .cullMode = VK_CULL_MODE_NONE,
        .frontFace = VK_FRONT_FACE_COUNTER_CLOCKWISE,
        .lineWidth = 1.0f};
    VkGraphicsPipelineCreateInfo gpci = {.sType = VK_STRUCTURE_TYPE_GRAPHICS_PIPELINE_CREATE_INFO,
                                         .stageCount = 1,
                                         .pStages = &stage,
                                         .pVertexInputState = &vi,
                                         .pInputAssemblyState = &ia,
                                         .pRasterizationState = &rs,
                                         .layout = ctx->pipeline_layout,
                                         .renderPass = pass,
                                         .subpass = 0};
    r = vkCreateGraphicsPipelines(ctx->device, VK_NULL_HANDLE, 1, &gpci, NULL, &pipeline);
done:
    if (pipeline != VK_NULL_HANDLE) vkDestroyPipeline(ctx->device, pipeline, NULL);
    if (pass != VK_NULL_HANDLE) vkDestroyRenderPass(ctx->device, pass, NULL);
    if (module != VK_NULL_HANDLE) vkDestroyShaderModule(ctx->device, module, NULL);
    return r;
}
