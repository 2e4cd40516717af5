/*
 * vk_rewrite.h - the Vulkan layer's copies of create infos with lowered modules in them, and
 * the report of each module's outcome (to the application's debug messengers, or the log).
 *
 * An array of create infos is copied only when an element changes; the copies and the lowered
 * words live in a scratch, freed after the driver call.  An outcome to report waits in the
 * scratch for the driver's answer where the instance has a messenger, so that its messages
 * name the object made (the pipeline, the shader); otherwise it is logged at once.
 *
 * SPDX-License-Identifier: Apache-2.0
 */
#ifndef SPVBC_VK_REWRITE_H_
#define SPVBC_VK_REWRITE_H_

#include <stddef.h>
#include <stdint.h>
#include <vulkan/vulkan.h>

#include "layer_core.h"

/* An outcome waiting for the driver's answer. */
typedef struct spvbc_vkl_pending spvbc_vkl_pending;

typedef struct spvbc_vkl_scratch {
    const spvbc_layer_config *cfg;
    const void *instance; /* the instance's dispatch key: whose messengers */
    void **blocks; /* memory the rewritten create infos point into */
    size_t count, cap;
    int failed;
    int depth; /* of spvbc_vkl_rewrite_infos() calls: 1 at the array of the call */
    uint32_t index; /* the element of the call's array being rewritten */
    spvbc_vkl_pending *pending;
    size_t pending_count, pending_cap;
} spvbc_vkl_scratch;

/** A scratch for one call under `cfg` on a device of `instance`. */
#define SPVBC_VKL_SCRATCH_INIT(cfg, instance)                                                      \
    {                                                                                              \
        (cfg), (instance), NULL, 0, 0, 0, 0, 0, NULL, 0, 0                                         \
    }

/** Rewrites `in`, an element of a caller's array, into `out` (a copy of it); returns 1 if it
 *  did. */
typedef int (*spvbc_vkl_rewrite_fn)(const void *in, void *out, spvbc_vkl_scratch *s);

/** What to pass on for the `count` elements of `size` bytes at `infos`: a copy in `s` with the
 *  elements `rewrite` changed, or where none was (or anything failed) `infos`. */
const void *spvbc_vkl_rewrite_infos(spvbc_vkl_scratch *s, const void *infos, uint32_t count,
                                    size_t size, spvbc_vkl_rewrite_fn rewrite);

/** The rewrites of VkComputePipelineCreateInfo, VkGraphicsPipelineCreateInfo,
 *  VkRayTracingPipelineCreateInfoKHR, VkRayTracingPipelineCreateInfoNV (their stages' chained
 *  VkShaderModuleCreateInfo) and VkShaderCreateInfoEXT (its SPIR-V code). */
int spvbc_vkl_rewrite_compute(const void *in, void *out, spvbc_vkl_scratch *s);
int spvbc_vkl_rewrite_graphics(const void *in, void *out, spvbc_vkl_scratch *s);
int spvbc_vkl_rewrite_ray_tracing(const void *in, void *out, spvbc_vkl_scratch *s);
int spvbc_vkl_rewrite_ray_tracing_nv(const void *in, void *out, spvbc_vkl_scratch *s);
int spvbc_vkl_rewrite_shader(const void *in, void *out, spvbc_vkl_scratch *s);

/** After the driver call: reports the outcomes waiting in `s`, each naming the object of its
 *  element among the `count` handles (non-dispatchable, of `type`) at `handles` (none where
 *  NULL or VK_NULL_HANDLE), then frees everything `s` holds. */
void spvbc_vkl_scratch_finish(spvbc_vkl_scratch *s, VkObjectType type, const void *handles,
                              uint32_t count);

/** Reports outcome `o` of the module of `code_size` bytes at `code` (through `api`) to the
 *  messengers of `instance`, naming object (`type`, `handle`); logs it where there are none,
 *  or where the log is a file (SPVBC_LAYER_LOG=<path>): with a messenger, the layer's lines do
 *  not go to standard error too. */
void spvbc_vkl_report(const spvbc_layer_config *cfg, const void *instance, const char *api,
                      const void *code, size_t code_size, const spvbc_layer_outcome *o,
                      VkObjectType type, uint64_t handle);

#endif /* SPVBC_VK_REWRITE_H_ */
