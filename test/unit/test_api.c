/* Public API behaviour on modules built from word arrays: diagnostics' fields, lowering
 * properties (ids kept, types inserted in order, bound raised, no capability added, output
 * spans, idempotence, byte-identical no-op) and SPIRV-Tools' verdict on every output. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "spirv_bitcast.h"
#include "rules.h"
#include "modbuild.h"
#include "spvval.h"
#include "test_alloc.h"

/* Ids of the Kernel test module. */
enum {
    ID_FILE = 1,
    ID_VOID,
    ID_FLOAT,
    ID_INT,
    ID_V4F,
    ID_V3F,
    ID_V3I,
    ID_PTR4,
    ID_FN,
    ID_F,
    ID_P,
    ID_L,
    ID_X,
    ID_Y,
    ID_Z,
    ID_BOUND
};

typedef struct kmod {
    mb b;
    size_t y_offset, z_offset, float_decl, y_index;
} kmod;

/* OpenCL-style module: %y = as_float3(%x) (4->3, same element), %z = as_int3(%x) (4->3,
 * element change: needs a v4int the module lacks). */
static void build_kernel(kmod *k)
{
    memset(k, 0, sizeof *k);
    mb *b = &k->b;
    mb_header(b, 0x00010000u, ID_BOUND);
    MB(b, SpvOpCapability, SpvCapabilityKernel);
    MB(b, SpvOpCapability, SpvCapabilityAddresses);
    MB(b, SpvOpCapability, SpvCapabilityLinkage);
    MB(b, SpvOpMemoryModel, SpvAddressingModelPhysical64, SpvMemoryModelOpenCL);
    mb_string(b, ID_FILE, "k.cl");
    mb_name(b, ID_Y, "y");
    MB(b, SpvOpDecorate, ID_Y, SpvDecorationFPFastMathMode, 0);
    MB(b, SpvOpTypeVoid, ID_VOID);
    k->float_decl = MB(b, SpvOpTypeFloat, ID_FLOAT, 32);
    MB(b, SpvOpTypeInt, ID_INT, 32, 0);
    MB(b, SpvOpTypeVector, ID_V4F, ID_FLOAT, 4);
    MB(b, SpvOpTypeVector, ID_V3F, ID_FLOAT, 3);
    MB(b, SpvOpTypeVector, ID_V3I, ID_INT, 3);
    MB(b, SpvOpTypePointer, ID_PTR4, SpvStorageClassCrossWorkgroup, ID_V4F);
    MB(b, SpvOpTypeFunction, ID_FN, ID_VOID, ID_PTR4);
    MB(b, SpvOpFunction, ID_VOID, ID_F, 0, ID_FN);
    MB(b, SpvOpFunctionParameter, ID_PTR4, ID_P);
    MB(b, SpvOpLabel, ID_L);
    MB(b, SpvOpLoad, ID_V4F, ID_X, ID_P);
    MB(b, SpvOpLine, ID_FILE, 12, 7);
    k->y_offset = MB(b, SpvOpBitcast, ID_V3F, ID_Y, ID_X);
    k->z_offset = MB(b, SpvOpBitcast, ID_V3I, ID_Z, ID_X);
    mb_fn_end(b);
    /* Instruction index of %y: count the instructions before it. */
    k->y_index = 0;
    for (size_t off = 5; off < k->y_offset; off += k->b.w[off] >> 16)
        k->y_index++;
}

/* spvval_check() (for the module's own SPIR-V version), printing SPIRV-Tools' message when it
 * rejects the module. */
static int spirv_val(const uint32_t *w, size_t n)
{
    char msg[1024];
    int v = spvval_check(w, n, msg, sizeof msg);
    if (v != 1) print_error("spirv-val: %s\n", v < 0 ? "could not run" : msg);
    return v == 1;
}

/* A new context `*ctx` and the module `b` parsed in it (asserts that both succeed). */
static spvbc_module parse_new(const mb *b, spvbc_context *ctx)
{
    spvbc_module m = NULL;
    assert_int_equal(spvbc_context_create(NULL, ctx), SPVBC_SUCCESS);
    assert_int_equal(spvbc_module_parse(*ctx, b->w, b->n, NULL, &m), SPVBC_SUCCESS);
    return m;
}

static void test_version(void **state)
{
    (void)state;
    assert_int_equal(spvbc_version_number(), SPVBC_VERSION_NUMBER);
    assert_string_equal(spvbc_version_string(), SPVBC_VERSION_STRING);
    char buf[32];
    snprintf(buf, sizeof buf, "%d.%d.%d", SPVBC_VERSION_MAJOR, SPVBC_VERSION_MINOR,
             SPVBC_VERSION_PATCH);
    assert_string_equal(buf, SPVBC_VERSION_STRING);
}

static void test_validate_fields(void **state)
{
    (void)state;
    kmod k;
    build_kernel(&k);
    assert_false(spirv_val(k.b.w, k.b.n)); /* the naive module is invalid SPIR-V */
    spvbc_context ctx;
    spvbc_module m = parse_new(&k.b, &ctx);
    spvbc_module_info info = SPVBC_MODULE_INFO_INIT;
    assert_int_equal(spvbc_module_get_info(m, &info), SPVBC_SUCCESS);
    assert_int_equal(info.bitcast_count, 2);
    assert_true(info.is_kernel);
    assert_false(info.is_shader);
    assert_int_equal(info.id_bound, ID_BOUND);
    spvbc_validate_summary sum = SPVBC_VALIDATE_SUMMARY_INIT;
    assert_int_equal(spvbc_module_validate(m, NULL, &sum), SPVBC_ERROR_VALIDATION_FAILED);
    assert_int_equal(sum.bitcasts_checked, 2);
    assert_int_equal(sum.errors, 2);
    assert_int_equal(sum.lowerable, 2);
    assert_int_equal(spvbc_context_diagnostic_count(ctx), 2);
    const spvbc_diagnostic *d = spvbc_context_diagnostic(ctx, 0);
    assert_non_null(d);
    assert_int_equal(d->severity, SPVBC_SEVERITY_ERROR);
    assert_string_equal(d->rule, "V12");
    assert_int_equal(d->word_offset, k.y_offset);
    assert_int_equal(d->instruction_index, k.y_index);
    assert_int_equal(d->opcode, SpvOpBitcast);
    assert_int_equal(d->result_id, ID_Y);
    assert_string_equal(d->result_name, "y");
    assert_string_equal(d->source_file, "k.cl");
    assert_int_equal(d->source_line, 12);
    assert_int_equal(d->source_column, 7);
    assert_int_equal(d->operand_bits, 128);
    assert_int_equal(d->result_bits, 96);
    assert_string_equal(d->astype, "as_float3(float4)");
    assert_true(d->lowerable);
    assert_non_null(strstr(d->message, "128 bits"));
    assert_non_null(strstr(d->message, "96 bits"));
    assert_non_null(strstr(d->result_type, "OpTypeVector 3 x OpTypeFloat 32"));
    const spvbc_diagnostic *d2 = spvbc_context_diagnostic(ctx, 1);
    assert_string_equal(d2->astype, "as_int3(float4)");
    assert_null(d2->result_name);
    assert_null(spvbc_context_diagnostic(ctx, 2));
    spvbc_module_destroy(m);
    spvbc_context_destroy(ctx);
    mb_free(&k.b);
}

typedef struct spans {
    uint32_t w[2048];
    size_t n;
    size_t calls;
} spans;

static int collect(void *user, const uint32_t *w, size_t n)
{
    spans *s = (spans *)user;
    if (s->n + n > 2048) return 1;
    memcpy(s->w + s->n, w, n * 4);
    s->n += n;
    s->calls++;
    return 0;
}

static size_t count_op(const uint32_t *w, size_t n, uint32_t op)
{
    size_t c = 0;
    for (size_t off = 5; off < n; off += w[off] >> 16)
        c += (w[off] & 0xffffu) == op;
    return c;
}

/* Word offset of the instruction defining `id` (result id at word 1 or 2), or 0. */
static size_t def_offset(const uint32_t *w, size_t n, uint32_t id, int at)
{
    for (size_t off = 5; off < n; off += w[off] >> 16)
        if ((w[off] >> 16) > (uint32_t)at && w[off + (size_t)at] == id) return off;
    return 0;
}

static void test_lower_properties(void **state)
{
    (void)state;
    kmod k;
    build_kernel(&k);
    uint32_t original[1024];
    memcpy(original, k.b.w, k.b.n * 4);
    spvbc_context ctx;
    spvbc_module m = parse_new(&k.b, &ctx);
    spvbc_lower_summary sum = SPVBC_LOWER_SUMMARY_INIT;
    assert_int_equal(spvbc_module_lower(m, NULL, &sum), SPVBC_SUCCESS);
    assert_int_equal(sum.rewritten, 2);
    assert_int_equal(sum.refused, 0);
    assert_int_equal(sum.types_added, 1); /* v4int */
    assert_int_equal(sum.new_id_bound, ID_BOUND + 2); /* v4int and one intermediate */
    const uint32_t *out;
    size_t n;
    assert_int_equal(spvbc_module_get_words(m, &out, &n), SPVBC_SUCCESS);
    assert_memory_equal(k.b.w, original, k.b.n * 4); /* input untouched */
    assert_true(spirv_val(out, n));
    assert_int_equal(out[3], ID_BOUND + 2);
    /* No capability or extension added. */
    assert_int_equal(count_op(out, n, SpvOpCapability), count_op(k.b.w, k.b.n, SpvOpCapability));
    assert_int_equal(count_op(out, n, SpvOpExtension), 0);
    /* %y keeps its id, now defined by a shuffle; %z by a shuffle of a new bitcast. */
    size_t y = def_offset(out, n, ID_Y, 2), z = def_offset(out, n, ID_Z, 2);
    assert_true(y && z);
    assert_int_equal(out[y] & 0xffffu, SpvOpVectorShuffle);
    assert_int_equal(out[y + 3], ID_X);
    assert_int_equal(out[y + 4], ID_X);
    assert_int_equal(out[z] & 0xffffu, SpvOpVectorShuffle);
    /* The new v4int comes after OpTypeInt and before its first use. */
    size_t v4i = 0;
    for (size_t off = 5; off < n; off += out[off] >> 16)
        if ((out[off] & 0xffffu) == SpvOpTypeVector && out[off + 2] == ID_INT && out[off + 3] == 4)
            v4i = off;
    assert_true(v4i > def_offset(out, n, ID_INT, 1));
    assert_true(v4i < z);
    /* The OpLine still precedes the rewritten instructions; OpName/OpDecorate untouched. */
    assert_int_equal(out[y - 4] & 0xffffu, SpvOpLine);
    assert_int_equal(count_op(out, n, SpvOpName), 1);
    assert_int_equal(count_op(out, n, SpvOpDecorate), 1);
    /* Streaming spans equal the materialised words, with fewer calls than instructions. */
    spans s;
    s.n = s.calls = 0;
    assert_int_equal(spvbc_module_write(m, collect, &s), SPVBC_SUCCESS);
    assert_int_equal(s.n, n);
    assert_memory_equal(s.w, out, n * 4);
    assert_true(s.calls <= 8);
    assert_int_equal(spvbc_module_write(m, mb_write_stop, NULL), SPVBC_ERROR_STOPPED);
    /* Lowering the same module again gives the same words. */
    uint32_t first[2048];
    memcpy(first, out, n * 4);
    size_t first_n = n;
    assert_int_equal(spvbc_module_lower(m, NULL, NULL), SPVBC_SUCCESS);
    assert_int_equal(spvbc_module_get_words(m, &out, &n), SPVBC_SUCCESS);
    assert_int_equal(n, first_n);
    assert_memory_equal(out, first, n * 4);
    /* Lowering the output changes nothing: same words, same pointer (no copy). */
    spvbc_module m2;
    assert_int_equal(spvbc_module_parse(ctx, first, first_n, NULL, &m2), SPVBC_SUCCESS);
    assert_int_equal(spvbc_module_lower(m2, NULL, &sum), SPVBC_SUCCESS);
    assert_int_equal(sum.rewritten, 0);
    const uint32_t *out2;
    size_t n2;
    assert_int_equal(spvbc_module_get_words(m2, &out2, &n2), SPVBC_SUCCESS);
    assert_ptr_equal(out2, first);
    assert_int_equal(n2, first_n);
    assert_int_equal(spvbc_module_validate(m2, NULL, NULL), SPVBC_SUCCESS);
    spvbc_context_destroy(ctx); /* destroys m and m2 too */
    mb_free(&k.b);
}

static void test_lower_only_and_pad(void **state)
{
    (void)state;
    kmod k;
    build_kernel(&k);
    spvbc_context ctx;
    spvbc_module m = parse_new(&k.b, &ctx);
    /* Only 3->4 selected: both 4->3 sites stay, skipped (not refused), with a warning each
     * that still says they are lowerable. */
    spvbc_lower_options o = {sizeof(spvbc_lower_options), SPVBC_PAD_UNDEF, SPVBC_LOWER_3_TO_4};
    spvbc_lower_summary sum = SPVBC_LOWER_SUMMARY_INIT;
    assert_int_equal(spvbc_module_lower(m, &o, &sum), SPVBC_SUCCESS);
    assert_int_equal(sum.rewritten, 0);
    assert_int_equal(sum.refused, 0);
    assert_int_equal(sum.skipped, 2);
    assert_int_equal(spvbc_context_diagnostic_count(ctx), 2);
    assert_int_equal(spvbc_context_diagnostic(ctx, 0)->severity, SPVBC_SEVERITY_WARNING);
    assert_string_equal(spvbc_context_diagnostic(ctx, 0)->rule, "L-SKIPPED");
    assert_true(spvbc_context_diagnostic(ctx, 0)->lowerable);
    const uint32_t *out;
    size_t n;
    assert_int_equal(spvbc_module_get_words(m, &out, &n), SPVBC_SUCCESS);
    assert_ptr_equal(out, k.b.w);
    /* Bad options. */
    spvbc_lower_options bad = {sizeof(spvbc_lower_options), (spvbc_pad_policy)9, 0};
    assert_int_equal(spvbc_module_lower(m, &bad, NULL), SPVBC_ERROR_INVALID_ARGUMENT);
    spvbc_lower_options bad2 = {sizeof(spvbc_lower_options), SPVBC_PAD_UNDEF, 1u << 30};
    assert_int_equal(spvbc_module_lower(m, &bad2, NULL), SPVBC_ERROR_INVALID_ARGUMENT);
    spvbc_context_destroy(ctx);
    mb_free(&k.b);
}

/* A SPIR-V 1.2 Kernel library (Linkage, Physical32) of `bound` ids: header, capabilities and
 * memory model, for the spec-constant tests. */
static void spec_kernel_head(mb *b, uint32_t bound)
{
    mb_header(b, 0x00010200u, bound);
    MB(b, SpvOpCapability, SpvCapabilityKernel);
    MB(b, SpvOpCapability, SpvCapabilityAddresses);
    MB(b, SpvOpCapability, SpvCapabilityLinkage);
    MB(b, SpvOpMemoryModel, SpvAddressingModelPhysical32, SpvMemoryModelOpenCL);
}

/* A 3->4 with pad zero in a Kernel spec-constant: OpSpecConstantOp VectorShuffle with a new
 * OpConstantNull, all before the original instruction. */
static void test_lower_spec_constant(void **state)
{
    (void)state;
    enum { S_VOID = 1, S_FLOAT, S_V3F, S_V4F, S_V4I, S_INT, S_C, S_C3, S_SPEC, S_BOUND };
    mb b = {0};
    spec_kernel_head(&b, S_BOUND);
    MB(&b, SpvOpTypeVoid, S_VOID);
    MB(&b, SpvOpTypeFloat, S_FLOAT, 32);
    MB(&b, SpvOpTypeInt, S_INT, 32, 0);
    MB(&b, SpvOpTypeVector, S_V3F, S_FLOAT, 3);
    MB(&b, SpvOpTypeVector, S_V4F, S_FLOAT, 4);
    MB(&b, SpvOpTypeVector, S_V4I, S_INT, 4);
    MB(&b, SpvOpSpecConstant, S_FLOAT, S_C, 0x3f800000u);
    MB(&b, SpvOpSpecConstantComposite, S_V3F, S_C3, S_C, S_C, S_C);
    MB(&b, SpvOpSpecConstantOp, S_V4I, S_SPEC, SpvOpBitcast, S_C3);
    spvbc_context ctx;
    spvbc_module m = parse_new(&b, &ctx);
    assert_int_equal(spvbc_module_validate(m, NULL, NULL), SPVBC_ERROR_VALIDATION_FAILED);
    assert_string_equal(spvbc_context_diagnostic(ctx, 0)->rule, "V12");
    spvbc_lower_options o = {sizeof(spvbc_lower_options), SPVBC_PAD_ZERO, 0};
    spvbc_lower_summary sum = SPVBC_LOWER_SUMMARY_INIT;
    assert_int_equal(spvbc_module_lower(m, &o, &sum), SPVBC_SUCCESS);
    assert_int_equal(sum.rewritten, 1);
    assert_int_equal(sum.constants_added, 1);
    const uint32_t *out;
    size_t n;
    assert_int_equal(spvbc_module_get_words(m, &out, &n), SPVBC_SUCCESS);
    assert_true(spirv_val(out, n));
    size_t spec = def_offset(out, n, S_SPEC, 2);
    assert_int_equal(out[spec] & 0xffffu, SpvOpSpecConstantOp);
    assert_int_equal(out[spec + 3], SpvOpBitcast);
    /* Its operand is a spec-constant shuffle of %c3 and a null v3float, lanes 0 1 2 3. */
    size_t shuf = def_offset(out, n, out[spec + 4], 2);
    assert_int_equal(out[shuf + 3], SpvOpVectorShuffle);
    assert_int_equal(out[shuf + 4], S_C3);
    size_t null = def_offset(out, n, out[shuf + 5], 2);
    assert_int_equal(out[null] & 0xffffu, SpvOpConstantNull);
    assert_int_equal(out[null + 1], S_V3F);
    assert_int_equal(out[shuf + 9], 3);
    assert_true(null < shuf && shuf < spec);
    spvbc_context_destroy(ctx);
    mb_free(&b);
}

/* A spec-constant as_int3(float4) whose v4int is declared only after it: reusing it would be a
 * use before declaration and a second declaration a duplicate type, so it is refused; without
 * that later declaration a new v4int is declared before the site. */
static void test_spec_constant_type_order(void **state)
{
    (void)state;
    enum { S_FLOAT = 1, S_INT, S_V4F, S_V3I, S_C, S_C4, S_SPEC, S_V4I, S_BOUND };
    for (int late = 1; late >= 0; --late) {
        mb b = {0};
        spec_kernel_head(&b, S_BOUND);
        MB(&b, SpvOpTypeFloat, S_FLOAT, 32);
        MB(&b, SpvOpTypeInt, S_INT, 32, 0);
        MB(&b, SpvOpTypeVector, S_V4F, S_FLOAT, 4);
        MB(&b, SpvOpTypeVector, S_V3I, S_INT, 3);
        MB(&b, SpvOpSpecConstant, S_FLOAT, S_C, 0x3f800000u);
        MB(&b, SpvOpSpecConstantComposite, S_V4F, S_C4, S_C, S_C, S_C, S_C);
        MB(&b, SpvOpSpecConstantOp, S_V3I, S_SPEC, SpvOpBitcast, S_C4);
        if (late) MB(&b, SpvOpTypeVector, S_V4I, S_INT, 4);
        spvbc_context ctx;
        spvbc_module m = parse_new(&b, &ctx);
        /* validate's "lowerable" agrees with what lower does. */
        spvbc_validate_summary vs = SPVBC_VALIDATE_SUMMARY_INIT;
        assert_int_equal(spvbc_module_validate(m, NULL, &vs), SPVBC_ERROR_VALIDATION_FAILED);
        assert_int_equal(vs.lowerable, late ? 0 : 1);
        assert_int_equal(spvbc_context_diagnostic(ctx, 0)->lowerable, late ? 0 : 1);
        spvbc_lower_summary sum = SPVBC_LOWER_SUMMARY_INIT;
        assert_int_equal(spvbc_module_lower(m, NULL, &sum), late ? SPVBC_PARTIAL : SPVBC_SUCCESS);
        const uint32_t *out;
        size_t n;
        assert_int_equal(spvbc_module_get_words(m, &out, &n), SPVBC_SUCCESS);
        if (late) {
            assert_int_equal(sum.refused, 1);
            assert_int_equal(sum.rewritten, 0);
            assert_ptr_equal(out, b.w);
            assert_non_null(strstr(spvbc_context_diagnostic(ctx, 0)->message, "declared after"));
        } else {
            assert_int_equal(sum.rewritten, 1);
            assert_int_equal(sum.types_added, 1);
            assert_true(spirv_val(out, n));
        }
        spvbc_context_destroy(ctx);
        mb_free(&b);
    }
}

/* In a Shader module the spec-constant form cannot be lowered (and needs Kernel anyway). */
static void test_shader_spec_constant_refused(void **state)
{
    (void)state;
    enum { S_FLOAT = 1, S_INT, S_C, S_SPEC, S_BOUND };
    mb b = {0};
    mb_header(&b, 0x00010300u, S_BOUND);
    MB(&b, SpvOpCapability, SpvCapabilityShader);
    MB(&b, SpvOpMemoryModel, SpvAddressingModelLogical, SpvMemoryModelGLSL450);
    MB(&b, SpvOpTypeFloat, S_FLOAT, 32);
    MB(&b, SpvOpTypeInt, S_INT, 32, 1);
    MB(&b, SpvOpSpecConstant, S_FLOAT, S_C, 0);
    MB(&b, SpvOpSpecConstantOp, S_INT, S_SPEC, SpvOpBitcast, S_C);
    spvbc_context ctx;
    spvbc_module m = parse_new(&b, &ctx);
    assert_int_equal(spvbc_module_validate(m, NULL, NULL), SPVBC_ERROR_VALIDATION_FAILED);
    assert_string_equal(spvbc_context_diagnostic(ctx, 0)->rule, "S7");
    spvbc_lower_summary sum = SPVBC_LOWER_SUMMARY_INIT;
    assert_int_equal(spvbc_module_lower(m, NULL, &sum), SPVBC_PARTIAL);
    assert_int_equal(sum.refused, 1);
    assert_int_equal(sum.rewritten, 0);
    spvbc_context_destroy(ctx);
    mb_free(&b);
}

static void test_warnings_and_notes(void **state)
{
    (void)state;
    enum { W_INT = 1, W_PTR_F, W_PTR_W, W_VOID, W_FN, W_F, W_L, W_P, W_A, W_B, W_C, W_D, W_BOUND };
    mb b = {0};
    mb_header(&b, 0x00010000u, W_BOUND);
    MB(&b, SpvOpCapability, SpvCapabilityKernel);
    MB(&b, SpvOpCapability, SpvCapabilityAddresses);
    MB(&b, SpvOpCapability, SpvCapabilityLinkage);
    MB(&b, SpvOpMemoryModel, SpvAddressingModelPhysical64, SpvMemoryModelOpenCL);
    MB(&b, SpvOpTypeInt, W_INT, 32, 0);
    MB(&b, SpvOpTypeVoid, W_VOID);
    MB(&b, SpvOpTypePointer, W_PTR_F, SpvStorageClassFunction, W_INT);
    MB(&b, SpvOpTypePointer, W_PTR_W, SpvStorageClassWorkgroup, W_INT);
    MB(&b, SpvOpTypeFunction, W_FN, W_VOID, W_PTR_F);
    MB(&b, SpvOpFunction, W_VOID, W_F, 0, W_FN);
    MB(&b, SpvOpFunctionParameter, W_PTR_F, W_P);
    MB(&b, SpvOpLabel, W_L);
    MB(&b, SpvOpLoad, W_INT, W_A, W_P);
    MB(&b, SpvOpBitcast, W_INT, W_B, W_A); /* S2: same type */
    MB(&b, SpvOpBitcast, W_PTR_W, W_C, W_P); /* S4: storage classes differ */
    MB(&b, SpvOpBitcast, W_PTR_F, W_D, W_A); /* S3-WIDTH: 32-bit int, 64-bit pointers */
    mb_fn_end(&b);
    assert_true(spirv_val(b.w, b.n)); /* spirv-val checks none of these */
    spvbc_context ctx;
    spvbc_module m = parse_new(&b, &ctx);
    spvbc_validate_summary sum = SPVBC_VALIDATE_SUMMARY_INIT;
    assert_int_equal(spvbc_module_validate(m, NULL, &sum), SPVBC_SUCCESS);
    assert_int_equal(sum.errors, 0);
    assert_int_equal(sum.warnings, 3);
    assert_string_equal(spvbc_context_diagnostic(ctx, 0)->rule, "S2");
    assert_string_equal(spvbc_context_diagnostic(ctx, 1)->rule, "S4");
    assert_string_equal(spvbc_context_diagnostic(ctx, 2)->rule, "S3-WIDTH");
    spvbc_validate_options werror = {sizeof(spvbc_validate_options),
                                     SPVBC_VALIDATE_WARNINGS_AS_ERRORS};
    assert_int_equal(spvbc_module_validate(m, &werror, &sum), SPVBC_ERROR_VALIDATION_FAILED);
    assert_int_equal(sum.errors, 3);
    /* Lowering leaves valid-but-suspicious bitcasts alone: byte-identical. */
    spvbc_lower_summary ls = SPVBC_LOWER_SUMMARY_INIT;
    assert_int_equal(spvbc_module_lower(m, NULL, &ls), SPVBC_SUCCESS);
    assert_int_equal(ls.rewritten + ls.refused, 0);
    spvbc_context_destroy(ctx);
    mb_free(&b);
}

static void test_copy_words_and_bytes(void **state)
{
    (void)state;
    kmod k;
    build_kernel(&k);
    spvbc_context ctx;
    spvbc_module m;
    assert_int_equal(spvbc_context_create(NULL, &ctx), SPVBC_SUCCESS);
    uint32_t *copy = malloc(k.b.n * 4);
    memcpy(copy, k.b.w, k.b.n * 4);
    spvbc_parse_options po = {sizeof(spvbc_parse_options), 0, 1};
    assert_int_equal(spvbc_module_parse(ctx, copy, k.b.n, &po, &m), SPVBC_SUCCESS);
    memset(copy, 0xAB, k.b.n * 4); /* the module must not read the caller's words any more */
    free(copy);
    assert_int_equal(spvbc_module_validate(m, NULL, NULL), SPVBC_ERROR_VALIDATION_FAILED);
    spvbc_module_destroy(m);
    /* Misaligned bytes are copied. */
    unsigned char *raw = malloc(k.b.n * 4 + 1);
    memcpy(raw + 1, k.b.w, k.b.n * 4);
    assert_int_equal(spvbc_module_parse_bytes(ctx, raw + 1, k.b.n * 4, NULL, &m), SPVBC_SUCCESS);
    free(raw);
    spvbc_lower_summary sum = SPVBC_LOWER_SUMMARY_INIT;
    assert_int_equal(spvbc_module_lower(m, NULL, &sum), SPVBC_SUCCESS);
    assert_int_equal(sum.rewritten, 2);
    spvbc_context_destroy(ctx);
    mb_free(&k.b);
}

/* Growable structs: struct_size below 0.2.0's size is an argument error for every struct; a
 * later version's larger struct is accepted when its unknown fields are zero (else
 * SPVBC_ERROR_UNSUPPORTED), and an output struct's unknown tail is left alone. */
typedef struct future_lower_options {
    spvbc_lower_options known;
    uint32_t later_field;
} future_lower_options;
typedef struct future_lower_summary {
    spvbc_lower_summary known;
    uint64_t later_field;
} future_lower_summary;

static void *plain_alloc(void *user, size_t size)
{
    (void)user;
    return malloc(size);
}

static void plain_free(void *user, void *ptr, size_t size)
{
    (void)user;
    (void)size;
    free(ptr);
}

static void test_abi_struct_size(void **state)
{
    (void)state;
    kmod k;
    build_kernel(&k);
    spvbc_context ctx;
    spvbc_module m = parse_new(&k.b, &ctx);

    /* Too small: 0, and one byte short of 0.2.0's last field. */
#define SHORT(type, last) (i ? offsetof(type, last) + sizeof(((type *)0)->last) - 1 : 0)
    for (int i = 0; i < 2; ++i) {
        spvbc_lower_options lo = SPVBC_LOWER_OPTIONS_INIT;
        lo.struct_size = SHORT(spvbc_lower_options, classes);
        assert_int_equal(spvbc_module_lower(m, &lo, NULL), SPVBC_ERROR_INVALID_ARGUMENT);
        spvbc_lower_summary ls = SPVBC_LOWER_SUMMARY_INIT;
        ls.struct_size = SHORT(spvbc_lower_summary, new_id_bound);
        assert_int_equal(spvbc_module_lower(m, NULL, &ls), SPVBC_ERROR_INVALID_ARGUMENT);
        spvbc_validate_options vo = SPVBC_VALIDATE_OPTIONS_INIT;
        vo.struct_size = SHORT(spvbc_validate_options, flags);
        assert_int_equal(spvbc_module_validate(m, &vo, NULL), SPVBC_ERROR_INVALID_ARGUMENT);
        spvbc_validate_summary vs = SPVBC_VALIDATE_SUMMARY_INIT;
        vs.struct_size = SHORT(spvbc_validate_summary, lowerable);
        assert_int_equal(spvbc_module_validate(m, NULL, &vs), SPVBC_ERROR_INVALID_ARGUMENT);
        spvbc_module_info info = SPVBC_MODULE_INFO_INIT;
        info.struct_size = SHORT(spvbc_module_info, byte_swapped);
        assert_int_equal(spvbc_module_get_info(m, &info), SPVBC_ERROR_INVALID_ARGUMENT);
        spvbc_parse_options po = SPVBC_PARSE_OPTIONS_INIT;
        po.struct_size = SHORT(spvbc_parse_options, copy_words);
        spvbc_module m2 = NULL;
        assert_int_equal(spvbc_module_parse(ctx, k.b.w, k.b.n, &po, &m2),
                         SPVBC_ERROR_INVALID_ARGUMENT);
        assert_int_equal(spvbc_module_parse_bytes(ctx, k.b.w, k.b.n * 4, &po, &m2),
                         SPVBC_ERROR_INVALID_ARGUMENT);
        assert_null(m2);
        spvbc_type_desc f4 = {SPVBC_SCALAR_FLOAT, 32, 4, 0}, f3 = {SPVBC_SCALAR_FLOAT, 32, 3, 0};
        spvbc_plan_options plo = SPVBC_PLAN_OPTIONS_INIT;
        plo.struct_size = SHORT(spvbc_plan_options, pad);
        spvbc_plan plan = SPVBC_PLAN_INIT;
        assert_int_equal(spvbc_astype_plan(&f4, &f3, &plo, &plan), SPVBC_ERROR_INVALID_ARGUMENT);
        plan.struct_size = SHORT(spvbc_plan, ops);
        assert_int_equal(spvbc_astype_plan(&f4, &f3, NULL, &plan), SPVBC_ERROR_INVALID_ARGUMENT);
        spvbc_allocator al = SPVBC_ALLOCATOR_INIT(plain_alloc, plain_free, NULL);
        al.struct_size = SHORT(spvbc_allocator, user);
        spvbc_context c2 = NULL;
        assert_int_equal(spvbc_context_create(&al, &c2), SPVBC_ERROR_INVALID_ARGUMENT);
        assert_null(c2);
    }
#undef SHORT

    /* A later version's options: accepted with the new field zero, refused when it is set. */
    future_lower_options fo;
    memset(&fo, 0, sizeof fo);
    fo.known.struct_size = sizeof fo;
    fo.known.pad = SPVBC_PAD_ZERO;
    future_lower_summary fs;
    memset(&fs, 0, sizeof fs);
    fs.known.struct_size = sizeof fs;
    fs.later_field = 0x0123456789abcdefu;
    assert_int_equal(spvbc_module_lower(m, &fo.known, &fs.known), SPVBC_SUCCESS);
    assert_int_equal(fs.known.struct_size, sizeof fs); /* the caller's size stays */
    assert_int_equal(fs.known.rewritten, 2);
    assert_int_equal(fs.known.constants_added, 0); /* pad zero was read: nothing to pad here */
    assert_true(fs.later_field == 0x0123456789abcdefu); /* the unknown tail is not touched */
    fo.later_field = 1;
    assert_int_equal(spvbc_module_lower(m, &fo.known, &fs.known), SPVBC_ERROR_UNSUPPORTED);

    /* The INIT macros give the defaults the NULL options stand for. */
    spvbc_lower_summary a = SPVBC_LOWER_SUMMARY_INIT, b = SPVBC_LOWER_SUMMARY_INIT;
    spvbc_lower_options dflt = SPVBC_LOWER_OPTIONS_INIT;
    assert_int_equal(spvbc_module_lower(m, NULL, &a), SPVBC_SUCCESS);
    assert_int_equal(spvbc_module_lower(m, &dflt, &b), SPVBC_SUCCESS);
    assert_memory_equal(&a, &b, sizeof a);
    spvbc_context_destroy(ctx);
    mb_free(&k.b);
}

/* The allocator contract: an allocator whose blocks are aligned to exactly
 * SPVBC_ALLOCATOR_ALIGNMENT (never to twice that) carries the whole pipeline; UBSan (the CI's
 * sanitizer build) reports any access that needs more.  Every size asked is non-zero and every
 * free names a live block with its size. */
typedef struct exact_align {
    size_t live, bytes, calls, bad;
} exact_align;

static void *exact_alloc(void *user, size_t size)
{
    exact_align *a = (exact_align *)user;
    a->calls++;
    if (size == 0) a->bad++;
    /* Room for the raw pointer and the size below the block, and for aligning it. */
    unsigned char *raw = (unsigned char *)malloc(size + 6 * SPVBC_ALLOCATOR_ALIGNMENT);
    if (!raw) return NULL;
    uintptr_t base = ((uintptr_t)raw + 4 * SPVBC_ALLOCATOR_ALIGNMENT - 1) &
                     ~(uintptr_t)(2 * SPVBC_ALLOCATOR_ALIGNMENT - 1);
    unsigned char *block = (unsigned char *)base + SPVBC_ALLOCATOR_ALIGNMENT;
    memcpy(block - sizeof raw, &raw, sizeof raw);
    memcpy(block - 2 * sizeof size, &size, sizeof size);
    a->live++;
    a->bytes += size;
    return block;
}

static void exact_free(void *user, void *ptr, size_t size)
{
    exact_align *a = (exact_align *)user;
    unsigned char *block = (unsigned char *)ptr, *raw;
    size_t asked;
    if (!ptr) {
        a->bad++;
        return;
    }
    memcpy(&raw, block - sizeof raw, sizeof raw);
    memcpy(&asked, block - 2 * sizeof asked, sizeof asked);
    if (asked != size) a->bad++;
    a->live--;
    a->bytes -= asked;
    free(raw);
}

static void test_allocator_alignment(void **state)
{
    (void)state;
    assert_true(SPVBC_ALLOCATOR_ALIGNMENT >= sizeof(size_t)); /* room for the size above */
    exact_align a = {0, 0, 0, 0};
    spvbc_allocator al = SPVBC_ALLOCATOR_INIT(exact_alloc, exact_free, &a);
    kmod k;
    build_kernel(&k);
    spvbc_context ctx;
    assert_int_equal(spvbc_context_create(&al, &ctx), SPVBC_SUCCESS);
    assert_int_equal((uintptr_t)ctx % SPVBC_ALLOCATOR_ALIGNMENT, 0);
    assert_int_equal((uintptr_t)ctx % (2 * SPVBC_ALLOCATOR_ALIGNMENT), SPVBC_ALLOCATOR_ALIGNMENT);
    for (int copy = 0; copy < 2; ++copy) {
        spvbc_parse_options po = SPVBC_PARSE_OPTIONS_INIT;
        po.copy_words = copy;
        spvbc_module m;
        assert_int_equal(spvbc_module_parse(ctx, k.b.w, k.b.n, &po, &m), SPVBC_SUCCESS);
        spvbc_validate_options vo = SPVBC_VALIDATE_OPTIONS_INIT;
        vo.flags = SPVBC_VALIDATE_NOTES;
        assert_int_equal(spvbc_module_validate(m, &vo, NULL), SPVBC_ERROR_VALIDATION_FAILED);
        for (size_t i = 0; i < spvbc_context_diagnostic_count(ctx); ++i)
            assert_non_null(spvbc_context_diagnostic(ctx, i)->message);
        spvbc_lower_options lo = SPVBC_LOWER_OPTIONS_INIT;
        lo.pad = SPVBC_PAD_ZERO;
        assert_int_equal(spvbc_module_lower(m, &lo, NULL), SPVBC_SUCCESS);
        for (size_t i = 0; i < spvbc_context_diagnostic_count(ctx); ++i)
            assert_non_null(spvbc_context_diagnostic(ctx, i)->message);
        const uint32_t *out;
        size_t n;
        assert_int_equal(spvbc_module_get_words(m, &out, &n), SPVBC_SUCCESS);
        assert_true(spirv_val(out, n));
        spvbc_module_destroy(m);
    }
    spvbc_context_destroy(ctx);
    assert_true(a.calls > 10);
    assert_int_equal(a.bad, 0);
    assert_int_equal(a.live, 0);
    assert_int_equal(a.bytes, 0);
    mb_free(&k.b);
}

/* A diagnostic pointer stays valid until the next module call or the context's end, even when
 * a later call adds the R-MEMORY diagnostic: spvbc_module_get_words() runs out of memory after
 * the caller read the lowering's k findings (k = 1..40 crosses every growth of the store's
 * arrays; ASan reports a read of a moved one). */
static void test_diagnostic_pointers_survive_oom(void **state)
{
    (void)state;
    for (uint32_t k = 1; k <= 40; ++k) {
        mb b = {0};
        mb_header(&b, 0x00010000u, ID_BOUND + k);
        MB(&b, SpvOpCapability, SpvCapabilityKernel);
        MB(&b, SpvOpCapability, SpvCapabilityAddresses);
        MB(&b, SpvOpCapability, SpvCapabilityLinkage);
        MB(&b, SpvOpMemoryModel, SpvAddressingModelPhysical64, SpvMemoryModelOpenCL);
        MB(&b, SpvOpTypeVoid, ID_VOID);
        MB(&b, SpvOpTypeFloat, ID_FLOAT, 32);
        MB(&b, SpvOpTypeVector, ID_V4F, ID_FLOAT, 4);
        MB(&b, SpvOpTypeVector, ID_V3F, ID_FLOAT, 3);
        MB(&b, SpvOpTypePointer, ID_PTR4, SpvStorageClassCrossWorkgroup, ID_V4F);
        MB(&b, SpvOpTypeFunction, ID_FN, ID_VOID, ID_PTR4);
        MB(&b, SpvOpFunction, ID_VOID, ID_F, 0, ID_FN);
        MB(&b, SpvOpFunctionParameter, ID_PTR4, ID_P);
        MB(&b, SpvOpLabel, ID_L);
        MB(&b, SpvOpLoad, ID_V4F, ID_X, ID_P);
        for (uint32_t i = 0; i < k; ++i)
            MB(&b, SpvOpBitcast, ID_V3F, ID_BOUND + i, ID_X);
        mb_fn_end(&b);

        test_alloc ta;
        memset(&ta, 0, sizeof ta);
        spvbc_allocator al = test_alloc_allocator(&ta);
        spvbc_context ctx;
        spvbc_module m;
        assert_int_equal(spvbc_context_create(&al, &ctx), SPVBC_SUCCESS);
        assert_int_equal(spvbc_module_parse(ctx, b.w, b.n, NULL, &m), SPVBC_SUCCESS);
        spvbc_lower_summary sum = SPVBC_LOWER_SUMMARY_INIT;
        assert_int_equal(spvbc_module_lower(m, NULL, &sum), SPVBC_SUCCESS);
        assert_int_equal(sum.rewritten, k);
        const size_t n = spvbc_context_diagnostic_count(ctx);
        assert_int_equal(n, k); /* one L-LOWERED note each */
        const spvbc_diagnostic **held = (const spvbc_diagnostic **)malloc(n * sizeof *held);
        char(*text)[256] = (char(*)[256])malloc(n * sizeof *text);
        assert_non_null(held);
        assert_non_null(text);
        for (size_t i = 0; i < n; ++i) {
            held[i] = spvbc_context_diagnostic(ctx, i);
            snprintf(text[i], sizeof text[i], "%s", held[i]->message);
        }
        /* get_words' one allocation fails (and every later one: nothing may be needed). */
        ta.fail_at = ta.calls + 1;
        ta.sticky = 1;
        const uint32_t *out;
        size_t out_n;
        assert_int_equal(spvbc_module_get_words(m, &out, &out_n), SPVBC_ERROR_OUT_OF_MEMORY);
        assert_int_equal(spvbc_context_diagnostic_count(ctx), n + 1);
        assert_string_equal(spvbc_context_diagnostic(ctx, n)->rule, "R-MEMORY");
        for (size_t i = 0; i < n; ++i) {
            assert_ptr_equal(spvbc_context_diagnostic(ctx, i), held[i]);
            assert_string_equal(held[i]->message, text[i]);
            assert_string_equal(held[i]->rule, "L-LOWERED");
        }
        /* Twice out of memory: still one R-MEMORY. */
        assert_int_equal(spvbc_module_get_words(m, &out, &out_n), SPVBC_ERROR_OUT_OF_MEMORY);
        assert_int_equal(spvbc_context_diagnostic_count(ctx), n + 1);
        ta.fail_at = 0;
        ta.sticky = 0;
        spvbc_module_destroy(m);
        spvbc_context_destroy(ctx);
        assert_int_equal(ta.live_blocks, 0);
        free(held);
        free(text);
        mb_free(&b);
    }
}

/* spvbc_module_destroy() reads none of the caller's words and allocates nothing: a driver
 * copies the output, frees the application's words, then destroys the module and reads the
 * findings.  The words are overwritten before they are freed, so a destroy that still read them
 * would make different sentences even without ASan (which reports the read itself). */
static void copy_texts(spvbc_context ctx, char (*texts)[512], size_t *n)
{
    *n = spvbc_context_diagnostic_count(ctx);
    assert_true(*n <= 8);
    for (size_t i = 0; i < *n; ++i) {
        const spvbc_diagnostic *d = spvbc_context_diagnostic(ctx, i);
        snprintf(texts[i], sizeof texts[i], "%s [%s] %s %s:%u", d->message, d->rule,
                 d->result_name ? d->result_name : "-", d->source_file ? d->source_file : "-",
                 d->source_line);
    }
}

static void test_destroy_reads_no_words(void **state)
{
    (void)state;
    kmod k;
    build_kernel(&k);
    for (int lower = 0; lower < 2; ++lower) {
        /* The reference: read while the module and its words are there. */
        char want[8][512], got[8][512];
        size_t nwant, ngot;
        spvbc_context ctx;
        spvbc_module m = parse_new(&k.b, &ctx);
        if (lower)
            assert_int_equal(spvbc_module_lower(m, NULL, NULL), SPVBC_SUCCESS);
        else
            assert_int_equal(spvbc_module_validate(m, NULL, NULL), SPVBC_ERROR_VALIDATION_FAILED);
        copy_texts(ctx, want, &nwant);
        assert_true(nwant >= 2);
        assert_non_null(strstr(want[0], "k.cl")); /* names and lines come from the words */
        spvbc_module_destroy(m);
        spvbc_context_destroy(ctx);

        /* The driver's order: findings unread, words gone, then destroy. */
        uint32_t *words = (uint32_t *)malloc(k.b.n * 4);
        assert_non_null(words);
        memcpy(words, k.b.w, k.b.n * 4);
        test_alloc ta;
        memset(&ta, 0, sizeof ta);
        spvbc_allocator al = test_alloc_allocator(&ta);
        assert_int_equal(spvbc_context_create(&al, &ctx), SPVBC_SUCCESS);
        assert_int_equal(spvbc_module_parse(ctx, words, k.b.n, NULL, &m), SPVBC_SUCCESS);
        if (lower) {
            assert_int_equal(spvbc_module_lower(m, NULL, NULL), SPVBC_SUCCESS);
            const uint32_t *out;
            size_t n;
            assert_int_equal(spvbc_module_get_words(m, &out, &n), SPVBC_SUCCESS);
        } else {
            assert_int_equal(spvbc_module_validate(m, NULL, NULL), SPVBC_ERROR_VALIDATION_FAILED);
        }
        memset(words, 0xFF, k.b.n * 4);
        free(words);
        const size_t calls = ta.calls;
        spvbc_module_destroy(m);
        assert_int_equal(ta.calls, calls); /* destroy allocates nothing */
        copy_texts(ctx, got, &ngot);
        assert_int_equal(ta.calls, calls); /* nor does reading the findings */
        assert_int_equal(ngot, nwant);
        for (size_t i = 0; i < nwant; ++i)
            assert_string_equal(got[i], want[i]);
        spvbc_context_destroy(ctx);
        assert_int_equal(ta.live_blocks, 0);
    }
    mb_free(&k.b);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_version),
        cmocka_unit_test(test_validate_fields),
        cmocka_unit_test(test_lower_properties),
        cmocka_unit_test(test_lower_only_and_pad),
        cmocka_unit_test(test_lower_spec_constant),
        cmocka_unit_test(test_spec_constant_type_order),
        cmocka_unit_test(test_shader_spec_constant_refused),
        cmocka_unit_test(test_warnings_and_notes),
        cmocka_unit_test(test_copy_words_and_bytes),
        cmocka_unit_test(test_abi_struct_size),
        cmocka_unit_test(test_allocator_alignment),
        cmocka_unit_test(test_diagnostic_pointers_survive_oom),
        cmocka_unit_test(test_destroy_reads_no_words),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
