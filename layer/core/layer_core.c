/*
 * layer_core.c - what the layers share beyond the rooms it names (see layer_core.h): the
 * announcement, the decision logged, the end of the layer.
 *
 * SPDX-License-Identifier: Apache-2.0
 */
#include "layer_core.h"

void spvbc_layer_announce(const spvbc_layer_config *cfg, const char *layer_name)
{
    if (cfg == NULL || cfg->mode == SPVBC_LAYER_MODE_OFF || !cfg->log_all) return;
    spvbc_layer_log(cfg,
                    "spvbc-layer: %s active: mode=%s pad=%s generation=%s (libspirv-bitcast %s)",
                    layer_name != NULL ? layer_name : "?", spvbc_layer_mode_name(cfg->mode),
                    spvbc_pad_policy_string(cfg->pad), spvbc_generation_string(cfg->generation),
                    spvbc_version_string());
}

int spvbc_layer_process(const spvbc_layer_config *cfg, const char *api, const void *code,
                        size_t code_size, uint32_t **out_code, size_t *out_size)
{
    spvbc_layer_outcome o;
    int replaced = spvbc_layer_decide(cfg, code, code_size, &o, out_code, out_size);
    spvbc_layer_log_outcome(cfg, api, code, code_size, &o);
    return replaced;
}

void spvbc_layer_shutdown(void)
{
    spvbc_layer_release_contexts();
    spvbc_layer_log_close();
}

#if defined(__GNUC__)
/* When the Vulkan layer is unloaded (or a test program ends), nobody is inside it any more.
 * The OpenCL layer ends through clDeinitLayer where the loader calls it; this does no harm
 * after it. */
__attribute__((destructor)) static void release_at_unload(void)
{
    spvbc_layer_shutdown();
}
#endif
