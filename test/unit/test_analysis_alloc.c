/* Validate through a caller's allocator, where a single-point bug of source/validate.c or
 * source/analysis.c would show only there:
 *   - each kind of finding (S4, S3-WIDTH, S2, W-LOGICAL-PTR, N-IMPL-DEFINED, N-NOT-ASTYPE) first
 *     in a module: whichever allocation of validate fails alone, the call returns
 *     SPVBC_ERROR_OUT_OF_MEMORY (a failed record ends it; it never gives a verdict without it);
 *   - an OpBitcastExtractEXT whose Offset is the id bound: no value, so no verdict on it, whatever
 *     the words after the id table hold (the allocator fills them with the id of a float type).
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
#include "spvval.h"

/* Values of SPIRV-Headers 1.4.363 that Debian 12's headers do not know (modules built as words). */
enum {
    CAP_FLOAT8_EXT = 4212,
    CAP_BITCAST_EXTRACT_EXT = 4232,
    FP_FLOAT8_E4M3_EXT = 4214,
    OP_BITCAST_EXTRACT_EXT = 4195
};

static spv_binary assemble(const char *text)
{
    spv_context sc = spvContextCreate(SPV_ENV_UNIVERSAL_1_2);
    spv_binary bin = NULL;
    spv_diagnostic d = NULL;
    spv_result_t r = spvTextToBinaryWithOptions(
        sc, text, strlen(text), SPV_TEXT_TO_BINARY_OPTION_PRESERVE_NUMERIC_IDS, &bin, &d);
    if (r != SPV_SUCCESS) fprintf(stderr, "does not assemble: %s\n", d ? d->error : "?");
    spvDiagnosticDestroy(d);
    spvContextDestroy(sc);
    assert_int_equal(r, SPV_SUCCESS);
    return bin;
}

/* Pointers to uint, CrossWorkgroup %6 and Workgroup %7, and the value %9 of %6: Physical64. */
#define POINTERS                                                                                   \
    "OpCapability Addresses\n"                                                                     \
    "OpCapability Kernel\n"                                                                        \
    "OpMemoryModel Physical64 OpenCL\n"                                                            \
    "OpEntryPoint Kernel %1 \"k\"\n"                                                               \
    "%2 = OpTypeVoid\n"                                                                            \
    "%3 = OpTypeFunction %2\n"                                                                     \
    "%4 = OpTypeInt 32 0\n"                                                                        \
    "%5 = OpTypeFloat 32\n"                                                                        \
    "%6 = OpTypePointer CrossWorkgroup %4\n"                                                       \
    "%7 = OpTypePointer Workgroup %4\n"                                                            \
    "%1 = OpFunction %2 None %3\n"                                                                 \
    "%8 = OpLabel\n"                                                                               \
    "%9 = OpUndef %6\n"

typedef struct one_fail {
    size_t calls, fail_at; /* fail_at: the call that fails (1-based), 0: none */
} one_fail;

static void *one_fail_alloc(void *user, size_t size)
{
    one_fail *a = (one_fail *)user;
    return ++a->calls == a->fail_at ? NULL : malloc(size);
}

static void one_fail_free(void *user, void *ptr, size_t size)
{
    (void)user;
    (void)size;
    free(ptr);
}

/* Validates `bin` with `flags` in a context whose allocator fails validate's `fail_at`-th
 * allocation alone (0: none, and then both findings are `rule`); returns validate's result and
 * the allocations it made. */
static spvbc_result validate_failing(const spv_binary bin, uint32_t flags, size_t fail_at,
                                     const char *rule, size_t *calls)
{
    one_fail a = {0, 0};
    const spvbc_allocator al = SPVBC_ALLOCATOR_INIT(one_fail_alloc, one_fail_free, &a);
    spvbc_context ctx;
    assert_int_equal(spvbc_context_create(&al, &ctx), SPVBC_SUCCESS);
    spvbc_module mod;
    assert_int_equal(spvbc_module_parse(ctx, bin->code, bin->wordCount, NULL, &mod), SPVBC_SUCCESS);
    a.calls = 0;
    a.fail_at = fail_at;
    const spvbc_validate_options vo = {sizeof(spvbc_validate_options), flags,
                                       SPVBC_GENERATION_NEWEST};
    const spvbc_result r = spvbc_module_validate(mod, &vo, NULL);
    *calls = a.calls;
    if (!fail_at) {
        assert_int_equal(spvbc_context_diagnostic_count(ctx), 2);
        assert_string_equal(spvbc_context_diagnostic(ctx, 0)->rule, rule);
        assert_string_equal(spvbc_context_diagnostic(ctx, 1)->rule, rule);
    }
    spvbc_module_destroy(mod);
    spvbc_context_destroy(ctx);
    return r;
}

#define END "OpReturn\nOpFunctionEnd\n"

/* A Kernel module with capability `cap`: void %2, void() %3, uint %4, then `types`, the
 * function %1 and its label %8, then `body`. */
#define KERNEL_CAP(cap, types, body)                                                               \
    "OpCapability Addresses\nOpCapability Kernel\nOpCapability " cap "\n"                          \
    "OpMemoryModel Physical64 OpenCL\nOpEntryPoint Kernel %1 \"k\"\n%2 = OpTypeVoid\n"             \
    "%3 = OpTypeFunction %2\n%4 = OpTypeInt 32 0\n" types "%1 = OpFunction %2 None %3\n"           \
    "%8 = OpLabel\n" body END
#define SHADER_POINTERS                                                                            \
    "OpCapability Shader\nOpMemoryModel Logical GLSL450\nOpEntryPoint GLCompute %1 \"main\"\n"     \
    "OpExecutionMode %1 LocalSize 1 1 1\n%2 = OpTypeVoid\n%3 = OpTypeFunction %2\n"                \
    "%4 = OpTypeInt 32 0\n%5 = OpTypeFloat 32\n%6 = OpTypePointer Function %4\n"                   \
    "%7 = OpTypePointer Function %5\n%1 = OpFunction %2 None %3\n%8 = OpLabel\n"

/* Each kind of finding first in a module, twice: whichever allocation of validate fails alone
 * (the first finding's record among them), validate returns SPVBC_ERROR_OUT_OF_MEMORY, never a
 * verdict that lacks a finding. */
static void test_each_finding_out_of_memory(void **state)
{
    (void)state;
    static const struct {
        const char *text;
        uint32_t flags;
        spvbc_result result;
        const char *rule;
    } cases[] = {
        {POINTERS "%10 = OpBitcast %7 %9\n%11 = OpBitcast %7 %9\n" END, 0, SPVBC_SUCCESS, "S4"},
        {POINTERS "%10 = OpBitcast %4 %9\n%11 = OpBitcast %4 %9\n" END, 0, SPVBC_SUCCESS,
         "S3-WIDTH"},
        {POINTERS "%10 = OpUndef %4\n%11 = OpBitcast %4 %10\n%12 = OpBitcast %4 %10\n" END, 0,
         SPVBC_SUCCESS, "S2"},
        {SHADER_POINTERS "%9 = OpVariable %6 Function\n%10 = OpBitcast %7 %9\n"
                         "%11 = OpBitcast %7 %9\n" END,
         0, SPVBC_ERROR_VALIDATION_FAILED, "W-LOGICAL-PTR"},
        {KERNEL_CAP("Int8", "%5 = OpTypeInt 8 0\n%6 = OpTypeVector %5 4\n",
                    "%9 = OpUndef %6\n%10 = OpBitcast %4 %9\n%11 = OpBitcast %4 %9\n"),
         SPVBC_VALIDATE_NOTES, SPVBC_SUCCESS, "N-IMPL-DEFINED"}, /* as_uint(uchar4) */
        {KERNEL_CAP("Float16Buffer", "%5 = OpTypeFloat 16\n%6 = OpTypeVector %5 2\n",
                    "%9 = OpUndef %4\n%10 = OpBitcast %6 %9\n%11 = OpBitcast %6 %9\n"),
         SPVBC_VALIDATE_NOTES, SPVBC_SUCCESS, "N-NOT-ASTYPE"}, /* as_half2(uint), no Float16 */
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; ++i) {
        spv_binary bin = assemble(cases[i].text);
        size_t total = 0, calls = 0;
        assert_int_equal(validate_failing(bin, cases[i].flags, 0, cases[i].rule, &total),
                         cases[i].result);
        assert_true(total > 0);
        for (size_t k = 1; k <= total; ++k) {
            const spvbc_result r = validate_failing(bin, cases[i].flags, k, cases[i].rule, &calls);
            if (r != SPVBC_ERROR_OUT_OF_MEMORY)
                fail_msg("case %zu: validate with allocation %zu of %zu failing: %s", i, k, total,
                         spvbc_result_string(r));
        }
        spvBinaryDestroy(bin);
    }
}

/* ---- the words after the id table ------------------------------------------------------------ */

#define GUARD_WORDS 64u

/* An allocator whose blocks are followed by GUARD_WORDS words of value `*user` (the blocks'
 * own bytes are the library's to fill). */
static void *guarded_alloc(void *user, size_t size)
{
    const size_t words = (size + 3) / 4;
    uint32_t *p = (uint32_t *)malloc((words + GUARD_WORDS) * 4);
    if (!p) return NULL;
    for (size_t i = words; i < words + GUARD_WORDS; ++i)
        p[i] = *(const uint32_t *)user;
    return p;
}

static void guarded_free(void *user, void *ptr, size_t size)
{
    (void)user;
    (void)size;
    free(ptr);
}

/* A Shader module with 8-bit floats (bound 12): %11 = OpBitcastExtractEXT e4m3 of a uint at
 * Offset %12, the bound: no value, so the offset gets no verdict and the extract is valid (the
 * component widths 32 and 8, one component each).  The id table's allocation (12 words) is
 * followed by words of 8, the id of the float type: an Offset taken as defined would read as a
 * float value, whose extract is V-EXTRACT-OFFSET. */
static void test_extract_offset_at_bound(void **state)
{
    (void)state;
    mb b = {NULL, 0, 0};
    mb_header(&b, 0x00010600u, 12);
    MB(&b, SpvOpCapability, SpvCapabilityShader);
    MB(&b, SpvOpCapability, CAP_FLOAT8_EXT);
    MB(&b, SpvOpCapability, CAP_BITCAST_EXTRACT_EXT);
    mb_extension(&b, "SPV_EXT_float8");
    mb_extension(&b, "SPV_EXT_ocp_microscaling_types");
    MB(&b, SpvOpMemoryModel, SpvAddressingModelLogical, SpvMemoryModelGLSL450);
    mb_entry(&b, SpvExecutionModelGLCompute, 1, "main");
    MB(&b, SpvOpExecutionMode, 1, SpvExecutionModeLocalSize, 1, 1, 1);
    mb_void_fn_type(&b, 2, 3);
    MB(&b, SpvOpTypeInt, 4, 32, 0);
    MB(&b, SpvOpTypeFloat, 6, 8, FP_FLOAT8_E4M3_EXT);
    MB(&b, SpvOpTypeFloat, 8, 32);
    mb_fn_begin(&b, 2, 1, 3, 9);
    MB(&b, SpvOpUndef, 4, 10);
    MB(&b, OP_BITCAST_EXTRACT_EXT, 6, 11, 10, 12);
    mb_fn_end(&b);

    uint32_t fill = 8;
    const spvbc_allocator al = SPVBC_ALLOCATOR_INIT(guarded_alloc, guarded_free, &fill);
    spvbc_context ctx;
    assert_int_equal(spvbc_context_create(&al, &ctx), SPVBC_SUCCESS);
    spvbc_module mod;
    assert_int_equal(spvbc_module_parse(ctx, b.w, b.n, NULL, &mod), SPVBC_SUCCESS);
    spvbc_validate_summary vs = SPVBC_VALIDATE_SUMMARY_INIT;
    const spvbc_result r = spvbc_module_validate(mod, NULL, &vs);
    for (size_t i = 0; i < spvbc_context_diagnostic_count(ctx); ++i)
        fprintf(stderr, "%s\n", spvbc_context_diagnostic(ctx, i)->message);
    assert_int_equal(r, SPVBC_SUCCESS);
    assert_int_equal(vs.bitcasts_checked, 1);
    assert_int_equal(vs.errors, 0);
    assert_int_equal(spvbc_context_diagnostic_count(ctx), 0);
    spvbc_module_destroy(mod);
    spvbc_context_destroy(ctx);
    mb_free(&b);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_each_finding_out_of_memory),
        cmocka_unit_test(test_extract_offset_at_bound),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
