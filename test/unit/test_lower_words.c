/* Modules built as words, which Debian 12's SPIRV-Tools cannot assemble (values of
 * SPIRV-Headers 1.4.363), validated and, where spirv-val 2023.1 can read the output, lowered:
 *   - a cooperative vector cast like a vector under LongVectorEXT (N-UNSIZED where its count is
 *     a specialization constant);
 *   - vectors of 8-bit floats, whose findings name the components' encodings and the class of
 *     a same-count pair of two encodings;
 *   - a cooperative vector of 8-bit floats, named with its components' encoding;
 *   - a first 3-component vector type whose id equals an OpTypeVector's first word, which must
 *     not hide the next one from the scan;
 *   - a bitcast of a value of each of one to three 3-component vector types, its definition at
 *     every position modulo the scan's widest step, which the scan must find ("maybe"), and the
 *     same module with a 4-component operand, where it must answer "no".
 * Each is a single-point bug of the rooms that the lit fixtures, which need SPIRV-Tools 2026 for
 * these types, would catch only where it is installed.
 *
 * SPDX-License-Identifier: Apache-2.0
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "modbuild.h"
#include "rules.h" /* the opcode facts: does this build know cooperative vectors? */
#include "spirv_bitcast.h"
#include "spvval.h"
#include "diag_check.h"

/* Values of SPIRV-Headers 1.4.363 that Debian 12's headers and SPIRV-Tools 2023.1 do not know:
 * the modules below are built as words, and only validated (spirv-val 2023.1 cannot read them,
 * so nothing is lowered). */
enum {
    CAP_FLOAT8_EXT = 4212,
    FP_FLOAT8_E4M3_EXT = 4214,
    FP_FLOAT8_E5M2_EXT = 4215,
    CAP_COOPERATIVE_VECTOR_NV = 5394,
    CAP_LONG_VECTOR_EXT = 5425,
    OP_TYPE_COOPERATIVE_VECTOR_NV = 5288
};

/* Resets `b` to a Shader module's head (SPIR-V 1.6, `bound`): Shader, the `n` capabilities `caps`,
 * the `n_ext` extensions `ext`, Logical GLSL450, GLCompute %1 "main" of LocalSize 1 1 1, void %2
 * and void() %3. */
static void shader_head(mb *b, uint32_t bound, const uint32_t *caps, size_t n,
                        const char *const *ext, size_t n_ext)
{
    b->n = 0;
    mb_header(b, 0x00010600u, bound);
    MB(b, SpvOpCapability, SpvCapabilityShader);
    for (size_t i = 0; i < n; ++i)
        MB(b, SpvOpCapability, caps[i]);
    for (size_t i = 0; i < n_ext; ++i)
        mb_extension(b, ext[i]);
    MB(b, SpvOpMemoryModel, SpvAddressingModelLogical, SpvMemoryModelGLSL450);
    mb_entry(b, SpvExecutionModelGLCompute, 1, "main");
    MB(b, SpvOpExecutionMode, 1, SpvExecutionModeLocalSize, 1, 1, 1);
    mb_void_fn_type(b, 2, 3);
}

/* Under LongVectorEXT a cooperative vector is cast like a vector of its component count
 * (SPV_EXT_long_vector): to a uint4 from four uints, valid; to a uint, V12; to one whose count is
 * a specialization constant, no size yet: the note N-UNSIZED and no verdict.  (The lit fixture
 * validate2026/coopvec_long_vector.spvasm says the same where SPIRV-Tools 2026 is installed.) */
static void test_coopvec_unsized(void **state)
{
    (void)state;
    const uint32_t caps[] = {CAP_COOPERATIVE_VECTOR_NV, CAP_LONG_VECTOR_EXT};
    const char *const ext[] = {"SPV_NV_cooperative_vector", "SPV_EXT_long_vector"};
    mb b = {NULL, 0, 0};
    shader_head(&b, 15, caps, 2, ext, 2);
    MB(&b, SpvOpTypeInt, 4, 32, 0);
    MB(&b, SpvOpConstant, 4, 5, 4);
    MB(&b, SpvOpSpecConstant, 4, 6, 4);
    MB(&b, OP_TYPE_COOPERATIVE_VECTOR_NV, 7, 4, 5); /* 4 x uint */
    MB(&b, OP_TYPE_COOPERATIVE_VECTOR_NV, 8, 4, 6); /* a specialization constant's count */
    MB(&b, SpvOpTypeVector, 9, 4, 4);
    mb_fn_begin(&b, 2, 1, 3, 10);
    MB(&b, SpvOpUndef, 7, 11);
    MB(&b, SpvOpBitcast, 9, 12, 11);
    MB(&b, SpvOpBitcast, 4, 13, 11);
    MB(&b, SpvOpBitcast, 8, 14, 11);
    mb_fn_end(&b);

    spvbc_context ctx;
    spvbc_validate_summary vs;
    if (spvbc__opcode_flags(OP_TYPE_COOPERATIVE_VECTOR_NV) & SPVBC__OPF_FOREIGN) {
        /* Opcode facts older than SPIRV-Headers 1.4.309 (Debian 12's): an opcode the build does
         * not know is never our error, so each site gets N-UNKNOWN-OPCODE and no verdict. */
        fprintf(stderr, "this build's opcode facts do not know OpTypeCooperativeVectorNV: "
                        "N-UNSIZED is unreachable, each site is N-UNKNOWN-OPCODE\n");
        validate_words(b.w, b.n, 0, SPVBC_SUCCESS, &ctx, &vs);
        assert_int_equal(vs.errors, 0);
        assert_int_equal(vs.notes, 3);
        for (uint32_t id = 12; id <= 14; ++id)
            has_text(diag_of(ctx, id, "N-UNKNOWN-OPCODE", SPVBC_SEVERITY_NOTE)->message, "5288");
        spvbc_context_destroy(ctx);
        mb_free(&b);
        return;
    }
    validate_words(b.w, b.n, 0, SPVBC_ERROR_VALIDATION_FAILED, &ctx, &vs);
    assert_int_equal(vs.bitcasts_checked, 3);
    assert_int_equal(vs.errors, 1);
    assert_int_equal(vs.notes, 1);
    no_diag_of(ctx, 12);
    diag_of(ctx, 13, "V12", SPVBC_SEVERITY_ERROR);
    const spvbc_diagnostic *d = diag_of(ctx, 14, "N-UNSIZED", SPVBC_SEVERITY_NOTE);
    has_text(d->message, "no verdict: a side has no size yet");
    assert_int_equal(d->lowerable, 0);
    spvbc_context_destroy(ctx);
    mb_free(&b);
}

/* A vector's findings name its components' encoding: four Float8E4M3EXT (FPEncoding 4214) are
 * 32 bits, a uint2 64 (V12); four Float8E5M2EXT (4215) from them is valid, a note under
 * SPVBC_VALIDATE_NOTES (as_type has no type for either). */
static void test_float8_vector_names(void **state)
{
    (void)state;
    const uint32_t caps[] = {CAP_FLOAT8_EXT};
    const char *const ext[] = {"SPV_EXT_float8"};
    mb b = {NULL, 0, 0};
    shader_head(&b, 14, caps, 1, ext, 1);
    MB(&b, SpvOpTypeInt, 4, 32, 0);
    MB(&b, SpvOpTypeVector, 5, 4, 2);
    MB(&b, SpvOpTypeFloat, 6, 8, FP_FLOAT8_E4M3_EXT);
    MB(&b, SpvOpTypeFloat, 7, 8, FP_FLOAT8_E5M2_EXT);
    MB(&b, SpvOpTypeVector, 8, 6, 4);
    MB(&b, SpvOpTypeVector, 9, 7, 4);
    mb_fn_begin(&b, 2, 1, 3, 10);
    MB(&b, SpvOpUndef, 8, 11);
    MB(&b, SpvOpBitcast, 9, 12, 11);
    MB(&b, SpvOpBitcast, 5, 13, 11);
    mb_fn_end(&b);

    spvbc_context ctx;
    spvbc_validate_summary vs;
    validate_words(b.w, b.n, SPVBC_VALIDATE_NOTES, SPVBC_ERROR_VALIDATION_FAILED, &ctx, &vs);
    assert_int_equal(vs.errors, 1);
    const spvbc_diagnostic *d = diag_of(ctx, 13, "V12", SPVBC_SEVERITY_ERROR);
    has_text(d->message, "operand OpTypeVector 4 x OpTypeFloat 8 Float8E4M3EXT (32 bits)");
    has_text(d->operand_type, "Float8E4M3EXT");
    assert_int_equal(vs.notes, 1);
    d = diag_of(ctx, 12, "N-NOT-ASTYPE", SPVBC_SEVERITY_NOTE);
    has_text(d->message, "result OpTypeVector 4 x OpTypeFloat 8 Float8E5M2EXT (32 bits), operand "
                         "OpTypeVector 4 x OpTypeFloat 8 Float8E4M3EXT (32 bits)");
    has_text(d->message, "a side is a float of a non-IEEE encoding");
    /* Two float types of the same count and width but other encodings are not one type: the
     * reinterpretation is same-count (as between float4 and int4), never the identity. */
    has_text(d->message, "is same-count (a side is a float of a non-IEEE encoding");
    spvbc_context_destroy(ctx);
    mb_free(&b);
}

/* The scan records each 3-component vector type once: a type id already recorded is found by
 * the declaration's Result <id> (word 1).  Here the first such type's id is 262,167 (0x40017), the
 * value of an OpTypeVector's own first word (4 words, opcode 23): a scan that compared the
 * recorded ids with word 0 instead would take the second declaration (uint3, %7) for the first,
 * leave it out, and answer "no" for the float4 -> uint3 bitcast that lowering rewrites; the
 * answer must be "maybe", in the context's bit sets (an id above the scan's stack bound). */
static void test_scan_vec3_id_like_a_header_word(void **state)
{
    (void)state;
    const uint32_t vec3_f = (4u << 16) | SpvOpTypeVector; /* 262167 */
    mb b = {NULL, 0, 0};
    shader_head(&b, vec3_f + 1, NULL, 0, NULL, 0);
    MB(&b, SpvOpTypeFloat, 4, 32);
    MB(&b, SpvOpTypeVector, 5, 4, 4);
    MB(&b, SpvOpTypeVector, vec3_f, 4, 3);
    MB(&b, SpvOpTypeInt, 6, 32, 0);
    MB(&b, SpvOpTypeVector, 7, 6, 3);
    mb_fn_begin(&b, 2, 1, 3, 8);
    MB(&b, SpvOpUndef, 5, 9);
    MB(&b, SpvOpBitcast, 7, 10, 9);
    mb_fn_end(&b);
    spvbc_context ctx;
    assert_int_equal(spvbc_context_create(NULL, &ctx), SPVBC_SUCCESS);
    spvbc_bool maybe = -1;
    assert_int_equal(spvbc_bytes_scan_lowerable(ctx, b.w, b.n * 4, &maybe), SPVBC_SUCCESS);
    assert_int_equal(maybe, 1);
    /* and lowering does rewrite it: the scan's "maybe" is owed */
    spvbc_module mod;
    assert_int_equal(spvbc_module_parse(ctx, b.w, b.n, NULL, &mod), SPVBC_SUCCESS);
    spvbc_lower_summary ls = SPVBC_LOWER_SUMMARY_INIT;
    assert_int_equal(spvbc_module_lower(mod, NULL, &ls), SPVBC_SUCCESS);
    assert_int_equal(ls.rewritten, 1);
    const uint32_t *out = NULL;
    size_t out_n = 0;
    assert_int_equal(spvbc_module_get_words(mod, &out, &out_n), SPVBC_SUCCESS);
    char msg[1024];
    if (spvval_check(out, out_n, msg, sizeof msg) != 1) fail_msg("spirv-val: %s", msg);
    spvbc_module_destroy(mod);
    spvbc_context_destroy(ctx);
    mb_free(&b);
}

/* The scan's second pass compares every word with each 3-component vector type's id, 16 words a
 * step and the rest fewer at a time: a uint4 <- T3 bitcast (3 -> 4, which lowering rewrites)
 * of an OpUndef of the j-th of `n` such types (float3, int3, uint3), moved one word at a time
 * (by 0-15 OpUndef float of three words before it, 3 and 16 coprime) across every position of a
 * step and into the rest, must answer "maybe", lowering rewrites it and spirv-val accepts the
 * output; with a uint4 operand instead (nothing to lower) the answer is "no". */
static void test_scan_each_vec3_each_offset(void **state)
{
    (void)state;
    enum { FLOAT = 4, INT = 5, UINT = 6, V3 = 7, UINT4 = 10, LABEL = 11, X = 12, R = 13, PAD = 14 };
    spvbc_context ctx;
    assert_int_equal(spvbc_context_create(NULL, &ctx), SPVBC_SUCCESS);
    mb b = {NULL, 0, 0};
    char msg[1024];
    for (uint32_t n = 1; n <= 3; ++n)
        for (uint32_t j = 0; j <= n; ++j) /* j == n: the uint4 operand */
            for (uint32_t pad = 0; pad < 16; ++pad) {
                shader_head(&b, PAD + pad, NULL, 0, NULL, 0);
                MB(&b, SpvOpTypeFloat, FLOAT, 32);
                MB(&b, SpvOpTypeInt, INT, 32, 1);
                MB(&b, SpvOpTypeInt, UINT, 32, 0);
                for (uint32_t k = 0; k < n; ++k)
                    MB(&b, SpvOpTypeVector, V3 + k, FLOAT + k, 3);
                MB(&b, SpvOpTypeVector, UINT4, UINT, 4);
                mb_fn_begin(&b, 2, 1, 3, LABEL);
                for (uint32_t k = 0; k < pad; ++k)
                    MB(&b, SpvOpUndef, FLOAT, PAD + k);
                MB(&b, SpvOpUndef, j < n ? V3 + j : UINT4, X);
                MB(&b, SpvOpBitcast, UINT4, R, X);
                mb_fn_end(&b);
                spvbc_bool maybe = -1;
                assert_int_equal(spvbc_bytes_scan_lowerable(ctx, b.w, b.n * 4, &maybe),
                                 SPVBC_SUCCESS);
                if (maybe != (j < n))
                    fail_msg("n %u, j %u, pad %u: scan said %d", n, j, pad, maybe);
                spvbc_module mod;
                assert_int_equal(spvbc_module_parse(ctx, b.w, b.n, NULL, &mod), SPVBC_SUCCESS);
                spvbc_lower_summary ls = SPVBC_LOWER_SUMMARY_INIT;
                assert_int_equal(spvbc_module_lower(mod, NULL, &ls), SPVBC_SUCCESS);
                assert_int_equal(ls.rewritten, j < n ? 1 : 0);
                const uint32_t *out = NULL;
                size_t out_n = 0;
                assert_int_equal(spvbc_module_get_words(mod, &out, &out_n), SPVBC_SUCCESS);
                if (spvval_check(out, out_n, msg, sizeof msg) != 1)
                    fail_msg("n %u, j %u, pad %u: spirv-val: %s", n, j, pad, msg);
                spvbc_module_destroy(mod);
            }
    spvbc_context_destroy(ctx);
    mb_free(&b);
}

/* A cooperative vector's findings name its components' encoding too: four Float8E4M3EXT (32
 * bits) bitcast to a uint2 (64 bits) under LongVectorEXT is V12, its operand spelled with the
 * encoding (FPEncoding 4214), not as another float. */
static void test_coopvec_float8_names(void **state)
{
    (void)state;
    const uint32_t caps[] = {CAP_FLOAT8_EXT, CAP_COOPERATIVE_VECTOR_NV, CAP_LONG_VECTOR_EXT};
    const char *const ext[] = {"SPV_EXT_float8", "SPV_NV_cooperative_vector",
                               "SPV_EXT_long_vector"};
    mb b = {NULL, 0, 0};
    shader_head(&b, 12, caps, 3, ext, 3);
    MB(&b, SpvOpTypeInt, 4, 32, 0);
    MB(&b, SpvOpConstant, 4, 5, 4);
    MB(&b, SpvOpTypeFloat, 6, 8, FP_FLOAT8_E4M3_EXT);
    MB(&b, OP_TYPE_COOPERATIVE_VECTOR_NV, 7, 6, 5); /* 4 x Float8E4M3EXT */
    MB(&b, SpvOpTypeVector, 8, 4, 2);
    mb_fn_begin(&b, 2, 1, 3, 9);
    MB(&b, SpvOpUndef, 7, 10);
    MB(&b, SpvOpBitcast, 8, 11, 10);
    mb_fn_end(&b);

    spvbc_context ctx;
    spvbc_validate_summary vs;
    if (spvbc__opcode_flags(OP_TYPE_COOPERATIVE_VECTOR_NV) & SPVBC__OPF_FOREIGN) {
        fprintf(stderr, "this build's opcode facts do not know OpTypeCooperativeVectorNV: the "
                        "site is N-UNKNOWN-OPCODE\n");
        validate_words(b.w, b.n, 0, SPVBC_SUCCESS, &ctx, &vs);
        has_text(diag_of(ctx, 11, "N-UNKNOWN-OPCODE", SPVBC_SEVERITY_NOTE)->message, "5288");
        spvbc_context_destroy(ctx);
        mb_free(&b);
        return;
    }
    validate_words(b.w, b.n, 0, SPVBC_ERROR_VALIDATION_FAILED, &ctx, &vs);
    assert_int_equal(vs.errors, 1);
    const spvbc_diagnostic *d = diag_of(ctx, 11, "V12", SPVBC_SEVERITY_ERROR);
    has_text(d->message, "operand OpTypeCooperativeVectorNV of OpTypeFloat 8 Float8E4M3EXT");
    has_text(d->operand_type, "Float8E4M3EXT");
    spvbc_context_destroy(ctx);
    mb_free(&b);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_coopvec_unsized),
        cmocka_unit_test(test_float8_vector_names),
        cmocka_unit_test(test_coopvec_float8_names),
        cmocka_unit_test(test_scan_vec3_id_like_a_header_word),
        cmocka_unit_test(test_scan_each_vec3_each_offset),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
