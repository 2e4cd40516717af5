/* Second witnesses (test_witness.c says why) of verdicts and outputs: id 1 as a type and as an
 * operand, R-LIMIT's position, pointer bitcasts in SPIR-V 1.5 without the extension and a
 * logical pointer's message (also with each allocation failing), operands of no numerical
 * type, a lowered module's words (the same on each request, and through spirv-val), the
 * source position ended by OpNoLine, and Physical32's pointer width.
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
#include "spvval.h"
#include "test_alloc.h"
#include "diag_check.h"
#include "test_witness.h"

void expect_spirv_val(const uint32_t *words, size_t n)
{
    char msg[512];
    if (spvval_check(words, n, msg, sizeof msg) != 1) fail_msg("spirv-val: %s", msg);
}

/* Id 1 is an id like any other: a float type of id 1 (the function is %2), a vector of it, and
 * then an operand of id 1 (an OpUndef, the function %2): each parses, and each bitcast
 * float -> uint is valid, no diagnostic. */
void test_id_one(void **state)
{
    (void)state;
    mb b = {NULL, 0, 0};
    mb_kernel_head(&b, 0x00010000u, 20, 2);
    MB(&b, SpvOpTypeFloat, 1, 32);
    MB(&b, SpvOpTypeInt, 4, 32, 0);
    MB(&b, SpvOpTypeVector, 11, 1, 4);
    mb_void_fn_type(&b, 5, 6);
    mb_fn_begin(&b, 5, 2, 6, 7);
    MB(&b, SpvOpUndef, 1, 8);
    MB(&b, SpvOpBitcast, 4, 9, 8);
    MB(&b, SpvOpBitcast, 1, 10, 9);
    mb_fn_end(&b);
    spvbc_context ctx;
    spvbc_validate_summary vs;
    validate_words(b.w, b.n, SPVBC_VALIDATE_NOTES, SPVBC_SUCCESS, &ctx, &vs);
    assert_int_equal(spvbc_context_diagnostic_count(ctx), 0);
    spvbc_context_destroy(ctx);

    mb_kernel_head(&b, 0x00010000u, 20, 2);
    MB(&b, SpvOpTypeFloat, 3, 32);
    MB(&b, SpvOpTypeInt, 4, 32, 0);
    mb_void_fn_type(&b, 5, 6);
    mb_fn_begin(&b, 5, 2, 6, 7);
    MB(&b, SpvOpUndef, 3, 1);
    MB(&b, SpvOpBitcast, 4, 9, 1);
    mb_fn_end(&b);
    validate_words(b.w, b.n, SPVBC_VALIDATE_NOTES, SPVBC_SUCCESS, &ctx, &vs);
    assert_int_equal(spvbc_context_diagnostic_count(ctx), 0);
    spvbc_context_destroy(ctx);
    mb_free(&b);
}

spvbc_module parse_fresh(const mb *b, const spvbc_parse_options *po, spvbc_context *ctx)
{
    assert_int_equal(spvbc_context_create(NULL, ctx), SPVBC_SUCCESS);
    spvbc_module mod = NULL;
    assert_int_equal(spvbc_module_parse(*ctx, b->w, b->n, po, &mod), SPVBC_SUCCESS);
    return mod;
}

/* as_int3(float4) in a module parsed with max_id_bound equal to its bound: the int4 type and the
 * intermediate value would need a larger bound, so nothing is lowered (UNSUPPORTED), with R-LIMIT
 * at word 3 (the bound's word), of no instruction. */
void test_lower_bound_limit(void **state)
{
    (void)state;
    mb b = {NULL, 0, 0};
    sm_cast_module(&b, 0, 0x00010000u, sm_desc(SPVBC_SCALAR_FLOAT, 32, 4),
                   sm_desc(SPVBC_SCALAR_INT, 32, 3), 1);
    spvbc_parse_options po = SPVBC_PARSE_OPTIONS_INIT;
    po.max_id_bound = b.w[3];
    spvbc_context ctx;
    spvbc_module mod = parse_fresh(&b, &po, &ctx);
    assert_int_equal(spvbc_module_lower(mod, NULL, NULL), SPVBC_ERROR_UNSUPPORTED);
    const spvbc_diagnostic *d = NULL;
    for (size_t i = 0; i < spvbc_context_diagnostic_count(ctx); ++i)
        if (strcmp(spvbc_context_diagnostic(ctx, i)->rule, "R-LIMIT") == 0)
            d = spvbc_context_diagnostic(ctx, i);
    assert_non_null(d);
    assert_int_equal(d->word_offset, 3);
    assert_int_equal(d->instruction_index, SPVBC_NO_POSITION);
    assert_int_equal(d->opcode, 0);
    spvbc_module_destroy(mod);
    spvbc_context_destroy(ctx);
    mb_free(&b);
}

enum {
    P15_FN = 1,
    P15_VOID,
    P15_FT,
    P15_UINT,
    P15_ULONG,
    P15_V2UINT,
    P15_PSB,
    P15_SB,
    P15_L,
    P15_X,
    P15_A,
    P15_Y,
    P15_B,
    P15_BOUND
};

/* Resets `b` to a Shader module of SPIR-V 1.5 (no extension) in PhysicalStorageBuffer64
 * addressing: %P15_A = a PhysicalStorageBuffer pointer to uint bitcast to a uint2, %P15_B = a
 * StorageBuffer pointer to ulong bitcast to a ulong. */
static void psb_1_5_module(mb *b)
{
    mb_header(b, 0x00010500u, P15_BOUND);
    MB(b, SpvOpCapability, SpvCapabilityShader);
    MB(b, SpvOpCapability, SpvCapabilityInt64);
    MB(b, SpvOpCapability, SpvCapabilityPhysicalStorageBufferAddresses);
    MB(b, SpvOpMemoryModel, SpvAddressingModelPhysicalStorageBuffer64, SpvMemoryModelGLSL450);
    mb_entry(b, SpvExecutionModelGLCompute, P15_FN, "main");
    MB(b, SpvOpExecutionMode, P15_FN, SpvExecutionModeLocalSize, 1, 1, 1);
    mb_void_fn_type(b, P15_VOID, P15_FT);
    MB(b, SpvOpTypeInt, P15_UINT, 32, 0);
    MB(b, SpvOpTypeInt, P15_ULONG, 64, 0);
    MB(b, SpvOpTypeVector, P15_V2UINT, P15_UINT, 2);
    MB(b, SpvOpTypePointer, P15_PSB, SpvStorageClassPhysicalStorageBuffer, P15_UINT);
    MB(b, SpvOpTypePointer, P15_SB, SpvStorageClassStorageBuffer, P15_ULONG);
    mb_fn_begin(b, P15_VOID, P15_FN, P15_FT, P15_L);
    MB(b, SpvOpUndef, P15_PSB, P15_X);
    MB(b, SpvOpBitcast, P15_V2UINT, P15_A, P15_X);
    MB(b, SpvOpUndef, P15_SB, P15_Y);
    MB(b, SpvOpBitcast, P15_ULONG, P15_B, P15_Y);
    mb_fn_end(b);
}

/* psb_1_5_module(): the PhysicalStorageBuffer pointer to a uint2 is valid from 1.5 on (an
 * integer vector of 32-bit components); the StorageBuffer pointer to a ulong is a bitcast of a
 * logical pointer, whose message names the pointer's pointee. */
void test_pointer_bitcasts_at_1_5(void **state)
{
    (void)state;
    mb b = {NULL, 0, 0};
    psb_1_5_module(&b);
    expect_one_error(b.w, b.n, P15_B, "W-LOGICAL-PTR",
                     "operand OpTypePointer StorageBuffer OpTypeInt 64 0", P15_A);
    mb_free(&b);
}

/* Validates `b` with `flags` and each allocation failing in turn (one at a time): a call that saw a
 * failure returns OUT_OF_MEMORY (a finding that cannot be recorded ends the call) and frees
 * everything; the first call that saw none returns `expect`, and `check` (may be NULL) is given its
 * context and summary, as is every call whose failure came after validation. */
static void validate_under_failures(const mb *b, uint32_t flags, spvbc_result expect,
                                    void (*check)(spvbc_context, const spvbc_validate_summary *))
{
    for (size_t k = 1;; ++k) {
        test_alloc a;
        memset(&a, 0, sizeof a);
        a.fail_at = k;
        const spvbc_allocator al = test_alloc_allocator(&a);
        spvbc_context ctx;
        if (spvbc_context_create(&al, &ctx) != SPVBC_SUCCESS) {
            assert_true(a.triggered);
            continue;
        }
        spvbc_module mod = NULL;
        spvbc_result r = spvbc_module_parse(ctx, b->w, b->n, NULL, &mod);
        if (r == SPVBC_SUCCESS) {
            spvbc_validate_summary vs = SPVBC_VALIDATE_SUMMARY_INIT;
            spvbc_validate_options vo = SPVBC_VALIDATE_OPTIONS_INIT;
            vo.flags = flags;
            r = spvbc_module_validate(mod, &vo, &vs);
            if (r == expect && check) check(ctx, &vs);
            spvbc_module_destroy(mod);
        }
        const int triggered = a.triggered;
        spvbc_context_destroy(ctx);
        assert_int_equal(a.bad_free, 0);
        assert_int_equal(a.live_blocks, 0);
        if (!triggered) {
            assert_int_equal(r, expect);
            break;
        }
        if (r != SPVBC_ERROR_OUT_OF_MEMORY)
            fail_msg("allocation %zu failed, yet the result is %s", k, spvbc_result_string(r));
    }
}

static void one_logical_pointer_error(spvbc_context ctx, const spvbc_validate_summary *vs)
{
    assert_int_equal(vs->errors, 1);
    diag_of(ctx, P15_B, "W-LOGICAL-PTR", SPVBC_SEVERITY_ERROR);
}

/* The module of test_pointer_bitcasts_at_1_5() validated with each allocation failing in turn:
 * OUT_OF_MEMORY whenever one failed, else its one W-LOGICAL-PTR error. */
void test_logical_pointer_allocation_failures(void **state)
{
    (void)state;
    mb b = {NULL, 0, 0};
    psb_1_5_module(&b);
    validate_under_failures(&b, 0, SPVBC_ERROR_VALIDATION_FAILED, one_logical_pointer_error);
    mb_free(&b);
}

static void one_warning(spvbc_context ctx, const spvbc_validate_summary *vs)
{
    (void)ctx;
    assert_int_equal(vs->warnings, 1);
}

static void one_note(spvbc_context ctx, const spvbc_validate_summary *vs, const char *rule)
{
    assert_int_equal(vs->notes, 1);
    assert_int_equal(spvbc_context_diagnostic_count(ctx), 1);
    assert_string_equal(spvbc_context_diagnostic(ctx, 0)->rule, rule);
}

static void one_impl_defined(spvbc_context ctx, const spvbc_validate_summary *vs)
{
    one_note(ctx, vs, "N-IMPL-DEFINED");
}

static void one_not_astype(spvbc_context ctx, const spvbc_validate_summary *vs)
{
    one_note(ctx, vs, "N-NOT-ASTYPE");
}

/* Findings of each kind validate records before the rules' verdicts, each the module's only
 * one (so that its record is the first, and its allocations the record list's), validated with
 * each allocation failing in turn (a second witness of unit.alloc_fail's
 * test_findings_of_each_kind): in a Kernel module S2 (a float4 cast to itself), S4 (a
 * CrossWorkgroup pointer cast to a Function one) or S3-WIDTH (a 64-bit pointer cast to a uint),
 * warnings; in a Shader module S7 (an OpSpecConstantOp Bitcast), an error; and the two notes.
 * A record that cannot be kept ends the call with OUT_OF_MEMORY. */
void test_early_findings_allocation_failures(void **state)
{
    (void)state;
    mb b = {NULL, 0, 0};
    sm s;
    for (int kind = 0; kind < 3; ++kind) {
        sm_init(&s, 0, 0x00010300u);
        const uint32_t f = sm_type(&s, SM_F32(1)), f4 = sm_type(&s, SM_F32(4));
        const uint32_t u = sm_type(&s, SM_I32(1));
        const uint32_t pf = sm_ptr(&s, SpvStorageClassCrossWorkgroup, f);
        const uint32_t pfn = sm_ptr(&s, SpvStorageClassFunction, f);
        sm_begin(&s);
        if (kind == 0)
            sm_bitcast(&s, f4, sm_undef(&s, f4));
        else
            sm_bitcast(&s, kind == 1 ? pfn : u, sm_undef(&s, pf));
        sm_finish(&s, &b);
        validate_under_failures(&b, 0, SPVBC_SUCCESS, one_warning);
    }
    sm_init(&s, 1, 0x00010300u);
    const uint32_t sf = sm_type(&s, SM_F32(1)), si = sm_type(&s, SM_I32(1));
    sm_spec_bitcast(&s, si, sm_spec_const(&s, sf, 0x3f800000u));
    sm_begin(&s);
    sm_finish(&s, &b);
    validate_under_failures(&b, 0, SPVBC_ERROR_VALIDATION_FAILED, NULL);

    /* The notes, with SPVBC_VALIDATE_NOTES: N-IMPL-DEFINED for as_short2(int); N-NOT-ASTYPE for
     * as_int(half2) in a Kernel module with Float16Buffer and without Float16. */
    sm_init(&s, 0, 0x00010300u);
    const uint32_t i = sm_type(&s, SM_I32(1)), s2 = sm_type(&s, sm_desc(SPVBC_SCALAR_INT, 16, 2));
    sm_begin(&s);
    sm_bitcast(&s, s2, sm_undef(&s, i));
    sm_finish(&s, &b);
    validate_under_failures(&b, SPVBC_VALIDATE_NOTES, SPVBC_SUCCESS, one_impl_defined);
    enum { FN = 1, VOID, FNTY, UINT, HALF, H2, LABEL, X, R, BOUND };
    mb_kernel_head_caps(&b, 0x00010300u, BOUND, FN, (const uint32_t[]){SpvCapabilityFloat16Buffer},
                        1);
    mb_void_fn_type(&b, VOID, FNTY);
    MB(&b, SpvOpTypeInt, UINT, 32, 0);
    MB(&b, SpvOpTypeFloat, HALF, 16);
    MB(&b, SpvOpTypeVector, H2, HALF, 2);
    mb_fn_begin(&b, VOID, FN, FNTY, LABEL);
    MB(&b, SpvOpUndef, H2, X);
    MB(&b, SpvOpBitcast, UINT, R, X);
    mb_fn_end(&b);
    validate_under_failures(&b, SPVBC_VALIDATE_NOTES, SPVBC_SUCCESS, one_not_astype);
    mb_free(&b);
}

/* An operand that has no type (an OpString's id) is V1; a bool operand in a module that
 * declares LongVectorEXT is still no numerical type (V3): only cooperative vectors count as
 * long vectors there. */
void test_operands_without_numerical_type(void **state)
{
    (void)state;
    mb b = {NULL, 0, 0};
    mb_kernel_head(&b, 0x00010000u, 20, 1);
    mb_string(&b, 6, "not a value");
    MB(&b, SpvOpTypeFloat, 4, 32);
    mb_void_fn_type(&b, 2, 3);
    mb_fn_begin(&b, 2, 1, 3, 5);
    MB(&b, SpvOpBitcast, 4, 7, 6);
    mb_fn_end(&b);
    spvbc_context ctx;
    spvbc_validate_summary vs;
    validate_words(b.w, b.n, 0, SPVBC_ERROR_VALIDATION_FAILED, &ctx, &vs);
    diag_of(ctx, 7, "V1", SPVBC_SEVERITY_ERROR);
    spvbc_context_destroy(ctx);

    const uint32_t caps[] = {CAP_LONG_VECTOR_EXT};
    const char *const ext[] = {"SPV_EXT_long_vector"};
    mb_shader_head(&b, 20, caps, 1, ext, 1);
    MB(&b, SpvOpTypeBool, 4);
    MB(&b, SpvOpTypeInt, 5, 32, 0);
    mb_fn_begin(&b, 2, 1, 3, 6);
    MB(&b, SpvOpUndef, 4, 7);
    MB(&b, SpvOpBitcast, 5, 8, 7);
    mb_fn_end(&b);
    validate_words(b.w, b.n, 0, SPVBC_ERROR_VALIDATION_FAILED, &ctx, &vs);
    diag_of(ctx, 8, "V3", SPVBC_SEVERITY_ERROR);
    spvbc_context_destroy(ctx);
    mb_free(&b);
}

/* A lowered module's words: materialised once, the same pointer on every request (owned by the
 * module), and accepted by spirv-val. */
void test_get_words_stable(void **state)
{
    (void)state;
    mb b = {NULL, 0, 0};
    sm_cast_module(&b, 0, 0x00010000u, sm_desc(SPVBC_SCALAR_FLOAT, 32, 4),
                   sm_desc(SPVBC_SCALAR_INT, 32, 3), 2);
    spvbc_context ctx;
    spvbc_module mod = parse_fresh(&b, NULL, &ctx);
    assert_int_equal(spvbc_module_lower(mod, NULL, NULL), SPVBC_SUCCESS);
    const uint32_t *w1 = NULL, *w2 = NULL;
    size_t n1 = 0, n2 = 0;
    assert_int_equal(spvbc_module_get_words(mod, &w1, &n1), SPVBC_SUCCESS);
    assert_ptr_not_equal(w1, b.w);
    assert_int_equal(spvbc_module_get_words(mod, &w2, &n2), SPVBC_SUCCESS);
    assert_ptr_equal(w1, w2);
    assert_int_equal(n1, n2);
    expect_spirv_val(w1, n1);
    spvbc_module_destroy(mod);
    spvbc_context_destroy(ctx);
    mb_free(&b);
}

/* The source position ends at OpNoLine: an invalid bitcast after OpLine "w.cl" 10 2 has it, the
 * next one, after OpNoLine, has none. */
void test_position_ends_at_noline(void **state)
{
    (void)state;
    sm s;
    sm_init(&s, 0, 0x00010000u);
    const uint32_t v4 = sm_type(&s, sm_desc(SPVBC_SCALAR_FLOAT, 32, 4));
    const uint32_t v3 = sm_type(&s, sm_desc(SPVBC_SCALAR_INT, 32, 3));
    const uint32_t file = sm_string(&s, "w.cl");
    sm_begin(&s);
    const uint32_t x = sm_undef(&s, v4);
    sm_line(&s, file, 10, 2);
    const uint32_t a = sm_bitcast(&s, v3, x);
    mb_op0(&s.body, SpvOpNoLine);
    const uint32_t c = sm_bitcast(&s, v3, x);
    mb b = {NULL, 0, 0};
    sm_finish(&s, &b);
    spvbc_context ctx;
    spvbc_validate_summary vs;
    validate_words(b.w, b.n, 0, SPVBC_ERROR_VALIDATION_FAILED, &ctx, &vs);
    const spvbc_diagnostic *d = diag_of(ctx, a, "V12", SPVBC_SEVERITY_ERROR);
    assert_non_null(d->source_file);
    assert_string_equal(d->source_file, "w.cl");
    assert_int_equal(d->source_line, 10);
    assert_int_equal(d->source_column, 2);
    d = diag_of(ctx, c, "V12", SPVBC_SEVERITY_ERROR);
    assert_null(d->source_file);
    assert_int_equal(d->source_line, 0);
    spvbc_context_destroy(ctx);
    mb_free(&b);
}

/* Physical32 addressing: a pointer is 32 bits wide.  A pointer -> uint bitcast draws nothing, a
 * pointer -> ulong one the S3-WIDTH warning naming the 32-bit width (a second witness of lit
 * validate/pointer_int_width32). */
void test_pointer_width_physical32(void **state)
{
    (void)state;
    enum { FN = 1, VOID, FNTY, UINT, ULONG, PTR, P, LABEL, EXACT, WIDE, BOUND };
    mb b = {NULL, 0, 0};
    mb_header(&b, 0x00010200u, BOUND);
    MB(&b, SpvOpCapability, SpvCapabilityAddresses);
    MB(&b, SpvOpCapability, SpvCapabilityKernel);
    MB(&b, SpvOpCapability, SpvCapabilityInt64);
    MB(&b, SpvOpMemoryModel, SpvAddressingModelPhysical32, SpvMemoryModelOpenCL);
    mb_entry(&b, SpvExecutionModelKernel, FN, "k");
    mb_void_fn_type(&b, VOID, FNTY);
    MB(&b, SpvOpTypeInt, UINT, 32, 0);
    MB(&b, SpvOpTypeInt, ULONG, 64, 0);
    MB(&b, SpvOpTypePointer, PTR, SpvStorageClassCrossWorkgroup, UINT);
    mb_fn_begin(&b, VOID, FN, FNTY, LABEL);
    MB(&b, SpvOpUndef, PTR, P);
    MB(&b, SpvOpBitcast, UINT, EXACT, P);
    MB(&b, SpvOpBitcast, ULONG, WIDE, P);
    mb_fn_end(&b);
    spvbc_context ctx;
    spvbc_validate_summary vs;
    validate_words(b.w, b.n, 0, SPVBC_SUCCESS, &ctx, &vs);
    assert_int_equal(vs.bitcasts_checked, 2);
    assert_int_equal(vs.warnings, 1);
    no_diag_of(ctx, EXACT);
    has_text(diag_of(ctx, WIDE, "S3-WIDTH", SPVBC_SEVERITY_WARNING)->message,
             "the 32-bit pointer width");
    spvbc_context_destroy(ctx);
    mb_free(&b);
}

/* Two bitcasts of one pair, each drawing both an S4 warning and a W-LOGICAL-PTR error (a
 * StorageBuffer pointer cast to a Function one in a Shader module): the second is checked as the
 * first was, never taken for a pair that drew nothing (a second witness of lit
 * validate/findings_per_site). */
void test_pair_with_warning_and_error_twice(void **state)
{
    (void)state;
    enum { FN = 1, VOID, FNTY, UINT, PSB, PFN, LABEL, X, A, B, BOUND };
    mb b = {NULL, 0, 0};
    mb_shader_head(&b, BOUND, NULL, 0, NULL, 0); /* void %2, its function type %3 */
    MB(&b, SpvOpTypeInt, UINT, 32, 0);
    MB(&b, SpvOpTypePointer, PSB, SpvStorageClassStorageBuffer, UINT);
    MB(&b, SpvOpTypePointer, PFN, SpvStorageClassFunction, UINT);
    mb_fn_begin(&b, VOID, FN, FNTY, LABEL);
    MB(&b, SpvOpUndef, PSB, X);
    MB(&b, SpvOpBitcast, PFN, A, X);
    MB(&b, SpvOpBitcast, PFN, B, X);
    mb_fn_end(&b);
    spvbc_context ctx;
    spvbc_validate_summary vs;
    validate_words(b.w, b.n, 0, SPVBC_ERROR_VALIDATION_FAILED, &ctx, &vs);
    assert_int_equal(vs.errors, 2);
    assert_int_equal(vs.warnings, 2);
    int s4[2] = {0, 0}, logical[2] = {0, 0};
    for (size_t i = 0; i < spvbc_context_diagnostic_count(ctx); ++i) {
        const spvbc_diagnostic *d = spvbc_context_diagnostic(ctx, i);
        assert_true(d->result_id == A || d->result_id == B);
        const int k = d->result_id == B;
        s4[k] += strcmp(d->rule, "S4") == 0 && d->severity == SPVBC_SEVERITY_WARNING;
        logical[k] += strcmp(d->rule, "W-LOGICAL-PTR") == 0 && d->severity == SPVBC_SEVERITY_ERROR;
    }
    assert_true(s4[0] == 1 && s4[1] == 1 && logical[0] == 1 && logical[1] == 1);
    spvbc_context_destroy(ctx);
    mb_free(&b);
}

/* Each validation of one parsed module takes its own generation, for validate's gates and the
 * rules' alike (second witnesses of lit validate2026/generation and
 * validate/cooperative_matrix_nv): an OpSpecConstantOp Bitcast of float4 to float3 is V12 in
 * 2026.4 (the default) and the warning W-SPEC-BITCAST in 2025.1 and 2023.1; a bitcast of an NV
 * cooperative matrix of int to one of uint, of one shape, is V2 in 2023.1 (whose SPIRV-Tools
 * knew no cooperative type there) and valid from 2025.1. */
void test_spec_bitcast_generations(void **state)
{
    (void)state;
    mb b = {NULL, 0, 0};
    spec_bitcasts_module(&b, 1);
    spvbc_context ctx;
    spvbc_module mod = parse_fresh(&b, NULL, &ctx);
    const uint32_t gens[] = {SPVBC_GENERATION_2025_1, SPVBC_GENERATION_NEWEST,
                             SPVBC_GENERATION_2023_1};
    spvbc_validate_options vo = SPVBC_VALIDATE_OPTIONS_INIT;
    for (size_t i = 0; i < sizeof gens / sizeof *gens; ++i) {
        vo.generation = gens[i];
        const int newest = gens[i] == SPVBC_GENERATION_NEWEST;
        assert_int_equal(spvbc_module_validate(mod, &vo, NULL),
                         newest ? SPVBC_ERROR_VALIDATION_FAILED : SPVBC_SUCCESS);
        diag_of(ctx, 6, newest ? "V12" : "W-SPEC-BITCAST",
                newest ? SPVBC_SEVERITY_ERROR : SPVBC_SEVERITY_WARNING);
    }
    spvbc_module_destroy(mod);
    spvbc_context_destroy(ctx);

    enum { FN = 1, VOID, FNTY, INT, UINT, SCOPE, N16, MI, MU, LABEL, X, R, BOUND };
    enum { CAP_COOPERATIVE_MATRIX_NV = 5357, OP_TYPE_COOPERATIVE_MATRIX_NV = 5358 };
    mb_shader_head(&b, BOUND, (const uint32_t[]){CAP_COOPERATIVE_MATRIX_NV}, 1,
                   (const char *const[]){"SPV_NV_cooperative_matrix"}, 1);
    MB(&b, SpvOpTypeInt, INT, 32, 1);
    MB(&b, SpvOpTypeInt, UINT, 32, 0);
    MB(&b, SpvOpConstant, UINT, SCOPE, SpvScopeSubgroup);
    MB(&b, SpvOpConstant, UINT, N16, 16);
    MB(&b, OP_TYPE_COOPERATIVE_MATRIX_NV, MI, INT, SCOPE, N16, N16);
    MB(&b, OP_TYPE_COOPERATIVE_MATRIX_NV, MU, UINT, SCOPE, N16, N16);
    mb_fn_begin(&b, VOID, FN, FNTY, LABEL);
    MB(&b, SpvOpUndef, MI, X);
    MB(&b, SpvOpBitcast, MU, R, X);
    mb_fn_end(&b);
    mod = parse_fresh(&b, NULL, &ctx);
    for (size_t i = 0; i < sizeof gens / sizeof *gens; ++i) {
        vo.generation = gens[i];
        if (gens[i] == SPVBC_GENERATION_2023_1) {
            assert_int_equal(spvbc_module_validate(mod, &vo, NULL), SPVBC_ERROR_VALIDATION_FAILED);
            diag_of(ctx, R, "V2", SPVBC_SEVERITY_ERROR);
        } else {
            assert_int_equal(spvbc_module_validate(mod, &vo, NULL), SPVBC_SUCCESS);
            no_diag_of(ctx, R);
        }
    }
    spvbc_module_destroy(mod);
    spvbc_context_destroy(ctx);
    mb_free(&b);
}
