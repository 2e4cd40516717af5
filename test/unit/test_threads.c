/*
 * test_threads.c - distinct contexts are independent (the library's one global, the opcode
 * cache, is filled by whichever thread first meets an opcode): several threads, each with its
 * own context, first parse, validate and lower every sample at once before any other call of
 * the process (so they fill the opcode cache together), then again, over and over, the SAME
 * caller-owned words at once (no copy_words), under every padding policy, and plan as_type
 * pairs; every result must equal the single-threaded reference.  Built twice: normally, and
 * (where the compiler supports it) with -fsanitize=thread against a ThreadSanitizer build of
 * the library (ctest name unit.threads.tsan).
 *
 * Worker threads never call cmocka (its asserts longjmp); they record mismatches, which the
 * main thread asserts on.  The references are computed and checked by spirv-val in the main
 * thread.
 */
#define _POSIX_C_SOURCE 200809L

#include <pthread.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "modbuild.h"
#include "spirv_bitcast.h"
#include "spvval.h"

#define THREADS 6
#define ROUNDS 40
#define PADS 3

typedef struct reference {
    spvbc_result validate_result;
    spvbc_validate_summary vs;
    size_t diag_count;
    spvbc_lower_summary ls[PADS];
    uint32_t *out[PADS];
    size_t out_n[PADS];
} reference;

typedef struct shared_input {
    const uint32_t *words[MB_SAMPLE_COUNT];
    size_t n[MB_SAMPLE_COUNT];
    reference ref[MB_SAMPLE_COUNT];
    spvbc_plan plans[66][66];
    spvbc_type_desc types[66];
    reference first[THREADS][MB_SAMPLE_COUNT]; /* each thread's first pass, before the references */
    pthread_barrier_t start;
} shared_input;

typedef struct worker {
    shared_input *in;
    int id;
    int first_only; /* one pass over the samples into in->first[id], nothing else */
    int mismatches;
    char first[256];
} worker;

static void mismatch(worker *w, const char *what, int sample, int pad)
{
    if (!w->mismatches)
        snprintf(w->first, sizeof w->first, "thread %d: %s (sample %d, pad %d)", w->id, what,
                 sample, pad);
    w->mismatches++;
}

static void all_opencl_types(spvbc_type_desc *types)
{
    static const char *const elems[] = {"char", "uchar", "short", "ushort", "half",  "int",
                                        "uint", "float", "long",  "ulong",  "double"};
    static const char *const counts[] = {"", "2", "3", "4", "8", "16"};
    int k = 0;
    for (int e = 0; e < 11; ++e)
        for (int c = 0; c < 6; ++c) {
            char name[32];
            snprintf(name, sizeof name, "%s%s", elems[e], counts[c]);
            if (spvbc_type_desc_from_opencl(name, &types[k]) != SPVBC_SUCCESS) abort();
            ++k;
        }
}

/* One full pass over sample `s` in context `ctx`; compares with the reference when `ref` is
 * not NULL, otherwise fills `fill`. */
static void one_pass(spvbc_context ctx, const shared_input *in, int s, worker *w, reference *fill)
{
    const reference *ref = fill ? NULL : &in->ref[s];
    spvbc_module m = NULL;
    if (spvbc_module_parse(ctx, in->words[s], in->n[s], NULL, &m) != SPVBC_SUCCESS) {
        if (w) mismatch(w, "parse failed", s, -1);
        return;
    }
    spvbc_validate_options vo = {sizeof(spvbc_validate_options), SPVBC_VALIDATE_NOTES,
                                 SPVBC_GENERATION_NEWEST};
    spvbc_validate_summary vs = SPVBC_VALIDATE_SUMMARY_INIT;
    spvbc_result vr = spvbc_module_validate(m, &vo, &vs);
    size_t dc = spvbc_context_diagnostic_count(ctx);
    if (fill) {
        fill->validate_result = vr;
        fill->vs = vs;
        fill->diag_count = dc;
    } else if (vr != ref->validate_result || memcmp(&vs, &ref->vs, sizeof vs) != 0 ||
               dc != ref->diag_count) {
        mismatch(w, "validate differs", s, -1);
    }
    for (int pad = 0; pad < PADS; ++pad) {
        spvbc_lower_options lo = {sizeof(spvbc_lower_options), (spvbc_pad_policy)pad, 0,
                                  SPVBC_GENERATION_NEWEST};
        spvbc_lower_summary ls = SPVBC_LOWER_SUMMARY_INIT;
        const uint32_t *out = NULL;
        size_t n = 0;
        spvbc_result lr = spvbc_module_lower(m, &lo, &ls);
        if (lr != (ls.refused ? SPVBC_PARTIAL : SPVBC_SUCCESS) ||
            spvbc_module_get_words(m, &out, &n) != SPVBC_SUCCESS) {
            if (w) mismatch(w, "lower failed", s, pad);
            continue;
        }
        if (fill) {
            fill->ls[pad] = ls;
            fill->out[pad] = (uint32_t *)malloc(n * 4);
            if (!fill->out[pad]) abort();
            memcpy(fill->out[pad], out, n * 4);
            fill->out_n[pad] = n;
        } else if (memcmp(&ls, &ref->ls[pad], sizeof ls) != 0 || n != ref->out_n[pad] ||
                   memcmp(out, ref->out[pad], n * 4) != 0) {
            mismatch(w, "lower output differs", s, pad);
        }
    }
    spvbc_module_destroy(m);
}

static void *worker_main(void *arg)
{
    worker *w = (worker *)arg;
    shared_input *in = w->in;
    spvbc_context ctx;
    if (spvbc_context_create(NULL, &ctx) != SPVBC_SUCCESS) {
        mismatch(w, "context_create failed", -1, -1);
        return NULL;
    }
    pthread_barrier_wait(&in->start);
    if (w->first_only) {
        for (int s = 0; s < MB_SAMPLE_COUNT; ++s)
            one_pass(ctx, in, s, NULL, &in->first[w->id][s]);
        spvbc_context_destroy(ctx);
        return NULL;
    }
    for (int round = 0; round < ROUNDS; ++round) {
        for (int k = 0; k < MB_SAMPLE_COUNT; ++k) {
            int s = (k + w->id + round) % MB_SAMPLE_COUNT; /* threads work out of phase */
            one_pass(ctx, in, s, w, NULL);
        }
        /* The plan API is pure: plan a slice of all pairs and compare. */
        spvbc_plan_options po = {sizeof(spvbc_plan_options), 0, (spvbc_pad_policy)(round % PADS)};
        for (int i = w->id; i < 66; i += THREADS) {
            for (int j = 0; j < 66; ++j) {
                spvbc_plan p = SPVBC_PLAN_INIT;
                if (spvbc_astype_plan(&in->types[i], &in->types[j], &po, &p) != SPVBC_SUCCESS) {
                    mismatch(w, "plan failed", i, j);
                    continue;
                }
                if (po.pad == SPVBC_PAD_UNDEF && memcmp(&p, &in->plans[i][j], sizeof p) != 0)
                    mismatch(w, "plan differs", i, j);
            }
        }
    }
    spvbc_context_destroy(ctx);
    return NULL;
}

/* Runs THREADS workers over `in` to the end; `first_only` as in worker. */
static void run_workers(shared_input *in, worker *w, int first_only)
{
    pthread_t tid[THREADS];
    assert_int_equal(pthread_barrier_init(&in->start, NULL, THREADS), 0);
    for (int t = 0; t < THREADS; ++t) {
        memset(&w[t], 0, sizeof w[t]);
        w[t].in = in;
        w[t].id = t;
        w[t].first_only = first_only;
        assert_int_equal(pthread_create(&tid[t], NULL, worker_main, &w[t]), 0);
    }
    for (int t = 0; t < THREADS; ++t)
        assert_int_equal(pthread_join(tid[t], NULL), 0);
    pthread_barrier_destroy(&in->start);
}

/* Whether `a`, a worker's first pass, equals the reference `b`. */
static int same_reference(const reference *a, const reference *b)
{
    if (a->validate_result != b->validate_result || memcmp(&a->vs, &b->vs, sizeof a->vs) != 0 ||
        a->diag_count != b->diag_count)
        return 0;
    for (int pad = 0; pad < PADS; ++pad)
        if (memcmp(&a->ls[pad], &b->ls[pad], sizeof a->ls[pad]) != 0 ||
            a->out_n[pad] != b->out_n[pad] || !a->out[pad] ||
            memcmp(a->out[pad], b->out[pad], a->out_n[pad] * 4) != 0)
            return 0;
    return 1;
}

static void test_concurrent_contexts(void **state)
{
    (void)state;
    static shared_input in;
    memset(&in, 0, sizeof in);
    mb samples[MB_SAMPLE_COUNT];
    memset(samples, 0, sizeof samples);
    for (int s = 0; s < MB_SAMPLE_COUNT; ++s) {
        assert_true(mb_sample_module(s, &samples[s]));
        in.words[s] = samples[s].w;
        in.n[s] = samples[s].n;
    }
    all_opencl_types(in.types);
    spvbc_plan_options po = {sizeof(spvbc_plan_options), 0, SPVBC_PAD_UNDEF};
    for (int i = 0; i < 66; ++i)
        for (int j = 0; j < 66; ++j) {
            memset(&in.plans[i][j], 0, sizeof in.plans[i][j]);
            in.plans[i][j].struct_size = sizeof in.plans[i][j];
            assert_int_equal(spvbc_astype_plan(&in.types[i], &in.types[j], &po, &in.plans[i][j]),
                             SPVBC_SUCCESS);
        }

    /* The process's first parses, all threads at once (cmocka runs this test first and alone). */
    worker w[THREADS];
    run_workers(&in, w, 1);

    /* References, single-threaded, and their validity. */
    spvbc_context ctx;
    assert_int_equal(spvbc_context_create(NULL, &ctx), SPVBC_SUCCESS);
    for (int s = 0; s < MB_SAMPLE_COUNT; ++s) {
        one_pass(ctx, &in, s, NULL, &in.ref[s]);
        for (int pad = 0; pad < PADS; ++pad) {
            assert_non_null(in.ref[s].out[pad]);
            char msg[1024];
            int valid = spvval_check(in.ref[s].out[pad], in.ref[s].out_n[pad], msg, sizeof msg);
            if (in.ref[s].ls[pad].refused == 0 && valid != 1)
                fail_msg("sample %d pad %d: spirv-val rejects the output: %s", s, pad, msg);
            if (in.ref[s].ls[pad].refused != 0 && valid != 0)
                fail_msg("sample %d pad %d: refused bitcasts but spirv-val accepts", s, pad);
        }
        assert_int_equal(in.ref[s].ls[SPVBC_PAD_UNDEF].refused, 0);
    }
    spvbc_context_destroy(ctx);

    /* Copies to check the caller's words stay untouched. */
    uint32_t *copies[MB_SAMPLE_COUNT];
    for (int s = 0; s < MB_SAMPLE_COUNT; ++s) {
        copies[s] = (uint32_t *)malloc(in.n[s] * 4);
        assert_non_null(copies[s]);
        memcpy(copies[s], in.words[s], in.n[s] * 4);
    }

    for (int t = 0; t < THREADS; ++t)
        for (int s = 0; s < MB_SAMPLE_COUNT; ++s) {
            if (!same_reference(&in.first[t][s], &in.ref[s]))
                fail_msg("thread %d: the first pass over sample %d differs", t, s);
            for (int pad = 0; pad < PADS; ++pad)
                free(in.first[t][s].out[pad]);
        }

    run_workers(&in, w, 0);

    int total = 0;
    for (int t = 0; t < THREADS; ++t) {
        if (w[t].mismatches) print_error("%s\n", w[t].first);
        total += w[t].mismatches;
    }
    assert_int_equal(total, 0);
    for (int s = 0; s < MB_SAMPLE_COUNT; ++s) {
        assert_memory_equal(in.words[s], copies[s], in.n[s] * 4);
        free(copies[s]);
        for (int pad = 0; pad < PADS; ++pad)
            free(in.ref[s].out[pad]);
        mb_free(&samples[s]);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_concurrent_contexts),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
