/* test_api_spec.c - the public API test (test_api.h): OpSpecConstantOp bitcasts. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "test_api.h"
#include "unit_expect.h"

/* A SPIR-V 1.2 Kernel library (Linkage, Physical32) of `bound` ids: header, capabilities and
 * memory model, for the spec-constant tests. */
static void spec_kernel_head(mb *b, uint32_t bound)
{
    library_head(b, 0x00010200u, bound, SpvAddressingModelPhysical32);
}

/* A 3->4 with pad zero in a Kernel spec-constant: OpSpecConstantOp VectorShuffle with a new
 * OpConstantNull, all before the original instruction. */
void test_lower_spec_constant(void **state)
{
    (void)state;
    enum { S_VOID = 1, S_FLOAT, S_V3F, S_V4F, S_V4I, S_INT, S_C, S_C3, S_SPEC, S_BOUND };
    mb b = {0};
    spec_kernel_head(&b, S_BOUND);
    MB(&b, SpvOpTypeVoid, S_VOID);
    MB(&b, SpvOpTypeFloat, S_FLOAT, 32);
    MB(&b, SpvOpTypeInt, S_INT, 32, 0);
    MB(&b, SpvOpTypeVector, S_V3F, S_FLOAT, 3);
    MB(&b, SpvOpTypeVector, S_V4F, S_FLOAT, 4);
    MB(&b, SpvOpTypeVector, S_V4I, S_INT, 4);
    MB(&b, SpvOpSpecConstant, S_FLOAT, S_C, 0x3f800000u);
    MB(&b, SpvOpSpecConstantComposite, S_V3F, S_C3, S_C, S_C, S_C);
    MB(&b, SpvOpSpecConstantOp, S_V4I, S_SPEC, SpvOpBitcast, S_C3);
    spvbc_context ctx;
    spvbc_module m = parse_new(&b, &ctx);
    /* SPIRV-Tools 2025.1 does not check the spec-constant form: in its generation a warning
     * naming V12, an error under STRICT; in the default generation (2026.4, which rejects it)
     * the error V12; lowerable in every one. */
    spvbc_validate_summary vs = SPVBC_VALIDATE_SUMMARY_INIT;
    assert_int_equal(spvbc_module_validate(m, NULL, &vs), SPVBC_ERROR_VALIDATION_FAILED);
    assert_int_equal(vs.errors, 1);
    assert_int_equal(vs.lowerable, 1);
    assert_string_equal(spvbc_context_diagnostic(ctx, 0)->rule, "V12");
    spvbc_validate_options older = {sizeof(spvbc_validate_options), 0, SPVBC_GENERATION_2025_1};
    assert_int_equal(spvbc_module_validate(m, &older, &vs), SPVBC_SUCCESS);
    assert_int_equal(vs.warnings, 1);
    assert_int_equal(spvbc_context_diagnostic(ctx, 0)->severity, SPVBC_SEVERITY_WARNING);
    assert_string_equal(spvbc_context_diagnostic(ctx, 0)->rule, "W-SPEC-BITCAST");
    assert_non_null(strstr(spvbc_context_diagnostic(ctx, 0)->message, "(V12)"));
    assert_true(spvbc_context_diagnostic(ctx, 0)->lowerable);
    spvbc_validate_options strict = {sizeof(spvbc_validate_options), SPVBC_VALIDATE_STRICT,
                                     SPVBC_GENERATION_2025_1};
    assert_int_equal(spvbc_module_validate(m, &strict, &vs), SPVBC_ERROR_VALIDATION_FAILED);
    assert_int_equal(vs.lowerable, 1);
    assert_string_equal(spvbc_context_diagnostic(ctx, 0)->rule, "W-SPEC-BITCAST");
    spvbc_lower_options o = {sizeof(spvbc_lower_options), SPVBC_PAD_ZERO, 0,
                             SPVBC_GENERATION_NEWEST};
    spvbc_lower_summary sum = SPVBC_LOWER_SUMMARY_INIT;
    assert_int_equal(spvbc_module_lower(m, &o, &sum), SPVBC_SUCCESS);
    assert_int_equal(sum.rewritten, 1);
    assert_int_equal(sum.constants_added, 1);
    const uint32_t *out;
    size_t n;
    assert_int_equal(spvbc_module_get_words(m, &out, &n), SPVBC_SUCCESS);
    assert_true(spirv_val(out, n));
    size_t spec = def_offset(out, n, S_SPEC, 2);
    assert_int_equal(out[spec] & 0xffffu, SpvOpSpecConstantOp);
    assert_int_equal(out[spec + 3], SpvOpBitcast);
    /* Its operand is a spec-constant shuffle of %c3 and a null v3float, lanes 0 1 2 3. */
    size_t shuf = def_offset(out, n, out[spec + 4], 2);
    assert_int_equal(out[shuf + 3], SpvOpVectorShuffle);
    assert_int_equal(out[shuf + 4], S_C3);
    size_t null = def_offset(out, n, out[shuf + 5], 2);
    assert_int_equal(out[null] & 0xffffu, SpvOpConstantNull);
    assert_int_equal(out[null + 1], S_V3F);
    assert_int_equal(out[shuf + 9], 3);
    assert_true(null < shuf && shuf < spec);
    spvbc_context_destroy(ctx);
    mb_free(&b);
}

/* A spec-constant as_int3(float4) whose v4int is declared only after it: reusing it would be a
 * use before declaration and a second declaration a duplicate type, so it is not lowered (left
 * alone with the W-SPEC-BITCAST warning: SPIRV-Tools 2025.1 does not check the form, so it is
 * not refused); without that later declaration a new v4int is declared before the site. */
void test_spec_constant_type_order(void **state)
{
    (void)state;
    enum { S_FLOAT = 1, S_INT, S_V4F, S_V3I, S_C, S_C4, S_SPEC, S_V4I, S_BOUND };
    for (int late = 1; late >= 0; --late) {
        mb b = {0};
        spec_kernel_head(&b, S_BOUND);
        MB(&b, SpvOpTypeFloat, S_FLOAT, 32);
        MB(&b, SpvOpTypeInt, S_INT, 32, 0);
        MB(&b, SpvOpTypeVector, S_V4F, S_FLOAT, 4);
        MB(&b, SpvOpTypeVector, S_V3I, S_INT, 3);
        MB(&b, SpvOpSpecConstant, S_FLOAT, S_C, 0x3f800000u);
        MB(&b, SpvOpSpecConstantComposite, S_V4F, S_C4, S_C, S_C, S_C, S_C);
        MB(&b, SpvOpSpecConstantOp, S_V3I, S_SPEC, SpvOpBitcast, S_C4);
        if (late) MB(&b, SpvOpTypeVector, S_V4I, S_INT, 4);
        spvbc_context ctx;
        spvbc_module m = parse_new(&b, &ctx);
        /* validate's "lowerable" agrees with what lower does (STRICT: an error; without, a
         * warning that carries the same flag). */
        spvbc_validate_summary vs = SPVBC_VALIDATE_SUMMARY_INIT;
        spvbc_validate_options strict = {sizeof(spvbc_validate_options), SPVBC_VALIDATE_STRICT,
                                         SPVBC_GENERATION_2025_1};
        assert_int_equal(spvbc_module_validate(m, &strict, &vs), SPVBC_ERROR_VALIDATION_FAILED);
        assert_int_equal(vs.lowerable, late ? 0 : 1);
        /* Generation 2025.1: a warning; the lowering leaves what it cannot rewrite alone with
         * that warning (2026.4, the default, refuses it: below). */
        spvbc_validate_options older = {sizeof(spvbc_validate_options), 0, SPVBC_GENERATION_2025_1};
        assert_int_equal(spvbc_module_validate(m, &older, &vs), SPVBC_SUCCESS);
        assert_int_equal(vs.warnings, 1);
        assert_int_equal(spvbc_context_diagnostic(ctx, 0)->lowerable, late ? 0 : 1);
        spvbc_lower_summary sum = SPVBC_LOWER_SUMMARY_INIT;
        if (late) {
            assert_int_equal(spvbc_module_lower(m, NULL, &sum), SPVBC_PARTIAL);
            assert_int_equal(sum.refused, 1);
            assert_string_equal(spvbc_context_diagnostic(ctx, 0)->rule, "V12");
        }
        spvbc_lower_options older_lower = SPVBC_LOWER_OPTIONS_INIT;
        older_lower.generation = SPVBC_GENERATION_2025_1;
        assert_int_equal(spvbc_module_lower(m, &older_lower, &sum), SPVBC_SUCCESS);
        const uint32_t *out;
        size_t n;
        assert_int_equal(spvbc_module_get_words(m, &out, &n), SPVBC_SUCCESS);
        if (late) {
            assert_int_equal(sum.refused, 0);
            assert_int_equal(sum.rewritten, 0);
            assert_ptr_equal(out, b.w);
            const spvbc_diagnostic *d = spvbc_context_diagnostic(ctx, 0);
            assert_int_equal(d->severity, SPVBC_SEVERITY_WARNING);
            assert_string_equal(d->rule, "W-SPEC-BITCAST");
            assert_non_null(strstr(d->message, "declared after"));
        } else {
            assert_int_equal(sum.rewritten, 1);
            assert_int_equal(sum.types_added, 1);
            assert_true(spirv_val(out, n));
        }
        spvbc_context_destroy(ctx);
        mb_free(&b);
    }
}

/* In a Shader module the spec-constant form cannot be lowered (and needs Kernel anyway). */
void test_shader_spec_constant_refused(void **state)
{
    (void)state;
    enum { S_FLOAT = 1, S_INT, S_C, S_SPEC, S_BOUND };
    mb b = {0};
    mb_header(&b, 0x00010300u, S_BOUND);
    MB(&b, SpvOpCapability, SpvCapabilityShader);
    MB(&b, SpvOpMemoryModel, SpvAddressingModelLogical, SpvMemoryModelGLSL450);
    MB(&b, SpvOpTypeFloat, S_FLOAT, 32);
    MB(&b, SpvOpTypeInt, S_INT, 32, 1);
    MB(&b, SpvOpSpecConstant, S_FLOAT, S_C, 0);
    MB(&b, SpvOpSpecConstantOp, S_INT, S_SPEC, SpvOpBitcast, S_C);
    spvbc_context ctx;
    spvbc_module m = parse_new(&b, &ctx);
    assert_int_equal(spvbc_module_validate(m, NULL, NULL), SPVBC_ERROR_VALIDATION_FAILED);
    assert_string_equal(spvbc_context_diagnostic(ctx, 0)->rule, "S7");
    expect_lower_refused(m);
    spvbc_context_destroy(ctx);
    mb_free(&b);
}

/* spvbc_bytes_scan_lowerable(): "maybe" for the kernel module's 4->3 sites (with or without a
 * context), "no" once its bitcasts are OpCopyObject (same layout, nothing to lower), "maybe"
 * where it cannot tell, and argument errors. */
void test_bytes_may_lower(void **state)
{
    (void)state;
    kmod k;
    build_kernel(&k);
    spvbc_context ctx;
    assert_int_equal(spvbc_context_create(NULL, &ctx), SPVBC_SUCCESS);
    int maybe = -1;
    assert_int_equal(spvbc_bytes_scan_lowerable(NULL, k.b.w, k.b.n * 4, NULL),
                     SPVBC_ERROR_INVALID_ARGUMENT);
    assert_int_equal(spvbc_bytes_scan_lowerable(ctx, NULL, 8, &maybe),
                     SPVBC_ERROR_INVALID_ARGUMENT);
    assert_int_equal(spvbc_bytes_scan_lowerable(NULL, k.b.w, k.b.n * 4, &maybe), SPVBC_SUCCESS);
    assert_int_equal(maybe, 1);
    maybe = -1;
    assert_int_equal(spvbc_bytes_scan_lowerable(ctx, k.b.w, k.b.n * 4, &maybe), SPVBC_SUCCESS);
    assert_int_equal(maybe, 1);
    /* Misaligned, or a size that is no whole number of words: cannot tell. */
    unsigned char *odd = malloc(k.b.n * 4 + 1);
    assert_non_null(odd);
    memcpy(odd + 1, k.b.w, k.b.n * 4);
    assert_int_equal(spvbc_bytes_scan_lowerable(ctx, odd + 1, k.b.n * 4, &maybe), SPVBC_SUCCESS);
    assert_int_equal(maybe, 1);
    free(odd);
    assert_int_equal(spvbc_bytes_scan_lowerable(ctx, k.b.w, k.b.n * 4 - 2, &maybe), SPVBC_SUCCESS);
    assert_int_equal(maybe, 1);
    /* No bitcast at all: nothing to lower, and lower agrees. */
    size_t copies = 0;
    for (size_t off = 5; off < k.b.n; off += k.b.w[off] >> 16)
        if ((k.b.w[off] & 0xffffu) == SpvOpBitcast) {
            k.b.w[off] = (k.b.w[off] & 0xffff0000u) | SpvOpCopyObject;
            ++copies;
        }
    assert_int_equal(copies, 2);
    maybe = -1;
    assert_int_equal(spvbc_bytes_scan_lowerable(ctx, k.b.w, k.b.n * 4, &maybe), SPVBC_SUCCESS);
    assert_int_equal(maybe, 0);
    spvbc_module m;
    assert_int_equal(spvbc_module_parse(ctx, k.b.w, k.b.n, NULL, &m), SPVBC_SUCCESS);
    spvbc_lower_summary ls = SPVBC_LOWER_SUMMARY_INIT;
    assert_int_equal(spvbc_module_lower(m, NULL, &ls), SPVBC_SUCCESS);
    assert_int_equal(ls.rewritten, 0);
    spvbc_module_destroy(m);
    /* A bound above 32,768: the bit sets come from the context; without one, "maybe". */
    k.b.w[3] = 40000;
    maybe = -1;
    assert_int_equal(spvbc_bytes_scan_lowerable(ctx, k.b.w, k.b.n * 4, &maybe), SPVBC_SUCCESS);
    assert_int_equal(maybe, 0);
    assert_int_equal(spvbc_bytes_scan_lowerable(NULL, k.b.w, k.b.n * 4, &maybe), SPVBC_SUCCESS);
    assert_int_equal(maybe, 1);
    spvbc_context_destroy(ctx);
    mb_free(&k.b);
}
