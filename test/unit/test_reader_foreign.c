/* What the reader records for an instruction of an opcode it does not know (a newer extension's):
 * the id it guesses is the instruction's result (word 2 after a type, else word 1, when nothing
 * defined it yet), which a bitcast of it then reads as an unknown opcode's value (the note
 * N-UNKNOWN-OPCODE, no verdict), and whether word 1 past the bound names, in word 2, an id that
 * nothing defines, which makes no site lowerable (new ids could give it a meaning).  Each case
 * is one such instruction in the preamble of a module whose function has the bitcasts
 *   %R1 = float3 of %U (an id nothing else defines: R-UNDEF, unless the instruction names it)
 *   %R2 = float3 of %A (float4 OpUndef: V12, lowerable)
 * read back through validate's findings and its lowerable count.
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

enum { FN = 1, VOID, FNTY, FLOAT, V4, V3, LABEL, A, U, W, R1, R2, BOUND };

/* An opcode no SPIR-V grammar has. */
enum { OP_UNKNOWN = 65000 };
#define UNKNOWN(wc) ((uint32_t)(wc) << 16 | OP_UNKNOWN)

/* One case: the unknown instruction's words, the rules of %R1's and %R2's findings, and
 * validate's lowerable count. */
typedef struct foreign_case {
    uint32_t w[4];
    const char *r1, *r2;
    size_t lowerable;
} foreign_case;

#define NOTE "N-UNKNOWN-OPCODE"

/* The Kernel head of `bound` ids, void(), float, float4 and float3. */
static void head_with_float3(mb *b, uint32_t bound)
{
    mb_kernel_head(b, 0x00010000u, bound, FN);
    mb_void_fn_type(b, VOID, FNTY);
    MB(b, SpvOpTypeFloat, FLOAT, 32);
    MB(b, SpvOpTypeVector, V4, FLOAT, 4);
    MB(b, SpvOpTypeVector, V3, FLOAT, 3);
}

static void check_case(const foreign_case *c)
{
    mb b = {NULL, 0, 0};
    head_with_float3(&b, BOUND);
    MB(&b, SpvOpUndef, V4, A);
    for (uint32_t i = 0; i < c->w[0] >> 16; ++i)
        mb_word(&b, c->w[i]);
    mb_fn_begin(&b, VOID, FN, FNTY, LABEL);
    MB(&b, SpvOpBitcast, V3, R1, U);
    MB(&b, SpvOpBitcast, V3, R2, A);
    mb_fn_end(&b);
    spvbc_context ctx;
    spvbc_validate_summary vs;
    validate_words(b.w, b.n, 0, SPVBC_ERROR_VALIDATION_FAILED, &ctx, &vs);
    diag_of(ctx, R1, c->r1, strcmp(c->r1, NOTE) == 0 ? SPVBC_SEVERITY_NOTE : SPVBC_SEVERITY_ERROR);
    diag_of(ctx, R2, c->r2, strcmp(c->r2, NOTE) == 0 ? SPVBC_SEVERITY_NOTE : SPVBC_SEVERITY_ERROR);
    assert_int_equal(vs.lowerable, c->lowerable);
    spvbc_context_destroy(ctx);
    mb_free(&b);
}

static void test_unknown_opcode_guesses(void **state)
{
    (void)state;
    if (!(spvbc__opcode_flags(OP_UNKNOWN) & SPVBC__OPF_FOREIGN))
        fail_msg("opcode %u is known to this build: pick another", (unsigned)OP_UNKNOWN);
    static const foreign_case cases[] = {
        {{UNKNOWN(2), U}, NOTE, "V12", 1}, /* no type: word 1 */
        {{UNKNOWN(3), U, 0}, NOTE, "V12", 1}, /* word 2 of 0 is no id */
        {{UNKNOWN(3), V4, U}, NOTE, "V12", 1}, /* a type, then word 2 */
        {{UNKNOWN(4), V4, U, 0}, NOTE, "V12", 1}, /* word 3 of 0 changes nothing */
        {{UNKNOWN(3), U, W}, NOTE, "V12", 1}, /* no type: word 1, not word 2 */
        {{UNKNOWN(3), V3, A}, "R-UNDEF", "V12", 1}, /* word 2 defined: float3 stays a type */
        {{UNKNOWN(2), A}, "R-UNDEF", "V12", 1}, /* word 1 a defined value: it stays one */
        /* word 1 past the bound */
        {{UNKNOWN(2), BOUND + 5}, "R-UNDEF", "V12", 1}, /* no word 2 */
        {{UNKNOWN(3), BOUND + 5, A}, "R-UNDEF", "V12", 1}, /* word 2 defined */
        {{UNKNOWN(4), BOUND + 5, U, A}, "R-UNDEF", "V12", 0}, /* word 2 defined by nothing */
        /* word 2 at the bound, after a type: no id, nothing guessed */
        {{UNKNOWN(3), V4, BOUND}, "R-UNDEF", "V12", 1},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; ++i) {
        fprintf(stderr, "case %zu\n", i);
        check_case(&cases[i]);
    }
}

/* Id 0 is never a guess (words 1 or 2 of 0 name no id): a result type of %0 after such an
 * instruction is still R-TYPE-ORDER (an unknown opcode's result would be accepted). */
static void test_unknown_opcode_id_zero(void **state)
{
    (void)state;
    static const uint32_t cases[][3] = {{UNKNOWN(2), 0}, {UNKNOWN(3), V4, 0}};
    for (size_t i = 0; i < sizeof cases / sizeof *cases; ++i) {
        mb b = {NULL, 0, 0};
        mb_kernel_head(&b, 0x00010000u, BOUND, FN);
        MB(&b, SpvOpTypeFloat, FLOAT, 32);
        MB(&b, SpvOpTypeVector, V4, FLOAT, 4);
        for (uint32_t k = 0; k < cases[i][0] >> 16; ++k)
            mb_word(&b, cases[i][k]);
        const size_t at = MB(&b, SpvOpUndef, 0, A);
        expect_parse_error(b.w, b.n, SPVBC_ERROR_INVALID_ID, "R-TYPE-ORDER", at, NULL);
        mb_free(&b);
    }
}

/* An unknown instruction too short for the word the guess would read (one word, or two after a
 * type): nothing is guessed, whatever the next instruction's first word reads as an id.  Here
 * that word (OpFunction's: count 5, opcode 54) is the id of %R1's operand, which nothing
 * defines, under a bound above it: %R1 stays R-UNDEF. */
static void test_unknown_opcode_too_short(void **state)
{
    (void)state;
    enum { FIRST_WORD = 5u << 16 | SpvOpFunction, BIG_BOUND = FIRST_WORD + 1 };
    static const uint32_t cases[][2] = {{UNKNOWN(1)}, {UNKNOWN(2), V4}};
    for (size_t i = 0; i < sizeof cases / sizeof *cases; ++i) {
        mb b = {NULL, 0, 0};
        head_with_float3(&b, BIG_BOUND);
        for (uint32_t k = 0; k < cases[i][0] >> 16; ++k)
            mb_word(&b, cases[i][k]);
        mb_fn_begin(&b, VOID, FN, FNTY, LABEL); /* its first word follows the instruction */
        MB(&b, SpvOpBitcast, V3, R1, FIRST_WORD);
        mb_fn_end(&b);
        spvbc_context ctx;
        spvbc_validate_summary vs;
        validate_words(b.w, b.n, 0, SPVBC_ERROR_VALIDATION_FAILED, &ctx, &vs);
        diag_of(ctx, R1, "R-UNDEF", SPVBC_SEVERITY_ERROR);
        assert_int_equal(vs.notes, 0);
        spvbc_context_destroy(ctx);
        mb_free(&b);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_unknown_opcode_guesses),
        cmocka_unit_test(test_unknown_opcode_id_zero),
        cmocka_unit_test(test_unknown_opcode_too_short),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
