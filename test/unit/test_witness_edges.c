/* Second witnesses (test_witness.c says why) of the edges where a memory bug would hide:
 *   - the scan of a short module reads nothing past its last word (the module's words end
 *     where an unreadable page begins; unit.test_scan's sweep is the first witness);
 *   - an allocation that fails while lower adds a site's rewrite ends the pass there: no later
 *     allocation, no L-LOWERED note for it, the output the input (unit.test_lower_api is the
 *     first);
 *   - the writer refuses an edit list whose last edit emits past the edit buffer, through
 *     get_words and write alike, and writes the intact list again (unit.test_lower_edges is
 *     the first).
 * The one lowered module here goes through spirv-val.  Modules are built as words.
 *
 * SPDX-License-Identifier: Apache-2.0
 */
#define _DEFAULT_SOURCE /* MAP_ANONYMOUS */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#if defined(__unix__) || defined(__APPLE__)
#include <sys/mman.h>
#include <unistd.h>
#define HAVE_GUARD_PAGE 1
#endif

#include "modbuild.h"
#include "module.h" /* the edit list, for the writer's refusal of a broken one */
#include "spirv_bitcast.h"
#include "test_alloc.h"
#include "test_witness.h"

/* Every prefix of 5 to 40 words of a small module with a lowerable site (a float4 -> int3
 * bitcast), scanned with its last word right before an unreadable page: the scan answers
 * without reading past it (a read past it ends the program).  The whole module, at the page's
 * end too, is "maybe". */
void test_scan_short_modules_at_a_page(void **state)
{
    (void)state;
#ifndef HAVE_GUARD_PAGE
    skip(); /* no mmap here: the scan's reads are watched by the sanitizer build instead */
#else
    const size_t page = (size_t)sysconf(_SC_PAGESIZE);
    uint8_t *map =
        (uint8_t *)mmap(NULL, 2 * page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    assert_true(map != MAP_FAILED);
    assert_int_equal(mprotect(map + page, page, PROT_NONE), 0);
    mb b = {NULL, 0, 0};
    sm_cast_module(&b, 0, 0x00010000u, sm_desc(SPVBC_SCALAR_FLOAT, 32, 4),
                   sm_desc(SPVBC_SCALAR_INT, 32, 3), 1);
    assert_true(b.n > 40);
    spvbc_context ctx;
    assert_int_equal(spvbc_context_create(NULL, &ctx), SPVBC_SUCCESS);
    for (size_t n = 5; n <= 40; ++n) {
        uint32_t *at = (uint32_t *)(map + page - n * 4);
        memcpy(at, b.w, n * 4);
        spvbc_bool maybe = 2;
        assert_int_equal(spvbc_bytes_scan_lowerable(ctx, at, n * 4, &maybe), SPVBC_SUCCESS);
        assert_true(maybe == 0 || maybe == 1);
    }
    uint32_t *whole = (uint32_t *)(map + page - b.n * 4);
    assert_true(b.n * 4 <= page);
    memcpy(whole, b.w, b.n * 4);
    spvbc_bool maybe = 2;
    assert_int_equal(spvbc_bytes_scan_lowerable(ctx, whole, b.n * 4, &maybe), SPVBC_SUCCESS);
    assert_int_equal(maybe, 1);
    spvbc_context_destroy(ctx);
    mb_free(&b);
    munmap(map, 2 * page);
#endif
}

static int count_spans(void *user, const uint32_t *words, size_t count)
{
    (void)words;
    (void)count;
    ++*(int *)user;
    return 0;
}

/* The module of `b`, parsed in `ctx`. */
static spvbc_module parse_in(spvbc_context ctx, const mb *b)
{
    spvbc_module mod = NULL;
    assert_int_equal(spvbc_module_parse(ctx, b->w, b->n, NULL, &mod), SPVBC_SUCCESS);
    return mod;
}

/* Two float4 -> float3 sites (a shuffle each, no new type: the first edit, and the first
 * allocation of the edit list, is a site's rewrite): each allocation of the lowering failing
 * in turn ends the call with OUT_OF_MEMORY, asks for nothing more, leaves no L-LOWERED note and
 * writes the input. */
void test_lower_stops_at_failed_rewrite(void **state)
{
    (void)state;
    mb b = {NULL, 0, 0};
    sm_cast_module(&b, 0, 0x00010000u, sm_desc(SPVBC_SCALAR_FLOAT, 32, 4),
                   sm_desc(SPVBC_SCALAR_FLOAT, 32, 3), 2);
    for (size_t k = 1;; ++k) {
        test_alloc a;
        memset(&a, 0, sizeof a);
        const spvbc_allocator al = test_alloc_allocator(&a);
        spvbc_context ctx;
        assert_int_equal(spvbc_context_create(&al, &ctx), SPVBC_SUCCESS);
        spvbc_module mod = parse_in(ctx, &b);
        const size_t fail_at = a.calls + k;
        a.fail_at = fail_at;
        spvbc_lower_summary ls = SPVBC_LOWER_SUMMARY_INIT;
        const spvbc_result r = spvbc_module_lower(mod, NULL, &ls);
        const int failed = a.triggered;
        const size_t calls = a.calls;
        a.fail_at = 0;
        if (!failed) {
            assert_int_equal(r, SPVBC_SUCCESS);
            assert_int_equal(ls.rewritten, 2);
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
        assert_int_equal(out_n, b.n);
        assert_memory_equal(out, b.w, b.n * 4);
        spvbc_module_destroy(mod);
        spvbc_context_destroy(ctx);
        assert_int_equal(a.live_blocks, 0);
    }
    mb_free(&b);
}

/* Whether write and get_words both refuse the edit list of `mod` (UNSUPPORTED, no span passed,
 * out-parameters untouched). */
static void expect_refused(spvbc_module mod)
{
    int spans = 0;
    assert_int_equal(spvbc_module_write(mod, count_spans, &spans), SPVBC_ERROR_UNSUPPORTED);
    assert_int_equal(spans, 0);
    const uint32_t *out = (const uint32_t *)&spans;
    size_t out_n = 12345;
    assert_int_equal(spvbc_module_get_words(mod, &out, &out_n), SPVBC_ERROR_UNSUPPORTED);
    assert_ptr_equal(out, (const uint32_t *)&spans);
    assert_int_equal(out_n, 12345);
}

/* The same two sites lowered, then the last edit made to emit one word past the edit buffer,
 * or to remove 2^32 - 1 words (past the input's end, and more than the output's size, which
 * get_words must not take for one to allocate): write and get_words refuse both; the intact
 * list is then written, and spirv-val accepts it. */
void test_writer_refuses_edit_past_buffer(void **state)
{
    (void)state;
    mb b = {NULL, 0, 0};
    sm_cast_module(&b, 0, 0x00010000u, sm_desc(SPVBC_SCALAR_FLOAT, 32, 4),
                   sm_desc(SPVBC_SCALAR_INT, 32, 3), 2);
    spvbc_context ctx;
    assert_int_equal(spvbc_context_create(NULL, &ctx), SPVBC_SUCCESS);
    spvbc_module mod = parse_in(ctx, &b);
    assert_int_equal(spvbc_module_lower(mod, NULL, NULL), SPVBC_SUCCESS);
    assert_true(mod->edit_count >= 2);
    spvbc__edit *last = &mod->edits[mod->edit_count - 1];
    assert_true(last->first > 0); /* words of another edit come before its own */
    const spvbc__edit saved = *last;
    last->count = mod->edit_word_count - last->first + 1;
    expect_refused(mod);
    *last = saved;
    last->remove = UINT32_MAX;
    expect_refused(mod);

    *last = saved;
    int spans = 0;
    const uint32_t *out = NULL;
    size_t out_n = 0;
    assert_int_equal(spvbc_module_write(mod, count_spans, &spans), SPVBC_SUCCESS);
    assert_true(spans > 0);
    assert_int_equal(spvbc_module_get_words(mod, &out, &out_n), SPVBC_SUCCESS);
    expect_spirv_val(out, out_n);
    spvbc_module_destroy(mod);
    spvbc_context_destroy(ctx);
    mb_free(&b);
}
