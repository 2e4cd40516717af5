/* Second witnesses (test_witness.c says why) of source/reader.c's reads at the end of the id
 * table and of the module, each parsed with its words, and every block of the library's, ending
 * right before an unreadable page (guarded_words(), guarded_context()):
 *   - a bitcast whose operand is the id bound (12 ids: the table is 48 bytes): the site is kept,
 *     with no entry read for its operand (unit.test_lower_edges, whose lowering refuses such a
 *     module, is the first witness);
 *   - an instruction of an opcode no build knows, typed by its word 1, whose word 2 is the
 *     bound: no entry read for it (unit.test_reader_foreign is the first);
 *   - a module that ends in an OpExtInst of NonSemantic.Shader.DebugInfo.100 one word short
 *     (no instruction number): nothing read past it (unit.test_reader_positions is the first).
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
    spvbc_context probe = guarded_context();
    if (!probe) {
        fprintf(stderr, "no mmap here: the sanitizer build watches these reads: SKIPPED\n");
        skip();
    }
    spvbc_context_destroy(probe);
    mb b = {NULL, 0, 0};
    /* a bitcast of the undefined %12, the bound */
    mb_kernel_head(&b, 0x00010000u, 12, 1);
    mb_void_fn_type(&b, 2, 3);
    MB(&b, SpvOpTypeFloat, 4, 32);
    mb_fn_begin(&b, 2, 1, 3, 5);
    MB(&b, SpvOpBitcast, 4, 6, 12);
    mb_fn_end(&b);
    assert_int_equal(parse_at_a_page(&b), SPVBC_SUCCESS);
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

static void expect_probe(const probe_case *c)
{
    mb b = {NULL, 0, 0};
    mb_kernel_head(&b, 0x00010000u, 12, 1);
    mb_void_fn_type(&b, 2, 3);
    MB(&b, SpvOpTypeFloat, 4, 32);
    MB(&b, SpvOpTypeInt, 11, 32, 0);
    mb_fn_begin(&b, 2, 1, 3, 5);
    MB(&b, SpvOpUndef, 4, 7);
    const size_t at = mb_opn(&b, c->op, c->ops, c->n);
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

/* The walk's fast path (a typed result, an OpBitcast, a label) at the edges of the id range:
 * the last id, the bound, 0, an id defined already, a result type at the bound or not a type
 * (R-TYPE-ORDER either way), one word short; each as the general path judges it, and no entry
 * read at the bound (unit.reader_walk and unit.malformed are the first witnesses). */
void test_reader_fast_path_edges(void **state)
{
    (void)state;
    spvbc_context probe = guarded_context();
    if (!probe) {
        fprintf(stderr, "no mmap here: the sanitizer build watches these reads: SKIPPED\n");
        skip();
    }
    spvbc_context_destroy(probe);
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
