/*
 * gen_steps.c - the generator's straight-line code, one step each: loads and stores through
 * buffers and local variables, arithmetic, OpenCL.std calls, shuffles, composites, selects,
 * calls of earlier helpers and the bitcasts (valid ones, and with --lowerable one in ten an
 * as_type-legal 4->3 written as a direct OpBitcast).
 *
 * SPDX-License-Identifier: Apache-2.0
 */
#include <spirv/unified1/OpenCL.std.h>

#include "gen_module.h"

/* The buffers a kernel reads and writes: pointer type, value type, alignment. */
typedef struct buf_kind {
    unsigned char ptr, val;
    uint32_t align;
} buf_kind;
static const buf_kind buffers[4] = {
    {T_P_V4F32, T_V4F32, 16}, {T_P_V4I32, T_V4I32, 16}, {T_P_F32, T_F32, 4}, {T_P_I32, T_I32, 4}};

void gen_step_load(gen *g)
{
    uint32_t idx = gen_pick(g, T_I64);
    uint32_t p = new_id(g), v = gen_value(g);
    const buf_kind *a = &buffers[rnd(g, 4)];
    EMIT(g, SpvOpInBoundsPtrAccessChain, g->ty[a->ptr], p, gen_pick(g, a->ptr), idx);
    EMIT(g, SpvOpLoad, g->ty[a->val], v, p, SpvMemoryAccessAlignedMask, a->align);
    gen_push(g, a->ptr, p);
    gen_push(g, a->val, v);
}

void gen_step_store(gen *g)
{
    const buf_kind *a = &buffers[rnd(g, 4)];
    EMIT(g, SpvOpStore, gen_pick(g, a->ptr), gen_pick(g, a->val), SpvMemoryAccessAlignedMask,
         a->align);
}

/** Loads and stores of the function's local variables (unoptimised code is full of them). */
void gen_step_local(gen *g)
{
    uint32_t k = rnd(g, 4); /* 0, 1: a store; 2, 3: a load; even: the float4, odd: the int */
    uint32_t var = k % 2 ? g->var_i : g->var_f4, align = k % 2 ? 4 : 16;
    int t = k % 2 ? T_I32 : T_V4F32;
    if (k < 2) {
        EMIT(g, SpvOpStore, var, gen_pick(g, t), SpvMemoryAccessAlignedMask, align);
        return;
    }
    uint32_t v = gen_value(g);
    EMIT(g, SpvOpLoad, g->ty[t], v, var, SpvMemoryAccessAlignedMask, align);
    gen_push(g, t, v);
}

/** A binary operation `op` on two recent values of type `t`. */
static void binop(gen *g, SpvOp op, int t)
{
    uint32_t a = gen_pick(g, t), b = gen_pick(g, t), v = gen_value(g);
    EMIT(g, op, g->ty[t], v, a, b);
    gen_push(g, t, v);
}

void gen_unop(gen *g, SpvOp op, int rt, int at)
{
    uint32_t a = gen_pick(g, at), v = gen_value(g);
    EMIT(g, op, g->ty[rt], v, a);
    gen_push(g, rt, v);
}

/* A binary operation on type `t`, one of the first `n` float (`fl`) or integer operations. */
typedef struct arith {
    unsigned char fl, n, t;
} arith;

static void arith_op(gen *g, const arith *a)
{
    static const SpvOp fops[] = {SpvOpFAdd, SpvOpFSub, SpvOpFMul, SpvOpFDiv};
    static const SpvOp iops[] = {SpvOpIAdd,       SpvOpISub,      SpvOpIMul,
                                 SpvOpBitwiseAnd, SpvOpBitwiseOr, SpvOpBitwiseXor};
    binop(g, a->fl ? fops[rnd(g, a->n)] : iops[rnd(g, a->n)], a->t);
}

void gen_step_arith(gen *g)
{
    /* k = rnd(16): the binary operations of `plain`, or (n = 0) the case below */
    static const arith plain[16] = {
        [0] = {1, 4, T_V4F32}, [1] = {1, 4, T_V4F32}, [2] = {0, 6, T_V4I32},
        [3] = {0, 6, T_V4I32}, [4] = {0, 6, T_I32},   [5] = {0, 6, T_I32},
        [7] = {1, 4, T_F32},   [8] = {0, 3, T_I64},   [15] = {0, 3, T_I8}};
    static const arith small[4] = {
        {1, 3, T_V2F32}, {0, 6, T_V2I32}, {0, 3, T_V2I64}, {0, 6, T_V4I8}};
    static const arith wide[2] = {{0, 6, T_V8I32}, {1, 3, T_V8F32}};
    uint32_t v, k = rnd(g, 16);
    if (plain[k].n) {
        arith_op(g, &plain[k]);
        return;
    }
    switch (k) {
    case 6: binop(g, rnd(g, 2) ? SpvOpShiftLeftLogical : SpvOpShiftRightLogical, T_I32); break;
    case 9: /* index computations: int -> long */ gen_unop(g, SpvOpSConvert, T_I64, T_I32); break;
    case 10:
        if (rnd(g, 2)) {
            gen_unop(g, SpvOpConvertSToF, T_F32, T_I32);
        } else {
            gen_unop(g, SpvOpConvertFToS, T_I32, T_F32);
        }
        break;
    case 11: gen_unop(g, SpvOpConvertSToF, T_V4F32, T_V4I32); break;
    case 12: /* OpenCL.std */
        v = gen_value(g);
        switch (rnd(g, 3)) {
        case 0:
            EMIT(g, SpvOpExtInst, g->ty[T_V4F32], v, g->std_set, OpenCLstd_Fma,
                 gen_pick(g, T_V4F32), gen_pick(g, T_V4F32), gen_pick(g, T_V4F32));
            gen_push(g, T_V4F32, v);
            break;
        case 1:
            EMIT(g, SpvOpExtInst, g->ty[T_F32], v, g->std_set, OpenCLstd_Fmax, gen_pick(g, T_F32),
                 gen_pick(g, T_F32));
            gen_push(g, T_F32, v);
            break;
        default:
            EMIT(g, SpvOpExtInst, g->ty[T_V4F32], v, g->std_set, OpenCLstd_Sqrt,
                 gen_pick(g, T_V4F32));
            gen_push(g, T_V4F32, v);
            break;
        }
        break;
    case 13: arith_op(g, &small[rnd(g, 4)]); break;
    default: /* 14 */ arith_op(g, &wide[rnd(g, 2)]); break;
    }
}

static void shuffle(gen *g, int rt, int at, int bt, uint32_t lanes, uint32_t range)
{
    uint32_t ops[3 + 8 + 2];
    size_t n = 0;
    uint32_t v = gen_value(g);
    ops[n++] = g->ty[rt];
    ops[n++] = v;
    ops[n++] = gen_pick(g, at);
    ops[n++] = gen_pick(g, bt);
    for (uint32_t i = 0; i < lanes; ++i) {
        ops[n++] = rnd(g, range);
    }
    gen_emit_arr(g, SpvOpVectorShuffle, ops, n);
    gen_push(g, rt, v);
}

/** The first three lanes of a recent value of type `at`, as a new value of type `rt`. */
static void xyz(gen *g, int rt, int at)
{
    uint32_t a = gen_pick(g, at), v = gen_value(g);
    EMIT(g, SpvOpVectorShuffle, g->ty[rt], v, a, a, 0, 1, 2);
    gen_push(g, rt, v);
}

void gen_step_shuffle(gen *g)
{
    /* kind 0: lanes of two recent values of type `at` (of 8 lanes in all); 1: xyz of one,
     * as clang writes as_float3(float4); 2: a float3 widened to a float4 with an undefined lane */
    static const struct {
        unsigned char kind, rt, at, lanes;
    } shuffles[10] = {{0, T_V4F32, T_V4F32, 4}, {0, T_V4F32, T_V4F32, 4}, {0, T_V4I32, T_V4I32, 4},
                      {1, T_V3F32, T_V4F32, 3}, {1, T_V3I32, T_V4I32, 3}, {2, T_V4F32, T_V3F32, 4},
                      {0, T_V2F32, T_V4F32, 2}, {0, T_V8F32, T_V4F32, 8}, {1, T_V3I8, T_V4I8, 3},
                      {0, T_V4I8, T_V4I8, 4}};
    uint32_t k = rnd(g, 10);
    int rt = shuffles[k].rt, at = shuffles[k].at;
    if (shuffles[k].kind == 0) {
        shuffle(g, rt, at, at, shuffles[k].lanes, 8);
    } else if (shuffles[k].kind == 1) {
        xyz(g, rt, at);
    } else {
        uint32_t a = gen_pick(g, at), v = gen_value(g);
        EMIT(g, SpvOpVectorShuffle, g->ty[rt], v, a, a, 0, 1, 2, 0xFFFFFFFFu);
        gen_push(g, rt, v);
    }
}

void gen_step_composite(gen *g)
{
    uint32_t v = gen_value(g);
    /* cases 0-3: a lane of a float4, float3, int4 or int3 */
    static const struct {
        unsigned char rt, vt;
        uint32_t lanes;
    } extracts[4] = {
        {T_F32, T_V4F32, 4}, {T_F32, T_V3F32, 3}, {T_I32, T_V4I32, 4}, {T_I32, T_V3I32, 3}};
    uint32_t k = rnd(g, 6);
    if (k < 4) {
        EMIT(g, SpvOpCompositeExtract, g->ty[extracts[k].rt], v, gen_pick(g, extracts[k].vt),
             rnd(g, extracts[k].lanes));
        gen_push(g, extracts[k].rt, v);
        return;
    }
    switch (k) {
    case 4:
        EMIT(g, SpvOpCompositeInsert, g->ty[T_V4F32], v, gen_pick(g, T_F32), gen_pick(g, T_V4F32),
             rnd(g, 4));
        gen_push(g, T_V4F32, v);
        break;
    default:
        EMIT(g, SpvOpCompositeConstruct, g->ty[T_V4F32], v, gen_pick(g, T_F32), gen_pick(g, T_F32),
             gen_pick(g, T_F32), gen_pick(g, T_F32));
        gen_push(g, T_V4F32, v);
        break;
    }
}

uint32_t gen_compare(gen *g)
{
    static const struct {
        SpvOp op;
        int t;
    } cmps[3] = {{SpvOpSLessThan, T_I32}, {SpvOpIEqual, T_I32}, {SpvOpFOrdLessThan, T_F32}};
    uint32_t c = gen_value(g);
    uint32_t k = rnd(g, 3);
    EMIT(g, cmps[k].op, g->ty[T_BOOL], c, gen_pick(g, cmps[k].t), gen_pick(g, cmps[k].t));
    gen_push(g, T_BOOL, c);
    return c;
}

void gen_step_select(gen *g)
{
    uint32_t c = rnd(g, 2) ? gen_compare(g) : gen_pick(g, T_BOOL);
    int t = rnd(g, 2) ? T_F32 : T_I32;
    uint32_t v = gen_value(g);
    EMIT(g, SpvOpSelect, g->ty[t], v, c, gen_pick(g, t), gen_pick(g, t));
    gen_push(g, t, v);
}

typedef struct pair {
    unsigned char src, dst;
} pair;

/* Equal total widths: valid OpBitcast (SPIR-V 1.0: pointer <-> pointer or integer scalar). */
static const pair valid_pairs[] = {
    {T_F32, T_I32},         {T_I32, T_F32},         {T_V4I8, T_I32},    {T_I32, T_V4I8},
    {T_V4I8, T_F32},        {T_F32, T_V4I8},        {T_V2F32, T_V2I32}, {T_V2I32, T_V2F32},
    {T_V2F32, T_I64},       {T_I64, T_V2F32},       {T_V2I32, T_I64},   {T_I64, T_V2I32},
    {T_V4F32, T_V4I32},     {T_V4I32, T_V4F32},     {T_V4F32, T_V4I32}, {T_V4I32, T_V4F32},
    {T_V4F32, T_V2I64},     {T_V2I64, T_V4F32},     {T_V4I32, T_V2I64}, {T_V2I64, T_V4I32},
    {T_V3F32, T_V3I32},     {T_V3I32, T_V3F32},     {T_V8F32, T_V8I32}, {T_V8I32, T_V8F32},
    {T_P_V4F32, T_P_V4I32}, {T_P_V4I32, T_P_V4F32}, {T_P_F32, T_P_I32}, {T_P_I32, T_P_F32},
    {T_P_V4F32, T_P_F32},   {T_P_V4I32, T_P_I32},   {T_P_V4F32, T_I64}, {T_I64, T_P_F32},
};

/* as_type-legal 4->3 written as a direct OpBitcast: 128 (or 32) bits to 96 (or 24). */
static const pair lowerable_pairs[] = {
    {T_V4F32, T_V3F32}, {T_V4I32, T_V3F32}, {T_V4F32, T_V3I32},
    {T_V4I32, T_V3I32}, {T_V4I8, T_V3I8},
};

void gen_bitcast(gen *g, int dst, int src)
{
    uint32_t v = gen_value(g);
    EMIT(g, SpvOpBitcast, g->ty[dst], v, gen_pick(g, src));
    gen_push(g, dst, v);
    g->bitcasts++;
}

void gen_step_bitcast(gen *g)
{
    if (g->lowerable && (g->lowered + 1) * 10 <= g->bitcasts + 1) {
        const pair *p =
            &lowerable_pairs[rnd(g, sizeof lowerable_pairs / sizeof lowerable_pairs[0])];
        gen_bitcast(g, p->dst, p->src);
        g->lowered++;
        /* use the 3-component value the way as_float3(x).z would */
        uint32_t v = gen_value(g);
        int comp = p->dst == T_V3F32 ? T_F32 : p->dst == T_V3I32 ? T_I32 : T_I8;
        EMIT(g, SpvOpCompositeExtract, g->ty[comp], v, gen_pick(g, p->dst), rnd(g, 3));
        gen_push(g, comp, v);
        return;
    }
    const pair *p = &valid_pairs[rnd(g, sizeof valid_pairs / sizeof valid_pairs[0])];
    gen_bitcast(g, p->dst, p->src);
}

void gen_step_call(gen *g)
{
    /* helpers call earlier helpers of the same unit only: the call graph below an entry
     * point stays small, as in real programs, and there is no recursion */
    if (g->helper_count == 0) {
        gen_step_arith(g);
        return;
    }
    uint32_t callee = g->helpers[rnd(g, (uint32_t)g->helper_count)];
    uint32_t v = gen_value(g);
    EMIT(g, SpvOpFunctionCall, g->ty[T_V4F32], v, callee, gen_pick(g, T_P_V4F32),
         gen_pick(g, T_P_V4I32), gen_pick(g, T_I32));
    gen_push(g, T_V4F32, v);
}
