/* The per-site analysis (source/analysis.c) and validate's bookkeeping (source/validate.c), seen
 * through what the public API returns for modules where a single-point bug of either would show:
 *   - two lowerable bitcasts of one type pair with different operands (the analysis memo answers
 *     the second: its operand must be the site's own), the first operand being %1;
 *   - lower's refusals, each with its reason: a bool operand (V3: the rule's own text), an
 *     operand defined after its use (V12, "defined after it", not R-UNDEF), an OpSpecConstantOp
 *     Bitcast in a Shader module (S7: "requires the Kernel capability");
 *   - a spec-constant recipe whose intermediate vec4 (float4) precedes the site while the
 *     4-component vector of the result's component (uchar4) comes after it: only the
 *     intermediate types count, so it is lowered; and one whose operand's type is declared
 *     after it (an unknown opcode seemed to define the id first): kept;
 *   - 8-bit float sides (one side encoded is enough): the class and refusal the findings give;
 *   - an unknown opcode's result as type %1: no verdict (N-UNKNOWN-OPCODE);
 *   - a cooperative vector under LongVectorEXT: kept where as_type has no type for it, left
 *     alone where its count is a specialization constant (no verdict);
 *   - OpBitcastExtractEXT whose Offset is a type (no value: no verdict on it) or that has a word
 *     more than its operands (the Offset is still word 4);
 *   - validate's options (an unknown generation) and its notes on pointer bitcasts (none:
 *     as_type has no pointers).
 * (Allocations through a caller's allocator are in test_analysis_alloc.c.)
 * Each lowered output is compared word for word and given to spirv-val.
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
#include "spv_assemble.h"
#include "diag_check.h"

#define KERNEL_HEAD(entry)                                                                         \
    "OpCapability Addresses\n"                                                                     \
    "OpCapability Kernel\n"                                                                        \
    "OpMemoryModel Physical64 OpenCL\n"                                                            \
    "OpEntryPoint Kernel " entry " \"k\"\n"

/* KERNEL_HEAD("%1") with void %2 and the function type %3. */
#define KERNEL_VOID_FN                                                                             \
    KERNEL_HEAD("%1")                                                                              \
    "%2 = OpTypeVoid\n"                                                                            \
    "%3 = OpTypeFunction %2\n"

/* `text` starts with `part`. */
static void starts_with(const char *text, const char *part)
{
    if (!text || strncmp(text, part, strlen(part)) != 0)
        fail_msg("expected \"%s\" at the start of \"%s\"", part, text);
}

/* The one diagnostic of `ctx` about `id` is an error of `rule`, its message starting with
 * `start`, and not lowerable. */
static void expect_kept(spvbc_context ctx, uint32_t id, const char *rule, const char *start)
{
    const spvbc_diagnostic *d = diag_of(ctx, id, rule, SPVBC_SEVERITY_ERROR);
    starts_with(d->message, start);
    assert_int_equal(d->lowerable, 0);
}

/* validate_words() of the assembly `text`. */
static void validate_text(const char *text, uint32_t flags, spvbc_result expect, spvbc_context *ctx,
                          spvbc_validate_summary *vs)
{
    spv_binary bin = assemble(text, SPV_ENV_UNIVERSAL_1_2);
    validate_words(bin->code, bin->wordCount, flags, expect, ctx, vs);
    spvBinaryDestroy(bin);
}

/* Lowers the `n` words `in` (PAD_UNDEF, newest generation) in `ctx`, expecting `result`,
 * `rewritten` and `refused`; the output must be the `want_n` words `want` (NULL: the input, which
 * spirv-val then judges as it judges the input), and valid where it is `want`.  The findings stay
 * in `ctx`. */
static void lower_words_expect(spvbc_context ctx, const uint32_t *in, size_t n,
                               const uint32_t *want, size_t want_n, spvbc_result result,
                               size_t rewritten, size_t refused)
{
    const uint32_t *w = want ? want : in;
    const size_t wn = want ? want_n : n;
    spvbc_module mod;
    assert_int_equal(spvbc_module_parse(ctx, in, n, NULL, &mod), SPVBC_SUCCESS);
    spvbc_lower_summary ls = SPVBC_LOWER_SUMMARY_INIT;
    assert_int_equal(spvbc_module_lower(mod, NULL, &ls), result);
    assert_int_equal(ls.rewritten, rewritten);
    assert_int_equal(ls.refused, refused);
    const uint32_t *got = NULL;
    size_t got_n = 0;
    assert_int_equal(spvbc_module_get_words(mod, &got, &got_n), SPVBC_SUCCESS);
    for (size_t i = 0; i < got_n || i < wn; ++i)
        if (i >= got_n || i >= wn || got[i] != w[i])
            fail_msg("word %zu: got %08x, expected %08x", i, i < got_n ? got[i] : 0u,
                     i < wn ? w[i] : 0u);
    char msg[1024], in_msg[1024];
    const int valid = spvval_check(got, got_n, msg, sizeof msg);
    if (valid != (want != NULL)) fail_msg("spirv-val on the output: %d (%s)", valid, msg);
    if (!want) {
        assert_int_equal(spvval_check(in, n, in_msg, sizeof in_msg), 0);
        assert_string_equal(msg, in_msg);
    }
    spvbc_module_destroy(mod);
}

/* lower_words_expect() of the assembly `in`, the expected output the assembly `out`. */
static void lower_expect(spvbc_context ctx, const char *in, const char *out, spvbc_result result,
                         size_t rewritten, size_t refused)
{
    spv_binary bin = assemble(in, SPV_ENV_UNIVERSAL_1_2);
    spv_binary want = out ? assemble(out, SPV_ENV_UNIVERSAL_1_2) : NULL;
    lower_words_expect(ctx, bin->code, bin->wordCount, want ? want->code : NULL,
                       want ? want->wordCount : 0, result, rewritten, refused);
    spvBinaryDestroy(want);
    spvBinaryDestroy(bin);
}

/* lower_expect() of the assembly `in` in a fresh context, which it returns (the caller destroys
 * it): SPVBC_PARTIAL, nothing rewritten, `refused` sites refused, the output the input. */
static spvbc_context lower_refused(const char *in, size_t refused)
{
    spvbc_context ctx;
    assert_int_equal(spvbc_context_create(NULL, &ctx), SPVBC_SUCCESS);
    lower_expect(ctx, in, NULL, SPVBC_PARTIAL, 0, refused);
    return ctx;
}

/* float, float4, float3, uint, uint4: %5 to %9; %1 and %11 are float3 values. */
#define TWO_OPERANDS_TYPES                                                                         \
    KERNEL_HEAD("%2")                                                                              \
    "%3 = OpTypeVoid\n"                                                                            \
    "%4 = OpTypeFunction %3\n"                                                                     \
    "%5 = OpTypeFloat 32\n"                                                                        \
    "%6 = OpTypeVector %5 4\n"                                                                     \
    "%7 = OpTypeVector %5 3\n"                                                                     \
    "%8 = OpTypeInt 32 0\n"                                                                        \
    "%9 = OpTypeVector %8 4\n"                                                                     \
    "%2 = OpFunction %3 None %4\n"                                                                 \
    "%10 = OpLabel\n"                                                                              \
    "%1 = OpUndef %7\n"                                                                            \
    "%11 = OpUndef %7\n"

/* as_uint4(float3) of %1, then of %11: each rewrite pads its own operand. */
static void test_two_operands_one_pair(void **state)
{
    (void)state;
    const char *in = TWO_OPERANDS_TYPES "%12 = OpBitcast %9 %1\n"
                                        "%13 = OpBitcast %9 %11\n"
                                        "OpReturn\n"
                                        "OpFunctionEnd\n";
    const char *out = TWO_OPERANDS_TYPES "%14 = OpVectorShuffle %6 %1 %1 0 1 2 4294967295\n"
                                         "%12 = OpBitcast %9 %14\n"
                                         "%15 = OpVectorShuffle %6 %11 %11 0 1 2 4294967295\n"
                                         "%13 = OpBitcast %9 %15\n"
                                         "OpReturn\n"
                                         "OpFunctionEnd\n";
    spvbc_context ctx;
    assert_int_equal(spvbc_context_create(NULL, &ctx), SPVBC_SUCCESS);
    lower_expect(ctx, in, out, SPVBC_SUCCESS, 2, 0);
    has_text(diag_of(ctx, 12, "L-LOWERED", SPVBC_SEVERITY_NOTE)->message,
             "into: %14 = OpVectorShuffle %v4float %1 %1 0 1 2 4294967295; %12 = OpBitcast "
             "%v4uint %14");
    has_text(diag_of(ctx, 13, "L-LOWERED", SPVBC_SEVERITY_NOTE)->message,
             "into: %15 = OpVectorShuffle %v4float %11 %11 0 1 2 4294967295; %13 = OpBitcast "
             "%v4uint %15");
    spvbc_context_destroy(ctx);

    spvbc_validate_summary vs;
    validate_text(in, 0, SPVBC_ERROR_VALIDATION_FAILED, &ctx, &vs);
    assert_int_equal(vs.errors, 2);
    assert_int_equal(vs.lowerable, 2);
    starts_with(diag_of(ctx, 12, "V12", SPVBC_SEVERITY_ERROR)->message,
                "expected input to have the same total bit width as Result Type: %12 = "
                "OpBitcast %1: ");
    spvbc_context_destroy(ctx);
}

/* Lower leaves each of these alone and says why: as_int(bool) fails the operand rule (V3), whose
 * own sentence it gives; as_float4(float3) of an operand defined after the site is V12, kept for
 * the order, not an undefined operand. */
static void test_refusals_say_why(void **state)
{
    (void)state;
    const char *in = KERNEL_VOID_FN "%4 = OpTypeFloat 32\n"
                                    "%5 = OpTypeVector %4 4\n"
                                    "%6 = OpTypeVector %4 3\n"
                                    "%7 = OpTypeInt 32 0\n"
                                    "%8 = OpTypeBool\n"
                                    "%1 = OpFunction %2 None %3\n"
                                    "%9 = OpLabel\n"
                                    "%10 = OpUndef %8\n"
                                    "%11 = OpBitcast %7 %10\n"
                                    "%12 = OpBitcast %5 %13\n"
                                    "%13 = OpUndef %6\n"
                                    "OpReturn\n"
                                    "OpFunctionEnd\n";
    spvbc_context ctx = lower_refused(in, 2);
    expect_kept(ctx, 11, "V3",
                "expected input to be a pointer or int or float vector or scalar: "
                "%11 = OpBitcast %10: ");
    expect_kept(ctx, 12, "V12",
                "not lowered: its operand is defined after it (invalid order: fix the "
                "module first): %12 = OpBitcast %13: ");
    spvbc_context_destroy(ctx);
}

/* An OpSpecConstantOp Bitcast needs the Kernel capability (S7), whatever its types: uint to
 * float in a Shader module is kept for that reason. */
static void test_shader_spec_constant_kept(void **state)
{
    (void)state;
    const char *in = "OpCapability Shader\n"
                     "OpMemoryModel Logical GLSL450\n"
                     "OpEntryPoint GLCompute %1 \"main\"\n"
                     "OpExecutionMode %1 LocalSize 1 1 1\n"
                     "%2 = OpTypeVoid\n"
                     "%3 = OpTypeFunction %2\n"
                     "%4 = OpTypeInt 32 0\n"
                     "%5 = OpTypeFloat 32\n"
                     "%6 = OpSpecConstant %4 7\n"
                     "%7 = OpSpecConstantOp %5 Bitcast %6\n"
                     "%1 = OpFunction %2 None %3\n"
                     "%8 = OpLabel\n"
                     "OpReturn\n"
                     "OpFunctionEnd\n";
    spvbc_context ctx = lower_refused(in, 1);
    expect_kept(ctx, 7, "S7",
                "not lowered: specialization constant operation Bitcast requires the "
                "Kernel capability: ");
    spvbc_context_destroy(ctx);
}

/* An opcode this build does not know (0x7FF0) seems to define %7, a value %8 of it comes next,
 * then the spec-constant as_uint4(%8), and only then is %7 declared, as float3: the site's
 * operand type follows it (its result type uint4 precedes it), so the recipe's null or vec4
 * could not be placed: kept, "declared after this instruction". */
static void test_operand_type_declared_after(void **state)
{
    (void)state;
    const char *in = KERNEL_VOID_FN "%4 = OpTypeFloat 32\n"
                                    "%5 = OpTypeInt 32 0\n"
                                    "%6 = OpTypeVector %5 4\n"
                                    "!0x00027FF0 !7\n"
                                    "%8 = OpUndef %7\n"
                                    "%9 = OpSpecConstantOp %6 Bitcast %8\n"
                                    "%7 = OpTypeVector %4 3\n"
                                    "%1 = OpFunction %2 None %3\n"
                                    "%10 = OpLabel\n"
                                    "OpReturn\n"
                                    "OpFunctionEnd\n";
    spvbc_context ctx = lower_refused(in, 1);
    expect_kept(ctx, 9, "V12",
                "not lowered: a type the recipe builds on is declared after this "
                "instruction (invalid order: fix the module first): ");
    spvbc_context_destroy(ctx);
}

#define SPEC_RECIPE_HEAD                                                                           \
    "OpCapability Addresses\n"                                                                     \
    "OpCapability Kernel\n"                                                                        \
    "OpCapability Int8\n"                                                                          \
    "OpCapability Vector16\n"                                                                      \
    "OpMemoryModel Physical64 OpenCL\n"                                                            \
    "OpEntryPoint Kernel %1 \"k\"\n"                                                               \
    "%2 = OpTypeVoid\n"                                                                            \
    "%3 = OpTypeFunction %2\n"                                                                     \
    "%4 = OpTypeFloat 32\n"                                                                        \
    "%5 = OpTypeVector %4 4\n"                                                                     \
    "%6 = OpTypeVector %4 3\n"                                                                     \
    "%7 = OpTypeInt 8 0\n"                                                                         \
    "%8 = OpTypeVector %7 16\n"                                                                    \
    "%9 = OpConstant %4 1\n"                                                                       \
    "%10 = OpConstantComposite %6 %9 %9 %9\n"
#define SPEC_RECIPE_TAIL                                                                           \
    "%12 = OpTypeVector %7 4\n"                                                                    \
    "%1 = OpFunction %2 None %3\n"                                                                 \
    "%13 = OpLabel\n"                                                                              \
    "OpReturn\n"                                                                                   \
    "OpFunctionEnd\n"

/* as_uchar16(float3) as a spec constant: pad to float4 (%5, before the site), then bitcast to
 * uchar16 (the result type).  uchar4 (%12) is declared after the site, but the recipe needs no
 * uchar4: the site is lowered. */
static void test_spec_recipe_types_before(void **state)
{
    (void)state;
    const char *in = SPEC_RECIPE_HEAD "%11 = OpSpecConstantOp %8 Bitcast %10\n" SPEC_RECIPE_TAIL;
    const char *out =
        SPEC_RECIPE_HEAD "%14 = OpSpecConstantOp %5 VectorShuffle %10 %10 0 1 2 4294967295\n"
                         "%11 = OpSpecConstantOp %8 Bitcast %14\n" SPEC_RECIPE_TAIL;
    spvbc_context ctx;
    assert_int_equal(spvbc_context_create(NULL, &ctx), SPVBC_SUCCESS);
    lower_expect(ctx, in, out, SPVBC_SUCCESS, 1, 0);
    spvbc_context_destroy(ctx);
    spvbc_validate_summary vs;
    validate_text(in, 0, SPVBC_ERROR_VALIDATION_FAILED, &ctx, &vs);
    assert_int_equal(vs.errors, 1);
    assert_int_equal(vs.lowerable, 1);
    assert_int_equal(diag_of(ctx, 11, "V12", SPVBC_SEVERITY_ERROR)->lowerable, 1);
    spvbc_context_destroy(ctx);
}

/* A Shader module with 8-bit floats and OpBitcastExtractEXT, as words (bound 17): four
 * Float8E4M3EXT %11 bitcast to a uint (%12: valid, as_type-less: the note N-NOT-ASTYPE, of class
 * count-change, since one encoded side is enough) and to a uint2 (%13: V12, whose as_type is a
 * size error: the byte sizes differ); an extract whose Offset is the type uint (%15: no value,
 * so no verdict on it), and one of six words whose Offset (word 4) is the float 0.5 (%16). */
static void float8_module(mb *b)
{
    const uint32_t caps[] = {CAP_FLOAT8_EXT, CAP_BITCAST_EXTRACT_EXT};
    const char *const ext[] = {"SPV_EXT_float8", "SPV_EXT_ocp_microscaling_types"};
    mb_shader_head(b, 17, caps, 2, ext, 2);
    MB(b, SpvOpTypeInt, 4, 32, 0);
    MB(b, SpvOpTypeVector, 5, 4, 2);
    MB(b, SpvOpTypeFloat, 6, 8, FP_FLOAT8_E4M3_EXT);
    MB(b, SpvOpTypeVector, 7, 6, 4);
    MB(b, SpvOpTypeFloat, 8, 32);
    MB(b, SpvOpConstant, 8, 9, 0x3f000000u);
    mb_fn_begin(b, 2, 1, 3, 10);
    MB(b, SpvOpUndef, 7, 11);
    MB(b, SpvOpBitcast, 4, 12, 11);
    MB(b, SpvOpBitcast, 5, 13, 11);
    MB(b, SpvOpUndef, 4, 14);
    MB(b, OP_BITCAST_EXTRACT_EXT, 6, 15, 14, 4);
    MB(b, OP_BITCAST_EXTRACT_EXT, 6, 16, 14, 9, 9);
    mb_fn_end(b);
}

static void test_float8_and_extract(void **state)
{
    (void)state;
    /* Older SPIR-V headers (Debian 12's, the cross builds'): an unknown opcode's instruction. */
    if (opcode_unknown(OP_BITCAST_EXTRACT_EXT, "OpBitcastExtractEXT: SKIPPED")) skip();
    mb b = {NULL, 0, 0};
    float8_module(&b);
    spvbc_context ctx;
    spvbc_validate_summary vs;
    validate_words(b.w, b.n, SPVBC_VALIDATE_NOTES, SPVBC_ERROR_VALIDATION_FAILED, &ctx, &vs);
    assert_int_equal(vs.bitcasts_checked, 4);
    assert_int_equal(vs.errors, 2);
    assert_int_equal(vs.notes, 1);
    has_text(diag_of(ctx, 12, "N-NOT-ASTYPE", SPVBC_SEVERITY_NOTE)->message,
             "; as_type: as_uint(<no OpenCL C type>) is count-change (a side is a float of a "
             "non-IEEE encoding, which OpenCL C has no type for: nothing to lower)");
    has_text(diag_of(ctx, 13, "V12", SPVBC_SEVERITY_ERROR)->message,
             "; as_type: as_uint2(<no OpenCL C type>) is size-error, not legal OpenCL C: the byte "
             "sizes differ, which as_type forbids too; not lowerable");
    no_diag_of(ctx, 15);
    starts_with(diag_of(ctx, 16, "V-EXTRACT-OFFSET", SPVBC_SEVERITY_ERROR)->message,
                "expected Offset to be a scalar integer type: ");
    spvbc_context_destroy(ctx);
    mb_free(&b);
}

/* An opcode this build does not know (0x7FF0) declares %1: a bitcast of a value of type %1 and
 * one to type %1 get no verdict, a note naming the opcode. */
static void test_unknown_type_one(void **state)
{
    (void)state;
    spvbc_context ctx;
    spvbc_validate_summary vs;
    validate_text(KERNEL_HEAD("%2") "%3 = OpTypeVoid\n"
                                    "%4 = OpTypeFunction %3\n"
                                    "%5 = OpTypeInt 32 0\n"
                                    "!0x00027FF0 !1\n"
                                    "%6 = OpTypeFloat 32\n"
                                    "%2 = OpFunction %3 None %4\n"
                                    "%7 = OpLabel\n"
                                    "%8 = OpUndef %1\n"
                                    "%9 = OpBitcast %5 %8\n"
                                    "%10 = OpUndef %6\n"
                                    "%11 = OpBitcast %1 %10\n"
                                    "OpReturn\n"
                                    "OpFunctionEnd\n",
                  0, SPVBC_SUCCESS, &ctx, &vs);
    assert_int_equal(vs.errors, 0);
    assert_int_equal(vs.notes, 2);
    has_text(diag_of(ctx, 9, "N-UNKNOWN-OPCODE", SPVBC_SEVERITY_NOTE)->message, "opcode 32752,");
    has_text(diag_of(ctx, 11, "N-UNKNOWN-OPCODE", SPVBC_SEVERITY_NOTE)->message, "opcode 32752,");
    spvbc_context_destroy(ctx);
}

/* Under LongVectorEXT a cooperative vector of four uints (%7) is cast like a vector, but as_type
 * has no such type: its bitcast to a uint (%13, V12) is kept for that reason; the one to a
 * cooperative vector whose count is a specialization constant (%14) has no verdict, so lower
 * has nothing to do there (no refusal, no finding).  Words: Debian 12's SPIRV-Tools cannot
 * assemble these types (and its spirv-val rejects the output as it rejects the input). */
static void test_coopvec_kept_or_unsized(void **state)
{
    (void)state;
    if (opcode_unknown(OP_TYPE_COOPERATIVE_VECTOR_NV, "OpTypeCooperativeVectorNV")) return;
    mb b = {NULL, 0, 0};
    mb_coopvec_module(&b);
    spvbc_context ctx;
    assert_int_equal(spvbc_context_create(NULL, &ctx), SPVBC_SUCCESS);
    lower_words_expect(ctx, b.w, b.n, NULL, 0, SPVBC_PARTIAL, 0, 1);
    assert_int_equal(spvbc_context_diagnostic_count(ctx), 1);
    starts_with(diag_of(ctx, 13, "V12", SPVBC_SEVERITY_ERROR)->message,
                "not lowered: total bit widths differ and no as_type maps them: ");
    spvbc_context_destroy(ctx);
    mb_free(&b);
}

/* Pointers to uint, CrossWorkgroup %6 and Workgroup %7, and the value %9 of %6: Physical64. */
#define POINTERS                                                                                   \
    KERNEL_VOID_FN                                                                                 \
    "%4 = OpTypeInt 32 0\n"                                                                        \
    "%5 = OpTypeFloat 32\n"                                                                        \
    "%6 = OpTypePointer CrossWorkgroup %4\n"                                                       \
    "%7 = OpTypePointer Workgroup %4\n"                                                            \
    "%1 = OpFunction %2 None %3\n"                                                                 \
    "%8 = OpLabel\n"                                                                               \
    "%9 = OpUndef %6\n"

/* Validate's options: a generation older than the oldest it knows is an invalid argument.  And
 * as_type has no pointers: with notes, pointer bitcasts get their warnings (S4, S3-WIDTH) and no
 * note. */
static void test_validate_options_and_pointer_notes(void **state)
{
    (void)state;
    spv_binary bin = assemble(POINTERS "%10 = OpBitcast %7 %9\n"
                                       "%11 = OpBitcast %4 %9\n"
                                       "OpReturn\n"
                                       "OpFunctionEnd\n",
                              SPV_ENV_UNIVERSAL_1_2);
    spvbc_context ctx;
    assert_int_equal(spvbc_context_create(NULL, &ctx), SPVBC_SUCCESS);
    spvbc_module mod;
    assert_int_equal(spvbc_module_parse(ctx, bin->code, bin->wordCount, NULL, &mod), SPVBC_SUCCESS);
    const spvbc_validate_options old = {sizeof(spvbc_validate_options), 0,
                                        SPVBC_GENERATION_OLDEST - 1};
    spvbc_validate_summary vs = SPVBC_VALIDATE_SUMMARY_INIT;
    assert_int_equal(spvbc_module_validate(mod, &old, &vs), SPVBC_ERROR_INVALID_ARGUMENT);
    assert_int_equal(vs.bitcasts_checked, 0);
    spvbc_module_destroy(mod);
    spvbc_context_destroy(ctx);

    validate_words(bin->code, bin->wordCount, SPVBC_VALIDATE_NOTES, SPVBC_SUCCESS, &ctx, &vs);
    assert_int_equal(vs.warnings, 2);
    assert_int_equal(vs.notes, 0);
    assert_int_equal(spvbc_context_diagnostic_count(ctx), 2);
    diag_of(ctx, 10, "S4", SPVBC_SEVERITY_WARNING);
    has_text(diag_of(ctx, 11, "S3-WIDTH", SPVBC_SEVERITY_WARNING)->message,
             "integer width differs from the 64-bit pointer width of the addressing model");
    spvbc_context_destroy(ctx);
    spvBinaryDestroy(bin);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_two_operands_one_pair),
        cmocka_unit_test(test_refusals_say_why),
        cmocka_unit_test(test_shader_spec_constant_kept),
        cmocka_unit_test(test_spec_recipe_types_before),
        cmocka_unit_test(test_operand_type_declared_after),
        cmocka_unit_test(test_float8_and_extract),
        cmocka_unit_test(test_unknown_type_one),
        cmocka_unit_test(test_coopvec_kept_or_unsized),
        cmocka_unit_test(test_validate_options_and_pointer_notes),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
