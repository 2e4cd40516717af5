/*
 * bench_goals.c - the goals table: each figure against its bound (met / MISSED), on the
 * wall-clock figure and, where there is one, on the same figure in CPU time.  With --goals-tsv
 * the rows go to that file instead, one tab-separated line each (bench/spread.awk reads the
 * files of several rounds and makes the table with each row's spread: bench/run.sh --rounds).
 *
 * SPDX-License-Identifier: Apache-2.0
 */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"

typedef struct verdict {
    int pass, miss, unknown;
} verdict;

/* What a row is held to: `bound` (NAN: an information row), `at_least` (1: the figure must
 * reach the bound, 0: stay under it; also which end of the rounds' spread is the best), and how
 * spread.awk writes the figure: printf(`fmt`, value * `scale`). */
typedef struct goal_spec {
    const char *text;
    double bound;
    int at_least;
    const char *fmt;
    double scale;
} goal_spec;

typedef struct goals {
    out2 *o;
    verdict vd, vc;
} goals;

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

/** A number for the TSV file: "-" for NAN, else every digit a double has. */
static void tsv_num(FILE *f, double v)
{
    if (isnan(v)) {
        fputs("-", f);
    } else {
        fprintf(f, "%.17g", v);
    }
}

/** One row of the goals table: the verdict on the wall-clock `value`, and on `cpu_value` (the
 *  same figure in CPU time) when there is one, against `s`; or, with --goals-tsv, the row as a
 *  line: figure, at_least, bound, value, cpu_value, fmt, scale, measured, cpu, goal. */
static void goal(goals *g, const char *figure, const char *measured, const char *cpu,
                 double cpu_value, double value, const goal_spec *s)
{
    FILE *t = g->o->goals;
    if (t) {
        fprintf(t, "%s\t%d\t", figure, s->at_least);
        tsv_num(t, s->bound);
        fputc('\t', t);
        tsv_num(t, value);
        fputc('\t', t);
        tsv_num(t, cpu_value);
        fprintf(t, "\t%s\t%.17g\t%s\t%s\t%s\n", s->fmt, s->scale, measured,
                isnan(cpu_value) ? "" : cpu, s->text);
        return;
    }
    const char *jw = isnan(s->bound) ? "info" : judge(&g->vd, value, s->bound, s->at_least);
    const char *jc =
        isnan(s->bound) || isnan(cpu_value) ? "" : judge(&g->vc, cpu_value, s->bound, s->at_least);
    bench_both(g->o, "| %s | %s | %s | %s | %s | %s |\n", figure,
               isnan(value) && !isnan(s->bound) ? "-" : measured, isnan(cpu_value) ? "" : cpu,
               s->text, jw, jc);
}

/** A sentence about the table: above or below it, or a "#" line of the TSV file. */
static void goals_note(goals *g, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;
static void goals_note(goals *g, const char *fmt, ...)
{
    char line[400];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(line, sizeof line, fmt, ap);
    va_end(ap);
    if (g->o->goals) {
        fprintf(g->o->goals, "#\t%s\n", line);
    } else {
        bench_both(g->o, "\n%s\n", line);
    }
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

static const goal_spec MBPS_5000 = {">= 5000 MB/s", 5000, 1, "%.0f MB/s", 1};
static const goal_spec MBPS_4000 = {">= 4000 MB/s", 4000, 1, "%.0f MB/s", 1};
static const goal_spec OF_VALID_90 = {">= 90% of the valid figure", 0.9, 1, "%.0f%%", 100};
static const goal_spec OF_VALID_70 = {">= 70% of the valid figure", 0.7, 1, "%.0f%%", 100};
static const goal_spec OF_RECORD_90 = {">= 90% of the record floor (within a tenth of it)", 0.9, 1,
                                       "%.0f%%", 100};
static const goal_spec OF_RECORD_75 = {">= 75% of the record floor (within a quarter of it)", 0.75,
                                       1, "%.0f%%", 100};

/** The row of `t` (an in-process timing of `in`) as a share of `in`'s record floor measured in
 *  the same run, wall clock and CPU time. */
static void floor_ratio(goals *g, const char *what, input *in, const timing *t, const goal_spec *s)
{
    char f[200], m[240], c[80];
    double w = bench_ratio(bench_timing_mbps(in, t, 0), bench_timing_mbps(in, &in->record, 0));
    double u = bench_ratio(bench_timing_mbps(in, t, 1), bench_timing_mbps(in, &in->record, 1));
    snprintf(f, sizeof f, "in-process %s / record floor, %s (same run)", what, in->label);
    snprintf(m, sizeof m, "%s%% (%s MB/s / %s MB/s)", bench_num(w * 100, "%.0f"),
             bench_num(bench_timing_mbps(in, t, 0), "%.0f"),
             bench_num(bench_timing_mbps(in, &in->record, 0), "%.0f"));
    snprintf(c, sizeof c, "%s%%", bench_num(u * 100, "%.0f"));
    goal(g, f, m, c, u, w, s);
}

/** Information beside lower's floor ratio, in the same run: the record floor and one copy of
 *  the input (the copy floor) together, against lower.  A lowering that hands its output back
 *  as one array (spvbc_module_get_words) pays both at least; where the copy alone is more than a
 *  third of the record floor, 75% of the record floor cannot be had by any such design. */
static void lower_copy_floor(goals *g, const input *l)
{
    static const goal_spec info = {"none: what any lowering that returns one array pays", NAN, 1,
                                   "%.0f%%", 100};
    const timing *r = &l->record, *k = &l->copy, *lo = &l->lower;
    const int ok = r->reps && k->reps && lo->reps && !r->failed && !k->failed && !lo->failed;
    double w = ok ? bench_ratio(r->warm + k->warm, lo->warm) : NAN;
    double u = ok ? bench_ratio(r->cpu_warm + k->cpu_warm, lo->cpu_warm) : NAN;
    char f[200], m[240], c[80];
    snprintf(f, sizeof f, "in-process lower / (record floor + copy floor), %s (same run)",
             l->label);
    snprintf(m, sizeof m, "%s%% (record %s ms + copy %s ms, against lower %s ms)",
             bench_num(w * 100, "%.0f"), bench_num(ok ? r->warm * 1e3 : NAN, "%.2f"),
             bench_num(ok ? k->warm * 1e3 : NAN, "%.2f"),
             bench_num(ok ? lo->warm * 1e3 : NAN, "%.2f"));
    snprintf(c, sizeof c, "%s%%", bench_num(u * 100, "%.0f"));
    goal(g, f, m, c, u, w, &info);
}

/** The in-process rows: validate on `v`, the lowerable input `l` under two policies, lower on
 *  `l`, and both against the record floor. */
static void goals_in_process(goals *g, input *v, input *l)
{
    const char *vl = v ? v->label : "valid/128M", *ll = l ? l->label : "lowerable/128M";
    char f[200], m[240], c[80];
    double vm = bench_timing_mbps(v, v ? &v->validate : NULL, 0);
    double vmc = bench_timing_mbps(v, v ? &v->validate : NULL, 1);
    snprintf(f, sizeof f, "in-process validate, %s (walk and record floors shown)", vl);
    snprintf(m, sizeof m, "%s MB/s (walk floor %s MB/s, record floor %s MB/s)",
             bench_num(vm, "%.0f"),
             bench_num(v && v->walk.reps ? bench_mbps(v->size, v->walk.warm) : NAN, "%.0f"),
             bench_num(v && v->record.reps ? bench_mbps(v->size, v->record.warm) : NAN, "%.0f"));
    snprintf(c, sizeof c, "%s MB/s", bench_num(vmc, "%.0f"));
    goal(g, f, m, c, vmc, vm, &MBPS_5000);
    if (v) {
        floor_ratio(g, "validate", v, &v->validate, &OF_RECORD_90);
    }

    static const struct {
        const char *what, *count;
        const goal_spec *spec;
    } pol[2] = {
        {"counting only (COUNT_ONLY)", "errors counted", &OF_VALID_90},
        {"every message (KEEP_ALL, each diagnostic read through spvbc_context_diagnostic)",
         "diagnostics read", &OF_VALID_70},
    };
    for (int k = 0; k < 2; ++k) {
        const timing *t = !l ? NULL : k ? &l->validate_read : &l->validate_count;
        double w = bench_timing_mbps(l, t, 0), u = bench_timing_mbps(l, t, 1);
        snprintf(f, sizeof f, "in-process validate, %s, %s", ll, pol[k].what);
        snprintf(m, sizeof m, "%s MB/s = %s%% of valid (%zu %s)", bench_num(w, "%.0f"),
                 bench_num(bench_ratio(w, vm) * 100, "%.0f"),
                 !l  ? 0
                 : k ? l->diags_read
                     : l->vsum.errors,
                 pol[k].count);
        snprintf(c, sizeof c, "%s%%", bench_num(bench_ratio(u, vmc) * 100, "%.0f"));
        goal(g, f, m, c, bench_ratio(u, vmc), bench_ratio(w, vm), pol[k].spec);
    }

    double lm = bench_timing_mbps(l, l ? &l->lower : NULL, 0);
    double lmc = bench_timing_mbps(l, l ? &l->lower : NULL, 1);
    snprintf(f, sizeof f, "in-process lower, %s (record floor shown)", ll);
    snprintf(m, sizeof m, "%s MB/s (%zu rewritten; record floor %s MB/s)", bench_num(lm, "%.0f"),
             l ? l->lsum.rewritten : 0,
             bench_num(l && l->record.reps ? bench_mbps(l->size, l->record.warm) : NAN, "%.0f"));
    snprintf(c, sizeof c, "%s MB/s", bench_num(lmc, "%.0f"));
    goal(g, f, m, c, lmc, lm, &MBPS_4000);
    if (l) {
        floor_ratio(g, "lower", l, &l->lower, &OF_RECORD_75);
        lower_copy_floor(g, l);
    }
}

/** The whole-process rows: wall ratios to cp (CPU ratios beside them), `validate -q` on the
 *  lowerable input against the valid one, and peak RSS. */
static void goals_processes(goals *g, input *v, input *l)
{
    static const struct {
        int lowerable, p, q; /* figure = time of p / time of q */
        const char *what;
        goal_spec spec;
    } procs[] = {
        {0, P_VALIDATE, P_CP, "process `validate` / `cp`", {"<= 2x", 2, 0, "%.2fx", 1}},
        {1, P_LOWER_Q, P_CP, "process `lower -q` / `cp`", {"<= 2x", 2, 0, "%.2fx", 1}},
        {1,
         P_LOWER,
         P_CP,
         "process `lower` / `cp`, printing all rewrites",
         {"<= 4x", 4, 0, "%.2fx", 1}},
    };
    char f[200], m[240], c[80];
    for (size_t k = 0; k < sizeof procs / sizeof procs[0]; ++k) {
        input *in = procs[k].lowerable ? l : v;
        int p = procs[k].p, q = procs[k].q;
        double w = bench_ratio(bench_metric_time(in, p, 0), bench_metric_time(in, q, 0));
        double u = bench_ratio(bench_metric_time(in, p, 1), bench_metric_time(in, q, 1));
        snprintf(f, sizeof f, "%s, %s", procs[k].what, in ? in->label : "-");
        snprintf(m, sizeof m, "%sx (%s ms / %s ms)", bench_num(w, "%.2f"),
                 bench_num(bench_metric_time(in, p, 0) * 1e3, "%.1f"),
                 bench_num(bench_metric_time(in, q, 0) * 1e3, "%.1f"));
        if (p == P_VALIDATE) {
            size_t len = strlen(m);
            snprintf(m + len, sizeof m - len, "; floor mmap + walk / cp %sx",
                     bench_num(bench_ratio(bench_metric_time(in, P_FLOOR, 0),
                                           bench_metric_time(in, P_CP, 0)),
                               "%.2f"));
        }
        snprintf(c, sizeof c, "%sx", bench_num(u, "%.2f"));
        goal(g, f, m, c, u, w, &procs[k].spec);
    }
    static const goal_spec per_byte = {"<= 1.2x", 1.2, 0, "%.2fx", 1};
    /* time per input byte, so that the few bytes the two inputs differ by do not count */
    double tl = bench_metric_time(l, P_VALIDATE_Q, 0), tv = bench_metric_time(v, P_VALIDATE_Q, 0);
    double w = l && v ? bench_ratio(tl / (double)l->size, tv / (double)v->size) : NAN;
    double ul = bench_metric_time(l, P_VALIDATE_Q, 1), uv = bench_metric_time(v, P_VALIDATE_Q, 1);
    double u = l && v ? bench_ratio(ul / (double)l->size, uv / (double)v->size) : NAN;
    snprintf(f, sizeof f, "process `validate -q`, %s vs the same on %s (per byte)",
             l ? l->label : "-", v ? v->label : "-");
    snprintf(m, sizeof m, "%sx (%s ms / %s ms)", bench_num(w, "%.2f"), bench_num(tl * 1e3, "%.1f"),
             bench_num(tv * 1e3, "%.1f"));
    snprintf(c, sizeof c, "%sx", bench_num(u, "%.2f"));
    goal(g, f, m, c, u, w, &per_byte);

    /* peak memory of the process, per input byte: validate, and lower in both its forms */
    static const goal_spec rss = {"<= 1.2 bytes per input byte", 1.2, 0, "%.2f B/B", 1};
    static const struct {
        int p;
        const char *what;
    } peaks[] = {{P_VALIDATE, "`validate`"},
                 {P_LOWER, "`lower`, printing all rewrites"},
                 {P_LOWER_Q, "`lower -q`"}};
    for (size_t k = 0; k < sizeof peaks / sizeof peaks[0]; ++k) {
        const int p = peaks[k].p;
        double r = bench_rss_per_byte(l, p);
        snprintf(f, sizeof f, "peak RSS of %s, %s", peaks[k].what, l ? l->label : "-");
        snprintf(
            m, sizeof m, "%s B/B (%s MiB)", bench_num(r, "%.2f"),
            bench_num(l && !isnan(r) ? bench_mib((size_t)l->proc[p].rss_kb * 1024) : NAN, "%.1f"));
        goal(g, f, m, "", NAN, r, &rss);
    }
}

/** The library's memory on the pathological module: every finding kept (information), and
 *  KEEP_FIRST against its cap. */
static void goals_memory(goals *g, const patho *pa)
{
    static const goal_spec keep_all = {"none: keeps every finding", NAN, 0, "%.1f MiB", 1};
    char f[200], m[240], t[120];
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
            "%s MiB = %s B/B; %s bytes per finding above %s (%s MiB); %zu findings, %.2f s",
            bench_num(mem_mib(all), "%.1f"), bench_num((double)all->peak / bytes, "%.2f"),
            bench_num(((double)all->peak - (double)base->peak) / (double)all->findings, "%.0f"),
            op ? "COUNT_ONLY" : "the clean twin", bench_num(mem_mib(base), "%.1f"), all->findings,
            all->seconds);
        goal(g, f, m, "", NAN, mem_mib(all), &keep_all);
        snprintf(f, sizeof f, "library peak, %s, same module, KEEP_FIRST %u", what,
                 PATHO_KEEP_FIRST);
        double excess = (double)first->peak - (double)base->peak;
        snprintf(m, sizeof m,
                 "%s MiB = %s B/B; %+.0f KiB over %s (%s MiB, %s B/B); %zu diagnostics kept, "
                 "%.2f s",
                 bench_num(mem_mib(first), "%.1f"), bench_num((double)first->peak / bytes, "%.2f"),
                 excess / 1024.0, op ? "COUNT_ONLY on the same module" : "the clean twin",
                 bench_num(mem_mib(base), "%.1f"), bench_num((double)base->peak / bytes, "%.2f"),
                 first->kept, first->seconds);
        snprintf(t, sizeof t,
                 "bounded by the cap: <= %s + %u x %u B + 1 MiB, whatever the number of findings",
                 op ? "COUNT_ONLY" : "clean twin", PATHO_KEEP_FIRST, PATHO_BYTES_PER_KEPT);
        const goal_spec cap = {t, (double)PATHO_KEEP_FIRST * PATHO_BYTES_PER_KEPT + PATHO_SLACK, 0,
                               "%+.0f KiB", 1.0 / 1024};
        double ok = first->ran && !first->failed && base->ran && !base->failed ? excess : NAN;
        goal(g, f, m, "", NAN, ok, &cap);
    }
}

/** The small modules per call, as a Vulkan layer calls the library. */
static void goals_small(goals *g, const small_set *small)
{
    static const char *const small_what[5] = {
        "module with 6 rewrites, fresh context per call (what the layer first did)",
        "module with 6 rewrites, reused context, KEEP_ALL (every finding made into a sentence)",
        "clean shader, reused context", NULL,
        "module with 6 rewrites, reused context, COUNT_ONLY (the layer's pooled contexts, as any "
        "driver that reads no finding: none is made into a sentence)"};
    /* the issue's goal for the reused context with every finding kept: 1.5 us */
    static const goal_spec us_1_5 = {"<= 1.5 us", 1.5, 0, "%.2f us", 1};
    static const goal_spec us_4 = {"<= 4 us", 4, 0, "%.2f us", 1};
    char f[200], m[240];
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
        goal(g, f, m, "", NAN, s->ran && !s->failed ? s->us : NAN, k == 1 ? &us_1_5 : &us_4);
    }
}

void bench_goals(out2 *o, const options *opt, input *ins, int n, const small_set *small,
                 const patho *pa)
{
    input *v = goal_input(ins, n, "valid"), *l = goal_input(ins, n, "lowerable");
    goals g = {o, {0, 0, 0}, {0, 0, 0}};
    (void)opt;
    if (!o->goals) {
        bench_both(o, "\n### Goals\n");
    }
    if (v && strcmp(v->name, "128M")) {
        goals_note(&g,
                   "**Not the goals' sizes**: the %s and %s inputs stand in for the 128 MiB ones "
                   "(as with run.sh --quick).",
                   v->label, l ? l->label : "-");
    }
    if (!o->goals) {
        bench_both(
            o, "\nThe verdict is on the wall-clock figure (medians); the same figure in CPU time "
               "(thread CPU time in process, user + system of the child for processes) has its own "
               "verdict, which tells the library from a busy machine.  In process: warm calls, "
               "context reused.\n\n"
               "| figure | measured (wall clock) | CPU time | goal | verdict | verdict (CPU) |\n"
               "|---|---|---|---|---|---|\n");
    }
    goals_in_process(&g, v, l);
    goals_processes(&g, v, l);
    if (pa->ran) {
        goals_memory(&g, pa);
    } else if (o->goals) {
        static const goal_spec none = {"bounded by the cap", 0, 0, "%.0f", 1};
        goal(&g, "library peak on the pathological module", "-", "", NAN, NAN, &none);
    } else {
        bench_both(o, "| library peak on the pathological module | - | | bounded by the cap | not "
                      "measured | |\n");
        g.vd.unknown++;
    }
    goals_small(&g, small);
    if (!o->goals) {
        bench_both(o,
                   "\nGoals (wall clock): %d met, %d MISSED, %d not measured.  In CPU time: %d "
                   "met, %d MISSED.\n",
                   g.vd.pass, g.vd.miss, g.vd.unknown, g.vc.pass, g.vc.miss);
    }
    for (int op = 0; pa->ran && op < 2; ++op) {
        const mem_run *r[4] = {&pa->all[op], &pa->first[op], &pa->only[op], &pa->clean[op]};
        for (int k = 0; k < 4; ++k) {
            if (r[k]->failed) {
                goals_note(&g, "library memory run %d of %s failed (%zu bytes left live)", k,
                           op ? "lower" : "validate", r[k]->leaked);
            }
        }
    }
}
