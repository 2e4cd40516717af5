/* Second witnesses (test_witness.c says why) of source/reader.c's parse: its ways in and its
 * walk, each module read from words, and every block of the library's, ending right before an
 * unreadable page (guarded_words(), guarded_context()) wherever a read past them is the bug:
 *   - ids at the bound (a bitcast's operand, an unknown opcode's word 2) read from no entry, a
 *     module ending in a DebugInfo OpExtInst one word short;
 *   - the walk's fast paths at the id range's edges, and under a bound above instructions'
 *     first words;
 *   - the header's fields and the bytes' errors at their word and of no opcode, options too
 *     small, NULL arguments, the id table's cost and reuse, misaligned bytes under each
 *     allocation failure;
 *   - the special instructions' edges (forward pointers, OpConstantNull, short
 *     OpSpecConstantOp), word counts of 0 and truncation, redefinitions.
 * What the reader records, seen in verdicts and findings, is in test_witness_records.c.
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

/* Parses the module of `b` at a page's end in guarded_context(); returns the parse's result. */
static spvbc_result parse_at_a_page(const mb *b)
{
    spvbc_context ctx = guarded_context();
    uint32_t *words = guarded_words(b->w, b->n);
    spvbc_module m = NULL;
    const spvbc_result r = spvbc_module_parse(ctx, words, b->n, NULL, &m);
    spvbc_module_destroy(m);
    spvbc_context_destroy(ctx);
    guarded_words_free(words, b->n);
    return r;
}

void test_reader_ends_at_a_page(void **state)
{
    (void)state;
    if (guard_pages_missing()) skip();
    mb b = {NULL, 0, 0};
    /* a bitcast of the undefined %12, the bound */
    mb_kernel_head(&b, 0x00010000u, 12, 1);
    mb_void_fn_type(&b, 2, 3);
    MB(&b, SpvOpTypeFloat, 4, 32);
    mb_fn_begin(&b, 2, 1, 3, 5);
    MB(&b, SpvOpBitcast, 4, 6, 12);
    mb_fn_end(&b);
    assert_int_equal(parse_at_a_page(&b), SPVBC_SUCCESS);
    /* beside a float4 -> int3 site, which needs a new int4: a new id could give the bitcast of
     * the bound a meaning, so nothing is lowered */
    mb_kernel_head(&b, 0x00010000u, 12, 1);
    mb_void_fn_type(&b, 2, 3);
    MB(&b, SpvOpTypeFloat, 4, 32);
    MB(&b, SpvOpTypeVector, 6, 4, 4);
    MB(&b, SpvOpTypeInt, 7, 32, 0);
    MB(&b, SpvOpTypeVector, 8, 7, 3);
    mb_fn_begin(&b, 2, 1, 3, 5);
    MB(&b, SpvOpUndef, 6, 9);
    MB(&b, SpvOpBitcast, 8, 10, 9);
    MB(&b, SpvOpBitcast, 4, 11, 12);
    mb_fn_end(&b);
    spvbc_context ctx;
    assert_int_equal(spvbc_context_create(NULL, &ctx), SPVBC_SUCCESS);
    spvbc_module m = NULL;
    assert_int_equal(spvbc_module_parse(ctx, b.w, b.n, NULL, &m), SPVBC_SUCCESS);
    spvbc_lower_summary ls = SPVBC_LOWER_SUMMARY_INIT;
    (void)spvbc_module_lower(m, NULL, &ls);
    assert_int_equal(ls.rewritten, 0);
    spvbc_module_destroy(m);
    spvbc_context_destroy(ctx);
    /* opcode 0x7FF3 typed by float %4, its word 2 the bound */
    mb_kernel_head(&b, 0x00010000u, 12, 1);
    mb_void_fn_type(&b, 2, 3);
    MB(&b, SpvOpTypeFloat, 4, 32);
    mb_fn_begin(&b, 2, 1, 3, 5);
    const uint32_t unknown[] = {4, 12};
    mb_opn(&b, 0x7FF3u, unknown, 2);
    mb_fn_end(&b);
    assert_int_equal(parse_at_a_page(&b), SPVBC_SUCCESS);
    /* the DebugInfo import %6, then a function that ends in "%7 = OpExtInst %2 %6" */
    b.n = 0;
    mb_header(&b, 0x00010600u, 12);
    MB(&b, SpvOpCapability, SpvCapabilityShader);
    mb_extension(&b, "SPV_KHR_non_semantic_info");
    const uint32_t import_id = 6;
    mb_inst(&b, SpvOpExtInstImport, &import_id, 1, "NonSemantic.Shader.DebugInfo.100", NULL, 0);
    MB(&b, SpvOpMemoryModel, SpvAddressingModelLogical, SpvMemoryModelGLSL450);
    mb_entry(&b, SpvExecutionModelGLCompute, 1, "main");
    MB(&b, SpvOpExecutionMode, 1, SpvExecutionModeLocalSize, 1, 1, 1);
    mb_void_fn_type(&b, 2, 3);
    mb_fn_begin(&b, 2, 1, 3, 5);
    MB(&b, SpvOpExtInst, 2, 7, 6);
    assert_int_equal(parse_at_a_page(&b), SPVBC_SUCCESS); /* an unended function parses */
    mb_free(&b);
}

/* One instruction of a function, after the types float %4 and int %11 (the last id below the
 * bound 12), and what its parse gives: SUCCESS, or the rule of its one error at its word. */
typedef struct probe_case {
    uint32_t op, ops[3], n;
    spvbc_result expect;
    const char *rule;
} probe_case;

static void expect_probe_at(const probe_case *c, int in_types)
{
    mb b = {NULL, 0, 0};
    mb_kernel_head(&b, 0x00010000u, 12, 1);
    mb_void_fn_type(&b, 2, 3);
    MB(&b, SpvOpTypeFloat, 4, 32);
    MB(&b, SpvOpTypeInt, 11, 32, 0);
    size_t at = in_types ? mb_opn(&b, c->op, c->ops, c->n) : 0;
    mb_fn_begin(&b, 2, 1, 3, 5);
    MB(&b, SpvOpUndef, 4, 7);
    if (!in_types) at = mb_opn(&b, c->op, c->ops, c->n);
    mb_fn_end(&b);
    spvbc_context ctx = guarded_context();
    uint32_t *words = guarded_words(b.w, b.n);
    spvbc_module m = NULL;
    const spvbc_result r = spvbc_module_parse(ctx, words, b.n, NULL, &m);
    if (r != c->expect)
        fail_msg("opcode %u (%u, %u, %u): %s, expected %s", (unsigned)c->op, (unsigned)c->ops[0],
                 (unsigned)c->ops[1], (unsigned)c->ops[2], spvbc_result_string(r),
                 spvbc_result_string(c->expect));
    if (r != SPVBC_SUCCESS) {
        const spvbc_diagnostic *d = spvbc_context_diagnostic(ctx, 0);
        assert_string_equal(d->rule, c->rule);
        assert_int_equal(d->word_offset, at);
    }
    spvbc_module_destroy(m);
    spvbc_context_destroy(ctx);
    guarded_words_free(words, b.n);
    mb_free(&b);
}

static void expect_probe(const probe_case *c)
{
    expect_probe_at(c, 0);
}

/* The walk's fast path (a typed result, an OpBitcast, a label) at the edges of the id range:
 * the last id, the bound, 0, an id defined already, a result type at the bound or not a type
 * (R-TYPE-ORDER either way), one word short; each as the general path judges it, and no entry
 * read at the bound (unit.reader_walk and unit.malformed are the first witnesses). */
void test_reader_fast_path_edges(void **state)
{
    (void)state;
    if (guard_pages_missing()) skip();
    const spvbc_result ok = SPVBC_SUCCESS, bin = SPVBC_ERROR_INVALID_BINARY,
                       id = SPVBC_ERROR_INVALID_ID;
    const probe_case cases[] = {
        {SpvOpUndef, {4, 10}, 2, ok, NULL},
        {SpvOpUndef, {11, 10}, 2, ok, NULL},
        {SpvOpUndef, {4, 12}, 2, id, "R-ID-RANGE"},
        {SpvOpUndef, {4, 0}, 2, id, "R-ID-ZERO"},
        {SpvOpUndef, {12, 10}, 2, id, "R-TYPE-ORDER"},
        {SpvOpUndef, {7, 10}, 2, id, "R-TYPE-ORDER"},
        {SpvOpUndef, {4, 7}, 2, id, "R-ID-REDEFINED"},
        {SpvOpUndef, {4}, 1, bin, "R-OPERANDS"},
        {SpvOpBitcast, {11, 10, 7}, 3, ok, NULL},
        {SpvOpBitcast, {11, 12, 7}, 3, id, "R-ID-RANGE"},
        {SpvOpBitcast, {11, 0, 7}, 3, id, "R-ID-ZERO"},
        {SpvOpBitcast, {12, 10, 7}, 3, id, "R-TYPE-ORDER"},
        {SpvOpBitcast, {13, 10, 7}, 3, id, "R-TYPE-ORDER"},
        {SpvOpUndef, {13, 10}, 2, id, "R-TYPE-ORDER"},
        {SpvOpBitcast, {7, 10, 7}, 3, id, "R-TYPE-ORDER"},
        {SpvOpBitcast, {11, 7, 7}, 3, id, "R-ID-REDEFINED"},
        {SpvOpBitcast, {11, 10}, 2, bin, "R-OPERANDS"},
        {SpvOpLabel, {10}, 1, ok, NULL},
        {SpvOpLabel, {11 + 1}, 1, id, "R-ID-RANGE"},
        {SpvOpLabel, {0}, 1, id, "R-ID-ZERO"},
        {SpvOpLabel, {7}, 1, id, "R-ID-REDEFINED"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; ++i)
        expect_probe(&cases[i]);
}

/* A header's fields, each refused with its rule at its word (the words read from bytes): a
 * version word of 1.7, of 2.0, with its low byte set, and 1.6 (accepted); a bound of 0, one
 * above the parse's cap and one equal to it; a schema of 1; four words; a bad magic number.
 * Then NULL arguments (unit.reader_walk, unit.malformed and unit.test_api are the first
 * witnesses). */
void test_reader_header_fields(void **state)
{
    (void)state;
    const struct {
        uint32_t word, value, cap;
        spvbc_result expect;
        const char *rule;
        size_t offset;
    } cases[] = {
        {1, 0x00010700u, 0, SPVBC_ERROR_INVALID_BINARY, "R-VERSION", 1},
        {1, 0x00020000u, 0, SPVBC_ERROR_INVALID_BINARY, "R-VERSION", 1},
        {1, 0x00010001u, 0, SPVBC_ERROR_INVALID_BINARY, "R-VERSION", 1},
        {1, 0x01010000u, 0, SPVBC_ERROR_INVALID_BINARY, "R-VERSION", 1},
        {1, 0x00010600u, 0, SPVBC_SUCCESS, NULL, 0},
        {3, 0, 0, SPVBC_ERROR_INVALID_BINARY, "R-BOUND", 3},
        {3, 17, 16, SPVBC_ERROR_UNSUPPORTED, "R-BOUND", 3},
        {3, 16, 16, SPVBC_SUCCESS, NULL, 0},
        {4, 1, 0, SPVBC_ERROR_INVALID_BINARY, "R-SCHEMA", 4},
        {0, 0x07230204u, 0, SPVBC_ERROR_INVALID_BINARY, "R-MAGIC", 0},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; ++i) {
        uint32_t w[8] = {SpvMagicNumber,
                         0x00010000u,
                         0,
                         8,
                         0,
                         (2u << 16) | SpvOpCapability,
                         SpvCapabilityKernel,
                         0};
        w[cases[i].word] = cases[i].value;
        spvbc_context ctx;
        assert_int_equal(spvbc_context_create(NULL, &ctx), SPVBC_SUCCESS);
        spvbc_parse_options po = SPVBC_PARSE_OPTIONS_INIT;
        po.max_id_bound = cases[i].cap;
        spvbc_module m = NULL;
        const spvbc_result r = spvbc_module_parse_bytes(ctx, w, 7 * 4, &po, &m);
        if (r != cases[i].expect)
            fail_msg("word %u = 0x%08x: %s", (unsigned)cases[i].word, (unsigned)cases[i].value,
                     spvbc_result_string(r));
        if (r == SPVBC_SUCCESS) {
            assert_non_null(m);
        } else {
            assert_null(m);
            const spvbc_diagnostic *d = spvbc_context_diagnostic(ctx, 0);
            assert_string_equal(d->rule, cases[i].rule);
            assert_int_equal(d->word_offset, cases[i].offset);
            assert_int_equal(d->opcode, 0); /* the header is no instruction */
        }
        spvbc_module_destroy(m);
        spvbc_context_destroy(ctx);
    }
    const uint32_t four[4] = {SpvMagicNumber, 0x00010000u, 0, 8};
    spvbc_context ctx;
    assert_int_equal(spvbc_context_create(NULL, &ctx), SPVBC_SUCCESS);
    spvbc_module m = NULL;
    assert_int_equal(spvbc_module_parse(ctx, four, 4, NULL, &m), SPVBC_ERROR_INVALID_BINARY);
    assert_string_equal(spvbc_context_diagnostic(ctx, 0)->rule, "R-HEADER");
    assert_int_equal(spvbc_module_parse(NULL, four, 4, NULL, &m), SPVBC_ERROR_INVALID_ARGUMENT);
    assert_int_equal(spvbc_module_parse(ctx, four, 4, NULL, NULL), SPVBC_ERROR_INVALID_ARGUMENT);
    assert_int_equal(spvbc_module_parse(ctx, NULL, 4, NULL, &m), SPVBC_ERROR_INVALID_ARGUMENT);
    assert_null(m);
    spvbc_context_destroy(ctx);
}

/* The instructions the reader looks into, at the edges of their operands, among the types (the
 * function after them defines %5 and %7): a forward pointer of id 0, of the bound, of an id
 * defined already (a float, which stays a float: %7's OpUndef of %4 parses), of a storage class
 * of 0; an OpConstantNull of a type that is an unknown opcode's result; an OpSpecConstantOp
 * without its opcode, a Bitcast one without its operand, another opcode without operands
 * (unit.test_reader_records, unit.malformed and unit.test_reader_nulls are the first
 * witnesses). */
void test_reader_special_edges(void **state)
{
    (void)state;
    if (guard_pages_missing()) skip();
    const spvbc_result ok = SPVBC_SUCCESS, bin = SPVBC_ERROR_INVALID_BINARY,
                       id = SPVBC_ERROR_INVALID_ID;
    const uint32_t cw = SpvStorageClassCrossWorkgroup;
    const probe_case cases[] = {
        {SpvOpTypeForwardPointer, {0, cw}, 2, id, "R-ID-RANGE"},
        {SpvOpTypeForwardPointer, {12, cw}, 2, id, "R-ID-RANGE"},
        {SpvOpTypeForwardPointer, {4, cw}, 2, ok, NULL},
        {SpvOpTypeForwardPointer, {9, SpvStorageClassUniformConstant}, 2, ok, NULL},
        {SpvOpTypeForwardPointer, {9}, 1, bin, "R-OPERANDS"},
        {SpvOpSpecConstantOp, {11, 9}, 2, bin, "R-OPERANDS"},
        {SpvOpSpecConstantOp, {11, 9, SpvOpBitcast}, 3, bin, "R-OPERANDS"},
        {SpvOpSpecConstantOp, {11, 9, SpvOpSNegate}, 3, ok, NULL},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; ++i)
        expect_probe_at(&cases[i], 1);
    /* the message names the forward pointer's id, not its storage class */
    spvbc_context ctx;
    assert_int_equal(spvbc_context_create(NULL, &ctx), SPVBC_SUCCESS);
    mb b = {NULL, 0, 0};
    mb_kernel_head(&b, 0x00010000u, 12, 1);
    MB(&b, SpvOpTypeForwardPointer, 12, cw);
    spvbc_module m = NULL;
    assert_int_equal(spvbc_module_parse(ctx, b.w, b.n, NULL, &m), SPVBC_ERROR_INVALID_ID);
    assert_string_equal(spvbc_context_diagnostic(ctx, 0)->message,
                        "forward pointer id %12 is 0 or at or above the id bound");
    /* an OpConstantNull of an unknown opcode's result %9 (no type record to note it in) */
    mb_kernel_head(&b, 0x00010000u, 12, 1);
    mb_word(&b, 0x00027FF4u);
    mb_word(&b, 9);
    MB(&b, SpvOpConstantNull, 9, 10);
    assert_int_equal(spvbc_module_parse(ctx, b.w, b.n, NULL, &m), SPVBC_SUCCESS);
    spvbc_module_destroy(m);
    spvbc_context_destroy(ctx);
    mb_free(&b);
}

/* The parse of the `n` words `w` in a fresh context: its result, and its one diagnostic's rule,
 * opcode and word in `*d` (copied) when it fails. */
static spvbc_result parse_words(const uint32_t *w, size_t n, spvbc_diagnostic *d)
{
    spvbc_context ctx;
    assert_int_equal(spvbc_context_create(NULL, &ctx), SPVBC_SUCCESS);
    spvbc_module m = NULL;
    const spvbc_result r = spvbc_module_parse(ctx, w, n, NULL, &m);
    memset(d, 0, sizeof *d);
    if (r != SPVBC_SUCCESS) {
        assert_int_equal(spvbc_context_diagnostic_count(ctx), 1);
        *d = *spvbc_context_diagnostic(ctx, 0);
        d->message = NULL;
        d->rule = strcmp(d->rule, "R-WORD-COUNT") == 0     ? "R-WORD-COUNT"
                  : strcmp(d->rule, "R-TRUNCATED") == 0    ? "R-TRUNCATED"
                  : strcmp(d->rule, "R-ID-REDEFINED") == 0 ? "R-ID-REDEFINED"
                                                           : "other";
    }
    spvbc_module_destroy(m);
    spvbc_context_destroy(ctx);
    return r;
}

/* More of the reader's edges (unit.reader_walk, unit.malformed, unit.test_reader_records and
 * unit.test_reader_positions are the first witnesses):
 *   - a word count of 0 with an opcode of bit 15 set (0x8001) is R-WORD-COUNT, an OpTypeInt (21,
 *     odd) that runs past the end R-TRUNCATED, each naming its opcode;
 *   - a forward-declared id defined by an OpTypeInt, and a float's id by an OpTypePointer, are
 *     R-ID-REDEFINED;
 *   - a module that ends in a 1-word OpCapability, at a page's end, parses;
 *   - a specification-constant bitcast after an OpLine, outside any function, names no line. */
void test_reader_more_edges(void **state)
{
    (void)state;
    spvbc_diagnostic d;
    mb b = {NULL, 0, 0};
    mb_kernel_head(&b, 0x00010000u, 12, 1);
    const size_t end = b.n;
    mb_word(&b, 0x00008001u);
    assert_int_equal(parse_words(b.w, b.n, &d), SPVBC_ERROR_INVALID_BINARY);
    assert_string_equal(d.rule, "R-WORD-COUNT");
    assert_int_equal(d.opcode, 0x8001u);
    assert_int_equal(d.word_offset, end);
    b.n = end;
    mb_word(&b, (4u << 16) | SpvOpTypeInt);
    mb_word(&b, 4);
    mb_word(&b, 32);
    assert_int_equal(parse_words(b.w, b.n, &d), SPVBC_ERROR_INVALID_BINARY);
    assert_string_equal(d.rule, "R-TRUNCATED");
    assert_int_equal(d.opcode, SpvOpTypeInt);
    b.n = end;
    MB(&b, SpvOpTypeForwardPointer, 9, SpvStorageClassCrossWorkgroup);
    MB(&b, SpvOpTypeInt, 9, 32, 0);
    assert_int_equal(parse_words(b.w, b.n, &d), SPVBC_ERROR_INVALID_ID);
    assert_string_equal(d.rule, "R-ID-REDEFINED");
    b.n = end;
    MB(&b, SpvOpTypeFloat, 4, 32);
    MB(&b, SpvOpTypePointer, 4, SpvStorageClassCrossWorkgroup, 4);
    assert_int_equal(parse_words(b.w, b.n, &d), SPVBC_ERROR_INVALID_ID);
    assert_string_equal(d.rule, "R-ID-REDEFINED");
    b.n = end;
    mb_op0(&b, SpvOpCapability);
    uint32_t *words = guarded_words(b.w, b.n); /* NULL where there is no mmap */
    if (words) {
        assert_int_equal(parse_words(words, b.n, &d), SPVBC_SUCCESS);
        guarded_words_free(words, b.n);
    }
    /* as_float3(float4) of a specification constant after an OpLine among the constants */
    mb_kernel_head(&b, 0x00010000u, 12, 1);
    mb_string(&b, 7, "k.cl");
    MB(&b, SpvOpTypeFloat, 4, 32);
    MB(&b, SpvOpTypeVector, 5, 4, 4);
    MB(&b, SpvOpTypeVector, 6, 4, 3);
    MB(&b, SpvOpSpecConstant, 4, 8, 0);
    MB(&b, SpvOpSpecConstantComposite, 5, 9, 8, 8, 8, 8);
    MB(&b, SpvOpLine, 7, 5, 1);
    MB(&b, SpvOpSpecConstantOp, 6, 10, SpvOpBitcast, 9);
    spvbc_context ctx;
    spvbc_validate_summary vs;
    validate_words(b.w, b.n, 0, SPVBC_ERROR_VALIDATION_FAILED, &ctx, &vs);
    assert_int_equal(diag_of(ctx, 10, "V12", SPVBC_SEVERITY_ERROR)->source_line, 0);
    spvbc_context_destroy(ctx);
    mb_free(&b);
}

/* A parse of `size` bytes at `bytes` (parse_bytes) or of `n` words (parse) in a fresh context,
 * expecting `expect`; when it fails, its one diagnostic is of `rule`, at word `offset`, of
 * opcode 0 (the header's and the arguments' errors name no instruction). */
static void expect_entry(int from_bytes, const void *data, size_t count, uint32_t cap,
                         spvbc_result expect, const char *rule, size_t offset)
{
    spvbc_context ctx;
    assert_int_equal(spvbc_context_create(NULL, &ctx), SPVBC_SUCCESS);
    spvbc_parse_options po = SPVBC_PARSE_OPTIONS_INIT;
    po.max_id_bound = cap;
    spvbc_module m = NULL;
    const spvbc_result r = from_bytes
                               ? spvbc_module_parse_bytes(ctx, data, count, &po, &m)
                               : spvbc_module_parse(ctx, (const uint32_t *)data, count, &po, &m);
    if (r != expect)
        fail_msg("%s of %zu: %s, expected %s", rule ? rule : "-", count, spvbc_result_string(r),
                 spvbc_result_string(expect));
    if (r != SPVBC_SUCCESS) {
        assert_int_equal(spvbc_context_diagnostic_count(ctx), 1);
        const spvbc_diagnostic *d = spvbc_context_diagnostic(ctx, 0);
        assert_string_equal(d->rule, rule);
        assert_int_equal(d->word_offset, offset);
        assert_int_equal(d->opcode, 0);
    }
    spvbc_module_destroy(m);
    spvbc_context_destroy(ctx);
}

/* The parse's ways in (unit.reader_walk, unit.malformed and unit.test_api are the first
 * witnesses): the header's generator word kept; its errors and the bytes' (a bad magic, a size
 * not a multiple of 4, more words than 2^32 - 16, a bound above a cap above the largest one
 * allowed) at their word, of no opcode, the version's message naming the word, a size's error
 * the only diagnostic after an earlier failure; options of a struct_size below the smallest, also
 * for misaligned bytes; NULL arguments; a bound of 2^20 costing its 4 MiB id table, which the
 * next parse in the context reuses with the site list, and a failed parse keeps no block;
 * misaligned bytes (none too) copied and
 * freed with the sizes asked for; each allocation of a parse failing in turn, nothing left
 * behind. */
void test_reader_entry_points(void **state)
{
    (void)state;
    uint32_t w[8] = {SpvMagicNumber,
                     0x00010000u,
                     0x12345678u,
                     8,
                     0,
                     (2u << 16) | SpvOpCapability,
                     SpvCapabilityKernel,
                     0};
    spvbc_context ctx;
    assert_int_equal(spvbc_context_create(NULL, &ctx), SPVBC_SUCCESS);
    spvbc_module m = NULL;
    assert_int_equal(spvbc_module_parse(ctx, w, 7, NULL, &m), SPVBC_SUCCESS);
    spvbc_module_info info = {sizeof info, 0, 0, 0, 0, 0, 0, 0, 0, 0};
    assert_int_equal(spvbc_module_get_info(m, &info), SPVBC_SUCCESS);
    assert_int_equal(info.generator, 0x12345678u);
    assert_int_equal(info.id_bound, 8);
    spvbc_module_destroy(m);
    w[1] = 0x00010700u;
    assert_int_equal(spvbc_module_parse(ctx, w, 7, NULL, &m), SPVBC_ERROR_INVALID_BINARY);
    has_text(spvbc_context_diagnostic(ctx, 0)->message, "version word 0x00010700 ");
    expect_entry(0, w, 7, 0, SPVBC_ERROR_INVALID_BINARY, "R-VERSION", 1);
    /* the size's error clears the version's */
    assert_int_equal(spvbc_module_parse_bytes(ctx, w, 27, NULL, &m), SPVBC_ERROR_INVALID_BINARY);
    assert_int_equal(spvbc_context_diagnostic_count(ctx), 1);
    w[1] = 0x00010000u;
    expect_entry(1, w, 27, 0, SPVBC_ERROR_INVALID_BINARY, "R-SIZE", 6);
    w[3] = 17;
    expect_entry(0, w, 7, 16, SPVBC_ERROR_UNSUPPORTED, "R-BOUND", 3);
    w[3] = 0x7FFFFFF1u; /* above the largest cap, whatever the caller asks */
    expect_entry(0, w, 7, 0xFFFFFFFFu, SPVBC_ERROR_UNSUPPORTED, "R-BOUND", 3);
    w[3] = 8;
    expect_entry(0, w, 0xFFFFFFF1u, 0, SPVBC_ERROR_UNSUPPORTED, "R-LIMIT", 0);
    w[0] = 0x07230204u;
    expect_entry(1, w, 28, 0, SPVBC_ERROR_INVALID_BINARY, "R-MAGIC", 0);
    expect_entry(0, w, 7, 0, SPVBC_ERROR_INVALID_BINARY, "R-MAGIC", 0);
    w[0] = SpvMagicNumber;

    spvbc_parse_options small = SPVBC_PARSE_OPTIONS_INIT;
    small.struct_size = 1;
    uint8_t store[40];
    memcpy(store + 1, w, 28);
    assert_int_equal(spvbc_module_parse(ctx, w, 7, &small, &m), SPVBC_ERROR_INVALID_ARGUMENT);
    assert_int_equal(spvbc_module_parse_bytes(ctx, store + 1, 28, &small, &m),
                     SPVBC_ERROR_INVALID_ARGUMENT);
    assert_int_equal(spvbc_module_parse_bytes(NULL, w, 28, NULL, &m), SPVBC_ERROR_INVALID_ARGUMENT);
    /* misaligned: refused before anything is copied */
    assert_int_equal(spvbc_module_parse_bytes(NULL, store + 1, 28, NULL, &m),
                     SPVBC_ERROR_INVALID_ARGUMENT);
    assert_int_equal(spvbc_module_parse_bytes(ctx, w, 28, NULL, NULL),
                     SPVBC_ERROR_INVALID_ARGUMENT);
    assert_int_equal(spvbc_module_parse_bytes(ctx, NULL, 28, NULL, &m),
                     SPVBC_ERROR_INVALID_ARGUMENT);
    spvbc_context_destroy(ctx);

    /* a bound of 2^20 costs its 4 MiB id table and little more; the next module of that bound in
     * the same context takes the id table and the site list the first left, allocating two
     * blocks fewer */
    {
        test_alloc a;
        memset(&a, 0, sizeof a);
        const spvbc_allocator al = test_alloc_allocator(&a);
        assert_int_equal(spvbc_context_create(&al, &ctx), SPVBC_SUCCESS);
        w[3] = 1u << 20;
        size_t calls[2];
        for (int k = 0; k < 2; ++k) {
            const size_t before = a.calls;
            assert_int_equal(spvbc_module_parse(ctx, w, 7, NULL, &m), SPVBC_SUCCESS);
            calls[k] = a.calls - before;
            if (k == 0) {
                assert_true(a.peak_bytes >= (size_t)4 << 20);
                assert_true(a.peak_bytes < ((size_t)4 << 20) + 65536);
            }
            spvbc_module_destroy(m);
        }
        assert_int_equal(calls[1] + 2, calls[0]);
        /* a parse that fails keeps nothing of its module: a second one holds no more blocks
         * than the first left (its diagnostic's) */
        w[1] = 0x00010700u;
        assert_int_equal(spvbc_module_parse(ctx, w, 7, NULL, &m), SPVBC_ERROR_INVALID_BINARY);
        const size_t live = a.live_blocks;
        assert_int_equal(spvbc_module_parse(ctx, w, 7, NULL, &m), SPVBC_ERROR_INVALID_BINARY);
        assert_int_equal(a.live_blocks, live);
        w[1] = 0x00010000u;
        spvbc_context_destroy(ctx);
        w[3] = 8;
    }
    /* misaligned bytes, and none, through a counting allocator; then each allocation failing */
    for (size_t k = 0;; ++k) {
        test_alloc a;
        memset(&a, 0, sizeof a);
        const spvbc_allocator al = test_alloc_allocator(&a);
        assert_int_equal(spvbc_context_create(&al, &ctx), SPVBC_SUCCESS);
        const size_t before = a.calls;
        a.fail_at = k ? before + k : 0;
        const spvbc_result r = spvbc_module_parse_bytes(ctx, store + 1, 28, NULL, &m);
        if (a.triggered) {
            assert_int_equal(r, SPVBC_ERROR_OUT_OF_MEMORY);
            assert_null(m);
        } else {
            assert_int_equal(r, SPVBC_SUCCESS);
        }
        spvbc_module_destroy(m);
        m = NULL;
        a.fail_at = 0;
        if (!a.triggered)
            assert_int_equal(spvbc_module_parse_bytes(ctx, store + 1, 0, NULL, &m),
                             SPVBC_ERROR_INVALID_BINARY);
        spvbc_context_destroy(ctx);
        assert_int_equal(a.bad_free, 0);
        assert_int_equal(a.live_blocks, 0);
        if (k && !a.triggered) break;
    }
}

/* The walk's fast paths with a bound above the words that begin instructions (0x50000: an
 * OpUndef's first word 0x30001 and an OpBitcast's 0x4007C are ids), so that a fast path reading
 * one word too far, or the first word for an operand, names a real id (unit.reader_walk is the
 * first witness):
 *   - a 2-word OpUndef, a 1-word OpLabel and a 3-word OpBitcast, each before an OpNop (the id
 *     0x10000): R-OPERANDS at their word;
 *   - %0x30001 a ulong and %0x4007C a float2 declared: the float value %10 cast to a float2 is
 *     V12 (the OpUndef's first word is no type of its), and %12 = OpBitcast %6 (a uint) of %10 is
 *     valid (the OpBitcast's first word is no result type of its), and %12 cast to a uint is the
 *     identity, S2 (it is a uint, not a float2);
 *   - a label %20 then an OpUndef that defines %20 again: R-ID-REDEFINED (the label's id is
 *     its word 1, not the next word);
 *   - a value of that ulong (its entry above 0x20000) named as a result type: R-TYPE-ORDER. */
void test_reader_fast_path_wide_bound(void **state)
{
    (void)state;
    const uint32_t bound = 0x50000u;
    const uint32_t shorts[][2] = {
        {(2u << 16) | SpvOpUndef, 4}, {(1u << 16) | SpvOpLabel, 0}, {(3u << 16) | SpvOpBitcast, 4}};
    const size_t short_words[] = {2, 1, 3};
    mb b = {NULL, 0, 0};
    for (int k = 0; k < 3; ++k) {
        mb_kernel_head(&b, 0x00010000u, bound, 1);
        mb_void_fn_type(&b, 2, 3);
        MB(&b, SpvOpTypeFloat, 4, 32);
        mb_fn_begin(&b, 2, 1, 3, 5);
        const size_t at = b.n;
        mb_word(&b, shorts[k][0]);
        if (short_words[k] >= 2) mb_word(&b, shorts[k][1]);
        if (short_words[k] >= 3) mb_word(&b, 9);
        mb_op0(&b, SpvOpNop);
        mb_fn_end(&b);
        spvbc_diagnostic d;
        assert_int_equal(parse_words(b.w, b.n, &d), SPVBC_ERROR_INVALID_BINARY);
        assert_int_equal(d.word_offset, at);
    }
    mb_kernel_head(&b, 0x00010000u, bound, 1);
    mb_void_fn_type(&b, 2, 3);
    MB(&b, SpvOpTypeFloat, 4, 32);
    MB(&b, SpvOpCapability, SpvCapabilityInt64); /* the reader does not check the layout */
    MB(&b, SpvOpTypeInt, 0x30001u, 64, 0);
    MB(&b, SpvOpTypeVector, 0x4007Cu, 4, 2);
    MB(&b, SpvOpTypeInt, 6, 32, 0);
    mb_fn_begin(&b, 2, 1, 3, 5);
    MB(&b, SpvOpUndef, 4, 10);
    MB(&b, SpvOpBitcast, 0x4007Cu, 11, 10);
    MB(&b, SpvOpBitcast, 6, 12, 10);
    MB(&b, SpvOpBitcast, 6, 13, 12); /* %12 is a uint: the identity, S2 */
    mb_fn_end(&b);
    spvbc_context ctx;
    spvbc_validate_summary vs;
    validate_words(b.w, b.n, 0, SPVBC_ERROR_VALIDATION_FAILED, &ctx, &vs);
    assert_int_equal(vs.errors, 1);
    diag_of(ctx, 11, "V12", SPVBC_SEVERITY_ERROR);
    no_diag_of(ctx, 12);
    diag_of(ctx, 13, "S2", SPVBC_SEVERITY_WARNING);
    spvbc_context_destroy(ctx);
    /* a label %20 defined again by the OpUndef after it (whose first word, 0x30001, is an id
     * here): R-ID-REDEFINED */
    mb_kernel_head(&b, 0x00010000u, bound, 1);
    mb_void_fn_type(&b, 2, 3);
    MB(&b, SpvOpTypeFloat, 4, 32);
    MB(&b, SpvOpFunction, 2, 1, SpvFunctionControlMaskNone, 3);
    MB(&b, SpvOpLabel, 20); /* the module's only label */
    const size_t again = MB(&b, SpvOpUndef, 4, 20);
    mb_fn_end(&b);
    spvbc_diagnostic dd;
    assert_int_equal(parse_words(b.w, b.n, &dd), SPVBC_ERROR_INVALID_ID);
    assert_string_equal(dd.rule, "R-ID-REDEFINED");
    assert_int_equal(dd.word_offset, again);
    /* a value %13 of the ulong %0x30001 (an entry above 0x20000) named as a result type, by an
     * OpUndef and by an OpBitcast: R-TYPE-ORDER */
    for (int k = 0; k < 2; ++k) {
        mb_kernel_head(&b, 0x00010000u, bound, 1);
        mb_void_fn_type(&b, 2, 3);
        MB(&b, SpvOpCapability, SpvCapabilityInt64);
        MB(&b, SpvOpTypeInt, 0x30001u, 64, 0);
        mb_fn_begin(&b, 2, 1, 3, 5);
        MB(&b, SpvOpUndef, 0x30001u, 13);
        const size_t at = k ? MB(&b, SpvOpBitcast, 13, 15, 13) : MB(&b, SpvOpUndef, 13, 14);
        mb_fn_end(&b);
        spvbc_diagnostic d;
        assert_int_equal(parse_words(b.w, b.n, &d), SPVBC_ERROR_INVALID_ID);
        assert_int_equal(d.word_offset, at);
    }
    mb_free(&b);
}
