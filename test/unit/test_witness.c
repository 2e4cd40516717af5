/* Second witnesses: behaviours that a mutation run (test/mutation/run.sh --all-tests, see
 * docs/robustness.md section 11) showed pinned by one test program only, each checked here
 * again through another way in, so that a change to that one test cannot leave them bare:
 *   - short declarations and instructions (OpTypeForwardPointer, OpBitcast, on the walk's fast
 *     path as well, OpTypeFloat, OpTypeInt of width 0, OpTypeArray, OpTypeUntypedPointerKHR)
 *     refused with R-OPERANDS or R-TYPE-SHAPE at their word;
 *   - the header's refusals of parse_bytes (a bad magic shown as read, 16 bytes too short for a
 *     header whatever their magic);
 *   - NULL and out-of-range arguments of parse, write, lower and the type names;
 *   - the OpenCL scalar names' kinds, widths and signedness, as read back by the name writer;
 *   - the capabilities a refusal names: only those missing;
 *   - id 1 as a type and as an operand; R-LIMIT's position;
 *   - pointer bitcasts in SPIR-V 1.5 without the extension, and a logical pointer's message,
 *     also with each allocation failing;
 *   - operands of no numerical type (none at all; bool where LongVectorEXT is declared);
 *   - a lowered module's words, the same on every request (and valid); the source position
 *     ended by OpNoLine;
 *   - misaligned bytes copied (the module keeps its words when the caller's change), and the
 *     copy's allocation failure reported alone.
 * The one lowered module goes through spirv-val.
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
#include "opencl_scalars.h"
#include "spirv_bitcast.h"
#include "spvval.h"
#include "test_alloc.h"
#include "diag_check.h"

/* Resets `b` to a Kernel module (SPIR-V 1.0, bound 20) with %4 = float, a void() function %1
 * (%2 void, %3 its type) and its label %5 open. */
static void kernel_fn(mb *b)
{
    mb_kernel_head(b, 0x00010000u, 20, 1);
    MB(b, SpvOpTypeFloat, 4, 32);
    mb_void_fn_type(b, 2, 3);
    mb_fn_begin(b, 2, 1, 3, 5);
}

/* The walk takes its fast path only for opcodes whose flags the process has cached: a valid
 * module with OpLabel, OpUndef and OpBitcast first, then a 3-word OpBitcast (no operand) in the
 * body, a label of id 0 (R-ID-ZERO) and one of 1 word, and a 2-word OpTypeForwardPointer among
 * the types: R-OPERANDS at each one's word but the second. */
static void test_short_instructions(void **state)
{
    (void)state;
    mb b = {NULL, 0, 0};
    kernel_fn(&b);
    MB(&b, SpvOpUndef, 4, 6);
    MB(&b, SpvOpBitcast, 4, 7, 6);
    mb_fn_end(&b);
    spvbc_context ctx;
    spvbc_validate_summary vs;
    validate_words(b.w, b.n, 0, SPVBC_SUCCESS, &ctx, &vs);
    spvbc_context_destroy(ctx);

    kernel_fn(&b);
    MB(&b, SpvOpUndef, 4, 6);
    const size_t at = MB(&b, SpvOpBitcast, 4, 7);
    mb_fn_end(&b);
    expect_parse_error(b.w, b.n, SPVBC_ERROR_INVALID_BINARY, "R-OPERANDS", at,
                       "OpBitcast is missing its operand");

    /* A label of id 0, and one of no id at all (1 word). */
    mb_kernel_head(&b, 0x00010000u, 20, 1);
    MB(&b, SpvOpTypeFloat, 4, 32);
    mb_void_fn_type(&b, 2, 3);
    MB(&b, SpvOpFunction, 2, 1, 0, 3);
    const size_t label = b.n;
    MB(&b, SpvOpLabel, 0);
    expect_parse_error(b.w, b.n, SPVBC_ERROR_INVALID_ID, "R-ID-ZERO", label, NULL);
    /* The word after the 1-word label (OpReturn's first word, 0x000100fd) is below the bound,
     * so that a fast path that took it for the label's id would go on without an error. */
    b.n = label;
    mb_op0(&b, SpvOpLabel);
    mb_fn_end(&b);
    b.w[3] = 0x10100u;
    expect_parse_error(b.w, b.n, SPVBC_ERROR_INVALID_BINARY, "R-OPERANDS", label, NULL);

    mb_kernel_head(&b, 0x00010000u, 20, 1);
    const size_t fp = MB(&b, SpvOpTypeForwardPointer, 6);
    expect_parse_error(b.w, b.n, SPVBC_ERROR_INVALID_BINARY, "R-OPERANDS", fp,
                       "OpTypeForwardPointer is missing operands");
    mb_free(&b);
}

/* A type declaration one word short of its first operand, or of width 0: refused at its word. */
static void test_short_types(void **state)
{
    (void)state;
    mb b = {NULL, 0, 0};
    size_t at;
    mb_kernel_head(&b, 0x00010000u, 20, 1);
    at = MB(&b, SpvOpTypeFloat, 4);
    expect_parse_error(b.w, b.n, SPVBC_ERROR_INVALID_BINARY, "R-OPERANDS", at,
                       "type declaration is missing its width operand");
    mb_kernel_head(&b, 0x00010000u, 20, 1);
    at = MB(&b, SpvOpTypeInt, 4, 0, 0);
    expect_parse_error(b.w, b.n, SPVBC_ERROR_INVALID_BINARY, "R-TYPE-SHAPE", at,
                       "scalar type has width 0");
    mb_kernel_head(&b, 0x00010000u, 20, 1);
    at = MB(&b, SpvOpTypeArray, 4);
    expect_parse_error(b.w, b.n, SPVBC_ERROR_INVALID_BINARY, "R-OPERANDS", at,
                       "composite type is missing its element type");
    if (!opcode_unknown(OP_TYPE_UNTYPED_POINTER_KHR, "OpTypeUntypedPointerKHR")) {
        mb_kernel_head(&b, 0x00010000u, 20, 1);
        at = MB(&b, OP_TYPE_UNTYPED_POINTER_KHR, 4);
        expect_parse_error(b.w, b.n, SPVBC_ERROR_INVALID_BINARY, "R-OPERANDS", at,
                           "OpTypeUntypedPointerKHR is missing its storage class");
    }
    mb_free(&b);
}

/* parse_bytes of `size` bytes at `bytes`: fails with `expect` and one diagnostic `rule` whose
 * message is `message`. */
static void bytes_fail(const void *bytes, size_t size, spvbc_result expect, const char *rule,
                       const char *message)
{
    spvbc_context ctx;
    assert_int_equal(spvbc_context_create(NULL, &ctx), SPVBC_SUCCESS);
    spvbc_module mod = NULL;
    assert_int_equal(spvbc_module_parse_bytes(ctx, bytes, size, NULL, &mod), expect);
    assert_null(mod);
    assert_int_equal(spvbc_context_diagnostic_count(ctx), 1);
    assert_string_equal(spvbc_context_diagnostic(ctx, 0)->rule, rule);
    assert_string_equal(spvbc_context_diagnostic(ctx, 0)->message, message);
    spvbc_context_destroy(ctx);
}

/* A bad magic is shown as the first word reads (not the version's), from bytes and from words;
 * 16 bytes are too short for a header whatever their first word says. */
static void test_header_refusals(void **state)
{
    (void)state;
    const unsigned char bad[20] = {0xef, 0xbe, 0xad, 0xde, 0x00, 0x00, 0x01, 0x00, 0, 0,
                                   0,    0,    10,   0,    0,    0,    0,    0,    0, 0};
    bytes_fail(bad, sizeof bad, SPVBC_ERROR_INVALID_BINARY, "R-MAGIC",
               "bad magic number 0xdeadbeef (expected 0x07230203)");
    bytes_fail(bad, 16, SPVBC_ERROR_INVALID_BINARY, "R-HEADER",
               "module is shorter than the 5-word SPIR-V header");
    const uint32_t words[5] = {0xdeadbeefu, 0x00010000u, 0, 10, 0};
    expect_parse_error(words, 5, SPVBC_ERROR_INVALID_BINARY, "R-MAGIC", 0,
                       "bad magic number 0xdeadbeef (expected 0x07230203)");
}

/* NULL where a pointer is required, and lower's classes beyond SPVBC_LOWER_ALL: refused with
 * SPVBC_ERROR_INVALID_ARGUMENT before anything is read. */
static void test_bad_arguments(void **state)
{
    (void)state;
    mb b = {NULL, 0, 0};
    kernel_fn(&b);
    mb_fn_end(&b);
    spvbc_context ctx;
    assert_int_equal(spvbc_context_create(NULL, &ctx), SPVBC_SUCCESS);
    assert_int_equal(spvbc_module_parse(ctx, b.w, b.n, NULL, NULL), SPVBC_ERROR_INVALID_ARGUMENT);
    spvbc_module mod = NULL;
    assert_int_equal(spvbc_module_parse(ctx, b.w, b.n, NULL, &mod), SPVBC_SUCCESS);
    assert_int_equal(spvbc_module_write(NULL, mb_write_stop, NULL), SPVBC_ERROR_INVALID_ARGUMENT);
    assert_int_equal(spvbc_module_write(mod, NULL, NULL), SPVBC_ERROR_INVALID_ARGUMENT);
    spvbc_lower_options lo = SPVBC_LOWER_OPTIONS_INIT;
    lo.classes = SPVBC_LOWER_ALL + 1u;
    assert_int_equal(spvbc_module_lower(mod, &lo, NULL), SPVBC_ERROR_INVALID_ARGUMENT);
    spvbc_module_destroy(mod);
    spvbc_context_destroy(ctx);

    char buf[16] = "x";
    spvbc_type_desc d;
    assert_int_equal(spvbc_type_desc_from_opencl("int", &d), SPVBC_SUCCESS);
    assert_int_equal(spvbc_type_desc_opencl_name(NULL, buf, sizeof buf),
                     SPVBC_ERROR_INVALID_ARGUMENT);
    assert_int_equal(spvbc_type_desc_opencl_name(&d, NULL, sizeof buf),
                     SPVBC_ERROR_INVALID_ARGUMENT);
    assert_int_equal(spvbc_type_desc_opencl_name(&d, buf, 0), SPVBC_ERROR_INVALID_ARGUMENT);
    assert_string_equal(buf, "x");
    d.kind = (spvbc_scalar_kind)99;
    assert_int_equal(spvbc_type_desc_opencl_name(&d, buf, sizeof buf),
                     SPVBC_ERROR_INVALID_ARGUMENT);
    mb_free(&b);
}

/* Each OpenCL scalar name (opencl_scalars.h) read and written back: kind, width and signedness
 * as OpenCL C has them, and the name again. */
static void test_scalar_names_round_trip(void **state)
{
    (void)state;
    for (size_t i = 0; i < OPENCL_SCALAR_COUNT; ++i) {
        const opencl_scalar *row = &opencl_scalars[i];
        spvbc_type_desc d;
        char buf[16];
        assert_int_equal(spvbc_type_desc_from_opencl(row->name, &d), SPVBC_SUCCESS);
        assert_int_equal(d.kind, row->kind);
        assert_int_equal(d.width, row->width);
        assert_int_equal(d.is_signed, row->is_signed);
        assert_int_equal(d.count, 1);
        assert_int_equal(spvbc_type_desc_opencl_name(&d, buf, sizeof buf), SPVBC_SUCCESS);
        assert_string_equal(buf, row->name);
    }
}

/* as_char8(half3) in a Kernel module with Float16Buffer only: the refusal names the three
 * capabilities missing (Float16, Int8, Vector16), none of those present or not needed. */
static void test_missing_capabilities_named(void **state)
{
    (void)state;
    sm s;
    sm_init(&s, 0, 0x00010200u);
    const spvbc_type_desc casts[1][2] = {
        {sm_desc(SPVBC_SCALAR_FLOAT, 16, 3), sm_desc(SPVBC_SCALAR_INT, 8, 8)}};
    sm_casts(&s, casts, 1);
    s.caps &= ~((uint64_t)1 << SpvCapabilityFloat16 | (uint64_t)1 << SpvCapabilityInt8 |
                (uint64_t)1 << SpvCapabilityVector16);
    sm_cap(&s, SpvCapabilityFloat16Buffer);
    mb b = {NULL, 0, 0};
    sm_finish(&s, &b);
    spvbc_context ctx;
    spvbc_validate_summary vs;
    validate_words(b.w, b.n, 0, SPVBC_ERROR_VALIDATION_FAILED, &ctx, &vs);
    assert_int_equal(vs.errors, 1);
    const spvbc_diagnostic *d = spvbc_context_diagnostic(ctx, 0);
    assert_string_equal(d->rule, "V12");
    has_text(d->message, "the module lacks the capability Float16, Int8, Vector16;");
    spvbc_context_destroy(ctx);
    mb_free(&b);
}

/* Id 1 is an id like any other: a float type of id 1 (the function is %2), a vector of it, and
 * then an operand of id 1 (an OpUndef, the function %2): each parses, and each bitcast
 * float -> uint is valid, no diagnostic. */
static void test_id_one(void **state)
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

/* The module of `b` parsed with `po` (may be NULL) in a fresh context, left in `*ctx`. */
static spvbc_module parse_fresh(const mb *b, const spvbc_parse_options *po, spvbc_context *ctx)
{
    assert_int_equal(spvbc_context_create(NULL, ctx), SPVBC_SUCCESS);
    spvbc_module mod = NULL;
    assert_int_equal(spvbc_module_parse(*ctx, b->w, b->n, po, &mod), SPVBC_SUCCESS);
    return mod;
}

/* as_int3(float4) in a module parsed with max_id_bound equal to its bound: the int4 type and the
 * intermediate value would need a larger bound, so nothing is lowered (UNSUPPORTED), with R-LIMIT
 * at word 3 (the bound's word), of no instruction. */
static void test_lower_bound_limit(void **state)
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
static void test_pointer_bitcasts_at_1_5(void **state)
{
    (void)state;
    mb b = {NULL, 0, 0};
    psb_1_5_module(&b);
    spvbc_context ctx;
    spvbc_validate_summary vs;
    validate_words(b.w, b.n, 0, SPVBC_ERROR_VALIDATION_FAILED, &ctx, &vs);
    assert_int_equal(vs.errors, 1);
    no_diag_of(ctx, P15_A);
    const spvbc_diagnostic *d = diag_of(ctx, P15_B, "W-LOGICAL-PTR", SPVBC_SEVERITY_ERROR);
    has_text(d->message, "operand OpTypePointer StorageBuffer OpTypeInt 64 0");
    spvbc_context_destroy(ctx);
    mb_free(&b);
}

/* Validating psb_1_5_module() with each allocation failing in turn (the parse's and the
 * validation's): OUT_OF_MEMORY where one failed, never a verdict with its finding lost;
 * otherwise VALIDATION_FAILED with the one W-LOGICAL-PTR. */
static void test_logical_pointer_allocation_failures(void **state)
{
    (void)state;
    mb b = {NULL, 0, 0};
    psb_1_5_module(&b);
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
        spvbc_result r = spvbc_module_parse(ctx, b.w, b.n, NULL, &mod);
        if (r == SPVBC_SUCCESS) {
            spvbc_validate_summary vs = SPVBC_VALIDATE_SUMMARY_INIT;
            r = spvbc_module_validate(mod, NULL, &vs);
            if (r == SPVBC_ERROR_VALIDATION_FAILED) {
                assert_int_equal(vs.errors, 1);
                diag_of(ctx, P15_B, "W-LOGICAL-PTR", SPVBC_SEVERITY_ERROR);
            }
            spvbc_module_destroy(mod);
        }
        const int triggered = a.triggered;
        spvbc_context_destroy(ctx);
        assert_int_equal(a.bad_free, 0);
        assert_int_equal(a.live_blocks, 0);
        if (!triggered) {
            assert_int_equal(r, SPVBC_ERROR_VALIDATION_FAILED);
            break;
        }
        if (r != SPVBC_ERROR_OUT_OF_MEMORY)
            fail_msg("allocation %zu failed, yet the result is %s", k, spvbc_result_string(r));
    }
    mb_free(&b);
}

/* An operand that has no type (an OpString's id) is V1; a bool operand in a module that
 * declares LongVectorEXT is still no numerical type (V3): only cooperative vectors count as
 * long vectors there. */
static void test_operands_without_numerical_type(void **state)
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
static void test_get_words_stable(void **state)
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
    char msg[512];
    if (spvval_check(w1, n1, msg, sizeof msg) != 1) fail_msg("spirv-val: %s", msg);
    spvbc_module_destroy(mod);
    spvbc_context_destroy(ctx);
    mb_free(&b);
}

/* The source position ends at OpNoLine: an invalid bitcast after OpLine "w.cl" 10 2 has it, the
 * next one, after OpNoLine, has none. */
static void test_position_ends_at_noline(void **state)
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

/* Misaligned input is copied (the header's promise): a module parsed from bytes at an odd
 * address keeps its words after the caller's bytes are overwritten and after another module of
 * the same size is parsed the same way (whose temporary copy may reuse freed memory). */
static void test_misaligned_bytes_are_copied(void **state)
{
    (void)state;
    mb a = {NULL, 0, 0}, c = {NULL, 0, 0};
    sm_cast_module(&a, 0, 0x00010000u, sm_desc(SPVBC_SCALAR_FLOAT, 32, 4),
                   sm_desc(SPVBC_SCALAR_INT, 32, 4), 1);
    sm_cast_module(&c, 0, 0x00010000u, sm_desc(SPVBC_SCALAR_INT, 32, 4),
                   sm_desc(SPVBC_SCALAR_FLOAT, 32, 4), 1);
    assert_int_equal(a.n, c.n);
    const size_t size = a.n * 4;
    unsigned char *buf = (unsigned char *)malloc(size + 8);
    assert_non_null(buf);
    spvbc_context ctx;
    assert_int_equal(spvbc_context_create(NULL, &ctx), SPVBC_SUCCESS);
    for (size_t shift = 1; shift < 8; ++shift) {
        if (shift == 4) continue; /* aligned: parsed in place, as documented */
        spvbc_module ma = NULL, mc = NULL;
        memcpy(buf + shift, a.w, size);
        assert_int_equal(spvbc_module_parse_bytes(ctx, buf + shift, size, NULL, &ma),
                         SPVBC_SUCCESS);
        memset(buf, 0xA5, size + 8);
        memcpy(buf + shift, c.w, size);
        assert_int_equal(spvbc_module_parse_bytes(ctx, buf + shift, size, NULL, &mc),
                         SPVBC_SUCCESS);
        memset(buf, 0x5A, size + 8);
        const uint32_t *w = NULL;
        size_t n = 0;
        assert_int_equal(spvbc_module_get_words(ma, &w, &n), SPVBC_SUCCESS);
        assert_int_equal(n, a.n);
        assert_memory_equal(w, a.w, size);
        assert_int_equal(spvbc_module_get_words(mc, &w, &n), SPVBC_SUCCESS);
        assert_memory_equal(w, c.w, size);
        spvbc_module_destroy(mc);
        spvbc_module_destroy(ma);
    }
    spvbc_context_destroy(ctx);
    free(buf);
    mb_free(&c);
    mb_free(&a);
}

/* parse_bytes of misaligned input whose temporary copy cannot be allocated: OUT_OF_MEMORY with
 * R-MEMORY its only diagnostic (the previous call's are cleared first, as every call does). */
static void test_misaligned_copy_out_of_memory(void **state)
{
    (void)state;
    mb a = {NULL, 0, 0};
    sm_cast_module(&a, 0, 0x00010000u, sm_desc(SPVBC_SCALAR_FLOAT, 32, 4),
                   sm_desc(SPVBC_SCALAR_INT, 32, 4), 1);
    unsigned char *buf = (unsigned char *)malloc(a.n * 4 + 1);
    assert_non_null(buf);
    memcpy(buf + 1, a.w, a.n * 4);
    test_alloc ta;
    memset(&ta, 0, sizeof ta);
    const spvbc_allocator al = test_alloc_allocator(&ta);
    spvbc_context ctx;
    assert_int_equal(spvbc_context_create(&al, &ctx), SPVBC_SUCCESS);
    const uint32_t bad[5] = {0xdeadbeefu, 0x00010000u, 0, 10, 0};
    spvbc_module mod = NULL;
    assert_int_equal(spvbc_module_parse(ctx, bad, 5, NULL, &mod), SPVBC_ERROR_INVALID_BINARY);
    assert_int_equal(spvbc_context_diagnostic_count(ctx), 1);
    ta.fail_at = ta.calls + 1;
    assert_int_equal(spvbc_module_parse_bytes(ctx, buf + 1, a.n * 4, NULL, &mod),
                     SPVBC_ERROR_OUT_OF_MEMORY);
    assert_true(ta.triggered);
    assert_null(mod);
    assert_int_equal(spvbc_context_diagnostic_count(ctx), 1);
    assert_string_equal(spvbc_context_diagnostic(ctx, 0)->rule, "R-MEMORY");
    spvbc_context_destroy(ctx);
    assert_int_equal(ta.bad_free, 0);
    assert_int_equal(ta.live_blocks, 0);
    free(buf);
    mb_free(&a);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_short_instructions),
        cmocka_unit_test(test_short_types),
        cmocka_unit_test(test_header_refusals),
        cmocka_unit_test(test_bad_arguments),
        cmocka_unit_test(test_scalar_names_round_trip),
        cmocka_unit_test(test_missing_capabilities_named),
        cmocka_unit_test(test_id_one),
        cmocka_unit_test(test_lower_bound_limit),
        cmocka_unit_test(test_pointer_bitcasts_at_1_5),
        cmocka_unit_test(test_logical_pointer_allocation_failures),
        cmocka_unit_test(test_operands_without_numerical_type),
        cmocka_unit_test(test_get_words_stable),
        cmocka_unit_test(test_position_ends_at_noline),
        cmocka_unit_test(test_misaligned_bytes_are_copied),
        cmocka_unit_test(test_misaligned_copy_out_of_memory),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
