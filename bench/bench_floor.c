/*
 * bench_floor.c - the floors the in-process figures are set against, on the input already in
 * memory: the walk (every instruction's first word, each read waiting for the last: what any
 * reader of SPIR-V pays) and the record floor (the walk, plus the least a reader that can name
 * the type of any bitcast's operand does for every instruction).
 *
 * SPDX-License-Identifier: Apache-2.0
 */
#define SPV_ENABLE_UTILITY_CODE /* SpvHasResultAndType(), under a name of the benchmark's own */
#define SpvHasResultAndType bench_has_result_and_type
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"

/* spirv.h's inline function, emitted here. */
extern void bench_has_result_and_type(SpvOp opcode, bool *has_result, bool *has_type);

static volatile uint32_t floor_sink;

/** The floor: one linear pass that reads every instruction's first word and counts opcodes
 *  (what the issue calls "a single linear pass that only reads every instruction"). */
double bench_run_walk(const uint32_t *words, size_t count)
{
    static uint32_t hist[256];
    double t0 = test_time_now();
    memset(hist, 0, sizeof hist);
    size_t off = 5;
    while (off < count) {
        uint32_t w = words[off];
        uint32_t wc = w >> 16;
        hist[w & 0xffu]++;
        off += wc ? wc : 1;
    }
    uint32_t x = 0;
    for (int i = 0; i < 256; ++i) {
        x += hist[i] * (uint32_t)i;
    }
    floor_sink = x;
    return test_time_now() - t0;
}

/** The copy floor: the input copied once into a buffer of its size, kept from call to call (its
 *  pages already touched, as the library's context keeps its output buffer): what writing a
 *  lowered module of about the input's size out as one array costs beyond reading it. */
double bench_run_copy(const uint32_t *words, size_t count)
{
    static uint32_t *out;
    static size_t out_cap;
    if (count == 0) {
        return 0;
    }
    if (out_cap < count) {
        free(out);
        out = (uint32_t *)bench_xmalloc(count * 4);
        memset(out, 0, count * 4);
        out_cap = count;
    }
    double t0 = test_time_now();
    memcpy(out, words, count * 4);
    floor_sink = out[count / 2];
    return test_time_now() - t0;
}

/** The record floor: the walk, and for every instruction its opcode's shape (result id? result
 *  type?) from a table of SPIRV-Headers' facts and its result type (or a mark) stored in an id
 *  table cleared first, as the library's reader does, but with no check of any kind (ids in
 *  range, defined once, types declared before use) and no bitcast recorded beyond a count.  A
 *  reader that can name the type of a bitcast's operand does at least this, or walks twice. */
double bench_run_record(const uint32_t *words, size_t count, uint32_t bound)
{
    static uint8_t shape[65536]; /* bit 0: result id; bit 1: result type */
    static int ready;
    static uint32_t *ids;
    static size_t ids_cap;
    if (!ready) {
        for (uint32_t op = 0; op < 65536u; ++op) {
            bool r = false, t = false;
            bench_has_result_and_type((SpvOp)op, &r, &t);
            shape[op] = (uint8_t)((r ? 1u : 0u) | (t ? 2u : 0u));
        }
        ready = 1;
    }
    if (bound == 0) { /* no id can be recorded (the library refuses such a module) */
        return 0;
    }
    if (ids_cap < bound) { /* kept from call to call, as the library's context keeps its own */
        free(ids);
        ids = (uint32_t *)bench_xmalloc((size_t)bound * 4);
        ids_cap = bound;
    }
    double t0 = test_time_now();
    memset(ids, 0, (size_t)bound * 4);
    size_t off = 5, bitcasts = 0;
    while (off < count) {
        const uint32_t w0 = words[off], wc = w0 >> 16, op = w0 & 0xffffu;
        if (wc == 0 || wc > count - off) {
            break;
        }
        const uint32_t s = shape[op], typed = s >> 1;
        if ((s & 1u) && wc > 1u + typed) {
            const uint32_t id = words[off + 1 + typed];
            if (id < bound) {
                ids[id] = typed ? words[off + 1] : 1u;
            }
        }
        bitcasts += op == SpvOpBitcast;
        off += wc;
    }
    floor_sink = (uint32_t)bitcasts + ids[bound / 2];
    return test_time_now() - t0;
}
