/* The lowering and the writer through the public API where the other tests look past a
 * single-point bug, on two small Kernel modules built as words, each output compared word for
 * word with the expected module and given to spirv-val:
 *   - lower refuses a generation below the oldest (SPVBC_ERROR_INVALID_ARGUMENT, the summary
 *     untouched) and lowers nothing then;
 *   - a valid pair seen a second time (the pass's memo answers it) does not end the pass: the
 *     lowerable site after it is rewritten;
 *   - a write callback that stops at its k-th span, for every k, gets exactly k calls and the
 *     call returns SPVBC_ERROR_STOPPED (two adjacent rewrites have no input span between them);
 *   - an allocation that fails in lower ends it: SPVBC_ERROR_OUT_OF_MEMORY with no request after
 *     the failed one, the summary untouched, R-MEMORY the only diagnostic, the input the output,
 *     and the next call lowers as if nothing happened, its findings and output as expected (the
 *     output allocated once, of its exact size); under a policy that keeps no finding too (the
 *     R-NOT-KEPT note is allocated last);
 *   - the writer's check of the edit list at its bounds (the test changes the list by hand, as
 *     test_lower_edges.c does): an edit that only removes, its words at the buffer's end, is
 *     written; one removing 2^32 - 1 words, or one in the header's last word, is refused by
 *     get_words as by write;
 *   - a bound the lowering would raise above the parse's cap: nothing lowered, R-LIMIT's fields;
 *   - an existing OpConstantNull after a spec-constant site: that site gets a new one, a later
 *     site the existing one;
 *   - a module that ends in a rewritten site (cut short): no empty span after it.
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

/* The head of a Kernel module of id bound `bound` and its types float, uint, uint4, float3,
 * float4 (%4-%8), with (in a lowered `form`) the new OpConstantNull float3 `null` right after
 * float3. */
static void types_with_float4(mb *b, int form, uint32_t bound, uint32_t null)
{
    mb_kernel_head(b, 0x00010000u, bound, 1);
    mb_void_fn_type(b, 2, 3);
    MB(b, SpvOpTypeFloat, 4, 32);
    MB(b, SpvOpTypeInt, 5, 32, 0);
    MB(b, SpvOpTypeVector, 6, 5, 4);
    MB(b, SpvOpTypeVector, 7, 4, 3);
    if (form != INPUT) MB(b, SpvOpConstantNull, 7, null);
    MB(b, SpvOpTypeVector, 8, 4, 4);
}

/* Module B, float, uint, uint4, float3, float4 (%4-%8): uint4 <- float3 (%13), then right
 * after it float3 <- uint4 twice (%14, %15), under pad zero.  %13: a new OpConstantNull float3
 * %17 right after float3 (the pass's first edit; the float4 is there), %16 = OpVectorShuffle %8
 * %11 %17 0 1 2 3, %13 = OpBitcast %6 %16; %14: %18 = OpBitcast %8 %12, %14 = OpVectorShuffle
 * %7 %18 %18 0 1 2; %15 the same through %19.  The edit words grow at %14 and again at %15. */
static void module_b(mb *b, int form)
{
    types_with_float4(b, form, form == INPUT ? 16 : 20, 17);
    mb_fn_begin(b, 2, 1, 3, 10);
    MB(b, SpvOpUndef, 7, 11);
    MB(b, SpvOpUndef, 6, 12);
    if (form == INPUT) {
        MB(b, SpvOpBitcast, 6, 13, 11);
        MB(b, SpvOpBitcast, 7, 14, 12);
        MB(b, SpvOpBitcast, 7, 15, 12);
    } else {
        MB(b, SpvOpVectorShuffle, 8, 16, 11, 17, 0, 1, 2, 3);
        MB(b, SpvOpBitcast, 6, 13, 16);
        MB(b, SpvOpBitcast, 8, 18, 12);
        MB(b, SpvOpVectorShuffle, 7, 14, 18, 18, 0, 1, 2);
        MB(b, SpvOpBitcast, 8, 19, 12);
        MB(b, SpvOpVectorShuffle, 7, 15, 19, 19, 0, 1, 2);
    }
    mb_fn_end(b);
}

/* `mod`'s output (through get_words) is exactly the words of `want`; returns it. */
static const uint32_t *expect_words(spvbc_module mod, const mb *want)
{
    const uint32_t *out = NULL;
    size_t out_n = 0;
    assert_int_equal(spvbc_module_get_words(mod, &out, &out_n), SPVBC_SUCCESS);
    assert_int_equal(out_n, want->n);
    assert_memory_equal(out, want->w, want->n * 4);
    return out;
}

/* `mod`'s output is exactly `want` (through get_words), and spirv-val accepts it. */
static void expect_output(spvbc_module mod, const mb *want)
{
    const uint32_t *out = expect_words(mod, want);
    char msg[1024];
    if (spvval_check(out, want->n, msg, sizeof msg) != 1) fail_msg("spirv-val: %s", msg);
}

static spvbc_module parse(spvbc_context ctx, const mb *in)
{
    spvbc_module mod;
    assert_int_equal(spvbc_module_parse(ctx, in->w, in->n, NULL, &mod), SPVBC_SUCCESS);
    return mod;
}

/* A test's input and expected output, its context and the input parsed in it. */
typedef struct lowering {
    mb in, want;
    spvbc_context ctx;
    spvbc_module mod;
} lowering;

/* Builds `t`'s input and its expected output (`want_form`) with `build`, creates a context
 * and parses the input in it. */
static void lowering_begin(lowering *t, void (*build)(mb *, int), int want_form)
{
    memset(t, 0, sizeof *t);
    build(&t->in, INPUT);
    build(&t->want, want_form);
    assert_int_equal(spvbc_context_create(NULL, &t->ctx), SPVBC_SUCCESS);
    t->mod = parse(t->ctx, &t->in);
}

/* Frees all that lowering_begin() made for `t`. */
static void lowering_end(lowering *t)
{
    spvbc_module_destroy(t->mod);
    spvbc_context_destroy(t->ctx);
    mb_free(&t->in);
    mb_free(&t->want);
}

/* A lower summary of its own size and every other byte 0xA5, for a test that the call left it
 * untouched. */
static spvbc_lower_summary poisoned_summary(void)
{
    spvbc_lower_summary ls;
    memset(&ls, 0xA5, sizeof ls);
    ls.struct_size = sizeof ls;
    return ls;
}

/* Generation 1 is below SPVBC_GENERATION_OLDEST: no rules, an invalid argument; the same
 * module lowers with the oldest. */
static void test_generation_below_oldest(void **state)
{
    (void)state;
    lowering t;
    lowering_begin(&t, module_a, LOWERED);
    spvbc_lower_options lo = SPVBC_LOWER_OPTIONS_INIT;
    lo.generation = 1;
    spvbc_lower_summary ls = poisoned_summary();
    const spvbc_lower_summary untouched = ls;
    assert_int_equal(spvbc_module_lower(t.mod, &lo, &ls), SPVBC_ERROR_INVALID_ARGUMENT);
    assert_memory_equal(&ls, &untouched, sizeof ls);
    expect_words(t.mod, &t.in); /* nothing lowered */
    lo.generation = SPVBC_GENERATION_OLDEST;
    assert_int_equal(spvbc_module_lower(t.mod, &lo, NULL), SPVBC_SUCCESS);
    expect_output(t.mod, &t.want);
    lowering_end(&t);
}

/* The second uint <- float is the memo's: checked, and the pass goes on to lower %15. */
static void test_valid_pair_twice(void **state)
{
    (void)state;
    lowering t;
    lowering_begin(&t, module_a, LOWERED);
    spvbc_lower_summary ls = SPVBC_LOWER_SUMMARY_INIT;
    assert_int_equal(spvbc_module_lower(t.mod, NULL, &ls), SPVBC_SUCCESS);
    assert_int_equal(ls.bitcasts_checked, 3);
    assert_int_equal(ls.rewritten, 1);
    assert_int_equal(ls.types_added, 1);
    assert_int_equal(ls.new_id_bound, 18);
    expect_output(t.mod, &t.want);
    lowering_end(&t);
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

/* Writes `mod` to the end into `*all` (zeroed here; its words the caller frees): `n` spans,
 * their words `want`'s. */
static void write_all(spvbc_module mod, const mb *want, int n, spans *all)
{
    *all = (spans){0, 0, {NULL, 0, 0}};
    assert_int_equal(spvbc_module_write(mod, take_span, all), SPVBC_SUCCESS);
    assert_int_equal(all->calls, n);
    assert_int_equal(all->got.n, want->n);
    assert_memory_equal(all->got.w, want->w, want->n * 4);
}

/* Each callback that asks to stop at span k (of `n`, the spans of `in` lowered under `pad`) is
 * called k times, and the spans of a write run to the end are the expected words. */
static void check_stops(const mb *in, const mb *want, spvbc_pad_policy pad, int n)
{
    spvbc_context ctx;
    assert_int_equal(spvbc_context_create(NULL, &ctx), SPVBC_SUCCESS);
    spvbc_module mod = parse(ctx, in);
    const spvbc_lower_options lo = {sizeof(spvbc_lower_options), pad, 0, SPVBC_GENERATION_NEWEST};
    assert_int_equal(spvbc_module_lower(mod, &lo, NULL), SPVBC_SUCCESS);
    spans all;
    write_all(mod, want, n, &all);
    for (int k = 1; k <= n; ++k) {
        spans s = {0, k, {NULL, 0, 0}};
        assert_int_equal(spvbc_module_write(mod, take_span, &s), SPVBC_ERROR_STOPPED);
        if (s.calls != k) fail_msg("asked to stop at span %d, called %d times", k, s.calls);
        mb_free(&s.got);
    }
    expect_output(mod, want);
    mb_free(&all.got);
    spvbc_module_destroy(mod);
    spvbc_context_destroy(ctx);
}

/* Module A lowered is six spans: the header, the input up to the new float4, float4, the input
 * up to %15, its rewrite, the rest.  Module B's three rewrites are adjacent, with no input span
 * between them: eight (the header, input, the null, input, the three rewrites, the rest). */
static void test_write_stops_at_each_span(void **state)
{
    (void)state;
    mb in = {NULL, 0, 0}, want = {NULL, 0, 0};
    module_a(&in, INPUT);
    module_a(&want, LOWERED);
    check_stops(&in, &want, SPVBC_PAD_UNDEF, 6);
    module_b(&in, INPUT);
    module_b(&want, LOWERED);
    check_stops(&in, &want, SPVBC_PAD_ZERO, 8);
    mb_free(&in);
    mb_free(&want);
}

/* After a lowering of `rewritten` sites under `policy`: its findings (an L-LOWERED note a site,
 * or under COUNT_ONLY the one R-NOT-KEPT note counting them), and the output, made once: one
 * allocation of exactly its size, then the same words again without another, and lowered
 * again, none (the first output's buffer is taken again). */
static void check_lowered(spvbc_context ctx, const test_alloc *a, spvbc_module mod,
                          const spvbc_lower_options *lo, const mb *want,
                          spvbc_diagnostic_policy policy, size_t rewritten)
{
    const size_t count = spvbc_context_diagnostic_count(ctx);
    if (policy == SPVBC_DIAGNOSTIC_POLICY_COUNT_ONLY) {
        assert_int_equal(count, 1);
        const spvbc_diagnostic *d = spvbc_context_diagnostic(ctx, 0);
        assert_string_equal(d->rule, "R-NOT-KEPT");
        char text[128];
        snprintf(text, sizeof text, "%zu findings not kept (diagnostic policy: count only)",
                 rewritten);
        assert_string_equal(d->message, text);
    } else {
        assert_int_equal(count, rewritten);
        for (size_t i = 0; i < count; ++i)
            assert_string_equal(spvbc_context_diagnostic(ctx, i)->rule, "L-LOWERED");
    }
    const size_t calls = a->calls, live = a->live_bytes;
    expect_output(mod, want);
    assert_int_equal(a->calls, calls + 1);
    assert_int_equal(a->live_bytes, live + want->n * 4);
    const uint32_t *first = NULL, *again = NULL;
    size_t n = 0;
    assert_int_equal(spvbc_module_get_words(mod, &first, &n), SPVBC_SUCCESS);
    assert_int_equal(spvbc_module_get_words(mod, &again, &n), SPVBC_SUCCESS);
    assert_ptr_equal(again, first);
    assert_int_equal(a->calls, calls + 1);
    /* lowered again, the output is made in the first one's buffer */
    assert_int_equal(spvbc_module_lower(mod, lo, NULL), SPVBC_SUCCESS);
    const size_t calls_again = a->calls;
    expect_output(mod, want);
    assert_int_equal(a->calls, calls_again);
}

/* Lowers `in` under `pad` and `policy`, failing in turn each allocation the lowering asks for:
 * each failure ends the call (OUT_OF_MEMORY, no allocation after the failed one, the summary
 * untouched), and the call then made with allocation working gives `want`. */
static void fail_each_lowering_allocation(const mb *in, const mb *want, spvbc_pad_policy pad,
                                          spvbc_diagnostic_policy policy, size_t rewritten)
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
        spvbc_lower_summary ls = poisoned_summary();
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
            /* nothing of the failed call is left but R-MEMORY: no finding, no rewrite */
            assert_int_equal(spvbc_context_diagnostic_count(ctx), 1);
            assert_string_equal(spvbc_context_diagnostic(ctx, 0)->rule, "R-MEMORY");
            expect_words(mod, in);
            assert_int_equal(spvbc_module_lower(mod, &lo, &ls), SPVBC_SUCCESS);
        }
        assert_int_equal(ls.rewritten, rewritten);
        check_lowered(ctx, &a, mod, &lo, want, policy, rewritten);
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
        fail_each_lowering_allocation(&in, &want, SPVBC_PAD_UNDEF, p, 1);
        module_b(&in, INPUT);
        module_b(&want, LOWERED);
        fail_each_lowering_allocation(&in, &want, SPVBC_PAD_ZERO, p, 3);
    }
    mb_free(&in);
    mb_free(&want);
}

/* write and get_words refuse the edit list of `mod`, writing nothing. */
static void expect_refused(spvbc_module mod)
{
    spans s = {0, 0, {NULL, 0, 0}};
    assert_int_equal(spvbc_module_write(mod, take_span, &s), SPVBC_ERROR_UNSUPPORTED);
    assert_int_equal(s.calls, 0);
    const uint32_t *out = NULL;
    size_t out_n = 0;
    assert_int_equal(spvbc_module_get_words(mod, &out, &out_n), SPVBC_ERROR_UNSUPPORTED);
    assert_null(out);
}

/* Module A lowered has two edits: the float4's insertion, %15's rewrite.  The rewrite made to
 * emit nothing, its words the empty range at the buffer's end, is still inside what it names:
 * written, the output is module A lowered without %15 (unused: valid).  Made to remove 2^32 - 1
 * words, or the insertion moved into the header (word 4), it is refused by get_words as by
 * write. */
static void test_writer_edit_bounds(void **state)
{
    (void)state;
    lowering t;
    lowering_begin(&t, module_a, SITE_DROPPED);
    spvbc_module mod = t.mod;
    assert_int_equal(spvbc_module_lower(mod, NULL, NULL), SPVBC_SUCCESS);
    assert_int_equal(mod->edit_count, 2);
    const spvbc__edit saved = mod->edits[1];
    mod->edits[1].first = (uint32_t)mod->edit_word_count;
    mod->edits[1].count = 0;
    expect_output(mod, &t.want);
    spvbc_module_destroy(mod);

    mod = t.mod = parse(t.ctx, &t.in);
    assert_int_equal(spvbc_module_lower(mod, NULL, NULL), SPVBC_SUCCESS);
    assert_int_equal(mod->edits[1].offset, saved.offset);
    const spvbc__edit insertion = mod->edits[0];
    mod->edits[0].offset = 4; /* the header's last word */
    expect_refused(mod);
    mod->edits[0] = insertion;
    mod->edits[1].remove = UINT32_MAX;
    expect_refused(mod);
    lowering_end(&t);
}

/* Module A parsed with the cap 16, its own bound: lowering needs 18, so nothing is lowered and
 * the one diagnostic says why, at the header's bound word (3) and of no instruction. */
static void test_bound_above_cap(void **state)
{
    (void)state;
    mb in = {NULL, 0, 0};
    module_a(&in, INPUT);
    spvbc_context ctx;
    assert_int_equal(spvbc_context_create(NULL, &ctx), SPVBC_SUCCESS);
    spvbc_parse_options po = SPVBC_PARSE_OPTIONS_INIT;
    po.max_id_bound = 16;
    spvbc_module mod;
    assert_int_equal(spvbc_module_parse(ctx, in.w, in.n, &po, &mod), SPVBC_SUCCESS);
    assert_int_equal(spvbc_module_lower(mod, NULL, NULL), SPVBC_ERROR_UNSUPPORTED);
    assert_int_equal(spvbc_context_diagnostic_count(ctx), 1);
    const spvbc_diagnostic *d = spvbc_context_diagnostic(ctx, 0);
    assert_string_equal(d->rule, "R-LIMIT");
    assert_int_equal(d->severity, SPVBC_SEVERITY_ERROR);
    assert_int_equal(d->word_offset, 3);
    assert_int_equal(d->instruction_index, SPVBC_NO_POSITION);
    assert_int_equal(d->opcode, 0);
    assert_string_equal(d->message, "lowering needs an id bound of 18, above the cap of 16: "
                                    "nothing was lowered (raise max_id_bound / --max-id-bound)");
    expect_words(mod, &in);
    spvbc_module_destroy(mod);
    spvbc_context_destroy(ctx);
    mb_free(&in);
}

/* A Kernel module with float, uint, uint4, float3, float4 (%4-%8), float3 constant %10, the
 * spec constant %11 = uint4 <- %10, then OpConstantNull float3 %12, and in the function
 * %14 = uint4 <- %10, under pad zero.  %12 comes after %11, which cannot use it: a new null %16
 * right after float3, %15 = OpSpecConstantOp %8 VectorShuffle %10 %16 0 1 2 3, %11 =
 * OpSpecConstantOp %6 Bitcast %15; %14 uses %12: %17 = OpVectorShuffle %8 %10 %12 0 1 2 3,
 * %14 = OpBitcast %6 %17. */
static void module_null_after(mb *b, int form)
{
    types_with_float4(b, form, form == INPUT ? 15 : 18, 16);
    MB(b, SpvOpConstant, 4, 9, 0x3f800000u);
    MB(b, SpvOpConstantComposite, 7, 10, 9, 9, 9);
    if (form == INPUT) {
        MB(b, SpvOpSpecConstantOp, 6, 11, SpvOpBitcast, 10);
    } else {
        MB(b, SpvOpSpecConstantOp, 8, 15, SpvOpVectorShuffle, 10, 16, 0, 1, 2, 3);
        MB(b, SpvOpSpecConstantOp, 6, 11, SpvOpBitcast, 15);
    }
    MB(b, SpvOpConstantNull, 7, 12);
    mb_fn_begin(b, 2, 1, 3, 13);
    if (form == INPUT) {
        MB(b, SpvOpBitcast, 6, 14, 10);
    } else {
        MB(b, SpvOpVectorShuffle, 8, 17, 10, 12, 0, 1, 2, 3);
        MB(b, SpvOpBitcast, 6, 14, 17);
    }
    mb_fn_end(b);
}

/* An existing null is used by the sites after it only. */
static void test_existing_null_after_a_site(void **state)
{
    (void)state;
    lowering t;
    lowering_begin(&t, module_null_after, LOWERED);
    const spvbc_lower_options lo = {sizeof(spvbc_lower_options), SPVBC_PAD_ZERO, 0,
                                    SPVBC_GENERATION_NEWEST};
    spvbc_lower_summary ls = SPVBC_LOWER_SUMMARY_INIT;
    assert_int_equal(spvbc_module_lower(t.mod, &lo, &ls), SPVBC_SUCCESS);
    assert_int_equal(ls.rewritten, 2);
    assert_int_equal(ls.constants_added, 1);
    assert_int_equal(ls.types_added, 0);
    expect_output(t.mod, &t.want);
    lowering_end(&t);
}

/* Module A in `form` without its last two instructions (OpReturn, OpFunctionEnd). */
static void module_a_cut(mb *b, int form)
{
    module_a(b, form);
    b->n -= 2;
}

/* Module A cut after %15 (no OpReturn, no OpFunctionEnd: invalid, but it parses) ends in the
 * rewrite: five spans, none empty after it; spirv-val finds the input's fault in the output. */
static void test_module_ending_in_a_rewrite(void **state)
{
    (void)state;
    lowering t;
    lowering_begin(&t, module_a_cut, LOWERED);
    assert_int_equal(spvbc_module_lower(t.mod, NULL, NULL), SPVBC_SUCCESS);
    spans all;
    write_all(t.mod, &t.want, 5, &all);
    char msg[1024], in_msg[1024];
    assert_int_equal(spvval_check(all.got.w, all.got.n, msg, sizeof msg), 0);
    assert_int_equal(spvval_check(t.in.w, t.in.n, in_msg, sizeof in_msg), 0);
    assert_string_equal(msg, in_msg);
    mb_free(&all.got);
    lowering_end(&t);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_generation_below_oldest),
        cmocka_unit_test(test_valid_pair_twice),
        cmocka_unit_test(test_write_stops_at_each_span),
        cmocka_unit_test(test_failed_allocation_ends_lowering),
        cmocka_unit_test(test_writer_edit_bounds),
        cmocka_unit_test(test_bound_above_cap),
        cmocka_unit_test(test_existing_null_after_a_site),
        cmocka_unit_test(test_module_ending_in_a_rewrite),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
