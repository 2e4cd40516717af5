/*
 * gen_emit.c - the generator's words: instructions into the section being written, the pools
 * of recent values each step picks its operands from, and the module's types and constants.
 *
 * SPDX-License-Identifier: Apache-2.0
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gen_module.h"

void gen_die_oom(void)
{
    fprintf(stderr, "gen_module: out of memory\n");
    exit(2);
}

void gen_emit_arr(gen *g, SpvOp op, const uint32_t *ops, size_t n)
{
    mb_opn(g->cur, (uint32_t)op, ops, n);
    g->instructions++;
}

/** Emits an instruction whose operands end with the literal string `s`. */
void gen_emit_with_string(gen *g, SpvOp op, const uint32_t *pre, size_t npre, const char *s,
                          const uint32_t *post, size_t npost)
{
    mb_inst(g->cur, (uint32_t)op, pre, npre, s, post, npost);
    g->instructions++;
}

void gen_name_id(gen *g, uint32_t id, const char *s)
{
    mb *saved = g->cur;
    g->cur = &g->debug;
    gen_emit_with_string(g, SpvOpName, &id, 1, s, NULL, 0);
    g->cur = saved;
    g->names++;
}

void gen_push(gen *g, int t, uint32_t id)
{
    pool *p = &g->pools[t];
    if (p->n == p->cap) {
        size_t ncap = p->cap ? p->cap * 2 : 64;
        uint32_t *nv = (uint32_t *)realloc(p->v, ncap * sizeof(uint32_t));
        if (!nv) {
            gen_die_oom();
        }
        p->v = nv;
        p->cap = ncap;
    }
    p->v[p->n++] = id;
}

/** One of the eight most recent values of type `t` (locality, as in real code). */
uint32_t gen_pick(gen *g, int t)
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
uint32_t gen_value(gen *g)
{
    uint32_t id = new_id(g);
    if (rnd(g, 12) == 0) {
        char buf[32];
        snprintf(buf, sizeof buf, "tmp.%u", id);
        gen_name_id(g, id, buf);
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

void gen_declare_types(gen *g)
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
    gen_name_id(g, ty[T_V4F32], "float4");
    gen_name_id(g, ty[T_V4I32], "int4");

    /* constants: every value type has at least one, so every pool starts non-empty */
    static const uint32_t i32_vals[8] = {0, 1, 2, 3, 4, 8, 16, 255};
    for (int i = 0; i < 8; ++i) {
        g->c_i32[i] = new_id(g);
        EMIT(g, SpvOpConstant, ty[T_I32], g->c_i32[i], i32_vals[i]);
        gen_push(g, T_I32, g->c_i32[i]);
    }
    g->c_zero_i32 = g->c_i32[0];
    g->c_one_i32 = g->c_i32[1];
    static const uint32_t i64_vals[4] = {0, 1, 4, 16};
    for (int i = 0; i < 4; ++i) {
        g->c_i64[i] = new_id(g);
        EMIT(g, SpvOpConstant, ty[T_I64], g->c_i64[i], i64_vals[i], 0);
        gen_push(g, T_I64, g->c_i64[i]);
    }
    static const float f32_vals[4] = {0.5f, 1.0f, 2.0f, 3.25f};
    uint32_t cf[4];
    for (int i = 0; i < 4; ++i) {
        cf[i] = new_id(g);
        EMIT(g, SpvOpConstant, ty[T_F32], cf[i], f32_bits(f32_vals[i]));
        gen_push(g, T_F32, cf[i]);
    }
    uint32_t c8[2] = {new_id(g), new_id(g)};
    EMIT(g, SpvOpConstant, ty[T_I8], c8[0], 0);
    EMIT(g, SpvOpConstant, ty[T_I8], c8[1], 1);
    gen_push(g, T_I8, c8[0]);
    gen_push(g, T_I8, c8[1]);
    uint32_t ctrue = new_id(g), cfalse = new_id(g);
    EMIT(g, SpvOpConstantTrue, ty[T_BOOL], ctrue);
    EMIT(g, SpvOpConstantFalse, ty[T_BOOL], cfalse);
    gen_push(g, T_BOOL, ctrue);
    gen_push(g, T_BOOL, cfalse);
    uint32_t id = new_id(g);
    EMIT(g, SpvOpConstantComposite, ty[T_V4F32], id, cf[0], cf[1], cf[2], cf[3]);
    gen_push(g, T_V4F32, id);
    id = new_id(g);
    EMIT(g, SpvOpConstantComposite, ty[T_V4I32], id, g->c_i32[0], g->c_i32[1], g->c_i32[2],
         g->c_i32[3]);
    gen_push(g, T_V4I32, id);
    id = new_id(g);
    EMIT(g, SpvOpConstantComposite, ty[T_V2F32], id, cf[1], cf[2]);
    gen_push(g, T_V2F32, id);
    static const int nulls[] = {T_V2I32, T_V3I32, T_V4I32, T_V2F32, T_V3F32, T_V4F32,
                                T_V2I64, T_V3I8,  T_V4I8,  T_V8I32, T_V8F32};
    for (size_t i = 0; i < sizeof nulls / sizeof nulls[0]; ++i) {
        id = new_id(g);
        EMIT(g, SpvOpConstantNull, ty[nulls[i]], id);
        gen_push(g, nulls[i], id);
    }
    for (int t = 0; t < T_COUNT; ++t) {
        g->pools[t].base = g->pools[t].n;
    }
}
