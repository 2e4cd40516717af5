/*
 * vkrun.c - a minimal Vulkan compute runner for the execution tests (see vkrun.h), on
 * test/support's Vulkan set-up (vulkan_setup.h): the instance, device, buffers, descriptor set,
 * command buffer and fence are its; what is here picks the device features the as_type tests
 * may need and runs modules.
 *
 * SPDX-License-Identifier: Apache-2.0
 */
#include "vkrun.h"

#include "vulkan_setup.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define VKR_DEFAULT_BUFFER_SIZE ((size_t)1 << 20)

struct vkr_context {
    spvbc_vk vk; /* instance, physical device, device, queue */
    spvbc_vk_compute c; /* buffers, layouts, descriptor set, command buffer, fence */
    vkr_device_info info;
    vkr_features features;
    size_t buffer_size;
};

const char *vkr_result_string(VkResult r)
{
    return spvbc_vk_result_string(r);
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

/* The device's names and versions into ctx->info. */
static void read_info(vkr_context *ctx)
{
    VkPhysicalDeviceDriverProperties driver = {
        .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_DRIVER_PROPERTIES};
    VkPhysicalDeviceProperties2 props2 = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2,
                                          .pNext = &driver};
    vkGetPhysicalDeviceProperties2(ctx->vk.physical, &props2);
    const VkPhysicalDeviceProperties *props = &props2.properties;
    vkr_device_info *info = &ctx->info;
    (void)snprintf(info->device_name, sizeof info->device_name, "%s", props->deviceName);
    (void)snprintf(info->driver_name, sizeof info->driver_name, "%s", driver.driverName);
    (void)snprintf(info->driver_info, sizeof info->driver_info, "%s", driver.driverInfo);
    info->driver_id = (uint32_t)driver.driverID;
    info->api_version = props->apiVersion;
    info->driver_version = props->driverVersion;
    info->vendor_id = props->vendorID;
    info->device_id = props->deviceID;
    info->device_index = ctx->vk.device_index;
    info->device_count = ctx->vk.device_count;
    decode_driver_version(info);
}

/* What the device offers of the features the tests can use, into ctx->features; the chain
 * that enables exactly those (nothing else) into `on2` and the structs it points to. */
typedef struct feature_chain {
    VkPhysicalDeviceGraphicsPipelineLibraryFeaturesEXT gpl;
    VkPhysicalDeviceVulkan12Features f12;
    VkPhysicalDeviceVulkan11Features f11;
    VkPhysicalDeviceFeatures2 f2;
} feature_chain;

static void pick_features(vkr_context *ctx, feature_chain *on)
{
    /* Only VK_EXT_graphics_pipeline_library is optional here (chained modules). */
    VkPhysicalDevice phys = ctx->vk.physical;
    int has_gpl =
        spvbc_vk_has_device_extension(phys, VK_EXT_GRAPHICS_PIPELINE_LIBRARY_EXTENSION_NAME) &&
        spvbc_vk_has_device_extension(phys, VK_KHR_PIPELINE_LIBRARY_EXTENSION_NAME);
    feature_chain q;
    memset(&q, 0, sizeof q);
    q.gpl.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_GRAPHICS_PIPELINE_LIBRARY_FEATURES_EXT;
    q.f12.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES;
    q.f12.pNext = has_gpl ? &q.gpl : NULL;
    q.f11.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_1_FEATURES;
    q.f11.pNext = &q.f12;
    q.f2.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2;
    q.f2.pNext = &q.f11;
    vkGetPhysicalDeviceFeatures2(phys, &q.f2);
    VkPhysicalDeviceFloatControlsProperties fc = {
        .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FLOAT_CONTROLS_PROPERTIES};
    VkPhysicalDeviceProperties2 props2 = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2,
                                          .pNext = &fc};
    vkGetPhysicalDeviceProperties2(phys, &props2);

    vkr_features *f = &ctx->features;
    f->shader_int8 = q.f12.shaderInt8 == VK_TRUE;
    f->shader_float16 = q.f12.shaderFloat16 == VK_TRUE;
    f->storage_buffer8 = q.f12.storageBuffer8BitAccess == VK_TRUE;
    f->storage_buffer16 = q.f11.storageBuffer16BitAccess == VK_TRUE;
    f->shader_int16 = q.f2.features.shaderInt16 == VK_TRUE;
    f->shader_int64 = q.f2.features.shaderInt64 == VK_TRUE;
    f->shader_float64 = q.f2.features.shaderFloat64 == VK_TRUE;
    f->float_controls_preserve32 = fc.shaderDenormPreserveFloat32 == VK_TRUE;
    f->chained_module = has_gpl && q.gpl.graphicsPipelineLibrary == VK_TRUE;

    memset(on, 0, sizeof *on);
    on->gpl.sType = q.gpl.sType;
    on->gpl.graphicsPipelineLibrary = f->chained_module ? VK_TRUE : VK_FALSE;
    on->f12.sType = q.f12.sType;
    on->f12.pNext = f->chained_module ? &on->gpl : NULL;
    on->f12.shaderInt8 = q.f12.shaderInt8;
    on->f12.shaderFloat16 = q.f12.shaderFloat16;
    on->f12.storageBuffer8BitAccess = q.f12.storageBuffer8BitAccess;
    on->f11.sType = q.f11.sType;
    on->f11.pNext = &on->f12;
    on->f11.storageBuffer16BitAccess = q.f11.storageBuffer16BitAccess;
    on->f2.sType = q.f2.sType;
    on->f2.pNext = &on->f11;
    on->f2.features.shaderInt16 = q.f2.features.shaderInt16;
    on->f2.features.shaderInt64 = q.f2.features.shaderInt64;
    on->f2.features.shaderFloat64 = q.f2.features.shaderFloat64;
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
    /* SPIR-V 1.5 modules need Vulkan 1.2 */
    spvbc_vk_options o = {.layers = options != NULL ? options->layers : NULL,
                          .layer_count = options != NULL ? options->layer_count : 0,
                          .instance_next = options != NULL ? options->instance_next : NULL,
                          .api_version = VK_API_VERSION_1_2,
                          .application_name = "spirv-bitcast exec tests"};
    feature_chain on;
    const char *exts[2] = {VK_KHR_PIPELINE_LIBRARY_EXTENSION_NAME,
                           VK_EXT_GRAPHICS_PIPELINE_LIBRARY_EXTENSION_NAME};
    spvbc_vk_status st = spvbc_vk_create_instance(&o, &ctx->vk, msg, msg_size);
    if (st == SPVBC_VK_OK) {
        read_info(ctx);
        pick_features(ctx, &on);
        o.device_features = &on.f2;
        o.device_extensions = ctx->features.chained_module ? exts : NULL;
        o.device_extension_count = ctx->features.chained_module ? 2u : 0u;
        st = spvbc_vk_create_device(&o, &ctx->vk, msg, msg_size);
    }
    if (st == SPVBC_VK_OK)
        st = spvbc_vk_compute_create(&ctx->vk, ctx->buffer_size, &ctx->c, msg, msg_size);
    if (st != SPVBC_VK_OK) {
        vkr_destroy(ctx);
        return st == SPVBC_VK_NO_DEVICE ? VKR_NO_DEVICE : VKR_ERROR;
    }
    *out = ctx;
    return VKR_OK;
}

void vkr_destroy(vkr_context *ctx)
{
    if (ctx == NULL) return;
    spvbc_vk_compute_destroy(&ctx->vk, &ctx->c);
    spvbc_vk_destroy(&ctx->vk);
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

/* Takes the failing call of spvbc_vk_compute_begin() or _submit() into `res`. */
#define VKR_RUN_STEP(step)                                                                         \
    do {                                                                                           \
        if ((step) != SPVBC_VK_OK) {                                                               \
            res->result = ctx->c.result;                                                           \
            res->stage = ctx->c.failed_call;                                                       \
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
    memset(ctx->c.mapped[0], 0, ctx->buffer_size);
    if (in_size > 0) memcpy(ctx->c.mapped[0], in, in_size);
    memset(ctx->c.mapped[1], out_fill, ctx->buffer_size);

    VkShaderModuleCreateInfo smci = {.sType = VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO,
                                     .codeSize = word_count * sizeof(uint32_t),
                                     .pCode = words};
    if (path == VKR_MODULE_OBJECT)
        VKR_RUN_CHECK(vkCreateShaderModule(ctx->vk.device, &smci, NULL, &module),
                      "vkCreateShaderModule");
    VkComputePipelineCreateInfo cpci = {
        .sType = VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO,
        .stage = {.sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO,
                  .pNext = path == VKR_MODULE_CHAINED ? &smci : NULL,
                  .stage = VK_SHADER_STAGE_COMPUTE_BIT,
                  .module = module,
                  .pName = "main"},
        .layout = ctx->c.pipeline_layout};
    VKR_RUN_CHECK(
        vkCreateComputePipelines(ctx->vk.device, VK_NULL_HANDLE, 1, &cpci, NULL, &pipeline),
        "vkCreateComputePipelines");
    VKR_RUN_STEP(spvbc_vk_compute_begin(&ctx->vk, &ctx->c, msg, msg_size));
    vkCmdBindPipeline(ctx->c.cmd, VK_PIPELINE_BIND_POINT_COMPUTE, pipeline);
    vkCmdDispatch(ctx->c.cmd, groups, 1, 1);
    VKR_RUN_STEP(spvbc_vk_compute_submit(&ctx->vk, &ctx->c, msg, msg_size));
    if (out_size > 0) memcpy(out, ctx->c.mapped[1], out_size);
done:
    if (pipeline != VK_NULL_HANDLE) vkDestroyPipeline(ctx->vk.device, pipeline, NULL);
    if (module != VK_NULL_HANDLE) vkDestroyShaderModule(ctx->vk.device, module, NULL);
    return res->result == VK_SUCCESS ? VKR_OK : VKR_ERROR;
}

VkResult vkr_create_module(vkr_context *ctx, const uint32_t *words, size_t word_count)
{
    if (ctx == NULL || words == NULL) return VK_ERROR_UNKNOWN;
    VkShaderModuleCreateInfo smci = {.sType = VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO,
                                     .codeSize = word_count * sizeof(uint32_t),
                                     .pCode = words};
    VkShaderModule module = VK_NULL_HANDLE;
    VkResult r = vkCreateShaderModule(ctx->vk.device, &smci, NULL, &module);
    if (r == VK_SUCCESS) vkDestroyShaderModule(ctx->vk.device, module, NULL);
    return r;
}

VkInstance vkr_instance(const vkr_context *ctx)
{
    return ctx->vk.instance;
}

VkDevice vkr_device(const vkr_context *ctx)
{
    return ctx->vk.device;
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
        r = vkCreateShaderModule(ctx->vk.device, &smci, NULL, &module);
        if (r != VK_SUCCESS) goto done;
    }
    VkSubpassDescription subpass = {.pipelineBindPoint = VK_PIPELINE_BIND_POINT_GRAPHICS};
    VkRenderPassCreateInfo rpci = {.sType = VK_STRUCTURE_TYPE_RENDER_PASS_CREATE_INFO,
                                   .subpassCount = 1,
                                   .pSubpasses = &subpass};
    r = vkCreateRenderPass(ctx->vk.device, &rpci, NULL, &pass);
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
                                         .layout = ctx->c.pipeline_layout,
                                         .renderPass = pass,
                                         .subpass = 0};
    r = vkCreateGraphicsPipelines(ctx->vk.device, VK_NULL_HANDLE, 1, &gpci, NULL, &pipeline);
done:
    if (pipeline != VK_NULL_HANDLE) vkDestroyPipeline(ctx->vk.device, pipeline, NULL);
    if (pass != VK_NULL_HANDLE) vkDestroyRenderPass(ctx->vk.device, pass, NULL);
    if (module != VK_NULL_HANDLE) vkDestroyShaderModule(ctx->vk.device, module, NULL);
    return r;
}
