/*
 * gen_module.h - the benchmark's module generator (gen_module.c says what it writes), shared by
 * its rooms: gen_emit.c (emitting, value pools, types and constants), gen_steps.c (the
 * straight-line code), gen_flow.c (branches, loops, whole functions) and gen_module.c (the
 * command: options, header, the file).  Words go into test/support's module builder
 * (modbuild.h), random numbers come from test/support's generator (test_rng.h): same
 * arguments, same bytes.
 *
 * SPDX-License-Identifier: Apache-2.0
 */
#ifndef SPVBC_BENCH_GEN_MODULE_H_
#define SPVBC_BENCH_GEN_MODULE_H_

#include <stddef.h>
#include <stdint.h>

#include <spirv/unified1/spirv.h>

#include "modbuild.h"
#include "test_rng.h"

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
    mb head; /* header, capabilities, ext-inst import, memory model */
    mb entry; /* OpEntryPoint */
    mb debug; /* OpSource, OpName */
    mb annot; /* OpDecorate */
    mb types; /* types and constants */
    mb funcs; /* function bodies */
    mb *cur; /* where emit() appends */
    uint32_t next_id;
    test_rng rng;
    int lowerable;
    uint32_t ty[T_COUNT];
    pool pools[T_COUNT];
    uint32_t std_set;
    uint32_t c_i32[8];
    uint32_t c_i64[4];
    uint32_t c_zero_i32, c_one_i32;
    uint32_t *helpers;
    size_t helper_count, helper_cap;
    uint32_t label; /* the current block */
    uint32_t var_f4, var_i; /* the current function's local variables */
    /* statistics */
    size_t instructions, bitcasts, lowered, functions, kernels, names, blocks;
} gen;

/** Reports that memory ran out and exits with status 2. */
void gen_die_oom(void);

static inline uint32_t rnd(gen *g, uint32_t n)
{
    return test_rng_below(&g->rng, n);
}

static inline uint32_t new_id(gen *g)
{
    return g->next_id++;
}

/* ---- gen_emit.c --------------------------------------------------------------------------- */

void gen_emit_arr(gen *g, SpvOp op, const uint32_t *ops, size_t n);

#define EMIT(g, op, ...)                                                                           \
    gen_emit_arr((g), (op), (const uint32_t[]){__VA_ARGS__},                                       \
                 sizeof((const uint32_t[]){__VA_ARGS__}) / sizeof(uint32_t))
#define EMIT0(g, op) gen_emit_arr((g), (op), NULL, 0)

/** Emits an instruction whose operands end with the literal string `s`. */
void gen_emit_with_string(gen *g, SpvOp op, const uint32_t *pre, size_t npre, const char *s,
                          const uint32_t *post, size_t npost);

/** OpName `id` "s" in the debug section. */
void gen_name_id(gen *g, uint32_t id, const char *s);

/** Pushes value `id` onto the pool of type `t`. */
void gen_push(gen *g, int t, uint32_t id);

/** One of the eight most recent values of type `t` (locality, as in real code). */
uint32_t gen_pick(gen *g, int t);

/** A new value id; one in twelve gets an OpName.  Pushed by the caller. */
uint32_t gen_value(gen *g);

/** The types and constants; every value type gets a constant, so no pool starts empty. */
void gen_declare_types(gen *g);

/* ---- gen_steps.c: one step of straight-line code each --------------------------------------- */

void gen_step_load(gen *g);
void gen_step_store(gen *g);
void gen_step_local(gen *g);
void gen_step_arith(gen *g);
void gen_step_shuffle(gen *g);
void gen_step_composite(gen *g);
void gen_step_select(gen *g);
void gen_step_bitcast(gen *g);
void gen_step_call(gen *g);
/** A unary operation `op` from a recent value of type `at` to a new one of type `rt`. */
void gen_unop(gen *g, SpvOp op, int rt, int at);
/** A comparison of two recent values into a new bool; returns its id. */
uint32_t gen_compare(gen *g);
/** OpBitcast of a recent value of type `src` to a new one of type `dst`. */
void gen_bitcast(gen *g, int dst, int src);

/* ---- gen_flow.c ------------------------------------------------------------------------------ */

/** One function: a kernel entry point when `kernel`, else a helper of the current unit. */
void gen_function(gen *g, int kernel);

#endif /* SPVBC_BENCH_GEN_MODULE_H_ */
