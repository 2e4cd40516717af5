/* test_malformed_types.c - the malformed-input catalogue (test_malformed.h): types, pointer
 * loops, OpSpecConstantOp, and lowering over the id cap the module was parsed with. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "test_malformed.h"

/* ---- types ----------------------------------------------------------------------------- */

void test_type_used_before_declared(void **state)
{
    (void)state;
    /* A vector of a float declared after it. */
    const inst vec[] = {{SpvOpTypeVector, {ID_V4, ID_FLOAT, 4}, 3},
                        {SpvOpTypeFloat, {ID_FLOAT, 32}, 2}};
    expect_insts_fail(vec, 2, 0, SPVBC_ERROR_INVALID_ID, "R-TYPE-ORDER");
    /* A bitcast result type that is a value, not a type. */
    const base_patch value = {AT(bitcast),   1, ID_X, SPVBC_ERROR_INVALID_ID, BASE_BITCAST_INDEX,
                              "R-TYPE-ORDER"};
    expect_patches_fail(&value, 1);
    /* A result type that is the id of an instruction with a result and no result type that
     * declares no type (OpLabel, OpExtInstImport, OpString, OpDecorationGroup): such an id has
     * no type and is none. */
    const base_patch label = {
        AT(bitcast), 1, ID_LABEL, SPVBC_ERROR_INVALID_ID, BASE_BITCAST_INDEX, "R-TYPE-ORDER"};
    expect_patches_fail(&label, 1);
    const uint32_t a = 0x61; /* the string "a" */
    const inst untyped[][2] = {
        {{SpvOpExtInstImport, {ID_X, a}, 2}, {SpvOpTypeVector, {ID_V4, ID_X, 4}, 3}},
        {{SpvOpString, {ID_X, a}, 2}, {SpvOpTypePointer, {ID_V4, 5 /* CrossWorkgroup */, ID_X}, 3}},
        {{SpvOpDecorationGroup, {ID_X}, 1}, {SpvOpUndef, {ID_X, ID_R}, 2}},
    };
    for (size_t i = 0; i < sizeof untyped / sizeof *untyped; ++i)
        expect_insts_fail(untyped[i], 2, 1, SPVBC_ERROR_INVALID_ID, "R-TYPE-ORDER");
    /* A pointer to a type declared after it. */
    const inst ptr[] = {{SpvOpTypePointer, {ID_V3, SpvStorageClassCrossWorkgroup, ID_FLOAT}, 3},
                        {SpvOpTypeFloat, {ID_FLOAT, 32}, 2}};
    expect_insts_fail(ptr, 2, 0, SPVBC_ERROR_INVALID_ID, "R-TYPE-ORDER");
    /* A struct member declared after it. */
    const inst member[] = {{SpvOpTypeFloat, {ID_FLOAT, 32}, 2},
                           {SpvOpTypeStruct, {ID_V3, ID_FLOAT, ID_V4}, 3},
                           {SpvOpTypeVector, {ID_V4, ID_FLOAT, 4}, 3}};
    expect_insts_fail(member, 3, 1, SPVBC_ERROR_INVALID_ID, "R-TYPE-ORDER");
    /* OpUndef of a type declared later (in the function: the type section is over). */
    mb b = {0};
    base_at at;
    base_module(&b, 0x00010000u, &at);
    b.w[3] = BASE_BOUND + 1;
    b.w[at.undef + 1] = BASE_BOUND; /* never declared at all */
    expect_parse_fail(&b, SPVBC_ERROR_INVALID_ID, at.undef, 11, "R-TYPE-ORDER");
    mb_free(&b);
}

void test_vector_of_non_scalar(void **state)
{
    (void)state;
    /* Vector of a vector, of a pointer, of a struct, of void. */
    const uint32_t comps[] = {ID_V4, ID_LABEL, ID_R, ID_VOID};
    for (size_t i = 0; i < sizeof comps / sizeof comps[0]; ++i) {
        const inst types[] = {
            {SpvOpTypeVoid, {ID_VOID}, 1},
            {SpvOpTypeFloat, {ID_FLOAT, 32}, 2},
            {SpvOpTypeVector, {ID_V4, ID_FLOAT, 4}, 3},
            {SpvOpTypePointer, {ID_LABEL, SpvStorageClassCrossWorkgroup, ID_FLOAT}, 3},
            {SpvOpTypeStruct, {ID_R, ID_FLOAT}, 2},
            {SpvOpTypeVector, {ID_V3, comps[i], 2}, 3},
        };
        expect_insts_fail(types, 6, 5, SPVBC_ERROR_INVALID_BINARY, "R-TYPE-SHAPE");
    }
}

void test_vector_component_counts(void **state)
{
    (void)state;
    const uint32_t bad[] = {0, 1, 5, 6, 7, 9, 15, 17, 32, 0xFFFFFFFFu};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; ++i) {
        const base_patch count = {AT(tv3),       3, bad[i], SPVBC_ERROR_INVALID_BINARY, 8,
                                  "R-TYPE-SHAPE"};
        expect_patches_fail(&count, 1);
    }
    /* 2, 3, 4, 8, 16 parse. */
    mb b = {0};
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

void test_scalar_width_zero(void **state)
{
    (void)state;
    const inst zero[] = {
        {SpvOpTypeInt, {ID_FLOAT, 0, 0}, 3},
        {SpvOpTypeInt, {ID_FLOAT, 0, 1}, 3},
        {SpvOpTypeFloat, {ID_FLOAT, 0}, 2},
    };
    for (size_t i = 0; i < sizeof zero / sizeof zero[0]; ++i)
        expect_insts_fail(&zero[i], 1, 0, SPVBC_ERROR_INVALID_BINARY, "R-TYPE-SHAPE");
    /* Missing width operands. */
    const inst missing[] = {{SpvOpTypeInt, {ID_FLOAT, 32}, 2}, {SpvOpTypeFloat, {ID_FLOAT}, 1}};
    for (size_t i = 0; i < sizeof missing / sizeof missing[0]; ++i)
        expect_insts_fail(&missing[i], 1, 0, SPVBC_ERROR_INVALID_BINARY, "R-OPERANDS");
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
            spvbc_lower_options lo = {sizeof(spvbc_lower_options), (spvbc_pad_policy)pad, 0,
                                      SPVBC_GENERATION_NEWEST};
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
void test_pointer_loop_valid(void **state)
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
    if (run_spirv_val(b.w, b.n, msg, sizeof msg) != 1) fail_msg("fixture invalid: %s", msg);

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
void test_pointer_loops_no_hang(void **state)
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

void test_spec_constant_op_no_opcode(void **state)
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
void test_lower_over_cap(void **state)
{
    (void)state;
    mb b = {0};
    base_at at;
    base_module(&b, 0x00010000u, &at);
    spvbc_context ctx;
    assert_int_equal(spvbc_context_create(NULL, &ctx), SPVBC_SUCCESS);
    spvbc_parse_options o = SPVBC_PARSE_OPTIONS_INIT;
    o.max_id_bound = BASE_BOUND;
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
