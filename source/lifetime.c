/* Lifetime: the public lifetime of a parsed module.  Its diagnostics outlive it, so they are made
 * (report.c) before its memory goes (modmem.c). */
#include <string.h>

#include "report.h"
#include "modmem.h"

void spvbc_module_destroy(spvbc_module module)
{
    if (!module) return;
    spvbc__report_detach(module);
    spvbc__module_release(module);
}

spvbc_result spvbc_module_get_info(spvbc_module module, spvbc_module_info *out_info)
{
    if (!module || !out_info) return SPVBC_ERROR_INVALID_ARGUMENT;
    spvbc_module_info i;
    memset(&i, 0, sizeof i);
    i.version = module->version;
    i.generator = module->generator;
    i.id_bound = module->bound;
    i.instruction_count = module->instruction_count;
    i.bitcast_count = module->site_count;
    i.is_kernel = module->is_kernel;
    i.is_shader = module->is_shader;
    i.features = spvbc__plan_features(module);
    i.byte_swapped = module->byte_swapped;
    *out_info = i;
    return SPVBC_SUCCESS;
}
