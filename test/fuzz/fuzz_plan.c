/*
 * fuzz_plan.c - spvbc_astype_plan on arbitrary type descriptions and options.
 *
 * Input bytes (short inputs are padded with zeros):
 *   0..3  source: kind, width selector, count selector, signedness selector
 *   4..7  destination, the same
 *   8     features (0 = default), 9: pad policy (3 = out of range), 10 bit 0: NULL options
 *
 * Properties:
 *   - an out-of-range pad policy is INVALID_ARGUMENT with the plan untouched; else SUCCESS;
 *   - op_count <= 3; a refusal has no ops; identity has no ops; anything else has ops, and
 *     the last op's result type is the destination; the refusal is one that applies;
 *   - the class matches the table of docs/rules.md section 5 (computed here
 *     independently); every op is valid SPIR-V: a bitcast between different types of equal
 *     total width, a shuffle of 2..4 lanes within its operands and of the operand's component;
 *     intermediate types are OpenCL types of at most 4 components;
 *   - the plan does what as_type means: running its ops on a concrete value (bytes, with the
 *     pad lane of a 3-component source undefined or zero) gives, in every destination lane
 *     that the source storage defines, exactly the source's bytes at that position (S6:
 *     lower-order bits to lower-numbered lanes), and exact_lanes marks exactly those lanes.
 */
#include "fuzz_harness.h"

static uint32_t pick_width(uint8_t b)
{
    static const uint32_t t[16] = {8, 16, 32, 64, 8,   16, 32,          64,
                                   0, 1,  7,  24, 128, 33, 0xFFFFFFFFu, 0x80000008u};
    return t[b & 15u];
}

static uint32_t pick_count(uint8_t b)
{
    static const uint32_t t[16] = {1, 2, 3, 4, 8,  16,          1,  2,
                                   3, 4, 0, 5, 17, 0xFFFFFFFFu, 32, 0x80000003u};
    return t[b & 15u];
}

static spvbc_type_desc pick_desc(const uint8_t *b)
{
    static const uint32_t kinds[8] = {SPVBC_SCALAR_INT,
                                      SPVBC_SCALAR_FLOAT,
                                      SPVBC_SCALAR_BOOL,
                                      SPVBC_SCALAR_VOID,
                                      SPVBC_SCALAR_INT,
                                      SPVBC_SCALAR_FLOAT,
                                      7,
                                      0x7FFFFFFFu};
    static const spvbc_bool signs[4] = {0, 1, 2, -1}; /* any non-zero is true */
    spvbc_type_desc d;
    d.kind = (spvbc_scalar_kind)kinds[b[0] & 7u];
    d.width = pick_width(b[1]);
    d.count = pick_count(b[2]);
    d.is_signed = signs[b[3] & 3u];
    return d;
}

static int ocl_width(const spvbc_type_desc *d)
{
    if (d->kind == SPVBC_SCALAR_INT)
        return d->width == 8 || d->width == 16 || d->width == 32 || d->width == 64;
    if (d->kind == SPVBC_SCALAR_FLOAT) return d->width == 16 || d->width == 32 || d->width == 64;
    return 0;
}

static int ocl_count(uint32_t c)
{
    return c == 1 || c == 2 || c == 3 || c == 4 || c == 8 || c == 16;
}

static uint32_t features_needed(const spvbc_type_desc *d)
{
    uint32_t f = 0;
    if (d->kind == SPVBC_SCALAR_INT) {
        if (d->width == 8) f |= SPVBC_FEATURE_INT8;
        if (d->width == 16) f |= SPVBC_FEATURE_INT16;
        if (d->width == 64) f |= SPVBC_FEATURE_INT64;
    } else {
        if (d->width == 16) f |= SPVBC_FEATURE_FLOAT16;
        if (d->width == 64) f |= SPVBC_FEATURE_FLOAT64;
    }
    if (d->count >= 8) f |= SPVBC_FEATURE_VECTOR16;
    return f;
}

/* Same SPIR-V type: Kernel-style identity of the description (signedness matters for ints). */
static int same_type(const spvbc_type_desc *a, const spvbc_type_desc *b)
{
    return a->kind == b->kind && a->width == b->width && a->count == b->count &&
           (a->kind != SPVBC_SCALAR_INT || (a->is_signed != 0) == (b->is_signed != 0));
}

static int same_component(const spvbc_type_desc *a, const spvbc_type_desc *b)
{
    return a->kind == b->kind && a->width == b->width &&
           (a->kind != SPVBC_SCALAR_INT || (a->is_signed != 0) == (b->is_signed != 0));
}

/* A value: up to 16 lanes of up to 8 bytes, each byte with a "defined" flag. */
typedef struct value {
    spvbc_type_desc t;
    uint8_t bytes[128];
    uint8_t defined[128];
} value;

int spvbc_fuzz_plan(const uint8_t *data, size_t size)
{
    uint8_t b[16];
    memset(b, 0, sizeof b);
    memcpy(b, data, size < sizeof b ? size : sizeof b);
    const spvbc_type_desc src = pick_desc(b), dst = pick_desc(b + 4);
    spvbc_plan_options po = SPVBC_PLAN_OPTIONS_INIT;
    po.features = b[8];
    po.pad = (spvbc_pad_policy)(b[9] & 3u);
    const int null_options = b[10] & 1u;
    if (null_options) {
        po.features = 0;
        po.pad = SPVBC_PAD_UNDEF;
    }

    spvbc_plan plan = SPVBC_PLAN_INIT, untouched = SPVBC_PLAN_INIT;
    memset(&plan, 0xA5, sizeof plan);
    memcpy(&untouched, &plan, sizeof plan);
    spvbc_result r = spvbc_astype_plan(&src, &dst, null_options ? NULL : &po, &plan);
    if (po.pad == 3) {
        FUZZ_CHECK(r == SPVBC_ERROR_INVALID_ARGUMENT, "pad out of range is an argument error");
        FUZZ_CHECK(memcmp(&plan, &untouched, sizeof plan) == 0, "plan untouched");
        return 0;
    }
    FUZZ_CHECK(r == SPVBC_SUCCESS, "plan succeeds");
    spvbc_plan again = SPVBC_PLAN_INIT;
    FUZZ_CHECK(spvbc_astype_plan(&src, &dst, null_options ? NULL : &po, &again) == SPVBC_SUCCESS,
               "plan again");
    FUZZ_CHECK(again.cls == plan.cls && again.refusal == plan.refusal &&
                   again.op_count == plan.op_count && again.exact_lanes == plan.exact_lanes,
               "deterministic");

    FUZZ_CHECK(plan.op_count <= 3, "at most three ops");
    FUZZ_CHECK((uint32_t)plan.cls <= SPVBC_ASTYPE_EXCLUDED, "class in range");
    FUZZ_CHECK((uint32_t)plan.refusal <= SPVBC_PLAN_REFUSAL_BAD_TYPE, "refusal in range");

    /* The refusals that apply. */
    const uint32_t features = po.features ? po.features : SPVBC_FEATURE_ALL_KERNEL;
    const int bool_void = src.kind == SPVBC_SCALAR_BOOL || src.kind == SPVBC_SCALAR_VOID ||
                          dst.kind == SPVBC_SCALAR_BOOL || dst.kind == SPVBC_SCALAR_VOID;
    const int bad =
        !ocl_width(&src) || !ocl_width(&dst) || !ocl_count(src.count) || !ocl_count(dst.count);
    if (bool_void || bad) {
        FUZZ_CHECK(plan.refusal == SPVBC_PLAN_REFUSAL_BOOL_OR_VOID ||
                       plan.refusal == SPVBC_PLAN_REFUSAL_BAD_TYPE,
                   "bool/void or a non-OpenCL type is refused as such");
        if (!bool_void) FUZZ_CHECK(plan.refusal == SPVBC_PLAN_REFUSAL_BAD_TYPE, "bad type");
        if (!bad) FUZZ_CHECK(plan.refusal == SPVBC_PLAN_REFUSAL_BOOL_OR_VOID, "bool or void");
        FUZZ_CHECK(plan.cls == SPVBC_ASTYPE_EXCLUDED && plan.op_count == 0, "excluded, no ops");
        return 0;
    }
    const uint32_t n = src.count, m = dst.count, es = src.width, ed = dst.width;
    const uint32_t sbytes = es / 8 * (n == 3 ? 4 : n), dbytes = ed / 8 * (m == 3 ? 4 : m);
    const uint32_t missing =
        (features_needed(&src) | features_needed(&dst)) & ~(features & SPVBC_FEATURE_ALL_KERNEL);
    if (sbytes != dbytes) {
        FUZZ_CHECK(plan.refusal == SPVBC_PLAN_REFUSAL_SIZE ||
                       (missing && plan.refusal == SPVBC_PLAN_REFUSAL_MISSING_FEATURE),
                   "size error refused");
        FUZZ_CHECK(plan.op_count == 0, "no ops");
        FUZZ_CHECK(plan.cls == (plan.refusal == SPVBC_PLAN_REFUSAL_SIZE ? SPVBC_ASTYPE_SIZE_ERROR
                                                                        : SPVBC_ASTYPE_EXCLUDED),
                   "size-error class");
        return 0;
    }
    if (missing) {
        FUZZ_CHECK(plan.refusal == SPVBC_PLAN_REFUSAL_MISSING_FEATURE, "missing feature refused");
        FUZZ_CHECK(plan.cls == SPVBC_ASTYPE_EXCLUDED && plan.op_count == 0, "excluded");
        return 0;
    }

    /* The class table (docs/rules.md section 5). */
    spvbc_astype_class want;
    if (same_type(&src, &dst))
        want = SPVBC_ASTYPE_IDENTITY;
    else if (n == m)
        want = SPVBC_ASTYPE_SAME_COUNT;
    else if (n == 4 && m == 3)
        want = SPVBC_ASTYPE_4_TO_3;
    else if (n == 3 && m == 4)
        want = SPVBC_ASTYPE_3_TO_4;
    else if (n == 3)
        want = SPVBC_ASTYPE_VEC3_SOURCE;
    else if (m == 3)
        want = SPVBC_ASTYPE_VEC3_DEST;
    else
        want = SPVBC_ASTYPE_COUNT_CHANGE;
    FUZZ_CHECK(plan.cls == want, "class as the table says");
    FUZZ_CHECK(plan.defined_by_opencl ==
                   (want == SPVBC_ASTYPE_IDENTITY || want == SPVBC_ASTYPE_SAME_COUNT ||
                    want == SPVBC_ASTYPE_4_TO_3),
               "defined by OpenCL: identity, same-count, 4->3");
    FUZZ_CHECK(plan.direct_bitcast_valid == (want != SPVBC_ASTYPE_IDENTITY && n * es == m * ed),
               "a direct bitcast is valid iff the total widths agree");
    /* "error" refuses the padded classes (3->4, vec3 source); a 3-component source of the
     * same count needs no pad lane and is planned. */
    if (n == 3 && m != 3 && po.pad == SPVBC_PAD_ERROR) {
        FUZZ_CHECK(plan.refusal == SPVBC_PLAN_REFUSAL_PAD_POLICY && plan.op_count == 0,
                   "pad error refuses 3-component sources that need a pad lane");
        return 0;
    }
    FUZZ_CHECK(plan.refusal == SPVBC_PLAN_REFUSAL_NONE, "legal pairs are planned");
    if (want == SPVBC_ASTYPE_IDENTITY) {
        FUZZ_CHECK(plan.op_count == 0, "identity: no instruction");
    } else {
        FUZZ_CHECK(plan.op_count >= 1, "a plan has ops");
        /* (is_signed counts for integers only: floats have no signedness) */
        FUZZ_CHECK(same_type(&plan.ops[plan.op_count - 1].result_type, &dst),
                   "the last op yields the destination type");
    }
    if (plan.direct_bitcast_valid && want != SPVBC_ASTYPE_IDENTITY)
        FUZZ_CHECK(plan.op_count == 1 && plan.ops[0].kind == SPVBC_PLAN_OP_BITCAST,
                   "a valid direct bitcast is kept as one");

    /* Run the plan on a concrete value. */
    static value v, next;
    memset(&v, 0, sizeof v);
    v.t = src;
    const uint32_t esb = es / 8;
    for (uint32_t i = 0; i < n * esb; ++i) {
        v.bytes[i] = (uint8_t)(0x11u * (i + 1) + b[11]);
        v.defined[i] = 1;
    }
    for (uint32_t k = 0; k < plan.op_count; ++k) {
        const spvbc_plan_op *op = &plan.ops[k];
        const spvbc_type_desc *rt = &op->result_type;
        FUZZ_CHECK(ocl_width(rt) && ocl_count(rt->count), "op result is an OpenCL type");
        if (k + 1 < plan.op_count) FUZZ_CHECK(rt->count <= 4, "intermediates have <= 4 lanes");
        const uint32_t in_bits = v.t.width * v.t.count, out_bits = rt->width * rt->count;
        memset(&next, 0, sizeof next);
        next.t = *rt;
        if (op->kind == SPVBC_PLAN_OP_BITCAST) {
            FUZZ_CHECK(in_bits == out_bits, "bitcast between equal total widths (V12)");
            FUZZ_CHECK(!same_type(&v.t, rt), "no bitcast to the operand's own type");
            memcpy(next.bytes, v.bytes, out_bits / 8);
            memcpy(next.defined, v.defined, out_bits / 8);
        } else {
            FUZZ_CHECK(op->kind == SPVBC_PLAN_OP_SHUFFLE, "op kind");
            FUZZ_CHECK(op->lane_count == rt->count && rt->count >= 2 && rt->count <= 4,
                       "shuffle lane count");
            FUZZ_CHECK(v.t.count >= 2, "shuffle of a vector");
            FUZZ_CHECK(same_component(rt, &v.t), "shuffle keeps the component type");
            FUZZ_CHECK(op->second == SPVBC_PLAN_SECOND_SAME || op->second == SPVBC_PLAN_SECOND_NULL,
                       "second operand");
            const uint32_t cb = rt->width / 8;
            for (uint32_t j = 0; j < op->lane_count; ++j) {
                uint32_t l = op->lanes[j];
                if (l == SPVBC_LANE_UNDEF) continue; /* undefined lane */
                FUZZ_CHECK(l < 2 * v.t.count, "lane within both operands");
                if (l < v.t.count) {
                    memcpy(next.bytes + j * cb, v.bytes + l * cb, cb);
                    memcpy(next.defined + j * cb, v.defined + l * cb, cb);
                } else if (op->second == SPVBC_PLAN_SECOND_SAME) {
                    memcpy(next.bytes + j * cb, v.bytes + (l - v.t.count) * cb, cb);
                    memcpy(next.defined + j * cb, v.defined + (l - v.t.count) * cb, cb);
                } else {
                    memset(next.defined + j * cb, 1, cb); /* a null vector: zero bytes */
                }
            }
        }
        v = next;
    }
    if (plan.op_count == 0) v.t = dst;

    /* Compare with the source storage: 3 lanes occupy 4, the 4th undefined (or zero). */
    uint8_t want_bytes[128], want_def[128];
    memset(want_bytes, 0, sizeof want_bytes);
    memset(want_def, 0, sizeof want_def);
    for (uint32_t i = 0; i < n * esb; ++i) {
        want_bytes[i] = (uint8_t)(0x11u * (i + 1) + b[11]);
        want_def[i] = 1;
    }
    if (n == 3 && po.pad == SPVBC_PAD_ZERO) memset(want_def + 3 * esb, 1, esb);
    const uint32_t edb = ed / 8;
    for (uint32_t j = 0; j < m; ++j) {
        int lane_defined = 1;
        for (uint32_t k = 0; k < edb; ++k)
            lane_defined &= want_def[j * edb + k];
        const int exact = (plan.exact_lanes >> j) & 1u;
        FUZZ_CHECK(exact == lane_defined, "exact_lanes marks the lanes the source defines");
        if (!lane_defined) continue;
        for (uint32_t k = 0; k < edb; ++k) {
            FUZZ_CHECK(v.defined[j * edb + k], "a defined lane of the result is defined");
            FUZZ_CHECK(v.bytes[j * edb + k] == want_bytes[j * edb + k],
                       "the result holds the source's bits (as_type / S6 order)");
        }
    }
    return 0;
}

SPVBC_FUZZ_ENTRY(spvbc_fuzz_plan)
