/* test_malformed_ids.c - the malformed-input catalogue (test_malformed.h): word counts, ids, and
 * the shapes of OpBitcast. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "test_malformed.h"
#include "unit_expect.h"

/* ---- word counts ----------------------------------------------------------------------- */

void test_word_count_zero(void **state)
{
    (void)state;
    /* Word count 0 at the first instruction, in the middle, and at the last. */
    const base_patch rows[] = {
        {AT(first), 0, SpvOpCapability, SPVBC_ERROR_INVALID_BINARY, 0, "R-WORD-COUNT"},
        {AT(bitcast), 0, SpvOpBitcast, SPVBC_ERROR_INVALID_BINARY, BASE_BITCAST_INDEX,
         "R-WORD-COUNT"},
        /* OpNop with word count 0 in place of OpFunctionEnd */
        {AT(end), 0, 0, SPVBC_ERROR_INVALID_BINARY, 14, "R-WORD-COUNT"},
    };
    expect_patches_fail(rows, sizeof rows / sizeof rows[0]);
}

void test_instruction_past_end(void **state)
{
    (void)state;
    mb b = {0};
    base_at at;
    base_module(&b, 0x00010000u, &at);
    const uint32_t rest = (uint32_t)(b.n - at.tv4);
    mb_free(&b);
    const base_patch rows[] = {
        /* The last instruction claims 2 words where 1 is left. */
        {AT(end), 0, (2u << 16) | SpvOpFunctionEnd, SPVBC_ERROR_INVALID_BINARY, 14,
         "R-TRUNCATED"},
        /* An instruction in the middle claims the whole rest and one more word. */
        {AT(tv4), 0, ((rest + 1) << 16) | SpvOpTypeVector, SPVBC_ERROR_INVALID_BINARY, 7,
         "R-TRUNCATED"},
        /* The largest word count. */
        {AT(bitcast), 0, 0xFFFF0000u | SpvOpBitcast, SPVBC_ERROR_INVALID_BINARY,
         BASE_BITCAST_INDEX, "R-TRUNCATED"},
    };
    expect_patches_fail(rows, sizeof rows / sizeof rows[0]);
}

/* ---- ids ------------------------------------------------------------------------------- */

void test_id_zero(void **state)
{
    (void)state;
    const base_patch rows[] = {
        /* A result id 0. */
        {AT(tfloat), 1, 0, SPVBC_ERROR_INVALID_ID, 6, "R-ID-ZERO"},
        /* A label's id 0 (the reader's fast path for labels must send it on). */
        {AT(label), 1, 0, SPVBC_ERROR_INVALID_ID, 10, "R-ID-ZERO"},
        /* A result id 0 on the bitcast. */
        {AT(bitcast), 2, 0, SPVBC_ERROR_INVALID_ID, BASE_BITCAST_INDEX, "R-ID-ZERO"},
        /* A result type id 0. */
        {AT(bitcast), 1, 0, SPVBC_ERROR_INVALID_ID, BASE_BITCAST_INDEX, NULL},
        /* A type operand 0 (the vector's component type). */
        {AT(tv4), 2, 0, SPVBC_ERROR_INVALID_ID, 7, NULL},
    };
    expect_patches_fail(rows, sizeof rows / sizeof rows[0]);
}

void test_id_at_or_above_bound(void **state)
{
    (void)state;
    const uint32_t ids[] = {BASE_BOUND, BASE_BOUND + 1, 0x7FFFFFFFu, 0xFFFFFFFFu};
    for (size_t i = 0; i < sizeof ids / sizeof ids[0]; ++i) {
        const base_patch rows[] = {
            /* result id */
            {AT(bitcast), 2, ids[i], SPVBC_ERROR_INVALID_ID, BASE_BITCAST_INDEX, "R-ID-RANGE"},
            /* a label's id */
            {AT(label), 1, ids[i], SPVBC_ERROR_INVALID_ID, 10, "R-ID-RANGE"},
            /* result type id */
            {AT(bitcast), 1, ids[i], SPVBC_ERROR_INVALID_ID, BASE_BITCAST_INDEX, NULL},
            /* type operand */
            {AT(tv3), 2, ids[i], SPVBC_ERROR_INVALID_ID, 8, NULL},
        };
        expect_patches_fail(rows, sizeof rows / sizeof rows[0]);
    }
    /* A bound one too small for the largest id. */
    mb b = {0};
    base_at at;
    base_module(&b, 0x00010000u, &at);
    b.w[3] = BASE_BOUND - 1;
    expect_parse_fail(&b, SPVBC_ERROR_INVALID_ID, at.bitcast, BASE_BITCAST_INDEX, "R-ID-RANGE");
    mb_free(&b);
}

/* A result id, or a result type, at or just above the bound, in a context that parsed a module
 * with a larger bound before (as a driver or a layer parses module after module in one context):
 * the id table is then that module's, reused, and its entries past this module's bound (an id
 * it never defined, the id of its float) must not be read as this module's.  The instruction is
 * an OpUndef, which the walk's fast path for a result type and a result id finishes, or the
 * OpBitcast, whose result type the general path checks (with the wider module's float at the
 * bound itself: a second witness of unit.reader_walk's). */
void test_id_at_bound_in_reused_table(void **state)
{
    (void)state;
    const struct {
        int bitcast; /* the OpBitcast patched, else the OpUndef */
        size_t word;
        uint32_t value, wide_float;
        const char *rule;
    } rows[] = {
        /* result id: undefined in the wider module */
        {0, 2, BASE_BOUND, BASE_BOUND + 1, "R-ID-RANGE"},
        /* result type: the wider module's float */
        {0, 1, BASE_BOUND + 1, BASE_BOUND + 1, "R-TYPE-ORDER"},
        {1, 1, BASE_BOUND, BASE_BOUND, "R-TYPE-ORDER"},
    };
    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; ++i) {
        spvbc_context ctx;
        assert_int_equal(spvbc_context_create(NULL, &ctx), SPVBC_SUCCESS);
        /* the wider module: the base module with bound BASE_BOUND + 2, its float at id
         * wide_float (BASE_BOUND or BASE_BOUND + 1) */
        mb wide = {0};
        base_at at;
        base_module(&wide, 0x00010000u, &at);
        wide.w[3] = BASE_BOUND + 2;
        wide.w[at.tfloat + 1] = rows[i].wide_float;
        wide.w[at.tv4 + 2] = rows[i].wide_float;
        wide.w[at.tv3 + 2] = rows[i].wide_float;
        spvbc_module_destroy(parse_ok(ctx, wide.w, wide.n, NULL));
        mb_free(&wide);

        mb b = {0};
        base_module(&b, 0x00010000u, &at);
        const size_t off = rows[i].bitcast ? at.bitcast : at.undef;
        b.w[off + rows[i].word] = rows[i].value;
        spvbc_module m = SENTINEL_MODULE;
        assert_int_equal(spvbc_module_parse(ctx, b.w, b.n, NULL, &m), SPVBC_ERROR_INVALID_ID);
        assert_ptr_equal(m, SENTINEL_MODULE);
        check_one_error(ctx, off, rows[i].bitcast ? BASE_BITCAST_INDEX : 11u, rows[i].rule);
        mb_free(&b);
        spvbc_context_destroy(ctx);
    }
}

void test_redefined_id(void **state)
{
    (void)state;
    const base_patch rows[] = {
        /* The bitcast redefines its own operand's id. */
        {AT(bitcast), 2, ID_X, SPVBC_ERROR_INVALID_ID, BASE_BITCAST_INDEX, "R-ID-REDEFINED"},
        /* A label under the function's id, and a value under the label's: the labels' fast
         * path checks the id and records it. */
        {AT(label), 1, ID_FN, SPVBC_ERROR_INVALID_ID, 10, "R-ID-REDEFINED"},
        {AT(undef), 2, ID_LABEL, SPVBC_ERROR_INVALID_ID, 11, "R-ID-REDEFINED"},
        /* The reader's fast path for an instruction with a result type and a result id (here
         * OpUndef) checks both as general() does: the result type a function or a label, the
         * result id an earlier one, the instruction too short for its result id. */
        {AT(undef), 1, ID_FN, SPVBC_ERROR_INVALID_ID, 11, "R-TYPE-ORDER"},
        {AT(undef), 1, ID_LABEL, SPVBC_ERROR_INVALID_ID, 11, "R-TYPE-ORDER"},
        {AT(undef), 2, ID_FNTY, SPVBC_ERROR_INVALID_ID, 11, "R-ID-REDEFINED"},
        {AT(undef), 0, (2u << 16) | SpvOpUndef, SPVBC_ERROR_INVALID_BINARY, 11, "R-OPERANDS"},
        /* A type declared twice under one id. */
        {AT(tv3), 1, ID_V4, SPVBC_ERROR_INVALID_ID, 8, "R-ID-REDEFINED"},
    };
    expect_patches_fail(rows, sizeof rows / sizeof rows[0]);
    /* A value id reused by a type. */
    const inst dup[] = {
        {SpvOpTypeFloat, {ID_FLOAT, 32}, 2},
        {SpvOpConstantNull, {ID_FLOAT, ID_X}, 2},
        {SpvOpTypeVector, {ID_X, ID_FLOAT, 4}, 3},
    };
    expect_insts_fail(dup, 3, 2, SPVBC_ERROR_INVALID_ID, "R-ID-REDEFINED");
}

/* ---- bitcast shapes -------------------------------------------------------------------- */

void test_bitcast_missing_operand(void **state)
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
void test_bitcast_operand_is_type(void **state)
{
    (void)state;
    mb b = {0};
    const base_at at = base_with_operand(&b, ID_V4);
    char msg[512];
    assert_int_equal(run_spirv_val(b.w, b.n, msg, sizeof msg), 0);
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

    expect_lower_refused(m);
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
void test_bitcast_operand_undefined(void **state)
{
    (void)state;
    mb b = {0};
    base_at at;
    const uint32_t ids[] = {0, BASE_BOUND, 0xFFFFFFFFu, 0 /* unset */};
    for (size_t i = 0; i < sizeof ids / sizeof ids[0]; ++i) {
        at = base_with_operand(&b, i == 3 ? BASE_BOUND + 2 : ids[i]);
        if (i == 3) b.w[3] = BASE_BOUND + 5; /* an id below the bound that nothing defines */
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
            expect_lower_refused(m);
        }
        spvbc_context_destroy(ctx);
    }
    mb_free(&b);
}
