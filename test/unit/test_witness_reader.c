/* Second witnesses (test_witness.c says why) of source/reader.c's reads at the end of the id
 * table and of the module, each parsed with its words, and every block of the library's, ending
 * right before an unreadable page (guarded_words(), guarded_context()):
 *   - a bitcast whose operand is the id bound (12 ids: the table is 48 bytes): the site is kept,
 *     with no entry read for its operand, and beside a site that needs a new id nothing is
 *     lowered (unit.test_lower_edges is the first witness);
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

/* The head of a Kernel module (SPIR-V `version`, bound 20): Kernel and Addresses, the extension
 * `ext` (NULL: none), Physical64 or the `memory_model` words given, entry point %1, void %2 and
 * void() %3, float %4, a CrossWorkgroup pointer to it %5, uint %6, uint2 %7, ulong %11. */
static void kernel_records_head(mb *b, uint32_t version, const char *ext,
                                const uint32_t *memory_model, size_t mm_words)
{
    b->n = 0;
    mb_header(b, version, 20);
    MB(b, SpvOpCapability, SpvCapabilityKernel);
    MB(b, SpvOpCapability, SpvCapabilityAddresses);
    MB(b, SpvOpCapability, SpvCapabilityInt64);
    if (ext) mb_extension(b, ext);
    if (memory_model)
        mb_opn(b, SpvOpMemoryModel, memory_model, mm_words);
    else
        MB(b, SpvOpMemoryModel, SpvAddressingModelPhysical64, SpvMemoryModelOpenCL);
    mb_entry(b, SpvExecutionModelKernel, 1, "k");
    mb_void_fn_type(b, 2, 3);
    MB(b, SpvOpTypeFloat, 4, 32);
    MB(b, SpvOpTypePointer, 5, SpvStorageClassCrossWorkgroup, 4);
    MB(b, SpvOpTypeInt, 6, 32, 0);
    MB(b, SpvOpTypeVector, 7, 6, 2);
    MB(b, SpvOpTypeInt, 11, 64, 0);
}

/* Ends `b` with a function that casts an undefined pointer %5 to `to` (result %10), validates
 * it and returns the rule of %10's one finding ("" for none). */
static const char *pointer_cast_rule(mb *b, uint32_t to, char *rule, size_t size)
{
    mb_fn_begin(b, 2, 1, 3, 8);
    MB(b, SpvOpUndef, 5, 9);
    MB(b, SpvOpBitcast, to, 10, 9);
    mb_fn_end(b);
    spvbc_context ctx;
    assert_int_equal(spvbc_context_create(NULL, &ctx), SPVBC_SUCCESS);
    spvbc_module m = NULL;
    assert_int_equal(spvbc_module_parse(ctx, b->w, b->n, NULL, &m), SPVBC_SUCCESS);
    spvbc_validate_summary vs = SPVBC_VALIDATE_SUMMARY_INIT;
    (void)spvbc_module_validate(m, NULL, &vs);
    rule[0] = '\0';
    for (size_t i = 0; i < spvbc_context_diagnostic_count(ctx); ++i) {
        const spvbc_diagnostic *d = spvbc_context_diagnostic(ctx, i);
        if (d->result_id == 10) snprintf(rule, size, "%s", d->rule);
    }
    spvbc_module_destroy(m);
    spvbc_context_destroy(ctx);
    return rule;
}

/* What the reader records from the module's head, seen in verdicts (unit.test_reader_records
 * and lit are the first witnesses):
 *   - SPV_KHR_physical_storage_buffer, as the extension's name and only that name, lets a
 *     pointer be cast to a uint2 before SPIR-V 1.5 (V11 without it, with another extension, one
 *     that starts or ends like it, or an OpExtension with no name);
 *   - the addressing model of a 4-word OpMemoryModel (an extra word) is read: Physical32 makes a
 *     pointer 32 bits wide (a cast to a uint valid, to a ulong S3-WIDTH); a 2-word one gives
 *     none (no width: no S3-WIDTH);
 *   - a 3-word OpCapability Int16 (an extra word) is noted: a ushort2 -> uint cast in a Shader
 *     module is valid with it and V13 without it. */
void test_reader_records_in_verdicts(void **state)
{
    (void)state;
    char rule[32];
    mb b = {NULL, 0, 0};
    kernel_records_head(&b, 0x00010400u, "SPV_KHR_physical_storage_buffer", NULL, 0);
    assert_string_equal(pointer_cast_rule(&b, 7, rule, sizeof rule), "");
    kernel_records_head(&b, 0x00010400u, "SPV_KHR_no_integer_wrap_decoration", NULL, 0);
    assert_string_equal(pointer_cast_rule(&b, 7, rule, sizeof rule), "V11");
    kernel_records_head(&b, 0x00010400u, NULL, NULL, 0);
    assert_string_equal(pointer_cast_rule(&b, 7, rule, sizeof rule), "V11");
    /* names that only start or end like it, and an OpExtension with no name */
    const char *const near[] = {"SPV_KHR_physical_storage_buffer2",
                                "TPV_KHR_physical_storage_buffer"};
    for (int k = 0; k < 2; ++k) {
        kernel_records_head(&b, 0x00010400u, near[k], NULL, 0);
        assert_string_equal(pointer_cast_rule(&b, 7, rule, sizeof rule), "V11");
    }
    kernel_records_head(&b, 0x00010400u, NULL, NULL, 0);
    mb_op0(&b, SpvOpExtension); /* after the types: the reader does not check the layout */
    assert_string_equal(pointer_cast_rule(&b, 7, rule, sizeof rule), "V11");
    const uint32_t physical32[3] = {SpvAddressingModelPhysical32, SpvMemoryModelOpenCL, 0};
    kernel_records_head(&b, 0x00010000u, NULL, physical32, 3);
    assert_string_equal(pointer_cast_rule(&b, 6, rule, sizeof rule), "");
    kernel_records_head(&b, 0x00010000u, NULL, physical32, 3);
    assert_string_equal(pointer_cast_rule(&b, 11, rule, sizeof rule), "S3-WIDTH");
    /* a 2-word OpMemoryModel names no addressing model the reader reads: no pointer width */
    kernel_records_head(&b, 0x00010000u, NULL, physical32, 1);
    assert_string_equal(pointer_cast_rule(&b, 11, rule, sizeof rule), "");
    for (int cap = 0; cap <= 1; ++cap) {
        mb_shader_head(&b, 20, NULL, 0, NULL, 0);
        if (cap) MB(&b, SpvOpCapability, SpvCapabilityInt16, 0); /* an extra word */
        MB(&b, SpvOpTypeInt, 4, 16, 0);
        MB(&b, SpvOpTypeVector, 5, 4, 2);
        MB(&b, SpvOpTypeInt, 6, 32, 0);
        mb_fn_begin(&b, 2, 1, 3, 8);
        MB(&b, SpvOpUndef, 5, 9);
        MB(&b, SpvOpBitcast, 6, 10, 9);
        mb_fn_end(&b);
        spvbc_context ctx;
        spvbc_validate_summary vs;
        validate_words(b.w, b.n, 0, cap ? SPVBC_SUCCESS : SPVBC_ERROR_VALIDATION_FAILED, &ctx, &vs);
        if (cap)
            no_diag_of(ctx, 10);
        else
            diag_of(ctx, 10, "V13", SPVBC_SEVERITY_ERROR);
        spvbc_context_destroy(ctx);
    }
    mb_free(&b);
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

/* A Kernel module (bound 20: float %4, float4 %5, float3 %6, int %7, int3 %8) whose function
 * holds the `n` words `words` of an opcode no build knows (0x7FF5), then %12 = OpUndef float4,
 * %13 = OpBitcast int3 %12 (lowerable with a new int4) and %11 = OpBitcast float3 %10. */
static void foreign_module(mb *b, const uint32_t *words, size_t n)
{
    mb_kernel_head(b, 0x00010000u, 20, 1);
    mb_void_fn_type(b, 2, 3);
    MB(b, SpvOpTypeFloat, 4, 32);
    MB(b, SpvOpTypeVector, 5, 4, 4);
    MB(b, SpvOpTypeVector, 6, 4, 3);
    MB(b, SpvOpTypeInt, 7, 32, 0);
    MB(b, SpvOpTypeVector, 8, 7, 3);
    mb_fn_begin(b, 2, 1, 3, 9);
    mb_opn(b, 0x7FF5u, words, n);
    MB(b, SpvOpUndef, 5, 12);
    MB(b, SpvOpBitcast, 8, 13, 12);
    MB(b, SpvOpBitcast, 6, 11, 10);
    mb_fn_end(b);
}

/* The rule of %11's finding in a validation with notes, and the sites lowering rewrote. */
static void foreign_outcome(const mb *b, char *rule, size_t size, size_t *rewritten)
{
    spvbc_context ctx = guarded_context();
    uint32_t *words = guarded_words(b->w, b->n);
    spvbc_module m = NULL;
    assert_int_equal(spvbc_module_parse(ctx, words, b->n, NULL, &m), SPVBC_SUCCESS);
    const spvbc_validate_options vo = {sizeof vo, SPVBC_VALIDATE_NOTES, SPVBC_GENERATION_NEWEST};
    spvbc_validate_summary vs = SPVBC_VALIDATE_SUMMARY_INIT;
    (void)spvbc_module_validate(m, &vo, &vs);
    rule[0] = '\0';
    for (size_t i = 0; i < spvbc_context_diagnostic_count(ctx); ++i)
        if (spvbc_context_diagnostic(ctx, i)->result_id == 11)
            snprintf(rule, size, "%s", spvbc_context_diagnostic(ctx, i)->rule);
    spvbc_lower_summary ls = SPVBC_LOWER_SUMMARY_INIT;
    (void)spvbc_module_lower(m, NULL, &ls);
    *rewritten = ls.rewritten;
    spvbc_module_destroy(m);
    spvbc_context_destroy(ctx);
    guarded_words_free(words, b->n);
}

/* The guesses for an unknown opcode's result (unit.test_reader_foreign and fuzz.regress are
 * the first witnesses), each seen in foreign_module(): %10 is its result (N-UNKNOWN-OPCODE on
 * %11, no verdict) when it is word 2 after the type %5, or word 1 of an instruction whose word 1
 * is no type; else %11's operand is undefined (R-UNDEF).  Word 1 at or above the bound with a
 * word 2 that is 0, defined or not, or at or above the bound: a lowering's new id could take
 * word 2's meaning, so nothing new is made (the int3 site is not rewritten) where word 2 is not
 * yet defined; the words are at a page's end. */
void test_reader_foreign_guesses(void **state)
{
    (void)state;
    if (guard_pages_missing()) skip();
    const char *const note = "N-UNKNOWN-OPCODE", *const undef = "R-UNDEF";
    const struct {
        uint32_t words[3], n;
        const char *rule;
        size_t rewritten;
    } cases[] = {
        {{5, 10}, 2, note, 1},   {{5, 10, 0}, 3, note, 1}, {{10}, 1, note, 1},
        {{10, 0}, 2, note, 1},   {{0, 10}, 2, undef, 1},   {{20, 10}, 2, undef, 0},
        {{20, 4}, 2, undef, 1},  {{20}, 1, undef, 1},      {{20, 10, 0}, 3, undef, 0},
        {{20, 20}, 2, undef, 0}, {{5, 20}, 2, undef, 1},   {{5, 0}, 2, undef, 1},
        {{4}, 1, undef, 1},      {{5, 4}, 2, undef, 1},
    };
    mb b = {NULL, 0, 0};
    for (size_t i = 0; i < sizeof cases / sizeof *cases; ++i) {
        foreign_module(&b, cases[i].words, cases[i].n);
        char rule[32];
        size_t rewritten = 0;
        foreign_outcome(&b, rule, sizeof rule, &rewritten);
        if (strcmp(rule, cases[i].rule) != 0 || rewritten != cases[i].rewritten)
            fail_msg("case %zu: %s, %zu rewritten; expected %s, %zu", i, rule, rewritten,
                     cases[i].rule, cases[i].rewritten);
    }
    mb_free(&b);
}

/* Resets `b` to a Kernel module (bound 40) of float4 %5 and float3 %6 with OpString %7 "k.cl". */
static void lines_head(mb *b)
{
    mb_kernel_head(b, 0x00010000u, 40, 1);
    mb_string(b, 7, "k.cl");
    mb_void_fn_type(b, 2, 3);
    MB(b, SpvOpTypeFloat, 4, 32);
    MB(b, SpvOpTypeVector, 5, 4, 4);
    MB(b, SpvOpTypeVector, 6, 4, 3);
}

/* lines_head()'s module, whose `before` words come before the function (after the types),
 * whose function starts with the `in_fn` words, then holds %12 = OpUndef float4, %13 and %14 =
 * OpBitcast float3 %12 (V12, lowerable): the source line of %13's and of %14's finding (0:
 * none). */
static void lines_of_sites(const uint32_t *before, size_t nb, const uint32_t *in_fn, size_t nf,
                           uint32_t *line13, uint32_t *line14)
{
    mb b = {NULL, 0, 0};
    lines_head(&b);
    for (size_t i = 0; i < nb; ++i)
        mb_word(&b, before[i]);
    mb_fn_begin(&b, 2, 1, 3, 9);
    for (size_t i = 0; i < nf; ++i)
        mb_word(&b, in_fn[i]);
    MB(&b, SpvOpUndef, 5, 12);
    MB(&b, SpvOpBitcast, 6, 13, 12);
    MB(&b, SpvOpBitcast, 6, 14, 12);
    mb_fn_end(&b);
    spvbc_context ctx;
    spvbc_validate_summary vs;
    validate_words(b.w, b.n, 0, SPVBC_ERROR_VALIDATION_FAILED, &ctx, &vs);
    *line13 = diag_of(ctx, 13, "V12", SPVBC_SEVERITY_ERROR)->source_line;
    *line14 = diag_of(ctx, 14, "V12", SPVBC_SEVERITY_ERROR)->source_line;
    spvbc_context_destroy(ctx);
    mb_free(&b);
}

/* The source line a site's finding names (unit.test_reader_positions is the first witness): an
 * OpLine of 4 or 5 words names line 7 for both sites after it; one of 3 words names none; one
 * before the function does not reach into it; an OpNoLine or a label after it ends it. */
void test_reader_site_lines(void **state)
{
    (void)state;
    const uint32_t line4[] = {(4u << 16) | SpvOpLine, 7, 7, 3};
    const uint32_t line5[] = {(5u << 16) | SpvOpLine, 7, 7, 3, 0};
    const uint32_t line3[] = {(3u << 16) | SpvOpLine, 7, 7};
    uint32_t a = 0, b = 0;
    lines_of_sites(NULL, 0, line4, 4, &a, &b);
    assert_int_equal(a, 7);
    assert_int_equal(b, 7);
    lines_of_sites(NULL, 0, line5, 5, &a, &b);
    assert_int_equal(a, 7);
    assert_int_equal(b, 7);
    lines_of_sites(NULL, 0, line3, 3, &a, &b);
    assert_int_equal(a, 0);
    assert_int_equal(b, 0);
    lines_of_sites(line4, 4, NULL, 0, &a, &b);
    assert_int_equal(a, 0);
    assert_int_equal(b, 0);
    /* an OpNoLine, or a label (invalid right there, but read), ends the position */
    const uint32_t noline[] = {(4u << 16) | SpvOpLine, 7, 7, 3, (1u << 16) | SpvOpNoLine};
    const uint32_t label[] = {(4u << 16) | SpvOpLine, 7, 7, 3, (2u << 16) | SpvOpLabel, 30};
    lines_of_sites(NULL, 0, noline, 5, &a, &b);
    assert_int_equal(a, 0);
    lines_of_sites(NULL, 0, label, 6, &a, &b);
    assert_int_equal(a, 0);
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

/* Source lines from NonSemantic.Shader.DebugInfo.100 (unit.test_reader_positions is the first
 * witness): after the types, the import %20, uint %21, the constants 7 %22 and 3 %23, and
 * %24 = DebugSource of "k.cl" (%7); in the function, before the sites:
 *   - a 10-word DebugLine (%24, lines 7-7, columns 3-3): line 7; one of 11 words (an extra word):
 *     line 7; one of 9 words: none;
 *   - an OpLine of line 7, then a 10-word instruction 105 of the set whose LineStart word would
 *     be %23: line 7 still (only DebugLine and DebugNoLine change the position);
 *   - an OpLine among the types, then a function with no label (invalid, but read): none. */
void test_reader_debug_lines(void **state)
{
    (void)state;
    mb pre = {NULL, 0, 0};
    const uint32_t import_id = 20;
    mb_inst(&pre, SpvOpExtInstImport, &import_id, 1, "NonSemantic.Shader.DebugInfo.100", NULL, 0);
    MB(&pre, SpvOpTypeInt, 21, 32, 0);
    MB(&pre, SpvOpConstant, 21, 22, 7);
    MB(&pre, SpvOpConstant, 21, 23, 3);
    MB(&pre, SpvOpExtInst, 2, 24, 20, 35, 7);
    const uint32_t line10[] = {(10u << 16) | SpvOpExtInst, 2, 25, 20, 103, 24, 22, 22, 23, 23};
    const uint32_t line11[] = {(11u << 16) | SpvOpExtInst, 2, 25, 20, 103, 24, 22, 22, 23, 23, 0};
    const uint32_t line9[] = {(9u << 16) | SpvOpExtInst, 2, 25, 20, 103, 24, 22, 22, 23};
    const uint32_t other[] = {(4u << 16) | SpvOpLine,
                              7,
                              7,
                              3,
                              (10u << 16) | SpvOpExtInst,
                              2,
                              25,
                              20,
                              105,
                              24,
                              23,
                              23,
                              23,
                              23};
    uint32_t a = 0, b = 0;
    lines_of_sites(pre.w, pre.n, line10, 10, &a, &b);
    assert_int_equal(a, 7);
    assert_int_equal(b, 7);
    lines_of_sites(pre.w, pre.n, line11, 11, &a, &b);
    assert_int_equal(a, 7);
    lines_of_sites(pre.w, pre.n, line9, 9, &a, &b);
    assert_int_equal(a, 0);
    lines_of_sites(pre.w, pre.n, other, 14, &a, &b);
    assert_int_equal(a, 7);
    assert_int_equal(b, 7);
    mb_free(&pre);
    /* a function with no label after an OpLine among the types */
    mb m = {NULL, 0, 0};
    lines_head(&m);
    MB(&m, SpvOpLine, 7, 7, 3);
    MB(&m, SpvOpFunction, 2, 1, SpvFunctionControlMaskNone, 3);
    MB(&m, SpvOpUndef, 5, 12);
    MB(&m, SpvOpBitcast, 6, 13, 12);
    mb_op0(&m, SpvOpFunctionEnd);
    spvbc_context ctx;
    spvbc_validate_summary vs;
    validate_words(m.w, m.n, 0, SPVBC_ERROR_VALIDATION_FAILED, &ctx, &vs);
    assert_int_equal(diag_of(ctx, 13, "V12", SPVBC_SEVERITY_ERROR)->source_line, 0);
    spvbc_context_destroy(ctx);
    mb_free(&m);
}

/* An unknown opcode's (0x7FF6) guesses at their edges (unit.test_reader_foreign is the first
 * witness):
 *   - words 1 or 2 of 0 name no id: an OpBitcast whose result type is %0 after such an
 *     instruction is still R-TYPE-ORDER (an unknown opcode's result would be taken as a type);
 *   - an instruction too short for the word its guess would read (1 word; 2 after a type) guesses
 *     nothing, though the next word, an OpTypeVector's first (0x40017), is an id under the bound
 *     0x40018: a bitcast of %0x40017 is R-UNDEF, with no note. */
void test_reader_foreign_edges(void **state)
{
    (void)state;
    const uint32_t zeros[][3] = {{2u << 16 | 0x7FF6u, 0}, {3u << 16 | 0x7FF6u, 5, 0}};
    mb b = {NULL, 0, 0};
    for (int k = 0; k < 2; ++k) {
        mb_kernel_head(&b, 0x00010000u, 20, 1);
        mb_void_fn_type(&b, 2, 3);
        MB(&b, SpvOpTypeFloat, 4, 32);
        MB(&b, SpvOpTypeVector, 5, 4, 4);
        for (uint32_t i = 0; i < zeros[k][0] >> 16; ++i)
            mb_word(&b, zeros[k][i]);
        mb_fn_begin(&b, 2, 1, 3, 6);
        MB(&b, SpvOpUndef, 5, 7);
        const size_t at = MB(&b, SpvOpBitcast, 0, 8, 7);
        mb_fn_end(&b);
        expect_parse_error(b.w, b.n, SPVBC_ERROR_INVALID_ID, "R-TYPE-ORDER", at, NULL);
    }
    const uint32_t vec = (4u << 16) | SpvOpTypeVector;
    const uint32_t shorts[][2] = {{1u << 16 | 0x7FF6u, 0}, {2u << 16 | 0x7FF6u, 5}};
    for (int k = 0; k < 2; ++k) {
        mb_kernel_head(&b, 0x00010000u, vec + 1, 1);
        mb_void_fn_type(&b, 2, 3);
        MB(&b, SpvOpTypeFloat, 4, 32);
        MB(&b, SpvOpTypeVector, 5, 4, 4);
        for (uint32_t i = 0; i < shorts[k][0] >> 16; ++i)
            mb_word(&b, shorts[k][i]);
        MB(&b, SpvOpTypeVector, 6, 4, 3); /* its first word follows the unknown instruction */
        mb_fn_begin(&b, 2, 1, 3, 7);
        MB(&b, SpvOpBitcast, 6, 8, vec);
        mb_fn_end(&b);
        spvbc_context ctx;
        spvbc_validate_summary vs;
        validate_words(b.w, b.n, SPVBC_VALIDATE_NOTES, SPVBC_ERROR_VALIDATION_FAILED, &ctx, &vs);
        diag_of(ctx, 8, "R-UNDEF", SPVBC_SEVERITY_ERROR);
        assert_int_equal(vs.notes, 0);
        spvbc_context_destroy(ctx);
    }
    mb_free(&b);
}
