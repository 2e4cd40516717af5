/* Type declarations whose facts only show in a later verdict, built as words and validated
 * (nothing is lowered):
 *   - pointers to a 16-bit float, to an array of them and to a struct of one, in a Shader
 *     module: spirv-val looks through pointees, so each bitcast is V13;
 *   - a struct whose member is directly an unknown opcode's result;
 *   - a forward-declared pointer to an unknown opcode's result, which (unlike a pointer that was
 *     not forward-declared) is a known pointer;
 *   - a one-component vector under LongVectorEXT, a parse error;
 *   - a struct member at the id bound, a module ending in a 3-word OpTypeFloat, and cooperative
 *     matrices at the type table's ends (its first entry, a full table), whose mutants read or
 *     write past an array (the sanitizer build tells).
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
#include "diag_check.h"

/* Resets `b` to a Shader module (SPIR-V 1.6, `bound`) of PhysicalStorageBuffer64 addressing,
 * with StorageBuffer16BitAccess; GLCompute %1, void %2, void() %3. */
static void psb_shader_head(mb *b, uint32_t bound)
{
    b->n = 0;
    mb_header(b, 0x00010600u, bound);
    MB(b, SpvOpCapability, SpvCapabilityShader);
    MB(b, SpvOpCapability, SpvCapabilityPhysicalStorageBufferAddresses);
    MB(b, SpvOpCapability, SpvCapabilityStorageBuffer16BitAccess);
    MB(b, SpvOpMemoryModel, SpvAddressingModelPhysicalStorageBuffer64, SpvMemoryModelGLSL450);
    mb_entry(b, SpvExecutionModelGLCompute, 1, "main");
    MB(b, SpvOpExecutionMode, 1, SpvExecutionModeLocalSize, 1, 1, 1);
    mb_void_fn_type(b, 2, 3);
}

/* A pointer to uint (%12) bitcast to a pointer to an array of 16-bit floats (%17), to a struct
 * of one (%18) and to one (%19): the 16-bit float is storage-only in a Shader module without
 * Float16, and spirv-val looks through pointees: V13 each.  To a pointer to an array of uints
 * (%20): valid. */
static void test_pointers_to_16_bit(void **state)
{
    (void)state;
    const uint32_t psb = SpvStorageClassPhysicalStorageBuffer;
    mb b = {NULL, 0, 0};
    psb_shader_head(&b, 30);
    MB(&b, SpvOpTypeFloat, 4, 16);
    MB(&b, SpvOpTypeInt, 5, 32, 0);
    MB(&b, SpvOpConstant, 5, 6, 4);
    MB(&b, SpvOpTypeArray, 7, 4, 6);
    MB(&b, SpvOpTypeStruct, 8, 4);
    MB(&b, SpvOpTypePointer, 9, psb, 7);
    MB(&b, SpvOpTypePointer, 10, psb, 8);
    MB(&b, SpvOpTypePointer, 11, psb, 4);
    MB(&b, SpvOpTypePointer, 12, psb, 5);
    MB(&b, SpvOpTypeArray, 13, 5, 6);
    MB(&b, SpvOpTypePointer, 14, psb, 13);
    mb_fn_begin(&b, 2, 1, 3, 15);
    MB(&b, SpvOpUndef, 12, 16);
    const uint32_t to[] = {9, 10, 11, 14};
    for (uint32_t i = 0; i < 4; ++i)
        MB(&b, SpvOpBitcast, to[i], 17 + i, 16);
    mb_fn_end(&b);

    spvbc_context ctx;
    spvbc_validate_summary vs;
    validate_words(b.w, b.n, 0, SPVBC_ERROR_VALIDATION_FAILED, &ctx, &vs);
    assert_int_equal(vs.errors, 3);
    for (uint32_t id = 17; id <= 19; ++id)
        diag_of(ctx, id, "V13", SPVBC_SEVERITY_ERROR);
    no_diag_of(ctx, 20);
    spvbc_context_destroy(ctx);
    mb_free(&b);
}

/* A struct (%8) whose one member is the result %7 of an opcode no build knows (0x7FF0): a
 * bitcast of a pointer to it gets the note N-UNKNOWN-OPCODE naming that opcode, and no
 * verdict. */
static void test_struct_of_unknown_opcode(void **state)
{
    (void)state;
    mb b = {NULL, 0, 0};
    mb_shader_head(&b, 20, NULL, 0, NULL, 0);
    MB(&b, SpvOpTypeFloat, 4, 32);
    mb_word(&b, 0x00027FF0u);
    mb_word(&b, 7);
    MB(&b, SpvOpTypeStruct, 8, 7);
    MB(&b, SpvOpTypePointer, 9, SpvStorageClassFunction, 8);
    MB(&b, SpvOpTypePointer, 10, SpvStorageClassFunction, 4);
    mb_fn_begin(&b, 2, 1, 3, 11);
    MB(&b, SpvOpUndef, 9, 12);
    MB(&b, SpvOpBitcast, 10, 13, 12);
    mb_fn_end(&b);

    spvbc_context ctx;
    spvbc_validate_summary vs;
    validate_words(b.w, b.n, SPVBC_VALIDATE_NOTES, SPVBC_SUCCESS, &ctx, &vs);
    assert_int_equal(vs.errors, 0);
    assert_int_equal(vs.notes, 1);
    has_text(diag_of(ctx, 13, "N-UNKNOWN-OPCODE", SPVBC_SEVERITY_NOTE)->message, "32752");
    spvbc_context_destroy(ctx);
    mb_free(&b);
}

/* Pointers to the result %7 of an unknown opcode (0x7FF0): %8, not forward-declared, is built
 * on it (its bitcast to a pointer to uint gets N-UNKNOWN-OPCODE); %9, forward-declared, is not
 * (spirv-val does not look through it): its bitcast is a valid pointer cast, no finding. */
static void test_forward_pointer_to_unknown_opcode(void **state)
{
    (void)state;
    const uint32_t psb = SpvStorageClassPhysicalStorageBuffer;
    mb b = {NULL, 0, 0};
    psb_shader_head(&b, 30);
    MB(&b, SpvOpTypeInt, 4, 32, 0);
    MB(&b, SpvOpTypeForwardPointer, 9, psb);
    mb_word(&b, 0x00027FF0u);
    mb_word(&b, 7);
    MB(&b, SpvOpTypePointer, 8, psb, 7);
    MB(&b, SpvOpTypePointer, 9, psb, 7);
    MB(&b, SpvOpTypePointer, 10, psb, 4);
    mb_fn_begin(&b, 2, 1, 3, 11);
    MB(&b, SpvOpUndef, 8, 12);
    MB(&b, SpvOpBitcast, 10, 13, 12);
    MB(&b, SpvOpUndef, 9, 14);
    MB(&b, SpvOpBitcast, 10, 15, 14);
    mb_fn_end(&b);

    spvbc_context ctx;
    spvbc_validate_summary vs;
    validate_words(b.w, b.n, SPVBC_VALIDATE_NOTES, SPVBC_SUCCESS, &ctx, &vs);
    assert_int_equal(vs.errors, 0);
    has_text(diag_of(ctx, 13, "N-UNKNOWN-OPCODE", SPVBC_SEVERITY_NOTE)->message, "32752");
    no_diag_of(ctx, 15);
    spvbc_context_destroy(ctx);
    mb_free(&b);
}

/* Under LongVectorEXT a vector needs at least 2 components: one is R-TYPE-SHAPE at the
 * OpTypeVector, with its count in the message. */
static void test_long_vector_of_one(void **state)
{
    (void)state;
    const uint32_t caps[] = {CAP_LONG_VECTOR_EXT};
    const char *const ext[] = {"SPV_EXT_long_vector"};
    mb b = {NULL, 0, 0};
    mb_shader_head(&b, 10, caps, 1, ext, 1);
    MB(&b, SpvOpTypeInt, 4, 32, 0);
    const size_t at = MB(&b, SpvOpTypeVector, 5, 4, 1);
    expect_parse_error(b.w, b.n, SPVBC_ERROR_INVALID_BINARY, "R-TYPE-SHAPE", at,
                       "OpTypeVector has 1 components (must be at least 2)");
    mb_free(&b);
}

/* A struct member whose id is the bound (%10) is R-ID-RANGE.  (A read of the id table at the
 * bound, one entry past its end, shows only in the sanitizer build.) */
static void test_struct_member_at_bound(void **state)
{
    (void)state;
    mb b = {NULL, 0, 0};
    mb_shader_head(&b, 10, NULL, 0, NULL, 0);
    MB(&b, SpvOpTypeFloat, 4, 32);
    const size_t at = MB(&b, SpvOpTypeStruct, 5, 4, 10);
    expect_parse_error(b.w, b.n, SPVBC_ERROR_INVALID_ID, "R-ID-RANGE", at,
                       "type operand %10 is 0 or at or above the id bound");
    mb_free(&b);
}

/* Parses the module of `b` from words in a block of exactly their size (a read past them shows
 * in the sanitizer build), in a fresh context: it parses, with no diagnostic. */
static void parses_exact(const mb *b)
{
    uint32_t *w = (uint32_t *)malloc(b->n * sizeof *w);
    assert_non_null(w);
    memcpy(w, b->w, b->n * sizeof *w);
    spvbc_context ctx;
    assert_int_equal(spvbc_context_create(NULL, &ctx), SPVBC_SUCCESS);
    spvbc_module mod = NULL;
    assert_int_equal(spvbc_module_parse(ctx, w, b->n, NULL, &mod), SPVBC_SUCCESS);
    assert_int_equal(spvbc_context_diagnostic_count(ctx), 0);
    spvbc_module_destroy(mod);
    spvbc_context_destroy(ctx);
    free(w);
}

/* A module whose last instruction is a 3-word OpTypeFloat parses (a read of the absent encoding
 * word shows in the sanitizer build). */
static void test_float_last_word(void **state)
{
    (void)state;
    mb b = {NULL, 0, 0};
    mb_header(&b, 0x00010000u, 5);
    MB(&b, SpvOpCapability, SpvCapabilityKernel);
    MB(&b, SpvOpCapability, SpvCapabilityAddresses);
    MB(&b, SpvOpMemoryModel, SpvAddressingModelPhysical64, SpvMemoryModelOpenCL);
    MB(&b, SpvOpTypeFloat, 4, 32);
    parses_exact(&b);
    mb_free(&b);
}

/* %`id` = OpTypeCooperativeMatrixKHR of `component`, each shape operand %`shape`. */
static void coopmat(mb *b, uint32_t id, uint32_t component, uint32_t shape)
{
    const uint32_t ops[] = {id, component, shape, shape, shape, shape};
    mb_opn(b, OP_TYPE_COOPERATIVE_MATRIX_KHR, ops, 6);
}

/* The shapes of cooperative types are resolved over the whole type table, from its first entry
 * to its last:
 *   - a cooperative matrix as the module's first type (its component an unknown opcode's result:
 *     the only way a type comes before every other), with another one later: the count of
 *     shape operands covers both (counted from the second entry, the first's four would be
 *     written past the block);
 *   - a cooperative matrix among 0 to 40 structs: the table is full (16 and 32 entries) in some
 *     of them, so that a walk one entry past its count reads past the block.
 * Each parses; the reads and writes past a block show in the sanitizer build. */
static void test_coopmat_table_ends(void **state)
{
    (void)state;
    if (opcode_unknown(OP_TYPE_COOPERATIVE_MATRIX_KHR, "OpTypeCooperativeMatrixKHR")) return;
    enum { U = 10, FIRST, INT, EIGHT, LATER, STRUCTS, BOUND = STRUCTS + 41 };
    enum { OP_UNKNOWN = 65000 };
    mb b = {NULL, 0, 0};
    mb_coopmat_head(&b, BOUND);
    MB(&b, OP_UNKNOWN, U);
    coopmat(&b, FIRST, U, EIGHT);
    MB(&b, SpvOpTypeInt, INT, 32, 0);
    MB(&b, SpvOpConstant, INT, EIGHT, 8);
    coopmat(&b, LATER, INT, EIGHT);
    parses_exact(&b);
    for (uint32_t n = 0; n <= 40; ++n) {
        mb_coopmat_head(&b, BOUND);
        MB(&b, SpvOpTypeInt, INT, 32, 0);
        MB(&b, SpvOpConstant, INT, EIGHT, 8);
        coopmat(&b, LATER, INT, EIGHT);
        for (uint32_t k = 0; k < n; ++k)
            MB(&b, SpvOpTypeStruct, STRUCTS + k, INT);
        parses_exact(&b);
    }
    mb_free(&b);
}

/* Resets `b` to the head of a Shader module (`bound`) of CooperativeMatrixNV, and of
 * CooperativeMatrixKHR as well when `khr`, that declares no type: GLCompute %`fn`. */
static void coopmat_nv_head(mb *b, uint32_t bound, uint32_t fn, int khr)
{
    mb_header(b, 0x00010600u, bound);
    MB(b, SpvOpCapability, SpvCapabilityShader);
    MB(b, SpvOpCapability, SpvCapabilityCooperativeMatrixNV);
    if (khr) MB(b, SpvOpCapability, CAP_COOPERATIVE_MATRIX_KHR);
    mb_extension(b, "SPV_NV_cooperative_matrix");
    if (khr) mb_extension(b, "SPV_KHR_cooperative_matrix");
    MB(b, SpvOpMemoryModel, SpvAddressingModelLogical, SpvMemoryModelGLSL450);
    mb_entry(b, SpvExecutionModelGLCompute, fn, "main");
    MB(b, SpvOpExecutionMode, fn, SpvExecutionModeLocalSize, 1, 1, 1);
}

/* Ends the module of `b` with the function %`fn` (of void %`void_id`, type %`fnty`, label
 * %`label`): %`x` = OpUndef %`from`, then %`y` = OpBitcast %`good` %`x` and %`z` = OpBitcast
 * %`bad` %`x`. */
static void undef_cast_twice(mb *b, const uint32_t fn[4], uint32_t from, uint32_t x, uint32_t good,
                             uint32_t y, uint32_t bad, uint32_t z)
{
    mb_fn_begin(b, fn[0], fn[1], fn[2], fn[3]);
    MB(b, SpvOpUndef, from, x);
    MB(b, SpvOpBitcast, good, y, x);
    MB(b, SpvOpBitcast, bad, z, x);
    mb_fn_end(b);
}

/* Eight OpTypeCooperativeMatrixNV (3 shape operands each) of one int component: their shape
 * operands (24) outnumber four per other type (the int, void and the function type: 12), so a
 * count that took the wrong kinds would size the block too small (the sanitizer build tells).
 * It parses, and a bitcast between two of them is valid only where their shapes agree: the
 * shapes were read. */
static void test_coopmat_nv_shapes(void **state)
{
    (void)state;
    enum { INT = 2, SCOPE, C8, C16, M0, M7 = M0 + 7, X, Y, Z, FN, FT, VOID, L, BOUND };
    mb b = {NULL, 0, 0};
    coopmat_nv_head(&b, BOUND, FN, 0);
    MB(&b, SpvOpTypeInt, INT, 32, 0);
    MB(&b, SpvOpConstant, INT, SCOPE, SpvScopeSubgroup);
    MB(&b, SpvOpConstant, INT, C8, 8);
    MB(&b, SpvOpConstant, INT, C16, 16);
    for (uint32_t k = 0; k <= M7 - M0; ++k) /* 8x8, 16x8, 8x8, ... */
        MB(&b, SpvOpTypeCooperativeMatrixNV, M0 + k, INT, SCOPE, k % 2 ? C16 : C8, C8);
    mb_void_fn_type(&b, VOID, FT);
    /* 8x8 to 8x8: valid; 8x8 to 16x8: the shapes differ */
    undef_cast_twice(&b, (const uint32_t[4]){VOID, FN, FT, L}, M0, X, M7 - 1, Y, M7, Z);
    parses_exact(&b);
    expect_one_error(b.w, b.n, Z, "V-COOPMAT-SHAPE", NULL, Y);
    mb_free(&b);
}

/* A cooperative matrix of each kind with the same scope, rows and columns, and an NV one whose
 * rows are a specialization constant: a bitcast NV -> KHR is V-COOPMAT-SHAPE (the kinds
 * differ, whatever the shapes), NV -> NV of the specialized rows is valid (its value comes
 * later, so spirv-val lets it pass: a shape operand that is no OpConstant is unknown). */
static void test_coopmat_kinds_and_spec_rows(void **state)
{
    (void)state;
    if (opcode_unknown(OP_TYPE_COOPERATIVE_MATRIX_KHR, "OpTypeCooperativeMatrixKHR")) return;
    enum { INT = 2, SCOPE, C8, SPEC, USE, NV_A, NV_S, KHR_A, X, Y, Z, FN, FT, VOID, L, BOUND };
    mb b = {NULL, 0, 0};
    coopmat_nv_head(&b, BOUND, FN, 1);
    MB(&b, SpvOpTypeInt, INT, 32, 0);
    MB(&b, SpvOpConstant, INT, SCOPE, SpvScopeSubgroup);
    MB(&b, SpvOpConstant, INT, C8, 8);
    MB(&b, SpvOpSpecConstant, INT, SPEC, 8);
    MB(&b, SpvOpConstant, INT, USE, 0); /* MatrixAKHR */
    MB(&b, SpvOpTypeCooperativeMatrixNV, NV_A, INT, SCOPE, C8, C8);
    MB(&b, SpvOpTypeCooperativeMatrixNV, NV_S, INT, SCOPE, SPEC, C8);
    const uint32_t khr[] = {KHR_A, INT, SCOPE, C8, C8, USE};
    mb_opn(&b, OP_TYPE_COOPERATIVE_MATRIX_KHR, khr, 6);
    mb_void_fn_type(&b, VOID, FT);
    undef_cast_twice(&b, (const uint32_t[4]){VOID, FN, FT, L}, NV_A, X, NV_S, Y, KHR_A, Z);
    expect_one_error(b.w, b.n, Z, "V-COOPMAT-SHAPE", NULL, Y);
    mb_free(&b);
}

/* Cooperative vectors of 4 and of 8 uints, without LongVectorEXT (which would compare them as
 * vectors, by total bits): a bitcast between them is refused for their component counts; 4 to 4
 * (another declaration) is valid. */
static void test_coopvec_counts(void **state)
{
    (void)state;
    if (opcode_unknown(OP_TYPE_COOPERATIVE_VECTOR_NV, "OpTypeCooperativeVectorNV")) return;
    enum { INT = 4, C4, C8, V4, V8, V4B, L, X, Y, Z, BOUND };
    const uint32_t caps[] = {CAP_COOPERATIVE_VECTOR_NV};
    const char *const ext[] = {"SPV_NV_cooperative_vector"};
    mb b = {NULL, 0, 0};
    mb_shader_head(&b, BOUND, caps, 1, ext, 1);
    MB(&b, SpvOpTypeInt, INT, 32, 0);
    MB(&b, SpvOpConstant, INT, C4, 4);
    MB(&b, SpvOpConstant, INT, C8, 8);
    MB(&b, OP_TYPE_COOPERATIVE_VECTOR_NV, V4, INT, C4);
    MB(&b, OP_TYPE_COOPERATIVE_VECTOR_NV, V8, INT, C8);
    MB(&b, OP_TYPE_COOPERATIVE_VECTOR_NV, V4B, INT, C4);
    undef_cast_twice(&b, (const uint32_t[4]){2, 1, 3, L}, V4, X, V4B, Z, V8, Y);
    expect_one_error(b.w, b.n, Y, "V-COOPVEC-DIM",
                     "expected cooperative vectors with the same number of components", Z);
    mb_free(&b);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_pointers_to_16_bit),
        cmocka_unit_test(test_struct_of_unknown_opcode),
        cmocka_unit_test(test_forward_pointer_to_unknown_opcode),
        cmocka_unit_test(test_long_vector_of_one),
        cmocka_unit_test(test_struct_member_at_bound),
        cmocka_unit_test(test_float_last_word),
        cmocka_unit_test(test_coopmat_table_ends),
        cmocka_unit_test(test_coopmat_nv_shapes),
        cmocka_unit_test(test_coopmat_kinds_and_spec_rows),
        cmocka_unit_test(test_coopvec_counts),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
