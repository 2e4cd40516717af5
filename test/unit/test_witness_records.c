/* Second witnesses (test_witness.c says why) of what source/reader.c records while it reads,
 * seen in verdicts and findings:
 *   - the head's records (the physical storage buffer extension by its exact name, a 4-word
 *     memory model's addressing, a 3-word capability);
 *   - an unknown opcode's result as guessed from its words, and those guesses at their edges
 *     (words of 0, an instruction too short under a wide bound);
 *   - the source line of sites after OpLines and DebugLines of each length, an OpLine before the
 *     function or before a function without a label, ended by an OpNoLine or a label, reaching
 *     40 sites, and none outside a function; no position names a decoy that the header's
 *     words, read as a DebugLine, would name.
 * The parse's ways in, the header and the walk's edges are in test_witness_reader.c.  Modules
 * are built as words.
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
#include "diag_check.h"
#include "test_witness.h"

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

/* Resets `b` to a Kernel module (bound 40) of float4 %5 and float3 %8 with OpString %7 "k.cl",
 * the NonSemantic.Shader.DebugInfo.100 import %20, and a decoy: %6 = DebugSource of OpString %10
 * "decoy.cl".  Word 6 is Kernel's number, 6, in the first OpCapability, so a position taken
 * from word 1 (the version word, read as a DebugLine whose DebugSource is its word 5) names
 * "decoy.cl": a site with no position must not name that file (nor any). */
static void lines_head(mb *b)
{
    mb_kernel_head(b, 0x00010000u, 40, 1);
    const uint32_t import_id = 20;
    mb_inst(b, SpvOpExtInstImport, &import_id, 1, "NonSemantic.Shader.DebugInfo.100", NULL, 0);
    mb_string(b, 7, "k.cl");
    mb_string(b, 10, "decoy.cl");
    mb_void_fn_type(b, 2, 3);
    MB(b, SpvOpExtInst, 2, 6, 20, 35, 10); /* DebugSource */
    MB(b, SpvOpTypeFloat, 4, 32);
    MB(b, SpvOpTypeVector, 5, 4, 4);
    MB(b, SpvOpTypeVector, 8, 4, 3);
}

/* The source line of `d`, a finding: a line with the file "k.cl", or none and no file. */
static uint32_t line_of(const spvbc_diagnostic *d)
{
    if (d->source_line ? !d->source_file || strcmp(d->source_file, "k.cl") != 0
                       : d->source_file != NULL)
        fail_msg("%%%u: line %u of %s", (unsigned)d->result_id, (unsigned)d->source_line,
                 d->source_file ? d->source_file : "no file");
    return d->source_line;
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
    MB(&b, SpvOpBitcast, 8, 13, 12);
    MB(&b, SpvOpBitcast, 8, 14, 12);
    mb_fn_end(&b);
    spvbc_context ctx;
    spvbc_validate_summary vs;
    validate_words(b.w, b.n, 0, SPVBC_ERROR_VALIDATION_FAILED, &ctx, &vs);
    *line13 = line_of(diag_of(ctx, 13, "V12", SPVBC_SEVERITY_ERROR));
    *line14 = line_of(diag_of(ctx, 14, "V12", SPVBC_SEVERITY_ERROR));
    spvbc_context_destroy(ctx);
    mb_free(&b);
}

/* The source line a site's finding names (unit.test_reader_positions is the first witness): an
 * OpLine of 4 or 5 words names line 7 for both sites after it; one of 3 words names none; one
 * before the function does not reach into it; an OpNoLine or a label after it ends it (each
 * twice: the walk's fast path takes an opcode only once the process has met it).  No
 * position names lines_head()'s decoy file. */
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
    for (int twice = 0; twice < 2; ++twice) {
        lines_of_sites(NULL, 0, noline, 5, &a, &b);
        assert_int_equal(a, 0);
        lines_of_sites(NULL, 0, label, 6, &a, &b);
        assert_int_equal(a, 0);
    }
}

/* An OpLine reaches every site up to the block's end, however many (unit.test_reader_positions
 * is the first witness): 40 OpBitcasts after one OpLine outgrow the site list the parse sized
 * (about one per 64 words, and 16), so some are read by the walk's general path, which must
 * not end the position; each of the 40 findings names line 7.  And a site outside a function
 * (an OpSpecConstantOp after an OpLine among the types) names no position. */
void test_reader_lines_many_sites(void **state)
{
    (void)state;
    mb b = {NULL, 0, 0};
    lines_head(&b);
    MB(&b, SpvOpConstantNull, 5, 11);
    MB(&b, SpvOpLine, 7, 7, 3);
    MB(&b, SpvOpSpecConstantOp, 8, 15, SpvOpBitcast, 11);
    mb_fn_begin(&b, 2, 1, 3, 9);
    MB(&b, SpvOpUndef, 5, 12);
    MB(&b, SpvOpLine, 7, 7, 3);
    enum { SITES = 40, FIRST = 50 };
    for (uint32_t i = 0; i < SITES; ++i)
        MB(&b, SpvOpBitcast, 8, FIRST + i, 12);
    mb_fn_end(&b);
    b.w[3] = FIRST + SITES; /* the bound */
    assert_true(b.n / 64 + 16 < SITES);
    spvbc_context ctx;
    spvbc_validate_summary vs;
    validate_words(b.w, b.n, 0, SPVBC_ERROR_VALIDATION_FAILED, &ctx, &vs);
    for (uint32_t i = 0; i < SITES; ++i)
        if (line_of(diag_of(ctx, FIRST + i, "V12", SPVBC_SEVERITY_ERROR)) != 7)
            fail_msg("%%%u, site %u of %u after the OpLine: no line", FIRST + i, i + 1, SITES);
    const spvbc_diagnostic *spec = NULL;
    for (size_t i = 0; i < spvbc_context_diagnostic_count(ctx); ++i)
        if (spvbc_context_diagnostic(ctx, i)->result_id == 15)
            spec = spvbc_context_diagnostic(ctx, i);
    if (!spec) fail_msg("no finding of the OpSpecConstantOp %%15");
    assert_int_equal(line_of(spec), 0);
    spvbc_context_destroy(ctx);
    mb_free(&b);
}

/* Source lines from NonSemantic.Shader.DebugInfo.100 (unit.test_reader_positions is the first
 * witness): after the types (lines_head() imports the set as %20), uint %21, the constants 7
 * %22 and 3 %23, and %24 = DebugSource of "k.cl" (%7); in the function, before the sites:
 *   - a 10-word DebugLine (%24, lines 7-7, columns 3-3): line 7; one of 11 words (an extra word):
 *     line 7; one of 9 words: none;
 *   - an OpLine of line 7, then a 10-word instruction 105 of the set whose LineStart word would
 *     be %23: line 7 still (only DebugLine and DebugNoLine change the position);
 *   - an OpLine among the types, then a function with no label (invalid, but read): none. */
void test_reader_debug_lines(void **state)
{
    (void)state;
    mb pre = {NULL, 0, 0};
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
    MB(&m, SpvOpBitcast, 8, 13, 12);
    mb_op0(&m, SpvOpFunctionEnd);
    spvbc_context ctx;
    spvbc_validate_summary vs;
    validate_words(m.w, m.n, 0, SPVBC_ERROR_VALIDATION_FAILED, &ctx, &vs);
    assert_int_equal(line_of(diag_of(ctx, 13, "V12", SPVBC_SEVERITY_ERROR)), 0);
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
