/*
 * vkrun.h - a minimal Vulkan compute runner for the execution tests.
 *
 * One instance, one device (the first physical device the loader lists, or the one whose index
 * is in $SPVBC_VK_DEVICE), one compute queue, two host-visible storage buffers (binding 0 input,
 * binding 1 output, descriptor set 0) and a compute pipeline made from SPIR-V words.  Which
 * driver is used is decided by the loader: CI points VK_DRIVER_FILES / VK_ICD_FILENAMES at
 * Mesa's lavapipe.  Every device feature the as_type tests may need is enabled where the device
 * has it; vkr_features() says which.
 *
 * Every fallible function returns a vkr_status and, on failure, writes a sentence (naming the
 * Vulkan call and its VkResult) to the caller's message buffer.
 *
 * SPDX-License-Identifier: Apache-2.0
 */
#ifndef SPVBC_TEST_VKRUN_H_
#define SPVBC_TEST_VKRUN_H_

#include <stddef.h>
#include <stdint.h>

#include <vulkan/vulkan.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef enum vkr_status {
    VKR_OK = 0,
    VKR_NO_DEVICE = 1, /**< no Vulkan loader driver or no usable physical device */
    VKR_ERROR = 2 /**< a Vulkan call failed (message says which) */
} vkr_status;

/** Device features relevant to as_type modules; 1 where the device has it (and it was enabled). */
typedef struct vkr_features {
    int shader_int8; /**< VkPhysicalDeviceVulkan12Features.shaderInt8 */
    int shader_int16; /**< VkPhysicalDeviceFeatures.shaderInt16 */
    int shader_int64; /**< VkPhysicalDeviceFeatures.shaderInt64 */
    int shader_float16; /**< VkPhysicalDeviceVulkan12Features.shaderFloat16 */
    int shader_float64; /**< VkPhysicalDeviceFeatures.shaderFloat64 */
    int storage_buffer8; /**< VkPhysicalDeviceVulkan12Features.storageBuffer8BitAccess */
    int storage_buffer16; /**< VkPhysicalDeviceVulkan11Features.storageBuffer16BitAccess */
    int float_controls_preserve32; /**< shaderDenormPreserveFloat32 (informational) */
    int chained_module; /**< a VkShaderModuleCreateInfo chained into a pipeline stage is
                             allowed (VK_EXT_graphics_pipeline_library enabled) */
} vkr_features;

typedef struct vkr_device_info {
    char device_name[VK_MAX_PHYSICAL_DEVICE_NAME_SIZE];
    char driver_name[VK_MAX_DRIVER_NAME_SIZE];
    char driver_info[VK_MAX_DRIVER_INFO_SIZE];
    uint32_t driver_id; /**< VkDriverId */
    uint32_t api_version; /**< VkPhysicalDeviceProperties.apiVersion */
    uint32_t driver_version; /**< raw VkPhysicalDeviceProperties.driverVersion */
    char driver_version_string[32]; /**< decoded the vendor's way (NVIDIA: 10.8.8.6 bits) */
    uint32_t vendor_id;
    uint32_t device_id;
    uint32_t device_index; /**< index among the loader's physical devices */
    uint32_t device_count; /**< physical devices the loader reported */
} vkr_device_info;

typedef struct vkr_context vkr_context;

typedef struct vkr_create_options {
    /** Instance layers to enable explicitly (may be NULL / 0). */
    const char *const *layers;
    uint32_t layer_count;
    /** Maximum bytes of each storage buffer; 0 means 1 MiB. */
    size_t buffer_size;
    /** Chained into VkInstanceCreateInfo.pNext (VkLayerSettingsCreateInfoEXT; may be NULL). */
    const void *instance_next;
} vkr_create_options;

/** Creates the instance, picks and creates the device.  `options` may be NULL.  VKR_NO_DEVICE
 *  when the loader finds no driver or no physical device. */
vkr_status vkr_create(const vkr_create_options *options, vkr_context **out, char *msg,
                      size_t msg_size);
/** Destroys everything vkr_create made; NULL is a no-op. */
void vkr_destroy(vkr_context *ctx);

const vkr_device_info *vkr_info(const vkr_context *ctx);
const vkr_features *vkr_get_features(const vkr_context *ctx);
/** "llvmpipe (LLVM 15.0.6, 256 bits) [llvmpipe: Mesa 22.3.6 (LLVM 15.0.6)], API 1.3.230" */
void vkr_describe(const vkr_context *ctx, char *buf, size_t size);
/** 1 if the device is Mesa's lavapipe (VK_DRIVER_ID_MESA_LLVMPIPE). */
int vkr_is_lavapipe(const vkr_context *ctx);

/** How vkr_run builds the pipeline. */
typedef enum vkr_module_path {
    VKR_MODULE_OBJECT = 0, /**< vkCreateShaderModule, then the pipeline */
    VKR_MODULE_CHAINED = 1 /**< no VkShaderModule: VkShaderModuleCreateInfo chained into the
                                stage's pNext (needs vkr_features.chained_module) */
} vkr_module_path;

/** What happened in one vkr_run. */
typedef struct vkr_run_result {
    VkResult result; /**< VK_SUCCESS, or the first failing call's result */
    const char *stage; /**< the failing call ("vkCreateComputePipelines", ...), or NULL */
} vkr_run_result;

/**
 * Runs `word_count` SPIR-V words (entry point "main") with `in_size` bytes from `in` in binding 0
 * and an output buffer of `out_size` bytes in binding 1, first filled with `out_fill`; dispatches
 * `groups` x 1 x 1 workgroups and copies the output back to `out`.  Returns VKR_OK if every call
 * succeeded; VKR_ERROR otherwise, with the failing call and VkResult in `*res` and `msg`.
 */
vkr_status vkr_run(vkr_context *ctx, const uint32_t *words, size_t word_count, vkr_module_path path,
                   const void *in, size_t in_size, void *out, size_t out_size, uint8_t out_fill,
                   uint32_t groups, vkr_run_result *res, char *msg, size_t msg_size);

/** Creates and destroys one VkShaderModule from `word_count` words; returns vkCreateShaderModule's
 *  result (no pipeline is made, so the driver may not even look at the code). */
VkResult vkr_create_module(vkr_context *ctx, const uint32_t *words, size_t word_count);

/** Creates and destroys a graphics pipeline whose only shader is the vertex shader in `words`
 *  (entry point "main"; rasterizer discard on, a render pass without attachments), through
 *  `path`.  Returns the first failing call's result, or VK_SUCCESS. */
VkResult vkr_create_vertex_pipeline(vkr_context *ctx, const uint32_t *words, size_t word_count,
                                    vkr_module_path path);

/** The VkInstance / VkDevice, for tests that make their own calls. */
VkInstance vkr_instance(const vkr_context *ctx);
VkDevice vkr_device(const vkr_context *ctx);

/** A static name for `r` ("VK_ERROR_UNKNOWN"); never NULL. */
const char *vkr_result_string(VkResult r);

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* SPVBC_TEST_VKRUN_H_ */
