/*
 * vulkan_setup.c - the Vulkan set-up the layer's tests share (see vulkan_setup.h).
 *
 * SPDX-License-Identifier: Apache-2.0
 */
#include "vulkan_setup.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "astype_gen.h"
#include "test_file.h"

#define FENCE_TIMEOUT_NS 30000000000ull

void spvbc_vk_format(char *msg, size_t size, const char *fmt, ...)
{
    if (msg == NULL || size == 0) return;
    va_list ap;
    va_start(ap, fmt);
    (void)vsnprintf(msg, size, fmt, ap);
    va_end(ap);
}

const char *spvbc_vk_result_string(VkResult r)
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

/* Returns SPVBC_VK_ERROR (with the call's name and result in `msg`) unless `r` is VK_SUCCESS. */
static spvbc_vk_status vk_ok(VkResult r, const char *call, char *msg, size_t size)
{
    if (r == VK_SUCCESS) return SPVBC_VK_OK;
    spvbc_vk_format(msg, size, "%s failed: %s (%d)", call, spvbc_vk_result_string(r), (int)r);
    return SPVBC_VK_ERROR;
}

/* vk_ok() that also records a failing call in `c`. */
static spvbc_vk_status ck(spvbc_vk_compute *c, VkResult r, const char *call, char *msg, size_t size)
{
    if (r != VK_SUCCESS) {
        c->result = r;
        c->failed_call = call;
    }
    return vk_ok(r, call, msg, size);
}

static VKAPI_ATTR VkBool32 VKAPI_CALL on_message(VkDebugUtilsMessageSeverityFlagBitsEXT severity,
                                                 VkDebugUtilsMessageTypeFlagsEXT types,
                                                 const VkDebugUtilsMessengerCallbackDataEXT *data,
                                                 void *user)
{
    (void)types;
    spvbc_vk *vk = user;
    const char *sev = (severity & VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT)     ? "error"
                      : (severity & VK_DEBUG_UTILS_MESSAGE_SEVERITY_WARNING_BIT_EXT) ? "warning"
                                                                                     : "info";
    if (vk == NULL || data == NULL || (severity & VK_DEBUG_UTILS_MESSAGE_SEVERITY_VERBOSE_BIT_EXT))
        return VK_FALSE;
    const char *id = data->pMessageIdName != NULL ? data->pMessageIdName : "-";
    const char *text = data->pMessage != NULL ? data->pMessage : "";
    char object[64] = ""; /* the first object named, if any */
    if (data->objectCount > 0 && data->pObjects != NULL)
        (void)snprintf(object, sizeof object, " [object %d 0x%llx]",
                       (int)data->pObjects[0].objectType,
                       (unsigned long long)data->pObjects[0].objectHandle);
    size_t need = strlen(sev) + strlen(id) + strlen(text) + strlen(object) + 8u;
    (void)pthread_mutex_lock(&vk->lock);
    if (vk->messages_len + need > vk->messages_cap) {
        size_t cap = (vk->messages_len + need) * 2u;
        char *m = realloc(vk->messages, cap);
        if (m != NULL) {
            vk->messages = m;
            vk->messages_cap = cap;
        }
    }
    if (vk->messages_len + need <= vk->messages_cap) {
        int n = snprintf(vk->messages + vk->messages_len, need, "%s: %s: %s%s\n", sev, id, text,
                         object);
        if (n > 0) vk->messages_len += (size_t)n < need ? (size_t)n : need - 1u;
        vk->message_count++;
    }
    (void)pthread_mutex_unlock(&vk->lock);
    return VK_FALSE;
}

void spvbc_vk_clear_messages(spvbc_vk *vk)
{
    (void)pthread_mutex_lock(&vk->lock);
    vk->messages_len = 0;
    if (vk->messages != NULL) vk->messages[0] = '\0';
    vk->message_count = 0;
    (void)pthread_mutex_unlock(&vk->lock);
}

int spvbc_vk_messages_contain(spvbc_vk *vk, const char *needle)
{
    (void)pthread_mutex_lock(&vk->lock);
    int found = vk->messages != NULL && vk->messages_len > 0 && strstr(vk->messages, needle);
    (void)pthread_mutex_unlock(&vk->lock);
    return found;
}

int spvbc_vk_has_device_extension(VkPhysicalDevice physical, const char *name)
{
    uint32_t n = 0;
    if (vkEnumerateDeviceExtensionProperties(physical, NULL, &n, NULL) != VK_SUCCESS) return 0;
    VkExtensionProperties *p = calloc(n + 1u, sizeof *p);
    int found = 0;
    if (p != NULL && vkEnumerateDeviceExtensionProperties(physical, NULL, &n, p) == VK_SUCCESS)
        for (uint32_t i = 0; i < n && !found; ++i)
            found = strcmp(p[i].extensionName, name) == 0;
    free(p);
    return found;
}

spvbc_vk_status spvbc_vk_check_expected_driver(const char *driver_info, char *msg, size_t msg_size)
{
    const char *want = getenv("SPVBC_EXPECT_DRIVER_INFO");
    if (want == NULL || *want == '\0') return SPVBC_VK_OK;
    if (driver_info != NULL && strstr(driver_info, want) != NULL) return SPVBC_VK_OK;
    spvbc_vk_format(msg, msg_size,
                    "the device's driver is '%s', but this test must run on '%s' "
                    "(SPVBC_EXPECT_DRIVER_INFO): the driver selection did not work",
                    driver_info != NULL ? driver_info : "?", want);
    return SPVBC_VK_ERROR;
}

static int layer_present(const char *name)
{
    uint32_t n = 0;
    if (vkEnumerateInstanceLayerProperties(&n, NULL) != VK_SUCCESS) return 0;
    VkLayerProperties *p = calloc(n + 1u, sizeof *p);
    int found = 0;
    if (p != NULL && vkEnumerateInstanceLayerProperties(&n, p) == VK_SUCCESS)
        for (uint32_t i = 0; i < n && !found; ++i)
            found = strcmp(p[i].layerName, name) == 0;
    free(p);
    return found;
}

static spvbc_vk_status create_instance(const spvbc_vk_options *o, spvbc_vk *vk, char *msg,
                                       size_t msg_size)
{
    for (uint32_t i = 0; i < o->layer_count; ++i) {
        if (!layer_present(o->layers[i])) {
            spvbc_vk_format(msg, msg_size, "the Vulkan loader does not find layer %s",
                            o->layers[i]);
            return SPVBC_VK_NO_DEVICE;
        }
    }
    VkApplicationInfo app = {.sType = VK_STRUCTURE_TYPE_APPLICATION_INFO,
                             .pApplicationName = o->application_name != NULL
                                                     ? o->application_name
                                                     : "spirv-bitcast layer tests",
                             .apiVersion = o->api_version ? o->api_version : VK_API_VERSION_1_3};
    VkDebugUtilsMessengerCreateInfoEXT dci = {
        .sType = VK_STRUCTURE_TYPE_DEBUG_UTILS_MESSENGER_CREATE_INFO_EXT,
        .messageSeverity = VK_DEBUG_UTILS_MESSAGE_SEVERITY_INFO_BIT_EXT |
                           VK_DEBUG_UTILS_MESSAGE_SEVERITY_WARNING_BIT_EXT |
                           VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT,
        .messageType = VK_DEBUG_UTILS_MESSAGE_TYPE_GENERAL_BIT_EXT |
                       VK_DEBUG_UTILS_MESSAGE_TYPE_VALIDATION_BIT_EXT |
                       VK_DEBUG_UTILS_MESSAGE_TYPE_PERFORMANCE_BIT_EXT,
        .pfnUserCallback = on_message,
        .pUserData = vk,
        .pNext = o->instance_next};
    const char *ext = VK_EXT_DEBUG_UTILS_EXTENSION_NAME;
    VkInstanceCreateInfo ici = {.sType = VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO,
                                .pNext = o->debug_utils ? &dci : o->instance_next,
                                .pApplicationInfo = &app,
                                .enabledLayerCount = o->layer_count,
                                .ppEnabledLayerNames = o->layer_count ? o->layers : NULL,
                                .enabledExtensionCount = o->debug_utils ? 1u : 0u,
                                .ppEnabledExtensionNames = o->debug_utils ? &ext : NULL};
#ifdef SPVBC_TEST_KEEP_DRIVERS
    spvbc_vk_keep_drivers_mapped();
#endif
    VkResult r = vkCreateInstance(&ici, NULL, &vk->instance);
    if (r == VK_ERROR_INCOMPATIBLE_DRIVER || r == VK_ERROR_EXTENSION_NOT_PRESENT) {
        spvbc_vk_format(msg, msg_size, "vkCreateInstance: VkResult %d (no driver, or no %s)",
                        (int)r, ext);
        return SPVBC_VK_NO_DEVICE;
    }
    if (vk_ok(r, "vkCreateInstance", msg, msg_size) != SPVBC_VK_OK) return SPVBC_VK_ERROR;
    if (o->debug_utils) {
        PFN_vkCreateDebugUtilsMessengerEXT create = (PFN_vkCreateDebugUtilsMessengerEXT)(void (*)(
            void))vkGetInstanceProcAddr(vk->instance, "vkCreateDebugUtilsMessengerEXT");
        if (create == NULL) {
            spvbc_vk_format(msg, msg_size, "vkCreateDebugUtilsMessengerEXT not found");
            return SPVBC_VK_ERROR;
        }
        if (vk_ok(create(vk->instance, &dci, NULL, &vk->messenger),
                  "vkCreateDebugUtilsMessengerEXT", msg, msg_size) != SPVBC_VK_OK)
            return SPVBC_VK_ERROR;
    }
    return SPVBC_VK_OK;
}

static spvbc_vk_status pick_physical(const spvbc_vk_options *o, spvbc_vk *vk, char *msg,
                                     size_t msg_size)
{
    uint32_t n = 0;
    if (vk_ok(vkEnumeratePhysicalDevices(vk->instance, &n, NULL), "vkEnumeratePhysicalDevices", msg,
              msg_size) != SPVBC_VK_OK)
        return SPVBC_VK_ERROR;
    uint32_t index = 0;
    const char *env = getenv("SPVBC_VK_DEVICE");
    if (env != NULL && *env != '\0') index = (uint32_t)strtoul(env, NULL, 10);
    if (n == 0 || index >= n) {
        spvbc_vk_format(msg, msg_size, "the loader lists %u physical device(s); device %u wanted",
                        n, index);
        /* no device: a skip; a device the environment names that is not there: an error */
        return n == 0 ? SPVBC_VK_NO_DEVICE : SPVBC_VK_ERROR;
    }
    vk->device_index = index;
    vk->device_count = n;
    VkPhysicalDevice *all = calloc(n, sizeof *all);
    if (all == NULL) return vk_ok(VK_ERROR_OUT_OF_HOST_MEMORY, "calloc", msg, msg_size);
    VkResult r = vkEnumeratePhysicalDevices(vk->instance, &n, all);
    if (r == VK_SUCCESS || r == VK_INCOMPLETE) vk->physical = all[index < n ? index : 0];
    free(all);
    if (vk->physical == VK_NULL_HANDLE)
        return vk_ok(r, "vkEnumeratePhysicalDevices", msg, msg_size);

    VkPhysicalDeviceDriverProperties drv = {
        .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_DRIVER_PROPERTIES};
    VkPhysicalDeviceProperties2 p2 = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2,
                                      .pNext = &drv};
    vkGetPhysicalDeviceProperties2(vk->physical, &p2);
    vk->driver_id = drv.driverID;
    /* Names are cut to fit (the driver's info matters most). */
    (void)snprintf(vk->description, sizeof vk->description,
                   "%.96s [%.64s: %.200s], Vulkan %u.%u.%u", p2.properties.deviceName,
                   drv.driverName, drv.driverInfo, VK_API_VERSION_MAJOR(p2.properties.apiVersion),
                   VK_API_VERSION_MINOR(p2.properties.apiVersion),
                   VK_API_VERSION_PATCH(p2.properties.apiVersion));
    uint32_t want = o->api_version ? o->api_version : VK_API_VERSION_1_3;
    if (VK_API_VERSION_MINOR(p2.properties.apiVersion) < VK_API_VERSION_MINOR(want) &&
        VK_API_VERSION_MAJOR(p2.properties.apiVersion) == 1) {
        spvbc_vk_format(msg, msg_size, "%s: Vulkan %u.%u is needed", vk->description,
                        VK_API_VERSION_MAJOR(want), VK_API_VERSION_MINOR(want));
        return SPVBC_VK_NO_DEVICE;
    }
    return spvbc_vk_check_expected_driver(drv.driverInfo, msg, msg_size);
}

spvbc_vk_status spvbc_vk_create_device(const spvbc_vk_options *options, spvbc_vk *vk, char *msg,
                                       size_t msg_size)
{
    static const spvbc_vk_options none = {0};
    const spvbc_vk_options *o = options != NULL ? options : &none;
    for (uint32_t i = 0; i < o->device_extension_count; ++i) {
        if (!spvbc_vk_has_device_extension(vk->physical, o->device_extensions[i])) {
            spvbc_vk_format(msg, msg_size, "%s does not offer %s", vk->description,
                            o->device_extensions[i]);
            return SPVBC_VK_NO_DEVICE;
        }
    }
    uint32_t nq = 0;
    vkGetPhysicalDeviceQueueFamilyProperties(vk->physical, &nq, NULL);
    VkQueueFamilyProperties *q = calloc(nq + 1u, sizeof *q);
    if (q == NULL) return vk_ok(VK_ERROR_OUT_OF_HOST_MEMORY, "calloc", msg, msg_size);
    vkGetPhysicalDeviceQueueFamilyProperties(vk->physical, &nq, q);
    vk->queue_family = UINT32_MAX;
    for (uint32_t i = 0; i < nq && vk->queue_family == UINT32_MAX; ++i)
        if (q[i].queueFlags & VK_QUEUE_COMPUTE_BIT) vk->queue_family = i;
    free(q);
    if (vk->queue_family == UINT32_MAX) {
        spvbc_vk_format(msg, msg_size, "%s has no compute queue", vk->description);
        return SPVBC_VK_NO_DEVICE;
    }
    if (vk_ok(spvbc_vk_new_device(vk, o, &vk->device), "vkCreateDevice", msg, msg_size) !=
        SPVBC_VK_OK)
        return SPVBC_VK_ERROR;
    vkGetDeviceQueue(vk->device, vk->queue_family, 0, &vk->queue);
    return SPVBC_VK_OK;
}

VkResult spvbc_vk_new_device(const spvbc_vk *vk, const spvbc_vk_options *options, VkDevice *out)
{
    static const spvbc_vk_options none = {0};
    const spvbc_vk_options *o = options != NULL ? options : &none;
    float priority = 1.0f;
    VkDeviceQueueCreateInfo qci = {.sType = VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO,
                                   .queueFamilyIndex = vk->queue_family,
                                   .queueCount = 1,
                                   .pQueuePriorities = &priority};
    VkDeviceCreateInfo dci = {.sType = VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO,
                              .pNext = o->device_features,
                              .queueCreateInfoCount = 1,
                              .pQueueCreateInfos = &qci,
                              .enabledExtensionCount = o->device_extension_count,
                              .ppEnabledExtensionNames =
                                  o->device_extension_count ? o->device_extensions : NULL};
    return vkCreateDevice(vk->physical, &dci, NULL, out);
}

spvbc_vk_status spvbc_vk_create_instance(const spvbc_vk_options *options, spvbc_vk *vk, char *msg,
                                         size_t msg_size)
{
    static const spvbc_vk_options none = {0};
    if (vk == NULL) return SPVBC_VK_ERROR;
    memset(vk, 0, sizeof *vk);
    (void)pthread_mutex_init(&vk->lock, NULL);
    const spvbc_vk_options *o = options != NULL ? options : &none;
    spvbc_vk_status st = create_instance(o, vk, msg, msg_size);
    if (st == SPVBC_VK_OK) st = pick_physical(o, vk, msg, msg_size);
    return st;
}

spvbc_vk_status spvbc_vk_create(const spvbc_vk_options *options, spvbc_vk *vk, char *msg,
                                size_t msg_size)
{
    spvbc_vk_status st = spvbc_vk_create_instance(options, vk, msg, msg_size);
    if (st == SPVBC_VK_OK) st = spvbc_vk_create_device(options, vk, msg, msg_size);
    if (st != SPVBC_VK_OK && vk != NULL) spvbc_vk_destroy(vk);
    return st;
}

void spvbc_vk_destroy(spvbc_vk *vk)
{
    if (vk == NULL) return;
    if (vk->device != VK_NULL_HANDLE) {
        (void)vkDeviceWaitIdle(vk->device);
        vkDestroyDevice(vk->device, NULL);
    }
    if (vk->messenger != VK_NULL_HANDLE) {
        PFN_vkDestroyDebugUtilsMessengerEXT destroy =
            (PFN_vkDestroyDebugUtilsMessengerEXT)(void (*)(void))vkGetInstanceProcAddr(
                vk->instance, "vkDestroyDebugUtilsMessengerEXT");
        if (destroy != NULL) destroy(vk->instance, vk->messenger, NULL);
    }
    if (vk->instance != VK_NULL_HANDLE) vkDestroyInstance(vk->instance, NULL);
    free(vk->messages);
    vk->device = VK_NULL_HANDLE;
    vk->messenger = VK_NULL_HANDLE;
    vk->instance = VK_NULL_HANDLE;
    vk->messages = NULL;
    vk->messages_len = vk->messages_cap = 0;
}

/* ---------------------------------------------------------------------------------------- */
/* Modules */

/* Assembles `text` (which it frees) for Vulkan. */
static uint32_t *assemble_owned(char *text, size_t *word_count)
{
    if (text == NULL) return NULL;
    uint32_t *words = NULL;
    int rc = spvbc_gen_assemble(text, spvbc_gen_target_env(SPVBC_GEN_VULKAN), &words, word_count);
    free(text);
    return rc == 0 ? words : NULL;
}

uint32_t *spvbc_vk_naive_module(const char *src, const char *dst, size_t *word_count)
{
    spvbc_type_desc s, d;
    if (spvbc_type_desc_from_opencl(src, &s) != SPVBC_SUCCESS ||
        spvbc_type_desc_from_opencl(dst, &d) != SPVBC_SUCCESS)
        return NULL;
    return assemble_owned(spvbc_gen_astype_text(&s, &d, SPVBC_GEN_VULKAN), word_count);
}

uint32_t *spvbc_vk_assemble_file(const char *dir, const char *name, size_t *word_count)
{
    char path[1024];
    (void)snprintf(path, sizeof path, "%s/%s", dir, name);
    char *text = spvbc_test_read_file(path);
    if (text != NULL && text[0] == '\0') {
        free(text);
        return NULL;
    }
    return assemble_owned(text, word_count);
}

/* ---------------------------------------------------------------------------------------- */
/* Compute harness */

static spvbc_vk_status make_buffer(const spvbc_vk *vk, spvbc_vk_compute *c, int i, char *msg,
                                   size_t msg_size)
{
    VkBufferCreateInfo bci = {.sType = VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO,
                              .size = c->size,
                              .usage = VK_BUFFER_USAGE_STORAGE_BUFFER_BIT};
    if (vk_ok(vkCreateBuffer(vk->device, &bci, NULL, &c->buffers[i]), "vkCreateBuffer", msg,
              msg_size) != SPVBC_VK_OK)
        return SPVBC_VK_ERROR;
    VkMemoryRequirements req;
    vkGetBufferMemoryRequirements(vk->device, c->buffers[i], &req);
    VkPhysicalDeviceMemoryProperties mp;
    vkGetPhysicalDeviceMemoryProperties(vk->physical, &mp);
    const VkMemoryPropertyFlags want =
        VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT;
    uint32_t type = UINT32_MAX;
    for (uint32_t t = 0; t < mp.memoryTypeCount && type == UINT32_MAX; ++t)
        if ((req.memoryTypeBits >> t & 1u) && (mp.memoryTypes[t].propertyFlags & want) == want)
            type = t;
    if (type == UINT32_MAX) {
        spvbc_vk_format(msg, msg_size, "no host-visible coherent memory for a storage buffer");
        return SPVBC_VK_ERROR;
    }
    VkMemoryAllocateInfo mai = {.sType = VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO,
                                .allocationSize = req.size,
                                .memoryTypeIndex = type};
    if (vk_ok(vkAllocateMemory(vk->device, &mai, NULL, &c->memory[i]), "vkAllocateMemory", msg,
              msg_size) != SPVBC_VK_OK ||
        vk_ok(vkBindBufferMemory(vk->device, c->buffers[i], c->memory[i], 0), "vkBindBufferMemory",
              msg, msg_size) != SPVBC_VK_OK)
        return SPVBC_VK_ERROR;
    return vk_ok(vkMapMemory(vk->device, c->memory[i], 0, VK_WHOLE_SIZE, 0, &c->mapped[i]),
                 "vkMapMemory", msg, msg_size);
}

spvbc_vk_status spvbc_vk_compute_create(const spvbc_vk *vk, VkDeviceSize size, spvbc_vk_compute *c,
                                        char *msg, size_t msg_size)
{
    memset(c, 0, sizeof *c);
    c->size = size;
    VkDevice d = vk->device;
    if (make_buffer(vk, c, 0, msg, msg_size) != SPVBC_VK_OK ||
        make_buffer(vk, c, 1, msg, msg_size) != SPVBC_VK_OK)
        return SPVBC_VK_ERROR;
    VkDescriptorSetLayoutBinding b[2] = {
        {0, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1, VK_SHADER_STAGE_COMPUTE_BIT, NULL},
        {1, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1, VK_SHADER_STAGE_COMPUTE_BIT, NULL}};
    VkDescriptorSetLayoutCreateInfo sl = {.sType =
                                              VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO,
                                          .bindingCount = 2,
                                          .pBindings = b};
    VkPipelineLayoutCreateInfo pl = {.sType = VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO,
                                     .setLayoutCount = 1,
                                     .pSetLayouts = &c->set_layout};
    VkDescriptorPoolSize ps = {VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 2};
    VkDescriptorPoolCreateInfo dp = {.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO,
                                     .maxSets = 1,
                                     .poolSizeCount = 1,
                                     .pPoolSizes = &ps};
    VkDescriptorSetAllocateInfo ds = {.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO,
                                      .descriptorSetCount = 1,
                                      .pSetLayouts = &c->set_layout};
    VkCommandPoolCreateInfo cp = {.sType = VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO,
                                  .flags = VK_COMMAND_POOL_CREATE_RESET_COMMAND_BUFFER_BIT,
                                  .queueFamilyIndex = vk->queue_family};
    VkCommandBufferAllocateInfo cb = {.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO,
                                      .level = VK_COMMAND_BUFFER_LEVEL_PRIMARY,
                                      .commandBufferCount = 1};
    VkFenceCreateInfo fc = {.sType = VK_STRUCTURE_TYPE_FENCE_CREATE_INFO};
    if (vk_ok(vkCreateDescriptorSetLayout(d, &sl, NULL, &c->set_layout), "set layout", msg,
              msg_size) ||
        vk_ok(vkCreatePipelineLayout(d, &pl, NULL, &c->pipeline_layout), "pipeline layout", msg,
              msg_size) ||
        vk_ok(vkCreateDescriptorPool(d, &dp, NULL, &c->pool), "descriptor pool", msg, msg_size))
        return SPVBC_VK_ERROR;
    ds.descriptorPool = c->pool;
    if (vk_ok(vkAllocateDescriptorSets(d, &ds, &c->set), "vkAllocateDescriptorSets", msg,
              msg_size) ||
        vk_ok(vkCreateCommandPool(d, &cp, NULL, &c->command_pool), "command pool", msg, msg_size))
        return SPVBC_VK_ERROR;
    cb.commandPool = c->command_pool;
    if (vk_ok(vkAllocateCommandBuffers(d, &cb, &c->cmd), "vkAllocateCommandBuffers", msg,
              msg_size) ||
        vk_ok(vkCreateFence(d, &fc, NULL, &c->fence), "vkCreateFence", msg, msg_size))
        return SPVBC_VK_ERROR;
    spvbc_vk_bind_two_buffers(d, c->set, c->buffers);
    return SPVBC_VK_OK;
}

void spvbc_vk_bind_two_buffers(VkDevice device, VkDescriptorSet set, const VkBuffer buffers[2])
{
    VkDescriptorBufferInfo bi[2] = {{buffers[0], 0, VK_WHOLE_SIZE}, {buffers[1], 0, VK_WHOLE_SIZE}};
    VkWriteDescriptorSet w[2];
    for (uint32_t i = 0; i < 2; ++i)
        w[i] = (VkWriteDescriptorSet){.sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET,
                                      .dstSet = set,
                                      .dstBinding = i,
                                      .descriptorCount = 1,
                                      .descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER,
                                      .pBufferInfo = &bi[i]};
    vkUpdateDescriptorSets(device, 2, w, 0, NULL);
}

void spvbc_vk_compute_destroy(const spvbc_vk *vk, spvbc_vk_compute *c)
{
    VkDevice d = vk->device;
    if (d == VK_NULL_HANDLE) return;
    (void)vkDeviceWaitIdle(d);
    if (c->fence) vkDestroyFence(d, c->fence, NULL);
    if (c->command_pool) vkDestroyCommandPool(d, c->command_pool, NULL);
    if (c->pool) vkDestroyDescriptorPool(d, c->pool, NULL);
    if (c->pipeline_layout) vkDestroyPipelineLayout(d, c->pipeline_layout, NULL);
    if (c->set_layout) vkDestroyDescriptorSetLayout(d, c->set_layout, NULL);
    for (int i = 0; i < 2; ++i) {
        if (c->buffers[i]) vkDestroyBuffer(d, c->buffers[i], NULL);
        if (c->memory[i]) vkFreeMemory(d, c->memory[i], NULL);
    }
    memset(c, 0, sizeof *c);
}

VkResult spvbc_vk_compute_pipeline(const spvbc_vk *vk, const spvbc_vk_compute *c,
                                   const uint32_t *words, size_t n, VkPipeline *out)
{
    VkShaderModuleCreateInfo smci = {
        .sType = VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO, .codeSize = n * 4u, .pCode = words};
    VkShaderModule m = VK_NULL_HANDLE;
    *out = VK_NULL_HANDLE;
    VkResult r = vkCreateShaderModule(vk->device, &smci, NULL, &m);
    if (r != VK_SUCCESS) return r;
    VkComputePipelineCreateInfo cpci = {
        .sType = VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO,
        .stage = {.sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO,
                  .stage = VK_SHADER_STAGE_COMPUTE_BIT,
                  .module = m,
                  .pName = "main"},
        .layout = c->pipeline_layout};
    r = vkCreateComputePipelines(vk->device, VK_NULL_HANDLE, 1, &cpci, NULL, out);
    vkDestroyShaderModule(vk->device, m, NULL);
    return r;
}

spvbc_vk_status spvbc_vk_compute_begin(const spvbc_vk *vk, spvbc_vk_compute *c, char *msg,
                                       size_t msg_size)
{
    (void)vk;
    c->result = VK_SUCCESS;
    c->failed_call = NULL;
    VkCommandBufferBeginInfo bi = {.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO,
                                   .flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT};
    if (ck(c, vkResetCommandBuffer(c->cmd, 0), "vkResetCommandBuffer", msg, msg_size) ||
        ck(c, vkBeginCommandBuffer(c->cmd, &bi), "vkBeginCommandBuffer", msg, msg_size))
        return SPVBC_VK_ERROR;
    vkCmdBindDescriptorSets(c->cmd, VK_PIPELINE_BIND_POINT_COMPUTE, c->pipeline_layout, 0, 1,
                            &c->set, 0, NULL);
    return SPVBC_VK_OK;
}

spvbc_vk_status spvbc_vk_compute_submit(const spvbc_vk *vk, spvbc_vk_compute *c, char *msg,
                                        size_t msg_size)
{
    c->result = VK_SUCCESS;
    c->failed_call = NULL;
    VkMemoryBarrier mb = {.sType = VK_STRUCTURE_TYPE_MEMORY_BARRIER,
                          .srcAccessMask = VK_ACCESS_SHADER_WRITE_BIT,
                          .dstAccessMask = VK_ACCESS_HOST_READ_BIT};
    vkCmdPipelineBarrier(c->cmd, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, VK_PIPELINE_STAGE_HOST_BIT,
                         0, 1, &mb, 0, NULL, 0, NULL);
    VkSubmitInfo si = {.sType = VK_STRUCTURE_TYPE_SUBMIT_INFO,
                       .commandBufferCount = 1,
                       .pCommandBuffers = &c->cmd};
    if (ck(c, vkEndCommandBuffer(c->cmd), "vkEndCommandBuffer", msg, msg_size) ||
        ck(c, vkResetFences(vk->device, 1, &c->fence), "vkResetFences", msg, msg_size) ||
        ck(c, vkQueueSubmit(vk->queue, 1, &si, c->fence), "vkQueueSubmit", msg, msg_size))
        return SPVBC_VK_ERROR;
    return ck(c, vkWaitForFences(vk->device, 1, &c->fence, VK_TRUE, FENCE_TIMEOUT_NS),
              "vkWaitForFences", msg, msg_size);
}
