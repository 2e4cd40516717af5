/*
 * bench_goals.c - the goals table: each figure against its bound (met / MISSED), on the
 * wall-clock figure and, where there is one, on the same figure in CPU time.
 *
 * SPDX-License-Identifier: Apache-2.0
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"

typedef struct verdict {
    int pass, miss, unknown;
} verdict;

static const char *judge(verdict *v, double value, double bound, int at_least)
{
    if (isnan(value)) {
        v->unknown++;
        return "not measured";
    }
    if (at_least ? value >= bound : value <= bound) {
        v->pass++;
        return "met";
    }
    v->miss++;
    return "MISSED";
}

/** One row of the goals table: the verdict on the wall-clock `value`, and on `cpu_value` (the
 *  same figure in CPU time) when there is one; `bound` NAN makes an information row. */
static void goal(out2 *o, verdict *vw, verdict *vc, const char *figure, const char *measured,
                 const char *cpu, double cpu_value, const char *goal_text, double value,
                 double bound, int at_least)
{
    const char *jw = isnan(bound) ? "info" : judge(vw, value, bound, at_least);
    const char *jc = isnan(bound) || isnan(cpu_value) ? "" : judge(vc, cpu_value, bound, at_least);
    bench_both(o, "| %s | %s | %s | %s | %s | %s |\n", figure,
               isnan(value) && !isnan(bound) ? "-" : measured, isnan(cpu_value) ? "" : cpu,
               goal_text, jw, jc);
}

static double mem_mib(const mem_run *m)
{
    return m->ran && !m->failed ? bench_mib(m->peak) : NAN;
}

/** The input of `series` the goals read: NAME "128M", else the largest of the series. */
static input *goal_input(input *ins, int n, const char *series)
{
    input *best = NULL;
    for (int i = 0; i < n; ++i) {
        if (strcmp(ins[i].series, series)) {
            continue;
        }
        if (!strcmp(ins[i].name, "128M")) {
            return &ins[i];
        }
        best = !best || ins[i].size > best->size ? &ins[i] : best;
    }
    return best;
}

void bench_goals(out2 *o, const options *opt, input *ins, int n, const small_set *small,
                 const patho *pa)
{
    input *v = goal_input(ins, n, "valid"), *l = goal_input(ins, n, "lowerable");
    const char *vl = v ? v->label : "valid/128M", *ll = l ? l->label : "lowerable/128M";
    verdict vd = {0, 0, 0}, vc = {0, 0, 0};
    char f[200], m[240], c[80], g[120];
    bench_both(o, "\n### Goals\n\n");
    if (v && strcmp(v->name, "128M")) {
        bench_both(o,
                   "**Not the goals' sizes**: the %s and %s inputs stand in for the 128 MiB ones "
                   "(as with run.sh --quick).\n\n",
                   vl, ll);
    }
    (void)opt;
    bench_both(
        o, "The verdict is on the wall-clock figure (medians); the same figure in CPU time (thread "
           "CPU time in process, user + system of the child for processes) has its own verdict, "
           "which tells the library from a busy machine.  In process: warm calls, context "
           "reused.\n\n");
    bench_both(o, "| figure | measured (wall clock) | CPU time | goal | verdict | verdict (CPU) |\n"
                  "|---|---|---|---|---|---|\n");

    double vm = bench_timing_mbps(v, v ? &v->validate : NULL, 0);
    double vmc = bench_timing_mbps(v, v ? &v->validate : NULL, 1);
    snprintf(f, sizeof f, "in-process validate, %s (walk and record floors shown)", vl);
    snprintf(m, sizeof m, "%s MB/s (walk floor %s MB/s, record floor %s MB/s)",
             bench_num(vm, "%.0f"),
             bench_num(v && v->walk.reps ? bench_mbps(v->size, v->walk.warm) : NAN, "%.0f"),
             bench_num(v && v->record.reps ? bench_mbps(v->size, v->record.warm) : NAN, "%.0f"));
    snprintf(c, sizeof c, "%s MB/s", bench_num(vmc, "%.0f"));
    goal(o, &vd, &vc, f, m, c, vmc, ">= 5000 MB/s", vm, 5000, 1);

    double cm = bench_timing_mbps(l, l ? &l->validate_count : NULL, 0);
    double cmc = bench_timing_mbps(l, l ? &l->validate_count : NULL, 1);
    snprintf(f, sizeof f, "in-process validate, %s, counting only (COUNT_ONLY)", ll);
    snprintf(m, sizeof m, "%s MB/s = %s%% of valid (%zu errors counted)", bench_num(cm, "%.0f"),
             bench_num(bench_ratio(cm, vm) * 100, "%.0f"), l ? l->vsum.errors : 0);
    snprintf(c, sizeof c, "%s%%", bench_num(bench_ratio(cmc, vmc) * 100, "%.0f"));
    goal(o, &vd, &vc, f, m, c, bench_ratio(cmc, vmc), ">= 90% of the valid figure",
         bench_ratio(cm, vm), 0.9, 1);

    double rm = bench_timing_mbps(l, l ? &l->validate_read : NULL, 0);
    double rmc = bench_timing_mbps(l, l ? &l->validate_read : NULL, 1);
    snprintf(f, sizeof f,
             "in-process validate, %s, every message (KEEP_ALL, each diagnostic read through "
             "spvbc_context_diagnostic)",
             ll);
    snprintf(m, sizeof m, "%s MB/s = %s%% of valid (%zu diagnostics read)", bench_num(rm, "%.0f"),
             bench_num(bench_ratio(rm, vm) * 100, "%.0f"), l ? l->diags_read : 0);
    snprintf(c, sizeof c, "%s%%", bench_num(bench_ratio(rmc, vmc) * 100, "%.0f"));
    goal(o, &vd, &vc, f, m, c, bench_ratio(rmc, vmc), ">= 70% of the valid figure",
         bench_ratio(rm, vm), 0.7, 1);

    double lm = bench_timing_mbps(l, l ? &l->lower : NULL, 0);
    double lmc = bench_timing_mbps(l, l ? &l->lower : NULL, 1);
    snprintf(f, sizeof f, "in-process lower, %s (record floor shown)", ll);
    snprintf(m, sizeof m, "%s MB/s (%zu rewritten; record floor %s MB/s)", bench_num(lm, "%.0f"),
             l ? l->lsum.rewritten : 0,
             bench_num(l && l->record.reps ? bench_mbps(l->size, l->record.warm) : NAN, "%.0f"));
    snprintf(c, sizeof c, "%s MB/s", bench_num(lmc, "%.0f"));
    goal(o, &vd, &vc, f, m, c, lmc, ">= 4000 MB/s", lm, 4000, 1);

    /* whole process: wall ratios, CPU ratios for information */
    static const struct {
        int lowerable, p, q; /* figure = time of p / time of q (q < 0: cp) */
        const char *what, *goal_text;
        double bound;
    } procs[] = {
        {0, P_VALIDATE, P_CP, "process `validate` / `cp`", "<= 2x", 2},
        {1, P_LOWER_Q, P_CP, "process `lower -q` / `cp`", "<= 2x", 2},
        {1, P_LOWER, P_CP, "process `lower` / `cp`, printing all rewrites", "<= 4x", 4},
    };
    for (size_t k = 0; k < sizeof procs / sizeof procs[0]; ++k) {
        input *in = procs[k].lowerable ? l : v;
        double w =
            bench_ratio(bench_metric_time(in, procs[k].p, 0), bench_metric_time(in, procs[k].q, 0));
        double u =
            bench_ratio(bench_metric_time(in, procs[k].p, 1), bench_metric_time(in, procs[k].q, 1));
        snprintf(f, sizeof f, "%s, %s", procs[k].what, in ? in->label : "-");
        snprintf(m, sizeof m, "%sx (%s ms / %s ms)", bench_num(w, "%.2f"),
                 bench_num(bench_metric_time(in, procs[k].p, 0) * 1e3, "%.1f"),
                 bench_num(bench_metric_time(in, procs[k].q, 0) * 1e3, "%.1f"));
        if (procs[k].p == P_VALIDATE) {
            size_t len = strlen(m);
            snprintf(m + len, sizeof m - len, "; floor mmap + walk / cp %sx",
                     bench_num(bench_ratio(bench_metric_time(in, P_FLOOR, 0),
                                           bench_metric_time(in, P_CP, 0)),
                               "%.2f"));
        }
        snprintf(c, sizeof c, "%sx", bench_num(u, "%.2f"));
        goal(o, &vd, &vc, f, m, c, u, procs[k].goal_text, w, procs[k].bound, 0);
    }
    {
        /* time per input byte, so that the few bytes the two inputs differ by do not count */
        double tl = bench_metric_time(l, P_VALIDATE_Q, 0),
               tv = bench_metric_time(v, P_VALIDATE_Q, 0);
        double w = l && v ? bench_ratio(tl / (double)l->size, tv / (double)v->size) : NAN;
        double ul = bench_metric_time(l, P_VALIDATE_Q, 1),
               uv = bench_metric_time(v, P_VALIDATE_Q, 1);
        double u = l && v ? bench_ratio(ul / (double)l->size, uv / (double)v->size) : NAN;
        snprintf(f, sizeof f, "process `validate -q`, %s vs the same on %s (per byte)", ll, vl);
        snprintf(m, sizeof m, "%sx (%s ms / %s ms)", bench_num(w, "%.2f"),
                 bench_num(tl * 1e3, "%.1f"), bench_num(tv * 1e3, "%.1f"));
        snprintf(c, sizeof c, "%sx", bench_num(u, "%.2f"));
        goal(o, &vd, &vc, f, m, c, u, "<= 1.2x", w, 1.2, 0);
    }
    {
        double r = bench_rss_per_byte(l, P_VALIDATE);
        snprintf(f, sizeof f, "peak RSS of `validate`, %s", ll);
        snprintf(
            m, sizeof m, "%s B/B (%s MiB)", bench_num(r, "%.2f"),
            bench_num(l && !isnan(r) ? bench_mib((size_t)l->proc[P_VALIDATE].rss_kb * 1024) : NAN,
                      "%.1f"));
        goal(o, &vd, &vc, f, m, "", NAN, "<= 1.2 bytes per input byte", r, 1.2, 0);
    }

    /* library memory on the pathological module */
    if (pa->ran) {
        for (int op = 0; op < 2; ++op) {
            const char *what = op ? "lower" : "validate";
            const mem_run *all = &pa->all[op], *first = &pa->first[op];
            const mem_run *base = op ? &pa->only[op] : &pa->clean[op];
            double bytes = (double)pa->bytes;
            snprintf(f, sizeof f,
                     "library peak, %s, %.1f M bitcasts / %.2f M errors (%.0f MiB), default "
                     "policy (KEEP_ALL)",
                     what, (double)pa->count / 1e6, (double)pa->errors / 1e6, bench_mib(pa->bytes));
            snprintf(
                m, sizeof m,
                "%s MiB = %s B/B; %s bytes per finding above %s (%s MiB); %zu findings, "
                "%.2f s",
                bench_num(mem_mib(all), "%.1f"), bench_num((double)all->peak / bytes, "%.2f"),
                bench_num(((double)all->peak - (double)base->peak) / (double)all->findings, "%.0f"),
                op ? "COUNT_ONLY" : "the clean twin", bench_num(mem_mib(base), "%.1f"),
                all->findings, all->seconds);
            goal(o, &vd, &vc, f, m, "", NAN, "none: keeps every finding", mem_mib(all), NAN, 0);
            snprintf(f, sizeof f, "library peak, %s, same module, KEEP_FIRST %u", what,
                     PATHO_KEEP_FIRST);
            double excess = (double)first->peak - (double)base->peak;
            snprintf(m, sizeof m,
                     "%s MiB = %s B/B; %+.0f KiB over %s (%s MiB, %s B/B); %zu diagnostics "
                     "kept, %.2f s",
                     bench_num(mem_mib(first), "%.1f"),
                     bench_num((double)first->peak / bytes, "%.2f"), excess / 1024.0,
                     op ? "COUNT_ONLY on the same module" : "the clean twin",
                     bench_num(mem_mib(base), "%.1f"),
                     bench_num((double)base->peak / bytes, "%.2f"), first->kept, first->seconds);
            snprintf(g, sizeof g,
                     "bounded by the cap: <= %s + %u x %u B + 1 MiB, whatever the number of "
                     "findings",
                     op ? "COUNT_ONLY" : "clean twin", PATHO_KEEP_FIRST, PATHO_BYTES_PER_KEPT);
            double ok = first->ran && !first->failed && base->ran && !base->failed ? excess : NAN;
            goal(o, &vd, &vc, f, m, "", NAN, g, ok,
                 (double)PATHO_KEEP_FIRST * PATHO_BYTES_PER_KEPT + PATHO_SLACK, 0);
        }
    } else {
        bench_both(o, "| library peak on the pathological module | - | | bounded by the cap | not "
                      "measured | |\n");
        vd.unknown++;
    }

    /* small modules */
    static const char *const small_what[5] = {
        "module with 6 rewrites, fresh context per call (what the layer first did)",
        "module with 6 rewrites, reused context, KEEP_ALL (every finding made into a sentence)",
        "clean shader, reused context", NULL,
        "module with 6 rewrites, reused context, COUNT_ONLY (the layer's pooled contexts, as any "
        "driver that reads no finding: none is made into a sentence)"};
    for (int k = 0; k < 5; ++k) {
        if (!small_what[k]) continue;
        const small_m *s = &small->m[k];
        snprintf(f, sizeof f, "%.1f KB %s", (double)s->bytes / 1000.0, small_what[k]);
        snprintf(m, sizeof m, "%s us per call (fastest batch %s us; %d calls)",
                 bench_num(s->ran && !s->failed ? s->us : NAN, "%.2f"),
                 bench_num(s->us_min, "%.2f"), s->calls);
        if (k == 2 && small->m[3].ran) {
            size_t len = strlen(m);
            snprintf(m + len, sizeof m - len, "; fresh context %s us",
                     bench_num(small->m[3].failed ? NAN : small->m[3].us, "%.2f"));
        }
        /* the goal for the reused context with every finding kept: 1.5 us */
        const double bound = k == 1 ? 1.5 : 4;
        goal(o, &vd, &vc, f, m, "", NAN, k == 1 ? "<= 1.5 us" : "<= 4 us",
             s->ran && !s->failed ? s->us : NAN, bound, 0);
    }
    bench_both(o,
               "\nGoals (wall clock): %d met, %d MISSED, %d not measured.  In CPU time: %d met, %d "
               "MISSED.\n",
               vd.pass, vd.miss, vd.unknown, vc.pass, vc.miss);
    if (pa->ran) {
        for (int op = 0; op < 2; ++op) {
            const mem_run *r[4] = {&pa->all[op], &pa->first[op], &pa->only[op], &pa->clean[op]};
            for (int k = 0; k < 4; ++k) {
                if (r[k]->failed) {
                    bench_both(o, "\nlibrary memory run %d of %s failed (%zu bytes left live)\n", k,
                               op ? "lower" : "validate", r[k]->leaked);
                }
            }
        }
    }
}
