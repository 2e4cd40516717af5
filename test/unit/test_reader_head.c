/*
 * test_reader_head.c - the reader's test program (test_reader.h): the header's diagnostics
 * (each message with its argument, at its word, with no opcode), spvbc_module_parse_bytes'
 * own refusals and what they cost, the word-count limit, and the parse's memory: the id
 * table's size, its reuse, and allocation failure.
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

#include "test_alloc.h"
#include "test_reader.h"

/* ---- the header's diagnostics ---------------------------------------------------------- */

/* Each header error's message with its argument, at its header word, with no opcode. */
void test_header_messages(void **state)
{
    (void)state;
    spvbc_context ctx = new_ctx();
    uint32_t w[5] = {0x12345678u, 0x00010000u, 0x00070001u, 100u, 0u};
    const spvbc_diagnostic *d;
    d = parse_fails(ctx, w, 3, NULL, SPVBC_ERROR_INVALID_BINARY, 0, HDR, "R-HEADER");
    assert_string_equal(d->message, "module is shorter than the 5-word SPIR-V header");
    assert_int_equal(d->opcode, 0);
    d = parse_fails(ctx, w, 5, NULL, SPVBC_ERROR_INVALID_BINARY, 0, HDR, "R-MAGIC");
    assert_string_equal(d->message, "bad magic number 0x12345678 (expected 0x07230203)");
    assert_int_equal(d->opcode, 0);
    w[0] = SpvMagicNumber;
    w[1] = 0x00010700u; /* 1.7 */
    d = parse_fails(ctx, w, 5, NULL, SPVBC_ERROR_INVALID_BINARY, 1, HDR, "R-VERSION");
    assert_string_equal(d->message, "unknown SPIR-V version word 0x00010700 (known: 1.0 to 1.6)");
    assert_int_equal(d->opcode, 0);
    w[1] = 0x00010000u;
    spvbc_parse_options o = SPVBC_PARSE_OPTIONS_INIT;
    o.max_id_bound = 50;
    d = parse_fails(ctx, w, 5, &o, SPVBC_ERROR_UNSUPPORTED, 3, HDR, "R-BOUND");
    assert_string_equal(d->message,
                        "id bound 100 is above the cap 50 (raise max_id_bound / --max-id-bound)");
    assert_int_equal(d->opcode, 0);
    spvbc_context_destroy(ctx);
}

/* A max_id_bound above the largest cap is that cap: a bound just above it is refused before
 * anything the size of its id table is allocated (an allocator that refuses large blocks would
 * turn an attempt into OUT_OF_MEMORY). */
void test_bound_above_largest_cap(void **state)
{
    (void)state;
    test_alloc a;
    memset(&a, 0, sizeof a);
    a.max_size = 1u << 20;
    const spvbc_allocator al = test_alloc_allocator(&a);
    spvbc_context ctx;
    assert_int_equal(spvbc_context_create(&al, &ctx), SPVBC_SUCCESS);
    const uint32_t w[5] = {SpvMagicNumber, 0x00010000u, 0, 0x7FFFFFF1u, 0};
    spvbc_parse_options o = SPVBC_PARSE_OPTIONS_INIT;
    o.max_id_bound = 0xFFFFFFFFu;
    const spvbc_diagnostic *d =
        parse_fails(ctx, w, 5, &o, SPVBC_ERROR_UNSUPPORTED, 3, HDR, "R-BOUND");
    assert_string_equal(d->message, "id bound 2147483633 is above the cap 2147483632 (raise "
                                    "max_id_bound / --max-id-bound)");
    spvbc_context_destroy(ctx);
    assert_int_equal(a.live_blocks, 0);
    assert_int_equal(a.bad_free, 0);
}

/* spvbc_module_parse_bytes' own refusals: a size not a multiple of 4, a bad magic read in
 * little-endian order from 5 words or more, and a shorter input, whose header is short. */
void test_bytes_messages(void **state)
{
    (void)state;
    spvbc_context ctx = new_ctx();
    static const unsigned char bad[20] = {0x78, 0x56, 0x34, 0x12, 0x00, 0x00, 0x01};
    spvbc_module m = SENTINEL;
    assert_int_equal(spvbc_module_parse_bytes(ctx, bad, 6, NULL, &m), SPVBC_ERROR_INVALID_BINARY);
    const spvbc_diagnostic *d = one_error(ctx, 1, HDR, "R-SIZE");
    assert_string_equal(d->message, "module size 6 bytes is not a multiple of 4");
    assert_int_equal(d->opcode, 0);
    assert_int_equal(spvbc_module_parse_bytes(ctx, bad, 20, NULL, &m), SPVBC_ERROR_INVALID_BINARY);
    d = one_error(ctx, 0, HDR, "R-MAGIC");
    assert_string_equal(d->message, "bad magic number 0x12345678 (expected 0x07230203)");
    assert_int_equal(d->opcode, 0);
    assert_int_equal(spvbc_module_parse_bytes(ctx, bad, 16, NULL, &m), SPVBC_ERROR_INVALID_BINARY);
    one_error(ctx, 0, HDR, "R-HEADER");
    assert_ptr_equal(m, SENTINEL);
    spvbc_context_destroy(ctx);
}

/* The allocator's calls of one spvbc_module_parse_bytes() of `size` bytes at `bytes` in a
 * fresh context; `*r` gets its result. */
static size_t bytes_calls(const void *bytes, size_t size, const spvbc_parse_options *o,
                          spvbc_result *r)
{
    test_alloc a;
    memset(&a, 0, sizeof a);
    const spvbc_allocator al = test_alloc_allocator(&a);
    spvbc_context ctx;
    assert_int_equal(spvbc_context_create(&al, &ctx), SPVBC_SUCCESS);
    const size_t before = a.calls;
    spvbc_module m = SENTINEL;
    *r = spvbc_module_parse_bytes(ctx, bytes, size, o, &m);
    const size_t calls = a.calls - before;
    if (*r != SPVBC_SUCCESS) assert_ptr_equal(m, SENTINEL);
    spvbc_context_destroy(ctx);
    assert_int_equal(a.live_blocks, 0);
    assert_int_equal(a.bad_free, 0);
    return calls;
}

/* A bad magic costs what a bad size costs (one diagnostic, no module); options that are not
 * this version's are refused before the misaligned path copies anything; a misaligned empty
 * input frees what it allocated with the size it allocated. */
void test_bytes_refusals_cost(void **state)
{
    (void)state;
    uint32_t buf[8] = {0x12345678u, 0x00010000u, 0, 10, 0};
    spvbc_result r;
    const size_t size_calls = bytes_calls(buf, 6, NULL, &r);
    assert_int_equal(r, SPVBC_ERROR_INVALID_BINARY);
    assert_int_equal(bytes_calls(buf, 20, NULL, &r), size_calls);
    assert_int_equal(r, SPVBC_ERROR_INVALID_BINARY);
    /* misaligned, a valid header */
    unsigned char *raw = (unsigned char *)buf;
    const uint32_t head[5] = {SpvMagicNumber, 0x00010000u, 0, 10, 0};
    memcpy(raw + 1, head, sizeof head);
    struct {
        spvbc_parse_options o;
        unsigned char more[8];
    } big;
    memset(&big, 0, sizeof big);
    big.o.struct_size = sizeof big;
    big.more[3] = 1; /* a field this version does not know, set */
    assert_int_equal(bytes_calls(raw + 1, 20, &big.o, &r), 0);
    assert_int_equal(r, SPVBC_ERROR_UNSUPPORTED);
    spvbc_parse_options small = SPVBC_PARSE_OPTIONS_INIT;
    small.struct_size = 1;
    assert_int_equal(bytes_calls(raw + 1, 20, &small, &r), 0);
    assert_int_equal(r, SPVBC_ERROR_INVALID_ARGUMENT);
    (void)bytes_calls(raw + 1, 0, NULL, &r); /* its checks: no block left, no bad free */
    assert_int_equal(r, SPVBC_ERROR_INVALID_BINARY);
}

/* A module of more than 2^32 - 16 words is refused before its words are read (here 5 words of
 * a bad magic stand for it; up to the limit they are read, and their magic is bad). */
void test_word_count_limit(void **state)
{
    (void)state;
    if (SIZE_MAX <= 0xFFFFFFFFu) {
        fprintf(stderr, "SKIPPED: a 32-bit size_t cannot name more than 2^32 - 16 words\n");
        skip();
    }
    spvbc_context ctx = new_ctx();
    const uint32_t w[5] = {0x12345678u, 0x00010000u, 0, 10, 0};
    const spvbc_diagnostic *d =
        parse_fails(ctx, w, (size_t)0xFFFFFFF1u, NULL, SPVBC_ERROR_UNSUPPORTED, 0, HDR, "R-LIMIT");
    assert_string_equal(d->message, "module of 4294967281 words is above the 2^32-word limit");
    assert_int_equal(d->opcode, 0);
    parse_fails(ctx, w, (size_t)0xFFFFFFF0u, NULL, SPVBC_ERROR_INVALID_BINARY, 0, HDR, "R-MAGIC");
    spvbc_context_destroy(ctx);
}

/* A copy (copy_words, or a byte-swapped module) of more words than a size_t can count the
 * bytes of: SPVBC_ERROR_OUT_OF_MEMORY before anything is allocated or copied (the words given
 * are 5).  Only a 32-bit size_t has such counts under the 2^32-word limit. */
void test_copy_size_overflow(void **state)
{
    (void)state;
    if (SIZE_MAX > 0xFFFFFFFFu) {
        fprintf(stderr, "SKIPPED: a 64-bit size_t counts the bytes of every word count under "
                        "the 2^32-word limit\n");
        skip();
    }
    spvbc_context ctx = new_ctx();
    const uint32_t w[5] = {SpvMagicNumber, 0x00010000u, 0, 10, 0};
    spvbc_parse_options o = SPVBC_PARSE_OPTIONS_INIT;
    o.copy_words = 1;
    const size_t n = SIZE_MAX / 4 + 1;
    parse_fails(ctx, w, n, &o, SPVBC_ERROR_OUT_OF_MEMORY, SPVBC_NO_POSITION, SPVBC_NO_POSITION,
                "R-MEMORY");
    const uint32_t swapped[5] = {0x03022307u, 0x00000100u, 0, 0x0a000000u, 0};
    parse_fails(ctx, swapped, n, NULL, SPVBC_ERROR_OUT_OF_MEMORY, SPVBC_NO_POSITION,
                SPVBC_NO_POSITION, "R-MEMORY");
    spvbc_context_destroy(ctx);
}

/* spvbc_module_parse_bytes() without a context refuses also input it would refuse for its
 * size or its magic (there is no context to tell). */
void test_bytes_without_context(void **state)
{
    (void)state;
    static const unsigned char bad[20] = {0x78, 0x56, 0x34, 0x12};
    spvbc_module m = SENTINEL;
    assert_int_equal(spvbc_module_parse_bytes(NULL, bad, 6, NULL, &m),
                     SPVBC_ERROR_INVALID_ARGUMENT);
    assert_int_equal(spvbc_module_parse_bytes(NULL, bad, 20, NULL, &m),
                     SPVBC_ERROR_INVALID_ARGUMENT);
    assert_ptr_equal(m, SENTINEL);
}

/* The misaligned path's copy failing: OUT_OF_MEMORY, and the diagnostics of the context's
 * earlier call are gone (the one diagnostic is the out-of-memory one). */
void test_bytes_copy_out_of_memory(void **state)
{
    (void)state;
    test_alloc a;
    memset(&a, 0, sizeof a);
    const spvbc_allocator al = test_alloc_allocator(&a);
    spvbc_context ctx;
    assert_int_equal(spvbc_context_create(&al, &ctx), SPVBC_SUCCESS);
    uint32_t buf[8];
    unsigned char *raw = (unsigned char *)buf;
    const uint32_t head[5] = {SpvMagicNumber, 0x00010000u, 0, 10, 0};
    memcpy(raw + 1, head, sizeof head);
    spvbc_module m = SENTINEL;
    assert_int_equal(spvbc_module_parse_bytes(ctx, raw + 1, 6, NULL, &m),
                     SPVBC_ERROR_INVALID_BINARY);
    one_error(ctx, 1, HDR, "R-SIZE");
    a.fail_at = a.calls + 1;
    assert_int_equal(spvbc_module_parse_bytes(ctx, raw + 1, 20, NULL, &m),
                     SPVBC_ERROR_OUT_OF_MEMORY);
    assert_true(a.triggered);
    assert_ptr_equal(m, SENTINEL);
    assert_int_equal(spvbc_context_diagnostic_count(ctx), 1);
    assert_string_not_equal(spvbc_context_diagnostic(ctx, 0)->rule, "R-SIZE");
    spvbc_context_destroy(ctx);
    assert_int_equal(a.live_blocks, 0);
}

/* ---- the id table's memory ------------------------------------------------------------ */

/* The id table takes 4 bytes an id of the bound (spvbc_parse_options.max_id_bound says so):
 * an allocator that refuses larger blocks than that parses a module of a large bound; a module
 * of that bound parsed again in the context, also after a failed parse, takes no new table;
 * nothing is left when the context goes. */
void test_id_table_memory(void **state)
{
    (void)state;
    enum { BIG = 100000 };
    test_alloc a;
    memset(&a, 0, sizeof a);
    a.max_size = (size_t)BIG * 4;
    const spvbc_allocator al = test_alloc_allocator(&a);
    spvbc_context ctx;
    assert_int_equal(spvbc_context_create(&al, &ctx), SPVBC_SUCCESS);
    mb b = {0};
    mod_types(&b, BIG);
    MB(&b, SpvOpFunction, VOID, FN, 0, FNTY);
    MB(&b, SpvOpLabel, LABEL);
    MB(&b, SpvOpUndef, V4, X);
    const size_t bc = MB(&b, SpvOpBitcast, V3, R, X);
    mb_fn_end(&b);
    spvbc_module_destroy(parse_ok(ctx, b.w, b.n));
    a.max_size = 4096;
    spvbc_module_destroy(parse_ok(ctx, b.w, b.n));
    b.w[bc + 2] = BIG; /* the result id at the bound */
    parse_fails(ctx, b.w, b.n, NULL, SPVBC_ERROR_INVALID_ID, bc, 12, "R-ID-RANGE");
    b.w[bc + 2] = R;
    spvbc_module_destroy(parse_ok(ctx, b.w, b.n));
    spvbc_context_destroy(ctx);
    assert_int_equal(a.live_blocks, 0);
    assert_int_equal(a.bad_free, 0);
    mb_free(&b);
}

/* Each allocation of parsing the `n` words `w` failing in turn (in place and copied): the
 * parse says OUT_OF_MEMORY, with the out-of-memory diagnostic only, and leaves the module
 * untouched, until one runs without a failure. */
static void each_allocation_fails(const uint32_t *w, size_t n)
{
    for (int copy = 0; copy < 2; ++copy) {
        for (size_t k = 1;; ++k) {
            assert_true(k < 100);
            test_alloc a;
            memset(&a, 0, sizeof a);
            const spvbc_allocator al = test_alloc_allocator(&a);
            spvbc_context ctx;
            assert_int_equal(spvbc_context_create(&al, &ctx), SPVBC_SUCCESS);
            a.fail_at = a.calls + k;
            spvbc_parse_options o = SPVBC_PARSE_OPTIONS_INIT;
            o.copy_words = copy;
            spvbc_module m = SENTINEL;
            const spvbc_result r = spvbc_module_parse(ctx, w, n, &o, &m);
            const int done = !a.triggered;
            if (done) {
                assert_int_equal(r, SPVBC_SUCCESS);
                spvbc_module_destroy(m);
            } else {
                if (r != SPVBC_ERROR_OUT_OF_MEMORY)
                    fail_msg("allocation %zu failed: %s", k, spvbc_result_string(r));
                assert_ptr_equal(m, SENTINEL);
                assert_int_equal(spvbc_context_diagnostic_count(ctx), 1);
                assert_string_equal(spvbc_context_diagnostic(ctx, 0)->rule, "R-MEMORY");
            }
            spvbc_context_destroy(ctx);
            assert_int_equal(a.live_blocks, 0);
            if (done) break;
        }
    }
}

/* each_allocation_fails() of a module with a bitcast, and of one with a cooperative matrix
 * type (whose shape operands the parse resolves in a block of its own). */
void test_parse_out_of_memory(void **state)
{
    (void)state;
    mb b = {0};
    mod_types(&b, BOUND);
    MB(&b, SpvOpFunction, VOID, FN, 0, FNTY);
    MB(&b, SpvOpLabel, LABEL);
    MB(&b, SpvOpUndef, V4, X);
    MB(&b, SpvOpBitcast, V3, R, X);
    mb_fn_end(&b);
    each_allocation_fails(b.w, b.n);
    /* uint, the constants 3 (Subgroup), 16 and 0 (MatrixA), a 16 x 16 matrix of floats
     * (OpTypeCooperativeMatrixKHR, 4456: Debian 12's headers, the cross builds', lack it) */
    enum { U32 = BOUND, C3, C16, C0, MAT, BOUND2 };
    mod_types(&b, BOUND2);
    MB(&b, SpvOpTypeInt, U32, 32, 0);
    MB(&b, SpvOpConstant, U32, C3, 3);
    MB(&b, SpvOpConstant, U32, C16, 16);
    MB(&b, SpvOpConstant, U32, C0, 0);
    MB(&b, 4456u, MAT, FLOAT, C3, C16, C16, C0);
    each_allocation_fails(b.w, b.n);
    mb_free(&b);
}
