/* spvbc_bytes_scan_lowerable() on what the header says it answers 1 for without a look (a size
 * that is no whole number of words, misaligned, byte-swapped, bound 0 or above
 * SPVBC_DEFAULT_MAX_ID_BOUND), on what it answers 0 for (a whole header and nothing to lower),
 * the memory it takes from the context above id bound 32,768 (two bit sets of the bound's bits),
 * words that only look like a bitcast, a module scanned right after one with more
 * 3-component types, and the deciding words at each place of the widest steps' first step (the
 * words up to a 64-byte boundary).
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
#define SCAN_GUARD_PAGE 1
#endif

#include "test_scan.h"

int guard_init(guard_buf *g, size_t size)
{
    memset(g, 0, sizeof *g);
#if SCAN_GUARD_PAGE
    const size_t page = (size_t)sysconf(_SC_PAGESIZE);
    size = (size + page - 1) / page * page;
    g->map_len = size + page;
    g->map = mmap(NULL, g->map_len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (g->map == MAP_FAILED || mprotect((unsigned char *)g->map + size, page, PROT_NONE) != 0) {
        fprintf(stderr, "test_scan: no guard page\n");
        return 1;
    }
    g->end = (unsigned char *)g->map + size;
#else
    g->map = malloc(size);
    if (!g->map) return 1;
    g->end = (unsigned char *)g->map + size;
#endif
    g->size = size;
    return 0;
}

void guard_fini(guard_buf *g)
{
#if SCAN_GUARD_PAGE
    munmap(g->map, g->map_len);
#else
    free(g->map);
#endif
}

int guard_scan(guard_buf *g, spvbc_context ctx, const void *bytes, size_t size)
{
    assert_true(size <= g->size);
    if (size) memcpy(g->end - size, bytes, size);
    spvbc_bool maybe = -1;
    assert_int_equal(spvbc_bytes_scan_lowerable(ctx, g->end - size, size, &maybe), SPVBC_SUCCESS);
    return maybe;
}

/* The module with nothing to lower: one float3, uint4 <- uint4. */
static void nothing_to_lower(mb *b, uint32_t bound)
{
    sweep_case c = sweep(1, 0, SITE_NONE, SW_FIRST_KEY, 2, 2);
    c.bound = bound;
    sweep_module(b, &c);
}

/* 0 to 24 bytes of a header of bound 1 and a word 0: a whole header (20 bytes) or a header and a
 * word (24) has nothing to lower; fewer bytes, or no whole number of words, "maybe".  The module
 * with nothing to lower, 1 to 3 bytes short or long, aligned: "maybe". */
void test_scan_sizes(void **state)
{
    (void)state;
    const uint32_t head[6] = {SpvMagicNumber, 0x00010600u, 0, 1, 0, 0};
    for (size_t size = 0; size <= sizeof head; ++size) {
        const int expect = size == 20 || size == 24 ? 0 : 1;
        const int got = guard_scan(&guard, NULL, head, size);
        if (got != expect) fail_msg("%zu bytes: scan said %d", size, got);
    }
    mb b = {NULL, 0, 0};
    nothing_to_lower(&b, 0);
    uint32_t *copy = calloc(b.n + 1, 4);
    assert_non_null(copy);
    memcpy(copy, b.w, b.n * 4);
    spvbc_bool maybe = -1;
    assert_int_equal(spvbc_bytes_scan_lowerable(NULL, copy, b.n * 4, &maybe), SPVBC_SUCCESS);
    assert_int_equal(maybe, 0);
    for (size_t size = b.n * 4 - 3; size <= b.n * 4 + 3; ++size) {
        if (size % 4 == 0) continue;
        maybe = -1;
        assert_int_equal(spvbc_bytes_scan_lowerable(NULL, copy, size, &maybe), SPVBC_SUCCESS);
        if (maybe != 1) fail_msg("%zu bytes: scan said %d", size, maybe);
    }
    free(copy);
    mb_free(&b);
}

/* The module with nothing to lower at each byte offset 0-7 from an 8-byte boundary: 0 where its
 * words are aligned, else "maybe". */
void test_scan_alignment(void **state)
{
    (void)state;
    mb b = {NULL, 0, 0};
    nothing_to_lower(&b, 0);
    uint64_t *store = calloc(b.n / 2 + 3, 8);
    assert_non_null(store);
    for (size_t off = 0; off < 8; ++off) {
        memcpy((unsigned char *)store + off, b.w, b.n * 4);
        spvbc_bool maybe = -1;
        assert_int_equal(
            spvbc_bytes_scan_lowerable(NULL, (unsigned char *)store + off, b.n * 4, &maybe),
            SPVBC_SUCCESS);
        if (maybe != (off % 4 != 0)) fail_msg("offset %zu: scan said %d", off, maybe);
    }
    free(store);
    mb_free(&b);
}

/* The module with nothing to lower under other header fields: 0 for bounds 1, 32,768 and
 * SPVBC_DEFAULT_MAX_ID_BOUND (with a context), "maybe" for bound 0, the cap + 1, the cap without
 * a context, and byte-swapped (a bound that reads the same swapped, 0x00010100). */
void test_scan_header_fields(void **state)
{
    (void)state;
    spvbc_context ctx;
    assert_int_equal(spvbc_context_create(NULL, &ctx), SPVBC_SUCCESS);
    mb b = {NULL, 0, 0};
    const struct {
        uint32_t bound;
        int with_ctx, expect;
    } rows[] = {
        {1, 0, 0},
        {0, 1, 1},
        {32768, 0, 0},
        {SPVBC_DEFAULT_MAX_ID_BOUND, 1, 0},
        {SPVBC_DEFAULT_MAX_ID_BOUND + 1, 1, 1},
        {SPVBC_DEFAULT_MAX_ID_BOUND, 0, 1},
        {0x00010100u, 1, 0},
    };
    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; ++i) {
        nothing_to_lower(&b, 0); /* its own bound, then the row's */
        b.w[3] = rows[i].bound;
        const int got = guard_scan(&guard, rows[i].with_ctx ? ctx : NULL, b.w, b.n * 4);
        if (got != rows[i].expect) fail_msg("bound %u: scan said %d", rows[i].bound, got);
    }
    for (size_t k = 0; k < b.n; ++k)
        b.w[k] = mb_bswap(b.w[k]);
    assert_int_equal(b.w[3], 0x00010100u);
    assert_int_equal(guard_scan(&guard, ctx, b.w, b.n * 4), 1);
    spvbc_context_destroy(ctx);
    mb_free(&b);
}

/* A counting allocator; `poison` fills what it gives with ones. */
typedef struct counting {
    size_t allocs, frees, alloc_bytes, free_bytes;
    int poison;
} counting;

static void *counting_alloc(void *user, size_t size)
{
    counting *c = user;
    ++c->allocs;
    c->alloc_bytes += size;
    void *p = malloc(size);
    if (p && c->poison) memset(p, 0xff, size);
    return p;
}

static void counting_free(void *user, void *ptr, size_t size)
{
    counting *c = user;
    ++c->frees;
    c->free_bytes += size;
    free(ptr);
}

/* Scans the module of `c` with a context of a counting allocator; the answer, and the bytes of
 * the one allocation and its free (none up to bound 32,768). */
static void scan_counted(sweep_case *c, int poison, int expect, size_t bytes)
{
    counting n = {0, 0, 0, 0, poison};
    spvbc_allocator a = SPVBC_ALLOCATOR_INIT(counting_alloc, counting_free, &n);
    spvbc_context ctx;
    assert_int_equal(spvbc_context_create(&a, &ctx), SPVBC_SUCCESS);
    mb b = {NULL, 0, 0};
    sweep_module(&b, c);
    const counting before = n;
    const int got = guard_scan(&guard, ctx, b.w, b.n * 4);
    if (got != expect) fail_msg("bound %u: scan said %d", c->bound, got);
    assert_int_equal(n.allocs - before.allocs, bytes ? 1 : 0);
    assert_int_equal(n.frees - before.frees, bytes ? 1 : 0);
    assert_int_equal(n.alloc_bytes - before.alloc_bytes, bytes);
    assert_int_equal(n.free_bytes - before.free_bytes, bytes);
    n.poison = 0;
    if (c->bound <= 65536) /* what lowering says of it */
        assert_int_equal(lower_count(ctx, &b, "counted"), expect);
    spvbc_context_destroy(ctx);
    mb_free(&b);
}

/* Marks of the ids: bytes on the stack up to bound 4,096, bit sets on the stack up to 32,768 (so
 * none allocated), then bit sets of the bound's bits, rounded up to 64-bit words: bound / 4 bytes
 * for 32,769 (rounded: 8,208) and 40,960 (10,240); the same with memory full of ones, and with
 * uint4's id 36,356 (568 64-bit words + 4), whose bit must not read as that of id 4. */
void test_scan_allocations(void **state)
{
    (void)state;
    sweep_case c = sweep(1, 0, SITE_NONE, SW_FIRST_KEY, 2, 2);
    const uint32_t bounds[] = {100, 4096, 4097, 32768, 32769, 40960, 40961};
    const size_t bytes[] = {0, 0, 0, 0, 8208, 10240, 10256};
    for (size_t i = 0; i < sizeof bounds / sizeof *bounds; ++i)
        for (int kind = SITE_NONE; kind <= SITE_4_TO_3; ++kind)
            for (int poison = 0; poison <= 1; ++poison) {
                c.kind = (site_kind)kind;
                c.bound = bounds[i];
                scan_counted(&c, poison, kind != SITE_NONE, bytes[i]);
            }
    c.kind = SITE_NONE;
    c.bound = 40960;
    c.uint4 = 36356;
    scan_counted(&c, 0, 0, 10240);
}

/* Words that only look like a bitcast give no "maybe": a 64-bit constant whose low word is an
 * OpBitcast of 3 words or an OpSpecConstantOp of 4 and whose high word is int3's id, followed
 * by an instruction whose second word is 124; a struct whose fourth word is 124 (OpBitcast's
 * opcode), an OpSpecConstantOp IAdd of int3; and a float <- int bitcast beside float3 (its
 * result type is float3's component).  Every 3-component type declared twice is still one. */
void test_scan_look_alikes(void **state)
{
    (void)state;
    spvbc_context ctx;
    assert_int_equal(spvbc_context_create(NULL, &ctx), SPVBC_SUCCESS);
    mb b = {NULL, 0, 0};
    const uint32_t looks[] = {(3u << 16) | SpvOpBitcast, (2u << 16) | SpvOpBitcast,
                              (4u << 16) | SpvOpSpecConstantOp};
    for (size_t i = 0; i < 3; ++i)
        for (int kind = SITE_NONE; kind <= SITE_4_TO_3; ++kind)
            for (uint32_t before = 0; before < 8; ++before) {
                sweep_case c = sweep(2, 1, (site_kind)kind, SW_FIRST_KEY, before, 1);
                c.bound = 200;
                c.look_alike = looks[i];
                check_case(ctx, &b, &c);
            }
    for (uint32_t n = 1; n <= 3; ++n)
        for (uint32_t before = 0; before < 8; ++before) {
            sweep_case c = sweep(n, 0, SITE_SCALAR, SW_FIRST_KEY, before, 1);
            check_case(ctx, &b, &c);
        }
    for (uint32_t n = 1; n <= 8; ++n) {
        sweep_case c = sweep(n, 0, SITE_NONE, SW_FIRST_KEY, 3, 1);
        c.dup = 1;
        sweep_module(&b, &c);
        assert_int_equal(guard_scan(&guard, ctx, b.w, b.n * 4), 0);
    }
    spvbc_context_destroy(ctx);
    mb_free(&b);
}

/* A module of n 3-component types scanned right after one of n + 1 with the same ids, where the
 * (n + 1)-th id is a float4 whose value the bitcast reads: nothing to lower, 0. */
void test_scan_stale_types(void **state)
{
    (void)state;
    spvbc_context ctx;
    assert_int_equal(spvbc_context_create(NULL, &ctx), SPVBC_SUCCESS);
    mb more = {NULL, 0, 0}, b = {NULL, 0, 0};
    for (uint32_t n = 1; n < 8; ++n)
        for (uint32_t before = 0; before < 16; ++before) {
            sweep_case c0 = sweep(n + 1, 0, SITE_NONE, SW_FIRST_KEY, before, 1);
            sweep_module(&more, &c0);
            sweep_case c = sweep(n, 0, SITE_SAME4, SW_FIRST_KEY, before, 1);
            sweep_module(&b, &c);
            const int first = guard_scan(&guard, ctx, more.w, more.n * 4);
            const int got = guard_scan(&guard, ctx, b.w, b.n * 4);
            assert_int_equal(first, 0);
            if (got != 0) fail_msg("n %u, before %u: scan said %d", n, before, got);
            if (before == 0) assert_int_equal(lower_count(ctx, &b, "float4"), 0);
        }
    spvbc_context_destroy(ctx);
    mb_free(&more);
    mb_free(&b);
}

/* The smallest words that reach the scan's second pass (a bitcast whose result type is the
 * word 0x40017, an OpTypeVector's own first word, and a 3-component type declared inside it),
 * then 0-12 OpNops: whatever the answer, no word past the end is read (the guard page). */
void test_scan_tiny(void **state)
{
    (void)state;
    spvbc_context ctx; /* bound 0x40018: the bit sets come from it */
    assert_int_equal(spvbc_context_create(NULL, &ctx), SPVBC_SUCCESS);
    const uint32_t vec = (4u << 16) | SpvOpTypeVector;
    uint32_t w[32] = {
        SpvMagicNumber, 0x00010600u, 0, vec + 1, 0, (4u << 16) | SpvOpBitcast, vec, 7, 4, 3};
    for (size_t nops = 0; nops <= 12; ++nops) {
        w[10 + nops] = (1u << 16) | SpvOpNop;
        const int got = guard_scan(&guard, ctx, w, (10 + nops) * 4);
        assert_true(got == 0 || got == 1);
    }
    spvbc_context_destroy(ctx);
}

/* Modules whose last instruction is the 3-component type that an earlier bitcast converts to
 * (out of order: no module that parses, but the header's "no" is about which instructions are
 * there) or an OpSpecConstantOp Bitcast to it: "maybe" when it is whole, 0 when its last word
 * is cut off (scanned in place: the cut word follows in memory); and a header whose schema word
 * is float3's id, followed by OpCapability's first word, which is also the bitcast's operand's
 * id (131,089): the scan looks at neither, 0. */
void test_scan_last_instruction(void **state)
{
    (void)state;
    mb b = {NULL, 0, 0};
    for (int spec = 0; spec <= 1; ++spec) {
        b.n = 0;
        mb_header(&b, 0x00010000u, 30);
        MB(&b, SpvOpTypeFloat, 4, 32);
        MB(&b, SpvOpTypeInt, 6, 32, 0);
        MB(&b, SpvOpTypeVector, 14, 6, 4);
        if (spec) {
            MB(&b, SpvOpTypeVector, 16, 4, 3);
            MB(&b, SpvOpConstantNull, 14, 26);
            MB(&b, SpvOpSpecConstantOp, 16, 27, SpvOpBitcast, 26);
        } else {
            MB(&b, SpvOpUndef, 14, 26);
            MB(&b, SpvOpBitcast, 16, 27, 26);
            MB(&b, SpvOpTypeVector, 16, 4, 3);
        }
        spvbc_bool maybe = -1;
        assert_int_equal(spvbc_bytes_scan_lowerable(NULL, b.w, b.n * 4, &maybe), SPVBC_SUCCESS);
        if (maybe != 1) fail_msg("spec %d: whole: scan said %d", spec, maybe);
        assert_int_equal(spvbc_bytes_scan_lowerable(NULL, b.w, b.n * 4 - 4, &maybe), SPVBC_SUCCESS);
        if (maybe != 0) fail_msg("spec %d: cut: scan said %d", spec, maybe);
    }
    spvbc_context ctx;
    assert_int_equal(spvbc_context_create(NULL, &ctx), SPVBC_SUCCESS);
    const uint32_t base = ((2u << 16) | SpvOpCapability) - 10; /* the operand: base + 10 */
    sweep_case c = sweep(1, 0, SITE_NONE, base, 2, 1);
    sweep_module(&b, &c);
    assert_int_equal(b.w[c.site_at[1] + 3], b.w[5]);
    assert_int_equal(lower_count(ctx, &b, "schema"), 0);
    assert_int_equal(guard_scan(&guard, ctx, b.w, b.n * 4), 0);
    b.w[4] = base;
    assert_int_equal(guard_scan(&guard, ctx, b.w, b.n * 4), 0);
    spvbc_context_destroy(ctx);
    mb_free(&b);
}

/* A bitcast of float4 to float4 and, elsewhere, the id at the bound right after float3's (an
 * OpUndef of float3 whose result is the bound): no bitcast has a 3-component type, so 0, at
 * bound 4,096 (the marks in bytes on the stack, the bound's one past them), 32,768 (the bit sets
 * on the stack, the bound's bit one past them) and 32,832 (from the context, the bound's bit one
 * past the block): the id at the bound is never looked up, which the sanitizer build watches. */
void test_scan_id_at_bound(void **state)
{
    (void)state;
    enum { FN = 1, VOID, FNTY, FLOAT, V4, V3, X, LABEL, R };
    spvbc_context ctx;
    assert_int_equal(spvbc_context_create(NULL, &ctx), SPVBC_SUCCESS);
    static const uint32_t bounds[] = {4096u, 32768u, 32832u};
    mb b = {NULL, 0, 0};
    for (size_t i = 0; i < sizeof bounds / sizeof *bounds; ++i) {
        mb_kernel_head(&b, 0x00010000u, bounds[i], FN);
        mb_void_fn_type(&b, VOID, FNTY);
        MB(&b, SpvOpTypeFloat, FLOAT, 32);
        MB(&b, SpvOpTypeVector, V4, FLOAT, 4);
        MB(&b, SpvOpTypeVector, V3, FLOAT, 3);
        MB(&b, SpvOpUndef, V4, X);
        MB(&b, SpvOpUndef, V3, bounds[i]);
        mb_fn_begin(&b, VOID, FN, FNTY, LABEL);
        MB(&b, SpvOpBitcast, V4, R, X);
        mb_fn_end(&b);
        const int got = guard_scan(&guard, ctx, b.w, b.n * 4);
        if (got != 0) fail_msg("bound %u: scan said %d", bounds[i], got);
    }
    spvbc_context_destroy(ctx);
    mb_free(&b);
}

/* The widest steps begin with the words up to a 64-byte boundary, in one step of their own: a
 * module at each of the 16 word offsets from a 64-byte boundary, with the instructions that
 * decide its answer at each of the first 24 words after the header (inside that first step or
 * after it), OpNops up to 100 words: float3 %20 declared, then
 *   - %9 = OpBitcast float3 %8: 1 (a bitcast to a 3-component type);
 *   - %8 = OpUndef float3, %9 = OpBitcast float4 %8: 1 (of a value of one);
 *   - %8 = OpUndef float4, %9 = OpBitcast float4 %8: 0.
 * The modules are built as words (the scan reads nothing else); a read past a module's end is
 * for test_scan_many_steps and the guard page of unit.test_scan's sweep to see. */
void test_scan_head(void **state)
{
    (void)state;
    enum { FLOAT = 4, V4 = 6, X = 8, R = 9, V3 = 20, BOUND = 40, WORDS = 100 };
    static uint32_t store[WORDS + 32];
    uint32_t *const line = store + (16u - ((uintptr_t)store & 63u) / 4u) % 16u;
    for (uint32_t off = 0; off < 16; ++off)
        for (uint32_t at = 0; at < 24; ++at)
            for (int form = 0; form < 3; ++form) {
                uint32_t *w = line + off;
                size_t n = 0;
                const uint32_t header[] = {0x07230203u, 0x00010000u, 0, BOUND, 0};
                for (size_t k = 0; k < 5; ++k)
                    w[n++] = header[k];
                for (uint32_t k = 0; k < at; ++k)
                    w[n++] = 1u << 16 | SpvOpNop;
                const uint32_t vec3[] = {4u << 16 | SpvOpTypeVector, V3, FLOAT, 3};
                for (size_t k = 0; k < 4; ++k)
                    w[n++] = vec3[k];
                if (form > 0) {
                    const uint32_t undef[] = {3u << 16 | SpvOpUndef, form == 1 ? V3 : V4, X};
                    for (size_t k = 0; k < 3; ++k)
                        w[n++] = undef[k];
                }
                const uint32_t bitcast[] = {4u << 16 | SpvOpBitcast, form == 0 ? V3 : V4, R, X};
                for (size_t k = 0; k < 4; ++k)
                    w[n++] = bitcast[k];
                while (n < WORDS)
                    w[n++] = 1u << 16 | SpvOpNop;
                spvbc_bool maybe = -1;
                assert_int_equal(spvbc_bytes_scan_lowerable(NULL, w, n * 4, &maybe), SPVBC_SUCCESS);
                if (maybe != (form != 2))
                    fail_msg("offset %u words, at %u, form %d: scan said %d", off, at, form, maybe);
            }
}

/* Appends the instruction of `n` words at `ops` to `w` (at `*n_words`). */
static void put(uint32_t *w, size_t *n_words, const uint32_t *ops, size_t n)
{
    for (size_t k = 0; k < n; ++k)
        w[(*n_words)++] = ops[k];
}

/* More steps with hits than the widest first pass writes down at once (32 of 64 words): float3
 * %20 and float4 %6 declared, then 40 steps of 64 words, each with one float4 <- float4 bitcast
 * of %7 (an OpUndef float4), OpNops between; the bitcast of %8, an OpUndef float3, as the first
 * step's (1), the last one's (1), or nowhere (0).  Each module (2,560 words) and each of its
 * prefixes from word 2,400 on (the last steps and the narrower ones after them) is scanned from a
 * copy of its exact size on the heap, so that the sanitizer build sees a read past its end. */
void test_scan_many_steps(void **state)
{
    (void)state;
    enum { FLOAT = 4, V4 = 6, Y = 7, X = 8, V3 = 20, R = 30, STEPS = 40, BOUND = 200 };
    uint32_t *w = calloc(64u * (STEPS + 2), 4);
    assert_non_null(w);
    for (int where = 0; where < 3; ++where) { /* 0: first step, 1: last, 2: nowhere */
        size_t n = 0;
        const uint32_t head[] = {0x07230203u, 0x00010000u, 0, BOUND, 0};
        put(w, &n, head, 5);
        put(w, &n, (const uint32_t[]){4u << 16 | SpvOpTypeVector, V3, FLOAT, 3}, 4);
        put(w, &n, (const uint32_t[]){4u << 16 | SpvOpTypeVector, V4, FLOAT, 4}, 4);
        put(w, &n, (const uint32_t[]){3u << 16 | SpvOpUndef, V3, X}, 3);
        put(w, &n, (const uint32_t[]){3u << 16 | SpvOpUndef, V4, Y}, 3);
        for (uint32_t step = 0; step < STEPS; ++step) {
            const int decides = (where == 0 && step == 0) || (where == 1 && step == STEPS - 1);
            const uint32_t bitcast[] = {4u << 16 | SpvOpBitcast, V4, R + step, decides ? X : Y};
            put(w, &n, bitcast, 4);
            while (n % 64u != 0)
                w[n++] = 1u << 16 | SpvOpNop;
        }
        for (size_t cut = n; cut >= 2400; --cut) {
            uint32_t *copy = malloc(cut * 4);
            assert_non_null(copy);
            memcpy(copy, w, cut * 4);
            spvbc_bool maybe = -1;
            assert_int_equal(spvbc_bytes_scan_lowerable(NULL, copy, cut * 4, &maybe),
                             SPVBC_SUCCESS);
            /* the last step's bitcast is whole from word 64 * 39 + 4 on */
            const int expect = where == 0 || (where == 1 && cut >= 64u * (STEPS - 1) + 4u);
            free(copy);
            if (maybe != expect)
                fail_msg("bitcast of float3 %s, %zu of %zu words: scan said %d",
                         where == 0   ? "first"
                         : where == 1 ? "last"
                                      : "nowhere",
                         cut, n, maybe);
        }
    }
    free(w);
}

/* Bitcast-like words whose ids are at or past the bound (4,096, the largest whose marks are
 * bytes) are no bitcast: 0, with float3 %20 declared and an OpUndef float3 whose result is id 0
 * (the word 0 right after float3's id), for result type or operand the bound, or 0xfffffff0, the
 * bitcast-like words after 0 or 64 OpNops (in the widest steps' first step: the module starts
 * 48 bytes past a 64-byte boundary, so that step takes words 5-19; or in a step of 64 words) in
 * a module of 160 words.  A mark one past the bound on the operand's side is for the sanitizer
 * build to see (the result type's lands on the mark of id 0, which the word 0 shows). */
void test_scan_ids_past_bound(void **state)
{
    (void)state;
    enum { FLOAT = 4, V4 = 6, Y = 7, V3 = 20, R = 30, BOUND = 4096 };
    const uint32_t past[] = {BOUND, 0xfffffff0u};
    static uint32_t store[160 + 32];
    uint32_t *const w = store + (16u - ((uintptr_t)store & 63u) / 4u) % 16u + 12u;
    for (uint32_t lead = 0; lead <= 64; lead += 64)
        for (size_t p = 0; p < 2; ++p)
            for (int side = 0; side < 2; ++side) {
                size_t n = 0;
                const uint32_t head[] = {0x07230203u, 0x00010000u, 0, BOUND, 0};
                put(w, &n, head, 5);
                put(w, &n, (const uint32_t[]){4u << 16 | SpvOpTypeVector, V3, FLOAT, 3}, 4);
                put(w, &n, (const uint32_t[]){4u << 16 | SpvOpTypeVector, V4, FLOAT, 4}, 4);
                put(w, &n, (const uint32_t[]){3u << 16 | SpvOpUndef, V3, 0}, 3);
                put(w, &n, (const uint32_t[]){3u << 16 | SpvOpUndef, V4, Y}, 3);
                for (uint32_t k = 0; k < lead; ++k)
                    w[n++] = 1u << 16 | SpvOpNop;
                const uint32_t bitcast[] = {4u << 16 | SpvOpBitcast, side ? V4 : past[p], R,
                                            side ? past[p] : Y};
                put(w, &n, bitcast, 4);
                while (n < 160)
                    w[n++] = 1u << 16 | SpvOpNop;
                spvbc_bool maybe = -1;
                assert_int_equal(spvbc_bytes_scan_lowerable(NULL, w, n * 4, &maybe), SPVBC_SUCCESS);
                if (maybe != 0)
                    fail_msg("%s %#x after %u OpNops: scan said %d",
                             side ? "operand" : "result type", past[p], lead, maybe);
            }
}
