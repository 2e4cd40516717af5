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

#include "spvval.h"
#include "test_alloc.h"
#include "test_malformed.h"

/* ---- the base module ------------------------------------------------------------------- */

/* The base module: instruction index of each line in comments. */
void base_module(mb *b, uint32_t version, base_at *at)
{
    base_at a;
    mb_kernel_head(b, version, BASE_BOUND, ID_FN); /* 0-3 */
    a.first = 5; /* after the 5-word header */
    MB(b, SpvOpTypeVoid, ID_VOID); /* 4 */
    MB(b, SpvOpTypeFunction, ID_FNTY, ID_VOID); /* 5 */
    a.tfloat = MB(b, SpvOpTypeFloat, ID_FLOAT, 32); /* 6 */
    a.tv4 = MB(b, SpvOpTypeVector, ID_V4, ID_FLOAT, 4); /* 7 */
    a.tv3 = MB(b, SpvOpTypeVector, ID_V3, ID_FLOAT, 3); /* 8 */
    a.fn = MB(b, SpvOpFunction, ID_VOID, ID_FN, 0, ID_FNTY); /* 9 */
    a.label = MB(b, SpvOpLabel, ID_LABEL); /* 10 */
    a.undef = MB(b, SpvOpUndef, ID_V4, ID_X); /* 11 */
    a.bitcast = MB(b, SpvOpBitcast, ID_V3, ID_R, ID_X); /* 12 */
    a.ret = mb_op0(b, SpvOpReturn); /* 13 */
    a.end = mb_op0(b, SpvOpFunctionEnd); /* 14 */
    if (at) *at = a;
}

base_at base_with_operand(mb *b, uint32_t operand)
{
    base_at at;
    base_module(b, 0x00010000u, &at);
    b->w[at.bitcast + 3] = operand;
    return at;
}

/* ---- helpers --------------------------------------------------------------------------- */

void check_one_error(spvbc_context ctx, size_t offset, size_t index, const char *rule)
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

void expect_parse_fail_opts(const uint32_t *words, size_t n, const spvbc_parse_options *opts,
                            spvbc_result expect, size_t offset, size_t index, const char *rule)
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

void expect_parse_fail(const mb *b, spvbc_result expect, size_t offset, size_t index,
                       const char *rule)
{
    expect_parse_fail_opts(b->w, b->n, NULL, expect, offset, index, rule);
}

void expect_patches_fail(const base_patch *p, size_t n)
{
    mb b = {0};
    for (size_t i = 0; i < n; ++i) {
        base_at at;
        base_module(&b, 0x00010000u, &at);
        size_t off;
        memcpy(&off, (const char *)&at + p[i].at, sizeof off);
        b.w[off + p[i].word] = p[i].value;
        expect_parse_fail(&b, p[i].expect, off, p[i].index, p[i].rule);
    }
    mb_free(&b);
}

void expect_insts_fail(const inst *insts, size_t n, size_t bad, spvbc_result expect,
                       const char *rule)
{
    mb b = {0};
    size_t at = 0;
    mb_kernel_head(&b, 0x00010000u, BASE_BOUND, ID_FN);
    for (size_t i = 0; i < n; ++i) {
        size_t o = mb_opn(&b, insts[i].op, insts[i].ops, insts[i].nops);
        if (i == bad) at = o;
    }
    expect_parse_fail(&b, expect, at, 4 + bad, rule);
    mb_free(&b);
}

spvbc_module parse_ok(spvbc_context ctx, const uint32_t *w, size_t n,
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

void check_valid_spirv(const uint32_t *w, size_t n)
{
    char msg[1024];
    int v = spvval_check(w, n, msg, sizeof msg);
    if (v != 1) fail_msg("spirv-val rejects the lowered module: %s", msg);
}

int run_spirv_val(const uint32_t *w, size_t n, char *msg, size_t size)
{
    return spvval_check(w, n, msg, size);
}

/* ---- empty, truncated, size ------------------------------------------------------------ */

void test_empty(void **state)
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

void test_truncated_header(void **state)
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
void test_truncated_everywhere(void **state)
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

void test_size_not_multiple_of_4(void **state)
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

void test_bad_magic(void **state)
{
    (void)state;
    const uint32_t magics[] = {0, 0xDEADBEEFu, SpvMagicNumber + 1, 0x07230200u, 0xFFFFFFFFu};
    expect_header_word_fails(0, magics, sizeof magics / sizeof magics[0], "R-MAGIC");
}

/* A module in the opposite byte order is detected by its magic and swapped: it parses,
 * says so, and lowers exactly as the host-order module does. */
void test_byte_swapped(void **state)
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

void test_versions(void **state)
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

void test_bound_zero(void **state)
{
    (void)state;
    const uint32_t zero = 0;
    expect_header_word_fails(3, &zero, 1, "R-BOUND");
}

void test_bound_above_cap(void **state)
{
    (void)state;
    mb b = {0};
    base_module(&b, 0x00010000u, NULL);
    spvbc_context ctx;
    assert_int_equal(spvbc_context_create(NULL, &ctx), SPVBC_SUCCESS);

    b.w[3] = SPVBC_DEFAULT_MAX_ID_BOUND + 1u;
    expect_parse_fail(&b, SPVBC_ERROR_UNSUPPORTED, 3, HDR, "R-BOUND");
    /* Raising the cap makes it parse. */
    spvbc_parse_options o = SPVBC_PARSE_OPTIONS_INIT;
    o.max_id_bound = SPVBC_DEFAULT_MAX_ID_BOUND + 1u;
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
void test_bound_huge_with_raised_cap(void **state)
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
        spvbc_parse_options o = SPVBC_PARSE_OPTIONS_INIT;
        o.max_id_bound = 0xFFFFFFFFu;
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

void test_schema(void **state)
{
    (void)state;
    const uint32_t schemas[] = {1, 0x80000000u, 0xFFFFFFFFu};
    expect_header_word_fails(4, schemas, sizeof schemas / sizeof schemas[0], "R-SCHEMA");
}

int main(void)
{
#define CASE(name) cmocka_unit_test(name),
    const struct CMUnitTest tests[] = {MALFORMED_CASES(CASE)};
    return cmocka_run_group_tests(tests, NULL, NULL);
}
