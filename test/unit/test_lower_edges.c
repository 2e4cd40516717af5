/* Layouts where a plausible single-point bug in the lowering, the writer or the scan would slip
 * past the rest of the suite; each case is a module in assembly (numeric ids kept), lowered,
 * and its output compared word for word with the expected module and given to spirv-val:
 *   - edit order: a Kernel OpSpecConstantOp Bitcast right after a type declaration behind
 *     which a later site's lowering inserts a new 4-component vector type (two edits at one
 *     offset: the insertion must come first, or the writer runs backwards);
 *   - many 3-component types: a bitcast to the twelfth distinct 3-component vector type, which
 *     the scan must answer "maybe" for (it tracks eight and must give up, not forget);
 *   - an undefined operand equal to the id bound beside a lowerable site: new ids would give
 *     the dangling reference a meaning, so nothing is lowered;
 *   - an operand used before its definition beside a lowerable site: that site is refused, the
 *     other is lowered;
 *   - the only bitcast to a 3-component vector type has an undefined operand equal to the id
 *     bound (32,768, the largest the scan keeps on the stack, and 65,536, from the context): no
 *     bitcast of a module lowering accepts, so the scan answers "no" (and sets no bit past its
 *     sets of bound bits);
 *   - as_half3(uint2) in a Kernel module with Float16Buffer but not Float16: half is storage
 *     only there, so nothing is lowered (and with Float16 it is);
 *   - an unknown opcode's instruction whose word 1 is past the bound: its word 2 of 0 names no
 *     id, so the site beside it is lowered; an undefined id there keeps it;
 *   - an undefined operand equal to the bound after a valid bitcast of the same result type
 *     from a value of type %1: the pair memos must not take it for that valid pair.
 * For each: spvbc_bytes_scan_lowerable()'s answer, lower's result and summary, validate's
 * lowerable count (both in the newest generation), get_words and write (the same words), and
 * spirv-val's verdict on the output.
 * (Modules built as words, which Debian 12's SPIRV-Tools cannot assemble, are in
 * test_lower_words.c.)
 * Then the writer's own check: an edit list out of order or outside the input (which only a bug
 * of the lowering makes; the test breaks one by hand) is refused with SPVBC_ERROR_UNSUPPORTED
 * before a word is written. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "modbuild.h"
#include "module.h" /* the edit list, for the writer's refusal of a broken one */
#include "spirv_bitcast.h"
#include "spvval.h"
#include "spv_assemble.h"
#include "diag_check.h"
#include "write_refused.h"

#define KERNEL_HEAD                                                                                \
    "OpCapability Addresses\n"                                                                     \
    "OpCapability Kernel\n"                                                                        \
    "OpMemoryModel Physical64 OpenCL\n"                                                            \
    "OpEntryPoint Kernel %1 \"k\"\n"                                                               \
    "%2 = OpTypeVoid\n"                                                                            \
    "%3 = OpTypeFunction %2\n"

/* float, float4, float3, uint, uint3: ids 4 to 8. */
#define KERNEL_TYPES                                                                               \
    "%4 = OpTypeFloat 32\n"                                                                        \
    "%5 = OpTypeVector %4 4\n"                                                                     \
    "%6 = OpTypeVector %4 3\n"                                                                     \
    "%7 = OpTypeInt 32 0\n"                                                                        \
    "%8 = OpTypeVector %7 3\n"

#define SHADER_SCALARS                                                                             \
    "OpCapability Shader\n"                                                                        \
    "OpCapability Int8\n"                                                                          \
    "OpCapability Int16\n"                                                                         \
    "OpCapability Int64\n"                                                                         \
    "OpCapability Float16\n"                                                                       \
    "OpCapability Float64\n"                                                                       \
    "OpMemoryModel Logical GLSL450\n"                                                              \
    "OpEntryPoint GLCompute %1 \"main\"\n"                                                         \
    "OpExecutionMode %1 LocalSize 1 1 1\n"                                                         \
    "%2 = OpTypeVoid\n"                                                                            \
    "%3 = OpTypeFunction %2\n"                                                                     \
    "%4 = OpTypeInt 8 0\n"                                                                         \
    "%5 = OpTypeInt 8 1\n"                                                                         \
    "%6 = OpTypeInt 16 0\n"                                                                        \
    "%7 = OpTypeInt 16 1\n"                                                                        \
    "%8 = OpTypeInt 32 0\n"                                                                        \
    "%9 = OpTypeInt 32 1\n"                                                                        \
    "%10 = OpTypeInt 64 0\n"                                                                       \
    "%11 = OpTypeInt 64 1\n"                                                                       \
    "%12 = OpTypeFloat 16\n"                                                                       \
    "%13 = OpTypeFloat 64\n"                                                                       \
    "%14 = OpTypeBool\n"                                                                           \
    "%15 = OpTypeFloat 32\n"

/* The twelve 3-component vector types (float3, %27, last) and int4. */
#define SHADER_VECTORS                                                                             \
    "%16 = OpTypeVector %4 3\n"                                                                    \
    "%17 = OpTypeVector %5 3\n"                                                                    \
    "%18 = OpTypeVector %6 3\n"                                                                    \
    "%19 = OpTypeVector %7 3\n"                                                                    \
    "%20 = OpTypeVector %8 3\n"                                                                    \
    "%21 = OpTypeVector %9 3\n"                                                                    \
    "%22 = OpTypeVector %10 3\n"                                                                   \
    "%23 = OpTypeVector %11 3\n"                                                                   \
    "%24 = OpTypeVector %12 3\n"                                                                   \
    "%25 = OpTypeVector %13 3\n"                                                                   \
    "%26 = OpTypeVector %14 3\n"                                                                   \
    "%27 = OpTypeVector %15 3\n"                                                                   \
    "%28 = OpTypeVector %9 4\n"

#define KERNEL_HEAD_CAP(cap)                                                                       \
    "OpCapability Addresses\n"                                                                     \
    "OpCapability Kernel\n"                                                                        \
    "OpCapability " cap "\n"                                                                       \
    "OpMemoryModel Physical64 OpenCL\n"                                                            \
    "OpEntryPoint Kernel %1 \"k\"\n"                                                               \
    "%2 = OpTypeVoid\n"                                                                            \
    "%3 = OpTypeFunction %2\n"

/* half, half3, uint, uint2: ids 4 to 7; then the function, to the uint2 value %9. */
#define HALF3_UINT2                                                                                \
    "%4 = OpTypeFloat 16\n"                                                                        \
    "%5 = OpTypeVector %4 3\n"                                                                     \
    "%6 = OpTypeInt 32 0\n"                                                                        \
    "%7 = OpTypeVector %6 2\n"
#define HALF3_UINT2_FN                                                                             \
    "%1 = OpFunction %2 None %3\n"                                                                 \
    "%8 = OpLabel\n"                                                                               \
    "%9 = OpUndef %7\n"

/* uint, the unknown instruction `raw` (raw words, after an instruction with no optional operand),
 * float, float4, float3, uint4: ids 4 to 8; then the function, to the uint4 value %10. */
#define FOREIGN_HEAD(raw)                                                                          \
    "%4 = OpTypeInt 32 0\n" raw "%5 = OpTypeFloat 32\n"                                            \
    "%6 = OpTypeVector %5 4\n"                                                                     \
    "%7 = OpTypeVector %5 3\n"                                                                     \
    "%8 = OpTypeVector %4 4\n"
#define FOREIGN_FN                                                                                 \
    "%1 = OpFunction %2 None %3\n"                                                                 \
    "%9 = OpLabel\n"                                                                               \
    "%10 = OpUndef %8\n"

typedef struct edge_case {
    const char *name;
    const char *in; /* the input module */
    const char *out; /* the expected output, NULL: the input itself */
    int bound_at_last_id; /* lower the header's bound by one: the highest id is then = bound */
    int scan; /* spvbc_bytes_scan_lowerable()'s answer */
    spvbc_result result; /* spvbc_module_lower()'s */
    size_t rewritten, refused, types_added;
    size_t lowerable; /* validate's count */
    int out_valid; /* spirv-val accepts the output */
} edge_case;

static const edge_case cases[] = {
    {"edit order: insertion and spec-constant rewrite at one offset",
     KERNEL_HEAD "%4 = OpTypeFloat 32\n"
                 "%5 = OpTypeVector %4 4\n"
                 "%6 = OpTypeVector %4 3\n"
                 "%7 = OpConstant %4 1\n"
                 "%8 = OpConstantComposite %5 %7 %7 %7 %7\n"
                 "%9 = OpTypeInt 32 0\n"
                 "%10 = OpSpecConstantOp %6 Bitcast %8\n"
                 "%11 = OpTypeVector %9 3\n"
                 "%1 = OpFunction %2 None %3\n"
                 "%12 = OpLabel\n"
                 "%13 = OpUndef %5\n"
                 "%14 = OpBitcast %11 %13\n"
                 "OpReturn\n"
                 "OpFunctionEnd\n",
     KERNEL_HEAD "%4 = OpTypeFloat 32\n"
                 "%5 = OpTypeVector %4 4\n"
                 "%6 = OpTypeVector %4 3\n"
                 "%7 = OpConstant %4 1\n"
                 "%8 = OpConstantComposite %5 %7 %7 %7 %7\n"
                 "%9 = OpTypeInt 32 0\n"
                 "%15 = OpTypeVector %9 4\n"
                 "%10 = OpSpecConstantOp %6 VectorShuffle %8 %8 0 1 2\n"
                 "%11 = OpTypeVector %9 3\n"
                 "%1 = OpFunction %2 None %3\n"
                 "%12 = OpLabel\n"
                 "%13 = OpUndef %5\n"
                 "%16 = OpBitcast %15 %13\n"
                 "%14 = OpVectorShuffle %11 %16 %16 0 1 2\n"
                 "OpReturn\n"
                 "OpFunctionEnd\n",
     /* validate in the newest generation: the spec-constant bitcast is an error (V12), so both
      * are lowerable (2025.1 gave it as the warning W-SPEC-BITCAST) */
     0, 1, SPVBC_SUCCESS, 2, 0, 1, 2, 1},
    {"a bitcast to the twelfth 3-component vector type",
     SHADER_SCALARS SHADER_VECTORS "%1 = OpFunction %2 None %3\n"
                                   "%29 = OpLabel\n"
                                   "%30 = OpUndef %28\n"
                                   "%31 = OpBitcast %27 %30\n"
                                   "OpReturn\n"
                                   "OpFunctionEnd\n",
     /* the new float4 goes right after float */
     SHADER_SCALARS "%32 = OpTypeVector %15 4\n" SHADER_VECTORS "%1 = OpFunction %2 None %3\n"
                    "%29 = OpLabel\n"
                    "%30 = OpUndef %28\n"
                    "%33 = OpBitcast %32 %30\n"
                    "%31 = OpVectorShuffle %27 %33 %33 0 1 2\n"
                    "OpReturn\n"
                    "OpFunctionEnd\n",
     0, 1, SPVBC_SUCCESS, 1, 0, 1, 1, 1},
    {"an undefined operand equal to the bound beside a lowerable site",
     KERNEL_HEAD KERNEL_TYPES "%1 = OpFunction %2 None %3\n"
                              "%9 = OpLabel\n"
                              "%10 = OpUndef %5\n"
                              "%11 = OpBitcast %8 %10\n"
                              "%12 = OpBitcast %6 %13\n"
                              "OpReturn\n"
                              "OpFunctionEnd\n",
     NULL, 1, 1, SPVBC_PARTIAL, 0, 2, 0, 0, 0},
    {"an operand used before its definition beside a lowerable site",
     KERNEL_HEAD KERNEL_TYPES "%1 = OpFunction %2 None %3\n"
                              "%9 = OpLabel\n"
                              "%10 = OpUndef %5\n"
                              "%11 = OpBitcast %6 %12\n"
                              "%12 = OpUndef %5\n"
                              "%13 = OpBitcast %6 %10\n"
                              "OpReturn\n"
                              "OpFunctionEnd\n",
     KERNEL_HEAD KERNEL_TYPES "%1 = OpFunction %2 None %3\n"
                              "%9 = OpLabel\n"
                              "%10 = OpUndef %5\n"
                              "%11 = OpBitcast %6 %12\n"
                              "%12 = OpUndef %5\n"
                              "%13 = OpVectorShuffle %6 %10 %10 0 1 2\n"
                              "OpReturn\n"
                              "OpFunctionEnd\n",
     0, 1, SPVBC_PARTIAL, 1, 1, 0, 1, 0},
    {"the only bitcast to a 3-component vector: its operand is the bound, 32768",
     KERNEL_HEAD KERNEL_TYPES "%1 = OpFunction %2 None %3\n"
                              "%9 = OpLabel\n"
                              "%10 = OpBitcast %6 %32768\n"
                              "OpReturn\n"
                              "OpFunctionEnd\n",
     NULL, 1, 0, SPVBC_PARTIAL, 0, 1, 0, 0, 0},
    {"the only bitcast to a 3-component vector: its operand is the bound, 65536",
     KERNEL_HEAD KERNEL_TYPES "%1 = OpFunction %2 None %3\n"
                              "%9 = OpLabel\n"
                              "%10 = OpBitcast %8 %65536\n"
                              "OpReturn\n"
                              "OpFunctionEnd\n",
     NULL, 1, 0, SPVBC_PARTIAL, 0, 1, 0, 0, 0},
    /* as_half3(uint2): 8 bytes each ("a 3-component vector occupies the storage of 4"), but
     * half needs cl_khr_fp16, which is capability Float16; Float16Buffer alone only lets half
     * be stored (rules sheet, section 3): the site stays, as the input's V12 */
    {"as_half3(uint2) in a Kernel module with Float16Buffer only",
     KERNEL_HEAD_CAP("Float16Buffer") HALF3_UINT2 HALF3_UINT2_FN "%10 = OpBitcast %5 %9\n"
                                                                 "OpReturn\n"
                                                                 "OpFunctionEnd\n",
     NULL, 0, 1, SPVBC_PARTIAL, 0, 1, 0, 0, 0},
    /* the same with Float16: uint2 to a new half4 (right after half), its lanes 0-2 */
    {"as_half3(uint2) in a Kernel module with Float16",
     KERNEL_HEAD_CAP("Float16") HALF3_UINT2 HALF3_UINT2_FN "%10 = OpBitcast %5 %9\n"
                                                           "OpReturn\n"
                                                           "OpFunctionEnd\n",
     KERNEL_HEAD_CAP("Float16") "%4 = OpTypeFloat 16\n"
                                "%11 = OpTypeVector %4 4\n"
                                "%5 = OpTypeVector %4 3\n"
                                "%6 = OpTypeInt 32 0\n"
                                "%7 = OpTypeVector %6 2\n" HALF3_UINT2_FN "%12 = OpBitcast %11 %9\n"
                                "%10 = OpVectorShuffle %5 %12 %12 0 1 2\n"
                                "OpReturn\n"
                                "OpFunctionEnd\n",
     0, 1, SPVBC_SUCCESS, 1, 0, 1, 1, 1},
    /* An instruction of an opcode this build does not know (0x7FF0) whose word 1 is past the
     * bound and word 2 is 0: 0 is no id, so no new id can give it a meaning, and the float3 <-
     * uint4 site beside it is lowered (the float4 exists: no new type).  spirv-val cannot read
     * the unknown opcode (the input's fault, left as it was). */
    {"an unknown opcode's word 1 past the bound, word 2 zero, beside a lowerable site",
     KERNEL_HEAD FOREIGN_HEAD("!0x00037FF0 !100 !0\n") FOREIGN_FN "%11 = OpBitcast %7 %10\n"
                                                                  "OpReturn\n"
                                                                  "OpFunctionEnd\n",
     KERNEL_HEAD FOREIGN_HEAD("!0x00037FF0 !100 !0\n") FOREIGN_FN
     "%12 = OpBitcast %6 %10\n"
     "%11 = OpVectorShuffle %7 %12 %12 0 1 2\n"
     "OpReturn\n"
     "OpFunctionEnd\n",
     0, 1, SPVBC_SUCCESS, 1, 0, 0, 1, 0},
    /* the same with word 2 naming an id at or above the bound: a new id could take it, so
     * nothing is lowered */
    {"an unknown opcode's words 1 and 2 past the bound, beside a lowerable site",
     KERNEL_HEAD FOREIGN_HEAD("!0x00037FF0 !100 !50\n") FOREIGN_FN "%11 = OpBitcast %7 %10\n"
                                                                   "OpReturn\n"
                                                                   "OpFunctionEnd\n",
     NULL, 0, 1, SPVBC_PARTIAL, 0, 1, 0, 0, 0},
    /* %1 is a type (uint), and a valid bitcast float <- uint comes first: the pair memos of
     * validate and lower remember that pair as valid; the second site's operand is the bound,
     * undefined (R-UNDEF), and may not be taken for that pair */
    {"an undefined operand equal to the bound after a valid site of the same result type",
     "OpCapability Addresses\n"
     "OpCapability Kernel\n"
     "OpMemoryModel Physical64 OpenCL\n"
     "OpEntryPoint Kernel %2 \"k\"\n"
     "%1 = OpTypeInt 32 0\n"
     "%3 = OpTypeVoid\n"
     "%4 = OpTypeFunction %3\n"
     "%5 = OpTypeFloat 32\n"
     "%2 = OpFunction %3 None %4\n"
     "%6 = OpLabel\n"
     "%7 = OpUndef %1\n"
     "%8 = OpBitcast %5 %7\n"
     "%9 = OpBitcast %5 %10\n"
     "OpReturn\n"
     "OpFunctionEnd\n",
     NULL, 1, 0, SPVBC_PARTIAL, 0, 1, 0, 0, 0},
};

typedef struct words {
    uint32_t *w;
    size_t n, cap;
} words;

static int collect(void *user, const uint32_t *w, size_t count)
{
    words *o = (words *)user;
    if (o->n + count > o->cap) {
        o->cap = (o->n + count) * 2;
        o->w = (uint32_t *)realloc(o->w, o->cap * 4);
        if (!o->w) return 1;
    }
    memcpy(o->w + o->n, w, count * 4);
    o->n += count;
    return 0;
}

static void print_diff(const uint32_t *a, size_t na, const uint32_t *b, size_t nb)
{
    for (size_t i = 0; i < na || i < nb; ++i) {
        const int differ = i >= na || i >= nb || a[i] != b[i];
        if (differ)
            fprintf(stderr, "  word %zu: got %08x, expected %08x\n", i, i < na ? a[i] : 0u,
                    i < nb ? b[i] : 0u);
    }
}

static void check_case(const edge_case *c, spvbc_pad_policy pad)
{
    fprintf(stderr, "case: %s (pad %d)\n", c->name, (int)pad);
    spv_binary in = assemble(c->in, SPV_ENV_UNIVERSAL_1_2);
    if (c->bound_at_last_id) in->code[3] -= 1;
    spv_binary expected = c->out ? assemble(c->out, SPV_ENV_UNIVERSAL_1_2) : NULL;
    const uint32_t *want = expected ? expected->code : in->code;
    const size_t want_n = expected ? expected->wordCount : in->wordCount;

    spvbc_context ctx;
    assert_int_equal(spvbc_context_create(NULL, &ctx), SPVBC_SUCCESS);
    spvbc_bool maybe = -1;
    assert_int_equal(spvbc_bytes_scan_lowerable(ctx, in->code, in->wordCount * 4, &maybe),
                     SPVBC_SUCCESS);
    assert_int_equal(maybe, c->scan);

    spvbc_module mod;
    assert_int_equal(spvbc_module_parse(ctx, in->code, in->wordCount, NULL, &mod), SPVBC_SUCCESS);
    spvbc_validate_summary vs = SPVBC_VALIDATE_SUMMARY_INIT;
    (void)spvbc_module_validate(mod, NULL, &vs);
    assert_int_equal(vs.lowerable, c->lowerable);

    const spvbc_lower_options lo = {sizeof(spvbc_lower_options), pad, 0, SPVBC_GENERATION_NEWEST};
    spvbc_lower_summary ls = SPVBC_LOWER_SUMMARY_INIT;
    assert_int_equal(spvbc_module_lower(mod, &lo, &ls), c->result);
    assert_int_equal(ls.rewritten, c->rewritten);
    assert_int_equal(ls.refused, c->refused);
    assert_int_equal(ls.types_added, c->types_added);

    const uint32_t *out = NULL;
    size_t out_n = 0;
    assert_int_equal(spvbc_module_get_words(mod, &out, &out_n), SPVBC_SUCCESS);
    if (out_n != want_n || memcmp(out, want, want_n * 4) != 0) {
        print_diff(out, out_n, want, want_n);
        fail_msg("%s: the output is not the expected module", c->name);
    }
    words streamed = {NULL, 0, 0};
    assert_int_equal(spvbc_module_write(mod, collect, &streamed), SPVBC_SUCCESS);
    assert_int_equal(streamed.n, want_n);
    assert_memory_equal(streamed.w, want, want_n * 4);
    free(streamed.w);

    char msg[1024], in_msg[1024];
    const int valid = spvval_check(out, out_n, msg, sizeof msg);
    assert_int_not_equal(valid, -1);
    if (valid != c->out_valid) fprintf(stderr, "spirv-val: %s\n", msg);
    assert_int_equal(valid, c->out_valid);
    if (!valid) {
        /* What is left is what the input had: spirv-val names the same fault first. */
        assert_int_equal(spvval_check(in->code, in->wordCount, in_msg, sizeof in_msg), 0);
        assert_string_equal(msg, in_msg);
    }
    spvbc_module_destroy(mod);
    spvbc_context_destroy(ctx);
    spvBinaryDestroy(expected);
    spvBinaryDestroy(in);
}

static void test_edit_order(void **state)
{
    (void)state;
    check_case(&cases[0], SPVBC_PAD_UNDEF);
    check_case(&cases[0], SPVBC_PAD_ZERO);
}

static void test_many_vec3_types(void **state)
{
    (void)state;
    check_case(&cases[1], SPVBC_PAD_UNDEF);
}

static void test_undefined_operand_at_bound(void **state)
{
    (void)state;
    check_case(&cases[2], SPVBC_PAD_UNDEF);
}

static void test_operand_defined_later(void **state)
{
    (void)state;
    check_case(&cases[3], SPVBC_PAD_UNDEF);
    check_case(&cases[3], SPVBC_PAD_ZERO);
}

static void test_operand_at_bound_scan_no(void **state)
{
    (void)state;
    check_case(&cases[4], SPVBC_PAD_UNDEF);
    check_case(&cases[5], SPVBC_PAD_UNDEF);
}

/* A Kernel module with Float16Buffer but not Float16 may store half but not compute with it
 * (OpenCL C: half needs cl_khr_fp16), so as_half3(uint2) is no as_type there: lower leaves the
 * V12 site alone and validate says which capability is missing; with Float16 it is lowered. */
static void test_half_without_float16(void **state)
{
    (void)state;
    check_case(&cases[6], SPVBC_PAD_UNDEF);
    check_case(&cases[7], SPVBC_PAD_UNDEF);

    spv_binary in = assemble(cases[6].in, SPV_ENV_UNIVERSAL_1_2);
    spvbc_context ctx;
    spvbc_validate_summary vs;
    validate_words(in->code, in->wordCount, 0, SPVBC_ERROR_VALIDATION_FAILED, &ctx, &vs);
    assert_int_equal(vs.errors, 1);
    assert_int_equal(vs.lowerable, 0);
    const spvbc_diagnostic *d = diag_of(ctx, 10, "V12", SPVBC_SEVERITY_ERROR);
    assert_int_equal(d->lowerable, 0);
    has_text(d->message, "the module lacks the capability Float16");
    spvbc_context_destroy(ctx);
    spvBinaryDestroy(in);
}

/* An unknown opcode's word 2 of 0 names no id: the site beside it is lowered; an undefined id
 * there keeps every site as it is. */
static void test_unknown_opcode_word2(void **state)
{
    (void)state;
    check_case(&cases[8], SPVBC_PAD_UNDEF);
    check_case(&cases[9], SPVBC_PAD_UNDEF);
}

/* An undefined operand equal to the bound, after a valid bitcast of the same result type from a
 * value of type %1: lower refuses it (and lowers nothing: new ids would give it a meaning), not
 * taking it for the valid pair float <- uint. */
static void test_undefined_operand_after_valid_pair(void **state)
{
    (void)state;
    check_case(&cases[10], SPVBC_PAD_UNDEF);
}

/* The same module validated: the second site is R-UNDEF, the first has no finding. */
static void test_undefined_operand_after_valid_pair_validate(void **state)
{
    (void)state;
    spv_binary in = assemble(cases[10].in, SPV_ENV_UNIVERSAL_1_2);
    in->code[3] -= 1; /* the bound: %10 */
    spvbc_context ctx;
    spvbc_validate_summary vs;
    validate_words(in->code, in->wordCount, 0, SPVBC_ERROR_VALIDATION_FAILED, &ctx, &vs);
    assert_int_equal(vs.bitcasts_checked, 2);
    assert_int_equal(vs.errors, 1);
    no_diag_of(ctx, 8);
    diag_of(ctx, 9, "R-UNDEF", SPVBC_SEVERITY_ERROR);
    spvbc_context_destroy(ctx);
    spvBinaryDestroy(in);
}

/* The write and get_words of `mod` refuse its edit list as it is now, writing nothing. */
static void expect_refused(spvbc_module mod, const char *what)
{
    fprintf(stderr, "broken edit list: %s\n", what);
    expect_write_refused(mod);
}

static void test_writer_refuses_broken_edits(void **state)
{
    (void)state;
    const edge_case *c = &cases[0];
    spv_binary in = assemble(c->in, SPV_ENV_UNIVERSAL_1_2);
    spv_binary want = assemble(c->out, SPV_ENV_UNIVERSAL_1_2);
    spvbc_context ctx;
    assert_int_equal(spvbc_context_create(NULL, &ctx), SPVBC_SUCCESS);
    spvbc_module mod;
    assert_int_equal(spvbc_module_parse(ctx, in->code, in->wordCount, NULL, &mod), SPVBC_SUCCESS);
    assert_int_equal(spvbc_module_lower(mod, NULL, NULL), SPVBC_SUCCESS);
    /* the insertion of uint4 and the spec constant's rewrite at one offset, then the bitcast */
    assert_int_equal(mod->edit_count, 3);
    assert_int_equal(mod->edits[0].offset, mod->edits[1].offset);
    spvbc__edit saved[3];
    memcpy(saved, mod->edits, sizeof saved);

    mod->edits[0] = saved[1]; /* the rewrite before the insertion at its offset */
    mod->edits[1] = saved[0];
    expect_refused(mod, "the rewrite before the insertion at one offset");
    memcpy(mod->edits, saved, sizeof saved);
    mod->edits[1] = saved[2]; /* the last site's rewrite before the spec constant's */
    mod->edits[2] = saved[1];
    expect_refused(mod, "two rewrites out of order");
    memcpy(mod->edits, saved, sizeof saved);
    mod->edits[0].offset = 3; /* inside the header */
    expect_refused(mod, "an edit in the header");
    memcpy(mod->edits, saved, sizeof saved);
    mod->edits[2].remove = (uint32_t)(in->wordCount - mod->edits[2].offset + 1);
    expect_refused(mod, "an edit removing words past the input's end");
    memcpy(mod->edits, saved, sizeof saved);
    mod->edits[2].offset = (uint32_t)in->wordCount + 1;
    mod->edits[2].remove = 0;
    expect_refused(mod, "an edit past the input's end");
    memcpy(mod->edits, saved, sizeof saved);
    mod->edits[2].count = mod->edit_word_count - mod->edits[2].first + 1;
    expect_refused(mod, "an edit emitting words past the edit buffer");
    memcpy(mod->edits, saved, sizeof saved);
    mod->edits[1].first = mod->edit_word_count + 1;
    expect_refused(mod, "an edit's words starting past the edit buffer");

    memcpy(mod->edits, saved, sizeof saved); /* and the intact list is written again */
    const uint32_t *out = NULL;
    size_t out_n = 0;
    assert_int_equal(spvbc_module_get_words(mod, &out, &out_n), SPVBC_SUCCESS);
    assert_int_equal(out_n, want->wordCount);
    assert_memory_equal(out, want->code, out_n * 4);
    assert_int_equal(spvval_check(out, out_n, NULL, 0), 1);
    spvbc_module_destroy(mod);
    spvbc_context_destroy(ctx);
    spvBinaryDestroy(want);
    spvBinaryDestroy(in);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_edit_order),
        cmocka_unit_test(test_many_vec3_types),
        cmocka_unit_test(test_undefined_operand_at_bound),
        cmocka_unit_test(test_operand_defined_later),
        cmocka_unit_test(test_operand_at_bound_scan_no),
        cmocka_unit_test(test_writer_refuses_broken_edits),
        cmocka_unit_test(test_half_without_float16),
        cmocka_unit_test(test_unknown_opcode_word2),
        cmocka_unit_test(test_undefined_operand_after_valid_pair),
        cmocka_unit_test(test_undefined_operand_after_valid_pair_validate),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
