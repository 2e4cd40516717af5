/* Table-driven tests of the pure rules: the SPIR-V OpBitcast checks (V1-V13) and the as_type
 * classification and plan.  Expected values come from docs/rules.md. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "decimal.h"
#include "rules.h"

/* ---- type constructors ------------------------------------------------------------------- */

static spvbc__type scalar(uint32_t kind, uint32_t width)
{
    spvbc__type t;
    memset(&t, 0, sizeof t);
    t.kind = kind;
    t.width = width;
    t.count = 1;
    if (width == 8 && kind == SPVBC__T_INT) t.small = SPVBC__SMALL_INT8;
    if (width == 16) t.small = kind == SPVBC__T_INT ? SPVBC__SMALL_INT16 : SPVBC__SMALL_FLOAT16;
    return t;
}

static spvbc__type vec(uint32_t comp_kind, uint32_t width, uint32_t count)
{
    spvbc__type t = scalar(comp_kind, width);
    t.kind = SPVBC__T_VECTOR;
    t.comp_kind = comp_kind;
    t.count = count;
    return t;
}

static spvbc__type ptr(uint32_t storage)
{
    spvbc__type t;
    memset(&t, 0, sizeof t);
    t.kind = SPVBC__T_POINTER;
    t.storage = storage;
    t.count = 1;
    return t;
}

/* A cooperative matrix (`kind` SPVBC__T_COOPMAT_KHR / _NV) or vector (SPVBC__T_COOPVEC_NV) of
 * `width`-bit `comp` components; shape values `rows`, `cols` (0: a specialization constant,
 * not compared), scope Subgroup, use `use`. */
static spvbc__type coop(uint32_t kind, uint32_t comp, uint32_t width, uint32_t rows, uint32_t cols,
                        uint32_t use)
{
    spvbc__type t = scalar(comp, width);
    t.kind = kind;
    t.comp_kind = comp;
    const uint32_t v[4] = {3, rows, cols, use};
    for (uint32_t i = 0; i < 4; ++i)
        t.shape[i] = (uint16_t)(v[i] || i == SPVBC__SHAPE_USE ? v[i] : SPVBC__SHAPE_UNKNOWN);
    if (kind == SPVBC__T_COOPVEC_NV) {
        t.shape[SPVBC__SHAPE_SCOPE] = t.shape[SPVBC__SHAPE_COLS] = SPVBC__SHAPE_UNKNOWN;
        t.shape[SPVBC__SHAPE_USE] = SPVBC__SHAPE_UNKNOWN;
    }
    return t;
}

static spvbc__type untyped(uint32_t storage)
{
    spvbc__type t = ptr(storage);
    t.untyped = 1;
    return t;
}

enum { I = SPVBC__T_INT, F = SPVBC__T_FLOAT, B = SPVBC__T_BOOL };
enum { KM = SPVBC__T_COOPMAT_KHR, NM = SPVBC__T_COOPMAT_NV, CV = SPVBC__T_COOPVEC_NV };

typedef struct rule_row {
    const char *what;
    spvbc__type result, operand;
    uint32_t version;
    bool psb_ext, shader;
    uint32_t features;
    spvbc__vrule expect;
} rule_row;

#define V(maj, min) (((maj) << 16) | ((min) << 8))

static void test_bitcast_rules(void **state)
{
    (void)state;
    const rule_row rows[] = {
        {"float <- int", scalar(F, 32), scalar(I, 32), V(1, 0), 0, 0, 0, SPVBC__V_OK},
        {"v4float <- v4int", vec(F, 32, 4), vec(I, 32, 4), V(1, 0), 0, 0, 0, SPVBC__V_OK},
        {"v2short <- int (S6)", vec(I, 16, 2), scalar(I, 32), V(1, 0), 0, 0, 0, SPVBC__V_OK},
        {"v3float <- v4float", vec(F, 32, 3), vec(F, 32, 4), V(1, 0), 0, 0, 0, SPVBC__V12},
        {"v4float <- v3float", vec(F, 32, 4), vec(F, 32, 3), V(1, 0), 0, 0, 0, SPVBC__V12},
        {"v4double <- v4float", vec(F, 64, 4), vec(F, 32, 4), V(1, 0), 0, 0, 0, SPVBC__V12},
        {"v3char <- int", vec(I, 8, 3), scalar(I, 32), V(1, 0), 0, 0, 0, SPVBC__V12},
        {"bool result", scalar(B, 0), scalar(I, 32), V(1, 0), 0, 0, 0, SPVBC__V2},
        {"bool operand", scalar(I, 32), scalar(B, 0), V(1, 0), 0, 0, 0, SPVBC__V3},
        {"bool vector result", vec(B, 0, 4), vec(I, 32, 4), V(1, 0), 0, 0, 0, SPVBC__V2},
        {"ptr <- ptr", ptr(5), ptr(5), V(1, 0), 0, 0, 0, SPVBC__V_OK},
        {"ptr <- long, 1.4", ptr(5), scalar(I, 64), V(1, 4), 0, 0, 0, SPVBC__V_OK},
        {"ptr <- v2int, 1.4", ptr(5), vec(I, 32, 2), V(1, 4), 0, 0, 0, SPVBC__V10},
        {"ptr <- v2int, 1.5", ptr(5), vec(I, 32, 2), V(1, 5), 0, 0, 0, SPVBC__V_OK},
        {"ptr <- v2int, 1.3 + ext", ptr(5), vec(I, 32, 2), V(1, 3), 1, 0, 0, SPVBC__V_OK},
        {"ptr <- v4short, 1.5", ptr(5), vec(I, 16, 4), V(1, 5), 0, 0, 0, SPVBC__V8},
        {"ptr <- float, 1.5", ptr(5), scalar(F, 32), V(1, 5), 0, 0, 0, SPVBC__V8},
        {"ptr <- float, 1.0", ptr(5), scalar(F, 32), V(1, 0), 0, 0, 0, SPVBC__V10},
        {"v2int <- ptr, 1.4", vec(I, 32, 2), ptr(5), V(1, 4), 0, 0, 0, SPVBC__V11},
        {"v2int <- ptr, 1.6", vec(I, 32, 2), ptr(5), V(1, 6), 0, 0, 0, SPVBC__V_OK},
        {"v2float <- ptr, 1.6", vec(F, 32, 2), ptr(5), V(1, 6), 0, 0, 0, SPVBC__V9},
        {"double <- ptr, 1.2", scalar(F, 64), ptr(5), V(1, 2), 0, 0, 0, SPVBC__V11},
        {"shader v2short <- int, no Int16", vec(I, 16, 2), scalar(I, 32), V(1, 3), 0, 1, 0,
         SPVBC__V13},
        {"shader v2short <- int, Int16", vec(I, 16, 2), scalar(I, 32), V(1, 3), 0, 1,
         SPVBC_FEATURE_INT16, SPVBC__V_OK},
        {"shader int <- v2half, Int16 only", scalar(I, 32), vec(F, 16, 2), V(1, 3), 0, 1,
         SPVBC_FEATURE_INT16, SPVBC__V13},
        {"shader int <- v4char, Int8", scalar(I, 32), vec(I, 8, 4), V(1, 3), 0, 1,
         SPVBC_FEATURE_INT8, SPVBC__V_OK},
        {"kernel v2short <- int (no storage-only rule)", vec(I, 16, 2), scalar(I, 32), V(1, 0), 0,
         0, 0, SPVBC__V_OK},
        /* The size rule fires before the storage-only rule (spirv-val's order). */
        {"shader v3short <- int", vec(I, 16, 3), scalar(I, 32), V(1, 3), 0, 1, 0, SPVBC__V12},
        /* The types SPIRV-Tools 2025.1 lets OpBitcast touch (and 2023.1 did not), as it judges
           them. */
        {"KHR int32 matrix <- half matrix, same shape (widths not compared)",
         coop(KM, I, 32, 16, 16, 0), coop(KM, F, 16, 16, 16, 0), V(1, 6), 0, 1,
         SPVBC_FEATURE_FLOAT16, SPVBC__V_OK},
        {"KHR matrix <- matrix, other use", coop(KM, I, 16, 16, 16, 1), coop(KM, F, 16, 16, 16, 0),
         V(1, 6), 0, 1, SPVBC_FEATURE_FLOAT16 | SPVBC_FEATURE_INT16, SPVBC__VCM_SHAPE},
        {"KHR matrix <- matrix, other rows", coop(KM, I, 32, 8, 16, 0), coop(KM, F, 32, 16, 16, 0),
         V(1, 6), 0, 1, 0, SPVBC__VCM_SHAPE},
        {"KHR matrix <- matrix, rows a spec constant", coop(KM, I, 32, 0, 16, 0),
         coop(KM, F, 32, 8, 16, 0), V(1, 6), 0, 1, 0, SPVBC__V_OK},
        {"KHR matrix <- NV matrix", coop(KM, I, 32, 16, 16, 0), coop(NM, I, 32, 16, 16, 0), V(1, 6),
         0, 1, 0, SPVBC__VCM_SHAPE},
        {"NV int32 matrix <- half matrix", coop(NM, I, 32, 16, 16, 0), coop(NM, F, 16, 16, 16, 0),
         V(1, 3), 0, 1, SPVBC_FEATURE_FLOAT16, SPVBC__V_OK},
        {"int <- NV matrix", scalar(I, 32), coop(NM, F, 32, 16, 16, 0), V(1, 3), 0, 1, 0,
         SPVBC__VCM},
        {"KHR matrix <- v4int", coop(KM, I, 32, 16, 16, 2), vec(I, 32, 4), V(1, 6), 0, 1, 0,
         SPVBC__VCM},
        {"KHR char matrix <- int matrix, no Int8 (storage-only through components)",
         coop(KM, I, 8, 16, 16, 0), coop(KM, I, 32, 16, 16, 0), V(1, 6), 0, 1, 0, SPVBC__V13},
        {"coopvec uint x8 <- half x8", coop(CV, I, 32, 8, 0, 0), coop(CV, F, 16, 8, 0, 0), V(1, 6),
         0, 1, SPVBC_FEATURE_FLOAT16, SPVBC__V_OK},
        {"coopvec x4 <- x8", coop(CV, I, 32, 4, 0, 0), coop(CV, I, 32, 8, 0, 0), V(1, 6), 0, 1, 0,
         SPVBC__VCV_DIM},
        {"v4uint <- coopvec x4", vec(I, 32, 4), coop(CV, I, 32, 4, 0, 0), V(1, 6), 0, 1, 0,
         SPVBC__VCV},
        {"untyped ptr <- long, 1.4", untyped(5), scalar(I, 64), V(1, 4), 0, 0, 0, SPVBC__V_OK},
        {"untyped ptr <- typed ptr", untyped(5), ptr(5), V(1, 4), 0, 0, 0, SPVBC__V_OK},
        {"v2int <- untyped ptr, 1.4", vec(I, 32, 2), untyped(5), V(1, 4), 0, 0, 0, SPVBC__V11},
        {"v2int <- untyped ptr, 1.5", vec(I, 32, 2), untyped(12), V(1, 5), 0, 1, 0, SPVBC__V_OK},
        {"untyped ptr <- float, 1.6", untyped(12), scalar(F, 32), V(1, 6), 0, 1, 0, SPVBC__V8},
    };
    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; ++i) {
        const rule_row *r = &rows[i];
        spvbc__rule_env env;
        env.version = r->version;
        env.psb_gate = r->version >= V(1, 5) || r->psb_ext;
        env.shader = r->shader;
        env.features = r->features;
        env.long_vector = false;
        env.generation = SPVBC_GENERATION_2025_1; /* these rows are 2025.1's; 2026.4's below */
        spvbc__vrule got = spvbc__check_bitcast(&env, &r->result, &r->operand);
        if (got != r->expect)
            fail_msg("row %zu (%s): expected %s, got %s", i, r->what, spvbc__vrule_id(r->expect),
                     spvbc__vrule_id(got));
    }
    spvbc__rule_env env = {V(1, 0), false, false, 0, false, SPVBC_GENERATION_2026_4};
    spvbc__type f = scalar(F, 32);
    assert_int_equal(spvbc__check_bitcast(&env, &f, NULL), SPVBC__V1);
}

/* ---- the as_type classification --------------------------------------------------------- */

static const char *const k_names[] = {"char", "uchar", "short", "ushort", "half",  "int",
                                      "uint", "float", "long",  "ulong",  "double"};
static const unsigned k_counts[] = {1, 2, 3, 4, 8, 16};

/* The sheet: over the 66 types, 710 ordered pairs are legal and 3646 are size errors. */
static void test_pair_counts(void **state)
{
    (void)state;
    spvbc_type_desc t[66];
    size_t n = 0;
    for (size_t i = 0; i < 11; ++i)
        for (size_t c = 0; c < 6; ++c) {
            char name[16];
            snprintf(name, sizeof name, c ? "%s%u" : "%s", k_names[i], k_counts[c]);
            assert_int_equal(spvbc_type_desc_from_opencl(name, &t[n]), SPVBC_SUCCESS);
            char back[16];
            assert_int_equal(spvbc_type_desc_opencl_name(&t[n], back, sizeof back), SPVBC_SUCCESS);
            assert_string_equal(back, name);
            ++n;
        }
    size_t legal = 0, size_errors = 0, by_class[9] = {0};
    for (size_t a = 0; a < n; ++a)
        for (size_t b = 0; b < n; ++b) {
            spvbc_plan p = SPVBC_PLAN_INIT;
            assert_int_equal(spvbc_astype_plan(&t[a], &t[b], NULL, &p), SPVBC_SUCCESS);
            assert_true((unsigned)p.cls <= SPVBC_ASTYPE_EXCLUDED);
            by_class[p.cls]++;
            if (p.cls == SPVBC_ASTYPE_SIZE_ERROR)
                ++size_errors;
            else
                ++legal;
            assert_true(p.op_count <= 3);
            if (p.refusal == SPVBC_PLAN_REFUSAL_NONE && p.cls != SPVBC_ASTYPE_IDENTITY) {
                /* The last op produces the destination type. */
                const spvbc_type_desc *rt = &p.ops[p.op_count - 1].result_type;
                assert_int_equal(rt->count, t[b].count);
                assert_int_equal(rt->width, t[b].width);
                assert_int_equal(rt->kind, t[b].kind);
            }
        }
    assert_int_equal(legal, 710);
    assert_int_equal(size_errors, 3646);
    /* The 66 pairs of a type with itself are identity; int/uint-style pairs are distinct
     * descs here (is_signed differs) and count as same-count. */
    assert_int_equal(by_class[SPVBC_ASTYPE_IDENTITY], 66);
    assert_int_equal(by_class[SPVBC_ASTYPE_EXCLUDED], 0);
}

typedef struct plan_row {
    const char *src, *dst;
    spvbc_pad_policy pad;
    spvbc_astype_class cls;
    int defined;
    int direct_valid;
    uint32_t op_count;
    /* ops: 'B' bitcast, 'S' shuffle, 'Z' shuffle with a null second operand */
    const char *ops;
    uint32_t last_lane; /* lane 3 of the pad shuffle when there is one */
    uint32_t exact; /* exact_lanes */
} plan_row;

static void test_plans(void **state)
{
    (void)state;
    const uint32_t U = SPVBC_LANE_UNDEF;
    const plan_row rows[] = {
        {"float4", "int4", SPVBC_PAD_UNDEF, SPVBC_ASTYPE_SAME_COUNT, 1, 1, 1, "B", 0, 0xf},
        {"float4", "float3", SPVBC_PAD_UNDEF, SPVBC_ASTYPE_4_TO_3, 1, 0, 1, "S", 0, 0x7},
        {"float4", "int3", SPVBC_PAD_UNDEF, SPVBC_ASTYPE_4_TO_3, 1, 0, 2, "BS", 0, 0x7},
        {"float3", "float4", SPVBC_PAD_UNDEF, SPVBC_ASTYPE_3_TO_4, 0, 0, 1, "S", U, 0x7},
        {"float3", "float4", SPVBC_PAD_ZERO, SPVBC_ASTYPE_3_TO_4, 0, 0, 1, "Z", 3, 0xf},
        {"float3", "float4", SPVBC_PAD_ERROR, SPVBC_ASTYPE_3_TO_4, 0, 0, 0, "", 0, 0},
        {"float3", "int4", SPVBC_PAD_UNDEF, SPVBC_ASTYPE_3_TO_4, 0, 0, 2, "SB", U, 0x7},
        {"float3", "long2", SPVBC_PAD_UNDEF, SPVBC_ASTYPE_VEC3_SOURCE, 0, 0, 2, "SB", U, 0x1},
        {"float3", "long2", SPVBC_PAD_ZERO, SPVBC_ASTYPE_VEC3_SOURCE, 0, 0, 2, "ZB", 3, 0x3},
        {"char3", "int", SPVBC_PAD_UNDEF, SPVBC_ASTYPE_VEC3_SOURCE, 0, 0, 2, "SB", U, 0x0},
        {"int", "char3", SPVBC_PAD_UNDEF, SPVBC_ASTYPE_VEC3_DEST, 0, 0, 2, "BS", 0, 0x7},
        {"long2", "int3", SPVBC_PAD_UNDEF, SPVBC_ASTYPE_VEC3_DEST, 0, 0, 2, "BS", 0, 0x7},
        {"int", "short2", SPVBC_PAD_UNDEF, SPVBC_ASTYPE_COUNT_CHANGE, 0, 1, 1, "B", 0, 0x3},
        {"int4", "short8", SPVBC_PAD_UNDEF, SPVBC_ASTYPE_COUNT_CHANGE, 0, 1, 1, "B", 0, 0xff},
        {"short3", "half3", SPVBC_PAD_UNDEF, SPVBC_ASTYPE_SAME_COUNT, 1, 1, 1, "B", 0, 0x7},
        {"float4", "double4", SPVBC_PAD_UNDEF, SPVBC_ASTYPE_SIZE_ERROR, 0, 0, 0, "", 0, 0},
        {"uint", "uint", SPVBC_PAD_UNDEF, SPVBC_ASTYPE_IDENTITY, 1, 0, 0, "", 0, 0x1},
    };
    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; ++i) {
        const plan_row *r = &rows[i];
        spvbc_type_desc s, d;
        assert_int_equal(spvbc_type_desc_from_opencl(r->src, &s), SPVBC_SUCCESS);
        assert_int_equal(spvbc_type_desc_from_opencl(r->dst, &d), SPVBC_SUCCESS);
        spvbc_plan_options o = {sizeof(spvbc_plan_options), 0, r->pad};
        spvbc_plan p = SPVBC_PLAN_INIT;
        assert_int_equal(spvbc_astype_plan(&s, &d, &o, &p), SPVBC_SUCCESS);
        if (p.cls != r->cls || p.op_count != r->op_count || p.defined_by_opencl != r->defined ||
            p.direct_bitcast_valid != r->direct_valid || p.exact_lanes != r->exact)
            fail_msg("row %zu as_%s(%s): class %s ops %u defined %d direct %d exact 0x%x", i,
                     r->dst, r->src, spvbc_astype_class_string(p.cls), p.op_count,
                     p.defined_by_opencl, p.direct_bitcast_valid, p.exact_lanes);
        for (uint32_t k = 0; k < p.op_count; ++k) {
            const spvbc_plan_op *op = &p.ops[k];
            char c = op->kind == SPVBC_PLAN_OP_BITCAST      ? 'B'
                     : op->second == SPVBC_PLAN_SECOND_NULL ? 'Z'
                                                            : 'S';
            if (c != r->ops[k]) fail_msg("row %zu: op %u is %c, expected %c", i, k, c, r->ops[k]);
            if (op->kind == SPVBC_PLAN_OP_SHUFFLE) {
                assert_int_equal(op->lane_count, op->result_type.count);
                assert_int_equal(op->lanes[0], 0);
                assert_int_equal(op->lanes[1], 1);
                assert_int_equal(op->lanes[2], 2);
                if (op->lane_count == 4) assert_int_equal(op->lanes[3], r->last_lane);
            }
        }
    }
}

static void test_plan_refusals(void **state)
{
    (void)state;
    spvbc_type_desc half2, i32, b, dbl, c16;
    assert_int_equal(spvbc_type_desc_from_opencl("half2", &half2), SPVBC_SUCCESS);
    assert_int_equal(spvbc_type_desc_from_opencl("int", &i32), SPVBC_SUCCESS);
    assert_int_equal(spvbc_type_desc_from_opencl("double", &dbl), SPVBC_SUCCESS);
    assert_int_equal(spvbc_type_desc_from_opencl("char16", &c16), SPVBC_SUCCESS);
    b = i32;
    b.kind = SPVBC_SCALAR_BOOL;
    spvbc_plan p = SPVBC_PLAN_INIT;
    /* half without Float16 (cl_khr_fp16) is excluded. */
    spvbc_plan_options no_fp16 = {sizeof(spvbc_plan_options),
                                  SPVBC_FEATURE_ALL_KERNEL & ~SPVBC_FEATURE_FLOAT16,
                                  SPVBC_PAD_UNDEF};
    assert_int_equal(spvbc_astype_plan(&half2, &i32, &no_fp16, &p), SPVBC_SUCCESS);
    assert_int_equal(p.cls, SPVBC_ASTYPE_EXCLUDED);
    assert_int_equal(p.refusal, SPVBC_PLAN_REFUSAL_MISSING_FEATURE);
    assert_int_equal(p.op_count, 0);
    assert_int_equal(spvbc_astype_plan(&b, &i32, NULL, &p), SPVBC_SUCCESS);
    assert_int_equal(p.refusal, SPVBC_PLAN_REFUSAL_BOOL_OR_VOID);
    spvbc_plan_options no_fp64 = {sizeof(spvbc_plan_options),
                                  SPVBC_FEATURE_ALL_KERNEL & ~SPVBC_FEATURE_FLOAT64,
                                  SPVBC_PAD_UNDEF};
    spvbc_type_desc l1;
    assert_int_equal(spvbc_type_desc_from_opencl("long", &l1), SPVBC_SUCCESS);
    assert_int_equal(spvbc_astype_plan(&dbl, &l1, &no_fp64, &p), SPVBC_SUCCESS);
    assert_int_equal(p.refusal, SPVBC_PLAN_REFUSAL_MISSING_FEATURE);
    /* Vulkan has no 16-component vectors. */
    spvbc_type_desc i4;
    assert_int_equal(spvbc_type_desc_from_opencl("int4", &i4), SPVBC_SUCCESS);
    spvbc_plan_options vk = {sizeof(spvbc_plan_options), SPVBC_FEATURE_SHADER | SPVBC_FEATURE_INT8,
                             SPVBC_PAD_UNDEF};
    assert_int_equal(spvbc_astype_plan(&c16, &i4, &vk, &p), SPVBC_SUCCESS);
    assert_int_equal(p.refusal, SPVBC_PLAN_REFUSAL_MISSING_FEATURE);
    /* Widths and counts that are no OpenCL type. */
    spvbc_type_desc odd = i32;
    odd.width = 24;
    assert_int_equal(spvbc_astype_plan(&odd, &i32, NULL, &p), SPVBC_SUCCESS);
    assert_int_equal(p.refusal, SPVBC_PLAN_REFUSAL_BAD_TYPE);
    odd = i32;
    odd.count = 5;
    assert_int_equal(spvbc_astype_plan(&i32, &odd, NULL, &p), SPVBC_SUCCESS);
    assert_int_equal(p.refusal, SPVBC_PLAN_REFUSAL_BAD_TYPE);
    /* Bad pad policy and NULL pointers. */
    spvbc_plan_options bad = {sizeof(spvbc_plan_options), 0, (spvbc_pad_policy)7};
    assert_int_equal(spvbc_astype_plan(&i32, &i32, &bad, &p), SPVBC_ERROR_INVALID_ARGUMENT);
    assert_int_equal(spvbc_astype_plan(NULL, &i32, NULL, &p), SPVBC_ERROR_INVALID_ARGUMENT);
    assert_int_equal(spvbc_astype_plan(&i32, NULL, NULL, &p), SPVBC_ERROR_INVALID_ARGUMENT);
    assert_int_equal(spvbc_astype_plan(&i32, &i32, NULL, NULL), SPVBC_ERROR_INVALID_ARGUMENT);
}

static void test_opencl_names(void **state)
{
    (void)state;
    spvbc_type_desc d;
    const char *bad[] = {"bool", "void", "float5", "int32", "", "floatx", "half1", "u"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; ++i)
        assert_int_equal(spvbc_type_desc_from_opencl(bad[i], &d), SPVBC_ERROR_INVALID_ARGUMENT);
    assert_int_equal(spvbc_type_desc_from_opencl("ulong16", &d), SPVBC_SUCCESS);
    assert_int_equal(d.kind, SPVBC_SCALAR_INT);
    assert_int_equal(d.width, 64);
    assert_int_equal(d.count, 16);
    assert_int_equal(d.is_signed, 0);
    char buf[4];
    /* Truncation keeps the string terminated. */
    assert_int_equal(spvbc_type_desc_opencl_name(&d, buf, sizeof buf), SPVBC_SUCCESS);
    assert_int_equal(strlen(buf), 3);
    /* Kernel integers are signless: spelled signed. */
    char k[16];
    assert_true(spvbc__opencl_name(&d, true, k, sizeof k));
    assert_string_equal(k, "long16");
    /* bool has no as_type spelling in the public API (OpenCL C's as_type takes no bool), though
     * the library's sentences spell it internally. */
    const spvbc_type_desc b3 = {SPVBC_SCALAR_BOOL, 0, 3, 0};
    char bb[16];
    assert_int_equal(spvbc_type_desc_opencl_name(&b3, bb, sizeof bb), SPVBC_ERROR_INVALID_ARGUMENT);
    assert_true(spvbc__opencl_name(&b3, false, k, sizeof k));
    assert_string_equal(k, "bool3");
    assert_string_equal(spvbc_astype_class_string(SPVBC_ASTYPE_4_TO_3), "4->3");
    assert_string_equal(spvbc_astype_class_string((spvbc_astype_class)99), "unknown");
}

/* Every pad policy's name reads back as that policy; other names leave the output alone. */
static void test_pad_policy_names(void **state)
{
    (void)state;
    const spvbc_pad_policy all[] = {SPVBC_PAD_UNDEF, SPVBC_PAD_ZERO, SPVBC_PAD_ERROR};
    for (size_t i = 0; i < sizeof all / sizeof all[0]; ++i) {
        spvbc_pad_policy p = SPVBC_PAD_POLICY_MAX_ENUM;
        assert_int_equal(spvbc_pad_policy_from_string(spvbc_pad_policy_string(all[i]), &p),
                         SPVBC_SUCCESS);
        assert_int_equal(p, all[i]);
    }
    assert_string_equal(spvbc_pad_policy_string(SPVBC_PAD_ZERO), "zero");
    assert_string_equal(spvbc_pad_policy_string((spvbc_pad_policy)3), "unknown");
    spvbc_pad_policy p = SPVBC_PAD_ZERO;
    assert_int_equal(spvbc_pad_policy_from_string("Zero", &p), SPVBC_ERROR_INVALID_ARGUMENT);
    assert_int_equal(spvbc_pad_policy_from_string("", &p), SPVBC_ERROR_INVALID_ARGUMENT);
    assert_int_equal(spvbc_pad_policy_from_string(NULL, &p), SPVBC_ERROR_INVALID_ARGUMENT);
    assert_int_equal(p, SPVBC_PAD_ZERO);
    assert_int_equal(spvbc_pad_policy_from_string("undef", NULL), SPVBC_ERROR_INVALID_ARGUMENT);
}

/* The one decimal writer: printf's digits at the ends of each width, no NUL written. */
static void test_decimal(void **state)
{
    (void)state;
    static const struct {
        uint64_t v;
        const char *text;
    } rows[] = {{0, "0"},
                {9, "9"},
                {10, "10"},
                {4294967295u, "4294967295"},
                {4294967296u, "4294967296"},
                {UINT64_MAX, "18446744073709551615"}};
    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; ++i) {
        char out[SPVBC__DECIMAL_MAX + 1];
        memset(out, '#', sizeof out);
        size_t n = spvbc__decimal(out, rows[i].v);
        assert_int_equal(n, strlen(rows[i].text));
        assert_memory_equal(out, rows[i].text, n);
        assert_int_equal(out[n < SPVBC__DECIMAL_MAX ? n : SPVBC__DECIMAL_MAX], '#');
    }
}

/* A float of a non-IEEE encoding (`encoding`: SpvFPEncoding's value), `count` > 1: a vector. */
static spvbc__type encoded(uint32_t width, uint32_t encoding, uint32_t count)
{
    spvbc__type t = count > 1 ? vec(F, width, count) : scalar(F, width);
    t.small = 0; /* no IEEE half: not storage-only (types.c) */
    t.encoded = 1;
    t.encoding = (uint16_t)encoding;
    return t;
}

typedef struct gen_row {
    const char *what;
    spvbc__type result, operand;
    bool long_vector, shader;
    uint32_t generation;
    spvbc__vrule expect;
} gen_row;

/* The rules SPIRV-Tools 2026.4 applies to the types it knows (floats of non-IEEE encodings,
 * long vectors, cooperative vectors under LongVectorEXT), and the older generations' rules. */
static void test_generation_rules(void **state)
{
    (void)state;
    enum { G23 = SPVBC_GENERATION_2023_1, G25 = SPVBC_GENERATION_2025_1 };
    enum { G26 = SPVBC_GENERATION_2026_4, BF = 0, E4M3 = 4214, E2M1 = 4225 };
    const gen_row rows[] = {
        {"uint <- v2bfloat16, Shader without Float16 (no V13)", scalar(I, 32), encoded(16, BF, 2),
         0, 1, G26, SPVBC__V_OK},
        {"v2uint <- v3bfloat16 (V12 by width, not padded)", vec(I, 32, 2), encoded(16, BF, 3), 0, 1,
         G26, SPVBC__V12},
        {"half <- bfloat16 with Float16 absent: half is storage-only", scalar(F, 16),
         encoded(16, BF, 1), 0, 1, G26, SPVBC__V13},
        {"uint <- v4 float8", scalar(I, 32), encoded(8, E4M3, 4), 0, 1, G26, SPVBC__V_OK},
        {"uint <- v8 float4", scalar(I, 32), encoded(4, E2M1, 8), 0, 0, G26, SPVBC__V_OK},
        {"uchar <- float4 (4 vs 8 bits)", scalar(I, 8), encoded(4, E2M1, 1), 0, 0, G26, SPVBC__V12},
        {"v5float <- v5uint", vec(F, 32, 5), vec(I, 32, 5), 1, 0, G26, SPVBC__V_OK},
        {"v10ushort <- v5uint", vec(I, 16, 10), vec(I, 32, 5), 1, 0, G26, SPVBC__V_OK},
        {"v4uint <- v5uint", vec(I, 32, 4), vec(I, 32, 5), 1, 0, G26, SPVBC__V12},
        {"v4uint <- coopvec x4, LongVectorEXT", vec(I, 32, 4), coop(CV, I, 32, 4, 0, 0), 1, 0, G26,
         SPVBC__V_OK},
        {"coopvec x8 ushort <- coopvec x4 uint, LongVectorEXT", coop(CV, I, 16, 8, 0, 0),
         coop(CV, I, 32, 4, 0, 0), 1, 0, G26, SPVBC__V_OK},
        {"uint <- coopvec x4, LongVectorEXT", scalar(I, 32), coop(CV, I, 32, 4, 0, 0), 1, 0, G26,
         SPVBC__V12},
        {"v4uint <- coopvec of spec count, LongVectorEXT", vec(I, 32, 4), coop(CV, I, 32, 0, 0, 0),
         1, 0, G26, SPVBC__VUNSIZED},
        {"v4uint <- coopvec x4, no LongVectorEXT", vec(I, 32, 4), coop(CV, I, 32, 4, 0, 0), 0, 0,
         G26, SPVBC__VCV},
        {"coopvec uint x8 <- half x8: 2026.4 compares total bits", coop(CV, I, 32, 8, 0, 0),
         coop(CV, F, 16, 8, 0, 0), 0, 0, G26, SPVBC__V12},
        {"coopvec uint x8 <- half x8: 2025.1 does not", coop(CV, I, 32, 8, 0, 0),
         coop(CV, F, 16, 8, 0, 0), 0, 0, G25, SPVBC__V_OK},
        {"coopvec x8 <- coopvec of spec count, 2026.4", coop(CV, I, 32, 8, 0, 0),
         coop(CV, I, 32, 0, 0, 0), 0, 0, G26, SPVBC__VUNSIZED},
        {"two coopvecs of spec counts, 2026.4 (0 bits each: pass)", coop(CV, I, 32, 0, 0, 0),
         coop(CV, F, 32, 0, 0, 0), 0, 0, G26, SPVBC__V_OK},
        {"NV matrix <- NV matrix, 2023.1", coop(NM, I, 32, 16, 16, 0), coop(NM, I, 32, 16, 16, 0),
         0, 1, G23, SPVBC__V2},
        {"int <- NV matrix, 2023.1", scalar(I, 32), coop(NM, I, 32, 16, 16, 0), 0, 1, G23,
         SPVBC__V3},
        {"NV matrix <- NV matrix, 2025.1", coop(NM, I, 32, 16, 16, 0), coop(NM, I, 32, 16, 16, 0),
         0, 1, G25, SPVBC__V_OK},
    };
    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; ++i) {
        const gen_row *r = &rows[i];
        spvbc__rule_env env = {V(1, 6), true, r->shader, 0, r->long_vector, r->generation};
        spvbc__vrule got = spvbc__check_bitcast(&env, &r->result, &r->operand);
        if (got != r->expect)
            fail_msg("row %zu (%s): expected %s, got %s", i, r->what, spvbc__vrule_id(r->expect),
                     spvbc__vrule_id(got));
    }
    /* A result type id that names no type record (NULL) is V2 in every generation; 2023.1's
     * cooperative-matrix rule read it first (test/fuzz/crashes/
     * validate-old-generation-result-not-a-type.txt). */
    const uint32_t gens[] = {G23, G25, G26};
    const spvbc__type operand = scalar(I, 32);
    for (size_t i = 0; i < sizeof gens / sizeof gens[0]; ++i) {
        spvbc__rule_env env = {V(1, 5), true, false, 0, false, gens[i]};
        assert_int_equal(spvbc__check_bitcast(&env, NULL, &operand), SPVBC__V2);
    }
}

/* OpBitcastExtractEXT, in SPIRV-Tools 2026.4's order. */
static void test_bitcast_extract_rules(void **state)
{
    (void)state;
    enum { E4M3 = 4214 };
    const spvbc__type u32 = scalar(I, 32), f8 = encoded(8, E4M3, 1), f32 = scalar(F, 32);
    const spvbc__type v2u32 = vec(I, 32, 2), v2f8 = encoded(8, E4M3, 2), b = scalar(B, 0);
    assert_int_equal(spvbc__check_extract(&f8, &u32, &u32, true), SPVBC__V_OK);
    assert_int_equal(spvbc__check_extract(&v2f8, &v2u32, &u32, true), SPVBC__V_OK);
    assert_int_equal(spvbc__check_extract(&b, &u32, &f32, true), SPVBC__VBX_RESULT);
    assert_int_equal(spvbc__check_extract(&f8, &b, &f32, true), SPVBC__VBX_BASE);
    assert_int_equal(spvbc__check_extract(&f8, &v2u32, &f32, true), SPVBC__VBX_DIM);
    assert_int_equal(spvbc__check_extract(&f32, &u32, &f32, true), SPVBC__VBX_WIDTH);
    assert_int_equal(spvbc__check_extract(&f8, &u32, &f32, true), SPVBC__VBX_OFFSET);
    assert_int_equal(spvbc__check_extract(&f8, &u32, NULL, false), SPVBC__V_OK);
    assert_int_equal(spvbc__check_extract(&f8, NULL, &u32, true), SPVBC__V1);
}

/* The generations' names, both ways; any value from the oldest selects a generation. */
static void test_generation_names(void **state)
{
    (void)state;
    uint32_t g = 1;
    assert_int_equal(spvbc_generation_from_string("2025.1", &g), SPVBC_SUCCESS);
    assert_int_equal(g, SPVBC_GENERATION_2025_1);
    assert_int_equal(spvbc_generation_from_string("newest", &g), SPVBC_SUCCESS);
    assert_int_equal(g, SPVBC_GENERATION_NEWEST);
    assert_int_equal(spvbc_generation_from_string("2024.1", &g), SPVBC_ERROR_INVALID_ARGUMENT);
    assert_int_equal(spvbc_generation_from_string(NULL, &g), SPVBC_ERROR_INVALID_ARGUMENT);
    assert_int_equal(spvbc_generation_from_string("2023.1", NULL), SPVBC_ERROR_INVALID_ARGUMENT);
    assert_string_equal(spvbc_generation_string(SPVBC_GENERATION_NEWEST), "2026.4");
    assert_string_equal(spvbc_generation_string(202512u), "2025.1");
    assert_string_equal(spvbc_generation_string(202212u), "unknown");
    assert_int_equal(spvbc__generation(202212u), 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_bitcast_rules),
        cmocka_unit_test(test_pair_counts),
        cmocka_unit_test(test_pad_policy_names),
        cmocka_unit_test(test_plans),
        cmocka_unit_test(test_plan_refusals),
        cmocka_unit_test(test_opencl_names),
        cmocka_unit_test(test_decimal),
        cmocka_unit_test(test_generation_rules),
        cmocka_unit_test(test_bitcast_extract_rules),
        cmocka_unit_test(test_generation_names),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
