/*
 * bench_report.c - the benchmark's tables, on stdout and in the Markdown file: in process,
 * whole process (wall and CPU), the growth exponents (least squares of ln t on ln size over a
 * series), then the goals table (bench_goals.c) and the data files (bench_data.c).
 *
 * SPDX-License-Identifier: Apache-2.0
 */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"

/** Least-squares slope of ln t against ln size over the `n` points; NAN if undefined. */
static double fit_exponent(const double *size, const double *t, int n)
{
    double sx = 0, sy = 0, sxx = 0, sxy = 0;
    int k = 0;
    for (int i = 0; i < n; ++i) {
        if (!(t[i] > 0) || !(size[i] > 0)) {
            continue;
        }
        double x = log(size[i]), y = log(t[i]);
        sx += x;
        sy += y;
        sxx += x * x;
        sxy += x * y;
        k++;
    }
    if (k < 2) {
        return NAN;
    }
    double d = k * sxx - sx * sx;
    return d > 0 ? (k * sxy - sx * sy) / d : NAN;
}

/* metric_names must list one name per metric, in the order of the enums above */
static const char *const metric_names[] = {"cp",
                                           "validate (process)",
                                           "lower (process)",
                                           "spirv-val",
                                           "spirv-opt (no passes)",
                                           "validate -q (process)",
                                           "lower -q (process)",
                                           "floor: mmap + walk",
                                           "validate (in-process)",
                                           "lower (in-process)"};
_Static_assert(sizeof metric_names / sizeof metric_names[0] == M_COUNT, "one name per metric");

static double series_exponent(input *ins, int n, const char *series, int m, int cpu)
{
    double s[64], t[64];
    int k = 0;
    for (int i = 0; i < n && k < 64; ++i) {
        if (!strcmp(ins[i].series, series)) {
            s[k] = (double)ins[i].size;
            t[k] = bench_metric_time(&ins[i], m, cpu);
            k++;
        }
    }
    /* a series only makes sense over sizes that differ */
    double lo = INFINITY, hi = 0;
    for (int i = 0; i < k; ++i) {
        lo = s[i] < lo ? s[i] : lo;
        hi = s[i] > hi ? s[i] : hi;
    }
    return hi >= 4 * lo ? fit_exponent(s, t, k) : NAN;
}

static double metric_mbps(const input *in, int m, int cpu)
{
    return in ? bench_mbps(in->size, bench_metric_time(in, m, cpu)) : NAN;
}

/* The head of a whole-process table: `cell` (a format of the tool's name) for each tool of
 * `cols`, then `mid`, `rule` for each tool, and `end`. */
static void proc_head(out2 *o, const int *cols, int ncols, const char *cell, const char *mid,
                      const char *rule, const char *end)
{
    for (int c = 0; c < ncols; ++c) {
        bench_both(o, cell, bench_proc_names[cols[c]]);
    }
    bench_both(o, "%s", mid);
    for (int c = 0; c < ncols; ++c) {
        bench_both(o, "%s", rule);
    }
    bench_both(o, "%s", end);
}

/** The in-process table: one row per input. */
static void report_in_process(out2 *o, input *ins, int n)
{
    bench_both(o, "\n### In process (input already in memory; public API)\n\n");
    bench_both(
        o, "validate = spvbc_module_parse + spvbc_module_validate; lower = spvbc_module_parse "
           "+ spvbc_module_lower + spvbc_module_get_words (+ spvbc_module_destroy).  first = "
           "spvbc_context_create and the first call, in a new context; the warm calls reuse that "
           "context, as a driver parsing module after module does.  MB/s = input bytes / median "
           "time of the warm calls (wall clock; CPU = thread CPU time, which the other users of "
           "the machine inflate less).  reuse = CPU MB/s "
           "with a caller allocator that hands freed blocks back (no fresh pages after the "
           "first call).  walk = one pass reading every instruction's first word (the memory "
           "floor).  record = the walk, plus for every instruction its opcode's shape from a "
           "table and its result type stored in an id table, unchecked: the least a reader that "
           "can name the type of any bitcast's operand does in one pass (bench/bench_floor.c)."
           "\n\n");
    bench_both(o, "| input | MiB | id bound | bitcasts | findings | rewritten | walk MB/s | "
                  "record MB/s | validate first ms | warm ms | MB/s | MB/s CPU | reuse | "
                  "lower first ms | warm ms | MB/s | MB/s CPU | reuse | runs |\n");
    bench_both(
        o, "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"
           "---:|---:|\n");
    for (int i = 0; i < n; ++i) {
        input *in = &ins[i];
        bench_both(
            o, "| %s | %.1f | %u | %zu | %zu | %zu | %s | %s |", in->label, bench_mib(in->size),
            in->bound, in->vsum.bitcasts_checked, in->vsum.errors, in->lsum.rewritten,
            bench_num(in->walk.reps ? bench_mbps(in->size, in->walk.warm) : NAN, "%.0f"),
            bench_num(in->record.reps ? bench_mbps(in->size, in->record.warm) : NAN, "%.0f"));
        for (int m = M_IN_VALIDATE; m <= M_IN_LOWER; ++m) {
            const timing *t = m == M_IN_VALIDATE ? &in->validate : &in->lower;
            if (t->failed) {
                bench_both(o, " FAILED | | | | |");
                continue;
            }
            const timing *r = m == M_IN_VALIDATE ? &in->validate_r : &in->lower_r;
            bench_both(
                o, " %s | %s | %s | %s | %s |", bench_num(t->ran ? t->first * 1e3 : NAN, "%.2f"),
                bench_num(t->reps ? t->warm * 1e3 : NAN, "%.2f"),
                bench_num(metric_mbps(in, m, 0), "%.0f"), bench_num(metric_mbps(in, m, 1), "%.0f"),
                bench_num(r->ran && !r->failed && r->reps ? bench_mbps(in->size, r->cpu_warm) : NAN,
                          "%.0f"));
        }
        bench_both(o, " %d/%d |\n", in->validate.reps, in->lower.reps);
    }
}

/** The whole-process tables, wall clock then CPU time, and the runs that failed. */
static void report_processes(out2 *o, input *ins, int n)
{
    static const int cols[] = {P_FLOOR,   P_VALIDATE,  P_LOWER,    P_VALIDATE_Q,
                               P_LOWER_Q, P_SPIRV_VAL, P_SPIRV_OPT};
    const int ncols = (int)(sizeof cols / sizeof cols[0]);
    bench_both(
        o, "\n### Whole process (median wall ms; x = wall time / wall time of cp for ours, / "
           "wall time of spirv-bitcast validate for spirv-val and spirv-opt; B/B = peak RSS in "
           "bytes per input byte)\n\n"
           "validate = `spirv-bitcast validate --max-id-bound N FILE`, lower = `spirv-bitcast "
           "lower --max-id-bound N -o OUT FILE`: findings printed with their disassembly, as "
           "by default; the -q forms print nothing per finding (lower -q only on the lowerable "
           "inputs).  "
           "spirv-val and spirv-opt only run on valid inputs.  floor = this benchmark mapping the "
           "file and reading each instruction's first word: what any tool that reads its input "
           "pays here (cp copies inside the kernel).\n\n| input | MiB | cp ms |");
    proc_head(o, cols, ncols, " %s ms | x | B/B |", "\n|---|---:|---:|", "---:|---:|---:|", "\n");
    for (int i = 0; i < n; ++i) {
        input *in = &ins[i];
        double cp = bench_metric_time(in, P_CP, 0), v = bench_metric_time(in, P_VALIDATE, 0);
        bench_both(o, "| %s | %.1f | %s |", in->label, bench_mib(in->size),
                   bench_num(cp * 1e3, "%.1f"));
        for (int c = 0; c < ncols; ++c) {
            int p = cols[c];
            double w = bench_metric_time(in, p, 0);
            if (in->proc[p].failed) {
                bench_both(o, " FAILED (exit %d) | | |", in->proc[p].status);
                continue;
            }
            bench_both(o, " %s | %s | %s |", bench_num(w * 1e3, "%.1f"),
                       bench_num(bench_ratio(w, bench_is_ours(p) ? cp : v), "%.2f"),
                       bench_num(bench_rss_per_byte(in, p), "%.2f"));
        }
        bench_both(o, "\n");
    }
    bench_both(o, "\nThe same runs in CPU seconds (user + system of the child, median), and the "
                  "number of runs:\n\n| input | cp |");
    proc_head(o, cols, ncols, " %s | x |", " runs |\n|---|---:|", "---:|---:|", "---|\n");
    for (int i = 0; i < n; ++i) {
        input *in = &ins[i];
        double cp = bench_metric_time(in, P_CP, 1), v = bench_metric_time(in, P_VALIDATE, 1);
        bench_both(o, "| %s | %s |", in->label, bench_num(cp, "%.3f"));
        for (int c = 0; c < ncols; ++c) {
            int p = cols[c];
            double t = bench_metric_time(in, p, 1);
            bench_both(o, " %s | %s |", bench_num(t, "%.3f"),
                       bench_num(bench_ratio(t, bench_is_ours(p) ? cp : v), "%.2f"));
        }
        bench_both(o, " %d", in->proc[P_CP].reps);
        for (int c = 0; c < ncols; ++c) {
            bench_both(o, "/%d", in->proc[cols[c]].reps);
        }
        bench_both(o, " |\n");
    }

    for (int i = 0; i < n; ++i) {
        for (int p = 0; p < P_COUNT; ++p) {
            if (ins[i].proc[p].failed) {
                bench_both(o, "\n%s on %s: exit %d: %s\n", bench_proc_names[p], ins[i].label,
                           ins[i].proc[p].status, ins[i].proc[p].note);
            }
        }
    }
}

/** The growth exponents of each series that has sizes far enough apart. */
static void report_growth(out2 *o, input *ins, int n)
{
    const char *series_seen[16];
    int ns = 0;
    for (int i = 0; i < n && ns < 16; ++i) {
        int seen = 0;
        for (int k = 0; k < ns; ++k) {
            seen |= !strcmp(series_seen[k], ins[i].series);
        }
        if (!seen) {
            series_seen[ns++] = ins[i].series;
        }
    }
    bench_both(o,
               "\n### Growth exponent (least-squares slope of ln time on ln size over the series; "
               "1.00 = linear; wall / CPU)\n\n| series |");
    for (int m = 0; m < M_COUNT; ++m) {
        bench_both(o, " %s |", metric_names[m]);
    }
    bench_both(o, "\n|---|");
    for (int m = 0; m < M_COUNT; ++m) {
        bench_both(o, "---:|");
    }
    bench_both(o, "\n");
    for (int s = 0; s < ns; ++s) {
        int any = 0;
        for (int m = 0; m < M_COUNT; ++m) {
            any |= !isnan(series_exponent(ins, n, series_seen[s], m, 0));
        }
        if (!any) {
            continue;
        }
        bench_both(o, "| %s |", series_seen[s]);
        for (int m = 0; m < M_COUNT; ++m) {
            bench_both(o, " %s / %s |",
                       bench_num(series_exponent(ins, n, series_seen[s], m, 0), "%.2f"),
                       bench_num(series_exponent(ins, n, series_seen[s], m, 1), "%.2f"));
        }
        bench_both(o, "\n");
    }
    bench_both(o,
               "\n(cp and the small inputs are dominated by process start-up: their exponents say "
               "little.)\n");
}

void bench_report(const options *opt, input *ins, int n, const small_set *small, const patho *pa)
{
    out2 o = {NULL, NULL};
    if (opt->md) {
        o.md = fopen(opt->md, "w");
        if (!o.md) {
            fprintf(stderr, "spvbc_bench: cannot write %s\n", opt->md);
        }
    }
    if (opt->goals_tsv) {
        o.goals = fopen(opt->goals_tsv, "w");
        if (!o.goals) {
            fprintf(stderr, "spvbc_bench: cannot write %s\n", opt->goals_tsv);
        }
    }

    report_in_process(&o, ins, n);
    report_processes(&o, ins, n);
    report_growth(&o, ins, n);

    /* the performance goals */
    bench_goals(&o, opt, ins, n, small, pa);

    if (o.md) {
        fclose(o.md);
    }
    if (o.goals) {
        fclose(o.goals);
    }

    if (opt->dat) {
        bench_write_dat(opt->dat, ins, n, small, pa);
    }
    if (opt->plot) {
        bench_write_plot(opt->plot, ins, n);
    }
}
