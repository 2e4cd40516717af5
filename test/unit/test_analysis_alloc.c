/* Validate through a caller's allocator, where a single-point bug of source/analysis.c would
 * show only there: an OpBitcastExtractEXT whose Offset is the id bound has no value, so no
 * verdict on it, whatever the words after the id table hold (the allocator fills them with the
 * id of a float type).  (Each kind of finding under allocation failure: unit.alloc_fail's
 * test_findings_of_each_kind.)
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
    /* Older SPIR-V headers (Debian 12's, the cross builds'): an unknown opcode's instruction. */
    if (opcode_unknown(OP_BITCAST_EXTRACT_EXT, "OpBitcastExtractEXT: SKIPPED")) skip();
    const uint32_t caps[] = {CAP_FLOAT8_EXT, CAP_BITCAST_EXTRACT_EXT};
    const char *const ext[] = {"SPV_EXT_float8", "SPV_EXT_ocp_microscaling_types"};
    mb b = {NULL, 0, 0};
    mb_shader_head(&b, 12, caps, 2, ext, 2);
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
        cmocka_unit_test(test_extract_offset_at_bound),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
