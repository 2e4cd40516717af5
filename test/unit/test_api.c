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
#include "test_api.h"

void library_head(mb *b, uint32_t version, uint32_t bound, uint32_t addressing)
{
    mb_header(b, version, bound);
    MB(b, SpvOpCapability, SpvCapabilityKernel);
    MB(b, SpvOpCapability, SpvCapabilityAddresses);
    MB(b, SpvOpCapability, SpvCapabilityLinkage);
    MB(b, SpvOpMemoryModel, addressing, SpvMemoryModelOpenCL);
}

void load_param_fn(mb *b, uint32_t void_id, uint32_t fnty, uint32_t ptr, uint32_t fn, uint32_t p,
                   uint32_t l, uint32_t type, uint32_t x)
{
    MB(b, SpvOpTypeFunction, fnty, void_id, ptr);
    MB(b, SpvOpFunction, void_id, fn, 0, fnty);
    MB(b, SpvOpFunctionParameter, ptr, p);
    MB(b, SpvOpLabel, l);
    MB(b, SpvOpLoad, type, x, p);
}

void build_kernel(kmod *k)
{
    memset(k, 0, sizeof *k);
    mb *b = &k->b;
    library_head(b, 0x00010000u, ID_BOUND, SpvAddressingModelPhysical64);
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
    load_param_fn(b, ID_VOID, ID_FN, ID_PTR4, ID_F, ID_P, ID_L, ID_V4F, ID_X);
    MB(b, SpvOpLine, ID_FILE, 12, 7);
    k->y_offset = MB(b, SpvOpBitcast, ID_V3F, ID_Y, ID_X);
    k->z_offset = MB(b, SpvOpBitcast, ID_V3I, ID_Z, ID_X);
    mb_fn_end(b);
    /* Instruction index of %y: count the instructions before it. */
    k->y_index = 0;
    for (size_t off = 5; off < k->y_offset; off += k->b.w[off] >> 16)
        k->y_index++;
}

int spirv_val(const uint32_t *w, size_t n)
{
    char msg[1024];
    int v = spvval_check(w, n, msg, sizeof msg);
    if (v != 1) print_error("spirv-val: %s\n", v < 0 ? "could not run" : msg);
    return v == 1;
}

spvbc_module parse_new(const mb *b, spvbc_context *ctx)
{
    spvbc_module m = NULL;
    assert_int_equal(spvbc_context_create(NULL, ctx), SPVBC_SUCCESS);
    assert_int_equal(spvbc_module_parse(*ctx, b->w, b->n, NULL, &m), SPVBC_SUCCESS);
    return m;
}

spvbc_module parse_kernel(kmod *k, spvbc_context *ctx)
{
    build_kernel(k);
    return parse_new(&k->b, ctx);
}

size_t def_offset(const uint32_t *w, size_t n, uint32_t id, int at)
{
    for (size_t off = 5; off < n; off += w[off] >> 16)
        if ((w[off] >> 16) > (uint32_t)at && w[off + (size_t)at] == id) return off;
    return 0;
}

void test_version(void **state)
{
    (void)state;
    assert_int_equal(spvbc_version_number(), SPVBC_VERSION_NUMBER);
    assert_string_equal(spvbc_version_string(), SPVBC_VERSION_STRING);
    char buf[32];
    snprintf(buf, sizeof buf, "%d.%d.%d", SPVBC_VERSION_MAJOR, SPVBC_VERSION_MINOR,
             SPVBC_VERSION_PATCH);
    assert_string_equal(buf, SPVBC_VERSION_STRING);
}

void test_validate_fields(void **state)
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

void test_lower_properties(void **state)
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

void test_lower_only_and_pad(void **state)
{
    (void)state;
    kmod k;
    spvbc_context ctx;
    spvbc_module m = parse_kernel(&k, &ctx);
    /* Only 3->4 selected: both 4->3 sites stay, skipped (not refused), with a warning each
     * that still says they are lowerable. */
    spvbc_lower_options o = {sizeof(spvbc_lower_options), SPVBC_PAD_UNDEF, SPVBC_LOWER_3_TO_4,
                             SPVBC_GENERATION_NEWEST};
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
    spvbc_lower_options bad = {sizeof(spvbc_lower_options), (spvbc_pad_policy)9, 0,
                               SPVBC_GENERATION_NEWEST};
    assert_int_equal(spvbc_module_lower(m, &bad, NULL), SPVBC_ERROR_INVALID_ARGUMENT);
    spvbc_lower_options bad2 = {sizeof(spvbc_lower_options), SPVBC_PAD_UNDEF, 1u << 30,
                                SPVBC_GENERATION_NEWEST};
    assert_int_equal(spvbc_module_lower(m, &bad2, NULL), SPVBC_ERROR_INVALID_ARGUMENT);
    spvbc_context_destroy(ctx);
    mb_free(&k.b);
}

void test_warnings_and_notes(void **state)
{
    (void)state;
    enum { W_INT = 1, W_PTR_F, W_PTR_W, W_VOID, W_FN, W_F, W_L, W_P, W_A, W_B, W_C, W_D, W_BOUND };
    mb b = {0};
    library_head(&b, 0x00010000u, W_BOUND, SpvAddressingModelPhysical64);
    MB(&b, SpvOpTypeInt, W_INT, 32, 0);
    MB(&b, SpvOpTypeVoid, W_VOID);
    MB(&b, SpvOpTypePointer, W_PTR_F, SpvStorageClassFunction, W_INT);
    MB(&b, SpvOpTypePointer, W_PTR_W, SpvStorageClassWorkgroup, W_INT);
    load_param_fn(&b, W_VOID, W_FN, W_PTR_F, W_F, W_P, W_L, W_INT, W_A);
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
                                     SPVBC_VALIDATE_WARNINGS_AS_ERRORS, SPVBC_GENERATION_NEWEST};
    assert_int_equal(spvbc_module_validate(m, &werror, &sum), SPVBC_ERROR_VALIDATION_FAILED);
    assert_int_equal(sum.errors, 3);
    /* Lowering leaves valid-but-suspicious bitcasts alone: byte-identical. */
    spvbc_lower_summary ls = SPVBC_LOWER_SUMMARY_INIT;
    assert_int_equal(spvbc_module_lower(m, NULL, &ls), SPVBC_SUCCESS);
    assert_int_equal(ls.rewritten + ls.refused, 0);
    spvbc_context_destroy(ctx);
    mb_free(&b);
}

/* A generation below the oldest is no generation: validate and lower refuse it (and find
 * nothing); any value from the oldest on selects the newest generation not newer than it. */
void test_generation_argument(void **state)
{
    (void)state;
    kmod k;
    build_kernel(&k);
    spvbc_context ctx;
    spvbc_module m = parse_new(&k.b, &ctx);
    spvbc_validate_options vo = {sizeof(spvbc_validate_options), 0, SPVBC_GENERATION_OLDEST - 1};
    spvbc_validate_summary vs = SPVBC_VALIDATE_SUMMARY_INIT;
    vs.bitcasts_checked = 77;
    assert_int_equal(spvbc_module_validate(m, &vo, &vs), SPVBC_ERROR_INVALID_ARGUMENT);
    assert_int_equal(vs.bitcasts_checked, 77);
    assert_int_equal(spvbc_context_diagnostic_count(ctx), 0);
    spvbc_lower_options lo = {sizeof(spvbc_lower_options), SPVBC_PAD_UNDEF, 0, 1u};
    assert_int_equal(spvbc_module_lower(m, &lo, NULL), SPVBC_ERROR_INVALID_ARGUMENT);
    vo.generation = SPVBC_GENERATION_OLDEST;
    assert_int_equal(spvbc_module_validate(m, &vo, &vs), SPVBC_ERROR_VALIDATION_FAILED);
    assert_int_equal(vs.bitcasts_checked, 2);
    assert_int_equal(vs.lowerable, 2);
    spvbc_context_destroy(ctx);
    mb_free(&k.b);
}

void test_copy_words_and_bytes(void **state)
{
    (void)state;
    kmod k;
    build_kernel(&k);
    spvbc_context ctx;
    spvbc_module m;
    assert_int_equal(spvbc_context_create(NULL, &ctx), SPVBC_SUCCESS);
    uint32_t *copy = malloc(k.b.n * 4);
    memcpy(copy, k.b.w, k.b.n * 4);
    spvbc_parse_options po = SPVBC_PARSE_OPTIONS_INIT;
    po.copy_words = 1;
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

int main(void)
{
#define CASE(name) cmocka_unit_test(name),
    const struct CMUnitTest tests[] = {API_CASES(CASE)};
    return cmocka_run_group_tests(tests, NULL, NULL);
}
