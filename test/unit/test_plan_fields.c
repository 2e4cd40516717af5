/* The public plan and type-name API read back field by field: every op of a plan (its kind, result
 * type, second operand, lane count and all four lanes; the fields an op does not use are 0, as
 * in SPVBC_PLAN_INIT, so that plans compare equal as plain data), the refusals of bool, void and
 * types OpenCL C lacks, the Vector16 need of 8-component vectors, the type descs of the OpenCL C
 * names (is_signed 1 for the signed integers only) and the truncation of names into small
 * buffers (never a byte past `size`).  Expected values come from docs/rules.md and the header. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "spirv_bitcast.h"
#include "opencl_scalars.h"

static spvbc_type_desc desc(const char *name)
{
    spvbc_type_desc d;
    assert_int_equal(spvbc_type_desc_from_opencl(name, &d), SPVBC_SUCCESS);
    return d;
}

static spvbc_plan plan_of(spvbc_type_desc s, spvbc_type_desc d, uint32_t features,
                          spvbc_pad_policy pad)
{
    spvbc_plan_options o = {sizeof(spvbc_plan_options), features, pad};
    spvbc_plan p = SPVBC_PLAN_INIT;
    assert_int_equal(spvbc_astype_plan(&s, &d, &o, &p), SPVBC_SUCCESS);
    return p;
}

/* One expected op: 'B' OpBitcast, 'S' a shuffle of the operand with itself, 'Z' with a null. */
typedef struct op_row {
    char kind;
    const char *type;
    uint32_t lanes[4];
} op_row;

static void expect_op(const spvbc_plan_op *op, const op_row *e)
{
    const spvbc_type_desc t = desc(e->type);
    assert_int_equal(op->kind, e->kind == 'B' ? SPVBC_PLAN_OP_BITCAST : SPVBC_PLAN_OP_SHUFFLE);
    assert_int_equal(op->result_type.kind, t.kind);
    assert_int_equal(op->result_type.width, t.width);
    assert_int_equal(op->result_type.count, t.count);
    assert_int_equal(op->result_type.is_signed, t.is_signed);
    assert_int_equal(op->second, e->kind == 'Z' ? SPVBC_PLAN_SECOND_NULL : SPVBC_PLAN_SECOND_SAME);
    assert_int_equal(op->lane_count, e->kind == 'B' ? 0u : t.count);
    for (uint32_t k = 0; k < 4; ++k)
        assert_int_equal(op->lanes[k], e->lanes[k]);
}

/* Every field of every op of the plans with shuffles, and of bitcasts before and after them. */
static void test_plan_ops_exact(void **state)
{
    (void)state;
    const uint32_t U = SPVBC_LANE_UNDEF;
    static const struct {
        const char *src, *dst;
        spvbc_pad_policy pad;
        spvbc_astype_class cls;
        uint32_t op_count;
        op_row ops[2];
    } rows[] = {
        {"float4", "float3", SPVBC_PAD_UNDEF, SPVBC_ASTYPE_4_TO_3, 1, {{'S', "float3", {0, 1, 2}}}},
        {"float4",
         "int3",
         SPVBC_PAD_UNDEF,
         SPVBC_ASTYPE_4_TO_3,
         2,
         {{'B', "int4", {0}}, {'S', "int3", {0, 1, 2}}}},
        {"long2",
         "uint3",
         SPVBC_PAD_UNDEF,
         SPVBC_ASTYPE_VEC3_DEST,
         2,
         {{'B', "uint4", {0}}, {'S', "uint3", {0, 1, 2}}}},
        {"int",
         "char3",
         SPVBC_PAD_ZERO,
         SPVBC_ASTYPE_VEC3_DEST,
         2,
         {{'B', "char4", {0}}, {'S', "char3", {0, 1, 2}}}},
        {"float3",
         "long2",
         SPVBC_PAD_UNDEF,
         SPVBC_ASTYPE_VEC3_SOURCE,
         2,
         {{'S', "float4", {0, 1, 2, U}}, {'B', "long2", {0}}}},
        {"short3",
         "half4",
         SPVBC_PAD_ZERO,
         SPVBC_ASTYPE_3_TO_4,
         2,
         {{'Z', "short4", {0, 1, 2, 3}}, {'B', "half4", {0}}}},
        {"int", "ushort2", SPVBC_PAD_UNDEF, SPVBC_ASTYPE_COUNT_CHANGE, 1, {{'B', "ushort2", {0}}}},
    };
    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; ++i) {
        const spvbc_plan p = plan_of(desc(rows[i].src), desc(rows[i].dst), 0, rows[i].pad);
        assert_int_equal(p.refusal, SPVBC_PLAN_REFUSAL_NONE);
        assert_int_equal(p.cls, rows[i].cls);
        assert_int_equal(p.op_count, rows[i].op_count);
        for (uint32_t k = 0; k < p.op_count; ++k)
            expect_op(&p.ops[k], &rows[i].ops[k]);
    }
}

/* as_type excludes bool and void on either side; a width or count OpenCL C lacks is BAD_TYPE,
 * also for floats. */
static void test_plan_excluded_types(void **state)
{
    (void)state;
    const spvbc_type_desc i32 = desc("int");
    const spvbc_type_desc v = {SPVBC_SCALAR_VOID, 0, 1, 0}, b = {SPVBC_SCALAR_BOOL, 0, 1, 0};
    const spvbc_type_desc f24 = {SPVBC_SCALAR_FLOAT, 24, 1, 0}, f8 = {SPVBC_SCALAR_FLOAT, 8, 4, 0};
    static const struct {
        int src, dst; /* 0 int, 1 void, 2 bool, 3 float24, 4 float8 x4 */
        spvbc_plan_refusal refusal;
    } rows[] = {
        {1, 0, SPVBC_PLAN_REFUSAL_BOOL_OR_VOID}, {0, 1, SPVBC_PLAN_REFUSAL_BOOL_OR_VOID},
        {0, 2, SPVBC_PLAN_REFUSAL_BOOL_OR_VOID}, {2, 0, SPVBC_PLAN_REFUSAL_BOOL_OR_VOID},
        {3, 0, SPVBC_PLAN_REFUSAL_BAD_TYPE},     {0, 3, SPVBC_PLAN_REFUSAL_BAD_TYPE},
        {4, 0, SPVBC_PLAN_REFUSAL_BAD_TYPE},
    };
    const spvbc_type_desc *t[] = {&i32, &v, &b, &f24, &f8};
    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; ++i) {
        const spvbc_plan p = plan_of(*t[rows[i].src], *t[rows[i].dst], 0, SPVBC_PAD_UNDEF);
        assert_int_equal(p.refusal, rows[i].refusal);
        assert_int_equal(p.cls, SPVBC_ASTYPE_EXCLUDED);
        assert_int_equal(p.op_count, 0);
        assert_int_equal(p.defined_by_opencl, 0);
        assert_int_equal(p.exact_lanes, 0);
    }
}

/* 8- and 16-component vectors need Vector16; 4-component ones do not. */
static void test_plan_vector16(void **state)
{
    (void)state;
    const uint32_t no_v16 = SPVBC_FEATURE_ALL_KERNEL & ~SPVBC_FEATURE_VECTOR16;
    const char *const need[][2] = {{"char8", "long"}, {"long", "char8"}, {"short16", "int8"}};
    for (size_t i = 0; i < sizeof need / sizeof need[0]; ++i) {
        spvbc_plan p = plan_of(desc(need[i][0]), desc(need[i][1]), no_v16, SPVBC_PAD_UNDEF);
        assert_int_equal(p.refusal, SPVBC_PLAN_REFUSAL_MISSING_FEATURE);
        assert_int_equal(p.op_count, 0);
        p = plan_of(desc(need[i][0]), desc(need[i][1]), SPVBC_FEATURE_ALL_KERNEL, SPVBC_PAD_UNDEF);
        assert_int_equal(p.refusal, SPVBC_PLAN_REFUSAL_NONE);
        assert_int_equal(p.op_count, 1);
    }
    const spvbc_plan p = plan_of(desc("char4"), desc("int"), no_v16, SPVBC_PAD_UNDEF);
    assert_int_equal(p.refusal, SPVBC_PLAN_REFUSAL_NONE);
    assert_int_equal(p.cls, SPVBC_ASTYPE_COUNT_CHANGE);
}

/* Each OpenCL C scalar name's desc, exactly (opencl_scalars.h). */
static void test_type_desc_of_names(void **state)
{
    (void)state;
    for (size_t i = 0; i < OPENCL_SCALAR_COUNT; ++i) {
        const opencl_scalar *row = &opencl_scalars[i];
        const spvbc_type_desc d = desc(row->name);
        assert_int_equal(d.kind, row->kind);
        assert_int_equal(d.width, row->width);
        assert_int_equal(d.count, 1);
        assert_int_equal(d.is_signed, row->is_signed);
    }
}

/* Descs OpenCL C has no name for are refused: other widths, counts and kinds. */
static void test_names_refused(void **state)
{
    (void)state;
    const spvbc_type_desc bad[] = {
        {SPVBC_SCALAR_INT, 24, 1, 1},  {SPVBC_SCALAR_INT, 32, 5, 1},
        {SPVBC_SCALAR_FLOAT, 8, 1, 0}, {SPVBC_SCALAR_VOID, 0, 1, 0},
        {SPVBC_SCALAR_VOID, 32, 1, 0}, {(spvbc_scalar_kind)7, 0, 1, 0},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; ++i) {
        char buf[16] = "#";
        assert_int_equal(spvbc_type_desc_opencl_name(&bad[i], buf, sizeof buf),
                         SPVBC_ERROR_INVALID_ARGUMENT);
    }
}

/* A name is cut to size - 1 characters and a NUL, never written past `size`; size 1 gives "". */
static void test_name_truncation(void **state)
{
    (void)state;
    static const struct {
        const char *name;
        size_t size;
        const char *text;
    } rows[] = {{"ulong", 4, "ulo"}, {"long", 4, "lon"},         {"long", 5, "long"},
                {"int", 1, ""},      {"ushort16", 8, "ushort1"}, {"ushort16", 9, "ushort16"}};
    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; ++i) {
        char big[16];
        memset(big, '#', sizeof big);
        const spvbc_type_desc d = desc(rows[i].name);
        assert_int_equal(spvbc_type_desc_opencl_name(&d, big, rows[i].size), SPVBC_SUCCESS);
        const size_t n = strlen(rows[i].text);
        assert_memory_equal(big, rows[i].text, n + 1);
        for (size_t k = n + 1; k < sizeof big; ++k)
            assert_int_equal(big[k], '#');
    }
}

/* Every generation is named by its own name, the oldest too. */
static void test_generation_strings(void **state)
{
    (void)state;
    assert_string_equal(spvbc_generation_string(SPVBC_GENERATION_2023_1), "2023.1");
    assert_string_equal(spvbc_generation_string(SPVBC_GENERATION_2023_1 + 1), "2023.1");
    assert_string_equal(spvbc_generation_string(SPVBC_GENERATION_2025_1), "2025.1");
    assert_string_equal(spvbc_generation_string(SPVBC_GENERATION_2026_4), "2026.4");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_plan_ops_exact),     cmocka_unit_test(test_plan_excluded_types),
        cmocka_unit_test(test_plan_vector16),      cmocka_unit_test(test_type_desc_of_names),
        cmocka_unit_test(test_names_refused),      cmocka_unit_test(test_name_truncation),
        cmocka_unit_test(test_generation_strings),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
