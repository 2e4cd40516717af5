/* Second witnesses (test_witness.c says why) of the reader's limits, each through another way
 * in than its first witness's:
 *   - a module of bound 1, whose id table has one entry, parsed in a fresh context whose blocks
 *     end at an unreadable page: the walk's fast paths must not take its ids for ids below the
 *     bound (unit.reader_walk's first witness reuses a wider module's table instead);
 *   - the 2^32 - 16 word limit met exactly through spvbc_module_parse_bytes();
 *   - a bad magic number refused from bytes with no memory beyond its diagnostic's, at the
 *     header's size exactly and misaligned (the first witness counts the allocator's calls);
 *   - an operand at the bound after a lowerable pair of the same types: its site is no pair the
 *     validation's memo can answer for (unit.test_lower_edges' first witness has a scalar pair).
 * Modules are built as words.
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
#include "test_alloc.h"
#include "diag_check.h"
#include "test_witness.h"

/* A module of bound 1 (no id can be defined) whose one instruction is `op` with the `n` words
 * `ops`, parsed in guarded_context(): R-ID-RANGE at word 5, the id table (4 bytes, at a page's
 * end) read at no id. */
static void bound_one_refused(uint32_t op, const uint32_t *ops, size_t n)
{
    mb b = {NULL, 0, 0};
    mb_header(&b, 0x00010000u, 1);
    mb_opn(&b, op, ops, n);
    guarded_parse_fails(b.w, b.n, "R-ID-RANGE", 5);
    mb_free(&b);
}

/* The walk's fast paths (a typed result, a label) in a module of bound 1: an OpUndef of type %5
 * and id %6, and a label %5, each refused as the general path refuses them.  A valid module
 * with both opcodes is parsed first, so that the process has met them and the fast paths take
 * them. */
void test_reader_bound_one_at_a_page(void **state)
{
    (void)state;
    if (guard_pages_missing()) skip();
    mb b = {NULL, 0, 0};
    mb_kernel_head(&b, 0x00010000u, 8, 1);
    MB(&b, SpvOpTypeFloat, 4, 32);
    mb_void_fn_type(&b, 2, 3);
    mb_fn_begin(&b, 2, 1, 3, 5);
    MB(&b, SpvOpUndef, 4, 6);
    mb_fn_end(&b);
    spvbc_context ctx;
    spvbc_validate_summary vs;
    validate_words(b.w, b.n, 0, SPVBC_SUCCESS, &ctx, &vs);
    spvbc_context_destroy(ctx);
    mb_free(&b);
    const uint32_t undef[2] = {5, 6}, label[1] = {5};
    bound_one_refused(SpvOpUndef, undef, 2);
    bound_one_refused(SpvOpLabel, label, 1);
}

/* spvbc_module_parse_bytes() of 2^32 - 16 words (5 words stand for them: a version word of 2.0
 * is refused before any word past the header is read): R-VERSION at word 1; of one word more:
 * R-LIMIT, before any word is read. */
void test_reader_word_limit_through_bytes(void **state)
{
    (void)state;
    if (SIZE_MAX / 4 <= 0xFFFFFFF1u) {
        fprintf(stderr, "SKIPPED: a 32-bit size_t cannot count the bytes of 2^32 - 16 words\n");
        skip();
    }
    const uint32_t w[5] = {SpvMagicNumber, 0x00020000u, 0, 10, 0};
    const struct {
        size_t words;
        spvbc_result expect;
        const char *rule;
    } cases[] = {{0xFFFFFFF0u, SPVBC_ERROR_INVALID_BINARY, "R-VERSION"},
                 {0xFFFFFFF1u, SPVBC_ERROR_UNSUPPORTED, "R-LIMIT"}};
    for (size_t i = 0; i < 2; ++i) {
        spvbc_context ctx;
        assert_int_equal(spvbc_context_create(NULL, &ctx), SPVBC_SUCCESS);
        spvbc_module m = NULL;
        assert_int_equal(spvbc_module_parse_bytes(ctx, w, cases[i].words * 4, NULL, &m),
                         cases[i].expect);
        assert_null(m);
        assert_int_equal(spvbc_context_diagnostic_count(ctx), 1);
        assert_string_equal(spvbc_context_diagnostic(ctx, 0)->rule, cases[i].rule);
        spvbc_context_destroy(ctx);
    }
}

/* A bad magic number in bytes (0x12345678 in little-endian byte order, the order the magic is
 * shown in on every host) is refused with R-MAGIC and SPVBC_ERROR_INVALID_BINARY in a context
 * that can allocate nothing more once its diagnostics have room: 20 bytes (the header's size
 * exactly) and 24, aligned and one byte off.  A refusal that made the module first would be
 * SPVBC_ERROR_OUT_OF_MEMORY. */
void test_reader_bytes_magic_without_memory(void **state)
{
    (void)state;
    uint32_t buf[8];
    static const unsigned char head[24] = {0x78, 0x56, 0x34, 0x12, 0x00, 0x00, 0x01, 0x00,
                                           0,    0,    0,    0,    10,   0,    0,    0};
    test_alloc a;
    memset(&a, 0, sizeof a);
    const spvbc_allocator al = test_alloc_allocator(&a);
    spvbc_context ctx;
    assert_int_equal(spvbc_context_create(&al, &ctx), SPVBC_SUCCESS);
    spvbc_module m = NULL;
    memcpy(buf, head, sizeof head);
    /* the diagnostics' room: one refusal of each kind with memory */
    assert_int_equal(spvbc_module_parse_bytes(ctx, buf, 6, NULL, &m), SPVBC_ERROR_INVALID_BINARY);
    assert_int_equal(spvbc_module_parse_bytes(ctx, buf, 20, NULL, &m), SPVBC_ERROR_INVALID_BINARY);
    a.fail_at = a.calls + 1;
    a.sticky = 1;
    for (size_t off = 0; off < 2; ++off) {
        unsigned char *bytes = (unsigned char *)buf + off;
        memcpy(bytes, head, sizeof head);
        for (size_t size = 20; size <= 24; size += 4) {
            const spvbc_result r = spvbc_module_parse_bytes(ctx, bytes, size, NULL, &m);
            if (r != SPVBC_ERROR_INVALID_BINARY)
                fail_msg("%zu bytes at offset %zu: %s", size, off, spvbc_result_string(r));
            assert_null(m);
            assert_int_equal(spvbc_context_diagnostic_count(ctx), 1);
            const spvbc_diagnostic *d = spvbc_context_diagnostic(ctx, 0);
            assert_string_equal(d->rule, "R-MAGIC");
            assert_string_equal(d->message, "bad magic number 0x12345678 (expected 0x07230203)");
        }
    }
    assert_int_equal(a.triggered, 0);
    spvbc_context_destroy(ctx);
    assert_int_equal(a.live_blocks, 0);
    assert_int_equal(a.bad_free, 0);
}

/* A Kernel module (bound 30) of float %4, float4 %1 and float3 %6: %12 = as_float3(%11), a
 * float4 (V12), then %13 = OpBitcast float3 of %30, the bound: R-UNDEF, not V12 (an
 * operand above the bound has no type, though the id table's entry %1 is the float4 of %12's
 * pair); the lowering keeps every site (a new id would give %30 a meaning). */
void test_operand_at_bound_after_pair(void **state)
{
    (void)state;
    enum { BOUND = 30 };
    mb b = {NULL, 0, 0};
    mb_kernel_head(&b, 0x00010000u, BOUND, 9);
    MB(&b, SpvOpTypeFloat, 4, 32);
    MB(&b, SpvOpTypeVector, 1, 4, 4);
    MB(&b, SpvOpTypeVector, 6, 4, 3);
    mb_void_fn_type(&b, 2, 3);
    mb_fn_begin(&b, 2, 9, 3, 10);
    MB(&b, SpvOpUndef, 1, 11);
    MB(&b, SpvOpBitcast, 6, 12, 11);
    MB(&b, SpvOpBitcast, 6, 13, BOUND);
    mb_fn_end(&b);
    spvbc_context ctx;
    spvbc_validate_summary vs;
    validate_words(b.w, b.n, 0, SPVBC_ERROR_VALIDATION_FAILED, &ctx, &vs);
    /* neither is lowerable here: the lowering keeps every site of a module that names an id
     * at or above its bound */
    assert_false(diag_of(ctx, 12, "V12", SPVBC_SEVERITY_ERROR)->lowerable);
    assert_false(diag_of(ctx, 13, "R-UNDEF", SPVBC_SEVERITY_ERROR)->lowerable);
    assert_int_equal(vs.errors, 2);
    assert_int_equal(vs.lowerable, 0);
    spvbc_context_destroy(ctx);

    spvbc_module m = parse_fresh(&b, NULL, &ctx);
    spvbc_lower_summary ls = SPVBC_LOWER_SUMMARY_INIT;
    (void)spvbc_module_lower(m, NULL, &ls);
    assert_int_equal(ls.rewritten, 0);
    const uint32_t *out = NULL;
    size_t out_n = 0;
    assert_int_equal(spvbc_module_get_words(m, &out, &out_n), SPVBC_SUCCESS);
    assert_int_equal(out_n, b.n);
    assert_memory_equal(out, b.w, b.n * 4);
    spvbc_module_destroy(m);
    spvbc_context_destroy(ctx);
    mb_free(&b);
}
