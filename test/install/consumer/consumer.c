/* A driver embedding libspirv-bitcast: check a kernel module's bitcasts, lower the ones OpenCL's
 * as_type() allows but SPIR-V rejects, and hand the words on.  This file is the example in
 * docs/embedding.md (a test keeps the two identical) and the installed-tree consumer test.
 * Usage: consumer [OUT.spv]  - writes the module it would hand on to OUT.spv.
 * SPDX-License-Identifier: Apache-2.0 */
#include <spirv_bitcast.h>

#include <stdint.h>
#include <stdio.h>

/* as_float3(uint4 x) emitted 1:1 as OpBitcast: invalid SPIR-V (96-bit result, 128-bit input). */
static const uint32_t kernel_words[] = {
    0x07230203, 0x00010000, 0x00070000, 0x0000000d, 0x00000000, /* header: SPIR-V 1.0 */
    0x00020011, 0x00000004,                         /* OpCapability Addresses */
    0x00020011, 0x00000006,                         /* OpCapability Kernel */
    0x0003000e, 0x00000002, 0x00000002,             /* OpMemoryModel Physical64 OpenCL */
    0x0004000f, 0x00000006, 0x00000001, 0x0000006b, /* OpEntryPoint Kernel %1 "k" */
    0x00020013, 0x00000002,                         /* %2 = OpTypeVoid */
    0x00040015, 0x00000003, 0x00000020, 0x00000000, /* %3 = OpTypeInt 32 0 */
    0x00030016, 0x00000004, 0x00000020,             /* %4 = OpTypeFloat 32 */
    0x00040017, 0x00000005, 0x00000003, 0x00000004, /* %5 = OpTypeVector %3 4 */
    0x00040017, 0x00000006, 0x00000004, 0x00000003, /* %6 = OpTypeVector %4 3 */
    0x00040020, 0x00000007, 0x00000005, 0x00000006, /* %7 = OpTypePointer CrossWorkgroup %6 */
    0x00050021, 0x00000008, 0x00000002, 0x00000005, 0x00000007, /* %8 = OpTypeFunction */
    0x00050036, 0x00000002, 0x00000001, 0x00000000, 0x00000008, /* %1 = OpFunction */
    0x00030037, 0x00000005, 0x00000009,             /* %9 = OpFunctionParameter %5 */
    0x00030037, 0x00000007, 0x0000000a,             /* %10 = OpFunctionParameter %7 */
    0x000200f8, 0x0000000b,                         /* %11 = OpLabel */
    0x0004007c, 0x00000006, 0x0000000c, 0x00000009, /* %12 = OpBitcast %6 %9 */
    0x0003003e, 0x0000000a, 0x0000000c,             /* OpStore %10 %12 */
    0x000100fd,                                     /* OpReturn */
    0x00010038,                                     /* OpFunctionEnd */
};

static void print_diagnostics(spvbc_context ctx)
{
    for (size_t i = 0; i < spvbc_context_diagnostic_count(ctx); ++i) {
        const spvbc_diagnostic *d = spvbc_context_diagnostic(ctx, i);
        fprintf(stderr, "%s: word %zu: %s [%s]\n", spvbc_severity_string(d->severity),
                d->word_offset, d->message, d->rule);
    }
}

/* What a driver does next (create the shader module); here: write the words to `path`. */
static int hand_on(const uint32_t *words, size_t count, const char *path)
{
    FILE *f;
    if (path == NULL) return 0;
    f = fopen(path, "wb");
    if (f == NULL) return -1;
    if (fwrite(words, sizeof *words, count, f) != count) {
        fclose(f);
        return -1;
    }
    return fclose(f) == 0 ? 0 : -1;
}

/* Parses the caller-owned `words` (not copied), validates their bitcasts, lowers them when
 * every error is lowerable, checks the result and hands it on.  Returns 0 on success. */
static int prepare(spvbc_context ctx, const uint32_t *words, size_t count, const char *out)
{
    spvbc_module mod, check;
    spvbc_validate_summary vs = SPVBC_VALIDATE_SUMMARY_INIT;
    spvbc_lower_summary ls = SPVBC_LOWER_SUMMARY_INIT;
    const uint32_t *ready;
    size_t ready_count;
    int status = 1;

    spvbc_result r = spvbc_module_parse(ctx, words, count, NULL, &mod);
    if (r != SPVBC_SUCCESS) {
        print_diagnostics(ctx);
        return 1;
    }
    r = spvbc_module_validate(mod, NULL, &vs);
    print_diagnostics(ctx);
    printf("checked %zu bitcast(s): %zu error(s), %zu lowerable\n", vs.bitcasts_checked,
           vs.errors, vs.lowerable);
    if (r == SPVBC_ERROR_VALIDATION_FAILED && vs.errors == vs.lowerable) {
        r = spvbc_module_lower(mod, NULL, &ls); /* pad undef, all classes */
        print_diagnostics(ctx);
        if (r == SPVBC_PARTIAL) r = SPVBC_ERROR_VALIDATION_FAILED; /* some were refused */
        printf("lowered %zu bitcast(s), id bound now %u\n", ls.rewritten, ls.new_id_bound);
    }
    if (r == SPVBC_SUCCESS) r = spvbc_module_get_words(mod, &ready, &ready_count);
    /* Lowering analyses the parsed input, so re-parse its output to check it. */
    if (r == SPVBC_SUCCESS) r = spvbc_module_parse(ctx, ready, ready_count, NULL, &check);
    if (r == SPVBC_SUCCESS) {
        r = spvbc_module_validate(check, NULL, &vs);
        print_diagnostics(ctx);
        spvbc_module_destroy(check);
    }
    if (r == SPVBC_SUCCESS && hand_on(ready, ready_count, out) == 0) {
        printf("handed on %zu words (%s)\n", ready_count,
               ready == words ? "the caller's own" : "lowered");
        status = 0;
    } else {
        fprintf(stderr, "module rejected: %s\n", spvbc_result_string(r));
    }
    spvbc_module_destroy(mod); /* `ready` points into `mod` or is `words` */
    return status;
}

int main(int argc, char **argv)
{
    spvbc_context ctx;
    int status;

    /* The header and the library loaded at run time must agree. */
    if (spvbc_version_number() != SPVBC_VERSION_NUMBER) {
        fprintf(stderr, "built with spirv-bitcast %s, running with %s\n", SPVBC_VERSION_STRING,
                spvbc_version_string());
        return 1;
    }
    if (spvbc_context_create(NULL, &ctx) != SPVBC_SUCCESS) return 1;
    status = prepare(ctx, kernel_words, sizeof kernel_words / sizeof kernel_words[0],
                     argc > 1 ? argv[1] : NULL);
    spvbc_context_destroy(ctx);
    return status;
}
