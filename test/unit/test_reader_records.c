/* What the reader records from the few instructions it looks at, read back through the public
 * API:
 *   - OpTypeForwardPointer: too short (R-OPERANDS), an id of 0 or at the bound (R-ID-RANGE, its
 *     message naming the id), one already defined (no mark: a later use of it as a type is
 *     read as that definition), and a use before the pointer's declaration (the mark);
 *   - OpCapability with an extra operand still grants its feature, one without an operand
 *     grants none (not even from a word past the module's end);
 *   - OpBitcastExtractEXT of 4 words (R-OPERANDS) and of 5 (a site), OpSpecConstantOp of 4
 *     words of an opcode other than Bitcast (no site, no error);
 *   - OpString's id is recorded (defined twice: R-ID-REDEFINED);
 *   - the first OpFunction ends the preamble, where a finding's OpName is looked up: an OpName
 *     inside a function (invalid, but it parses) names nothing;
 *   - OpMemoryModel with an extra operand still sets the addressing model (a pointer's width:
 *     S3-WIDTH), one without its memory model sets none.
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
#include "rules.h" /* the opcode facts: does this build know OpBitcastExtractEXT? */
#include "spirv_bitcast.h"
#include "diag_check.h"

/* Parses the `n` words at `w`, which must succeed, and returns its info. */
static spvbc_module_info parse_info(const uint32_t *w, size_t n)
{
    spvbc_context ctx;
    assert_int_equal(spvbc_context_create(NULL, &ctx), SPVBC_SUCCESS);
    spvbc_module mod;
    const spvbc_result r = spvbc_module_parse(ctx, w, n, NULL, &mod);
    for (size_t i = 0; r != SPVBC_SUCCESS && i < spvbc_context_diagnostic_count(ctx); ++i)
        fprintf(stderr, "parse: %s\n", spvbc_context_diagnostic(ctx, i)->message);
    assert_int_equal(r, SPVBC_SUCCESS);
    spvbc_module_info info = SPVBC_MODULE_INFO_INIT;
    assert_int_equal(spvbc_module_get_info(mod, &info), SPVBC_SUCCESS);
    spvbc_context_destroy(ctx);
    return info;
}

/* Ids of the forward pointer modules. */
/* FP_UINT is 5, CrossWorkgroup's value. */
enum { FP_FN = 1, FP_PTR, FP_STRUCT, FP_X, FP_UINT, FP_LAST, FP_BOUND };

/* A Kernel module (bound FP_BOUND) whose instruction 4 is OpTypeForwardPointer with the `n`
 * operands `ops`, after OpTypeInt %FP_UINT; returns its offset. */
static size_t forward_head(mb *b, const uint32_t *ops, size_t n)
{
    mb_kernel_head(b, 0x00010000u, FP_BOUND, FP_FN);
    MB(b, SpvOpTypeInt, FP_UINT, 32, 0);
    return mb_opn(b, SpvOpTypeForwardPointer, ops, n);
}

static void test_forward_pointer_operands(void **state)
{
    (void)state;
    mb b = {NULL, 0, 0};
    size_t at = forward_head(&b, (const uint32_t[]){FP_PTR}, 1);
    expect_parse_error(b.w, b.n, SPVBC_ERROR_INVALID_BINARY, "R-OPERANDS", at,
                       "OpTypeForwardPointer is missing operands");
    at = forward_head(&b, (const uint32_t[]){FP_BOUND, SpvStorageClassCrossWorkgroup}, 2);
    expect_parse_error(b.w, b.n, SPVBC_ERROR_INVALID_ID, "R-ID-RANGE", at,
                       "forward pointer id %7 is 0 or at or above the id bound");
    at = forward_head(&b, (const uint32_t[]){0, SpvStorageClassCrossWorkgroup}, 2);
    expect_parse_error(b.w, b.n, SPVBC_ERROR_INVALID_ID, "R-ID-RANGE", at,
                       "forward pointer id %0 is 0 or at or above the id bound");
    /* the largest id is accepted, and marks a pointer a struct may hold before its declaration
     * (the storage class, 5, is a defined id: the mark is the forward id's) */
    forward_head(&b, (const uint32_t[]){FP_LAST, SpvStorageClassCrossWorkgroup}, 2);
    MB(&b, SpvOpTypeStruct, FP_STRUCT, FP_UINT, FP_LAST);
    MB(&b, SpvOpTypePointer, FP_LAST, SpvStorageClassCrossWorkgroup, FP_STRUCT);
    assert_int_equal(parse_info(b.w, b.n).instruction_count, 8);
    mb_free(&b);
}

/* A forward pointer naming a pointer declared already leaves it a type: a value of it parses. */
static void test_forward_pointer_after_declaration(void **state)
{
    (void)state;
    mb b = {NULL, 0, 0};
    mb_kernel_head(&b, 0x00010000u, FP_BOUND, FP_FN);
    MB(&b, SpvOpTypeInt, FP_UINT, 32, 0);
    MB(&b, SpvOpTypePointer, FP_PTR, SpvStorageClassCrossWorkgroup, FP_UINT);
    MB(&b, SpvOpTypeForwardPointer, FP_PTR, SpvStorageClassCrossWorkgroup);
    MB(&b, SpvOpUndef, FP_PTR, FP_X);
    assert_int_equal(parse_info(b.w, b.n).instruction_count, 8);
    mb_free(&b);
}

/* OpCapability Float64 with an extra operand grants FLOAT64; without its operand, as the last
 * instruction, nothing (the caller's word after the module is Float64). */
static void test_capability_word_counts(void **state)
{
    (void)state;
    mb b = {NULL, 0, 0};
    mb_kernel_head(&b, 0x00010000u, 2, 1);
    MB(&b, SpvOpCapability, SpvCapabilityFloat64, 0);
    assert_int_equal(parse_info(b.w, b.n).features & SPVBC_FEATURE_FLOAT64, SPVBC_FEATURE_FLOAT64);
    mb_kernel_head(&b, 0x00010000u, 2, 1);
    mb_op0(&b, SpvOpCapability);
    mb_word(&b, SpvCapabilityFloat64);
    assert_int_equal(parse_info(b.w, b.n - 1).features & SPVBC_FEATURE_FLOAT64, 0);
    mb_free(&b);
}

/* A Kernel module with OpMemoryModel of the `n` operands `mm` and a bitcast of a pointer to a
 * 32-bit int: validated, whether S3-WIDTH (a 64-bit pointer) is among the findings. */
static int pointer_width_warned(const uint32_t *mm, size_t n)
{
    mb b = {NULL, 0, 0};
    mb_header(&b, 0x00010000u, 9);
    MB(&b, SpvOpCapability, SpvCapabilityKernel);
    MB(&b, SpvOpCapability, SpvCapabilityAddresses);
    mb_opn(&b, SpvOpMemoryModel, mm, n);
    mb_entry(&b, SpvExecutionModelKernel, 1, "k");
    mb_void_fn_type(&b, 2, 3);
    MB(&b, SpvOpTypeInt, 4, 32, 0);
    MB(&b, SpvOpTypePointer, 5, SpvStorageClassCrossWorkgroup, 4);
    mb_fn_begin(&b, 2, 1, 3, 6);
    MB(&b, SpvOpUndef, 5, 7);
    MB(&b, SpvOpBitcast, 4, 8, 7);
    mb_fn_end(&b);
    spvbc_context ctx;
    assert_int_equal(spvbc_context_create(NULL, &ctx), SPVBC_SUCCESS);
    spvbc_module mod;
    assert_int_equal(spvbc_module_parse(ctx, b.w, b.n, NULL, &mod), SPVBC_SUCCESS);
    (void)spvbc_module_validate(mod, NULL, NULL);
    int warned = 0;
    for (size_t i = 0; i < spvbc_context_diagnostic_count(ctx); ++i)
        warned |= strcmp(spvbc_context_diagnostic(ctx, i)->rule, "S3-WIDTH") == 0;
    spvbc_module_destroy(mod);
    spvbc_context_destroy(ctx);
    mb_free(&b);
    return warned;
}

static void test_memory_model_word_counts(void **state)
{
    (void)state;
    const uint32_t mm[] = {SpvAddressingModelPhysical64, SpvMemoryModelOpenCL, 0};
    assert_true(pointer_width_warned(mm, 2));
    assert_true(pointer_width_warned(mm, 3)); /* an extra operand */
    assert_false(pointer_width_warned(mm, 1)); /* no memory model: no addressing model */
}

/* OpBitcastExtractEXT (4195): "Result Type, Result, Base, Offset".  A Kernel module of uint %4,
 * uint2 %5, an OpUndef %6 of uint2 and, at the returned offset, the `n` words `last`. */
static size_t extract_module(mb *b, const uint32_t *last, size_t n)
{
    mb_kernel_head(b, 0x00010000u, 9, 1);
    MB(b, SpvOpTypeInt, 4, 32, 0);
    MB(b, SpvOpTypeVector, 5, 4, 2);
    MB(b, SpvOpUndef, 5, 6);
    const size_t at = b->n;
    for (size_t i = 0; i < n; ++i)
        mb_word(b, last[i]);
    return at;
}

static void test_site_word_counts(void **state)
{
    (void)state;
    mb b = {NULL, 0, 0};
    if (!opcode_unknown(OP_BITCAST_EXTRACT_EXT, "OpBitcastExtractEXT")) {
        const uint32_t four[] = {4u << 16 | OP_BITCAST_EXTRACT_EXT, 4, 7, 6};
        size_t at = extract_module(&b, four, 4);
        expect_parse_error(b.w, b.n, SPVBC_ERROR_INVALID_BINARY, "R-OPERANDS", at,
                           "OpBitcastExtractEXT is missing its base or offset");
        const uint32_t five[] = {5u << 16 | OP_BITCAST_EXTRACT_EXT, 4, 7, 6, 4};
        extract_module(&b, five, 5);
        assert_int_equal(parse_info(b.w, b.n).bitcast_count, 1);
    }
    /* OpSpecConstantOp %4 %7 SNegate, its operand left out: not a site, and not an error */
    const uint32_t spec[] = {4u << 16 | SpvOpSpecConstantOp, 4, 7, SpvOpSNegate};
    extract_module(&b, spec, 4);
    const spvbc_module_info info = parse_info(b.w, b.n);
    assert_int_equal(info.bitcast_count, 0);
    assert_int_equal(info.instruction_count, 8);
    mb_free(&b);
}

/* Two functions: the first holds OpName %11 "late", the second the bitcasts %11 and %12 of
 * float4 to float3; %11's finding has no name, %12's the preamble's "early". */
static void test_names_end_at_first_function(void **state)
{
    (void)state;
    mb b = {NULL, 0, 0};
    mb_kernel_head(&b, 0x00010000u, 14, 1);
    mb_name(&b, 12, "early");
    mb_void_fn_type(&b, 2, 3);
    MB(&b, SpvOpTypeFloat, 4, 32);
    MB(&b, SpvOpTypeVector, 5, 4, 4);
    MB(&b, SpvOpTypeVector, 6, 4, 3);
    mb_fn_begin(&b, 2, 7, 3, 8);
    mb_name(&b, 11, "late");
    mb_fn_end(&b);
    mb_fn_begin(&b, 2, 1, 3, 9);
    MB(&b, SpvOpUndef, 5, 10);
    MB(&b, SpvOpBitcast, 6, 11, 10);
    MB(&b, SpvOpBitcast, 6, 12, 10);
    mb_fn_end(&b);
    spvbc_context ctx;
    spvbc_validate_summary vs;
    validate_words(b.w, b.n, 0, SPVBC_ERROR_VALIDATION_FAILED, &ctx, &vs);
    assert_null(diag_of(ctx, 11, "V12", SPVBC_SEVERITY_ERROR)->result_name);
    assert_string_equal(diag_of(ctx, 12, "V12", SPVBC_SEVERITY_ERROR)->result_name, "early");
    spvbc_context_destroy(ctx);
    mb_free(&b);
}

/* A result without a type that declares nothing (OpString) is recorded: a second definition of
 * its id is R-ID-REDEFINED there, and the first parses. */
static void test_untyped_result_recorded(void **state)
{
    (void)state;
    mb b = {NULL, 0, 0};
    mb_kernel_head(&b, 0x00010000u, 6, 1);
    mb_string(&b, 5, "a.cl");
    assert_int_equal(parse_info(b.w, b.n).instruction_count, 5);
    const size_t at = mb_string(&b, 5, "b.cl");
    expect_parse_error(b.w, b.n, SPVBC_ERROR_INVALID_ID, "R-ID-REDEFINED", at,
                       "id %5 is defined twice");
    mb_free(&b);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_forward_pointer_operands),
        cmocka_unit_test(test_forward_pointer_after_declaration),
        cmocka_unit_test(test_capability_word_counts),
        cmocka_unit_test(test_memory_model_word_counts),
        cmocka_unit_test(test_site_word_counts),
        cmocka_unit_test(test_names_end_at_first_function),
        cmocka_unit_test(test_untyped_result_recorded),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
