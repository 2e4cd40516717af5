/*
 * test_malformed.c - the catalogue of bad input (docs/robustness.md).
 *
 * Every malformed binary is built here from word arrays (test/support/modbuild.h), never checked
 * in as a blob.  Each case asserts the exact spvbc_result, that the out-parameter is untouched,
 * that exactly one error diagnostic says where (word_offset, instruction_index, rule), and that
 * the caller's words are unchanged.  Each parse case runs three ways: spvbc_module_parse,
 * spvbc_module_parse with copy_words, and spvbc_module_parse_bytes from a misaligned copy.
 *
 * Header errors point at the offending header word (magic 0, version 1, bound 3, schema 4; a
 * short header at 0; a size that is not a multiple of 4 at size / 4), with instruction_index
 * SPVBC_NO_POSITION.  Instruction errors point at the instruction's first word.
 *
 * The last group calls every public function with NULL arguments.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "modbuild.h"
#include "spirv_bitcast.h"
#include "spvval.h"
#include "test_alloc.h"

#define ANY_INDEX ((size_t)-2)
#define HDR SPVBC_NO_POSITION

/* ---- the base module ------------------------------------------------------------------- */

/* Ids of the base Kernel module (a float4 -> float3 OpBitcast, lowerable). */
enum { ID_FN = 1, ID_VOID, ID_FNTY, ID_FLOAT, ID_V4, ID_V3, ID_LABEL, ID_X, ID_R, BASE_BOUND };

typedef struct base_at {
    size_t tfloat, tv4, tv3, fn, undef, bitcast, ret;
} base_at;

/* The base module: instruction index of each line in comments. */
static void base_module(mb *b, uint32_t version, base_at *at)
{
    base_at a;
    mb_kernel_head(b, version, BASE_BOUND, ID_FN); /* 0-3 */
    MB(b, SpvOpTypeVoid, ID_VOID); /* 4 */
    MB(b, SpvOpTypeFunction, ID_FNTY, ID_VOID); /* 5 */
    a.tfloat = MB(b, SpvOpTypeFloat, ID_FLOAT, 32); /* 6 */
    a.tv4 = MB(b, SpvOpTypeVector, ID_V4, ID_FLOAT, 4); /* 7 */
    a.tv3 = MB(b, SpvOpTypeVector, ID_V3, ID_FLOAT, 3); /* 8 */
    a.fn = MB(b, SpvOpFunction, ID_VOID, ID_FN, 0, ID_FNTY); /* 9 */
    MB(b, SpvOpLabel, ID_LABEL); /* 10 */
    a.undef = MB(b, SpvOpUndef, ID_V4, ID_X); /* 11 */
    a.bitcast = MB(b, SpvOpBitcast, ID_V3, ID_R, ID_X); /* 12 */
    a.ret = mb_op0(b, SpvOpReturn); /* 13 */
    mb_op0(b, SpvOpFunctionEnd); /* 14 */
    if (at) *at = a;
}

#define BASE_BITCAST_INDEX 12u

/* ---- helpers --------------------------------------------------------------------------- */

static const spvbc_module SENTINEL_MODULE = (spvbc_module)(uintptr_t)0x5a5a5a50u;

static void check_one_error(spvbc_context ctx, size_t offset, size_t index, const char *rule)
{
    assert_int_equal(spvbc_context_diagnostic_count(ctx), 1);
    const spvbc_diagnostic *d = spvbc_context_diagnostic(ctx, 0);
    assert_non_null(d);
    assert_int_equal(d->severity, SPVBC_SEVERITY_ERROR);
    assert_non_null(d->message);
    assert_true(strlen(d->message) > 0);
    assert_non_null(d->rule);
    if (d->word_offset != offset)
        fail_msg("word_offset %zu, expected %zu (%s: %s)", d->word_offset, offset, d->rule,
                 d->message);
    if (index != ANY_INDEX) assert_int_equal(d->instruction_index, index);
    if (rule && strcmp(d->rule, rule) != 0)
        fail_msg("rule %s, expected %s (%s)", d->rule, rule, d->message);
}

/* Parses `n` words three ways and checks the expected failure each time. */
static void expect_parse_fail_opts(const uint32_t *words, size_t n, const spvbc_parse_options *opts,
                                   spvbc_result expect, size_t offset, size_t index,
                                   const char *rule)
{
    uint32_t *copy = (uint32_t *)malloc(n * 4 + 4);
    assert_non_null(copy);
    if (n) memcpy(copy, words, n * 4);
    spvbc_context ctx;
    assert_int_equal(spvbc_context_create(NULL, &ctx), SPVBC_SUCCESS);

    for (int way = 0; way < 3; ++way) {
        spvbc_module m = SENTINEL_MODULE;
        spvbc_parse_options o = SPVBC_PARSE_OPTIONS_INIT;
        if (opts) o = *opts;
        spvbc_result r;
        if (way == 0) {
            r = spvbc_module_parse(ctx, words, n, opts, &m);
        } else if (way == 1) {
            o.copy_words = 1;
            r = spvbc_module_parse(ctx, words, n, &o, &m);
        } else {
            unsigned char *bytes = (unsigned char *)malloc(n * 4 + 1);
            assert_non_null(bytes);
            if (n) memcpy(bytes + 1, words, n * 4);
            r = spvbc_module_parse_bytes(ctx, bytes + 1, n * 4, opts, &m);
            free(bytes);
        }
        if (r != expect)
            fail_msg("way %d: result %s, expected %s", way, spvbc_result_string(r),
                     spvbc_result_string(expect));
        assert_ptr_equal(m, SENTINEL_MODULE);
        check_one_error(ctx, offset, index, rule);
        if (n) assert_memory_equal(words, copy, n * 4);
    }
    spvbc_context_destroy(ctx);
    free(copy);
}

static void expect_parse_fail(const mb *b, spvbc_result expect, size_t offset, size_t index,
                              const char *rule)
{
    expect_parse_fail_opts(b->w, b->n, NULL, expect, offset, index, rule);
}

static spvbc_module parse_ok(spvbc_context ctx, const uint32_t *w, size_t n,
                             const spvbc_parse_options *o)
{
    spvbc_module m = NULL;
    spvbc_result r = spvbc_module_parse(ctx, w, n, o, &m);
    if (r != SPVBC_SUCCESS) {
        const spvbc_diagnostic *d = spvbc_context_diagnostic(ctx, 0);
        fail_msg("parse: %s (%s)", spvbc_result_string(r), d ? d->message : "no diagnostic");
    }
    assert_non_null(m);
    return m;
}

static void check_valid_spirv(const uint32_t *w, size_t n)
{
    char msg[1024];
    int v = spvval_check(w, n, msg, sizeof msg);
    if (v != 1) fail_msg("spirv-val rejects the lowered module: %s", msg);
}

/* ---- empty, truncated, size ------------------------------------------------------------ */

static void test_empty(void **state)
{
    (void)state;
    uint32_t dummy = SpvMagicNumber;
    expect_parse_fail_opts(&dummy, 0, NULL, SPVBC_ERROR_INVALID_BINARY, 0, HDR, "R-HEADER");
    /* NULL words with count 0 is an empty module, not a NULL argument. */
    spvbc_context ctx;
    assert_int_equal(spvbc_context_create(NULL, &ctx), SPVBC_SUCCESS);
    spvbc_module m = SENTINEL_MODULE;
    assert_int_equal(spvbc_module_parse(ctx, NULL, 0, NULL, &m), SPVBC_ERROR_INVALID_BINARY);
    assert_ptr_equal(m, SENTINEL_MODULE);
    check_one_error(ctx, 0, HDR, "R-HEADER");
    assert_int_equal(spvbc_module_parse_bytes(ctx, &dummy, 0, NULL, &m),
                     SPVBC_ERROR_INVALID_BINARY);
    assert_ptr_equal(m, SENTINEL_MODULE);
    check_one_error(ctx, 0, HDR, "R-HEADER");
    spvbc_context_destroy(ctx);
}

static void test_truncated_header(void **state)
{
    (void)state;
    mb b = {0};
    base_module(&b, 0x00010000u, NULL);
    for (size_t n = 1; n < 5; ++n)
        expect_parse_fail_opts(b.w, n, NULL, SPVBC_ERROR_INVALID_BINARY, 0, HDR, "R-HEADER");
    mb_free(&b);
}

/* Cutting the module inside any instruction is INVALID_BINARY at that instruction; cutting it
 * at an instruction boundary leaves a shorter module that must parse or fail cleanly. */
static void test_truncated_everywhere(void **state)
{
    (void)state;
    mb b = {0};
    base_module(&b, 0x00010000u, NULL);
    size_t inst_start = 5, index = 0;
    for (size_t cut = 5; cut < b.n; ++cut) {
        while (inst_start + (b.w[inst_start] >> 16) <= cut) {
            inst_start += b.w[inst_start] >> 16;
            ++index;
        }
        if (cut == inst_start) {
            spvbc_context ctx;
            assert_int_equal(spvbc_context_create(NULL, &ctx), SPVBC_SUCCESS);
            spvbc_module m = NULL;
            spvbc_result r = spvbc_module_parse(ctx, b.w, cut, NULL, &m);
            assert_true(r == SPVBC_SUCCESS || r == SPVBC_ERROR_INVALID_BINARY ||
                        r == SPVBC_ERROR_INVALID_ID);
            if (r == SPVBC_SUCCESS) {
                spvbc_module_info info = SPVBC_MODULE_INFO_INIT;
                assert_int_equal(spvbc_module_get_info(m, &info), SPVBC_SUCCESS);
                assert_int_equal(info.instruction_count, index);
                (void)spvbc_module_validate(m, NULL, NULL);
                spvbc_module_destroy(m);
            }
            spvbc_context_destroy(ctx);
        } else {
            expect_parse_fail_opts(b.w, cut, NULL, SPVBC_ERROR_INVALID_BINARY, inst_start, index,
                                   "R-TRUNCATED");
        }
    }
    mb_free(&b);
}

static void test_size_not_multiple_of_4(void **state)
{
    (void)state;
    mb b = {0};
    base_module(&b, 0x00010000u, NULL);
    unsigned char *buf = (unsigned char *)malloc(b.n * 4 + 8);
    assert_non_null(buf);
    spvbc_context ctx;
    assert_int_equal(spvbc_context_create(NULL, &ctx), SPVBC_SUCCESS);
    const size_t sizes[] = {1, 2, 3, 5, 19, 21, b.n * 4 - 1, b.n * 4 + 1, b.n * 4 + 2, b.n * 4 + 3};
    for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; ++i) {
        for (size_t misalign = 0; misalign < 2; ++misalign) {
            memset(buf, 0, b.n * 4 + 8);
            memcpy(buf + misalign, b.w, b.n * 4);
            spvbc_module m = SENTINEL_MODULE;
            assert_int_equal(spvbc_module_parse_bytes(ctx, buf + misalign, sizes[i], NULL, &m),
                             SPVBC_ERROR_INVALID_BINARY);
            assert_ptr_equal(m, SENTINEL_MODULE);
            check_one_error(ctx, sizes[i] / 4, HDR, "R-SIZE");
            assert_memory_equal(buf + misalign, b.w, b.n * 4);
        }
    }
    /* The whole module from every misalignment parses. */
    for (size_t misalign = 0; misalign < 4; ++misalign) {
        memcpy(buf + misalign, b.w, b.n * 4);
        spvbc_module m = NULL;
        assert_int_equal(spvbc_module_parse_bytes(ctx, buf + misalign, b.n * 4, NULL, &m),
                         SPVBC_SUCCESS);
        spvbc_module_destroy(m);
    }
    spvbc_context_destroy(ctx);
    free(buf);
    mb_free(&b);
}

/* ---- header ---------------------------------------------------------------------------- */

/* The base module with header word `word` set to each of the `n` `values`: INVALID_BINARY at
 * that word with rule `rule` each time. */
static void expect_header_word_fails(size_t word, const uint32_t *values, size_t n,
                                     const char *rule)
{
    mb b = {0};
    for (size_t i = 0; i < n; ++i) {
        base_module(&b, 0x00010000u, NULL);
        b.w[word] = values[i];
        expect_parse_fail(&b, SPVBC_ERROR_INVALID_BINARY, word, HDR, rule);
    }
    mb_free(&b);
}

static void test_bad_magic(void **state)
{
    (void)state;
    const uint32_t magics[] = {0, 0xDEADBEEFu, SpvMagicNumber + 1, 0x07230200u, 0xFFFFFFFFu};
    expect_header_word_fails(0, magics, sizeof magics / sizeof magics[0], "R-MAGIC");
}

/* A module in the opposite byte order is detected by its magic and swapped: it parses,
 * says so, and lowers exactly as the host-order module does. */
static void test_byte_swapped(void **state)
{
    (void)state;
    mb b = {0};
    base_at at;
    base_module(&b, 0x00010300u, &at);
    uint32_t *sw = (uint32_t *)malloc(b.n * 4);
    assert_non_null(sw);
    for (size_t i = 0; i < b.n; ++i)
        sw[i] = mb_bswap(b.w[i]);
    uint32_t *sw_copy = (uint32_t *)malloc(b.n * 4);
    assert_non_null(sw_copy);
    memcpy(sw_copy, sw, b.n * 4);

    spvbc_context ctx;
    assert_int_equal(spvbc_context_create(NULL, &ctx), SPVBC_SUCCESS);
    spvbc_module host = parse_ok(ctx, b.w, b.n, NULL);
    spvbc_module swapped = parse_ok(ctx, sw, b.n, NULL);

    spvbc_module_info hi = SPVBC_MODULE_INFO_INIT, si = SPVBC_MODULE_INFO_INIT;
    assert_int_equal(spvbc_module_get_info(host, &hi), SPVBC_SUCCESS);
    assert_int_equal(spvbc_module_get_info(swapped, &si), SPVBC_SUCCESS);
    assert_int_equal(hi.byte_swapped, 0);
    assert_int_equal(si.byte_swapped, 1);
    assert_int_equal(si.version, 0x00010300u);
    assert_int_equal(si.id_bound, BASE_BOUND);
    assert_int_equal(si.instruction_count, 15);
    assert_int_equal(si.bitcast_count, 1);
    assert_int_equal(si.is_kernel, 1);

    spvbc_validate_summary vs = SPVBC_VALIDATE_SUMMARY_INIT;
    assert_int_equal(spvbc_module_validate(swapped, NULL, &vs), SPVBC_ERROR_VALIDATION_FAILED);
    assert_int_equal(vs.errors, 1);
    assert_int_equal(vs.lowerable, 1);
    const spvbc_diagnostic *d = spvbc_context_diagnostic(ctx, 0);
    assert_non_null(d);
    assert_int_equal(d->word_offset, at.bitcast);
    assert_int_equal(d->instruction_index, BASE_BITCAST_INDEX);
    assert_string_equal(d->rule, "V12");

    spvbc_lower_summary hs = SPVBC_LOWER_SUMMARY_INIT, ss = SPVBC_LOWER_SUMMARY_INIT;
    assert_int_equal(spvbc_module_lower(host, NULL, &hs), SPVBC_SUCCESS);
    assert_int_equal(spvbc_module_lower(swapped, NULL, &ss), SPVBC_SUCCESS);
    assert_int_equal(ss.rewritten, 1);
    assert_int_equal(ss.refused, 0);
    const uint32_t *hw, *sww;
    size_t hn, sn;
    assert_int_equal(spvbc_module_get_words(host, &hw, &hn), SPVBC_SUCCESS);
    assert_int_equal(spvbc_module_get_words(swapped, &sww, &sn), SPVBC_SUCCESS);
    assert_int_equal(sww[0], SpvMagicNumber); /* the output is in host order */
    assert_int_equal(hn, sn);
    assert_memory_equal(hw, sww, hn * 4);
    check_valid_spirv(sww, sn);
    assert_memory_equal(sw, sw_copy, b.n * 4);

    spvbc_context_destroy(ctx); /* destroys both modules */
    free(sw);
    free(sw_copy);
    mb_free(&b);
}

static void test_versions(void **state)
{
    (void)state;
    mb b = {0};
    const uint32_t bad[] = {0x00000000u, 0x00010700u, 0x0001FF00u, 0x00020000u, 0x00000100u,
                            0x00010001u, 0x01010000u, 0x00010580u, 0xFFFFFFFFu};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; ++i) {
        base_module(&b, bad[i], NULL);
        expect_parse_fail(&b, SPVBC_ERROR_INVALID_BINARY, 1, HDR, "R-VERSION");
    }
    spvbc_context ctx;
    assert_int_equal(spvbc_context_create(NULL, &ctx), SPVBC_SUCCESS);
    for (uint32_t minor = 0; minor <= 6; ++minor) {
        base_module(&b, 0x00010000u | (minor << 8), NULL);
        spvbc_module m = parse_ok(ctx, b.w, b.n, NULL);
        spvbc_module_info info = SPVBC_MODULE_INFO_INIT;
        assert_int_equal(spvbc_module_get_info(m, &info), SPVBC_SUCCESS);
        assert_int_equal(info.version, 0x00010000u | (minor << 8));
        spvbc_module_destroy(m);
    }
    spvbc_context_destroy(ctx);
    mb_free(&b);
}

static void test_bound_zero(void **state)
{
    (void)state;
    mb b = {0};
    base_module(&b, 0x00010000u, NULL);
    b.w[3] = 0;
    expect_parse_fail(&b, SPVBC_ERROR_INVALID_BINARY, 3, HDR, "R-BOUND");
    mb_free(&b);
}

static void test_bound_above_cap(void **state)
{
    (void)state;
    mb b = {0};
    base_module(&b, 0x00010000u, NULL);
    spvbc_context ctx;
    assert_int_equal(spvbc_context_create(NULL, &ctx), SPVBC_SUCCESS);

    b.w[3] = SPVBC_DEFAULT_MAX_ID_BOUND + 1u;
    expect_parse_fail(&b, SPVBC_ERROR_UNSUPPORTED, 3, HDR, "R-BOUND");
    /* Raising the cap makes it parse. */
    spvbc_parse_options o = {sizeof(spvbc_parse_options), SPVBC_DEFAULT_MAX_ID_BOUND + 1u, 0};
    spvbc_module m = parse_ok(ctx, b.w, b.n, &o);
    spvbc_module_info info = SPVBC_MODULE_INFO_INIT;
    assert_int_equal(spvbc_module_get_info(m, &info), SPVBC_SUCCESS);
    assert_int_equal(info.id_bound, SPVBC_DEFAULT_MAX_ID_BOUND + 1u);
    spvbc_module_destroy(m);
    /* The default cap itself is accepted. */
    b.w[3] = SPVBC_DEFAULT_MAX_ID_BOUND;
    m = parse_ok(ctx, b.w, b.n, NULL);
    spvbc_module_destroy(m);

    /* A caller cap: at the cap parses, one above is UNSUPPORTED. */
    o.max_id_bound = 64;
    b.w[3] = 64;
    m = parse_ok(ctx, b.w, b.n, &o);
    spvbc_module_destroy(m);
    b.w[3] = 65;
    expect_parse_fail_opts(b.w, b.n, &o, SPVBC_ERROR_UNSUPPORTED, 3, HDR, "R-BOUND");
    b.w[3] = 0xFFFFFFFFu;
    expect_parse_fail(&b, SPVBC_ERROR_UNSUPPORTED, 3, HDR, "R-BOUND");

    spvbc_context_destroy(ctx);
    mb_free(&b);
}

/* The largest caps a caller can ask for fail cleanly (UNSUPPORTED or OUT_OF_MEMORY), through an
 * allocator that refuses anything above 64 MiB, without leaking. */
static void test_bound_huge_with_raised_cap(void **state)
{
    (void)state;
    mb b = {0};
    base_module(&b, 0x00010000u, NULL);
    test_alloc ta;
    spvbc_allocator a = test_alloc_allocator(&ta);
    const uint32_t bounds[] = {0x7FFFFFF0u, 0x7FFFFFFFu, 0x80000000u, 0xFFFFFFFFu};
    for (size_t i = 0; i < sizeof bounds / sizeof bounds[0]; ++i) {
        memset(&ta, 0, sizeof ta);
        ta.max_size = (size_t)64 << 20;
        spvbc_context ctx;
        assert_int_equal(spvbc_context_create(&a, &ctx), SPVBC_SUCCESS);
        b.w[3] = bounds[i];
        spvbc_parse_options o = {sizeof(spvbc_parse_options), 0xFFFFFFFFu, 0};
        spvbc_module m = SENTINEL_MODULE;
        spvbc_result r = spvbc_module_parse(ctx, b.w, b.n, &o, &m);
        assert_true(r == SPVBC_ERROR_UNSUPPORTED || r == SPVBC_ERROR_OUT_OF_MEMORY);
        assert_ptr_equal(m, SENTINEL_MODULE);
        assert_true(spvbc_context_diagnostic_count(ctx) >= 1);
        spvbc_context_destroy(ctx);
        assert_int_equal(ta.bad_free, 0);
        assert_int_equal(ta.live_bytes, 0);
    }
    mb_free(&b);
}

static void test_schema(void **state)
{
    (void)state;
    const uint32_t schemas[] = {1, 0x80000000u, 0xFFFFFFFFu};
    expect_header_word_fails(4, schemas, sizeof schemas / sizeof schemas[0], "R-SCHEMA");
}

/* ---- word counts ----------------------------------------------------------------------- */

static void test_word_count_zero(void **state)
{
    (void)state;
    mb b = {0};
    base_at at;
    /* Word count 0 at the first instruction, in the middle, and at the last. */
    base_module(&b, 0x00010000u, &at);
    b.w[5] = SpvOpCapability; /* (0 << 16) | opcode */
    expect_parse_fail(&b, SPVBC_ERROR_INVALID_BINARY, 5, 0, "R-WORD-COUNT");
    base_module(&b, 0x00010000u, &at);
    b.w[at.bitcast] &= 0xFFFFu;
    expect_parse_fail(&b, SPVBC_ERROR_INVALID_BINARY, at.bitcast, BASE_BITCAST_INDEX,
                      "R-WORD-COUNT");
    base_module(&b, 0x00010000u, &at);
    b.w[b.n - 1] = 0; /* OpNop with word count 0 in place of OpFunctionEnd */
    expect_parse_fail(&b, SPVBC_ERROR_INVALID_BINARY, b.n - 1, 14, "R-WORD-COUNT");
    mb_free(&b);
}

static void test_instruction_past_end(void **state)
{
    (void)state;
    mb b = {0};
    base_at at;
    base_module(&b, 0x00010000u, &at);
    /* The last instruction claims 2 words where 1 is left. */
    b.w[b.n - 1] = (2u << 16) | SpvOpFunctionEnd;
    expect_parse_fail(&b, SPVBC_ERROR_INVALID_BINARY, b.n - 1, 14, "R-TRUNCATED");
    /* An instruction in the middle claims the whole rest and one more word. */
    base_module(&b, 0x00010000u, &at);
    b.w[at.tv4] = (uint32_t)((b.n - at.tv4 + 1) << 16) | SpvOpTypeVector;
    expect_parse_fail(&b, SPVBC_ERROR_INVALID_BINARY, at.tv4, 7, "R-TRUNCATED");
    /* The largest word count. */
    base_module(&b, 0x00010000u, &at);
    b.w[at.bitcast] = 0xFFFF0000u | SpvOpBitcast;
    expect_parse_fail(&b, SPVBC_ERROR_INVALID_BINARY, at.bitcast, BASE_BITCAST_INDEX,
                      "R-TRUNCATED");
    mb_free(&b);
}

/* ---- ids ------------------------------------------------------------------------------- */

static void test_id_zero(void **state)
{
    (void)state;
    mb b = {0};
    base_at at;
    /* A result id 0. */
    base_module(&b, 0x00010000u, &at);
    b.w[at.tfloat + 1] = 0;
    expect_parse_fail(&b, SPVBC_ERROR_INVALID_ID, at.tfloat, 6, "R-ID-ZERO");
    /* A result id 0 on the bitcast. */
    base_module(&b, 0x00010000u, &at);
    b.w[at.bitcast + 2] = 0;
    expect_parse_fail(&b, SPVBC_ERROR_INVALID_ID, at.bitcast, BASE_BITCAST_INDEX, "R-ID-ZERO");
    /* A result type id 0. */
    base_module(&b, 0x00010000u, &at);
    b.w[at.bitcast + 1] = 0;
    expect_parse_fail(&b, SPVBC_ERROR_INVALID_ID, at.bitcast, BASE_BITCAST_INDEX, NULL);
    /* A type operand 0 (the vector's component type). */
    base_module(&b, 0x00010000u, &at);
    b.w[at.tv4 + 2] = 0;
    expect_parse_fail(&b, SPVBC_ERROR_INVALID_ID, at.tv4, 7, NULL);
    mb_free(&b);
}

static void test_id_at_or_above_bound(void **state)
{
    (void)state;
    mb b = {0};
    base_at at;
    const uint32_t ids[] = {BASE_BOUND, BASE_BOUND + 1, 0x7FFFFFFFu, 0xFFFFFFFFu};
    for (size_t i = 0; i < sizeof ids / sizeof ids[0]; ++i) {
        base_module(&b, 0x00010000u, &at);
        b.w[at.bitcast + 2] = ids[i]; /* result id */
        expect_parse_fail(&b, SPVBC_ERROR_INVALID_ID, at.bitcast, BASE_BITCAST_INDEX, "R-ID-RANGE");
        base_module(&b, 0x00010000u, &at);
        b.w[at.bitcast + 1] = ids[i]; /* result type id */
        expect_parse_fail(&b, SPVBC_ERROR_INVALID_ID, at.bitcast, BASE_BITCAST_INDEX, NULL);
        base_module(&b, 0x00010000u, &at);
        b.w[at.tv3 + 2] = ids[i]; /* type operand */
        expect_parse_fail(&b, SPVBC_ERROR_INVALID_ID, at.tv3, 8, NULL);
    }
    /* A bound one too small for the largest id. */
    base_module(&b, 0x00010000u, &at);
    b.w[3] = BASE_BOUND - 1;
    expect_parse_fail(&b, SPVBC_ERROR_INVALID_ID, at.bitcast, BASE_BITCAST_INDEX, "R-ID-RANGE");
    mb_free(&b);
}

static void test_redefined_id(void **state)
{
    (void)state;
    mb b = {0};
    base_at at;
    /* The bitcast redefines its own operand's id. */
    base_module(&b, 0x00010000u, &at);
    b.w[at.bitcast + 2] = ID_X;
    expect_parse_fail(&b, SPVBC_ERROR_INVALID_ID, at.bitcast, BASE_BITCAST_INDEX, "R-ID-REDEFINED");
    /* A type declared twice under one id. */
    base_module(&b, 0x00010000u, &at);
    b.w[at.tv3 + 1] = ID_V4;
    expect_parse_fail(&b, SPVBC_ERROR_INVALID_ID, at.tv3, 8, "R-ID-REDEFINED");
    /* A value id reused by a type. */
    mb_kernel_head(&b, 0x00010000u, BASE_BOUND, ID_FN);
    MB(&b, SpvOpTypeFloat, ID_FLOAT, 32);
    MB(&b, SpvOpConstantNull, ID_FLOAT, ID_X);
    size_t at_dup = MB(&b, SpvOpTypeVector, ID_X, ID_FLOAT, 4);
    expect_parse_fail(&b, SPVBC_ERROR_INVALID_ID, at_dup, 6, "R-ID-REDEFINED");
    mb_free(&b);
}

/* ---- bitcast shapes -------------------------------------------------------------------- */

static void test_bitcast_missing_operand(void **state)
{
    (void)state;
    mb b = {0};
    mb_kernel_head(&b, 0x00010000u, BASE_BOUND, ID_FN);
    mb_void_fn_type(&b, ID_VOID, ID_FNTY);
    MB(&b, SpvOpTypeFloat, ID_FLOAT, 32);
    MB(&b, SpvOpTypeVector, ID_V4, ID_FLOAT, 4);
    MB(&b, SpvOpTypeVector, ID_V3, ID_FLOAT, 3);
    mb_fn_begin(&b, ID_VOID, ID_FN, ID_FNTY, ID_LABEL);
    MB(&b, SpvOpUndef, ID_V4, ID_X);
    size_t bc = MB(&b, SpvOpBitcast, ID_V3, ID_R); /* no operand */
    mb_fn_end(&b);
    expect_parse_fail(&b, SPVBC_ERROR_INVALID_BINARY, bc, BASE_BITCAST_INDEX, "R-OPERANDS");
    /* Neither result id nor operand. */
    b.w[bc] = (2u << 16) | SpvOpBitcast;
    b.w[bc + 2] = (1u << 16) | SpvOpNop;
    expect_parse_fail(&b, SPVBC_ERROR_INVALID_BINARY, bc, BASE_BITCAST_INDEX, "R-OPERANDS");
    /* Only the opcode word. */
    b.w[bc] = (1u << 16) | SpvOpBitcast;
    b.w[bc + 1] = (1u << 16) | SpvOpNop;
    expect_parse_fail(&b, SPVBC_ERROR_INVALID_BINARY, bc, BASE_BITCAST_INDEX, "R-OPERANDS");
    mb_free(&b);
}

/* An operand that names a type parses, and validate reports V0 at the bitcast (spirv-val:
 * "Operand '5[%v4float]' cannot be a type"); lower leaves it alone. */
static void test_bitcast_operand_is_type(void **state)
{
    (void)state;
    mb b = {0};
    base_at at;
    base_module(&b, 0x00010000u, &at);
    b.w[at.bitcast + 3] = ID_V4;
    char msg[512];
    assert_int_equal(spvval_check(b.w, b.n, msg, sizeof msg), 0);
    assert_non_null(strstr(msg, "cannot be a type"));

    spvbc_context ctx;
    assert_int_equal(spvbc_context_create(NULL, &ctx), SPVBC_SUCCESS);
    spvbc_module m = parse_ok(ctx, b.w, b.n, NULL);
    spvbc_validate_summary s = SPVBC_VALIDATE_SUMMARY_INIT;
    memset(&s, 0xA5, sizeof s);
    assert_int_equal(spvbc_module_validate(m, NULL, &s), SPVBC_ERROR_VALIDATION_FAILED);
    assert_int_equal(s.errors, 1);
    assert_int_equal(s.lowerable, 0);
    assert_int_equal(s.bitcasts_checked, 1);
    check_one_error(ctx, at.bitcast, BASE_BITCAST_INDEX, "V0");
    assert_int_equal(spvbc_context_diagnostic(ctx, 0)->lowerable, 0);

    spvbc_lower_summary ls = SPVBC_LOWER_SUMMARY_INIT;
    assert_int_equal(spvbc_module_lower(m, NULL, &ls), SPVBC_PARTIAL);
    assert_int_equal(ls.rewritten, 0);
    assert_int_equal(ls.refused, 1);
    const uint32_t *w;
    size_t n;
    assert_int_equal(spvbc_module_get_words(m, &w, &n), SPVBC_SUCCESS);
    assert_ptr_equal(w, b.w);
    assert_int_equal(n, b.n);
    spvbc_context_destroy(ctx);
    mb_free(&b);
}

/* An OpBitcast operand id that is 0, at or above the bound, or never defined: the parse
 * accepts the instruction (operand ids are not type ids) and validate reports an error at the
 * bitcast (rule R-UNDEF), which lower refuses.  (An operand defined only after its use is not
 * detected: the parse is one linear pass; spirv-val reports it as an id error.) */
static void test_bitcast_operand_undefined(void **state)
{
    (void)state;
    mb b = {0};
    base_at at;
    const uint32_t ids[] = {0, BASE_BOUND, 0xFFFFFFFFu, 0 /* unset */};
    for (size_t i = 0; i < sizeof ids / sizeof ids[0]; ++i) {
        base_module(&b, 0x00010000u, &at);
        if (i == 3) {
            b.w[3] = BASE_BOUND + 5; /* an id below the bound that nothing defines */
            b.w[at.bitcast + 3] = BASE_BOUND + 2;
        } else {
            b.w[at.bitcast + 3] = ids[i];
        }
        spvbc_context ctx;
        assert_int_equal(spvbc_context_create(NULL, &ctx), SPVBC_SUCCESS);
        spvbc_module m = SENTINEL_MODULE;
        spvbc_result r = spvbc_module_parse(ctx, b.w, b.n, NULL, &m);
        if (r == SPVBC_ERROR_INVALID_ID) {
            check_one_error(ctx, at.bitcast, BASE_BITCAST_INDEX, NULL);
        } else {
            assert_int_equal(r, SPVBC_SUCCESS);
            spvbc_validate_summary s = SPVBC_VALIDATE_SUMMARY_INIT;
            assert_int_equal(spvbc_module_validate(m, NULL, &s), SPVBC_ERROR_VALIDATION_FAILED);
            assert_int_equal(s.errors, 1);
            assert_int_equal(s.lowerable, 0);
            check_one_error(ctx, at.bitcast, BASE_BITCAST_INDEX, "R-UNDEF");
            spvbc_lower_summary ls = SPVBC_LOWER_SUMMARY_INIT;
            assert_int_equal(spvbc_module_lower(m, NULL, &ls), SPVBC_PARTIAL);
            assert_int_equal(ls.rewritten, 0);
            assert_int_equal(ls.refused, 1);
        }
        spvbc_context_destroy(ctx);
    }
    mb_free(&b);
}

/* ---- types ----------------------------------------------------------------------------- */

static void test_type_used_before_declared(void **state)
{
    (void)state;
    mb b = {0};
    /* A vector of a float declared after it. */
    mb_kernel_head(&b, 0x00010000u, BASE_BOUND, ID_FN);
    size_t v = MB(&b, SpvOpTypeVector, ID_V4, ID_FLOAT, 4);
    MB(&b, SpvOpTypeFloat, ID_FLOAT, 32);
    expect_parse_fail(&b, SPVBC_ERROR_INVALID_ID, v, 4, "R-TYPE-ORDER");
    /* A bitcast result type that is a value, not a type. */
    base_at at;
    base_module(&b, 0x00010000u, &at);
    b.w[at.bitcast + 1] = ID_X;
    expect_parse_fail(&b, SPVBC_ERROR_INVALID_ID, at.bitcast, BASE_BITCAST_INDEX, "R-TYPE-ORDER");
    /* A pointer to a type declared after it. */
    mb_kernel_head(&b, 0x00010000u, BASE_BOUND, ID_FN);
    size_t p = MB(&b, SpvOpTypePointer, ID_V3, SpvStorageClassCrossWorkgroup, ID_FLOAT);
    MB(&b, SpvOpTypeFloat, ID_FLOAT, 32);
    expect_parse_fail(&b, SPVBC_ERROR_INVALID_ID, p, 4, "R-TYPE-ORDER");
    /* A struct member declared after it. */
    mb_kernel_head(&b, 0x00010000u, BASE_BOUND, ID_FN);
    MB(&b, SpvOpTypeFloat, ID_FLOAT, 32);
    size_t s = MB(&b, SpvOpTypeStruct, ID_V3, ID_FLOAT, ID_V4);
    MB(&b, SpvOpTypeVector, ID_V4, ID_FLOAT, 4);
    expect_parse_fail(&b, SPVBC_ERROR_INVALID_ID, s, 5, "R-TYPE-ORDER");
    /* OpUndef of a type declared later (in the function: the type section is over). */
    base_module(&b, 0x00010000u, &at);
    b.w[3] = BASE_BOUND + 1;
    b.w[at.undef + 1] = BASE_BOUND; /* never declared at all */
    expect_parse_fail(&b, SPVBC_ERROR_INVALID_ID, at.undef, 11, "R-TYPE-ORDER");
    mb_free(&b);
}

static void test_vector_of_non_scalar(void **state)
{
    (void)state;
    mb b = {0};
    /* Vector of a vector, of a pointer, of a struct, of void. */
    const uint32_t comps[] = {ID_V4, ID_LABEL, ID_R, ID_VOID};
    for (size_t i = 0; i < sizeof comps / sizeof comps[0]; ++i) {
        mb_kernel_head(&b, 0x00010000u, BASE_BOUND, ID_FN);
        MB(&b, SpvOpTypeVoid, ID_VOID);
        MB(&b, SpvOpTypeFloat, ID_FLOAT, 32);
        MB(&b, SpvOpTypeVector, ID_V4, ID_FLOAT, 4);
        MB(&b, SpvOpTypePointer, ID_LABEL, SpvStorageClassCrossWorkgroup, ID_FLOAT);
        MB(&b, SpvOpTypeStruct, ID_R, ID_FLOAT);
        size_t v = MB(&b, SpvOpTypeVector, ID_V3, comps[i], 2);
        expect_parse_fail(&b, SPVBC_ERROR_INVALID_BINARY, v, 9, "R-TYPE-SHAPE");
    }
    mb_free(&b);
}

static void test_vector_component_counts(void **state)
{
    (void)state;
    mb b = {0};
    const uint32_t bad[] = {0, 1, 5, 6, 7, 9, 15, 17, 32, 0xFFFFFFFFu};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; ++i) {
        base_at at;
        base_module(&b, 0x00010000u, &at);
        b.w[at.tv3 + 3] = bad[i];
        expect_parse_fail(&b, SPVBC_ERROR_INVALID_BINARY, at.tv3, 8, "R-TYPE-SHAPE");
    }
    /* 2, 3, 4, 8, 16 parse. */
    spvbc_context ctx;
    assert_int_equal(spvbc_context_create(NULL, &ctx), SPVBC_SUCCESS);
    const uint32_t good[] = {2, 3, 4, 8, 16};
    for (size_t i = 0; i < sizeof good / sizeof good[0]; ++i) {
        base_at at;
        base_module(&b, 0x00010000u, &at);
        b.w[at.tv3 + 3] = good[i];
        spvbc_module m = parse_ok(ctx, b.w, b.n, NULL);
        spvbc_module_destroy(m);
    }
    spvbc_context_destroy(ctx);
    mb_free(&b);
}

static void test_scalar_width_zero(void **state)
{
    (void)state;
    mb b = {0};
    mb_kernel_head(&b, 0x00010000u, BASE_BOUND, ID_FN);
    size_t t = MB(&b, SpvOpTypeInt, ID_FLOAT, 0, 0);
    expect_parse_fail(&b, SPVBC_ERROR_INVALID_BINARY, t, 4, "R-TYPE-SHAPE");
    mb_kernel_head(&b, 0x00010000u, BASE_BOUND, ID_FN);
    t = MB(&b, SpvOpTypeInt, ID_FLOAT, 0, 1);
    expect_parse_fail(&b, SPVBC_ERROR_INVALID_BINARY, t, 4, "R-TYPE-SHAPE");
    mb_kernel_head(&b, 0x00010000u, BASE_BOUND, ID_FN);
    t = MB(&b, SpvOpTypeFloat, ID_FLOAT, 0);
    expect_parse_fail(&b, SPVBC_ERROR_INVALID_BINARY, t, 4, "R-TYPE-SHAPE");
    /* Missing width operands. */
    mb_kernel_head(&b, 0x00010000u, BASE_BOUND, ID_FN);
    t = MB(&b, SpvOpTypeInt, ID_FLOAT, 32);
    expect_parse_fail(&b, SPVBC_ERROR_INVALID_BINARY, t, 4, "R-OPERANDS");
    mb_kernel_head(&b, 0x00010000u, BASE_BOUND, ID_FN);
    t = MB(&b, SpvOpTypeFloat, ID_FLOAT);
    expect_parse_fail(&b, SPVBC_ERROR_INVALID_BINARY, t, 4, "R-OPERANDS");
    mb_free(&b);
}

/* ---- pointer loops --------------------------------------------------------------------- */

static void run_all_no_crash(const mb *b, spvbc_result *parse_result)
{
    spvbc_context ctx;
    assert_int_equal(spvbc_context_create(NULL, &ctx), SPVBC_SUCCESS);
    spvbc_module m = NULL;
    *parse_result = spvbc_module_parse(ctx, b->w, b->n, NULL, &m);
    if (*parse_result == SPVBC_SUCCESS) {
        spvbc_result v = spvbc_module_validate(m, NULL, NULL);
        assert_true(v == SPVBC_SUCCESS || v == SPVBC_ERROR_VALIDATION_FAILED);
        for (int pad = 0; pad < 3; ++pad) {
            spvbc_lower_options lo = {sizeof(spvbc_lower_options), (spvbc_pad_policy)pad, 0};
            assert_int_equal(spvbc_module_lower(m, &lo, NULL), SPVBC_SUCCESS);
            const uint32_t *w;
            size_t n;
            assert_int_equal(spvbc_module_get_words(m, &w, &n), SPVBC_SUCCESS);
        }
    } else {
        assert_true(spvbc_context_diagnostic_count(ctx) == 1);
    }
    spvbc_context_destroy(ctx);
}

/* A linked list (struct containing a pointer to itself through OpTypeForwardPointer) is valid
 * SPIR-V: it parses and validates, and a pointer <-> ulong bitcast on it is valid. */
static void test_pointer_loop_valid(void **state)
{
    (void)state;
    enum { FN = 1, VOID, FNTY, LONG, FPTR, STRUCT, LABEL, X, R, Y, BOUND };
    mb b = {0};
    b.n = 0;
    mb_header(&b, 0x00010000u, BOUND);
    MB(&b, SpvOpCapability, SpvCapabilityKernel);
    MB(&b, SpvOpCapability, SpvCapabilityAddresses);
    MB(&b, SpvOpCapability, SpvCapabilityInt64);
    MB(&b, SpvOpMemoryModel, SpvAddressingModelPhysical64, SpvMemoryModelOpenCL);
    mb_entry(&b, SpvExecutionModelKernel, FN, "k");
    MB(&b, SpvOpTypeForwardPointer, FPTR, SpvStorageClassCrossWorkgroup);
    mb_void_fn_type(&b, VOID, FNTY);
    MB(&b, SpvOpTypeInt, LONG, 64, 0);
    MB(&b, SpvOpTypeStruct, STRUCT, LONG, FPTR);
    MB(&b, SpvOpTypePointer, FPTR, SpvStorageClassCrossWorkgroup, STRUCT);
    mb_fn_begin(&b, VOID, FN, FNTY, LABEL);
    MB(&b, SpvOpUndef, FPTR, X);
    MB(&b, SpvOpBitcast, LONG, R, X);
    MB(&b, SpvOpBitcast, FPTR, Y, R);
    mb_fn_end(&b);
    char msg[512];
    if (spvval_check(b.w, b.n, msg, sizeof msg) != 1) fail_msg("fixture invalid: %s", msg);

    spvbc_context ctx;
    assert_int_equal(spvbc_context_create(NULL, &ctx), SPVBC_SUCCESS);
    spvbc_module m = parse_ok(ctx, b.w, b.n, NULL);
    spvbc_validate_summary s = SPVBC_VALIDATE_SUMMARY_INIT;
    assert_int_equal(spvbc_module_validate(m, NULL, &s), SPVBC_SUCCESS);
    assert_int_equal(s.bitcasts_checked, 2);
    assert_int_equal(s.errors, 0);
    spvbc_lower_summary ls = SPVBC_LOWER_SUMMARY_INIT;
    assert_int_equal(spvbc_module_lower(m, NULL, &ls), SPVBC_SUCCESS);
    assert_int_equal(ls.rewritten, 0);
    spvbc_context_destroy(ctx);
    mb_free(&b);
}

/* Cycles the parser must survive: a pointer whose pointee is itself, two forward pointers
 * pointing at each other, a struct loop in a Shader module where V13 looks through pointees,
 * a forward pointer never declared, and one declared twice. */
static void test_pointer_loops_no_hang(void **state)
{
    (void)state;
    enum { FN = 1, VOID, FNTY, P, Q, S, CHAR, LABEL, X, R, BOUND };
    mb b = {0};
    spvbc_result r;

    for (int variant = 0; variant < 6; ++variant) {
        int shader = variant >= 3;
        b.n = 0;
        mb_header(&b, 0x00010500u, BOUND);
        MB(&b, SpvOpCapability, shader ? SpvCapabilityShader : SpvCapabilityKernel);
        MB(&b, SpvOpCapability, SpvCapabilityPhysicalStorageBufferAddresses);
        if (shader) MB(&b, SpvOpCapability, SpvCapabilityStorageBuffer8BitAccess);
        MB(&b, SpvOpMemoryModel, SpvAddressingModelPhysicalStorageBuffer64,
           shader ? SpvMemoryModelGLSL450 : SpvMemoryModelOpenCL);
        mb_entry(&b, shader ? SpvExecutionModelGLCompute : SpvExecutionModelKernel, FN, "k");
        mb_void_fn_type(&b, VOID, FNTY);
        MB(&b, SpvOpTypeInt, CHAR, 8, 0);
        const uint32_t sc = SpvStorageClassPhysicalStorageBuffer;
        switch (variant) {
        case 0: /* %P points at itself */
        case 3:
            MB(&b, SpvOpTypeForwardPointer, P, sc);
            MB(&b, SpvOpTypePointer, P, sc, P);
            MB(&b, SpvOpTypePointer, Q, sc, CHAR);
            break;
        case 1: /* %P -> %Q -> %P */
            MB(&b, SpvOpTypeForwardPointer, P, sc);
            MB(&b, SpvOpTypeForwardPointer, Q, sc);
            MB(&b, SpvOpTypePointer, Q, sc, P);
            MB(&b, SpvOpTypePointer, P, sc, Q);
            break;
        case 4: /* struct { char; P } with P -> struct, and Q -> P: V13 looks through */
            MB(&b, SpvOpTypeForwardPointer, P, sc);
            MB(&b, SpvOpTypeStruct, S, CHAR, P);
            MB(&b, SpvOpTypePointer, P, sc, S);
            MB(&b, SpvOpTypePointer, Q, sc, P);
            break;
        case 2: /* forward pointer never declared, used in a struct */
            MB(&b, SpvOpTypeForwardPointer, P, sc);
            MB(&b, SpvOpTypeStruct, S, CHAR, P);
            MB(&b, SpvOpTypePointer, Q, sc, S);
            break;
        default: /* declared twice */
            MB(&b, SpvOpTypeForwardPointer, P, sc);
            MB(&b, SpvOpTypeForwardPointer, P, sc);
            MB(&b, SpvOpTypeStruct, S, CHAR, P);
            MB(&b, SpvOpTypePointer, P, sc, S);
            MB(&b, SpvOpTypePointer, P, sc, S);
            MB(&b, SpvOpTypePointer, Q, sc, P);
            break;
        }
        mb_fn_begin(&b, VOID, FN, FNTY, LABEL);
        MB(&b, SpvOpUndef, Q, X);
        MB(&b, SpvOpBitcast, P, R, X);
        mb_fn_end(&b);
        run_all_no_crash(&b, &r);
        /* Pointee cycles through pointers only are rejected as type order (the pointee must be
         * declared first); the struct loops parse. */
        if (variant == 0 || variant == 3) assert_int_equal(r, SPVBC_ERROR_INVALID_ID);
        if (variant == 4) assert_int_equal(r, SPVBC_SUCCESS);
        if (variant == 5) assert_int_equal(r, SPVBC_ERROR_INVALID_ID);
    }
    mb_free(&b);
}

/* ---- OpSpecConstantOp ------------------------------------------------------------------ */

static void test_spec_constant_op_no_opcode(void **state)
{
    (void)state;
    enum { INT = 2, C = 3, SC = 4, BOUND = 5 };
    mb b = {0};
    mb_kernel_head(&b, 0x00010000u, BOUND, ID_FN);
    MB(&b, SpvOpTypeInt, INT, 32, 0);
    MB(&b, SpvOpSpecConstant, INT, C, 7);
    size_t sc = MB(&b, SpvOpSpecConstantOp, INT, SC); /* no opcode */
    expect_parse_fail(&b, SPVBC_ERROR_INVALID_BINARY, sc, 6, "R-OPERANDS");
    /* Bitcast without its operand. */
    mb_kernel_head(&b, 0x00010000u, BOUND, ID_FN);
    MB(&b, SpvOpTypeInt, INT, 32, 0);
    MB(&b, SpvOpSpecConstant, INT, C, 7);
    sc = MB(&b, SpvOpSpecConstantOp, INT, SC, SpvOpBitcast);
    expect_parse_fail(&b, SPVBC_ERROR_INVALID_BINARY, sc, 6, "R-OPERANDS");
    /* Not even a result id. */
    mb_kernel_head(&b, 0x00010000u, BOUND, ID_FN);
    MB(&b, SpvOpTypeInt, INT, 32, 0);
    sc = MB(&b, SpvOpSpecConstantOp, INT);
    expect_parse_fail(&b, SPVBC_ERROR_INVALID_BINARY, sc, 5, "R-OPERANDS");
    mb_free(&b);
}

/* Lowering needs new ids; when they would raise the bound above the cap the module was parsed
 * with, lower returns UNSUPPORTED (R-LIMIT), changes nothing and leaves the summary alone, so
 * the output always parses again with the same options.  One id more of cap and it lowers. */
static void test_lower_over_cap(void **state)
{
    (void)state;
    mb b = {0};
    base_at at;
    base_module(&b, 0x00010000u, &at);
    spvbc_context ctx;
    assert_int_equal(spvbc_context_create(NULL, &ctx), SPVBC_SUCCESS);
    spvbc_parse_options o = {sizeof(spvbc_parse_options), BASE_BOUND, 0};
    spvbc_module m = parse_ok(ctx, b.w, b.n, &o);
    /* float4 -> float3 needs no new id: it lowers even at the cap. */
    spvbc_lower_summary ls = SPVBC_LOWER_SUMMARY_INIT;
    assert_int_equal(spvbc_module_lower(m, NULL, &ls), SPVBC_SUCCESS);
    assert_int_equal(ls.rewritten, 1);
    assert_int_equal(ls.new_id_bound, BASE_BOUND);
    spvbc_module_destroy(m);

    /* int4 -> float3 needs an intermediate value: over a cap equal to the bound. */
    mb_kernel_head(&b, 0x00010000u, BASE_BOUND + 2, ID_FN);
    mb_void_fn_type(&b, ID_VOID, ID_FNTY);
    MB(&b, SpvOpTypeFloat, ID_FLOAT, 32);
    MB(&b, SpvOpTypeVector, ID_V4, ID_FLOAT, 4);
    MB(&b, SpvOpTypeVector, ID_V3, ID_FLOAT, 3);
    MB(&b, SpvOpTypeInt, BASE_BOUND, 32, 0);
    MB(&b, SpvOpTypeVector, BASE_BOUND + 1, BASE_BOUND, 4);
    mb_fn_begin(&b, ID_VOID, ID_FN, ID_FNTY, ID_LABEL);
    MB(&b, SpvOpUndef, BASE_BOUND + 1, ID_X);
    MB(&b, SpvOpBitcast, ID_V3, ID_R, ID_X);
    mb_fn_end(&b);
    o.max_id_bound = BASE_BOUND + 2;
    m = parse_ok(ctx, b.w, b.n, &o);
    memset(&ls, 0xA5, sizeof ls);
    spvbc_lower_summary untouched = SPVBC_LOWER_SUMMARY_INIT;
    memcpy(&untouched, &ls, sizeof ls);
    assert_int_equal(spvbc_module_lower(m, NULL, &ls), SPVBC_ERROR_UNSUPPORTED);
    assert_memory_equal(&ls, &untouched, sizeof ls);
    assert_true(spvbc_context_diagnostic_count(ctx) >= 1);
    int limit = 0;
    for (size_t i = 0; i < spvbc_context_diagnostic_count(ctx); ++i)
        limit |= strcmp(spvbc_context_diagnostic(ctx, i)->rule, "R-LIMIT") == 0;
    assert_true(limit);
    const uint32_t *w;
    size_t n;
    assert_int_equal(spvbc_module_get_words(m, &w, &n), SPVBC_SUCCESS);
    assert_int_equal(n, b.n);
    assert_memory_equal(w, b.w, n * 4);
    spvbc_module_destroy(m);

    o.max_id_bound = BASE_BOUND + 3;
    m = parse_ok(ctx, b.w, b.n, &o);
    assert_int_equal(spvbc_module_lower(m, NULL, &ls), SPVBC_SUCCESS);
    assert_int_equal(ls.rewritten, 1);
    assert_int_equal(ls.new_id_bound, BASE_BOUND + 3);
    assert_int_equal(spvbc_module_get_words(m, &w, &n), SPVBC_SUCCESS);
    check_valid_spirv(w, n);
    spvbc_context_destroy(ctx);
    mb_free(&b);
}

/* ---- NULL arguments for every public function ------------------------------------------ */

static int write_sink(void *user, const uint32_t *words, size_t n)
{
    (void)words;
    *(size_t *)user += n;
    return 0;
}

static void test_null_arguments(void **state)
{
    (void)state;
    /* Version and static strings. */
    assert_int_equal(spvbc_version_number(), SPVBC_VERSION_NUMBER);
    assert_string_equal(spvbc_version_string(), SPVBC_VERSION_STRING);
    for (int r = -8; r <= 1; ++r)
        assert_non_null(spvbc_result_string((spvbc_result)r));
    assert_non_null(spvbc_result_string(SPVBC_RESULT_MAX_ENUM));
    for (int s = 0; s < 3; ++s)
        assert_non_null(spvbc_severity_string((spvbc_severity)s));
    for (int c = 0; c <= SPVBC_ASTYPE_EXCLUDED; ++c)
        assert_non_null(spvbc_astype_class_string((spvbc_astype_class)c));

    /* Context. */
    spvbc_context ctx = (spvbc_context)(uintptr_t)0x5a5a5a50u;
    assert_int_equal(spvbc_context_create(NULL, NULL), SPVBC_ERROR_INVALID_ARGUMENT);
    test_alloc unused;
    memset(&unused, 0, sizeof unused);
    const spvbc_allocator complete = test_alloc_allocator(&unused);
    spvbc_allocator incomplete = {sizeof(spvbc_allocator), NULL, NULL, NULL};
    assert_int_equal(spvbc_context_create(&incomplete, &ctx), SPVBC_ERROR_INVALID_ARGUMENT);
    assert_ptr_equal(ctx, (spvbc_context)(uintptr_t)0x5a5a5a50u);
    incomplete.alloc = complete.alloc;
    assert_int_equal(spvbc_context_create(&incomplete, &ctx), SPVBC_ERROR_INVALID_ARGUMENT);
    assert_ptr_equal(ctx, (spvbc_context)(uintptr_t)0x5a5a5a50u);
    incomplete.alloc = NULL;
    incomplete.free = complete.free;
    assert_int_equal(spvbc_context_create(&incomplete, &ctx), SPVBC_ERROR_INVALID_ARGUMENT);
    assert_ptr_equal(ctx, (spvbc_context)(uintptr_t)0x5a5a5a50u);
    spvbc_context_destroy(NULL);
    assert_int_equal(spvbc_context_diagnostic_count(NULL), 0);
    assert_null(spvbc_context_diagnostic(NULL, 0));

    assert_int_equal(spvbc_context_create(NULL, &ctx), SPVBC_SUCCESS);
    assert_null(spvbc_context_diagnostic(ctx, 0));
    assert_null(spvbc_context_diagnostic(ctx, SIZE_MAX));

    /* Plan API. */
    spvbc_type_desc f4 = {SPVBC_SCALAR_FLOAT, 32, 4, 0}, f3 = {SPVBC_SCALAR_FLOAT, 32, 3, 0};
    spvbc_plan plan = SPVBC_PLAN_INIT, plan_copy = SPVBC_PLAN_INIT;
    memset(&plan, 0xA5, sizeof plan);
    memcpy(&plan_copy, &plan, sizeof plan);
    assert_int_equal(spvbc_astype_plan(NULL, &f3, NULL, &plan), SPVBC_ERROR_INVALID_ARGUMENT);
    assert_int_equal(spvbc_astype_plan(&f4, NULL, NULL, &plan), SPVBC_ERROR_INVALID_ARGUMENT);
    assert_int_equal(spvbc_astype_plan(&f4, &f3, NULL, NULL), SPVBC_ERROR_INVALID_ARGUMENT);
    assert_memory_equal(&plan, &plan_copy, sizeof plan);
    spvbc_plan_options bad_pad = {sizeof(spvbc_plan_options), 0, (spvbc_pad_policy)7};
    assert_int_equal(spvbc_astype_plan(&f4, &f3, &bad_pad, &plan), SPVBC_ERROR_INVALID_ARGUMENT);
    assert_memory_equal(&plan, &plan_copy, sizeof plan);
    assert_int_equal(spvbc_astype_plan(&f4, &f3, NULL, &plan), SPVBC_SUCCESS);

    spvbc_type_desc td, td_copy;
    memset(&td, 0xA5, sizeof td);
    memcpy(&td_copy, &td, sizeof td);
    assert_int_equal(spvbc_type_desc_from_opencl(NULL, &td), SPVBC_ERROR_INVALID_ARGUMENT);
    assert_int_equal(spvbc_type_desc_from_opencl("float4", NULL), SPVBC_ERROR_INVALID_ARGUMENT);
    assert_int_equal(spvbc_type_desc_from_opencl("float5", &td), SPVBC_ERROR_INVALID_ARGUMENT);
    assert_int_equal(spvbc_type_desc_from_opencl("", &td), SPVBC_ERROR_INVALID_ARGUMENT);
    assert_int_equal(spvbc_type_desc_from_opencl("bool", &td), SPVBC_ERROR_INVALID_ARGUMENT);
    assert_memory_equal(&td, &td_copy, sizeof td);
    char buf[16];
    memset(buf, 'x', sizeof buf);
    assert_int_equal(spvbc_type_desc_opencl_name(NULL, buf, sizeof buf),
                     SPVBC_ERROR_INVALID_ARGUMENT);
    assert_int_equal(spvbc_type_desc_opencl_name(&f4, NULL, sizeof buf),
                     SPVBC_ERROR_INVALID_ARGUMENT);
    spvbc_type_desc bad = {SPVBC_SCALAR_FLOAT, 24, 4, 0};
    assert_int_equal(spvbc_type_desc_opencl_name(&bad, buf, sizeof buf),
                     SPVBC_ERROR_INVALID_ARGUMENT);

    /* Modules. */
    mb b = {0};
    base_module(&b, 0x00010000u, NULL);
    spvbc_module m = SENTINEL_MODULE;
    assert_int_equal(spvbc_module_parse(NULL, b.w, b.n, NULL, &m), SPVBC_ERROR_INVALID_ARGUMENT);
    assert_int_equal(spvbc_module_parse(ctx, NULL, b.n, NULL, &m), SPVBC_ERROR_INVALID_ARGUMENT);
    assert_int_equal(spvbc_module_parse(ctx, b.w, b.n, NULL, NULL), SPVBC_ERROR_INVALID_ARGUMENT);
    assert_int_equal(spvbc_module_parse_bytes(NULL, b.w, b.n * 4, NULL, &m),
                     SPVBC_ERROR_INVALID_ARGUMENT);
    assert_int_equal(spvbc_module_parse_bytes(ctx, NULL, b.n * 4, NULL, &m),
                     SPVBC_ERROR_INVALID_ARGUMENT);
    assert_int_equal(spvbc_module_parse_bytes(ctx, b.w, b.n * 4, NULL, NULL),
                     SPVBC_ERROR_INVALID_ARGUMENT);
    assert_ptr_equal(m, SENTINEL_MODULE);
    spvbc_module_destroy(NULL);

    m = parse_ok(ctx, b.w, b.n, NULL);
    spvbc_module_info info = SPVBC_MODULE_INFO_INIT, info_copy = SPVBC_MODULE_INFO_INIT;
    memset(&info, 0xA5, sizeof info);
    memcpy(&info_copy, &info, sizeof info);
    assert_int_equal(spvbc_module_get_info(NULL, &info), SPVBC_ERROR_INVALID_ARGUMENT);
    assert_int_equal(spvbc_module_get_info(m, NULL), SPVBC_ERROR_INVALID_ARGUMENT);
    assert_memory_equal(&info, &info_copy, sizeof info);

    spvbc_validate_summary vs = SPVBC_VALIDATE_SUMMARY_INIT, vs_copy = SPVBC_VALIDATE_SUMMARY_INIT;
    memset(&vs, 0xA5, sizeof vs);
    memcpy(&vs_copy, &vs, sizeof vs);
    assert_int_equal(spvbc_module_validate(NULL, NULL, &vs), SPVBC_ERROR_INVALID_ARGUMENT);
    assert_memory_equal(&vs, &vs_copy, sizeof vs);
    assert_int_equal(spvbc_module_validate(m, NULL, NULL), SPVBC_ERROR_VALIDATION_FAILED);

    spvbc_lower_summary ls = SPVBC_LOWER_SUMMARY_INIT, ls_copy = SPVBC_LOWER_SUMMARY_INIT;
    memset(&ls, 0xA5, sizeof ls);
    memcpy(&ls_copy, &ls, sizeof ls);
    assert_int_equal(spvbc_module_lower(NULL, NULL, &ls), SPVBC_ERROR_INVALID_ARGUMENT);
    spvbc_lower_options bad_lo = {sizeof(spvbc_lower_options), (spvbc_pad_policy)3, 0};
    assert_int_equal(spvbc_module_lower(m, &bad_lo, &ls), SPVBC_ERROR_INVALID_ARGUMENT);
    bad_lo.pad = SPVBC_PAD_MAX_ENUM;
    assert_int_equal(spvbc_module_lower(m, &bad_lo, &ls), SPVBC_ERROR_INVALID_ARGUMENT);
    assert_memory_equal(&ls, &ls_copy, sizeof ls);

    const uint32_t *w = (const uint32_t *)(uintptr_t)0x5a5a5a50u;
    size_t n = 12345;
    assert_int_equal(spvbc_module_get_words(NULL, &w, &n), SPVBC_ERROR_INVALID_ARGUMENT);
    assert_int_equal(spvbc_module_get_words(m, NULL, &n), SPVBC_ERROR_INVALID_ARGUMENT);
    assert_int_equal(spvbc_module_get_words(m, &w, NULL), SPVBC_ERROR_INVALID_ARGUMENT);
    assert_ptr_equal(w, (const uint32_t *)(uintptr_t)0x5a5a5a50u);
    assert_int_equal(n, 12345);

    size_t total = 0;
    assert_int_equal(spvbc_module_write(NULL, write_sink, &total), SPVBC_ERROR_INVALID_ARGUMENT);
    assert_int_equal(spvbc_module_write(m, NULL, &total), SPVBC_ERROR_INVALID_ARGUMENT);
    assert_int_equal(total, 0);
    assert_int_equal(spvbc_module_write(m, mb_write_stop, NULL), SPVBC_ERROR_STOPPED);
    assert_int_equal(spvbc_module_write(m, write_sink, &total), SPVBC_SUCCESS);
    assert_int_equal(total, b.n);

    spvbc_module_destroy(m);
    spvbc_context_destroy(ctx);
    mb_free(&b);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_empty),
        cmocka_unit_test(test_truncated_header),
        cmocka_unit_test(test_truncated_everywhere),
        cmocka_unit_test(test_size_not_multiple_of_4),
        cmocka_unit_test(test_bad_magic),
        cmocka_unit_test(test_byte_swapped),
        cmocka_unit_test(test_versions),
        cmocka_unit_test(test_bound_zero),
        cmocka_unit_test(test_bound_above_cap),
        cmocka_unit_test(test_bound_huge_with_raised_cap),
        cmocka_unit_test(test_schema),
        cmocka_unit_test(test_word_count_zero),
        cmocka_unit_test(test_instruction_past_end),
        cmocka_unit_test(test_id_zero),
        cmocka_unit_test(test_id_at_or_above_bound),
        cmocka_unit_test(test_redefined_id),
        cmocka_unit_test(test_bitcast_missing_operand),
        cmocka_unit_test(test_bitcast_operand_is_type),
        cmocka_unit_test(test_bitcast_operand_undefined),
        cmocka_unit_test(test_type_used_before_declared),
        cmocka_unit_test(test_vector_of_non_scalar),
        cmocka_unit_test(test_vector_component_counts),
        cmocka_unit_test(test_scalar_width_zero),
        cmocka_unit_test(test_pointer_loop_valid),
        cmocka_unit_test(test_pointer_loops_no_hang),
        cmocka_unit_test(test_spec_constant_op_no_opcode),
        cmocka_unit_test(test_lower_over_cap),
        cmocka_unit_test(test_null_arguments),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
