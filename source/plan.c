/* The as_type plan: which OpBitcast and OpVectorShuffle steps an OpenCL as_type() becomes
 * (spvbc__plan, shared by the lowering, the report and spvbc_astype_plan()), which
 * capability-backed features a pair of OpenCL types needs, and whether two types have the same
 * element.  Pure functions: no I/O, no allocation.  The OpenCL C sentences each step
 * implements are quoted beside it; rules.c has the SPIR-V checks and the OpenCL type names. */
#include <string.h>

#include "abi.h"
#include "rules.h"

bool spvbc__same_element(const spvbc_type_desc *a, const spvbc_type_desc *b)
{
    return a->kind == b->kind && a->width == b->width &&
           (a->kind != SPVBC_SCALAR_INT || (a->is_signed != 0) == (b->is_signed != 0));
}

static bool valid_count(uint32_t n)
{
    return n == 1 || n == 2 || n == 3 || n == 4 || n == 8 || n == 16;
}

/* Which capability-backed features an OpenCL type needs, or false if it is no OpenCL type. */
static bool needed_features(const spvbc_type_desc *t, uint32_t *need)
{
    *need = 0;
    if (t->kind == SPVBC_SCALAR_INT) {
        if (t->width == 8)
            *need |= SPVBC_FEATURE_INT8;
        else if (t->width == 16)
            *need |= SPVBC_FEATURE_INT16;
        else if (t->width == 64)
            *need |= SPVBC_FEATURE_INT64;
        else if (t->width != 32)
            return false;
    } else if (t->kind == SPVBC_SCALAR_FLOAT) {
        if (t->width == 16)
            *need |= SPVBC_FEATURE_FLOAT16;
        else if (t->width == 64)
            *need |= SPVBC_FEATURE_FLOAT64;
        else if (t->width != 32)
            return false;
    } else {
        return false;
    }
    if (!valid_count(t->count)) return false;
    if (t->count >= 8) *need |= SPVBC_FEATURE_VECTOR16;
    return true;
}

uint32_t spvbc__missing_features(const spvbc_type_desc *src, const spvbc_type_desc *dst,
                                 uint32_t features)
{
    uint32_t a, b;
    if (!needed_features(src, &a)) a = 0;
    if (!needed_features(dst, &b)) b = 0;
    return (a | b) & ~features;
}

static spvbc_type_desc with_count(const spvbc_type_desc *t, uint32_t count)
{
    spvbc_type_desc r = *t;
    r.count = count;
    return r;
}

static void op_bitcast(spvbc_plan *p, const spvbc_type_desc *type)
{
    spvbc_plan_op *o = &p->ops[p->op_count++];
    memset(o, 0, sizeof *o);
    o->kind = SPVBC_PLAN_OP_BITCAST;
    o->result_type = *type;
}

static void op_shuffle(spvbc_plan *p, const spvbc_type_desc *type, spvbc_plan_second second,
                       uint32_t l0, uint32_t l1, uint32_t l2, uint32_t l3)
{
    spvbc_plan_op *o = &p->ops[p->op_count++];
    memset(o, 0, sizeof *o);
    o->kind = SPVBC_PLAN_OP_SHUFFLE;
    o->result_type = *type;
    o->second = second;
    o->lane_count = type->count;
    o->lanes[0] = l0;
    o->lanes[1] = l1;
    o->lanes[2] = l2;
    o->lanes[3] = l3;
}

spvbc_result spvbc_astype_plan(const spvbc_type_desc *src, const spvbc_type_desc *dst,
                               const spvbc_plan_options *options, spvbc_plan *out_plan)
{
    if (!src || !dst || !out_plan || !spvbc__struct_out_ok(out_plan, SPVBC__MIN_PLAN))
        return SPVBC_ERROR_INVALID_ARGUMENT;
    spvbc_plan_options o;
    memset(&o, 0, sizeof o);
    spvbc_result r = spvbc__struct_in(options, &o, sizeof o, SPVBC__MIN_PLAN_OPTIONS);
    if (r != SPVBC_SUCCESS) return r;
    uint32_t features = o.features ? o.features : SPVBC_FEATURE_ALL_KERNEL;
    if (o.pad != SPVBC_PAD_UNDEF && o.pad != SPVBC_PAD_ZERO && o.pad != SPVBC_PAD_ERROR)
        return SPVBC_ERROR_INVALID_ARGUMENT;
    spvbc_plan p;
    spvbc__plan(src, dst, features, o.pad, &p);
    spvbc__struct_out(out_plan, &p, sizeof p);
    return SPVBC_SUCCESS;
}

void spvbc__plan(const spvbc_type_desc *src, const spvbc_type_desc *dst, uint32_t features,
                 spvbc_pad_policy pad, spvbc_plan *out_plan)
{
    spvbc_plan p;
    memset(&p, 0, sizeof p);
    p.cls = SPVBC_ASTYPE_EXCLUDED;

    /* "All data types ... (except bool, half (unless cl_khr_fp16 is supported), and void) may
     * be also reinterpreted as another data type of the same size" (OpenCL C, as_typen). */
    if (src->kind == SPVBC_SCALAR_BOOL || src->kind == SPVBC_SCALAR_VOID ||
        dst->kind == SPVBC_SCALAR_BOOL || dst->kind == SPVBC_SCALAR_VOID) {
        p.refusal = SPVBC_PLAN_REFUSAL_BOOL_OR_VOID;
        *out_plan = p;
        return;
    }
    uint32_t need_s, need_d;
    if (!needed_features(src, &need_s) || !needed_features(dst, &need_d)) {
        p.refusal = SPVBC_PLAN_REFUSAL_BAD_TYPE;
        *out_plan = p;
        return;
    }
    const uint32_t n = src->count, m = dst->count;
    const uint32_t es = src->width, ed = dst->width;
    /* "a 3-component vector occupies the storage of 4": sizes use the padded count. */
    const uint32_t bytes_s = es / 8 * (n == 3 ? 4 : n), bytes_d = ed / 8 * (m == 3 ? 4 : m);
    if (bytes_s != bytes_d) {
        /* "It is an error to use as_type() ... to reinterpret data to a type of a different
         * number of bytes." */
        p.cls = SPVBC_ASTYPE_SIZE_ERROR;
        p.refusal = SPVBC_PLAN_REFUSAL_SIZE;
        *out_plan = p;
        return;
    }
    uint32_t have = features & (SPVBC_FEATURE_ALL_KERNEL);
    if ((need_s | need_d) & ~have) {
        p.refusal = SPVBC_PLAN_REFUSAL_MISSING_FEATURE;
        *out_plan = p;
        return;
    }
    p.direct_bitcast_valid = n * es == m * ed;
    const bool same_elem = spvbc__same_element(src, dst);

    if (n == m && same_elem) {
        p.cls = SPVBC_ASTYPE_IDENTITY;
        p.defined_by_opencl = 1;
        p.direct_bitcast_valid = 0;
        p.exact_lanes = (m >= 32) ? 0xffffffffu : ((1u << m) - 1u);
        *out_plan = p;
        return;
    }
    if (n == m) {
        p.cls = SPVBC_ASTYPE_SAME_COUNT;
        p.defined_by_opencl = 1;
        op_bitcast(&p, dst);
    } else if (n == 4 && m == 3) {
        /* "...except if the operand is a 4-component vector and the result is a 3-component
         * vector. In this case, the bits in the operand shall be returned directly". */
        p.cls = SPVBC_ASTYPE_4_TO_3;
        p.defined_by_opencl = 1;
        if (!same_elem) {
            spvbc_type_desc v4 = with_count(dst, 4);
            op_bitcast(&p, &v4);
        }
        op_shuffle(&p, dst, SPVBC_PLAN_SECOND_SAME, 0, 1, 2, 0);
    } else if (n == 3) {
        p.cls = m == 4 ? SPVBC_ASTYPE_3_TO_4 : SPVBC_ASTYPE_VEC3_SOURCE;
        if (pad == SPVBC_PAD_ERROR) {
            p.refusal = SPVBC_PLAN_REFUSAL_PAD_POLICY;
            *out_plan = p;
            return;
        }
        spvbc_type_desc v4 = with_count(src, 4);
        if (pad == SPVBC_PAD_ZERO)
            op_shuffle(&p, &v4, SPVBC_PLAN_SECOND_NULL, 0, 1, 2, 3);
        else
            op_shuffle(&p, &v4, SPVBC_PLAN_SECOND_SAME, 0, 1, 2, SPVBC_LANE_UNDEF);
        if (!(m == 4 && same_elem)) op_bitcast(&p, dst);
    } else if (m == 3) {
        p.cls = SPVBC_ASTYPE_VEC3_DEST;
        spvbc_type_desc v4 = with_count(dst, 4);
        op_bitcast(&p, &v4);
        op_shuffle(&p, dst, SPVBC_PLAN_SECOND_SAME, 0, 1, 2, 0);
    } else {
        /* S6 fixes the mapping: low-order bits go to low-numbered components. */
        p.cls = SPVBC_ASTYPE_COUNT_CHANGE;
        op_bitcast(&p, dst);
    }

    /* Destination lane j holds source bytes [j*ed/8, (j+1)*ed/8); it is fixed when all of them
     * are defined: every byte, except the pad lane of a 3-component source under "undef". */
    const uint32_t defined_bytes = (n == 3 && pad == SPVBC_PAD_UNDEF) ? 3 * es / 8 : bytes_s;
    for (uint32_t j = 0; j < m && j < 32; ++j)
        if ((j + 1) * (ed / 8) <= defined_bytes) p.exact_lanes |= 1u << j;
    *out_plan = p;
}
