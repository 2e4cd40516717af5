/*
 * layer_core.h - what the layers (Vulkan: VK_LAYER_SPVBC_bitcast, OpenCL: the ICD loader layer)
 * do to one SPIR-V module, without any driver API.
 *
 * Each layer decides about every module it intercepts (spvbc_layer_decide, layer_outcome.h)
 * and hands the driver either the caller's words or the replacement; the outcome goes to the
 * log (layer_log.h) and, in the Vulkan layer, to the application's debug messengers.  Keeping
 * this part free of Vulkan and OpenCL lets tests feed it arbitrary bytes, and gives both layers
 * the same settings (layer_settings.h), the same outcome and the same log.  The rooms:
 *   layer_settings.c  the settings, from the environment
 *   layer_outcome.c   the decision: an outcome (verdict, counts, findings)
 *   layer_log.c       the log file and the line an outcome makes
 *   layer_pool.c      the library contexts reused from call to call
 *   layer_hash.c      XXH64, the log's name for a module
 *   layer_core.c      the announcement, spvbc_layer_process, the end of the layer
 *   layer_map.c       the handle map both layers keep their objects in
 *
 * In lower mode at level changes, a module that lowering cannot change (no bitcast with a
 * 3-component vector on either side: spvbc_bytes_scan_lowerable) is passed on without a parse.
 *
 * SPDX-License-Identifier: Apache-2.0
 */
#ifndef SPVBC_LAYER_CORE_H_
#define SPVBC_LAYER_CORE_H_

#include <stddef.h>
#include <stdint.h>

#include "layer_hash.h"
#include "layer_log.h"
#include "layer_outcome.h"
#include "layer_pool.h"
#include "layer_settings.h"
#include "spirv_bitcast.h"

#ifdef __cplusplus
extern "C" {
#endif

/** Logs "spvbc-layer: <layer_name> active: mode=<mode> pad=<pad> (libspirv-bitcast <version>)"
 *  at level all unless the mode is off; each layer calls it once, when it is first used. */
void spvbc_layer_announce(const spvbc_layer_config *cfg, const char *layer_name);

/**
 * spvbc_layer_decide() then spvbc_layer_log_outcome(): looks at the module of `code_size` bytes
 * at `code` (passed to `api`, e.g. "vkCreateShaderModule"), logs its verdict (as the level
 * says) and returns 1 with a malloc'd replacement in `*out_code` / `*out_size` (bytes) when the
 * driver should get the lowered module instead, or 0 when the caller's words must be passed on
 * unchanged.  Never fails loudly: any input, NULL included, is accepted.
 */
int spvbc_layer_process(const spvbc_layer_config *cfg, const char *api, const void *code,
                        size_t code_size, uint32_t **out_code, size_t *out_size);

/** Destroys the pooled contexts and closes the log file: what a layer does when the loader
 *  ends it (clDeinitLayer), and what the unload of the layer does otherwise.  Only while no
 *  other call is inside the layer; the layer stays usable (it makes them again). */
void spvbc_layer_shutdown(void);

#ifdef __cplusplus
}
#endif

#endif /* SPVBC_LAYER_CORE_H_ */
