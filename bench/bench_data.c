/*
 * bench_data.c - the benchmark's data files: --dat (every number as a tab-separated row, copied
 * to bench/performance.dat) and --plot (throughput per tool over the sizes, for gnuplot).
 *
 * SPDX-License-Identifier: Apache-2.0
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"

void bench_write_dat(const char *path, input *ins, int n, const small_set *small, const patho *pa)
{
    FILE *f = fopen(path, "w");
    if (!f) {
        fprintf(stderr, "spvbc_bench: cannot write %s\n", path);
        return;
    }
    fprintf(f, "# input\tseries\tbytes\tid_bound\tmetric\truns\tfirst_s\tmedian_s\tcpu_s\t"
               "peak_rss_bytes\tMB_per_s\tstatus\n");
    for (int i = 0; i < n; ++i) {
        input *in = &ins[i];
        for (int p = 0; p < P_COUNT; ++p) {
            proc_m *m = &in->proc[p];
            if (!m->ran) {
                continue;
            }
            fprintf(f, "%s\t%s\t%zu\t%u\t%s\t%d\t-\t%.6f\t%.6f\t%ld\t%.2f\t%s\n", in->label,
                    in->series, in->size, in->bound, bench_proc_keys[p], m->reps, m->wall, m->cpu,
                    m->rss_kb * 1024, bench_mbps(in->size, m->wall), m->failed ? "failed" : "ok");
        }
        const timing *ts[] = {&in->validate,      &in->lower,   &in->walk,
                              &in->validate_r,    &in->lower_r, &in->validate_count,
                              &in->validate_read, &in->record,  &in->copy};
        const char *keys[sizeof ts / sizeof ts[0]] = {
            "inproc_validate",          "inproc_lower",        "inproc_walk",
            "inproc_validate_reuse",    "inproc_lower_reuse",  "inproc_validate_count_only",
            "inproc_validate_read_all", "inproc_record_floor", "inproc_copy_floor"};
        for (size_t k = 0; k < sizeof ts / sizeof ts[0]; ++k) {
            if (!ts[k]->ran) {
                continue;
            }
            fprintf(f, "%s\t%s\t%zu\t%u\t%s\t%d\t%.6f\t%.6f\t%.6f\t-\t%.2f\t%s\n", in->label,
                    in->series, in->size, in->bound, keys[k], ts[k]->reps, ts[k]->first,
                    ts[k]->warm, ts[k]->cpu_warm, bench_mbps(in->size, ts[k]->warm),
                    ts[k]->failed ? "failed" : "ok");
        }
    }
    /* small modules: median seconds per call; pathological: library peak bytes */
    static const char *const small_keys[5] = {
        "small_six_4to3_fresh_ctx", "small_six_4to3_reused_ctx", "small_clean_8k_reused_ctx",
        "small_clean_8k_fresh_ctx", "small_six_4to3_reused_ctx_count_only"};
    for (int k = 0; k < 5; ++k) {
        const small_m *m = &small->m[k];
        if (m->ran) {
            fprintf(f, "small\tsmall\t%zu\t-\t%s\t%d\t-\t%.9f\t-\t-\t%.2f\t%s\n", m->bytes,
                    small_keys[k], m->calls, m->us * 1e-6, bench_mbps(m->bytes, m->us * 1e-6),
                    m->failed ? "failed" : "ok");
        }
    }
    if (pa->ran) {
        static const char *const pol[4] = {"keep_all", "keep_first_1000", "count_only",
                                           "clean_twin"};
        for (int op = 0; op < 2; ++op) {
            const mem_run *r[4] = {&pa->all[op], &pa->first[op], &pa->only[op], &pa->clean[op]};
            for (int k = 0; k < 4; ++k) {
                fprintf(f,
                        "patho/%zu\tpatho\t%zu\t%u\tlib_peak_%s_%s\t1\t-\t%.6f\t-\t%zu\t%."
                        "2f\t%s\n",
                        pa->count, pa->bytes, (unsigned)(pa->count + PA_FIRST),
                        op ? "lower" : "validate", pol[k], r[k]->seconds, r[k]->peak,
                        bench_mbps(pa->bytes, r[k]->seconds), r[k]->failed ? "failed" : "ok");
            }
        }
    }
    fclose(f);
}

void bench_write_plot(const char *path, input *ins, int n)
{
    FILE *f = fopen(path, "w");
    if (!f) {
        fprintf(stderr, "spvbc_bench: cannot write %s\n", path);
        return;
    }
    /* one block per line of the plot: which series, which metric, its title */
    static const struct {
        const char *series;
        int metric;
        const char *title;
    } lines[] = {
        {"valid", M_IN_VALIDATE, "validate, in process"},
        {"lowerable", M_IN_LOWER, "lower + get_words, in process (10% lowerable)"},
        {"valid", P_CP, "cp"},
        {"valid", P_FLOOR, "floor: mmap + walk (process)"},
        {"valid", P_VALIDATE, "spirv-bitcast validate"},
        {"valid", P_LOWER, "spirv-bitcast lower -o (nothing to lower)"},
        {"lowerable", P_LOWER_Q, "spirv-bitcast lower -q -o (10% lowerable)"},
        {"lowerable", P_LOWER, "spirv-bitcast lower -o, printing each rewrite"},
        {"valid", P_SPIRV_OPT, "spirv-opt, no passes"},
        {"valid", P_SPIRV_VAL, "spirv-val"},
    };
    for (size_t l = 0; l < sizeof lines / sizeof lines[0]; ++l) {
        if (l) {
            fprintf(f, "\n\n"); /* gnuplot: next index */
        }
        fprintf(f, "\"%s\"\t\"MB/s\"\n", lines[l].title);
        for (int i = 0; i < n; ++i) {
            if (strcmp(ins[i].series, lines[l].series)) {
                continue;
            }
            double t = bench_metric_time(&ins[i], lines[l].metric, 0);
            if (!isnan(t)) {
                fprintf(f, "%.3f\t%.3f\n", bench_mib(ins[i].size), bench_mbps(ins[i].size, t));
            }
        }
    }
    fclose(f);
}
