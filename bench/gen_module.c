/*
 * gen_module.c - writes synthetic OpenCL Kernel SPIR-V modules for the benchmark, word by word
 * (no assembler, so 128 MiB take about a second).
 *
 * The module looks like the output of an unoptimising OpenCL C compiler (compare libclc's
 * spirv64-mesa3d-.spv): Addresses/Physical64/OpenCL, many small functions in units of 32 (one in
 * eight is a kernel entry point, the rest are helpers, half of them exported, that call earlier
 * helpers of their unit), loads and stores
 * through OpInBoundsPtrAccessChain and function-local variables, integer/float/vector arithmetic,
 * OpenCL.std calls, shuffles, composite extracts, if-diamonds with OpPhi, counted loops, and about
 * 7% OpBitcast (value and pointer casts of equal total width).  Every value gets an id, so the id
 * bound grows with the size (about one id per 6 words: a 128 MiB module has about 5.5 million
 * ids, above spirv-val's default bound of 4,194,303).  Functions and one value in twelve have OpName.
 *
 * With --lowerable, exactly one bitcast in ten is instead an as_type-legal 4->3 reinterpretation
 * written as a direct, size-mismatched OpBitcast (float4 -> float3, int4 -> float3, ...): invalid
 * SPIR-V that `spirv-bitcast lower` turns into valid SPIR-V.
 *
 * Usage: gen_module [-s SIZE] [--lowerable] [--seed N] [-q] -o OUT.spv
 *   SIZE in bytes, with an optional K/M/G suffix (binary units); the module is at least SIZE
 *   bytes, rounded up to the end of a function.  Same arguments, same bytes.
 *
 * SPDX-License-Identifier: Apache-2.0
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <spirv/unified1/OpenCL.std.h>
#include <spirv/unified1/spirv.h>

/* ---- word buffers ----------------------------------------------------------------------- */

typedef struct wbuf {
    uint32_t *w;
    size_t n;
    size_t cap;
} wbuf;

static void die_oom(void)
{
    fprintf(stderr, "gen_module: out of memory\n");
    exit(2);
}

static void wb_reserve(wbuf *b, size_t extra)
{
    if (b->n + extra <= b->cap) {
        return;
    }
    size_t ncap = b->cap ? b->cap : 1024;
    while (ncap < b->n + extra) {
        ncap *= 2;
    }
    uint32_t *nw = (uint32_t *)realloc(b->w, ncap * sizeof(uint32_t));
    if (!nw) {
        die_oom();
    }
    b->w = nw;
    b->cap = ncap;
}

/** Appends the words of the literal string `s` (NUL-terminated, padded, low byte first). */
static void wb_string(wbuf *b, const char *s)
{
    size_t len = strlen(s) + 1;
    size_t words = (len + 3) / 4;
    wb_reserve(b, words);
    for (size_t i = 0; i < words; ++i) {
        uint32_t w = 0;
        for (size_t k = 0; k < 4; ++k) {
            size_t at = i * 4 + k;
            uint32_t c = at < len ? (uint32_t)(unsigned char)s[at] : 0u;
            w |= c << (8 * k);
        }
        b->w[b->n++] = w;
    }
}

/* ---- generator state -------------------------------------------------------------------- */

enum {
    T_VOID,
    T_BOOL,
    T_I8,
    T_I32,
    T_I64,
    T_F32,
    T_V2I32,
    T_V3I32,
    T_V4I32,
    T_V2F32,
    T_V3F32,
    T_V4F32,
    T_V2I64,
    T_V3I8,
    T_V4I8,
    T_V8I32,
    T_V8F32,
    T_P_V4F32, /* CrossWorkgroup pointers */
    T_P_V4I32,
    T_P_F32,
    T_P_I32,
    T_PF_V4F32, /* Function pointers (local variables) */
    T_PF_I32,
    T_FN_KERNEL,
    T_FN_HELPER,
    T_COUNT
};

typedef struct pool {
    uint32_t *v;
    size_t n;
    size_t cap;
    size_t base; /* global constants, never popped */
} pool;

typedef struct gen {
    wbuf head;   /* header, capabilities, ext-inst import, memory model */
    wbuf entry;  /* OpEntryPoint */
    wbuf debug;  /* OpSource, OpName */
    wbuf annot;  /* OpDecorate */
    wbuf types;  /* types and constants */
    wbuf funcs;  /* function bodies */
    wbuf *cur;   /* where emit() appends */
    uint32_t next_id;
    uint64_t rng;
    int lowerable;
    uint32_t ty[T_COUNT];
    pool pools[T_COUNT];
    uint32_t std_set;
    uint32_t c_i32[8];
    uint32_t c_i64[4];
    uint32_t c_zero_i32, c_one_i32;
    uint32_t *helpers;
    size_t helper_count, helper_cap;
    uint32_t label;      /* the current block */
    uint32_t var_f4, var_i; /* the current function's local variables */
    /* statistics */
    size_t instructions, bitcasts, lowered, functions, kernels, names, blocks;
} gen;

static uint32_t rnd(gen *g, uint32_t n)
{
    /* xorshift64*, good enough and identical everywhere */
    g->rng ^= g->rng >> 12;
    g->rng ^= g->rng << 25;
    g->rng ^= g->rng >> 27;
    uint64_t r = g->rng * 0x2545F4914F6CDD1DULL;
    return (uint32_t)((r >> 32) % n);
}

static uint32_t new_id(gen *g)
{
    return g->next_id++;
}

static void emit_arr(gen *g, SpvOp op, const uint32_t *ops, size_t n)
{
    wbuf *b = g->cur;
    wb_reserve(b, n + 1);
    b->w[b->n++] = (uint32_t)((n + 1) << 16) | (uint32_t)op;
    if (n) memcpy(b->w + b->n, ops, n * sizeof(uint32_t));
    b->n += n;
    g->instructions++;
}

#define EMIT(g, op, ...)                                                                     \
    emit_arr((g), (op), (const uint32_t[]){__VA_ARGS__},                                    \
             sizeof((const uint32_t[]){__VA_ARGS__}) / sizeof(uint32_t))
#define EMIT0(g, op) emit_arr((g), (op), NULL, 0)

/** Emits an instruction whose operands end with the literal string `s`. */
static void emit_with_string(gen *g, SpvOp op, const uint32_t *pre, size_t npre, const char *s,
                             const uint32_t *post, size_t npost)
{
    wbuf *b = g->cur;
    size_t at = b->n;
    wb_reserve(b, 1 + npre);
    b->w[b->n++] = (uint32_t)op;
    if (npre) memcpy(b->w + b->n, pre, npre * sizeof(uint32_t));
    b->n += npre;
    wb_string(b, s);
    wb_reserve(b, npost);
    if (npost) {
        memcpy(b->w + b->n, post, npost * sizeof(uint32_t));
    }
    b->n += npost;
    b->w[at] |= (uint32_t)(b->n - at) << 16;
    g->instructions++;
}

static void name_id(gen *g, uint32_t id, const char *s)
{
    wbuf *saved = g->cur;
    g->cur = &g->debug;
    emit_with_string(g, SpvOpName, &id, 1, s, NULL, 0);
    g->cur = saved;
    g->names++;
}

static void push(gen *g, int t, uint32_t id)
{
    pool *p = &g->pools[t];
    if (p->n == p->cap) {
        size_t ncap = p->cap ? p->cap * 2 : 64;
        uint32_t *nv = (uint32_t *)realloc(p->v, ncap * sizeof(uint32_t));
        if (!nv) {
            die_oom();
        }
        p->v = nv;
        p->cap = ncap;
    }
    p->v[p->n++] = id;
}

/** One of the eight most recent values of type `t` (locality, as in real code). */
static uint32_t pick(gen *g, int t)
{
    pool *p = &g->pools[t];
    size_t k = p->n < 8 ? p->n : 8;
    if (k == 0) {
        fprintf(stderr, "gen_module: internal error: empty pool %d\n", t);
        exit(2);
    }
    return p->v[p->n - 1 - rnd(g, (uint32_t)k)];
}

/** A new value id of type `t`; one in twelve gets an OpName.  Pushed by the caller. */
static uint32_t value(gen *g)
{
    uint32_t id = new_id(g);
    if (rnd(g, 12) == 0) {
        char buf[32];
        snprintf(buf, sizeof buf, "tmp.%u", id);
        name_id(g, id, buf);
    }
    return id;
}

/* ---- module prologue -------------------------------------------------------------------- */

static uint32_t f32_bits(float f)
{
    uint32_t u;
    memcpy(&u, &f, sizeof u);
    return u;
}

static void declare_types(gen *g)
{
    uint32_t *ty = g->ty;
    g->cur = &g->types;
    for (int t = 0; t < T_COUNT; ++t) {
        ty[t] = new_id(g);
    }
    EMIT(g, SpvOpTypeInt, ty[T_I8], 8, 0);
    EMIT(g, SpvOpTypeInt, ty[T_I32], 32, 0);
    EMIT(g, SpvOpTypeInt, ty[T_I64], 64, 0);
    EMIT(g, SpvOpTypeFloat, ty[T_F32], 32);
    EMIT(g, SpvOpTypeVoid, ty[T_VOID]);
    EMIT(g, SpvOpTypeBool, ty[T_BOOL]);
    EMIT(g, SpvOpTypeVector, ty[T_V2I32], ty[T_I32], 2);
    EMIT(g, SpvOpTypeVector, ty[T_V3I32], ty[T_I32], 3);
    EMIT(g, SpvOpTypeVector, ty[T_V4I32], ty[T_I32], 4);
    EMIT(g, SpvOpTypeVector, ty[T_V2F32], ty[T_F32], 2);
    EMIT(g, SpvOpTypeVector, ty[T_V3F32], ty[T_F32], 3);
    EMIT(g, SpvOpTypeVector, ty[T_V4F32], ty[T_F32], 4);
    EMIT(g, SpvOpTypeVector, ty[T_V2I64], ty[T_I64], 2);
    EMIT(g, SpvOpTypeVector, ty[T_V3I8], ty[T_I8], 3);
    EMIT(g, SpvOpTypeVector, ty[T_V4I8], ty[T_I8], 4);
    EMIT(g, SpvOpTypeVector, ty[T_V8I32], ty[T_I32], 8);
    EMIT(g, SpvOpTypeVector, ty[T_V8F32], ty[T_F32], 8);
    EMIT(g, SpvOpTypePointer, ty[T_P_V4F32], SpvStorageClassCrossWorkgroup, ty[T_V4F32]);
    EMIT(g, SpvOpTypePointer, ty[T_P_V4I32], SpvStorageClassCrossWorkgroup, ty[T_V4I32]);
    EMIT(g, SpvOpTypePointer, ty[T_P_F32], SpvStorageClassCrossWorkgroup, ty[T_F32]);
    EMIT(g, SpvOpTypePointer, ty[T_P_I32], SpvStorageClassCrossWorkgroup, ty[T_I32]);
    EMIT(g, SpvOpTypePointer, ty[T_PF_V4F32], SpvStorageClassFunction, ty[T_V4F32]);
    EMIT(g, SpvOpTypePointer, ty[T_PF_I32], SpvStorageClassFunction, ty[T_I32]);
    EMIT(g, SpvOpTypeFunction, ty[T_FN_KERNEL], ty[T_VOID], ty[T_P_V4F32], ty[T_P_V4I32],
         ty[T_I32]);
    EMIT(g, SpvOpTypeFunction, ty[T_FN_HELPER], ty[T_V4F32], ty[T_P_V4F32], ty[T_P_V4I32],
         ty[T_I32]);
    name_id(g, ty[T_V4F32], "float4");
    name_id(g, ty[T_V4I32], "int4");

    /* constants: every value type has at least one, so every pool starts non-empty */
    static const uint32_t i32_vals[8] = {0, 1, 2, 3, 4, 8, 16, 255};
    for (int i = 0; i < 8; ++i) {
        g->c_i32[i] = new_id(g);
        EMIT(g, SpvOpConstant, ty[T_I32], g->c_i32[i], i32_vals[i]);
        push(g, T_I32, g->c_i32[i]);
    }
    g->c_zero_i32 = g->c_i32[0];
    g->c_one_i32 = g->c_i32[1];
    static const uint32_t i64_vals[4] = {0, 1, 4, 16};
    for (int i = 0; i < 4; ++i) {
        g->c_i64[i] = new_id(g);
        EMIT(g, SpvOpConstant, ty[T_I64], g->c_i64[i], i64_vals[i], 0);
        push(g, T_I64, g->c_i64[i]);
    }
    static const float f32_vals[4] = {0.5f, 1.0f, 2.0f, 3.25f};
    uint32_t cf[4];
    for (int i = 0; i < 4; ++i) {
        cf[i] = new_id(g);
        EMIT(g, SpvOpConstant, ty[T_F32], cf[i], f32_bits(f32_vals[i]));
        push(g, T_F32, cf[i]);
    }
    uint32_t c8[2] = {new_id(g), new_id(g)};
    EMIT(g, SpvOpConstant, ty[T_I8], c8[0], 0);
    EMIT(g, SpvOpConstant, ty[T_I8], c8[1], 1);
    push(g, T_I8, c8[0]);
    push(g, T_I8, c8[1]);
    uint32_t ctrue = new_id(g), cfalse = new_id(g);
    EMIT(g, SpvOpConstantTrue, ty[T_BOOL], ctrue);
    EMIT(g, SpvOpConstantFalse, ty[T_BOOL], cfalse);
    push(g, T_BOOL, ctrue);
    push(g, T_BOOL, cfalse);
    uint32_t id = new_id(g);
    EMIT(g, SpvOpConstantComposite, ty[T_V4F32], id, cf[0], cf[1], cf[2], cf[3]);
    push(g, T_V4F32, id);
    id = new_id(g);
    EMIT(g, SpvOpConstantComposite, ty[T_V4I32], id, g->c_i32[0], g->c_i32[1], g->c_i32[2],
         g->c_i32[3]);
    push(g, T_V4I32, id);
    id = new_id(g);
    EMIT(g, SpvOpConstantComposite, ty[T_V2F32], id, cf[1], cf[2]);
    push(g, T_V2F32, id);
    static const int nulls[] = {T_V2I32, T_V3I32, T_V4I32, T_V2F32, T_V3F32, T_V4F32,
                                T_V2I64, T_V3I8,  T_V4I8,  T_V8I32, T_V8F32};
    for (size_t i = 0; i < sizeof nulls / sizeof nulls[0]; ++i) {
        id = new_id(g);
        EMIT(g, SpvOpConstantNull, ty[nulls[i]], id);
        push(g, nulls[i], id);
    }
    for (int t = 0; t < T_COUNT; ++t) {
        g->pools[t].base = g->pools[t].n;
    }
}

/* ---- function bodies -------------------------------------------------------------------- */

static void new_block(gen *g, uint32_t label)
{
    EMIT(g, SpvOpLabel, label);
    g->label = label;
    g->blocks++;
}

static void step_load(gen *g)
{
    uint32_t idx = pick(g, T_I64);
    uint32_t p = new_id(g), v = value(g);
    switch (rnd(g, 4)) {
    case 0:
        EMIT(g, SpvOpInBoundsPtrAccessChain, g->ty[T_P_V4F32], p, pick(g, T_P_V4F32), idx);
        EMIT(g, SpvOpLoad, g->ty[T_V4F32], v, p, SpvMemoryAccessAlignedMask, 16);
        push(g, T_P_V4F32, p);
        push(g, T_V4F32, v);
        break;
    case 1:
        EMIT(g, SpvOpInBoundsPtrAccessChain, g->ty[T_P_V4I32], p, pick(g, T_P_V4I32), idx);
        EMIT(g, SpvOpLoad, g->ty[T_V4I32], v, p, SpvMemoryAccessAlignedMask, 16);
        push(g, T_P_V4I32, p);
        push(g, T_V4I32, v);
        break;
    case 2:
        EMIT(g, SpvOpInBoundsPtrAccessChain, g->ty[T_P_F32], p, pick(g, T_P_F32), idx);
        EMIT(g, SpvOpLoad, g->ty[T_F32], v, p, SpvMemoryAccessAlignedMask, 4);
        push(g, T_P_F32, p);
        push(g, T_F32, v);
        break;
    default:
        EMIT(g, SpvOpInBoundsPtrAccessChain, g->ty[T_P_I32], p, pick(g, T_P_I32), idx);
        EMIT(g, SpvOpLoad, g->ty[T_I32], v, p, SpvMemoryAccessAlignedMask, 4);
        push(g, T_P_I32, p);
        push(g, T_I32, v);
        break;
    }
}

static void step_store(gen *g)
{
    switch (rnd(g, 4)) {
    case 0:
        EMIT(g, SpvOpStore, pick(g, T_P_V4F32), pick(g, T_V4F32), SpvMemoryAccessAlignedMask, 16);
        break;
    case 1:
        EMIT(g, SpvOpStore, pick(g, T_P_V4I32), pick(g, T_V4I32), SpvMemoryAccessAlignedMask, 16);
        break;
    case 2:
        EMIT(g, SpvOpStore, pick(g, T_P_F32), pick(g, T_F32), SpvMemoryAccessAlignedMask, 4);
        break;
    default:
        EMIT(g, SpvOpStore, pick(g, T_P_I32), pick(g, T_I32), SpvMemoryAccessAlignedMask, 4);
        break;
    }
}

/** Loads and stores of the function's local variables (unoptimised code is full of them). */
static void step_local(gen *g)
{
    uint32_t v;
    switch (rnd(g, 4)) {
    case 0:
        EMIT(g, SpvOpStore, g->var_f4, pick(g, T_V4F32), SpvMemoryAccessAlignedMask, 16);
        break;
    case 1:
        EMIT(g, SpvOpStore, g->var_i, pick(g, T_I32), SpvMemoryAccessAlignedMask, 4);
        break;
    case 2:
        v = value(g);
        EMIT(g, SpvOpLoad, g->ty[T_V4F32], v, g->var_f4, SpvMemoryAccessAlignedMask, 16);
        push(g, T_V4F32, v);
        break;
    default:
        v = value(g);
        EMIT(g, SpvOpLoad, g->ty[T_I32], v, g->var_i, SpvMemoryAccessAlignedMask, 4);
        push(g, T_I32, v);
        break;
    }
}

/** A binary operation `op` on two recent values of type `t`. */
static void binop(gen *g, SpvOp op, int t)
{
    uint32_t a = pick(g, t), b = pick(g, t), v = value(g);
    EMIT(g, op, g->ty[t], v, a, b);
    push(g, t, v);
}

static void unop(gen *g, SpvOp op, int rt, int at)
{
    uint32_t a = pick(g, at), v = value(g);
    EMIT(g, op, g->ty[rt], v, a);
    push(g, rt, v);
}

static void step_arith(gen *g)
{
    static const SpvOp fops[] = {SpvOpFAdd, SpvOpFSub, SpvOpFMul, SpvOpFDiv};
    static const SpvOp iops[] = {SpvOpIAdd,       SpvOpISub,      SpvOpIMul,
                                 SpvOpBitwiseAnd, SpvOpBitwiseOr, SpvOpBitwiseXor};
    uint32_t v;
    switch (rnd(g, 16)) {
    case 0:
    case 1:
        binop(g, fops[rnd(g, 4)], T_V4F32);
        break;
    case 2:
    case 3:
        binop(g, iops[rnd(g, 6)], T_V4I32);
        break;
    case 4:
    case 5:
        binop(g, iops[rnd(g, 6)], T_I32);
        break;
    case 6:
        binop(g, rnd(g, 2) ? SpvOpShiftLeftLogical : SpvOpShiftRightLogical, T_I32);
        break;
    case 7:
        binop(g, fops[rnd(g, 4)], T_F32);
        break;
    case 8:
        binop(g, iops[rnd(g, 3)], T_I64);
        break;
    case 9: /* index computations: int -> long */
        unop(g, SpvOpSConvert, T_I64, T_I32);
        break;
    case 10:
        if (rnd(g, 2)) {
            unop(g, SpvOpConvertSToF, T_F32, T_I32);
        } else {
            unop(g, SpvOpConvertFToS, T_I32, T_F32);
        }
        break;
    case 11:
        unop(g, SpvOpConvertSToF, T_V4F32, T_V4I32);
        break;
    case 12: /* OpenCL.std */
        v = value(g);
        switch (rnd(g, 3)) {
        case 0:
            EMIT(g, SpvOpExtInst, g->ty[T_V4F32], v, g->std_set, OpenCLstd_Fma,
                 pick(g, T_V4F32), pick(g, T_V4F32), pick(g, T_V4F32));
            push(g, T_V4F32, v);
            break;
        case 1:
            EMIT(g, SpvOpExtInst, g->ty[T_F32], v, g->std_set, OpenCLstd_Fmax, pick(g, T_F32),
                 pick(g, T_F32));
            push(g, T_F32, v);
            break;
        default:
            EMIT(g, SpvOpExtInst, g->ty[T_V4F32], v, g->std_set, OpenCLstd_Sqrt,
                 pick(g, T_V4F32));
            push(g, T_V4F32, v);
            break;
        }
        break;
    case 13:
        switch (rnd(g, 4)) {
        case 0:
            binop(g, fops[rnd(g, 3)], T_V2F32);
            break;
        case 1:
            binop(g, iops[rnd(g, 6)], T_V2I32);
            break;
        case 2:
            binop(g, iops[rnd(g, 3)], T_V2I64);
            break;
        default:
            binop(g, iops[rnd(g, 6)], T_V4I8);
            break;
        }
        break;
    case 14:
        if (rnd(g, 2)) {
            binop(g, fops[rnd(g, 3)], T_V8F32);
        } else {
            binop(g, iops[rnd(g, 6)], T_V8I32);
        }
        break;
    default:
        binop(g, iops[rnd(g, 3)], T_I8);
        break;
    }
}

static void shuffle(gen *g, int rt, int at, int bt, uint32_t lanes, uint32_t range)
{
    uint32_t ops[3 + 8 + 2];
    size_t n = 0;
    uint32_t v = value(g);
    ops[n++] = g->ty[rt];
    ops[n++] = v;
    ops[n++] = pick(g, at);
    ops[n++] = pick(g, bt);
    for (uint32_t i = 0; i < lanes; ++i) {
        ops[n++] = rnd(g, range);
    }
    emit_arr(g, SpvOpVectorShuffle, ops, n);
    push(g, rt, v);
}

static void step_shuffle(gen *g)
{
    uint32_t a, v;
    switch (rnd(g, 10)) {
    case 0:
    case 1:
        shuffle(g, T_V4F32, T_V4F32, T_V4F32, 4, 8);
        break;
    case 2:
        shuffle(g, T_V4I32, T_V4I32, T_V4I32, 4, 8);
        break;
    case 3: /* how clang writes as_float3(float4): xyz of the same vector */
        a = pick(g, T_V4F32);
        v = value(g);
        EMIT(g, SpvOpVectorShuffle, g->ty[T_V3F32], v, a, a, 0, 1, 2);
        push(g, T_V3F32, v);
        break;
    case 4:
        a = pick(g, T_V4I32);
        v = value(g);
        EMIT(g, SpvOpVectorShuffle, g->ty[T_V3I32], v, a, a, 0, 1, 2);
        push(g, T_V3I32, v);
        break;
    case 5: /* float3 widened to float4 with an undefined lane */
        a = pick(g, T_V3F32);
        v = value(g);
        EMIT(g, SpvOpVectorShuffle, g->ty[T_V4F32], v, a, a, 0, 1, 2, 0xFFFFFFFFu);
        push(g, T_V4F32, v);
        break;
    case 6:
        shuffle(g, T_V2F32, T_V4F32, T_V4F32, 2, 8);
        break;
    case 7:
        shuffle(g, T_V8F32, T_V4F32, T_V4F32, 8, 8);
        break;
    case 8:
        a = pick(g, T_V4I8);
        v = value(g);
        EMIT(g, SpvOpVectorShuffle, g->ty[T_V3I8], v, a, a, 0, 1, 2);
        push(g, T_V3I8, v);
        break;
    default:
        shuffle(g, T_V4I8, T_V4I8, T_V4I8, 4, 8);
        break;
    }
}

static void step_composite(gen *g)
{
    uint32_t v = value(g);
    switch (rnd(g, 6)) {
    case 0:
        EMIT(g, SpvOpCompositeExtract, g->ty[T_F32], v, pick(g, T_V4F32), rnd(g, 4));
        push(g, T_F32, v);
        break;
    case 1:
        EMIT(g, SpvOpCompositeExtract, g->ty[T_F32], v, pick(g, T_V3F32), rnd(g, 3));
        push(g, T_F32, v);
        break;
    case 2:
        EMIT(g, SpvOpCompositeExtract, g->ty[T_I32], v, pick(g, T_V4I32), rnd(g, 4));
        push(g, T_I32, v);
        break;
    case 3:
        EMIT(g, SpvOpCompositeExtract, g->ty[T_I32], v, pick(g, T_V3I32), rnd(g, 3));
        push(g, T_I32, v);
        break;
    case 4:
        EMIT(g, SpvOpCompositeInsert, g->ty[T_V4F32], v, pick(g, T_F32), pick(g, T_V4F32),
             rnd(g, 4));
        push(g, T_V4F32, v);
        break;
    default:
        EMIT(g, SpvOpCompositeConstruct, g->ty[T_V4F32], v, pick(g, T_F32), pick(g, T_F32),
             pick(g, T_F32), pick(g, T_F32));
        push(g, T_V4F32, v);
        break;
    }
}

static uint32_t compare(gen *g)
{
    uint32_t c = value(g);
    switch (rnd(g, 3)) {
    case 0:
        EMIT(g, SpvOpSLessThan, g->ty[T_BOOL], c, pick(g, T_I32), pick(g, T_I32));
        break;
    case 1:
        EMIT(g, SpvOpIEqual, g->ty[T_BOOL], c, pick(g, T_I32), pick(g, T_I32));
        break;
    default:
        EMIT(g, SpvOpFOrdLessThan, g->ty[T_BOOL], c, pick(g, T_F32), pick(g, T_F32));
        break;
    }
    push(g, T_BOOL, c);
    return c;
}

static void step_select(gen *g)
{
    uint32_t c = rnd(g, 2) ? compare(g) : pick(g, T_BOOL);
    int t = rnd(g, 2) ? T_F32 : T_I32;
    uint32_t v = value(g);
    EMIT(g, SpvOpSelect, g->ty[t], v, c, pick(g, t), pick(g, t));
    push(g, t, v);
}

typedef struct pair {
    unsigned char src, dst;
} pair;

/* Equal total widths: valid OpBitcast (SPIR-V 1.0: pointer <-> pointer or integer scalar). */
static const pair valid_pairs[] = {
    {T_F32, T_I32},         {T_I32, T_F32},         {T_V4I8, T_I32},        {T_I32, T_V4I8},
    {T_V4I8, T_F32},        {T_F32, T_V4I8},        {T_V2F32, T_V2I32},     {T_V2I32, T_V2F32},
    {T_V2F32, T_I64},       {T_I64, T_V2F32},       {T_V2I32, T_I64},       {T_I64, T_V2I32},
    {T_V4F32, T_V4I32},     {T_V4I32, T_V4F32},     {T_V4F32, T_V4I32},     {T_V4I32, T_V4F32},
    {T_V4F32, T_V2I64},     {T_V2I64, T_V4F32},     {T_V4I32, T_V2I64},     {T_V2I64, T_V4I32},
    {T_V3F32, T_V3I32},     {T_V3I32, T_V3F32},     {T_V8F32, T_V8I32},     {T_V8I32, T_V8F32},
    {T_P_V4F32, T_P_V4I32}, {T_P_V4I32, T_P_V4F32}, {T_P_F32, T_P_I32},     {T_P_I32, T_P_F32},
    {T_P_V4F32, T_P_F32},   {T_P_V4I32, T_P_I32},   {T_P_V4F32, T_I64},     {T_I64, T_P_F32},
};

/* as_type-legal 4->3 written as a direct OpBitcast: 128 (or 32) bits to 96 (or 24). */
static const pair lowerable_pairs[] = {
    {T_V4F32, T_V3F32}, {T_V4I32, T_V3F32}, {T_V4F32, T_V3I32},
    {T_V4I32, T_V3I32}, {T_V4I8, T_V3I8},
};

static void bitcast(gen *g, int dst, int src)
{
    uint32_t v = value(g);
    EMIT(g, SpvOpBitcast, g->ty[dst], v, pick(g, src));
    push(g, dst, v);
    g->bitcasts++;
}

static void step_bitcast(gen *g)
{
    if (g->lowerable && (g->lowered + 1) * 10 <= g->bitcasts + 1) {
        const pair *p = &lowerable_pairs[rnd(g, sizeof lowerable_pairs / sizeof lowerable_pairs[0])];
        bitcast(g, p->dst, p->src);
        g->lowered++;
        /* use the 3-component value the way as_float3(x).z would */
        uint32_t v = value(g);
        int comp = p->dst == T_V3F32 ? T_F32 : p->dst == T_V3I32 ? T_I32 : T_I8;
        EMIT(g, SpvOpCompositeExtract, g->ty[comp], v, pick(g, p->dst), rnd(g, 3));
        push(g, comp, v);
        return;
    }
    const pair *p = &valid_pairs[rnd(g, sizeof valid_pairs / sizeof valid_pairs[0])];
    bitcast(g, p->dst, p->src);
}

static void step_call(gen *g)
{
    /* helpers call earlier helpers of the same unit only: the call graph below an entry
     * point stays small, as in real programs, and there is no recursion */
    if (g->helper_count == 0) {
        step_arith(g);
        return;
    }
    uint32_t callee = g->helpers[rnd(g, (uint32_t)g->helper_count)];
    uint32_t v = value(g);
    EMIT(g, SpvOpFunctionCall, g->ty[T_V4F32], v, callee, pick(g, T_P_V4F32),
         pick(g, T_P_V4I32), pick(g, T_I32));
    push(g, T_V4F32, v);
}

static void save_pools(gen *g, size_t *saved)
{
    for (int t = 0; t < T_COUNT; ++t) {
        saved[t] = g->pools[t].n;
    }
}

static void restore_pools(gen *g, const size_t *saved)
{
    for (int t = 0; t < T_COUNT; ++t) {
        g->pools[t].n = saved[t];
    }
}

static size_t gen_steps(gen *g, size_t steps, int depth);

/** if (c) { ... } with an OpPhi merging a float4 at the join. */
static size_t step_diamond(gen *g, int depth)
{
    size_t saved[T_COUNT];
    uint32_t c = compare(g);
    uint32_t then_l = new_id(g), merge_l = new_id(g);
    uint32_t pre_l = g->label, pre_v = pick(g, T_V4F32);
    EMIT(g, SpvOpBranchConditional, c, then_l, merge_l);
    save_pools(g, saved);
    new_block(g, then_l);
    size_t used = gen_steps(g, 2 + rnd(g, 8), depth + 1);
    uint32_t then_v = pick(g, T_V4F32);
    uint32_t then_end = g->label;
    EMIT(g, SpvOpBranch, merge_l);
    restore_pools(g, saved);
    new_block(g, merge_l);
    uint32_t phi = value(g);
    EMIT(g, SpvOpPhi, g->ty[T_V4F32], phi, then_v, then_end, pre_v, pre_l);
    push(g, T_V4F32, phi);
    return used + 2;
}

/** for (i = 0; i < n; ++i) { ... } */
static size_t step_loop(gen *g, int depth)
{
    size_t saved[T_COUNT];
    uint32_t header = new_id(g), body = new_id(g), exit_l = new_id(g);
    uint32_t pre_l = g->label, limit = pick(g, T_I32);
    uint32_t i = value(g), next = new_id(g), c = new_id(g);
    EMIT(g, SpvOpBranch, header);
    new_block(g, header);
    /* the latch label is patched once the body is written */
    EMIT(g, SpvOpPhi, g->ty[T_I32], i, g->c_zero_i32, pre_l, next, 0);
    size_t latch_word = g->cur->n - 1;
    EMIT(g, SpvOpSLessThan, g->ty[T_BOOL], c, i, limit);
    EMIT(g, SpvOpBranchConditional, c, body, exit_l);
    push(g, T_I32, i);
    push(g, T_BOOL, c);
    save_pools(g, saved);
    new_block(g, body);
    size_t used = gen_steps(g, 3 + rnd(g, 12), depth + 1);
    EMIT(g, SpvOpIAdd, g->ty[T_I32], next, i, g->c_one_i32);
    EMIT(g, SpvOpBranch, header);
    g->cur->w[latch_word] = g->label;
    restore_pools(g, saved);
    new_block(g, exit_l);
    return used + 3;
}

/** Emits about `steps` steps into the current block; returns how many it used. */
static size_t gen_steps(gen *g, size_t steps, int depth)
{
    size_t done = 0;
    while (done < steps) {
        uint32_t r = rnd(g, 100);
        if (r < 13) {
            step_load(g);
        } else if (r < 20) {
            step_store(g);
        } else if (r < 27) {
            step_local(g);
        } else if (r < 50) {
            step_arith(g);
        } else if (r < 60) {
            step_shuffle(g);
        } else if (r < 68) {
            step_composite(g);
        } else if (r < 79) {
            step_bitcast(g);
        } else if (r < 83) {
            step_call(g);
        } else if (r < 88) {
            step_select(g);
        } else if (r < 94 && depth < 2) {
            done += step_diamond(g, depth);
        } else if (r >= 94 && depth < 2) {
            done += step_loop(g, depth);
        } else {
            step_arith(g);
        }
        done++;
    }
    return done;
}

static void gen_function(gen *g, int kernel)
{
    char name[32];
    uint32_t *ty = g->ty;
    uint32_t f = new_id(g);
    for (int t = 0; t < T_COUNT; ++t) {
        g->pools[t].n = g->pools[t].base;
    }
    g->cur = &g->funcs;
    EMIT(g, SpvOpFunction, ty[kernel ? T_VOID : T_V4F32], f, SpvFunctionControlMaskNone,
         ty[kernel ? T_FN_KERNEL : T_FN_HELPER]);
    uint32_t pa = new_id(g), pb = new_id(g), pn = new_id(g);
    EMIT(g, SpvOpFunctionParameter, ty[T_P_V4F32], pa);
    EMIT(g, SpvOpFunctionParameter, ty[T_P_V4I32], pb);
    EMIT(g, SpvOpFunctionParameter, ty[T_I32], pn);
    push(g, T_P_V4F32, pa);
    push(g, T_P_V4I32, pb);
    push(g, T_I32, pn);
    new_block(g, new_id(g));
    g->var_f4 = new_id(g);
    g->var_i = new_id(g);
    EMIT(g, SpvOpVariable, ty[T_PF_V4F32], g->var_f4, SpvStorageClassFunction);
    EMIT(g, SpvOpVariable, ty[T_PF_I32], g->var_i, SpvStorageClassFunction);
    /* scalar views of the buffers, as OpenCL code casting global float4* to float* */
    bitcast(g, T_P_F32, T_P_V4F32);
    bitcast(g, T_P_I32, T_P_V4I32);
    unop(g, SpvOpSConvert, T_I64, T_I32);

    gen_steps(g, 8 + rnd(g, 90), 0);

    if (kernel) {
        EMIT0(g, SpvOpReturn);
    } else {
        EMIT(g, SpvOpReturnValue, pick(g, T_V4F32));
    }
    EMIT0(g, SpvOpFunctionEnd);

    snprintf(name, sizeof name, kernel ? "kernel_%zu" : "helper_%zu", g->functions);
    name_id(g, f, name);
    /* unique names: spirv-val's friendly-name table takes time quadratic in the number of
     * repeats of one name (a module naming every function's parameter "a" takes minutes) */
    snprintf(name + strlen(name), sizeof name - strlen(name), ".a");
    name_id(g, pa, name);
    name[strlen(name) - 1] = 'b';
    name_id(g, pb, name);
    name[strlen(name) - 1] = 'n';
    name_id(g, pn, name);
    name[strlen(name) - 2] = '\0';
    if (kernel) {
        g->cur = &g->entry;
        uint32_t pre[2] = {SpvExecutionModelKernel, f};
        emit_with_string(g, SpvOpEntryPoint, pre, 2, name, NULL, 0);
        g->kernels++;
    } else {
        if (g->helper_count == g->helper_cap) {
            g->helper_cap = g->helper_cap ? g->helper_cap * 2 : 256;
            uint32_t *nh = (uint32_t *)realloc(g->helpers, g->helper_cap * sizeof(uint32_t));
            if (!nh) {
                die_oom();
            }
            g->helpers = nh;
        }
        g->helpers[g->helper_count++] = f;
        if (rnd(g, 2) == 0) {
            g->cur = &g->annot;
            uint32_t pre[2] = {f, SpvDecorationLinkageAttributes};
            uint32_t post[1] = {SpvLinkageTypeExport};
            emit_with_string(g, SpvOpDecorate, pre, 2, name, post, 1);
        }
    }
    g->functions++;
}

static size_t total_words(const gen *g)
{
    return g->head.n + g->entry.n + g->debug.n + g->annot.n + g->types.n + g->funcs.n;
}

static int parse_size(const char *s, size_t *out)
{
    char *end;
    errno = 0;
    unsigned long long v = strtoull(s, &end, 10);
    if (errno || end == s) {
        return -1;
    }
    if (*end == 'K' || *end == 'k') {
        v <<= 10;
        end++;
    } else if (*end == 'M' || *end == 'm') {
        v <<= 20;
        end++;
    } else if (*end == 'G' || *end == 'g') {
        v <<= 30;
        end++;
    }
    if (*end != '\0' || v == 0 || v > ((unsigned long long)1 << 34)) {
        return -1;
    }
    *out = (size_t)v;
    return 0;
}

static void usage(void)
{
    fprintf(stderr, "usage: gen_module [-s SIZE[K|M|G]] [--lowerable] [--seed N] [-q] -o OUT\n");
}

int main(int argc, char **argv)
{
    size_t size = (size_t)1 << 20;
    const char *out = NULL;
    int lowerable = 0, quiet = 0;
    unsigned long long seed = 1;
    for (int i = 1; i < argc; ++i) {
        if (!strcmp(argv[i], "-s") && i + 1 < argc) {
            if (parse_size(argv[++i], &size)) {
                usage();
                return 2;
            }
        } else if (!strcmp(argv[i], "-o") && i + 1 < argc) {
            out = argv[++i];
        } else if (!strcmp(argv[i], "--lowerable")) {
            lowerable = 1;
        } else if (!strcmp(argv[i], "--seed") && i + 1 < argc) {
            seed = strtoull(argv[++i], NULL, 10);
        } else if (!strcmp(argv[i], "-q")) {
            quiet = 1;
        } else {
            usage();
            return 2;
        }
    }
    if (!out) {
        usage();
        return 2;
    }

    gen g;
    memset(&g, 0, sizeof g);
    g.next_id = 1;
    g.rng = 0x9E3779B97F4A7C15ULL ^ (seed * 0xD1B54A32D192ED03ULL);
    if (g.rng == 0) {
        g.rng = 1;
    }
    g.lowerable = lowerable;

    /* header (bound patched at the end), capabilities, OpenCL.std, memory model */
    g.cur = &g.head;
    wb_reserve(&g.head, 5);
    g.head.w[g.head.n++] = SpvMagicNumber;
    g.head.w[g.head.n++] = 0x00010000u; /* SPIR-V 1.0, as libclc and llvm-spirv write */
    g.head.w[g.head.n++] = 0;           /* generator: unregistered */
    g.head.w[g.head.n++] = 0;           /* bound */
    g.head.w[g.head.n++] = 0;
    static const SpvCapability caps[] = {SpvCapabilityAddresses, SpvCapabilityLinkage,
                                         SpvCapabilityKernel,    SpvCapabilityVector16,
                                         SpvCapabilityInt64,     SpvCapabilityInt8};
    for (size_t i = 0; i < sizeof caps / sizeof caps[0]; ++i) {
        EMIT(&g, SpvOpCapability, (uint32_t)caps[i]);
    }
    g.std_set = new_id(&g);
    {
        uint32_t pre[1] = {g.std_set};
        emit_with_string(&g, SpvOpExtInstImport, pre, 1, "OpenCL.std", NULL, 0);
    }
    EMIT(&g, SpvOpMemoryModel, SpvAddressingModelPhysical64, SpvMemoryModelOpenCL);
    g.cur = &g.debug;
    EMIT(&g, SpvOpSource, SpvSourceLanguageOpenCL_C, 102000);

    declare_types(&g);

    size_t want_words = (size + 3) / 4;
    while (total_words(&g) < want_words) {
        if (g.functions % 32 == 0) {
            g.helper_count = 0; /* a new unit of 32 functions, 4 of them kernels */
        }
        gen_function(&g, g.functions % 8 == 7);
    }

    g.head.w[3] = g.next_id;
    FILE *f = fopen(out, "wb");
    if (!f) {
        fprintf(stderr, "gen_module: cannot open %s: %s\n", out, strerror(errno));
        return 1;
    }
    const wbuf *parts[] = {&g.head, &g.entry, &g.debug, &g.annot, &g.types, &g.funcs};
    for (size_t i = 0; i < sizeof parts / sizeof parts[0]; ++i) {
        if (parts[i]->n && fwrite(parts[i]->w, sizeof(uint32_t), parts[i]->n, f) != parts[i]->n) {
            fprintf(stderr, "gen_module: write error on %s\n", out);
            fclose(f);
            return 1;
        }
    }
    if (fclose(f) != 0) {
        fprintf(stderr, "gen_module: write error on %s\n", out);
        return 1;
    }
    if (!quiet) {
        size_t words = total_words(&g);
        fprintf(stderr,
                "gen_module: %s: %zu bytes, %zu instructions (%.2f words each), %zu functions "
                "(%zu kernels), %zu blocks, id bound %u (%.2f words per id), %zu OpName, "
                "%zu OpBitcast (%.2f%% of instructions), %zu of them lowerable 4->3 (%.1f%%)\n",
                out, words * 4, g.instructions, (double)words / (double)g.instructions,
                g.functions, g.kernels, g.blocks, g.next_id, (double)words / (double)g.next_id,
                g.names, g.bitcasts, 100.0 * (double)g.bitcasts / (double)g.instructions,
                g.lowered, g.bitcasts ? 100.0 * (double)g.lowered / (double)g.bitcasts : 0.0);
    }
    for (int t = 0; t < T_COUNT; ++t) {
        free(g.pools[t].v);
    }
    free(g.helpers);
    free(g.head.w);
    free(g.entry.w);
    free(g.debug.w);
    free(g.annot.w);
    free(g.types.w);
    free(g.funcs.w);
    return 0;
}
