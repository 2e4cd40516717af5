/*
 * vulkan_setup.h - the Vulkan set-up the layer's tests and the execution tests' runner
 * (test/exec/vkrun) share: an instance (with the layers and
 * VK_EXT_debug_utils messages the test asks for), the device ($SPVBC_VK_DEVICE or the first),
 * a logical device with the extensions and feature chain the test asks for, and a small compute
 * harness (two host-visible storage buffers at bindings 0 and 1 of set 0, a command buffer, a
 * fence).
 *
 * It also checks which driver runs the test: where $SPVBC_EXPECT_DRIVER_INFO is set (the Mesa 25
 * runs set it to "Mesa 25.0.7"), a device whose VkPhysicalDeviceDriverProperties.driverInfo does
 * not contain it is an error, so a test can never pass on the wrong driver.
 *
 * Every fallible function returns a spvbc_vk_status and writes a sentence naming the failing
 * call to the caller's message buffer.
 *
 * SPDX-License-Identifier: Apache-2.0
 */
#ifndef SPVBC_TEST_VULKAN_SETUP_H_
#define SPVBC_TEST_VULKAN_SETUP_H_

#include <pthread.h>
#include <stddef.h>
#include <stdint.h>

#include <vulkan/vulkan.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef enum spvbc_vk_status {
    SPVBC_VK_OK = 0,
    SPVBC_VK_NO_DEVICE = 1, /**< no driver, no device, or the device lacks what was asked */
    SPVBC_VK_ERROR = 2 /**< a call failed, or the driver is not the expected one */
} spvbc_vk_status;

typedef struct spvbc_vk_options {
    const char *const *layers; /**< instance layers, application order (first = top) */
    uint32_t layer_count;
    int debug_utils; /**< enable VK_EXT_debug_utils and keep every message */
    const char *const *device_extensions; /**< all must be present, else SPVBC_VK_NO_DEVICE */
    uint32_t device_extension_count;
    const void *device_features; /**< pNext chain of VkDeviceCreateInfo (may be NULL) */
    uint32_t api_version; /**< the application's apiVersion, and the least the device must
                               offer (else SPVBC_VK_NO_DEVICE); 0: Vulkan 1.3 */
    const char *application_name; /**< NULL: "spirv-bitcast layer tests" */
    const void *instance_next; /**< chained into VkInstanceCreateInfo.pNext (may be NULL) */
} spvbc_vk_options;

typedef struct spvbc_vk {
    VkInstance instance;
    VkPhysicalDevice physical;
    VkDevice device;
    VkQueue queue;
    uint32_t queue_family;
    char description[512]; /**< "llvmpipe (...) [llvmpipe: Mesa 25.0.7 ...]" */
    uint32_t device_index; /**< index among the loader's physical devices */
    uint32_t device_count; /**< physical devices the loader reported */
    VkDriverId driver_id;
    VkDebugUtilsMessengerEXT messenger;
    pthread_mutex_t lock; /**< guards the messages (callbacks may come from any thread) */
    char *messages; /**< every debug message, one per line ("<severity>: <id>: <text>", then
                         " [object <type> 0x<handle>]" where it names an object) */
    size_t messages_len, messages_cap;
    uint32_t message_count;
} spvbc_vk;

/** Opens every Vulkan driver the loader will load once more with RTLD_NODELETE, so that
 *  LeakSanitizer still scans its globals after vkDestroyInstance (vulkan_keep.c says why).
 *  Sanitizer builds call it before creating an instance; once per process. */
void spvbc_vk_keep_drivers_mapped(void);

/** Formats a sentence into `msg` (`size` bytes; nothing if `msg` is NULL or `size` is 0). */
void spvbc_vk_format(char *msg, size_t size, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;

/** A static name for `r` ("VK_ERROR_UNKNOWN"); never NULL. */
const char *spvbc_vk_result_string(VkResult r);

/** Creates instance and device into `vk` (zeroed first): spvbc_vk_create_instance(), then
 *  spvbc_vk_create_device(); on failure destroys what it made.  SPVBC_VK_NO_DEVICE when there
 *  is no driver or device, or a requested layer or extension is missing (the message says
 *  which); SPVBC_VK_ERROR also when $SPVBC_VK_DEVICE names a device the loader does not list. */
spvbc_vk_status spvbc_vk_create(const spvbc_vk_options *options, spvbc_vk *vk, char *msg,
                                size_t msg_size);
/** The first half of spvbc_vk_create(), for a caller that picks device features from the
 *  physical device: zeroes `vk`, creates the instance and picks `vk->physical` ($SPVBC_VK_DEVICE
 *  or the first), checking its Vulkan version and driver.  On failure the caller calls
 *  spvbc_vk_destroy(). */
spvbc_vk_status spvbc_vk_create_instance(const spvbc_vk_options *options, spvbc_vk *vk, char *msg,
                                         size_t msg_size);
/** The second half: the device with one compute queue and the options' extensions and
 *  features.  On failure the caller calls spvbc_vk_destroy(). */
spvbc_vk_status spvbc_vk_create_device(const spvbc_vk_options *options, spvbc_vk *vk, char *msg,
                                       size_t msg_size);
/** One more device on `vk`'s physical device, as spvbc_vk_create_device makes its own: one
 *  queue of `vk->queue_family`, the options' (may be NULL) extensions and features; the
 *  caller destroys it. */
VkResult spvbc_vk_new_device(const spvbc_vk *vk, const spvbc_vk_options *options, VkDevice *out);
/** Destroys what spvbc_vk_create made; safe on a zeroed or half-made `vk`. */
void spvbc_vk_destroy(spvbc_vk *vk);

/** Forgets the debug messages kept so far. */
void spvbc_vk_clear_messages(spvbc_vk *vk);

/** 1 if some kept debug message contains `needle`. */
int spvbc_vk_messages_contain(spvbc_vk *vk, const char *needle);

/** 1 if `physical` lists device extension `name`. */
int spvbc_vk_has_device_extension(VkPhysicalDevice physical, const char *name);

/** SPVBC_VK_OK if $SPVBC_EXPECT_DRIVER_INFO is unset or empty or occurs in `driver_info`; else
 *  SPVBC_VK_ERROR with a sentence naming both. */
spvbc_vk_status spvbc_vk_check_expected_driver(const char *driver_info, char *msg, size_t msg_size);

/** The naive as_type module (one OpBitcast, GLCompute, bindings 0 and 1) for the OpenCL type
 *  names `src` and `dst` ("float4", "float3"), assembled for Vulkan; NULL on failure.  The
 *  caller frees it with free(). */
uint32_t *spvbc_vk_naive_module(const char *src, const char *dst, size_t *word_count);

/** Reads `dir`/`name` (SPIR-V assembly) and assembles it for Vulkan; NULL on failure.  The
 *  caller frees it with free(). */
uint32_t *spvbc_vk_assemble_file(const char *dir, const char *name, size_t *word_count);

/** A compute harness on an spvbc_vk device. */
typedef struct spvbc_vk_compute {
    VkDeviceSize size; /**< bytes of each buffer */
    VkBuffer buffers[2];
    VkDeviceMemory memory[2];
    void *mapped[2]; /**< [0] input (binding 0), [1] output (binding 1) */
    VkDescriptorSetLayout set_layout;
    VkPipelineLayout pipeline_layout;
    VkDescriptorPool pool;
    VkDescriptorSet set;
    VkCommandPool command_pool;
    VkCommandBuffer cmd;
    VkFence fence;
    VkResult result; /**< the result of the call that failed last in begin/submit, or VK_SUCCESS */
    const char *failed_call; /**< that call ("vkQueueSubmit"), or NULL */
} spvbc_vk_compute;

/** Makes the buffers (`size` bytes each), layouts, descriptor set, command buffer and fence. */
spvbc_vk_status spvbc_vk_compute_create(const spvbc_vk *vk, VkDeviceSize size, spvbc_vk_compute *c,
                                        char *msg, size_t msg_size);
void spvbc_vk_compute_destroy(const spvbc_vk *vk, spvbc_vk_compute *c);
/** Points bindings 0 and 1 of `set` at the whole of `buffers[0]` and `buffers[1]` (storage
 *  buffers: the execution tests' input and output). */
void spvbc_vk_bind_two_buffers(VkDevice device, VkDescriptorSet set, const VkBuffer buffers[2]);

/** Makes a compute pipeline (layout `c->pipeline_layout`, entry point "main") from `n` SPIR-V
 *  words through vkCreateShaderModule; writes it to `*out` and returns VK_SUCCESS, or the first
 *  failing call's result.  The module is destroyed before returning. */
VkResult spvbc_vk_compute_pipeline(const spvbc_vk *vk, const spvbc_vk_compute *c,
                                   const uint32_t *words, size_t n, VkPipeline *out);

/** Resets and begins `c->cmd` and binds the descriptor set for compute.  On failure
 *  `c->result` and `c->failed_call` say which call failed. */
spvbc_vk_status spvbc_vk_compute_begin(const spvbc_vk *vk, spvbc_vk_compute *c, char *msg,
                                       size_t msg_size);
/** Ends `c->cmd` (after a barrier making shader writes visible to the host), submits it and
 *  waits for the fence.  On failure `c->result` and `c->failed_call` say which call failed. */
spvbc_vk_status spvbc_vk_compute_submit(const spvbc_vk *vk, spvbc_vk_compute *c, char *msg,
                                        size_t msg_size);

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* SPVBC_TEST_VULKAN_SETUP_H_ */
