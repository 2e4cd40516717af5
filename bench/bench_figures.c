/*
 * bench_figures.c - the figures the tables read from the measurements (a metric's time, MB/s,
 * peak RSS per byte, a ratio) and how they are written (bench_num(), and bench_both() onto
 * stdout and the Markdown file).  Below the tables (bench_report.c), the goals
 * (bench_goals.c) and the data files (bench_data.c), which all read them.
 *
 * SPDX-License-Identifier: Apache-2.0
 */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>

#include "bench.h"

double bench_metric_time(const input *in, int m, int cpu)
{
    if (!in) {
        return NAN;
    }
    if (m < P_COUNT) {
        const proc_m *p = &in->proc[m];
        return p->ran && !p->failed ? (cpu ? p->cpu : p->wall) : NAN;
    }
    const timing *t = m == M_IN_VALIDATE ? &in->validate : &in->lower;
    return t->ran && !t->failed && t->reps ? (cpu ? t->cpu_warm : t->warm) : NAN;
}

void bench_both(out2 *o, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vprintf(fmt, ap);
    va_end(ap);
    if (o->md) {
        va_start(ap, fmt);
        vfprintf(o->md, fmt, ap);
        va_end(ap);
    }
}

const char *bench_num(double v, const char *f)
{
    static char bufs[8][40];
    static int next;
    char *b = bufs[next++ & 7];
    if (isnan(v)) {
        snprintf(b, 40, "-");
    } else {
        snprintf(b, 40, f, v);
    }
    return b;
}

double bench_ratio(double a, double b)
{
    return (a > 0 && b > 0) ? a / b : NAN;
}

double bench_rss_per_byte(const input *in, int p)
{
    if (!in || !in->proc[p].ran || in->proc[p].failed) {
        return NAN;
    }
    return (double)in->proc[p].rss_kb * 1024.0 / (double)in->size;
}

double bench_timing_mbps(const input *in, const timing *t, int cpu)
{
    if (!in || !t->ran || t->failed || !t->reps) {
        return NAN;
    }
    return bench_mbps(in->size, cpu ? t->cpu_warm : t->warm);
}
