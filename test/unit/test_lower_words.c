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
 *     same module with a 4-component operand, where it must answer "no";
 *   - each type declaration's own parse errors, with their exact messages;
 *   - cooperative matrices (KHR) whose shapes differ in one operand, or are not all constants,
 *     parsed also under allocation failure;
 *   - an untyped pointer, named by its storage class;
 *   - a float of an encoding word above 16 bits;
 *   - types of each kind built on an unknown opcode's result.
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

/* The modules below use values that Debian 12's headers and SPIRV-Tools 2023.1 do not know
 * (modbuild.h's): they are built as words, and only validated (spirv-val 2023.1 cannot read
 * them, so nothing is lowered). */

/* Under LongVectorEXT a cooperative vector is cast like a vector of its component count
 * (SPV_EXT_long_vector): to a uint4 from four uints, valid; to a uint, V12; to one whose count is
 * a specialization constant, no size yet: the note N-UNSIZED and no verdict.  (The lit fixture
 * validate2026/coopvec_long_vector.spvasm says the same where SPIRV-Tools 2026 is installed.) */
static void test_coopvec_unsized(void **state)
{
    (void)state;
    mb b = {NULL, 0, 0};
    mb_coopvec_module(&b);

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
    mb_shader_head(&b, 14, caps, 1, ext, 1);
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
    mb_shader_head(&b, vec3_f + 1, NULL, 0, NULL, 0);
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
                mb_shader_head(&b, PAD + pad, NULL, 0, NULL, 0);
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
    mb_shader_head(&b, 12, caps, 3, ext, 3);
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

/* The words of one type declaration after the head of mb_shader_head() (bound 20): int %4 32, its
 * constant %5 = 4, uint4 %6, then `ops` (opcode `op`, `n` operand words). */
static void type_module(mb *b, uint32_t op, const uint32_t *ops, size_t n, size_t *at)
{
    mb_shader_head(b, 20, NULL, 0, NULL, 0);
    MB(b, SpvOpTypeInt, 4, 32, 0);
    MB(b, SpvOpConstant, 4, 5, 4);
    MB(b, SpvOpTypeVector, 6, 4, 4);
    *at = mb_opn(b, op, ops, n);
}

/* The declaration `op` `ops` after type_module()'s types fails the parse with `expect`: one
 * error, at that instruction, of rule `rule` and exactly the message `message`. */
static void expect_type_error(uint32_t op, const uint32_t *ops, size_t n, spvbc_result expect,
                              const char *rule, const char *message)
{
    mb b = {NULL, 0, 0};
    size_t at;
    type_module(&b, op, ops, n, &at);
    assert_int_equal(expect_parse_error(b.w, b.n, expect, rule, at, message), op);
    mb_free(&b);
}

/* The declaration `op` `ops` after type_module()'s types parses. */
static void expect_type_parses(uint32_t op, const uint32_t *ops, size_t n)
{
    mb b = {NULL, 0, 0};
    size_t at;
    type_module(&b, op, ops, n, &at);
    spvbc_context ctx;
    assert_int_equal(spvbc_context_create(NULL, &ctx), SPVBC_SUCCESS);
    spvbc_module m = NULL;
    const spvbc_result r = spvbc_module_parse(ctx, b.w, b.n, NULL, &m);
    if (r != SPVBC_SUCCESS)
        fail_msg("opcode %u: %s (%s)", (unsigned)op, spvbc_result_string(r),
                 spvbc_context_diagnostic(ctx, 0)->message);
    spvbc_module_destroy(m);
    spvbc_context_destroy(ctx);
    mb_free(&b);
}

/* Each type declaration's own errors, with their exact messages (the id each names is neither
 * the declaration's first nor its last operand word), and the shortest declaration of each kind
 * that parses: a vector, a pointer, an array and a cooperative type one word short are
 * R-OPERANDS; a component that is not a scalar names the component; a type operand at the bound
 * is R-ID-RANGE, one not yet declared R-TYPE-ORDER. */
static void test_type_declaration_errors(void **state)
{
    (void)state;
    const spvbc_result bin = SPVBC_ERROR_INVALID_BINARY, id = SPVBC_ERROR_INVALID_ID;
    const uint32_t cs = SpvStorageClassCrossWorkgroup;
    expect_type_error(SpvOpTypeVector, (const uint32_t[]){7, 4}, 2, bin, "R-OPERANDS",
                      "OpTypeVector is missing operands");
    expect_type_error(SpvOpTypeVector, (const uint32_t[]){7, 6, 2}, 3, bin, "R-TYPE-SHAPE",
                      "OpTypeVector component type %6 is not a scalar");
    expect_type_error(SpvOpTypePointer, (const uint32_t[]){7, cs}, 2, bin, "R-OPERANDS",
                      "OpTypePointer is missing operands");
    expect_type_error(SpvOpTypeArray, (const uint32_t[]){7}, 1, bin, "R-OPERANDS",
                      "composite type is missing its element type");
    expect_type_error(SpvOpTypeArray, (const uint32_t[]){7, 9, 5}, 3, id, "R-TYPE-ORDER",
                      "%9 is used as a type but is not a type declared before this instruction");
    expect_type_error(SpvOpTypeRuntimeArray, (const uint32_t[]){7, 20}, 2, id, "R-ID-RANGE",
                      "type operand %20 is 0 or at or above the id bound");
    expect_type_parses(SpvOpTypeArray, (const uint32_t[]){7, 6, 5}, 3);
    expect_type_parses(SpvOpTypeRuntimeArray, (const uint32_t[]){7, 6}, 2);
    expect_type_parses(SpvOpTypePointer, (const uint32_t[]){7, cs, 6}, 3);
    /* An OpTypeCooperativeMatrixNV of 3 shape operands, 5 words short of one. */
    expect_type_error(SpvOpTypeCooperativeMatrixNV, (const uint32_t[]){7, 4, 5, 5}, 4, bin,
                      "R-OPERANDS", "cooperative type is missing operands");
    expect_type_error(SpvOpTypeCooperativeMatrixNV, (const uint32_t[]){7, 6, 5, 5, 5}, 5, bin,
                      "R-TYPE-SHAPE", "cooperative type component %6 is not a numerical scalar");
    expect_type_parses(SpvOpTypeCooperativeMatrixNV, (const uint32_t[]){7, 4, 5, 5, 5}, 5);
    if (spvbc__opcode_flags(OP_TYPE_COOPERATIVE_VECTOR_NV) & SPVBC__OPF_FOREIGN) {
        fprintf(stderr, "this build's opcode facts do not know OpTypeCooperativeVectorNV, "
                        "OpTypeCooperativeMatrixKHR or OpTypeUntypedPointerKHR\n");
        return;
    }
    expect_type_error(OP_TYPE_COOPERATIVE_VECTOR_NV, (const uint32_t[]){7, 4}, 2, bin, "R-OPERANDS",
                      "cooperative type is missing operands");
    expect_type_error(OP_TYPE_COOPERATIVE_VECTOR_NV, (const uint32_t[]){7, 6, 5}, 3, bin,
                      "R-TYPE-SHAPE", "cooperative type component %6 is not a numerical scalar");
    expect_type_parses(OP_TYPE_COOPERATIVE_VECTOR_NV, (const uint32_t[]){7, 4, 5}, 3);
    /* OpTypeCooperativeMatrixKHR: component, scope, rows, columns, use. */
    expect_type_error(OP_TYPE_COOPERATIVE_MATRIX_KHR, (const uint32_t[]){7, 4, 5, 5, 5}, 5, bin,
                      "R-OPERANDS", "cooperative type is missing operands");
    expect_type_parses(OP_TYPE_COOPERATIVE_MATRIX_KHR, (const uint32_t[]){7, 4, 5, 5, 5, 5}, 6);
    expect_type_error(OP_TYPE_UNTYPED_POINTER_KHR, (const uint32_t[]){7}, 1, bin, "R-OPERANDS",
                      "OpTypeUntypedPointerKHR is missing its storage class");
    expect_type_parses(OP_TYPE_UNTYPED_POINTER_KHR, (const uint32_t[]){7, cs}, 2);
}

/* An allocator that counts live bytes, checks that each free gets the size asked for (in a
 * header before the block) and fails its `fail_at`-th allocation (0: none). */
typedef struct counted {
    size_t live, calls, fail_at;
} counted;

static void *counted_alloc(void *user, size_t size)
{
    counted *c = (counted *)user;
    if (++c->calls == c->fail_at) return NULL;
    size_t *p = (size_t *)malloc(sizeof(size_t) * 2 + size);
    assert_non_null(p);
    p[0] = size;
    c->live += size;
    return p + 2;
}

static void counted_free(void *user, void *ptr, size_t size)
{
    counted *c = (counted *)user;
    size_t *p = (size_t *)ptr - 2;
    assert_int_equal(p[0], size);
    c->live -= size;
    free(p);
}

/* Parses the `n` words `w` with each allocation in turn failing, then with none failing: each
 * parse succeeds or says SPVBC_ERROR_OUT_OF_MEMORY, and no byte stays live after destroy. */
static void parse_under_failures(const uint32_t *w, size_t n)
{
    for (size_t at = 1;; ++at) {
        counted c = {0, 0, at};
        spvbc_allocator a = SPVBC_ALLOCATOR_INIT(counted_alloc, counted_free, &c);
        spvbc_context ctx;
        if (spvbc_context_create(&a, &ctx) != SPVBC_SUCCESS) {
            assert_int_equal(c.live, 0);
            continue;
        }
        spvbc_module m = NULL;
        const spvbc_result r = spvbc_module_parse(ctx, w, n, NULL, &m);
        if (r != SPVBC_SUCCESS) assert_int_equal(r, SPVBC_ERROR_OUT_OF_MEMORY);
        spvbc_module_destroy(m);
        spvbc_context_destroy(ctx);
        assert_int_equal(c.live, 0);
        if (c.calls < at) break; /* nothing failed: the whole parse ran */
    }
}

/* Cooperative matrices (SPV_KHR_cooperative_matrix) cast to one of the same scope, rows,
 * columns and use whatever their components; each shape operand is compared only where both are
 * OpConstant 32-bit integers: a specialization constant, a 16-bit integer or a float constant
 * passes (as spirv-val 2026.4 lets them).  Its parse frees what it allocates, also when an
 * allocation fails.  %A is (uint, scope 3, 8, 8, use 1); the result types
 * differ from it in one operand each; %15 is a constant that no shape names. */
static void test_coopmat_khr_shapes(void **state)
{
    (void)state;
    if (opcode_unknown(OP_TYPE_COOPERATIVE_MATRIX_KHR, "OpTypeCooperativeMatrixKHR")) return;
    const uint32_t caps[] = {CAP_COOPERATIVE_MATRIX_KHR};
    const char *const ext[] = {"SPV_KHR_cooperative_matrix"};
    mb b = {NULL, 0, 0};
    mb_shader_head(&b, 50, caps, 1, ext, 1);
    MB(&b, SpvOpTypeInt, 4, 32, 0);
    const uint32_t values[] = {3, 8, 16, 0, 1}; /* %5 to %9 */
    for (uint32_t i = 0; i < 5; ++i)
        MB(&b, SpvOpConstant, 4, 5 + i, values[i]);
    MB(&b, SpvOpSpecConstant, 4, 10, 8);
    MB(&b, SpvOpTypeInt, 11, 16, 0);
    MB(&b, SpvOpConstant, 11, 12, 16);
    MB(&b, SpvOpTypeFloat, 13, 32);
    MB(&b, SpvOpConstant, 13, 14, 16);
    MB(&b, SpvOpConstant, 4, 15, 99);
    MB(&b, SpvOpTypeFloat, 16, 16);
    MB(&b, SpvOpTypeInt, 17, 32, 1);
    const uint32_t mats[][5] = {
        {4, 5, 6, 6, 9}, /* %20 A */
        {4, 5, 6, 7, 9}, /* %21 16 columns: V-COOPMAT-SHAPE */
        {4, 5, 6, 6, 8}, /* %22 use 0: V-COOPMAT-SHAPE */
        {4, 10, 10, 10, 10}, /* %23 specialization constants: valid */
        {13, 5, 6, 6, 9}, /* %24 float components: valid */
        {4, 5, 6, 12, 9}, /* %25 columns a 16-bit constant: valid */
        {4, 5, 6, 14, 9}, /* %26 columns a float constant: valid */
        {4, 5, 7, 6, 9}, /* %27 16 rows: V-COOPMAT-SHAPE */
        {4, 9, 6, 6, 9}, /* %28 scope 1: V-COOPMAT-SHAPE */
        {16, 5, 6, 6, 9}, /* %29 of 16-bit floats, storage-only in this Shader module: V13 */
    };
    for (uint32_t i = 0; i < 10; ++i) {
        const uint32_t ops[] = {20 + i, mats[i][0], mats[i][1], mats[i][2], mats[i][3], mats[i][4]};
        mb_opn(&b, OP_TYPE_COOPERATIVE_MATRIX_KHR, ops, 6);
    }
    const uint32_t signed_mat[] = {41, 17, 5, 6, 7, 9}; /* of int 32 1, 16 columns */
    mb_opn(&b, OP_TYPE_COOPERATIVE_MATRIX_KHR, signed_mat, 6);
    mb_fn_begin(&b, 2, 1, 3, 30);
    MB(&b, SpvOpUndef, 20, 31);
    for (uint32_t i = 1; i < 10; ++i)
        MB(&b, SpvOpBitcast, 20 + i, 31 + i, 31);
    MB(&b, SpvOpBitcast, 41, 42, 31);
    mb_fn_end(&b);

    spvbc_context ctx;
    spvbc_validate_summary vs;
    validate_words(b.w, b.n, 0, SPVBC_ERROR_VALIDATION_FAILED, &ctx, &vs);
    assert_int_equal(vs.errors, 6);
    const uint32_t bad[] = {32, 33, 38, 39}, good[] = {34, 35, 36, 37};
    for (size_t i = 0; i < 4; ++i) {
        diag_of(ctx, bad[i], "V-COOPMAT-SHAPE", SPVBC_SEVERITY_ERROR);
        no_diag_of(ctx, good[i]);
    }
    diag_of(ctx, 40, "V13", SPVBC_SEVERITY_ERROR);
    assert_string_equal(diag_of(ctx, 42, "V-COOPMAT-SHAPE", SPVBC_SEVERITY_ERROR)->result_type,
                        "OpTypeCooperativeMatrixKHR of OpTypeInt 32 1");
    spvbc_context_destroy(ctx);
    parse_under_failures(b.w, b.n);
    mb_free(&b);
}

/* Ends `b`, its types declared, with a function %1 (label %7) whose one site is
 * %9 = OpBitcast `to` of %8, an OpUndef of `from`; validates it, expecting
 * VALIDATION_FAILED, and checks that %9's finding is the error `rule` naming the operand type
 * `operand_type`.  Frees `b`. */
static void expect_site_operand_named(mb *b, uint32_t from, uint32_t to, const char *rule,
                                      const char *operand_type)
{
    mb_fn_begin(b, 2, 1, 3, 7);
    MB(b, SpvOpUndef, from, 8);
    MB(b, SpvOpBitcast, to, 9, 8);
    mb_fn_end(b);
    spvbc_context ctx;
    spvbc_validate_summary vs;
    validate_words(b->w, b->n, 0, SPVBC_ERROR_VALIDATION_FAILED, &ctx, &vs);
    const spvbc_diagnostic *d = diag_of(ctx, 9, rule, SPVBC_SEVERITY_ERROR);
    assert_string_equal(d->operand_type, operand_type);
    spvbc_context_destroy(ctx);
    mb_free(b);
}

/* A value of an untyped pointer (SPV_KHR_untyped_pointers) is named by its storage class, with
 * no pointee, and cast like any pointer of that class: to a float, an error. */
static void test_untyped_pointer_names(void **state)
{
    (void)state;
    if (opcode_unknown(OP_TYPE_UNTYPED_POINTER_KHR, "OpTypeUntypedPointerKHR")) return;
    const uint32_t caps[] = {CAP_UNTYPED_POINTERS_KHR};
    const char *const ext[] = {"SPV_KHR_untyped_pointers"};
    mb b = {NULL, 0, 0};
    mb_shader_head(&b, 12, caps, 1, ext, 1);
    MB(&b, SpvOpTypeFloat, 4, 32);
    MB(&b, OP_TYPE_UNTYPED_POINTER_KHR, 5, SpvStorageClassWorkgroup);
    expect_site_operand_named(&b, 5, 4, "V9", "OpTypeUntypedPointerKHR Workgroup");
}

/* A float's encoding word above 0xFFFF (no FPEncoding has one) is named as "encoding 65535",
 * the largest the type record keeps, not as its low 16 bits. */
static void test_float_encoding_above_16_bits(void **state)
{
    (void)state;
    mb b = {NULL, 0, 0};
    mb_shader_head(&b, 12, NULL, 0, NULL, 0);
    MB(&b, SpvOpTypeFloat, 4, 8, 0x10000u);
    MB(&b, SpvOpTypeVector, 5, 4, 4);
    MB(&b, SpvOpTypeInt, 6, 16, 0);
    expect_site_operand_named(&b, 5, 6, "V12", "OpTypeVector 4 x OpTypeFloat 8 encoding 65535");
}

/* Types built on the result %7 of an opcode no build knows (0x7FF0) stay unknown through each
 * kind of declaration: an array of it, a pointer to that array, a struct of that array and a
 * float (the float member must not clear it), a cooperative vector and a vector of it.  A
 * bitcast of a value of each gets the note N-UNKNOWN-OPCODE and no verdict. */
static void test_types_on_unknown_opcode(void **state)
{
    (void)state;
    mb b = {NULL, 0, 0};
    mb_shader_head(&b, 30, NULL, 0, NULL, 0);
    MB(&b, SpvOpTypeFloat, 4, 32);
    MB(&b, SpvOpTypeInt, 5, 32, 0);
    MB(&b, SpvOpConstant, 5, 6, 4);
    mb_word(&b, 0x00027FF0u);
    mb_word(&b, 7);
    MB(&b, SpvOpTypeArray, 8, 7, 6);
    MB(&b, SpvOpTypePointer, 9, SpvStorageClassFunction, 8);
    MB(&b, SpvOpTypeStruct, 10, 8, 4);
    MB(&b, SpvOpTypePointer, 11, SpvStorageClassFunction, 10);
    MB(&b, OP_TYPE_COOPERATIVE_VECTOR_NV, 12, 7, 6);
    MB(&b, SpvOpTypeVector, 13, 7, 4);
    MB(&b, SpvOpTypePointer, 14, SpvStorageClassFunction, 4);
    MB(&b, SpvOpTypeVector, 15, 5, 4);
    mb_fn_begin(&b, 2, 1, 3, 16);
    const uint32_t from[] = {9, 11, 12, 13}, to[] = {14, 14, 15, 15};
    for (uint32_t i = 0; i < 4; ++i) {
        MB(&b, SpvOpUndef, from[i], 17 + 2 * i);
        MB(&b, SpvOpBitcast, to[i], 18 + 2 * i, 17 + 2 * i);
    }
    mb_fn_end(&b);
    spvbc_context ctx;
    spvbc_validate_summary vs;
    validate_words(b.w, b.n, SPVBC_VALIDATE_NOTES, SPVBC_SUCCESS, &ctx, &vs);
    assert_int_equal(vs.errors, 0);
    assert_int_equal(vs.notes, 4);
    for (uint32_t i = 0; i < 4; ++i)
        diag_of(ctx, 18 + 2 * i, "N-UNKNOWN-OPCODE", SPVBC_SEVERITY_NOTE);
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
        cmocka_unit_test(test_type_declaration_errors),
        cmocka_unit_test(test_coopmat_khr_shapes),
        cmocka_unit_test(test_untyped_pointer_names),
        cmocka_unit_test(test_float_encoding_above_16_bits),
        cmocka_unit_test(test_types_on_unknown_opcode),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
