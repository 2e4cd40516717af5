/* Second witnesses (test_witness.c says why) of source/scan.c, every module scanned with its
 * last word right before an unreadable page (where there is mmap), so that a step reading past
 * it ends the program:
 *   - every prefix of 5 to 40 words of a small module with a lowerable site reads nothing past
 *     its last word (unit.test_scan's sweep is the first witness);
 *   - the second pass, which looks for a bitcast operand defined as a value of a 3-component vector
 * type (its id right after the type's) sixteen, eight and one word at a time (unit.test_scan
 * again): a float3 value bitcast to a float4 is "maybe" wherever its definition falls, after 0 to
 * 40 OpNops, with 1 to 8 distinct 3-component vector types declared and the operand's the last of
 * them, and 0 to 3 float3 values that no bitcast reads after the site; the same module with a
 * float4 operand is "no"; so are the module's prefixes from the OpUndef on, but for those that cut
 * the bitcast short (no bitcast: "no"). Modules are built as words.
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
#include "spirv_bitcast.h"
#include "test_witness.h"

/* A Kernel module (bound 40): %4 float, `types` 3-component vectors of it %20, %21, ..., %6 a
 * float4, a void() function %1 whose body is `nops` OpNops, %8 = OpUndef (the last float3 when
 * `vec3`, else the float4), `after` OpNops, %9 = OpBitcast float4 %8, then `tail` float3 values
 * no bitcast reads (%10, ...).  Sets `*undef` to the OpUndef's offset and returns the word count
 * up to the bitcast's end. */
static size_t operand_module(mb *b, uint32_t types, uint32_t nops, uint32_t after, uint32_t tail,
                             int vec3, size_t *undef)
{
    mb_kernel_head(b, 0x00010000u, 40, 1);
    MB(b, SpvOpTypeFloat, 4, 32);
    for (uint32_t k = 0; k < types; ++k)
        MB(b, SpvOpTypeVector, 20 + k, 4, 3);
    MB(b, SpvOpTypeVector, 6, 4, 4);
    mb_void_fn_type(b, 2, 3);
    mb_fn_begin(b, 2, 1, 3, 7);
    for (uint32_t k = 0; k < nops; ++k)
        mb_op0(b, SpvOpNop);
    *undef = MB(b, SpvOpUndef, vec3 ? 20 + types - 1 : 6, 8);
    for (uint32_t k = 0; k < after; ++k)
        mb_op0(b, SpvOpNop);
    MB(b, SpvOpBitcast, 6, 9, 8);
    const size_t end = b->n;
    for (uint32_t k = 0; k < tail; ++k)
        MB(b, SpvOpUndef, 20, 10 + k);
    mb_fn_end(b);
    return end;
}

/* Two pages, the second unreadable (where there is mmap; else `map` is NULL). */
typedef struct {
    uint8_t *map;
    size_t page;
} guard_page;

static guard_page guard_open(void)
{
    guard_page g = {NULL, 0};
#ifdef HAVE_GUARD_PAGE
    g.page = (size_t)sysconf(_SC_PAGESIZE);
    void *map = mmap(NULL, 2 * g.page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    assert_true(map != MAP_FAILED);
    g.map = (uint8_t *)map;
    assert_int_equal(mprotect(g.map + g.page, g.page, PROT_NONE), 0);
#endif
    return g;
}

static void guard_close(guard_page *g)
{
#ifdef HAVE_GUARD_PAGE
    munmap(g->map, 2 * g->page);
#endif
    g->map = NULL;
}

/* The scan's answer on the first `n` words of `b`, copied to the end of `g`'s readable page if
 * there is one. */
static spvbc_bool scan_prefix(spvbc_context ctx, const mb *b, size_t n, const guard_page *g)
{
    const uint32_t *words = b->w;
    if (g->map) {
        assert_true(n * 4 <= g->page);
        words = (const uint32_t *)memcpy(g->map + g->page - n * 4, b->w, n * 4);
    }
    spvbc_bool maybe = 2;
    assert_int_equal(spvbc_bytes_scan_lowerable(ctx, words, n * 4, &maybe), SPVBC_SUCCESS);
    return maybe;
}

/* Every prefix of 5 to 40 words of a small module with a lowerable site (a float4 -> int3
 * bitcast): the scan answers without reading past it.  The whole module is "maybe". */
void test_scan_short_modules_at_a_page(void **state)
{
    (void)state;
    guard_page g = guard_open();
    if (!g.map) skip(); /* no mmap here: the scan's reads are watched by the sanitizer build */
    mb b = {NULL, 0, 0};
    sm_cast_module(&b, 0, 0x00010000u, sm_desc(SPVBC_SCALAR_FLOAT, 32, 4),
                   sm_desc(SPVBC_SCALAR_INT, 32, 3), 1);
    assert_true(b.n > 40);
    spvbc_context ctx;
    assert_int_equal(spvbc_context_create(NULL, &ctx), SPVBC_SUCCESS);
    for (size_t n = 5; n <= 40; ++n) {
        const spvbc_bool maybe = scan_prefix(ctx, &b, n, &g);
        assert_true(maybe == 0 || maybe == 1);
    }
    assert_int_equal(scan_prefix(ctx, &b, b.n, &g), 1);
    spvbc_context_destroy(ctx);
    mb_free(&b);
    guard_close(&g);
}

void test_scan_vec3_operand_at_each_offset(void **state)
{
    (void)state;
    spvbc_context ctx;
    assert_int_equal(spvbc_context_create(NULL, &ctx), SPVBC_SUCCESS);
    mb b = {NULL, 0, 0};
    guard_page g = guard_open();
    /* every combination of 1-8 float3 types, 0-40 OpNops, 0-3 after, 0-3 tail values, and a
     * float4 or float3 operand */
    for (uint32_t c = 0; c < 8u * 41u * 4u * 4u * 2u; ++c) {
        const uint32_t types = 1 + c % 8u, nops = c / 8u % 41u, after = c / 328u % 4u,
                       tail = c / 1312u % 4u;
        const int vec3 = (int)(c / 5248u);
        size_t undef = 0;
        const size_t end = operand_module(&b, types, nops, after, tail, vec3, &undef);
        /* the whole module, then every prefix from the OpUndef on: a bitcast cut short is no
         * bitcast */
        for (size_t n = b.n; n > undef; --n) {
            const spvbc_bool maybe = scan_prefix(ctx, &b, n, &g);
            if (maybe != (n >= end ? vec3 : 0))
                fail_msg("%u float3 types, %u OpNops, %u after, %u float3 values after the "
                         "site, a %s operand, %zu of %zu words: %d",
                         types, nops, after, tail, vec3 ? "float3" : "float4", n, b.n, (int)maybe);
        }
    }
    spvbc_context_destroy(ctx);
    mb_free(&b);
    guard_close(&g);
}

/* NULL for the answer, or no bytes but a size, is refused; no bytes and no size is "maybe" (no
 * header to answer from) (unit.test_api is the first witness). */
void test_scan_arguments(void **state)
{
    (void)state;
    spvbc_context ctx;
    assert_int_equal(spvbc_context_create(NULL, &ctx), SPVBC_SUCCESS);
    const uint32_t header[5] = {SpvMagicNumber, 0x00010000u, 0, 8, 0};
    spvbc_bool maybe = 2;
    assert_int_equal(spvbc_bytes_scan_lowerable(ctx, header, sizeof header, NULL),
                     SPVBC_ERROR_INVALID_ARGUMENT);
    assert_int_equal(spvbc_bytes_scan_lowerable(ctx, NULL, 20, &maybe),
                     SPVBC_ERROR_INVALID_ARGUMENT);
    assert_int_equal(maybe, 2);
    assert_int_equal(spvbc_bytes_scan_lowerable(ctx, NULL, 0, &maybe), SPVBC_SUCCESS);
    assert_int_equal(maybe, 1);
    spvbc_context_destroy(ctx);
}

/* A Kernel module of bound `bound` (64, 128 or 32768: the bit sets end at a 64-bit word) whose
 * float3 %5 is the result type of the only bitcast, %7, of the operand `operand`, and whose
 * %8 = OpBitcast `rtype` %6 (a float3 value): an id at the bound is no bitcast of a module that
 * parses, so the scan says "no" (unit.test_lower_edges is the first witness).  Then
 * scan_bound_after_vec3(). */
static void bitcast_ids_module(mb *b, uint32_t bound, uint32_t operand, uint32_t rtype)
{
    mb_kernel_head(b, 0x00010000u, bound, 1);
    MB(b, SpvOpTypeFloat, 4, 32);
    MB(b, SpvOpTypeVector, 5, 4, 3);
    mb_void_fn_type(b, 2, 3);
    mb_fn_begin(b, 2, 1, 3, 9);
    MB(b, SpvOpUndef, 5, 6);
    MB(b, SpvOpBitcast, 5, 7, operand);
    MB(b, SpvOpBitcast, rtype, 8, 6);
    mb_fn_end(b);
}

/* With a bound above the scan's stack sets (32,832: 513 64-bit words each, from the context),
 * a word equal to the bound right after a float3 type's id is no operand, and its bit is not
 * read: the sets end right before an unreadable page (guarded_context()). */
static void scan_bound_after_vec3(const guard_page *g)
{
    spvbc_context ctx = guarded_context();
    if (!ctx) return;
    const uint32_t bound = 32768 + 64;
    mb b = {NULL, 0, 0};
    mb_kernel_head(&b, 0x00010000u, bound, 1);
    MB(&b, SpvOpTypeFloat, 4, 32);
    MB(&b, SpvOpTypeVector, 5, 4, 3);
    MB(&b, SpvOpTypeVector, 6, 4, 4);
    mb_void_fn_type(&b, 2, 3);
    mb_fn_begin(&b, 2, 1, 3, 9);
    MB(&b, SpvOpUndef, 6, 7);
    MB(&b, SpvOpBitcast, 6, 8, 7);
    MB(&b, SpvOpUndef, 5, bound);
    mb_fn_end(&b);
    assert_int_equal(scan_prefix(ctx, &b, b.n, g), 0);
    mb_free(&b);
    spvbc_context_destroy(ctx);
}

void test_scan_ids_at_the_bound(void **state)
{
    (void)state;
    spvbc_context ctx;
    assert_int_equal(spvbc_context_create(NULL, &ctx), SPVBC_SUCCESS);
    guard_page g = guard_open();
    mb b = {NULL, 0, 0};
    const uint32_t bounds[3] = {64, 128, 32768};
    for (int k = 0; k < 3; ++k) {
        bitcast_ids_module(&b, bounds[k], bounds[k], bounds[k]);
        assert_int_equal(scan_prefix(ctx, &b, b.n, &g), 0);
        bitcast_ids_module(&b, bounds[k], 6, bounds[k]); /* a float3 operand: "maybe" */
        assert_int_equal(scan_prefix(ctx, &b, b.n, &g), 1);
    }
    scan_bound_after_vec3(&g);
    mb_free(&b);
    guard_close(&g);
    spvbc_context_destroy(ctx);
}

/* The 3-component types of one scan are not those of the next: a module of eight float3 types
 * (%20 to %27) is scanned, then one of `n` (1 to 7) whose float4 takes the id %20 + n, the
 * (n + 1)-th float3 of the first; a value of that float4 bitcast to a float4 after 0 to 24
 * OpNops (each place of the widest step, and the scan's narrower tails) is "no", and a value of
 * its last float3 "maybe", whether the value is defined before the bitcast or (invalid, but the
 * scan reads words, not order) after it, in the module's last words that the narrowest step
 * reads (unit.test_scan's stale types are the first witness). */
void test_scan_types_of_the_last_scan(void **state)
{
    (void)state;
    spvbc_context ctx;
    assert_int_equal(spvbc_context_create(NULL, &ctx), SPVBC_SUCCESS);
    guard_page g = guard_open();
    mb first = {NULL, 0, 0}, b = {NULL, 0, 0};
    size_t undef = 0;
    for (uint32_t n = 1; n <= 7; ++n)
        for (uint32_t c = 0; c < 25u * 4u; ++c) {
            const uint32_t nops = c % 25u;
            const int vec3 = (int)(c / 25u % 2u), late = (int)(c / 50u);
            /* eight float3 types and a float4 operand: the second pass runs, "no"; both
             * modules are built first, so that nothing runs between the two scans */
            operand_module(&first, 8, nops, 0, 0, 0, &undef);
            b.n = 0;
            mb_kernel_head(&b, 0x00010000u, 40, 1);
            MB(&b, SpvOpTypeFloat, 4, 32);
            for (uint32_t k = 0; k < n; ++k)
                MB(&b, SpvOpTypeVector, 20 + k, 4, 3);
            MB(&b, SpvOpTypeVector, 20 + n, 4, 4);
            mb_void_fn_type(&b, 2, 3);
            mb_fn_begin(&b, 2, 1, 3, 7);
            for (uint32_t k = 0; k < nops; ++k)
                mb_op0(&b, SpvOpNop);
            if (!late) MB(&b, SpvOpUndef, vec3 ? 20 + n - 1 : 20 + n, 8);
            MB(&b, SpvOpBitcast, 20 + n, 9, 8);
            if (late) MB(&b, SpvOpUndef, vec3 ? 20 + n - 1 : 20 + n, 8);
            mb_fn_end(&b);
            const spvbc_bool before = scan_prefix(ctx, &first, first.n, &g);
            const spvbc_bool maybe = scan_prefix(ctx, &b, b.n, &g);
            assert_int_equal(before, 0);
            if (maybe != vec3)
                fail_msg("%u float3 types after eight, %u OpNops, a %s operand defined %s "
                         "the bitcast: %d",
                         n, nops, vec3 ? "float3" : "float4", late ? "after" : "before",
                         (int)maybe);
        }
    mb_free(&first);
    mb_free(&b);
    guard_close(&g);
    spvbc_context_destroy(ctx);
}

/* The smallest modules whose scan reaches its second pass: the header (bound 0x40018), then
 * %7 = OpSpecConstantOp %0x40017 Bitcast %3, whose last four words read as OpTypeVector %7 of 3
 * components (0x40017 is an OpTypeVector's first word), then 0 to 12 OpNops; no bitcast's
 * operand follows a 3-component type: "no", and no word past the module read (unit.test_scan's
 * tiny modules, of an OpBitcast, are the first witness). */
void test_scan_spec_bitcast_tiny(void **state)
{
    (void)state;
    guard_page g = guard_open();
    if (!g.map) skip(); /* no mmap here: the scan's reads are watched by the sanitizer build */
    spvbc_context ctx;
    assert_int_equal(spvbc_context_create(NULL, &ctx), SPVBC_SUCCESS);
    const uint32_t vec = (4u << 16) | SpvOpTypeVector;
    mb b = {NULL, 0, 0};
    for (uint32_t nops = 0; nops <= 12; ++nops) {
        b.n = 0;
        mb_header(&b, 0x00010600u, vec + 1);
        MB(&b, SpvOpSpecConstantOp, vec, 7, SpvOpBitcast, 3);
        for (uint32_t k = 0; k < nops; ++k)
            mb_op0(&b, SpvOpNop);
        assert_int_equal(scan_prefix(ctx, &b, b.n, &g), 0);
    }
    mb_free(&b);
    spvbc_context_destroy(ctx);
    guard_close(&g);
}
