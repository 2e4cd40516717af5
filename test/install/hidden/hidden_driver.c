/* A driver-like shared object built with -fvisibility=hidden that links the static archive:
 * it exports its own entry point and nothing of the library (install.static_hidden checks
 * with nm -D). */
#include <spirv_bitcast.h>

__attribute__((visibility("default"))) int hidden_driver_entry(const uint32_t *words, size_t n)
{
    spvbc_context ctx;
    spvbc_module mod;
    if (spvbc_context_create(NULL, &ctx) != SPVBC_SUCCESS) return -1;
    spvbc_result r = spvbc_module_parse(ctx, words, n, NULL, &mod);
    if (r == SPVBC_SUCCESS) {
        r = spvbc_module_lower(mod, NULL, NULL);
        spvbc_module_destroy(mod);
    }
    spvbc_context_destroy(ctx);
    return (int)r;
}
