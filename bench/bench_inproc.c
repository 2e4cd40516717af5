/*
 * bench_inproc.c - the benchmark's in-process runs, with the input already in memory:
 * parse+validate and parse+lower+get_words through the public API, first call and warm median
 * (wall and thread CPU time), with the default allocator and one that hands freed blocks back;
 * on invalid inputs also validate under COUNT_ONLY and validate reading every diagnostic; the
 * floors (bench_floor.c); and the small modules timed per call as a Vulkan layer calls the library.
 *
 * SPDX-License-Identifier: Apache-2.0
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "bench.h"

int bench_load_words(const char *path, uint32_t **words, size_t *size)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        return -1;
    }
    struct stat st;
    if (fstat(fileno(f), &st) != 0 || st.st_size <= 0) {
        fclose(f);
        return -1;
    }
    *size = (size_t)st.st_size;
    *words = (uint32_t *)bench_xmalloc((*size + 3) & ~(size_t)3);
    size_t got = fread(*words, 1, *size, f);
    fclose(f);
    return got == *size ? 0 : -1;
}

/* A caller allocator that keeps freed blocks of 64 KiB and more and hands them out again for
 * the same size, as a driver's arena or a malloc that keeps its memory would: the calls after
 * the first then find their big tables already mapped.  It separates the library's own work
 * from the cost of first-touching fresh pages, which is high on some virtual machines. */
#define REUSE_MIN 65536u
#define REUSE_SLOTS 64
typedef struct reuse_cache {
    void *ptr[REUSE_SLOTS];
    size_t size[REUSE_SLOTS];
    int count;
} reuse_cache;

static void *reuse_alloc(void *user, size_t size)
{
    reuse_cache *c = (reuse_cache *)user;
    if (size >= REUSE_MIN) {
        for (int i = 0; i < c->count; ++i) {
            if (c->size[i] == size) {
                void *p = c->ptr[i];
                c->count--;
                c->ptr[i] = c->ptr[c->count];
                c->size[i] = c->size[c->count];
                return p;
            }
        }
    }
    return malloc(size);
}

static void reuse_free(void *user, void *ptr, size_t size)
{
    reuse_cache *c = (reuse_cache *)user;
    if (ptr && size >= REUSE_MIN && c->count < REUSE_SLOTS) {
        c->ptr[c->count] = ptr;
        c->size[c->count] = size;
        c->count++;
        return;
    }
    free(ptr);
}

static void reuse_clear(reuse_cache *c)
{
    for (int i = 0; i < c->count; ++i) {
        free(c->ptr[i]);
    }
    c->count = 0;
}

/** One parse+validate or parse+lower+get_words in `*ctx`, creating the context first when
 *  `*ctx` is NULL (the first call); seconds, or < 0 on failure (the context is then destroyed
 *  and `*ctx` reset). */
static volatile size_t diag_sink;

/** Reads every diagnostic of `ctx` through spvbc_context_diagnostic() and touches the text a
 *  caller would print (sentence, rule, as_type spelling); returns how many it read. */
static size_t read_diagnostics(spvbc_context ctx)
{
    size_t n = spvbc_context_diagnostic_count(ctx), sum = 0;
    for (size_t i = 0; i < n; ++i) {
        const spvbc_diagnostic *d = spvbc_context_diagnostic(ctx, i);
        if (d) {
            sum += strlen(d->message) + (size_t)d->rule[0] + d->word_offset;
            sum += d->astype ? (size_t)d->astype[0] : 0;
        }
    }
    diag_sink = sum;
    return n;
}

static double run_op(input *in, op_kind op, const uint32_t *words, size_t count,
                     const spvbc_allocator *alloc, spvbc_context *ctx)
{
    spvbc_module mod;
    spvbc_parse_options po = SPVBC_PARSE_OPTIONS_INIT;
    po.max_id_bound = bench_id_cap(in->bound);
    if (op == OP_WALK) {
        return bench_run_walk(words, count);
    }
    if (op == OP_RECORD) {
        return bench_run_record(words, count, in->bound);
    }
    if (op == OP_COPY) {
        return bench_run_copy(words, count);
    }
    double t0 = test_time_now();
    if (!*ctx) {
        if (spvbc_context_create(alloc, ctx) != SPVBC_SUCCESS) {
            *ctx = NULL;
            return -1;
        }
        if (op == OP_VALIDATE_COUNT &&
            spvbc_context_set_diagnostic_policy(*ctx, SPVBC_DIAGNOSTIC_POLICY_COUNT_ONLY, 0) !=
                SPVBC_SUCCESS) {
            spvbc_context_destroy(*ctx);
            *ctx = NULL;
            return -1;
        }
    }
    spvbc_result r = spvbc_module_parse(*ctx, words, count, &po, &mod);
    if (r == SPVBC_SUCCESS) {
        if (op != OP_LOWER) {
            in->vsum.struct_size = sizeof in->vsum;
            r = spvbc_module_validate(mod, NULL, &in->vsum);
            in->validate_result = r;
            if (r == SPVBC_ERROR_VALIDATION_FAILED) {
                r = SPVBC_SUCCESS;
            }
            if (op == OP_VALIDATE_READ) {
                in->diags_read = read_diagnostics(*ctx);
            }
        } else {
            const uint32_t *out;
            in->lsum.struct_size = sizeof in->lsum;
            r = spvbc_module_lower(mod, NULL, &in->lsum);
            if (r == SPVBC_PARTIAL) r = SPVBC_SUCCESS; /* the summary counts the refusals */
            if (r == SPVBC_SUCCESS) {
                r = spvbc_module_get_words(mod, &out, &in->out_words);
            }
        }
        in->info.struct_size = sizeof in->info;
        if (spvbc_module_get_info(mod, &in->info) != SPVBC_SUCCESS) {
            memset(&in->info, 0, sizeof in->info);
        }
        spvbc_module_destroy(mod);
    }
    double t = test_time_now() - t0;
    if (r != SPVBC_SUCCESS) {
        if (spvbc_context_diagnostic_count(*ctx)) {
            fprintf(stderr, "spvbc_bench: %s: %s: %s\n", in->label, spvbc_result_string(r),
                    spvbc_context_diagnostic(*ctx, 0)->message);
        }
        spvbc_context_destroy(*ctx);
        *ctx = NULL;
        return -1;
    }
    return t;
}

static double cpu_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

void bench_measure_op(const options *o, input *in, op_kind op, const uint32_t *words, size_t count,
                      timing *t, int reuse)
{
    reuse_cache cache;
    spvbc_allocator ra = {sizeof(spvbc_allocator), reuse_alloc, reuse_free, &cache};
    const spvbc_allocator *alloc = reuse ? &ra : NULL;
    cache.count = 0;
    int cap = o->max_reps < 1 ? 1 : o->max_reps;
    double *times = (double *)bench_xmalloc((size_t)cap * sizeof(double));
    double *cpus = (double *)bench_xmalloc((size_t)cap * sizeof(double));
    memset(t, 0, sizeof *t);
    t->ran = 1;
    double c0 = cpu_now();
    spvbc_context ctx = NULL; /* created by the first call, reused by the warm ones */
    t->first = run_op(in, op, words, count, alloc, &ctx);
    t->cpu_first = cpu_now() - c0;
    if (t->first < 0) {
        t->failed = 1;
        free(times);
        free(cpus);
        reuse_clear(&cache);
        return;
    }
    double spent = t->first;
    int n = 0;
    while (n < cap && (n < o->min_reps || spent < o->min_time)) {
        c0 = cpu_now();
        double s = run_op(in, op, words, count, alloc, &ctx);
        cpus[n] = cpu_now() - c0;
        if (s < 0) {
            t->failed = 1;
            break;
        }
        times[n++] = s;
        spent += s;
    }
    t->reps = n;
    if (n) {
        t->warm = test_time_median(times, n); /* sorts */
        t->lo = times[0];
        t->hi = times[n - 1];
        t->cpu_warm = test_time_median(cpus, n);
    }
    free(times);
    free(cpus);
    spvbc_context_destroy(ctx);
    reuse_clear(&cache);
}

static int small_call(spvbc_context *ctx, const mb *b, int fresh, spvbc_diagnostic_policy policy)
{
    spvbc_module mod;
    spvbc_validate_summary vs = SPVBC_VALIDATE_SUMMARY_INIT;
    int ok = 1;
    if (fresh && (spvbc_context_create(NULL, ctx) != SPVBC_SUCCESS ||
                  spvbc_context_set_diagnostic_policy(*ctx, policy, 0) != SPVBC_SUCCESS)) {
        return 0;
    }
    if (spvbc_module_parse_bytes(*ctx, b->w, b->n * 4, NULL, &mod) != SPVBC_SUCCESS) {
        ok = 0;
    } else {
        spvbc_result r = spvbc_module_validate(mod, NULL, &vs);
        ok = r == SPVBC_SUCCESS || r == SPVBC_ERROR_VALIDATION_FAILED;
        if (ok && vs.errors) {
            spvbc_lower_summary ls = SPVBC_LOWER_SUMMARY_INIT;
            const uint32_t *out;
            size_t nout;
            ok = spvbc_module_lower(mod, NULL, &ls) == SPVBC_SUCCESS && ls.rewritten &&
                 spvbc_module_get_words(mod, &out, &nout) == SPVBC_SUCCESS;
        }
        spvbc_module_destroy(mod);
    }
    if (fresh) {
        spvbc_context_destroy(*ctx);
        *ctx = NULL;
    }
    return ok;
}

static void measure_small(const options *o, const mb *b, int fresh, spvbc_diagnostic_policy policy,
                          small_m *m)
{
    enum { BATCH = 64, MAX_BATCHES = 4096 };
    static double per[MAX_BATCHES];
    spvbc_context ctx = NULL;
    memset(m, 0, sizeof *m);
    m->ran = 1;
    m->bytes = b->n * 4;
    if (!fresh && (spvbc_context_create(NULL, &ctx) != SPVBC_SUCCESS ||
                   spvbc_context_set_diagnostic_policy(ctx, policy, 0) != SPVBC_SUCCESS)) {
        m->failed = 1;
        return;
    }
    for (int k = 0; k < BATCH; ++k) { /* warm up: caches, and the context's spare tables */
        m->failed |= !small_call(&ctx, b, fresh, policy);
    }
    double spent = 0, limit = o->min_time < 0.2 ? 0.2 : o->min_time;
    int n = 0;
    while (!m->failed && n < MAX_BATCHES && (n < 30 || spent < limit)) {
        double t0 = test_time_now();
        for (int k = 0; k < BATCH; ++k) {
            m->failed |= !small_call(&ctx, b, fresh, policy);
        }
        double t = test_time_now() - t0;
        spent += t;
        per[n++] = t / BATCH * 1e6;
    }
    spvbc_context_destroy(ctx);
    m->calls = n * BATCH;
    if (n) {
        m->us = test_time_median(per, n); /* sorts */
        m->us_min = per[0];
    }
}

void bench_run_small(const options *o, small_set *s)
{
    mb six = {0}, clean = {0};
    bench_build_compute(&six, 10, 6);
    bench_build_clean8k(&clean);
    printf("  small modules: %zu bytes with 6 rewrites, clean %zu bytes\n", six.n * 4, clean.n * 4);
    fflush(stdout);
    measure_small(o, &six, 1, SPVBC_DIAGNOSTIC_POLICY_KEEP_ALL, &s->m[0]);
    measure_small(o, &six, 0, SPVBC_DIAGNOSTIC_POLICY_KEEP_ALL, &s->m[1]);
    measure_small(o, &clean, 0, SPVBC_DIAGNOSTIC_POLICY_KEEP_ALL, &s->m[2]);
    measure_small(o, &clean, 1, SPVBC_DIAGNOSTIC_POLICY_KEEP_ALL, &s->m[3]);
    measure_small(o, &six, 0, SPVBC_DIAGNOSTIC_POLICY_COUNT_ONLY, &s->m[4]);
    mb_free(&six);
    mb_free(&clean);
}
