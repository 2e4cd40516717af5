/* The source position the reader records for each bitcast site, read back through a finding's
 * source_file, source_line and source_column:
 *   - the NonSemantic.Shader.DebugInfo.100 import is recognised by its exact name only (not a
 *     longer, shorter or other name of room, nor a name whose terminating NUL lies past the
 *     instruction);
 *   - a DebugLine of that set sets the position, a DebugNoLine of it ends it (extra operands
 *     or not), a short DebugLine (9 words) and an instruction of another set leave it;
 *   - a short OpLine (3 words) names no position;
 *   - OpFunction ends a position in force before it, and a site outside a function has none;
 *   - a value of an unknown opcode's type leaves it, a label an unknown opcode named ends it;
 *   - a 4-word instruction of the set (no instruction number) at the module's end is neither,
 *     and nothing past it is read.
 * Id 6 of each module is a DebugSource of file "a.cl" and word 6 (OpCapability Kernel's
 * operand) is 6: a position wrongly taken from word 1 of the module would name that file.
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
#include "rules.h" /* the opcode facts: is OP_UNKNOWN unknown? */
#include "spirv_bitcast.h"
#include "diag_check.h"

#define DEBUGINFO "NonSemantic.Shader.DebugInfo.100"

/* Ids: %6 is the DebugSource, %16 the function's bitcast (float4 -> float3, an error), %20 a
 * bitcast of the same pair in OpSpecConstantOp outside the function. */
enum {
    FN = 1,
    VOID,
    FNTY,
    FLOAT,
    V4,
    SRC,
    V3,
    UINT,
    C7,
    C3,
    FILE_STR,
    DI,
    LABEL,
    X,
    POS,
    R,
    OCL,
    OTHER,
    NUL4,
    SPEC,
    FT,
    Y,
    BOUND
};

/* What comes between the operand's OpUndef and the bitcast, or around them. */
typedef enum layout {
    DEBUG_LINE, /* DebugLine a.cl 7:3 */
    DEBUG_LINE_THEN_OTHER_SET, /* DebugLine, then OpenCL.std instruction 104 */
    DEBUG_LINE_THEN_SHORT, /* DebugLine, then a 9-word DebugLine of line 3 */
    DEBUG_LINE_THEN_LONG_NOLINE, /* DebugLine, then a DebugNoLine with 5 more operands */
    SHORT_OPLINE, /* OpLine a.cl 5 without a column */
    OPLINE_BEFORE_FUNCTION, /* OpLine a.cl 9:1 in the preamble, the bitcast before the label */
    DEBUG_LINE_THEN_FOREIGN_TYPED, /* DebugLine, then an OpUndef of an unknown opcode's result */
    FOREIGN_LABEL /* the label's id first named by an unknown opcode; no position */
} layout;

/* An opcode no SPIR-V grammar has: its instructions are never an error of the reader's. */
enum { OP_UNKNOWN = 65000 };

/* %`id` = DebugLine (or, for `inst` 104, DebugNoLine) of set %DI with the `n` operands `ops`. */
static void debug_ext(mb *b, uint32_t id, uint32_t inst, const uint32_t *ops, size_t n)
{
    uint32_t w[9] = {VOID, id, DI, inst};
    memcpy(w + 4, ops, n * sizeof *w);
    mb_opn(b, SpvOpExtInst, w, 4 + n);
}

/* A Kernel module whose OpExtInstImport %DI has the words of `name` (NULL: no name; "" with
 * `unterminated`: DEBUGINFO's 32 bytes without their NUL, followed by an instruction whose first
 * byte is 0), laid out as `how`. */
static void build(mb *b, const char *name, int unterminated, layout how)
{
    static const uint32_t line7[] = {SRC, C7, C7, C3, C3};
    b->n = 0;
    mb_header(b, 0x00010000u, BOUND);
    MB(b, SpvOpCapability, SpvCapabilityKernel); /* words 5 and 6: 6 is SRC */
    MB(b, SpvOpCapability, SpvCapabilityAddresses);
    if (unterminated) {
        uint32_t w[9] = {DI};
        memcpy(w + 1, DEBUGINFO, 32);
        mb_opn(b, SpvOpExtInstImport, w, 9);
        MB(b, SpvOpLifetimeStart, X, 0); /* opcode 256: its first byte is 0 */
    } else {
        mb_inst(b, SpvOpExtInstImport, (const uint32_t[]){DI}, 1, name, NULL, 0);
    }
    mb_inst(b, SpvOpExtInstImport, (const uint32_t[]){OCL}, 1, "OpenCL.std", NULL, 0);
    MB(b, SpvOpMemoryModel, SpvAddressingModelPhysical64, SpvMemoryModelOpenCL);
    mb_entry(b, SpvExecutionModelKernel, FN, "k");
    mb_string(b, FILE_STR, "a.cl");
    mb_void_fn_type(b, VOID, FNTY);
    MB(b, SpvOpTypeFloat, FLOAT, 32);
    MB(b, SpvOpTypeVector, V4, FLOAT, 4);
    MB(b, SpvOpTypeVector, V3, FLOAT, 3);
    MB(b, SpvOpTypeInt, UINT, 32, 0);
    MB(b, SpvOpConstant, UINT, C7, 7);
    MB(b, SpvOpConstant, UINT, C3, 3);
    MB(b, SpvOpExtInst, VOID, SRC, DI, 35, FILE_STR); /* DebugSource */
    MB(b, SpvOpConstantNull, V4, NUL4);
    MB(b, SpvOpSpecConstantOp, V3, SPEC, SpvOpBitcast, NUL4);
    if (how == DEBUG_LINE_THEN_FOREIGN_TYPED) MB(b, OP_UNKNOWN, FT);
    if (how == FOREIGN_LABEL) MB(b, OP_UNKNOWN, LABEL);
    if (how == OPLINE_BEFORE_FUNCTION) {
        MB(b, SpvOpLine, FILE_STR, 9, 1);
        MB(b, SpvOpFunction, VOID, FN, 0, FNTY);
        MB(b, SpvOpUndef, V4, X);
        MB(b, SpvOpBitcast, V3, R, X);
        MB(b, SpvOpLabel, LABEL);
        mb_fn_end(b);
        return;
    }
    mb_fn_begin(b, VOID, FN, FNTY, LABEL);
    MB(b, SpvOpUndef, V4, X);
    if (how == SHORT_OPLINE)
        MB(b, SpvOpLine, FILE_STR, 5);
    else if (how != FOREIGN_LABEL)
        debug_ext(b, POS, 103, line7, 5);
    if (how == DEBUG_LINE_THEN_FOREIGN_TYPED) MB(b, SpvOpUndef, FT, Y);
    if (how == DEBUG_LINE_THEN_OTHER_SET) MB(b, SpvOpExtInst, VOID, OTHER, OCL, 104, X);
    if (how == DEBUG_LINE_THEN_SHORT)
        debug_ext(b, OTHER, 103, (const uint32_t[]){SRC, C3, C3, C7}, 4);
    if (how == DEBUG_LINE_THEN_LONG_NOLINE) debug_ext(b, OTHER, 104, line7, 5);
    MB(b, SpvOpBitcast, V3, R, X);
    mb_fn_end(b);
}

/* Validates `b` and checks the position of the bitcast's finding (`file` NULL: none) and that
 * the OpSpecConstantOp's finding has none. */
static void expect_position(const mb *b, const char *file, uint32_t line, uint32_t column)
{
    spvbc_context ctx;
    spvbc_validate_summary vs;
    validate_words(b->w, b->n, 0, SPVBC_ERROR_VALIDATION_FAILED, &ctx, &vs);
    assert_int_equal(vs.bitcasts_checked, 2);
    const spvbc_diagnostic *d = diag_of(ctx, R, "V12", SPVBC_SEVERITY_ERROR);
    if (file) {
        assert_non_null(d->source_file);
        assert_string_equal(d->source_file, file);
    } else if (d->source_file) {
        fail_msg("%%%u: unexpected source file %s (line %u)", R, d->source_file, d->source_line);
    }
    assert_int_equal(d->source_line, line);
    assert_int_equal(d->source_column, column);
    d = diag_of(ctx, SPEC, "V12", SPVBC_SEVERITY_ERROR);
    assert_null(d->source_file);
    assert_int_equal(d->source_line, 0);
    spvbc_context_destroy(ctx);
}

/* The import's exact name makes DebugLine a position; any other name of room does not. */
static void test_debuginfo_import_name(void **state)
{
    (void)state;
    mb b = {NULL, 0, 0};
    build(&b, DEBUGINFO, 0, DEBUG_LINE);
    expect_position(&b, "a.cl", 7, 3);
    static const char *const others[] = {
        "NonSemantic.Shader.DebugInfo.101", /* the last character */
        "MonSemantic.Shader.DebugInfo.100", /* the first */
        DEBUGINFO "0", /* a longer name with DEBUGINFO as its prefix */
        "NonSemantic.Shader.DebugInfo.10", /* a shorter one, its prefix */
        "OpenCL.DebugInfo.100",
    };
    for (size_t i = 0; i < sizeof others / sizeof *others; ++i) {
        build(&b, others[i], 0, DEBUG_LINE);
        expect_position(&b, NULL, 0, 0);
    }
    build(&b, NULL, 0, DEBUG_LINE); /* an import without a name */
    expect_position(&b, NULL, 0, 0);
    build(&b, "", 1, DEBUG_LINE); /* the name's NUL would be the next instruction's first byte */
    expect_position(&b, NULL, 0, 0);
    mb_free(&b);
}

/* Which instructions after a DebugLine end or replace its position, and which leave it. */
static void test_debug_line_ends(void **state)
{
    (void)state;
    mb b = {NULL, 0, 0};
    build(&b, DEBUGINFO, 0, DEBUG_LINE_THEN_OTHER_SET);
    expect_position(&b, "a.cl", 7, 3);
    build(&b, DEBUGINFO, 0, DEBUG_LINE_THEN_SHORT); /* 9 words: not a DebugLine */
    expect_position(&b, "a.cl", 7, 3);
    build(&b, DEBUGINFO, 0, DEBUG_LINE_THEN_LONG_NOLINE);
    expect_position(&b, NULL, 0, 0);
    mb_free(&b);
}

/* An instruction of a value of an unknown opcode's type leaves the position (though the reader's
 * general path takes it); a label whose id an unknown opcode named first ends it (as any label),
 * also when the general path takes it. */
static void test_unknown_opcode_ids(void **state)
{
    (void)state;
    if (!(spvbc__opcode_flags(OP_UNKNOWN) & SPVBC__OPF_FOREIGN))
        fail_msg("opcode %u is known to this build: pick another", (unsigned)OP_UNKNOWN);
    mb b = {NULL, 0, 0};
    build(&b, DEBUGINFO, 0, DEBUG_LINE_THEN_FOREIGN_TYPED);
    expect_position(&b, "a.cl", 7, 3);
    build(&b, DEBUGINFO, 0, FOREIGN_LABEL);
    expect_position(&b, NULL, 0, 0);
    mb_free(&b);
}

/* A 3-word OpLine names no position; OpFunction ends the preamble's. */
static void test_opline_short_and_function_start(void **state)
{
    (void)state;
    mb b = {NULL, 0, 0};
    build(&b, DEBUGINFO, 0, SHORT_OPLINE);
    expect_position(&b, NULL, 0, 0);
    build(&b, DEBUGINFO, 0, OPLINE_BEFORE_FUNCTION);
    expect_position(&b, NULL, 0, 0);
    mb_free(&b);
}

/* A 4-word OpExtInst of the DebugInfo set (no instruction number) as the module's last
 * instruction: neither a DebugLine nor a DebugNoLine, and nothing past it is read (the words
 * are in a block of exactly their size, which the sanitizer build watches). */
static void test_debuginfo_short_last(void **state)
{
    (void)state;
    mb b = {NULL, 0, 0};
    build(&b, DEBUGINFO, 0, DEBUG_LINE);
    MB(&b, SpvOpExtInst, VOID, Y, DI);
    mb exact = {(uint32_t *)malloc(b.n * sizeof *b.w), b.n, b.n};
    assert_non_null(exact.w);
    memcpy(exact.w, b.w, b.n * sizeof *b.w);
    expect_position(&exact, "a.cl", 7, 3);
    free(exact.w);
    mb_free(&b);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_debuginfo_import_name),
        cmocka_unit_test(test_debug_line_ends),
        cmocka_unit_test(test_opline_short_and_function_start),
        cmocka_unit_test(test_debuginfo_short_last),
        cmocka_unit_test(test_unknown_opcode_ids),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
