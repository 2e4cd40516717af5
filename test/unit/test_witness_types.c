/* Second witnesses (test_witness.c says why) of source/types.c's declarations, each of which
 * unit.test_lower_words, unit.test_types_more or lit alone caught before:
 *   - each kind's shortest declaration and a word shorter, a component that is not a scalar, an
 *     operand not declared yet or at the bound, in byte-swapped modules read from bytes, with the
 *     declaration followed by another, so that a read past it shows;
 *   - vectors' counts under LongVectorEXT (2 and 5 components, not 1);
 *   - cooperative matrices' component facts and shapes in verdicts: the signedness, the
 *     storage-only class and the encoding of a component, scope and use given by specialization
 *     constants, a row count given by a float constant, a use that differs, NV matrices whose
 *     column counts differ, among constants that are no shape; the same module parsed under each
 *     allocation failing (R-MEMORY last);
 *   - types built on an unknown opcode's result through a struct of it and a uint, a cooperative
 *     vector and a vector of it, and a forward-declared pointer to it, which is known;
 *   - untyped pointers cast in a Kernel: to a ulong and to a pointer, and their name when the
 *     widths differ;
 *   - 16-bit floats seen through pointees: a pointer to each of the half, an array of halves
 *     and a struct of that array; a vector of 8-bit integers, storage-only too;
 *   - a scalar's as_type spelling, of one component;
 *   - the shapes of cooperative matrices resolved from the type table's first entry to its
 *     last, every block ending before an unreadable page, and a module that ends with a
 *     matrix's declaration or a 3-word OpTypeFloat read to its last word only.
 * Modules are built as words.
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
#include "spirv_bitcast.h"
#include "test_alloc.h"
#include "diag_check.h"
#include "test_witness.h"

/* One declaration %9 of the module decl_module() builds, and what its parse gives: SUCCESS, or
 * the result, rule and exact message of its one error. */
typedef struct decl_case {
    uint32_t op, ops[6], n;
    spvbc_result expect;
    const char *rule, *message;
} decl_case;

/* Resets `b` to a Shader module (bound 12; LongVectorEXT if `long_vector`) of uint %4 and the
 * constant 4 %5, then the declaration of `c`, then %10 = OpTypeFloat 32; returns the
 * declaration's word offset. */
static size_t decl_module(mb *b, const decl_case *c, int long_vector)
{
    const uint32_t caps[] = {CAP_LONG_VECTOR_EXT};
    const char *const ext[] = {"SPV_EXT_long_vector"};
    mb_shader_head(b, 12, caps, long_vector ? 1 : 0, ext, long_vector ? 1 : 0);
    MB(b, SpvOpTypeInt, 4, 32, 0);
    MB(b, SpvOpConstant, 4, 5, 4);
    const size_t at = mb_opn(b, c->op, c->ops, c->n);
    MB(b, SpvOpTypeFloat, 10, 32);
    return at;
}

/* Parses the module of `c`, its bytes swapped, with spvbc_module_parse_bytes(). */
static void expect_decl(const decl_case *c, int long_vector)
{
    mb b = {NULL, 0, 0};
    const size_t at = decl_module(&b, c, long_vector);
    for (size_t i = 0; i < b.n; ++i)
        b.w[i] = mb_bswap(b.w[i]);
    spvbc_context ctx;
    assert_int_equal(spvbc_context_create(NULL, &ctx), SPVBC_SUCCESS);
    spvbc_module m = NULL;
    const spvbc_result r = spvbc_module_parse_bytes(ctx, b.w, b.n * 4, NULL, &m);
    const spvbc_diagnostic *d = spvbc_context_diagnostic(ctx, 0);
    if (r != c->expect)
        fail_msg("opcode %u (%u operands): %s, expected %s (%s)", (unsigned)c->op, (unsigned)c->n,
                 spvbc_result_string(r), spvbc_result_string(c->expect), d ? d->message : "");
    if (c->expect == SPVBC_SUCCESS) {
        assert_non_null(m);
        assert_int_equal(spvbc_context_diagnostic_count(ctx), 0);
    } else {
        assert_null(m);
        assert_int_equal(spvbc_context_diagnostic_count(ctx), 1);
        assert_string_equal(d->rule, c->rule);
        assert_string_equal(d->message, c->message);
        assert_int_equal(d->word_offset, at);
        assert_int_equal(d->opcode, c->op);
    }
    spvbc_module_destroy(m);
    spvbc_context_destroy(ctx);
    mb_free(&b);
}

/* Each kind of declaration %9: a word short, R-OPERANDS; of the void %2 or of a component or
 * pointee not declared yet (%11) or at the bound (%12); and its shortest form, which parses.
 * The rows of opcodes newer than this build's facts are skipped. */
void test_type_declarations_swapped(void **state)
{
    (void)state;
    const spvbc_result bin = SPVBC_ERROR_INVALID_BINARY, bad_id = SPVBC_ERROR_INVALID_ID;
    const uint32_t cw = SpvStorageClassCrossWorkgroup, nv = SpvOpTypeCooperativeMatrixNV;
    const uint32_t khr = OP_TYPE_COOPERATIVE_MATRIX_KHR, cv = OP_TYPE_COOPERATIVE_VECTOR_NV;
    const char *const short_scalar = "type declaration is missing its width operand";
    const char *const short_coop = "cooperative type is missing operands";
    const char *const not_numerical = "cooperative type component %2 is not a numerical scalar";
    const char *const later = "%11 is used as a type but is not a type declared before this "
                              "instruction";
    const decl_case cases[] = {
        {SpvOpTypeInt, {9, 32}, 2, bin, "R-OPERANDS", short_scalar},
        {SpvOpTypeInt, {9, 32, 1}, 3, SPVBC_SUCCESS, NULL, NULL},
        {SpvOpTypeFloat, {9}, 1, bin, "R-OPERANDS", short_scalar},
        {SpvOpTypeFloat, {9, 0}, 2, bin, "R-TYPE-SHAPE", "scalar type has width 0"},
        {SpvOpTypeFloat, {9, 64}, 2, SPVBC_SUCCESS, NULL, NULL},
        {SpvOpTypeVector, {9, 4}, 2, bin, "R-OPERANDS", "OpTypeVector is missing operands"},
        {SpvOpTypeVector,
         {9, 2, 4},
         3,
         bin,
         "R-TYPE-SHAPE",
         "OpTypeVector component type %2 is not a scalar"},
        {SpvOpTypeVector, {9, 11, 4}, 3, bad_id, "R-TYPE-ORDER", later},
        {SpvOpTypeVector,
         {9, 4, 5},
         3,
         bin,
         "R-TYPE-SHAPE",
         "OpTypeVector has 5 components (must be 2, 3, 4, 8 or 16; any count from 2 with "
         "LongVectorEXT)"},
        {SpvOpTypeVector, {9, 4, 16}, 3, SPVBC_SUCCESS, NULL, NULL},
        {SpvOpTypePointer, {9, cw}, 2, bin, "R-OPERANDS", "OpTypePointer is missing operands"},
        {SpvOpTypePointer, {9, cw, 11}, 3, bad_id, "R-TYPE-ORDER", later},
        {SpvOpTypePointer, {9, cw, 4}, 3, SPVBC_SUCCESS, NULL, NULL},
        {SpvOpTypeArray, {9}, 1, bin, "R-OPERANDS", "composite type is missing its element type"},
        {nv, {9, 4, 5, 5}, 4, bin, "R-OPERANDS", short_coop},
        {nv, {9, 2, 5, 5, 5}, 5, bin, "R-TYPE-SHAPE", not_numerical},
        {nv, {9, 11, 5, 5, 5}, 5, bad_id, "R-TYPE-ORDER", later},
        {nv, {9, 4, 5, 5, 5}, 5, SPVBC_SUCCESS, NULL, NULL},
        {khr, {9, 4, 5, 5, 5}, 5, bin, "R-OPERANDS", short_coop},
        {khr, {9, 2, 5, 5, 5, 5}, 6, bin, "R-TYPE-SHAPE", not_numerical},
        {khr, {9, 4, 5, 5, 5, 5}, 6, SPVBC_SUCCESS, NULL, NULL},
        {cv, {9, 4}, 2, bin, "R-OPERANDS", short_coop},
        {cv,
         {9, 12, 5},
         3,
         bad_id,
         "R-ID-RANGE",
         "type operand %12 is 0 or at or above the id bound"},
        {cv, {9, 4, 5}, 3, SPVBC_SUCCESS, NULL, NULL},
        {OP_TYPE_UNTYPED_POINTER_KHR,
         {9},
         1,
         bin,
         "R-OPERANDS",
         "OpTypeUntypedPointerKHR is missing its storage class"},
        {OP_TYPE_UNTYPED_POINTER_KHR, {9, cw}, 2, SPVBC_SUCCESS, NULL, NULL},
    };
    size_t skipped = 0;
    for (size_t i = 0; i < sizeof cases / sizeof *cases; ++i) {
        if (spvbc__opcode_flags(cases[i].op) & SPVBC__OPF_FOREIGN) {
            ++skipped;
            continue;
        }
        expect_decl(&cases[i], 0);
    }
    if (skipped)
        fprintf(stderr, "%zu declarations of opcodes this build's facts do not know: SKIPPED\n",
                skipped);
    /* Under LongVectorEXT any count from 2. */
    const decl_case long_vectors[] = {
        {SpvOpTypeVector, {9, 4, 2}, 3, SPVBC_SUCCESS, NULL, NULL},
        {SpvOpTypeVector, {9, 4, 5}, 3, SPVBC_SUCCESS, NULL, NULL},
        {SpvOpTypeVector,
         {9, 4, 1},
         3,
         bin,
         "R-TYPE-SHAPE",
         "OpTypeVector has 1 components (must be at least 2)"},
    };
    for (size_t i = 0; i < sizeof long_vectors / sizeof *long_vectors; ++i)
        expect_decl(&long_vectors[i], 1);
}

/* The ids of cooperative_module(). */
enum {
    CM_UINT = 4,
    CM_SCOPE3,
    CM_EIGHT,
    CM_SIXTEEN,
    CM_USE0,
    CM_USE1,
    CM_SPEC8,
    CM_OTHER,
    CM_FLOAT,
    CM_FLOAT_EIGHT,
    CM_INT,
    CM_HALF,
    CM_F8,
    CM_A, /* uint, scope 3, 8 x 8, use 1 */
    CM_SPEC_SCOPE, /* scope a specialization constant: valid */
    CM_SPEC_USE, /* use a specialization constant: valid */
    CM_FLOAT_ROWS, /* rows a float constant (8.0): valid */
    CM_USE_0, /* use 0: V-COOPMAT-SHAPE */
    CM_SIGNED_16, /* int 32 1, 16 rows: V-COOPMAT-SHAPE, named signed */
    CM_HALVES, /* of 16-bit floats, storage-only in a Shader module: V13 */
    CM_F8_16, /* of Float8E4M3EXT, 16 rows: V-COOPMAT-SHAPE, named with its encoding */
    CM_NV_A,
    CM_NV_COLS16,
    CM_NV_SAME, /* NV: 3, 8 x 8; 3, 8 x 16; 3, 8 x 8 */
    CM_FN_LABEL,
    CM_X,
    CM_NV_X,
    CM_CASTS,
    CM_BOUND = CM_CASTS + 9
};

/* Resets `b` to a Shader module of cooperative matrices of both kinds (its ids above), whose
 * function casts an undefined A to each KHR matrix and an NV A to each NV one (results
 * CM_CASTS on, in the order of the types). */
static void cooperative_module(mb *b)
{
    const uint32_t caps[] = {CAP_COOPERATIVE_MATRIX_KHR, SpvCapabilityCooperativeMatrixNV,
                             CAP_FLOAT8_EXT};
    const char *const ext[] = {"SPV_KHR_cooperative_matrix", "SPV_NV_cooperative_matrix",
                               "SPV_EXT_float8"};
    mb_shader_head(b, CM_BOUND, caps, 3, ext, 3);
    MB(b, SpvOpTypeInt, CM_UINT, 32, 0);
    MB(b, SpvOpConstant, CM_UINT, CM_SCOPE3, 3);
    MB(b, SpvOpConstant, CM_UINT, CM_EIGHT, 8);
    MB(b, SpvOpConstant, CM_UINT, CM_SIXTEEN, 16);
    MB(b, SpvOpConstant, CM_UINT, CM_USE0, 0);
    MB(b, SpvOpConstant, CM_UINT, CM_USE1, 1);
    MB(b, SpvOpSpecConstant, CM_UINT, CM_SPEC8, 8);
    MB(b, SpvOpConstant, CM_UINT, CM_OTHER, 99); /* no shape */
    MB(b, SpvOpTypeFloat, CM_FLOAT, 32);
    MB(b, SpvOpConstant, CM_FLOAT, CM_FLOAT_EIGHT, 0x41000000u);
    MB(b, SpvOpTypeInt, CM_INT, 32, 1);
    MB(b, SpvOpTypeFloat, CM_HALF, 16);
    MB(b, SpvOpTypeFloat, CM_F8, 8, FP_FLOAT8_E4M3_EXT);
    const uint32_t khr[][5] = {
        {CM_UINT, CM_SCOPE3, CM_EIGHT, CM_EIGHT, CM_USE1},
        {CM_UINT, CM_SPEC8, CM_EIGHT, CM_EIGHT, CM_USE1},
        {CM_UINT, CM_SCOPE3, CM_EIGHT, CM_EIGHT, CM_SPEC8},
        {CM_UINT, CM_SCOPE3, CM_FLOAT_EIGHT, CM_EIGHT, CM_USE1},
        {CM_UINT, CM_SCOPE3, CM_EIGHT, CM_EIGHT, CM_USE0},
        {CM_INT, CM_SCOPE3, CM_SIXTEEN, CM_EIGHT, CM_USE1},
        {CM_HALF, CM_SCOPE3, CM_EIGHT, CM_EIGHT, CM_USE1},
        {CM_F8, CM_SCOPE3, CM_SIXTEEN, CM_EIGHT, CM_USE1},
    };
    for (uint32_t i = 0; i < 8; ++i) {
        const uint32_t ops[] = {CM_A + i, khr[i][0], khr[i][1], khr[i][2], khr[i][3], khr[i][4]};
        mb_opn(b, OP_TYPE_COOPERATIVE_MATRIX_KHR, ops, 6);
    }
    MB(b, SpvOpTypeCooperativeMatrixNV, CM_NV_A, CM_UINT, CM_SCOPE3, CM_EIGHT, CM_EIGHT);
    MB(b, SpvOpTypeCooperativeMatrixNV, CM_NV_COLS16, CM_UINT, CM_SCOPE3, CM_EIGHT, CM_SIXTEEN);
    MB(b, SpvOpTypeCooperativeMatrixNV, CM_NV_SAME, CM_UINT, CM_SCOPE3, CM_EIGHT, CM_EIGHT);
    mb_fn_begin(b, 2, 1, 3, CM_FN_LABEL);
    MB(b, SpvOpUndef, CM_A, CM_X);
    MB(b, SpvOpUndef, CM_NV_A, CM_NV_X);
    for (uint32_t i = 1; i < 8; ++i)
        MB(b, SpvOpBitcast, CM_A + i, CM_CASTS + i - 1, CM_X);
    MB(b, SpvOpBitcast, CM_NV_COLS16, CM_CASTS + 7, CM_NV_X);
    MB(b, SpvOpBitcast, CM_NV_SAME, CM_CASTS + 8, CM_NV_X);
    mb_fn_end(b);
}

/* The verdicts of cooperative_module()'s casts, each named with its component's facts. */
void test_cooperative_facts_in_verdicts(void **state)
{
    (void)state;
    if (opcode_unknown(OP_TYPE_COOPERATIVE_MATRIX_KHR, "OpTypeCooperativeMatrixKHR: SKIPPED"))
        skip();
    mb b = {NULL, 0, 0};
    cooperative_module(&b);
    spvbc_context ctx;
    spvbc_validate_summary vs;
    validate_words(b.w, b.n, 0, SPVBC_ERROR_VALIDATION_FAILED, &ctx, &vs);
    assert_int_equal(vs.bitcasts_checked, 9);
    assert_int_equal(vs.errors, 5);
    for (uint32_t i = 0; i < 3; ++i) /* spec scope, spec use, float rows */
        no_diag_of(ctx, CM_CASTS + i);
    diag_of(ctx, CM_CASTS + 3, "V-COOPMAT-SHAPE", SPVBC_SEVERITY_ERROR);
    assert_string_equal(
        diag_of(ctx, CM_CASTS + 4, "V-COOPMAT-SHAPE", SPVBC_SEVERITY_ERROR)->result_type,
        "OpTypeCooperativeMatrixKHR of OpTypeInt 32 1");
    diag_of(ctx, CM_CASTS + 5, "V13", SPVBC_SEVERITY_ERROR);
    assert_string_equal(
        diag_of(ctx, CM_CASTS + 6, "V-COOPMAT-SHAPE", SPVBC_SEVERITY_ERROR)->result_type,
        "OpTypeCooperativeMatrixKHR of OpTypeFloat 8 Float8E4M3EXT");
    diag_of(ctx, CM_CASTS + 7, "V-COOPMAT-SHAPE", SPVBC_SEVERITY_ERROR);
    no_diag_of(ctx, CM_CASTS + 8);
    spvbc_context_destroy(ctx);
    mb_free(&b);
}

/* A Kernel module (bound 30) in which %7 is the result of an opcode no build knows (0x7FF1), and
 * types are built on it: a struct %9 {%7, uint}, a cooperative vector %12 of 4 of it and a
 * vector %13 of it, and the forward-declared pointer %16 to it; each is cast (results %21 on) to
 * a type of the same kind that is known.  The first three get N-UNKNOWN-OPCODE and no verdict;
 * the forward-declared pointer is a known pointer, cast to another: valid, no finding. */
void test_foreign_through_declarations(void **state)
{
    (void)state;
    const uint32_t cw = SpvStorageClassCrossWorkgroup;
    mb b = {NULL, 0, 0};
    mb_kernel_head(&b, 0x00010000u, 30, 1);
    mb_void_fn_type(&b, 2, 3);
    MB(&b, SpvOpTypeForwardPointer, 16, cw);
    MB(&b, SpvOpTypeInt, 4, 32, 0);
    MB(&b, SpvOpConstant, 4, 5, 4);
    mb_word(&b, 0x00027FF1u);
    mb_word(&b, 7);
    MB(&b, SpvOpTypePointer, 8, cw, 4);
    MB(&b, SpvOpTypeStruct, 9, 7, 4);
    MB(&b, SpvOpTypePointer, 10, cw, 9);
    MB(&b, OP_TYPE_COOPERATIVE_VECTOR_NV, 12, 7, 5);
    MB(&b, OP_TYPE_COOPERATIVE_VECTOR_NV, 14, 4, 5);
    MB(&b, SpvOpTypeVector, 13, 7, 4);
    MB(&b, SpvOpTypeVector, 15, 4, 4);
    MB(&b, SpvOpTypePointer, 16, cw, 7);
    mb_fn_begin(&b, 2, 1, 3, 17);
    const uint32_t from[] = {10, 12, 13, 16}, to[] = {8, 14, 15, 8};
    for (uint32_t i = 0; i < 4; ++i) {
        MB(&b, SpvOpUndef, from[i], 18 + i * 3);
        MB(&b, SpvOpBitcast, to[i], 19 + i * 3, 18 + i * 3);
    }
    mb_fn_end(&b);
    spvbc_context ctx;
    spvbc_validate_summary vs;
    validate_words(b.w, b.n, SPVBC_VALIDATE_NOTES, SPVBC_SUCCESS, &ctx, &vs);
    const int coopvec_known = !opcode_unknown(
        OP_TYPE_COOPERATIVE_VECTOR_NV, "OpTypeCooperativeVectorNV: its cast's note unchecked");
    assert_int_equal(vs.errors, 0);
    assert_int_equal(vs.notes, 3);
    diag_of(ctx, 19, "N-UNKNOWN-OPCODE", SPVBC_SEVERITY_NOTE);
    if (coopvec_known) diag_of(ctx, 22, "N-UNKNOWN-OPCODE", SPVBC_SEVERITY_NOTE);
    diag_of(ctx, 25, "N-UNKNOWN-OPCODE", SPVBC_SEVERITY_NOTE);
    no_diag_of(ctx, 28);
    spvbc_context_destroy(ctx);
    mb_free(&b);
}

/* In a Kernel module (Physical64) an untyped pointer (SPV_KHR_untyped_pointers) of
 * CrossWorkgroup %6 is cast like a pointer: to a ulong and to a typed pointer, valid; to a uint,
 * the warning S3-WIDTH (not the 64-bit pointer width), its operand named by its storage class
 * and no bit count. */
void test_untyped_pointer_in_kernel(void **state)
{
    (void)state;
    if (opcode_unknown(OP_TYPE_UNTYPED_POINTER_KHR, "OpTypeUntypedPointerKHR: SKIPPED")) skip();
    const uint32_t cw = SpvStorageClassCrossWorkgroup;
    const uint32_t caps[] = {CAP_UNTYPED_POINTERS_KHR, SpvCapabilityInt64};
    mb b = {NULL, 0, 0};
    mb_kernel_head_caps(&b, 0x00010000u, 20, 1, caps, 2);
    mb_void_fn_type(&b, 2, 3);
    MB(&b, SpvOpTypeFloat, 4, 32);
    MB(&b, SpvOpTypeInt, 5, 64, 0);
    MB(&b, OP_TYPE_UNTYPED_POINTER_KHR, 6, cw); /* its id is no storage class's value */
    MB(&b, SpvOpTypeInt, 7, 32, 0);
    MB(&b, SpvOpTypePointer, 8, cw, 4);
    mb_fn_begin(&b, 2, 1, 3, 9);
    MB(&b, SpvOpUndef, 6, 10);
    MB(&b, SpvOpBitcast, 5, 11, 10);
    MB(&b, SpvOpBitcast, 8, 12, 10);
    MB(&b, SpvOpBitcast, 7, 13, 10);
    mb_fn_end(&b);
    spvbc_context ctx;
    spvbc_validate_summary vs;
    validate_words(b.w, b.n, 0, SPVBC_SUCCESS, &ctx, &vs);
    assert_int_equal(vs.bitcasts_checked, 3);
    assert_int_equal(vs.errors, 0);
    assert_int_equal(vs.warnings, 1);
    no_diag_of(ctx, 11);
    no_diag_of(ctx, 12);
    const spvbc_diagnostic *d = diag_of(ctx, 13, "S3-WIDTH", SPVBC_SEVERITY_WARNING);
    has_text(d->message, "integer width differs from the 64-bit pointer width");
    assert_string_equal(d->operand_type, "OpTypeUntypedPointerKHR CrossWorkgroup");
    /* A pointer has no bit count of its own: none is given after its name. */
    const char *const tail = ", operand OpTypeUntypedPointerKHR CrossWorkgroup";
    assert_true(strlen(d->message) > strlen(tail));
    assert_string_equal(d->message + strlen(d->message) - strlen(tail), tail);
    spvbc_context_destroy(ctx);
    mb_free(&b);
}

/* In a Shader module of PhysicalStorageBuffer64 without Float16, a 16-bit float is
 * storage-only, and spirv-val looks through pointees: a pointer to uint (%12) cast to a pointer
 * to the half %4 and to a struct {uint, array of 4 halves} is V13 each; to a pointer to an array
 * of 4 uints, valid.  Without Int8, a uchar4 (%20) cast to a uint is V13 too. */
void test_half_through_pointees(void **state)
{
    (void)state;
    const uint32_t psb = SpvStorageClassPhysicalStorageBuffer;
    mb b = {NULL, 0, 0};
    mb_header(&b, 0x00010600u, 30);
    MB(&b, SpvOpCapability, SpvCapabilityShader);
    MB(&b, SpvOpCapability, SpvCapabilityPhysicalStorageBufferAddresses);
    MB(&b, SpvOpCapability, SpvCapabilityStorageBuffer16BitAccess);
    MB(&b, SpvOpMemoryModel, SpvAddressingModelPhysicalStorageBuffer64, SpvMemoryModelGLSL450);
    mb_entry(&b, SpvExecutionModelGLCompute, 1, "main");
    MB(&b, SpvOpExecutionMode, 1, SpvExecutionModeLocalSize, 1, 1, 1);
    mb_void_fn_type(&b, 2, 3);
    MB(&b, SpvOpTypeFloat, 4, 16);
    MB(&b, SpvOpTypeInt, 5, 32, 0);
    MB(&b, SpvOpConstant, 5, 6, 4);
    MB(&b, SpvOpTypeArray, 7, 4, 6);
    MB(&b, SpvOpTypeStruct, 8, 5, 7);
    MB(&b, SpvOpTypeArray, 9, 5, 6);
    MB(&b, SpvOpTypePointer, 10, psb, 4);
    MB(&b, SpvOpTypePointer, 11, psb, 8);
    MB(&b, SpvOpTypePointer, 12, psb, 5);
    MB(&b, SpvOpTypePointer, 13, psb, 9);
    MB(&b, SpvOpTypeInt, 19, 8, 0);
    MB(&b, SpvOpTypeVector, 20, 19, 4);
    mb_fn_begin(&b, 2, 1, 3, 14);
    MB(&b, SpvOpUndef, 12, 15);
    MB(&b, SpvOpBitcast, 10, 16, 15);
    MB(&b, SpvOpBitcast, 11, 17, 15);
    MB(&b, SpvOpBitcast, 13, 18, 15);
    MB(&b, SpvOpUndef, 20, 21);
    MB(&b, SpvOpBitcast, 5, 22, 21);
    mb_fn_end(&b);
    spvbc_context ctx;
    spvbc_validate_summary vs;
    validate_words(b.w, b.n, 0, SPVBC_ERROR_VALIDATION_FAILED, &ctx, &vs);
    assert_int_equal(vs.errors, 3);
    diag_of(ctx, 16, "V13", SPVBC_SEVERITY_ERROR);
    diag_of(ctx, 17, "V13", SPVBC_SEVERITY_ERROR);
    no_diag_of(ctx, 18);
    diag_of(ctx, 22, "V13", SPVBC_SEVERITY_ERROR);
    spvbc_context_destroy(ctx);
    mb_free(&b);
}

/* A Kernel module's float %6 cast to a ushort: V12, spelled as_short(float), one component each
 * (lit's fixtures are the first witnesses). */
void test_scalar_astype_spelling(void **state)
{
    (void)state;
    mb b = {NULL, 0, 0};
    mb_kernel_head(&b, 0x00010000u, 12, 1);
    mb_void_fn_type(&b, 2, 3);
    MB(&b, SpvOpTypeFloat, 4, 32);
    MB(&b, SpvOpTypeInt, 5, 16, 0);
    mb_fn_begin(&b, 2, 1, 3, 6);
    MB(&b, SpvOpUndef, 4, 7);
    MB(&b, SpvOpBitcast, 5, 8, 7);
    mb_fn_end(&b);
    spvbc_context ctx;
    spvbc_validate_summary vs;
    validate_words(b.w, b.n, 0, SPVBC_ERROR_VALIDATION_FAILED, &ctx, &vs);
    has_text(diag_of(ctx, 8, "V12", SPVBC_SEVERITY_ERROR)->message,
             "; as_type: as_short(float) is size-error, ");
    spvbc_context_destroy(ctx);
    mb_free(&b);
}

/* Parses `b`, its words at the end of a readable page, in guarded_context(): it parses. */
static void parses_at_a_page(const mb *b)
{
    spvbc_context ctx = guarded_context();
    uint32_t *words = guarded_words(b->w, b->n);
    spvbc_module m = NULL;
    assert_int_equal(spvbc_module_parse(ctx, words, b->n, NULL, &m), SPVBC_SUCCESS);
    spvbc_module_destroy(m);
    spvbc_context_destroy(ctx);
    guarded_words_free(words, b->n);
}

/* The shapes of cooperative matrices are resolved over the whole type table, each block ending
 * before an unreadable page (unit.test_types_more, under the sanitizers, is the first witness):
 * a matrix that is the module's first type (of an unknown opcode's result %U) is counted, or its
 * shapes would be written past their block; three NV matrices after an int are counted, not the
 * int; after a matrix, 0 to 40 structs fill the table (16 and 32 entries of 64 bytes) in some of
 * them, and the walks stop at its last entry; a module that ends with a matrix's declaration is
 * read to its last word, not past it. */
void test_coopmat_table_ends_at_a_page(void **state)
{
    (void)state;
    if (opcode_unknown(OP_TYPE_COOPERATIVE_MATRIX_KHR, "OpTypeCooperativeMatrixKHR: SKIPPED"))
        skip();
    if (guard_pages_missing()) skip();
    enum { U = 10, FIRST, INT, SHAPE, LATER, STRUCTS, BOUND = STRUCTS + 41 };
    mb b = {NULL, 0, 0};
    mb_coopmat_head(&b, BOUND);
    mb_word(&b, 0x00027FF2u);
    mb_word(&b, U);
    MB(&b, OP_TYPE_COOPERATIVE_MATRIX_KHR, FIRST, U, SHAPE, SHAPE, SHAPE, SHAPE);
    MB(&b, SpvOpTypeInt, INT, 32, 0);
    MB(&b, SpvOpConstant, INT, SHAPE, 8);
    MB(&b, OP_TYPE_COOPERATIVE_MATRIX_KHR, LATER, INT, SHAPE, SHAPE, SHAPE, SHAPE);
    parses_at_a_page(&b);
    mb_coopmat_head(&b, BOUND);
    MB(&b, SpvOpTypeInt, INT, 32, 0);
    MB(&b, SpvOpConstant, INT, SHAPE, 8);
    for (uint32_t k = 0; k < 3; ++k)
        MB(&b, SpvOpTypeCooperativeMatrixNV, STRUCTS + k, INT, SHAPE, SHAPE, SHAPE);
    parses_at_a_page(&b);
    mb_coopmat_head(&b, BOUND);
    MB(&b, SpvOpTypeInt, INT, 32, 0);
    MB(&b, SpvOpConstant, INT, SHAPE, 8);
    MB(&b, OP_TYPE_COOPERATIVE_MATRIX_KHR, LATER, INT, SHAPE, SHAPE, SHAPE, SHAPE);
    parses_at_a_page(&b);
    for (uint32_t n = 0; n <= 40; ++n) {
        mb_coopmat_head(&b, BOUND);
        MB(&b, SpvOpTypeInt, INT, 32, 0);
        MB(&b, SpvOpConstant, INT, SHAPE, 8);
        MB(&b, OP_TYPE_COOPERATIVE_MATRIX_KHR, LATER, INT, SHAPE, SHAPE, SHAPE, SHAPE);
        for (uint32_t k = 0; k < n; ++k)
            MB(&b, SpvOpTypeStruct, STRUCTS + k, INT);
        parses_at_a_page(&b);
    }
    mb_free(&b);
}

/* A module whose last instruction is a 3-word OpTypeFloat (no encoding word), its words at the
 * end of a readable page: parsed without a read past its last word (unit.test_types_more, under
 * the sanitizers, is the first witness). */
void test_float_last_word_at_a_page(void **state)
{
    (void)state;
    if (guard_pages_missing()) skip();
    mb b = {NULL, 0, 0};
    mb_kernel_head(&b, 0x00010000u, 8, 1);
    MB(&b, SpvOpTypeInt, 4, 32, 0);
    MB(&b, SpvOpTypeFloat, 5, 32);
    parses_at_a_page(&b);
    mb_free(&b);
}

/* cooperative_module() parsed with each allocation failing in turn (the shape table's among
 * them): every failure is OUT_OF_MEMORY with the R-MEMORY diagnostic last, no module, and
 * nothing left allocated (unit.test_lower_words is the first witness). */
void test_cooperative_parse_under_failures(void **state)
{
    (void)state;
    if (opcode_unknown(OP_TYPE_COOPERATIVE_MATRIX_KHR, "OpTypeCooperativeMatrixKHR: SKIPPED"))
        skip();
    mb b = {NULL, 0, 0};
    cooperative_module(&b);
    for (size_t k = 1;; ++k) {
        test_alloc a;
        memset(&a, 0, sizeof a);
        const spvbc_allocator al = test_alloc_allocator(&a);
        spvbc_context ctx;
        assert_int_equal(spvbc_context_create(&al, &ctx), SPVBC_SUCCESS);
        a.fail_at = a.calls + k;
        spvbc_module m = NULL;
        const spvbc_result r = spvbc_module_parse(ctx, b.w, b.n, NULL, &m);
        const int failed = a.triggered;
        if (failed) {
            assert_int_equal(r, SPVBC_ERROR_OUT_OF_MEMORY);
            assert_null(m);
            const size_t n = spvbc_context_diagnostic_count(ctx);
            assert_true(n >= 1);
            assert_string_equal(spvbc_context_diagnostic(ctx, n - 1)->rule, "R-MEMORY");
        } else {
            assert_int_equal(r, SPVBC_SUCCESS);
        }
        spvbc_module_destroy(m);
        spvbc_context_destroy(ctx);
        assert_int_equal(a.live_blocks, 0);
        assert_int_equal(a.bad_free, 0);
        if (!failed) break;
    }
    mb_free(&b);
}
