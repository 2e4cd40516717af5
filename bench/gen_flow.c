/*
 * gen_flow.c - the generator's control flow and functions: if-diamonds with an OpPhi, counted
 * loops, the mix of steps in a block, and whole functions (parameters, local variables, names,
 * entry points, exports).
 *
 * SPDX-License-Identifier: Apache-2.0
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gen_module.h"

static void new_block(gen *g, uint32_t label)
{
    EMIT(g, SpvOpLabel, label);
    g->label = label;
    g->blocks++;
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
    uint32_t c = gen_compare(g);
    uint32_t then_l = new_id(g), merge_l = new_id(g);
    uint32_t pre_l = g->label, pre_v = gen_pick(g, T_V4F32);
    EMIT(g, SpvOpBranchConditional, c, then_l, merge_l);
    save_pools(g, saved);
    new_block(g, then_l);
    size_t used = gen_steps(g, 2 + rnd(g, 8), depth + 1);
    uint32_t then_v = gen_pick(g, T_V4F32);
    uint32_t then_end = g->label;
    EMIT(g, SpvOpBranch, merge_l);
    restore_pools(g, saved);
    new_block(g, merge_l);
    uint32_t phi = gen_value(g);
    EMIT(g, SpvOpPhi, g->ty[T_V4F32], phi, then_v, then_end, pre_v, pre_l);
    gen_push(g, T_V4F32, phi);
    return used + 2;
}

/** for (i = 0; i < n; ++i) { ... } */
static size_t step_loop(gen *g, int depth)
{
    size_t saved[T_COUNT];
    uint32_t header = new_id(g), body = new_id(g), exit_l = new_id(g);
    uint32_t pre_l = g->label, limit = gen_pick(g, T_I32);
    uint32_t i = gen_value(g), next = new_id(g), c = new_id(g);
    EMIT(g, SpvOpBranch, header);
    new_block(g, header);
    /* the latch label is patched once the body is written */
    EMIT(g, SpvOpPhi, g->ty[T_I32], i, g->c_zero_i32, pre_l, next, 0);
    size_t latch_word = g->cur->n - 1;
    EMIT(g, SpvOpSLessThan, g->ty[T_BOOL], c, i, limit);
    EMIT(g, SpvOpBranchConditional, c, body, exit_l);
    gen_push(g, T_I32, i);
    gen_push(g, T_BOOL, c);
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
    /* r = rnd(100) picks the first step whose bound is above r; 88..93 a diamond, 94..99 a
     * loop (straight arithmetic at depth 2) */
    static const struct {
        uint32_t below;
        void (*step)(gen *g);
    } mix[] = {{13, gen_step_load},    {20, gen_step_store},   {27, gen_step_local},
               {50, gen_step_arith},   {60, gen_step_shuffle}, {68, gen_step_composite},
               {79, gen_step_bitcast}, {83, gen_step_call},    {88, gen_step_select}};
    size_t done = 0;
    while (done < steps) {
        uint32_t r = rnd(g, 100);
        size_t k = 0;
        while (k < sizeof mix / sizeof mix[0] && r >= mix[k].below) {
            k++;
        }
        if (k < sizeof mix / sizeof mix[0]) {
            mix[k].step(g);
        } else if (r < 94 && depth < 2) {
            done += step_diamond(g, depth);
        } else if (r >= 94 && depth < 2) {
            done += step_loop(g, depth);
        } else {
            gen_step_arith(g);
        }
        done++;
    }
    return done;
}

void gen_function(gen *g, int kernel)
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
    gen_push(g, T_P_V4F32, pa);
    gen_push(g, T_P_V4I32, pb);
    gen_push(g, T_I32, pn);
    new_block(g, new_id(g));
    g->var_f4 = new_id(g);
    g->var_i = new_id(g);
    EMIT(g, SpvOpVariable, ty[T_PF_V4F32], g->var_f4, SpvStorageClassFunction);
    EMIT(g, SpvOpVariable, ty[T_PF_I32], g->var_i, SpvStorageClassFunction);
    /* scalar views of the buffers, as OpenCL code casting global float4* to float* */
    gen_bitcast(g, T_P_F32, T_P_V4F32);
    gen_bitcast(g, T_P_I32, T_P_V4I32);
    gen_unop(g, SpvOpSConvert, T_I64, T_I32);

    gen_steps(g, 8 + rnd(g, 90), 0);

    if (kernel) {
        EMIT0(g, SpvOpReturn);
    } else {
        EMIT(g, SpvOpReturnValue, gen_pick(g, T_V4F32));
    }
    EMIT0(g, SpvOpFunctionEnd);

    snprintf(name, sizeof name, kernel ? "kernel_%zu" : "helper_%zu", g->functions);
    gen_name_id(g, f, name);
    /* unique names: spirv-val's friendly-name table takes time quadratic in the number of
     * repeats of one name (a module naming every function's parameter "a" takes minutes) */
    snprintf(name + strlen(name), sizeof name - strlen(name), ".a");
    gen_name_id(g, pa, name);
    name[strlen(name) - 1] = 'b';
    gen_name_id(g, pb, name);
    name[strlen(name) - 1] = 'n';
    gen_name_id(g, pn, name);
    name[strlen(name) - 2] = '\0';
    if (kernel) {
        g->cur = &g->entry;
        uint32_t pre[2] = {SpvExecutionModelKernel, f};
        gen_emit_with_string(g, SpvOpEntryPoint, pre, 2, name, NULL, 0);
        g->kernels++;
    } else {
        if (g->helper_count == g->helper_cap) {
            g->helper_cap = g->helper_cap ? g->helper_cap * 2 : 256;
            uint32_t *nh = (uint32_t *)realloc(g->helpers, g->helper_cap * sizeof(uint32_t));
            if (!nh) {
                gen_die_oom();
            }
            g->helpers = nh;
        }
        g->helpers[g->helper_count++] = f;
        if (rnd(g, 2) == 0) {
            g->cur = &g->annot;
            uint32_t pre[2] = {f, SpvDecorationLinkageAttributes};
            uint32_t post[1] = {SpvLinkageTypeExport};
            gen_emit_with_string(g, SpvOpDecorate, pre, 2, name, post, 1);
        }
    }
    g->functions++;
}
