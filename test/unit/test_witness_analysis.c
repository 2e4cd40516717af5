/* Second witnesses (test_witness.c says why) of source/analysis.c's OpBitcastExtractEXT rules:
 *   - the Offset is word 4 of an instruction of 5 words or more, and only there: a float
 *     Offset in a 5-word and in a 6-word extract is V-EXTRACT-OFFSET, an integer one is valid
 *     (unit.test_analysis and the lit fixture validate2026/bitcast_extract are the first);
 *   - an Offset that is the id bound has no value, so no verdict, and the id table is never
 *     read at the bound: every block of the library's ends right before an unreadable page
 *     (unit.test_analysis_alloc, whose allocator fills the words after each block, is the
 *     first);
 *   - a Base with no type is V1, one of bool V-EXTRACT-BASE (unit.test_rules is the first), a
 *     uint2 for a scalar V-EXTRACT-DIM (lit is the first); an extract of 4 words, R-OPERANDS.
 * Modules are built as words.
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
#include "diag_check.h"
#include "test_witness.h"

/* Resets `b` to a Shader module with 8-bit floats and OpBitcastExtractEXT (bound `bound`;
 * mb_shader_head's entry point %1, void %2 and void() %3): %4 uint, %6 Float8E4M3EXT, %8
 * float.  The tests add their constants, then open %1 with its label %5. */
static void extract_module(mb *b, uint32_t bound)
{
    const uint32_t caps[] = {CAP_FLOAT8_EXT, CAP_BITCAST_EXTRACT_EXT};
    const char *const ext[] = {"SPV_EXT_float8", "SPV_EXT_ocp_microscaling_types"};
    mb_shader_head(b, bound, caps, 2, ext, 2);
    MB(b, SpvOpTypeInt, 4, 32, 0);
    MB(b, SpvOpTypeFloat, 6, 8, FP_FLOAT8_E4M3_EXT);
    MB(b, SpvOpTypeFloat, 8, 32);
}

/* %9 = 0.5 (a float), %12 = 8 (a uint); %11 a 5-word extract at Offset %9, %13 one at %12,
 * %14 a 6-word one at %9 (the word after the Offset is the Offset again). */
void test_extract_offset_words(void **state)
{
    (void)state;
    if (opcode_unknown(OP_BITCAST_EXTRACT_EXT, "OpBitcastExtractEXT: SKIPPED")) skip();
    mb b = {NULL, 0, 0};
    extract_module(&b, 15);
    MB(&b, SpvOpConstant, 8, 9, 0x3f000000u);
    MB(&b, SpvOpConstant, 4, 12, 8);
    mb_fn_begin(&b, 2, 1, 3, 5);
    MB(&b, SpvOpUndef, 4, 10);
    MB(&b, OP_BITCAST_EXTRACT_EXT, 6, 11, 10, 9);
    MB(&b, OP_BITCAST_EXTRACT_EXT, 6, 13, 10, 12);
    MB(&b, OP_BITCAST_EXTRACT_EXT, 6, 14, 10, 9, 9);
    mb_fn_end(&b);
    spvbc_context ctx;
    spvbc_validate_summary vs;
    validate_words(b.w, b.n, 0, SPVBC_ERROR_VALIDATION_FAILED, &ctx, &vs);
    assert_int_equal(vs.bitcasts_checked, 3);
    assert_int_equal(vs.errors, 2);
    has_text(diag_of(ctx, 11, "V-EXTRACT-OFFSET", SPVBC_SEVERITY_ERROR)->message,
             "expected Offset to be a scalar integer type: ");
    no_diag_of(ctx, 13);
    has_text(diag_of(ctx, 14, "V-EXTRACT-OFFSET", SPVBC_SEVERITY_ERROR)->message,
             "expected Offset to be a scalar integer type: ");
    spvbc_context_destroy(ctx);
    mb_free(&b);
}

/* An extract's Base that has no type (the function's label %5): V1; one of bool: the Base is
 * not numerical, V-EXTRACT-BASE (unit.test_rules, on the rule's function alone, is the first);
 * a uint2 for a scalar result: a scalar has one component, V-EXTRACT-DIM (lit's
 * validate2026/bitcast_extract is the first). */
void test_extract_base_checks(void **state)
{
    (void)state;
    if (opcode_unknown(OP_BITCAST_EXTRACT_EXT, "OpBitcastExtractEXT: SKIPPED")) skip();
    mb b = {NULL, 0, 0};
    extract_module(&b, 17);
    MB(&b, SpvOpTypeBool, 9);
    MB(&b, SpvOpConstantTrue, 9, 10);
    MB(&b, SpvOpConstant, 4, 12, 8);
    MB(&b, SpvOpTypeVector, 14, 4, 2);
    mb_fn_begin(&b, 2, 1, 3, 5);
    MB(&b, OP_BITCAST_EXTRACT_EXT, 6, 11, 5, 12);
    MB(&b, OP_BITCAST_EXTRACT_EXT, 6, 13, 10, 12);
    MB(&b, SpvOpUndef, 14, 15);
    MB(&b, OP_BITCAST_EXTRACT_EXT, 6, 16, 15, 12);
    mb_fn_end(&b);
    spvbc_context ctx;
    spvbc_validate_summary vs;
    validate_words(b.w, b.n, 0, SPVBC_ERROR_VALIDATION_FAILED, &ctx, &vs);
    assert_int_equal(vs.bitcasts_checked, 3);
    assert_int_equal(vs.errors, 3);
    has_text(diag_of(ctx, 16, "V-EXTRACT-DIM", SPVBC_SEVERITY_ERROR)->message,
             "expected Base to have the same dimension as Result Type: ");
    diag_of(ctx, 11, "V1", SPVBC_SEVERITY_ERROR);
    has_text(diag_of(ctx, 13, "V-EXTRACT-BASE", SPVBC_SEVERITY_ERROR)->message,
             "expected Base to be a numerical scalar or vector type: ");
    spvbc_context_destroy(ctx);
    /* one of 4 words (no Offset) is refused at its word (unit.test_reader_records is the
     * first witness) */
    extract_module(&b, 17);
    mb_fn_begin(&b, 2, 1, 3, 5);
    MB(&b, SpvOpUndef, 4, 10);
    const size_t at = MB(&b, OP_BITCAST_EXTRACT_EXT, 6, 11, 10);
    mb_fn_end(&b);
    expect_parse_error(b.w, b.n, SPVBC_ERROR_INVALID_BINARY, "R-OPERANDS", at,
                       "OpBitcastExtractEXT is missing its base or offset");
    mb_free(&b);
}

#ifdef HAVE_GUARD_PAGE
/* An allocator whose every block ends, rounded up to 16 bytes, right before a page that cannot
 * be read: a read past the id table (bound x 4 bytes, a multiple of 16 here) ends the program. */
static size_t page_size(void)
{
    return (size_t)sysconf(_SC_PAGESIZE);
}

/* `bytes` bytes that end right before a page that cannot be read (NULL if none can be mapped),
 * and their release. */
static size_t span_of(size_t bytes)
{
    const size_t page = page_size();
    return (bytes + page - 1) / page * page;
}

static uint8_t *before_guard(size_t bytes)
{
    const size_t span = span_of(bytes), page = page_size();
    uint8_t *map = (uint8_t *)mmap(NULL, span + page, PROT_READ | PROT_WRITE,
                                   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (map == MAP_FAILED) return NULL;
    if (mprotect(map + span, page, PROT_NONE) != 0) {
        munmap(map, span + page);
        return NULL;
    }
    return map + span - bytes;
}

static void before_guard_free(uint8_t *block, size_t bytes)
{
    munmap(block + bytes - span_of(bytes), span_of(bytes) + page_size());
}

static void *guarded_alloc(void *user, size_t size)
{
    (void)user;
    return before_guard((size + 15) / 16 * 16);
}

static void guarded_free(void *user, void *ptr, size_t size)
{
    (void)user;
    if (ptr) before_guard_free((uint8_t *)ptr, (size + 15) / 16 * 16);
}

spvbc_context guarded_context(void)
{
    const spvbc_allocator al = SPVBC_ALLOCATOR_INIT(guarded_alloc, guarded_free, NULL);
    spvbc_context ctx = NULL;
    assert_int_equal(spvbc_context_create(&al, &ctx), SPVBC_SUCCESS);
    return ctx;
}

uint32_t *guarded_words(const uint32_t *w, size_t n)
{
    uint8_t *block = before_guard(n * 4);
    assert_non_null(block);
    return (uint32_t *)memcpy(block, w, n * 4);
}

void guarded_words_free(uint32_t *words, size_t n)
{
    before_guard_free((uint8_t *)words, n * 4);
}
#else
spvbc_context guarded_context(void)
{
    return NULL;
}

uint32_t *guarded_words(const uint32_t *w, size_t n)
{
    (void)w;
    (void)n;
    return NULL;
}

void guarded_words_free(uint32_t *words, size_t n)
{
    (void)words;
    (void)n;
}
#endif

void guarded_parse_fails(const uint32_t *w, size_t n, const char *rule, size_t at)
{
    expect_parse_error_in(guarded_context(), w, n, SPVBC_ERROR_INVALID_ID, rule, at, NULL);
}

int guard_pages_missing(void)
{
    spvbc_context probe = guarded_context();
    if (probe) {
        spvbc_context_destroy(probe);
        return 0;
    }
    fprintf(stderr, "no mmap here: the sanitizer build watches these reads: SKIPPED\n");
    return 1;
}

/* The same allocator for the parse: a struct whose member is the id bound (12 ids) is refused at
 * its word (R-ID-RANGE), and the id table is not read at the bound to say so (unit.malformed's
 * rows of ids at the bound are the first witness). */
void test_struct_member_at_bound_at_a_page(void **state)
{
    (void)state;
#ifndef HAVE_GUARD_PAGE
    skip(); /* no mmap here: the id table's reads are watched by the sanitizer build instead */
#else
    mb b = {NULL, 0, 0};
    mb_kernel_head(&b, 0x00010000u, 12, 1);
    MB(&b, SpvOpTypeFloat, 4, 32);
    const size_t at = MB(&b, SpvOpTypeStruct, 5, 4, 12);
    guarded_parse_fails(b.w, b.n, "R-ID-RANGE", at);
    mb_free(&b);
#endif
}

/* %11 = OpBitcastExtractEXT e4m3 of a uint at Offset %12, the bound (12 ids: the id table is 48
 * bytes): no value, so no verdict, and the extract is valid. */
void test_extract_offset_at_bound_at_a_page(void **state)
{
    (void)state;
#ifndef HAVE_GUARD_PAGE
    skip(); /* no mmap here: the id table's reads are watched by the sanitizer build instead */
#else
    if (opcode_unknown(OP_BITCAST_EXTRACT_EXT, "OpBitcastExtractEXT: SKIPPED")) skip();
    mb b = {NULL, 0, 0};
    extract_module(&b, 12);
    mb_fn_begin(&b, 2, 1, 3, 5);
    MB(&b, SpvOpUndef, 4, 10);
    MB(&b, OP_BITCAST_EXTRACT_EXT, 6, 11, 10, 12);
    mb_fn_end(&b);
    spvbc_context ctx = guarded_context();
    spvbc_module mod;
    assert_int_equal(spvbc_module_parse(ctx, b.w, b.n, NULL, &mod), SPVBC_SUCCESS);
    spvbc_validate_summary vs = SPVBC_VALIDATE_SUMMARY_INIT;
    assert_int_equal(spvbc_module_validate(mod, NULL, &vs), SPVBC_SUCCESS);
    assert_int_equal(vs.bitcasts_checked, 1);
    assert_int_equal(vs.errors, 0);
    assert_int_equal(spvbc_context_diagnostic_count(ctx), 0);
    spvbc_module_destroy(mod);
    spvbc_context_destroy(ctx);
    mb_free(&b);
#endif
}
