/* Second witnesses (test_witness.c says why) of the edges where a memory bug would hide:
 *   - an allocation that fails while lower adds a site's rewrite, a new type or a null ends the
 *     pass there: no later allocation, no L-LOWERED note for it, the output the input
 *     (unit.test_lower_api is the first);
 *   - the writer refuses an edit list broken each way unit.test_lower_edges and
 *     unit.test_lower_api break one (past the edit buffer or the input, in the header, inside
 *     the words an edit before removes), through get_words and write alike, takes an edit that
 *     emits nothing at the buffer's end, and writes the intact list again; an unchanged module
 *     is written as one span of the input, and a write stopped there says so; adjacent
 *     rewrites and one that ends the module are written without an empty span, a write stops
 *     at each span, and get_words sizes its output exactly and reuses it.
 * Every lowered module here goes through spirv-val.  Modules are built as words.
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
#include "module.h" /* the edit list, for the writer's refusal of a broken one */
#include "spirv_bitcast.h"
#include "test_alloc.h"
#include "test_witness.h"
#include "write_refused.h"

typedef struct spans {
    uint32_t words[256];
    size_t n;
    int calls, stop_at, empty;
} spans;

/* Keeps the spans (up to 256 words), counts them and the empty ones, and stops the write at the
 * stop_at-th (0: never). */
static int keep_span(void *user, const uint32_t *words, size_t count)
{
    spans *k = (spans *)user;
    ++k->calls;
    k->empty += count == 0;
    if (count > 256 - k->n) return 1;
    memcpy(k->words + k->n, words, count * 4);
    k->n += count;
    return k->calls == k->stop_at;
}

/* The module of `b`, parsed in a new context `*ctx` whose allocations `a` counts. */
static spvbc_module parse_counted(const mb *b, test_alloc *a, spvbc_context *ctx)
{
    memset(a, 0, sizeof *a);
    const spvbc_allocator al = test_alloc_allocator(a);
    assert_int_equal(spvbc_context_create(&al, ctx), SPVBC_SUCCESS);
    spvbc_module mod = NULL;
    assert_int_equal(spvbc_module_parse(*ctx, b->w, b->n, NULL, &mod), SPVBC_SUCCESS);
    return mod;
}

/* spvbc_module_get_words() of `mod` succeeds and spirv-val accepts the words. */
static void expect_output_valid(spvbc_module mod)
{
    const uint32_t *out = NULL;
    size_t out_n = 0;
    assert_int_equal(spvbc_module_get_words(mod, &out, &out_n), SPVBC_SUCCESS);
    expect_spirv_val(out, out_n);
}

/* Lowers the module of `b` (whose sites are `rewritten` rewrites) under `pad`, in contexts of
 * the diagnostic policy `policy` (limit 1), with each allocation of the lowering failing in
 * turn: the call ends with OUT_OF_MEMORY, asks for nothing more, leaves no L-LOWERED note and
 * writes the input; with none failing, the output passes spirv-val, and where findings were
 * dropped the last diagnostic is the R-NOT-KEPT note. */
static void lower_under_failures_kept(const mb *b, spvbc_pad_policy pad, uint32_t rewritten,
                                      spvbc_diagnostic_policy policy)
{
    spvbc_lower_options lo = SPVBC_LOWER_OPTIONS_INIT;
    lo.pad = pad;
    for (size_t k = 1;; ++k) {
        test_alloc a;
        spvbc_context ctx;
        spvbc_module mod = parse_counted(b, &a, &ctx);
        assert_int_equal(spvbc_context_set_diagnostic_policy(ctx, policy, 1), SPVBC_SUCCESS);
        const size_t fail_at = a.calls + k;
        a.fail_at = fail_at;
        spvbc_lower_summary ls = SPVBC_LOWER_SUMMARY_INIT;
        const spvbc_result r = spvbc_module_lower(mod, &lo, &ls);
        const int failed = a.triggered;
        const size_t calls = a.calls;
        a.fail_at = 0;
        if (!failed) {
            assert_int_equal(r, SPVBC_SUCCESS);
            assert_int_equal(ls.rewritten, rewritten);
            const size_t n = spvbc_context_diagnostic_count(ctx);
            if (policy != SPVBC_DIAGNOSTIC_POLICY_KEEP_ALL) /* the last says what was dropped */
                assert_string_equal(spvbc_context_diagnostic(ctx, n - 1)->rule, "R-NOT-KEPT");
            expect_output_valid(mod);
            spvbc_module_destroy(mod);
            spvbc_context_destroy(ctx);
            break;
        }
        if (r != SPVBC_ERROR_OUT_OF_MEMORY)
            fail_msg("allocation %zu of lower failed, it returned %s", k, spvbc_result_string(r));
        if (calls != fail_at)
            fail_msg("allocation %zu of lower failed, %zu more were asked for", k, calls - fail_at);
        for (size_t i = 0; i < spvbc_context_diagnostic_count(ctx); ++i)
            if (strcmp(spvbc_context_diagnostic(ctx, i)->rule, "L-LOWERED") == 0)
                fail_msg("allocation %zu of lower failed, yet a site is reported lowered", k);
        const uint32_t *out = NULL;
        size_t out_n = 0;
        assert_int_equal(spvbc_module_get_words(mod, &out, &out_n), SPVBC_SUCCESS);
        assert_int_equal(out_n, b->n);
        assert_memory_equal(out, b->w, b->n * 4);
        spvbc_module_destroy(mod);
        spvbc_context_destroy(ctx);
        assert_int_equal(a.live_blocks, 0);
    }
}

/* lower_under_failures_kept() keeping every finding. */
static void lower_under_failures(const mb *b, spvbc_pad_policy pad, uint32_t rewritten)
{
    lower_under_failures_kept(b, pad, rewritten, SPVBC_DIAGNOSTIC_POLICY_KEEP_ALL);
}

/* Two sites of one pair each, lowered under each allocation failure (lower_under_failures):
 * float4 -> float3 (a shuffle each, no new type: the first edit, and the first allocation of
 * the edit list, is a site's rewrite; unit.test_lower_api is the first witness), float4 -> int3
 * (a new int4 inserted first), float3 -> int4 under pad zero (a new float4 and its null), and
 * float4 -> int4, valid (the second site a hit of the valid pairs' memo: nothing rewritten);
 * then float3 -> int4 twice under pad zero where float4 is declared (the null the first
 * addition), and float4 -> float3 twice in contexts that keep one finding or none. */
void test_lower_stops_at_failed_rewrite(void **state)
{
    (void)state;
    const struct {
        spvbc_type_desc src, dst;
        spvbc_pad_policy pad;
        uint32_t rewritten;
    } cases[] = {
        {sm_desc(SPVBC_SCALAR_FLOAT, 32, 4), sm_desc(SPVBC_SCALAR_FLOAT, 32, 3), SPVBC_PAD_UNDEF,
         2},
        {sm_desc(SPVBC_SCALAR_FLOAT, 32, 4), sm_desc(SPVBC_SCALAR_INT, 32, 3), SPVBC_PAD_UNDEF, 2},
        {sm_desc(SPVBC_SCALAR_FLOAT, 32, 3), sm_desc(SPVBC_SCALAR_INT, 32, 4), SPVBC_PAD_ZERO, 2},
        {sm_desc(SPVBC_SCALAR_FLOAT, 32, 4), sm_desc(SPVBC_SCALAR_INT, 32, 4), SPVBC_PAD_UNDEF, 0},
    };
    mb b = {NULL, 0, 0};
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; ++c) {
        sm_cast_module(&b, 0, 0x00010000u, cases[c].src, cases[c].dst, 2);
        lower_under_failures(&b, cases[c].pad, cases[c].rewritten);
    }
    /* float3 -> int4 twice under pad zero after a valid float4 -> int4: float4 is declared, so
     * the null float3 is the first thing added, and a failure there stops the lowering before
     * the second site (unit.test_lower_api is the first witness) */
    const spvbc_type_desc f4 = sm_desc(SPVBC_SCALAR_FLOAT, 32, 4),
                          f3 = sm_desc(SPVBC_SCALAR_FLOAT, 32, 3),
                          i4 = sm_desc(SPVBC_SCALAR_INT, 32, 4);
    const spvbc_type_desc pairs[3][2] = {{f4, i4}, {f3, i4}, {f3, i4}};
    sm s;
    sm_init(&s, 0, 0x00010000u);
    sm_casts(&s, pairs, 3);
    sm_finish(&s, &b);
    lower_under_failures(&b, SPVBC_PAD_ZERO, 2);
    /* two float4 -> float3 sites where the context keeps the first finding only, or none: the
     * note that says how many were not kept is the last allocation (unit.test_lower_api is the
     * first witness) */
    sm_cast_module(&b, 0, 0x00010000u, f4, f3, 2);
    lower_under_failures_kept(&b, SPVBC_PAD_UNDEF, 2, SPVBC_DIAGNOSTIC_POLICY_KEEP_FIRST);
    lower_under_failures_kept(&b, SPVBC_PAD_UNDEF, 2, SPVBC_DIAGNOSTIC_POLICY_COUNT_ONLY);
    mb_free(&b);
}

/* The edit list of `mod` broken one way: `i` in 0..5 the ways refused, -1 the way accepted (an
 * edit that emits nothing, its words starting at the end of the edit buffer).  The first edit
 * is the new int4's insertion, the next two the two sites' rewrites. */
static void break_edits(spvbc_module mod, int i)
{
    spvbc__edit *last = &mod->edits[mod->edit_count - 1], *prev = last - 1;
    switch (i) {
    case 0: last->count = mod->edit_word_count - last->first + 1; break; /* past the buffer */
    case 1: last->remove = UINT32_MAX; break; /* more than the output's size */
    case 2: last->remove = (uint32_t)(mod->word_count - last->offset + 1); break; /* the end */
    case 3: mod->edits[0].offset = 4; break; /* the header's last word */
    case 4: last->offset = prev->offset + 1; break; /* inside the words prev removes */
    case 5: last->first = mod->edit_word_count + 1; break; /* words past the buffer */
    default:
        last->first = mod->edit_word_count;
        last->count = 0;
        break;
    }
}

/* The same two float4 -> int3 sites lowered, then the edit list broken each way of
 * break_edits(): write and get_words refuse every way but the last, which write takes; the
 * intact list is then written (a write stopped at its first span, the header, says so), and
 * spirv-val accepts it. */
void test_writer_refuses_broken_edit_lists(void **state)
{
    (void)state;
    mb b = {NULL, 0, 0};
    sm_cast_module(&b, 0, 0x00010000u, sm_desc(SPVBC_SCALAR_FLOAT, 32, 4),
                   sm_desc(SPVBC_SCALAR_INT, 32, 3), 2);
    spvbc_context ctx;
    spvbc_module mod = parse_fresh(&b, NULL, &ctx);
    assert_int_equal(spvbc_module_lower(mod, NULL, NULL), SPVBC_SUCCESS);
    assert_int_equal(mod->edit_count, 3);
    assert_int_equal(mod->edits[0].remove, 0);
    assert_true(mod->edits[1].remove > 1 && mod->edits[2].first > 0);
    spvbc__edit saved[3];
    memcpy(saved, mod->edits, sizeof saved);
    for (int i = -1; i < 6; ++i) {
        memcpy(mod->edits, saved, sizeof saved);
        break_edits(mod, i);
        if (i >= 0) {
            expect_write_refused(mod);
        } else {
            int calls = 0;
            assert_int_equal(spvbc_module_write(mod, count_spans, &calls), SPVBC_SUCCESS);
        }
    }
    memcpy(mod->edits, saved, sizeof saved);
    spans all = {{0}, 0, 0, 0, 0};
    assert_int_equal(spvbc_module_write(mod, keep_span, &all), SPVBC_SUCCESS);
    assert_true(all.calls > 1);
    spans header = {{0}, 0, 0, 1, 0}; /* stopped at the header, its first span */
    assert_int_equal(spvbc_module_write(mod, keep_span, &header), SPVBC_ERROR_STOPPED);
    assert_int_equal(header.calls, 1);
    expect_output_valid(mod);
    spvbc_module_destroy(mod);
    spvbc_context_destroy(ctx);
    mb_free(&b);
}

/* A module with nothing to lower (a float4 -> int4 bitcast), lowered: write passes the input
 * as one span, and a callback that stops at it gets SPVBC_ERROR_STOPPED. */
void test_write_unchanged_module(void **state)
{
    (void)state;
    mb b = {NULL, 0, 0};
    sm_cast_module(&b, 0, 0x00010000u, sm_desc(SPVBC_SCALAR_FLOAT, 32, 4),
                   sm_desc(SPVBC_SCALAR_INT, 32, 4), 1);
    assert_true(b.n <= 256);
    spvbc_context ctx;
    spvbc_module mod = parse_fresh(&b, NULL, &ctx);
    spvbc_lower_summary ls = SPVBC_LOWER_SUMMARY_INIT;
    assert_int_equal(spvbc_module_lower(mod, NULL, &ls), SPVBC_SUCCESS);
    assert_int_equal(ls.rewritten, 0);
    spans k = {{0}, 0, 0, 0, 0};
    assert_int_equal(spvbc_module_write(mod, keep_span, &k), SPVBC_SUCCESS);
    assert_int_equal(k.calls, 1);
    assert_int_equal(k.n, b.n);
    assert_memory_equal(k.words, b.w, b.n * 4);
    spans stop = {{0}, 0, 0, 1, 0};
    assert_int_equal(spvbc_module_write(mod, keep_span, &stop), SPVBC_ERROR_STOPPED);
    assert_int_equal(stop.calls, 1);
    spvbc_module_destroy(mod);
    spvbc_context_destroy(ctx);
    mb_free(&b);
}

void spec_bitcasts_module(mb *b, uint32_t n)
{
    enum { FLOAT = 1, V4, V3, ONE, C4, R };
    mb_header(b, 0x00010200u, R + n);
    MB(b, SpvOpCapability, SpvCapabilityAddresses);
    MB(b, SpvOpCapability, SpvCapabilityLinkage);
    MB(b, SpvOpCapability, SpvCapabilityKernel);
    MB(b, SpvOpMemoryModel, SpvAddressingModelPhysical64, SpvMemoryModelOpenCL);
    MB(b, SpvOpTypeFloat, FLOAT, 32);
    MB(b, SpvOpTypeVector, V4, FLOAT, 4);
    MB(b, SpvOpTypeVector, V3, FLOAT, 3);
    MB(b, SpvOpSpecConstant, FLOAT, ONE, 0x3f800000u);
    MB(b, SpvOpSpecConstantComposite, V4, C4, ONE, ONE, ONE, ONE);
    for (uint32_t i = 0; i < n; ++i)
        MB(b, SpvOpSpecConstantOp, V3, R + i, SpvOpBitcast, C4);
}

/* spec_bitcasts_module(&b, 2): the two OpSpecConstantOp Bitcasts' rewrites are adjacent and
 * the second ends the module.
 * write passes no empty span and its spans are get_words' output; a write stopped at each span
 * in turn gets exactly that many calls; get_words allocates the output once, of its size, and
 * after the module is lowered again makes it in the same buffer; spirv-val accepts it. */
void test_write_spans_adjacent_and_last(void **state)
{
    (void)state;
    mb b = {NULL, 0, 0};
    spec_bitcasts_module(&b, 2);
    test_alloc a;
    spvbc_context ctx;
    spvbc_module mod = parse_counted(&b, &a, &ctx);
    spvbc_lower_summary ls = SPVBC_LOWER_SUMMARY_INIT;
    assert_int_equal(spvbc_module_lower(mod, NULL, &ls), SPVBC_SUCCESS);
    assert_int_equal(ls.rewritten, 2);
    spans all = {{0}, 0, 0, 0, 0};
    assert_int_equal(spvbc_module_write(mod, keep_span, &all), SPVBC_SUCCESS);
    assert_int_equal(all.empty, 0);
    for (int k = 1; k <= all.calls; ++k) {
        spans some = {{0}, 0, 0, k, 0};
        assert_int_equal(spvbc_module_write(mod, keep_span, &some), SPVBC_ERROR_STOPPED);
        assert_int_equal(some.calls, k);
    }
    const size_t calls = a.calls, live = a.live_bytes;
    const uint32_t *out = NULL;
    size_t out_n = 0;
    assert_int_equal(spvbc_module_get_words(mod, &out, &out_n), SPVBC_SUCCESS);
    assert_int_equal(a.calls, calls + 1);
    assert_int_equal(a.live_bytes, live + out_n * 4);
    assert_int_equal(out_n, all.n);
    assert_memory_equal(out, all.words, out_n * 4);
    expect_spirv_val(out, out_n);
    assert_int_equal(spvbc_module_lower(mod, NULL, NULL), SPVBC_SUCCESS);
    const size_t again = a.calls;
    assert_int_equal(spvbc_module_get_words(mod, &out, &out_n), SPVBC_SUCCESS);
    assert_int_equal(a.calls, again);
    assert_memory_equal(out, all.words, out_n * 4);
    spvbc_module_destroy(mod);
    spvbc_context_destroy(ctx);
    assert_int_equal(a.live_blocks, 0);
    mb_free(&b);
}

/* 15, 16, 17 and 32 float4 -> float3 sites lowered in guarded_context(), whose blocks end right
 * before an unreadable page: at 16 and 32 the edit list (24-byte entries) is exactly full, and
 * the check that its edits came in order reads none past the last.  Every site is rewritten and
 * the output passes spirv-val.  (No test caught a loosened bound of that check before.) */
void test_lower_full_edit_list_at_a_page(void **state)
{
    (void)state;
    if (guard_pages_missing()) skip();
    const size_t counts[] = {15, 16, 17, 32};
    mb b = {NULL, 0, 0};
    for (size_t k = 0; k < sizeof counts / sizeof *counts; ++k) {
        sm_cast_module(&b, 0, 0x00010000u, sm_desc(SPVBC_SCALAR_FLOAT, 32, 4),
                       sm_desc(SPVBC_SCALAR_FLOAT, 32, 3), counts[k]);
        spvbc_context ctx = guarded_context();
        spvbc_module mod = NULL;
        assert_int_equal(spvbc_module_parse(ctx, b.w, b.n, NULL, &mod), SPVBC_SUCCESS);
        spvbc_lower_summary ls = SPVBC_LOWER_SUMMARY_INIT;
        assert_int_equal(spvbc_module_lower(mod, NULL, &ls), SPVBC_SUCCESS);
        assert_int_equal(ls.rewritten, counts[k]);
        expect_output_valid(mod);
        spvbc_module_destroy(mod);
        spvbc_context_destroy(ctx);
    }
    mb_free(&b);
}

/* The lowering of `b` in a context whose parse caps the bound at `cap` (0: the default): its
 * result, the new bound in `*bound` and the output through spirv-val when it succeeds. */
static spvbc_result lower_capped(const mb *b, uint32_t cap, size_t *bound, size_t *added)
{
    spvbc_context ctx;
    assert_int_equal(spvbc_context_create(NULL, &ctx), SPVBC_SUCCESS);
    spvbc_parse_options po = SPVBC_PARSE_OPTIONS_INIT;
    if (cap) po.max_id_bound = cap;
    spvbc_module mod = NULL;
    assert_int_equal(spvbc_module_parse(ctx, b->w, b->n, &po, &mod), SPVBC_SUCCESS);
    spvbc_lower_summary ls = SPVBC_LOWER_SUMMARY_INIT;
    const spvbc_result r = spvbc_module_lower(mod, NULL, &ls);
    *bound = ls.new_id_bound;
    *added = ls.types_added;
    if (r == SPVBC_SUCCESS) {
        expect_output_valid(mod);
    }
    spvbc_module_destroy(mod);
    spvbc_context_destroy(ctx);
    return r;
}

/* as_float3(short8) then as_short3(int2) in a Kernel module: each inserts a 4-component vector
 * (float4 after float, short4 after short), the second's before the first's in the module though
 * made after it, so the edits are sorted by offset before they are written (lit's
 * lower/edit_order is the first witness); the output passes spirv-val.  The bound the lowering
 * needs is allowed as the parse's cap and refused one below it (unit.malformed is the first
 * witness); no module is no lowering. */
void test_lower_sorted_edits_and_cap(void **state)
{
    (void)state;
    const spvbc_type_desc pairs[2][2] = {
        {sm_desc(SPVBC_SCALAR_INT, 16, 8), sm_desc(SPVBC_SCALAR_FLOAT, 32, 3)},
        {sm_desc(SPVBC_SCALAR_INT, 32, 2), sm_desc(SPVBC_SCALAR_INT, 16, 3)}};
    sm s;
    sm_init(&s, 0, 0x00010000u);
    sm_casts(&s, pairs, 2);
    mb b = {NULL, 0, 0};
    sm_finish(&s, &b);
    size_t bound = 0, added = 0;
    assert_int_equal(lower_capped(&b, 0, &bound, &added), SPVBC_SUCCESS);
    assert_int_equal(added, 2);
    assert_true(bound > b.w[3]);
    assert_int_equal(lower_capped(&b, (uint32_t)bound, &bound, &added), SPVBC_SUCCESS);
    assert_int_equal(lower_capped(&b, (uint32_t)bound - 1, &bound, &added),
                     SPVBC_ERROR_UNSUPPORTED);
    assert_int_equal(spvbc_module_lower(NULL, NULL, NULL), SPVBC_ERROR_INVALID_ARGUMENT);
    mb_free(&b);
}
