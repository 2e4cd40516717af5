/*
 * bench_memory.c - the library's own memory on the pathological module (--patho N bitcasts,
 * every 4th an error), measured with test/support's counting allocator under the default
 * policy, KEEP_FIRST 1000 and COUNT_ONLY, beside its clean twin of the same size.
 *
 * SPDX-License-Identifier: Apache-2.0
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"
#include "test_alloc.h"

/* One call of the library on `b`, from context creation to destruction. */
static void run_mem(const mb *b, int lower, spvbc_diagnostic_policy policy, size_t limit,
                    mem_run *m)
{
    test_alloc c;
    memset(&c, 0, sizeof c);
    spvbc_allocator a = test_alloc_allocator(&c);
    spvbc_context ctx;
    spvbc_module mod;
    spvbc_parse_options po = SPVBC_PARSE_OPTIONS_INIT;
    po.max_id_bound = bench_id_cap(b->w[3]);
    memset(m, 0, sizeof *m);
    m->ran = 1;
    double t0 = test_time_now();
    if (spvbc_context_create(&a, &ctx) != SPVBC_SUCCESS) {
        m->failed = 1;
        return;
    }
    spvbc_result r = spvbc_context_set_diagnostic_policy(ctx, policy, limit);
    if (r == SPVBC_SUCCESS) {
        r = spvbc_module_parse(ctx, b->w, b->n, &po, &mod);
    }
    if (r == SPVBC_SUCCESS) {
        if (lower) {
            spvbc_lower_summary ls = SPVBC_LOWER_SUMMARY_INIT;
            const uint32_t *out;
            size_t nout;
            r = spvbc_module_lower(mod, NULL, &ls);
            if (r == SPVBC_PARTIAL) r = SPVBC_SUCCESS; /* the summary counts the refusals */
            if (r == SPVBC_SUCCESS) {
                r = spvbc_module_get_words(mod, &out, &nout);
                m->findings = ls.rewritten + ls.refused;
            }
        } else {
            spvbc_validate_summary vs = SPVBC_VALIDATE_SUMMARY_INIT;
            r = spvbc_module_validate(mod, NULL, &vs);
            if (r == SPVBC_SUCCESS || r == SPVBC_ERROR_VALIDATION_FAILED) {
                r = SPVBC_SUCCESS;
                m->findings = vs.errors;
            }
        }
        spvbc_module_destroy(mod);
    }
    m->kept = spvbc_context_diagnostic_count(ctx);
    spvbc_context_destroy(ctx);
    m->seconds = test_time_now() - t0;
    m->peak = c.peak_bytes;
    m->leaked = c.live_bytes;
    m->failed = r != SPVBC_SUCCESS || c.live_bytes != 0 || c.bad_free;
}

void bench_run_patho(size_t count, patho *p)
{
    mb b = {0};
    size_t first;
    memset(p, 0, sizeof *p);
    p->ran = 1;
    p->count = count;
    p->errors = bench_patho_build(&b, count, &first);
    p->bytes = b.n * 4;
    for (int op = 0; op < 2; ++op) {
        printf("  library memory: %s, %zu bitcasts, %zu errors\n", op ? "lower" : "validate", count,
               p->errors);
        fflush(stdout);
        run_mem(&b, op, SPVBC_DIAGNOSTIC_POLICY_KEEP_ALL, 0, &p->all[op]);
        run_mem(&b, op, SPVBC_DIAGNOSTIC_POLICY_KEEP_FIRST, PATHO_KEEP_FIRST, &p->first[op]);
        run_mem(&b, op, SPVBC_DIAGNOSTIC_POLICY_COUNT_ONLY, 0, &p->only[op]);
    }
    bench_patho_set_errors(&b, count, first, 0);
    for (int op = 0; op < 2; ++op) {
        run_mem(&b, op, SPVBC_DIAGNOSTIC_POLICY_KEEP_ALL, 0, &p->clean[op]);
    }
    mb_free(&b);
}
