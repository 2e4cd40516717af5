/* The lowering and the writer through the public API where the other tests look past a
 * single-point bug, on two small Kernel modules built as words, each output compared word for
 * word with the expected module and given to spirv-val:
 *   - lower refuses a generation below the oldest (SPVBC_ERROR_INVALID_ARGUMENT, the summary
 *     untouched) and lowers nothing then;
 *   - a valid pair seen a second time (the pass's memo answers it) does not end the pass: the
 *     lowerable site after it is rewritten;
 *   - a write callback that stops at its k-th span, for every k, gets exactly k calls and the
 *     call returns SPVBC_ERROR_STOPPED;
 *   - an allocation that fails in lower ends it: SPVBC_ERROR_OUT_OF_MEMORY with no request after
 *     the failed one, the summary untouched, and the next call lowers as if nothing happened;
 *     under a policy that keeps no finding too (the R-NOT-KEPT note is allocated last);
 *   - the writer's check of the edit list at its bounds (the test changes the list by hand, as
 *     test_lower_edges.c does): an edit that only removes, its words at the buffer's end, is
 *     written; one removing 2^32 - 1 words is refused by get_words as by write.
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
#include "module.h" /* the edit list, for the writer's bounds */
#include "spirv_bitcast.h"
#include "spvval.h"
#include "test_alloc.h"

/* What a builder makes: the input, the lowered output, or (module A) the lowered output
 * without the rewritten site's instruction. */
enum { INPUT = 0, LOWERED = 1, SITE_DROPPED = 2 };

/* Module A, float, uint, uint4, float3 (%4-%7), no float4: two bitcasts uint <- float (%13,
 * %14, valid, one pair) then float3 <- uint4 (%15), lowered through a new float4 %16 right
 * after float: %17 = OpBitcast %16 %11, %15 = OpVectorShuffle %7 %17 %17 0 1 2. */
static void module_a(mb *b, int form)
{
    mb_kernel_head(b, 0x00010000u, form == INPUT ? 16 : 18, 1);
    mb_void_fn_type(b, 2, 3);
    MB(b, SpvOpTypeFloat, 4, 32);
    if (form != INPUT) MB(b, SpvOpTypeVector, 16, 4, 4);
    MB(b, SpvOpTypeInt, 5, 32, 0);
    MB(b, SpvOpTypeVector, 6, 5, 4);
    MB(b, SpvOpTypeVector, 7, 4, 3);
    mb_fn_begin(b, 2, 1, 3, 10);
    MB(b, SpvOpUndef, 6, 11);
    MB(b, SpvOpUndef, 4, 12);
    MB(b, SpvOpBitcast, 5, 13, 12);
    MB(b, SpvOpBitcast, 5, 14, 12);
    if (form == INPUT) {
        MB(b, SpvOpBitcast, 7, 15, 11);
    } else if (form == LOWERED) {
        MB(b, SpvOpBitcast, 16, 17, 11);
        MB(b, SpvOpVectorShuffle, 7, 15, 17, 17, 0, 1, 2);
    }
    mb_fn_end(b);
}

/* Module B, float, uint, uint4, float3, float4 (%4-%8): uint4 <- float3 (%12) under pad zero:
 * a new OpConstantNull float3 %14 right after float3 (the pass's first edit; the float4 is
 * there), %13 = OpVectorShuffle %8 %11 %14 0 1 2 3, %12 = OpBitcast %6 %13. */
static void module_b(mb *b, int form)
{
    mb_kernel_head(b, 0x00010000u, form == INPUT ? 13 : 15, 1);
    mb_void_fn_type(b, 2, 3);
    MB(b, SpvOpTypeFloat, 4, 32);
    MB(b, SpvOpTypeInt, 5, 32, 0);
    MB(b, SpvOpTypeVector, 6, 5, 4);
    MB(b, SpvOpTypeVector, 7, 4, 3);
    if (form != INPUT) MB(b, SpvOpConstantNull, 7, 14);
    MB(b, SpvOpTypeVector, 8, 4, 4);
    mb_fn_begin(b, 2, 1, 3, 10);
    MB(b, SpvOpUndef, 7, 11);
    if (form == INPUT) {
        MB(b, SpvOpBitcast, 6, 12, 11);
    } else {
        MB(b, SpvOpVectorShuffle, 8, 13, 11, 14, 0, 1, 2, 3);
        MB(b, SpvOpBitcast, 6, 12, 13);
    }
    mb_fn_end(b);
}

/* `mod`'s output is exactly `want` (through get_words), and spirv-val accepts it. */
static void expect_output(spvbc_module mod, const mb *want)
{
    const uint32_t *out = NULL;
    size_t out_n = 0;
    assert_int_equal(spvbc_module_get_words(mod, &out, &out_n), SPVBC_SUCCESS);
    assert_int_equal(out_n, want->n);
    assert_memory_equal(out, want->w, want->n * 4);
    char msg[1024];
    if (spvval_check(out, out_n, msg, sizeof msg) != 1) fail_msg("spirv-val: %s", msg);
}

static spvbc_module parse(spvbc_context ctx, const mb *in)
{
    spvbc_module mod;
    assert_int_equal(spvbc_module_parse(ctx, in->w, in->n, NULL, &mod), SPVBC_SUCCESS);
    return mod;
}

/* Generation 1 is below SPVBC_GENERATION_OLDEST: no rules, an invalid argument; the same
 * module lowers with the oldest. */
static void test_generation_below_oldest(void **state)
{
    (void)state;
    mb in = {NULL, 0, 0}, want = {NULL, 0, 0};
    module_a(&in, INPUT);
    module_a(&want, LOWERED);
    spvbc_context ctx;
    assert_int_equal(spvbc_context_create(NULL, &ctx), SPVBC_SUCCESS);
    spvbc_module mod = parse(ctx, &in);
    spvbc_lower_options lo = SPVBC_LOWER_OPTIONS_INIT;
    lo.generation = 1;
    spvbc_lower_summary ls;
    memset(&ls, 0xA5, sizeof ls);
    ls.struct_size = sizeof ls;
    spvbc_lower_summary untouched = ls;
    assert_int_equal(spvbc_module_lower(mod, &lo, &ls), SPVBC_ERROR_INVALID_ARGUMENT);
    assert_memory_equal(&ls, &untouched, sizeof ls);
    const uint32_t *out = NULL;
    size_t out_n = 0;
    assert_int_equal(spvbc_module_get_words(mod, &out, &out_n), SPVBC_SUCCESS);
    assert_int_equal(out_n, in.n); /* nothing lowered */
    assert_memory_equal(out, in.w, in.n * 4);
    lo.generation = SPVBC_GENERATION_OLDEST;
    assert_int_equal(spvbc_module_lower(mod, &lo, NULL), SPVBC_SUCCESS);
    expect_output(mod, &want);
    spvbc_module_destroy(mod);
    spvbc_context_destroy(ctx);
    mb_free(&in);
    mb_free(&want);
}

/* The second uint <- float is the memo's: checked, and the pass goes on to lower %15. */
static void test_valid_pair_twice(void **state)
{
    (void)state;
    mb in = {NULL, 0, 0}, want = {NULL, 0, 0};
    module_a(&in, INPUT);
    module_a(&want, LOWERED);
    spvbc_context ctx;
    assert_int_equal(spvbc_context_create(NULL, &ctx), SPVBC_SUCCESS);
    spvbc_module mod = parse(ctx, &in);
    spvbc_lower_summary ls = SPVBC_LOWER_SUMMARY_INIT;
    assert_int_equal(spvbc_module_lower(mod, NULL, &ls), SPVBC_SUCCESS);
    assert_int_equal(ls.bitcasts_checked, 3);
    assert_int_equal(ls.rewritten, 1);
    assert_int_equal(ls.types_added, 1);
    assert_int_equal(ls.new_id_bound, 18);
    expect_output(mod, &want);
    spvbc_module_destroy(mod);
    spvbc_context_destroy(ctx);
    mb_free(&in);
    mb_free(&want);
}

typedef struct spans {
    int calls, stop_at; /* stop at this call and every later one (0: never) */
    mb got;
} spans;

static int take_span(void *user, const uint32_t *w, size_t count)
{
    spans *s = (spans *)user;
    if (++s->calls >= s->stop_at && s->stop_at) return 1;
    for (size_t i = 0; i < count; ++i)
        mb_word(&s->got, w[i]);
    return 0;
}

/* Module A lowered is six spans: the header, the input up to the new float4, float4, the input
 * up to %15, its rewrite, the rest.  A callback that asks to stop at span k is called k times. */
static void test_write_stops_at_each_span(void **state)
{
    (void)state;
    mb in = {NULL, 0, 0}, want = {NULL, 0, 0};
    module_a(&in, INPUT);
    module_a(&want, LOWERED);
    spvbc_context ctx;
    assert_int_equal(spvbc_context_create(NULL, &ctx), SPVBC_SUCCESS);
    spvbc_module mod = parse(ctx, &in);
    assert_int_equal(spvbc_module_lower(mod, NULL, NULL), SPVBC_SUCCESS);
    spans all = {0, 0, {NULL, 0, 0}};
    assert_int_equal(spvbc_module_write(mod, take_span, &all), SPVBC_SUCCESS);
    assert_int_equal(all.calls, 6);
    assert_int_equal(all.got.n, want.n);
    assert_memory_equal(all.got.w, want.w, want.n * 4);
    for (int k = 1; k <= 6; ++k) {
        spans s = {0, k, {NULL, 0, 0}};
        assert_int_equal(spvbc_module_write(mod, take_span, &s), SPVBC_ERROR_STOPPED);
        if (s.calls != k) fail_msg("asked to stop at span %d, called %d times", k, s.calls);
        mb_free(&s.got);
    }
    expect_output(mod, &want);
    mb_free(&all.got);
    spvbc_module_destroy(mod);
    spvbc_context_destroy(ctx);
    mb_free(&in);
    mb_free(&want);
}

/* Lowers `in` under `pad` and `policy`, failing in turn each allocation the lowering asks for:
 * each failure ends the call (OUT_OF_MEMORY, no allocation after the failed one, the summary
 * untouched), and the call then made with allocation working gives `want`. */
static void fail_each_lowering_allocation(const mb *in, const mb *want, spvbc_pad_policy pad,
                                          spvbc_diagnostic_policy policy)
{
    const spvbc_lower_options lo = {sizeof(spvbc_lower_options), pad, 0, SPVBC_GENERATION_NEWEST};
    for (size_t k = 1;; ++k) {
        test_alloc a;
        memset(&a, 0, sizeof a);
        spvbc_allocator al = test_alloc_allocator(&a);
        spvbc_context ctx;
        assert_int_equal(spvbc_context_create(&al, &ctx), SPVBC_SUCCESS);
        assert_int_equal(spvbc_context_set_diagnostic_policy(ctx, policy, 0), SPVBC_SUCCESS);
        spvbc_module mod = parse(ctx, in);
        a.fail_at = a.calls + k;
        spvbc_lower_summary ls;
        memset(&ls, 0xA5, sizeof ls);
        ls.struct_size = sizeof ls;
        const spvbc_lower_summary untouched = ls;
        const spvbc_result r = spvbc_module_lower(mod, &lo, &ls);
        const size_t fail_at = a.fail_at;
        a.fail_at = 0; /* get_words and the retry allocate freely */
        const int failed = a.triggered;
        if (!failed) {
            assert_int_equal(r, SPVBC_SUCCESS);
            assert_true(k > 1);
        } else {
            if (r != SPVBC_ERROR_OUT_OF_MEMORY)
                fail_msg("allocation %zu of the lowering failed, it returned %s", k,
                         spvbc_result_string(r));
            if (a.calls != fail_at)
                fail_msg("allocation %zu of the lowering failed, %zu more were asked for", k,
                         a.calls - fail_at);
            assert_memory_equal(&ls, &untouched, sizeof ls);
            assert_int_equal(spvbc_module_lower(mod, &lo, &ls), SPVBC_SUCCESS);
        }
        assert_int_equal(ls.rewritten, 1);
        expect_output(mod, want);
        spvbc_module_destroy(mod);
        spvbc_context_destroy(ctx);
        assert_int_equal(a.live_bytes, 0);
        assert_int_equal(a.bad_free, 0);
        if (!failed) break;
    }
}

/* Module A: the new float4's edit (the plan's type) is the first allocation; module B under
 * pad zero: the null's.  Under COUNT_ONLY the R-NOT-KEPT note is allocated too. */
static void test_failed_allocation_ends_lowering(void **state)
{
    (void)state;
    mb in = {NULL, 0, 0}, want = {NULL, 0, 0};
    for (int policy = 0; policy < 2; ++policy) {
        const spvbc_diagnostic_policy p =
            policy ? SPVBC_DIAGNOSTIC_POLICY_COUNT_ONLY : SPVBC_DIAGNOSTIC_POLICY_KEEP_ALL;
        module_a(&in, INPUT);
        module_a(&want, LOWERED);
        fail_each_lowering_allocation(&in, &want, SPVBC_PAD_UNDEF, p);
        module_b(&in, INPUT);
        module_b(&want, LOWERED);
        fail_each_lowering_allocation(&in, &want, SPVBC_PAD_ZERO, p);
    }
    mb_free(&in);
    mb_free(&want);
}

/* Module A lowered has two edits: the float4's insertion, %15's rewrite.  The rewrite made to
 * emit nothing, its words the empty range at the buffer's end, is still inside what it names:
 * written, the output is module A lowered without %15 (unused: valid).  Made to remove 2^32 - 1
 * words, it is refused by get_words as by write. */
static void test_writer_edit_bounds(void **state)
{
    (void)state;
    mb in = {NULL, 0, 0}, want = {NULL, 0, 0};
    module_a(&in, INPUT);
    module_a(&want, SITE_DROPPED);
    spvbc_context ctx;
    assert_int_equal(spvbc_context_create(NULL, &ctx), SPVBC_SUCCESS);
    spvbc_module mod = parse(ctx, &in);
    assert_int_equal(spvbc_module_lower(mod, NULL, NULL), SPVBC_SUCCESS);
    assert_int_equal(mod->edit_count, 2);
    const spvbc__edit saved = mod->edits[1];
    mod->edits[1].first = (uint32_t)mod->edit_word_count;
    mod->edits[1].count = 0;
    expect_output(mod, &want);
    spvbc_module_destroy(mod);

    mod = parse(ctx, &in);
    assert_int_equal(spvbc_module_lower(mod, NULL, NULL), SPVBC_SUCCESS);
    assert_int_equal(mod->edits[1].offset, saved.offset);
    mod->edits[1].remove = UINT32_MAX;
    spans s = {0, 0, {NULL, 0, 0}};
    assert_int_equal(spvbc_module_write(mod, take_span, &s), SPVBC_ERROR_UNSUPPORTED);
    assert_int_equal(s.calls, 0);
    const uint32_t *out = NULL;
    size_t out_n = 0;
    assert_int_equal(spvbc_module_get_words(mod, &out, &out_n), SPVBC_ERROR_UNSUPPORTED);
    assert_null(out);
    spvbc_module_destroy(mod);
    spvbc_context_destroy(ctx);
    mb_free(&in);
    mb_free(&want);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_generation_below_oldest),
        cmocka_unit_test(test_valid_pair_twice),
        cmocka_unit_test(test_write_stops_at_each_span),
        cmocka_unit_test(test_failed_allocation_ends_lowering),
        cmocka_unit_test(test_writer_edit_bounds),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
