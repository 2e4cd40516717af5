/*
 * test_reader_walk.c - the reader's test program (test_reader.h): the walk's fast paths (an
 * instruction with a result type and a result id, OpBitcast, OpLabel, a block's end) and the
 * records they make, each checked through the public API against what the general path does;
 * the helpers the two files share; main().
 *
 * The fast paths finish the commonest instructions without the general path's checks, so each
 * case here is an input where a fast path that took one instruction too many would answer
 * differently: a label too short for its id followed by a word that reads as a small id, ids
 * in a context whose id table is an earlier, wider module's (its entries past the bound), a
 * bound of 1, ids above 0x20000 (an instruction's first word, read as an id, names one), and
 * what ends a source position.
 *
 * SPDX-License-Identifier: Apache-2.0
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "test_reader.h"

/* ---- helpers --------------------------------------------------------------------------- */

spvbc_context new_ctx(void)
{
    spvbc_context ctx;
    assert_int_equal(spvbc_context_create(NULL, &ctx), SPVBC_SUCCESS);
    return ctx;
}

const spvbc_diagnostic *one_error(spvbc_context ctx, size_t offset, size_t index, const char *rule)
{
    assert_int_equal(spvbc_context_diagnostic_count(ctx), 1);
    const spvbc_diagnostic *d = spvbc_context_diagnostic(ctx, 0);
    if (strcmp(d->rule, rule) != 0 || d->word_offset != offset || d->instruction_index != index)
        fail_msg("%s at %zu (%zu), expected %s at %zu (%zu): %s", d->rule, d->word_offset,
                 d->instruction_index, rule, offset, index, d->message);
    assert_int_equal(d->severity, SPVBC_SEVERITY_ERROR);
    return d;
}

const spvbc_diagnostic *parse_fails(spvbc_context ctx, const uint32_t *w, size_t n,
                                    const spvbc_parse_options *o, spvbc_result expect,
                                    size_t offset, size_t index, const char *rule)
{
    spvbc_module m = SENTINEL;
    const spvbc_result r = spvbc_module_parse(ctx, w, n, o, &m);
    if (r != expect)
        fail_msg("result %s, expected %s", spvbc_result_string(r), spvbc_result_string(expect));
    assert_ptr_equal(m, SENTINEL);
    return one_error(ctx, offset, index, rule);
}

spvbc_module parse_ok(spvbc_context ctx, const uint32_t *w, size_t n)
{
    spvbc_module m = NULL;
    const spvbc_result r = spvbc_module_parse(ctx, w, n, NULL, &m);
    if (r != SPVBC_SUCCESS) {
        const spvbc_diagnostic *d = spvbc_context_diagnostic(ctx, 0);
        fail_msg("parse: %s (%s)", spvbc_result_string(r), d ? d->message : "no diagnostic");
    }
    return m;
}

void mod_types(mb *b, uint32_t bound)
{
    b->n = 0;
    mb_kernel_head(b, 0x00010000u, bound, FN);
    mb_void_fn_type(b, VOID, FNTY);
    MB(b, SpvOpTypeFloat, FLOAT, 32);
    MB(b, SpvOpTypeVector, V4, FLOAT, 4);
    MB(b, SpvOpTypeVector, V3, FLOAT, 3);
}

/* The validation's one finding in `ctx` about result id `id`. */
static const spvbc_diagnostic *finding_of(spvbc_context ctx, uint32_t id)
{
    const spvbc_diagnostic *found = NULL;
    for (size_t i = 0; i < spvbc_context_diagnostic_count(ctx); ++i) {
        const spvbc_diagnostic *d = spvbc_context_diagnostic(ctx, i);
        if (d->result_id != id) continue;
        if (found) fail_msg("two findings of %%%u", id);
        found = d;
    }
    if (!found) fail_msg("no finding of %%%u", id);
    return found;
}

/* Validates `m`, which must find errors (its findings are then the context's diagnostics). */
static void validate_fails(spvbc_module m)
{
    spvbc_validate_summary s = SPVBC_VALIDATE_SUMMARY_INIT;
    assert_int_equal(spvbc_module_validate(m, NULL, &s), SPVBC_ERROR_VALIDATION_FAILED);
}

/* ---- word counts ----------------------------------------------------------------------- */

/* A word count 0 names the instruction's whole opcode, also one of 16 bits with the low bit
 * set. */
static void test_word_count_zero_opcode(void **state)
{
    (void)state;
    mb b = {0};
    mod_types(&b, BOUND);
    const size_t at = b.n;
    mb_word(&b, 0x8001u); /* word count 0, opcode 0x8001 */
    spvbc_context ctx = new_ctx();
    const spvbc_diagnostic *d =
        parse_fails(ctx, b.w, b.n, NULL, SPVBC_ERROR_INVALID_BINARY, at, 9, "R-WORD-COUNT");
    assert_string_equal(d->message, "instruction has word count 0");
    assert_int_equal(d->opcode, 0x8001u);
    spvbc_context_destroy(ctx);
    mb_free(&b);
}

/* ---- the labels' fast path ------------------------------------------------------------- */

/* A label of one word is too short for its id, also when the next word would read as an id
 * nothing defined yet (word count 0, opcode R): the error is the label's. */
static void test_label_too_short(void **state)
{
    (void)state;
    mb b = {0};
    mod_types(&b, BOUND);
    MB(&b, SpvOpFunction, VOID, FN, 0, FNTY);
    const size_t at = mb_word(&b, (1u << 16) | SpvOpLabel);
    mb_word(&b, R);
    spvbc_context ctx = new_ctx();
    parse_fails(ctx, b.w, b.n, NULL, SPVBC_ERROR_INVALID_BINARY, at, 10, "R-OPERANDS");
    spvbc_context_destroy(ctx);
    mb_free(&b);
}

/* The label's id is its word 1, whatever follows: a label with an extra word that names an id
 * defined later parses (the extra word is not an id). */
static void test_label_extra_word(void **state)
{
    (void)state;
    mb b = {0};
    mod_types(&b, BOUND);
    MB(&b, SpvOpFunction, VOID, FN, 0, FNTY);
    MB(&b, SpvOpLabel, LABEL, X);
    MB(&b, SpvOpUndef, V4, X);
    MB(&b, SpvOpBitcast, V3, R, X);
    mb_fn_end(&b);
    spvbc_context ctx = new_ctx();
    spvbc_module_destroy(parse_ok(ctx, b.w, b.n));
    spvbc_context_destroy(ctx);
    mb_free(&b);
}

/* ---- the fast path of a result type and a result id ---------------------------------- */

/* An OpUndef (which that fast path finishes) of result id 0, of the largest id a uint32_t
 * holds, and of the bound: the checks of the general path report each. */
static void test_undef_result_id_extremes(void **state)
{
    (void)state;
    const struct {
        uint32_t id;
        const char *rule;
    } rows[] = {{0, "R-ID-ZERO"}, {0xFFFFFFFFu, "R-ID-RANGE"}, {BOUND, "R-ID-RANGE"}};
    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; ++i) {
        mb b = {0};
        mod_types(&b, BOUND);
        MB(&b, SpvOpFunction, VOID, FN, 0, FNTY);
        MB(&b, SpvOpLabel, LABEL);
        const size_t at = MB(&b, SpvOpUndef, V4, rows[i].id);
        mb_fn_end(&b);
        spvbc_context ctx = new_ctx();
        parse_fails(ctx, b.w, b.n, NULL, SPVBC_ERROR_INVALID_ID, at, 11, rows[i].rule);
        spvbc_context_destroy(ctx);
        mb_free(&b);
    }
}

/* ---- ids at and past the bound in a reused id table ------------------------------------ */

/* A context whose spare id table is that of a module of bound BOUND + 2 that defined its float
 * at id `float_id` (BOUND or BOUND + 1) and left the other of the two undefined: the entries
 * past a smaller module's bound then read as a type and as undefined. */
static spvbc_context ctx_after_wide(uint32_t float_id)
{
    spvbc_context ctx = new_ctx();
    mb b = {0};
    mod_types(&b, BOUND + 2);
    b.w[b.n - 10] = float_id; /* OpTypeFloat's id (the float, float4 and float3: 3, 4, 4 words) */
    b.w[b.n - 6] = float_id; /* float4's component */
    b.w[b.n - 2] = float_id; /* float3's */
    spvbc_module_destroy(parse_ok(ctx, b.w, b.n));
    mb_free(&b);
    return ctx;
}

/* After the wide module of `float_id`: the module of mod_types() with bound `bound`, then in a
 * function the `n` instructions of `ins` (the first the label, unless `no_fn`: then none but
 * them): the parse fails at the last with `rule`. */
typedef struct ins {
    uint32_t op, ops[9];
    size_t nops;
} ins;

static void fails_after_wide(uint32_t float_id, uint32_t bound, int no_fn, const ins *in, size_t n,
                             spvbc_result expect, const char *rule)
{
    spvbc_context ctx = ctx_after_wide(float_id);
    mb b = {0};
    size_t index = 0, at = 0;
    if (no_fn) {
        mb_header(&b, 0x00010000u, bound);
    } else {
        mod_types(&b, bound);
        MB(&b, SpvOpFunction, VOID, FN, 0, FNTY);
        index = 10;
    }
    for (size_t i = 0; i < n; ++i)
        at = mb_opn(&b, in[i].op, in[i].ops, in[i].nops);
    if (!no_fn) mb_fn_end(&b);
    parse_fails(ctx, b.w, b.n, NULL, expect, at, index + n - 1, rule);
    spvbc_context_destroy(ctx);
    mb_free(&b);
}

/* A label's id at the bound (undefined in the wide table), and an OpBitcast's result type at
 * the bound (a type in the wide table): the fast paths send both to the checks. */
static void test_ids_at_bound_reused(void **state)
{
    (void)state;
    const ins label[] = {{SpvOpLabel, {BOUND}, 1}};
    fails_after_wide(BOUND + 1, BOUND, 0, label, 1, SPVBC_ERROR_INVALID_ID, "R-ID-RANGE");
    const ins bitcast[] = {
        {SpvOpLabel, {LABEL}, 1}, {SpvOpUndef, {V4, X}, 2}, {SpvOpBitcast, {BOUND, R, X}, 3}};
    fails_after_wide(BOUND, BOUND, 0, bitcast, 3, SPVBC_ERROR_INVALID_ID, "R-TYPE-ORDER");
}

/* A module of bound 1 (no id can be defined) after the wide module: an OpUndef, an OpBitcast
 * and a label whose ids the wide table has as undefined and a type. */
static void test_bound_one_reused(void **state)
{
    (void)state;
    const ins undef[] = {{SpvOpUndef, {BOUND + 1, BOUND}, 2}};
    fails_after_wide(BOUND + 1, 1, 1, undef, 1, SPVBC_ERROR_INVALID_ID, "R-ID-RANGE");
    const ins bitcast[] = {{SpvOpBitcast, {BOUND + 1, BOUND, X}, 3}};
    fails_after_wide(BOUND + 1, 1, 1, bitcast, 1, SPVBC_ERROR_INVALID_ID, "R-ID-RANGE");
    const ins label[] = {{SpvOpLabel, {BOUND}, 1}};
    fails_after_wide(BOUND + 1, 1, 1, label, 1, SPVBC_ERROR_INVALID_ID, "R-ID-RANGE");
}

/* ---- ids above 0x20000 ----------------------------------------------------------------- */

/* The first words of OpLabel, OpUndef and a 4-word OpBitcast, read as ids. */
#define LABEL_W0 ((2u << 16) | SpvOpLabel)
#define UNDEF_W0 ((3u << 16) | SpvOpUndef)
#define BITCAST_W0 ((4u << 16) | SpvOpBitcast)
#define BIG_BOUND (BITCAST_W0 + 16u)
#define F4 "OpTypeVector 4 x OpTypeFloat 32"
#define F3 "OpTypeVector 3 x OpTypeFloat 32"

/* A module of bound BIG_BOUND whose ids include the first words of OpUndef (a float2) and
 * OpBitcast (a uint), and whose value X is a float4: each instruction's type comes from its
 * word 1.  %R = as_float3(X) and %R2 = as_float4(R) are findings about a float4 and a float3;
 * a value defined under the id of the label's first word is no redefinition. */
static void test_big_ids_fast_paths(void **state)
{
    (void)state;
    enum { R2 = BOUND, L2 = LABEL_W0 };
    mb b = {0};
    mod_types(&b, BIG_BOUND);
    MB(&b, SpvOpTypeVector, UNDEF_W0, FLOAT, 2);
    MB(&b, SpvOpTypeInt, BITCAST_W0, 32, 0);
    MB(&b, SpvOpFunction, VOID, FN, 0, FNTY);
    MB(&b, SpvOpLabel, LABEL);
    MB(&b, SpvOpUndef, V4, X);
    MB(&b, SpvOpUndef, V4, L2);
    MB(&b, SpvOpBitcast, V3, R, X);
    MB(&b, SpvOpBitcast, V4, R2, R);
    mb_fn_end(&b);
    spvbc_context ctx = new_ctx();
    spvbc_module m = parse_ok(ctx, b.w, b.n);
    validate_fails(m);
    const spvbc_diagnostic *d = finding_of(ctx, R);
    assert_string_equal(d->operand_type, F4);
    assert_string_equal(d->result_type, F3);
    d = finding_of(ctx, R2);
    assert_string_equal(d->operand_type, F3);
    assert_string_equal(d->result_type, F4);
    spvbc_module_destroy(m);
    spvbc_context_destroy(ctx);
    mb_free(&b);
}

/* A result type that is a value whose type has an id above 0x20000 (the fast paths' test of a
 * type entry must not take a value's entry for one): OpUndef and OpBitcast of result type V,
 * a value of a float2 of id 0x30000. */
static void test_value_as_result_type(void **state)
{
    (void)state;
    enum { T2 = 0x30000, V = BOUND };
    for (int bitcast = 0; bitcast < 2; ++bitcast) {
        mb b = {0};
        mod_types(&b, T2 + 1);
        MB(&b, SpvOpTypeVector, T2, FLOAT, 2);
        MB(&b, SpvOpFunction, VOID, FN, 0, FNTY);
        MB(&b, SpvOpLabel, LABEL);
        MB(&b, SpvOpUndef, T2, V);
        MB(&b, SpvOpUndef, V4, X);
        const size_t at = bitcast ? MB(&b, SpvOpBitcast, V, R, X) : MB(&b, SpvOpUndef, V, R);
        mb_fn_end(&b);
        spvbc_context ctx = new_ctx();
        parse_fails(ctx, b.w, b.n, NULL, SPVBC_ERROR_INVALID_ID, at, 14, "R-TYPE-ORDER");
        spvbc_context_destroy(ctx);
        mb_free(&b);
    }
}

/* ---- the source position in force ------------------------------------------------------ */

/* Ids of the modules of line_module(): LSRC is 6, as word 6 (Kernel's number in the first
 * OpCapability) reads, so that a position taken from the header's word 1 (read as a DebugLine
 * whose DebugSource is its word 5) would name its file. */
enum { LFN = 1, LVOID, LFNTY, LFLOAT, LV4, LSRC, LV3, LLABEL, LX, LR };
enum { LFILE = LR + 1, LSET, LU32, LC7, LDSRC_FILE, LDLINE, LDNOSCOPE, LDNOLINE, LBOUND };

/* A Kernel module with an OpString "k.cl", DebugSource %6 "d.cl" and the constant 7, whose
 * function is OpFunction, the `n` instructions `body`, then %LX, %LR = as_float3(%LX), the
 * return and the end. */
static void line_module(mb *b, const ins *body, size_t n)
{
    b->n = 0;
    mb_kernel_head(b, 0x00010000u, LBOUND, LFN);
    uint32_t ops[16]; /* the id, then the import name (9 words) */
    size_t k = 0;
    ops[0] = LSET;
    k = 1;
    mb_str_words(ops, &k, "NonSemantic.Shader.DebugInfo.100");
    mb_opn(b, SpvOpExtInstImport, ops, k);
    mb_string(b, LFILE, "k.cl");
    mb_string(b, LDSRC_FILE, "d.cl");
    mb_void_fn_type(b, LVOID, LFNTY);
    MB(b, SpvOpTypeInt, LU32, 32, 0);
    MB(b, SpvOpConstant, LU32, LC7, 7);
    MB(b, SpvOpTypeFloat, LFLOAT, 32);
    MB(b, SpvOpTypeVector, LV4, LFLOAT, 4);
    MB(b, SpvOpTypeVector, LV3, LFLOAT, 3);
    MB(b, SpvOpExtInst, LVOID, LSRC, LSET, 35, LDSRC_FILE); /* DebugSource */
    MB(b, SpvOpFunction, LVOID, LFN, 0, LFNTY);
    for (size_t i = 0; i < n; ++i)
        mb_opn(b, body[i].op, body[i].ops, body[i].nops);
    MB(b, SpvOpUndef, LV4, LX);
    MB(b, SpvOpBitcast, LV3, LR, LX);
    mb_fn_end(b);
}

/* The finding of %LR in the module of line_module() with `body`. */
static void check_position(const ins *body, size_t n, const char *file, uint32_t line)
{
    mb b = {0};
    line_module(&b, body, n);
    spvbc_context ctx = new_ctx();
    spvbc_module m = parse_ok(ctx, b.w, b.n);
    validate_fails(m);
    const spvbc_diagnostic *d = finding_of(ctx, LR);
    if (!file) {
        if (d->source_file) fail_msg("a position %s:%u", d->source_file, d->source_line);
    } else {
        if (!d->source_file) fail_msg("no position, expected %s:%u", file, line);
        assert_string_equal(d->source_file, file);
    }
    assert_int_equal(d->source_line, line);
    spvbc_module_destroy(m);
    spvbc_context_destroy(ctx);
    mb_free(&b);
}

/* What ends a position and what does not: OpNoLine and a label end an OpLine; DebugNoScope
 * (an instruction of the set that is neither DebugLine nor DebugNoLine) does not end a
 * DebugLine, DebugNoLine does. */
static void test_position_ends(void **state)
{
    (void)state;
    const ins line[] = {{SpvOpLabel, {LLABEL}, 1}, {SpvOpLine, {LFILE, 7, 3}, 3}};
    check_position(line, 2, "k.cl", 7);
    const ins noline[] = {
        {SpvOpLabel, {LLABEL}, 1}, {SpvOpLine, {LFILE, 7, 3}, 3}, {SpvOpNoLine, {0}, 0}};
    check_position(noline, 3, NULL, 0);
    const ins label[] = {{SpvOpLine, {LFILE, 7, 3}, 3}, {SpvOpLabel, {LLABEL}, 1}};
    check_position(label, 2, NULL, 0);
    /* DebugLine %6 7 7 7 7 (lines and columns the constant 7), DebugNoScope, DebugNoLine */
    const ins dline = {SpvOpExtInst, {LVOID, LDLINE, LSET, 103, LSRC, LC7, LC7, LC7, LC7}, 9};
    const ins dnoscope = {SpvOpExtInst, {LVOID, LDNOSCOPE, LSET, 24}, 4};
    const ins dnoline = {SpvOpExtInst, {LVOID, LDNOLINE, LSET, 104}, 4};
    const ins debug[] = {{SpvOpLabel, {LLABEL}, 1}, dline, dnoscope};
    check_position(debug, 3, "d.cl", 7);
    const ins debug_end[] = {{SpvOpLabel, {LLABEL}, 1}, dline, dnoscope, dnoline};
    check_position(debug_end, 4, NULL, 0);
}

/* The walk finishes an instruction in a fast path only once its opcode's flags are cached:
 * the first instruction of each opcode in the process goes the general way.  A module with one
 * of each opcode the tests here use, parsed first, lets every case reach the fast paths. */
static void warm_opcodes(void)
{
    const ins body[] = {{SpvOpLabel, {LLABEL}, 1},
                        {SpvOpLine, {LFILE, 7, 3}, 3},
                        {SpvOpNoLine, {0}, 0},
                        {SpvOpExtInst, {LVOID, LDNOLINE, LSET, 104}, 4}};
    mb b = {0};
    line_module(&b, body, 4);
    spvbc_context ctx = new_ctx();
    spvbc_module m = NULL;
    if (spvbc_module_parse(ctx, b.w, b.n, NULL, &m) != SPVBC_SUCCESS) abort();
    spvbc_module_destroy(m);
    spvbc_context_destroy(ctx);
    mb_free(&b);
}

int main(void)
{
    warm_opcodes();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_header_messages),
        cmocka_unit_test(test_bound_above_largest_cap),
        cmocka_unit_test(test_bytes_messages),
        cmocka_unit_test(test_bytes_refusals_cost),
        cmocka_unit_test(test_word_count_limit),
        cmocka_unit_test(test_copy_size_overflow),
        cmocka_unit_test(test_bytes_without_context),
        cmocka_unit_test(test_bytes_copy_out_of_memory),
        cmocka_unit_test(test_id_table_memory),
        cmocka_unit_test(test_parse_out_of_memory),
        cmocka_unit_test(test_word_count_zero_opcode),
        cmocka_unit_test(test_label_too_short),
        cmocka_unit_test(test_label_extra_word),
        cmocka_unit_test(test_undef_result_id_extremes),
        cmocka_unit_test(test_ids_at_bound_reused),
        cmocka_unit_test(test_bound_one_reused),
        cmocka_unit_test(test_big_ids_fast_paths),
        cmocka_unit_test(test_value_as_result_type),
        cmocka_unit_test(test_position_ends),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
