/*
 * bench.h - what the rooms of the benchmark (spvbc_bench) share: the inputs and their
 * measurements, the options, and each room's entry points.  bench.c says what the benchmark
 * measures and holds main() alone; the rooms, each calling only rooms listed after it, are
 * bench_report.c (the tables), bench_goals.c (the goals table) and bench_data.c (the data
 * files), bench_figures.c (the figures those three read, and how they are written),
 * bench_proc.c (whole processes), bench_inproc.c (the public API in process, and the small
 * modules per call), bench_memory.c (the library's memory on the pathological module),
 * bench_floor.c (the floors) and bench_modules.c (the modules built in memory), and at the
 * bottom bench_util.c (allocation, units) with test/support's test_time.h (clock, median).
 * Every global name is bench_* (the generator's, in gen_module.h, gen_*).
 *
 * SPDX-License-Identifier: Apache-2.0
 */
#ifndef SPVBC_BENCH_H_
#define SPVBC_BENCH_H_

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "bench_util.h"
#include "modbuild.h"
#include "spirv_bitcast.h"
#include "test_time.h"

/* ---- tools run as processes --------------------------------------------------------------- */

/* P_LOWER_Q (-q: no per-finding output) runs on invalid series only: on a valid module there is
 * nothing to print and it equals P_LOWER.  P_VALIDATE_Q runs on every input (its goal compares
 * a lowerable input with a valid one). */
enum {
    P_CP,
    P_VALIDATE,
    P_LOWER,
    P_SPIRV_VAL,
    P_SPIRV_OPT,
    P_VALIDATE_Q,
    P_LOWER_Q,
    P_FLOOR, /* this program mapping the file and reading every instruction's first word */
    P_COUNT
};

extern const char *const bench_proc_names[P_COUNT]; /* for the tables */
extern const char *const bench_proc_keys[P_COUNT]; /* for the data file */
extern char bench_self_exe[4096]; /* this program, which runs itself for the P_FLOOR walk */

typedef struct proc_m {
    int ran; /* measured */
    int failed; /* an unexpected exit status */
    int status; /* the last exit status (or 128 + signal) */
    int reps;
    double wall; /* median seconds */
    double cpu; /* median user + system seconds */
    long rss_kb; /* largest peak RSS of the runs, KiB */
    char note[160]; /* first line of stderr on failure */
} proc_m;

typedef struct timing {
    int ran;
    int failed;
    int reps;
    double first; /* seconds */
    double warm; /* median of the calls after the first */
    double lo, hi;
    double cpu_first, cpu_warm; /* thread CPU time of the same calls */
} timing;

typedef struct input {
    char *label; /* "series/name" */
    char *series;
    char *name;
    const char *path;
    size_t size;
    uint32_t bound;
    int invalid;
    proc_m proc[P_COUNT];
    timing validate, lower, walk, record; /* walk, record: the floors (bench_floor.c) */
    timing copy; /* one copy of the input into a buffer kept from call to call (bench_floor.c) */
    timing validate_r, lower_r; /* with the reusing allocator */
    timing validate_count; /* policy COUNT_ONLY (invalid series only) */
    timing validate_read; /* KEEP_ALL, every diagnostic read (invalid series only) */
    size_t diags_read; /* diagnostics read by the last validate_read call */
    spvbc_result validate_result;
    spvbc_validate_summary vsum;
    spvbc_lower_summary lsum;
    spvbc_module_info info;
    size_t out_words;
} input;

typedef struct options {
    const char *cli, *spirv_val, *spirv_opt, *cp, *tmp;
    const char *dat, *plot, *md;
    const char *goals_tsv; /* --goals-tsv: the goals' rows for bench/spread.awk */
    const char *invalid[16];
    int invalid_count;
    double min_time;
    int min_reps, max_reps, proc_reps;
    int no_proc;
    const char *only;
    size_t patho; /* bitcasts of the pathological module; 0: not measured */
    int no_small;
} options;

/* OP_VALIDATE_COUNT: validate under SPVBC_DIAGNOSTIC_POLICY_COUNT_ONLY.  OP_VALIDATE_READ: validate
 * under the default policy (KEEP_ALL), then read every diagnostic through
 * spvbc_context_diagnostic() (which makes its sentence) and touch its text, as a caller that
 * shows every message does. */
typedef enum {
    OP_VALIDATE,
    OP_LOWER,
    OP_WALK,
    OP_RECORD,
    OP_COPY,
    OP_VALIDATE_COUNT,
    OP_VALIDATE_READ
} op_kind;

/* One call of the library on the pathological module, from context creation to destruction. */
typedef struct mem_run {
    int ran, failed;
    size_t peak; /* peak live bytes of the library (counting allocator) */
    size_t leaked; /* live bytes after spvbc_context_destroy (should be 0) */
    size_t findings; /* validate: errors; lower: rewritten + refused */
    size_t kept; /* diagnostics the context held after the call */
    double seconds;
} mem_run;

#define PATHO_KEEP_FIRST 1000u
/* what a kept finding may cost above the baseline, and a constant for arena granularity */
#define PATHO_BYTES_PER_KEPT 1024u
#define PATHO_SLACK (1u << 20)

typedef struct patho {
    int ran;
    size_t count, errors, bytes;
    /* [0] validate, [1] lower */
    mem_run clean[2], all[2], first[2], only[2];
} patho;

/* The small modules, timed per call as a Vulkan layer calls the library on each module:
 * parse_bytes + validate, and when it found errors lower + get_words, then destroy the module;
 * `fresh`: in a context created and destroyed around each call, else in one reused context. */
typedef struct small_m {
    int ran, failed;
    size_t bytes;
    double us; /* median microseconds per call (over batches) */
    double us_min; /* the fastest batch */
    int calls;
} small_m;

/* [0] six 4->3 fresh, [1] six 4->3 reused, [2] clean 8K reused, [3] clean 8K fresh,
 * [4] six 4->3 reused under COUNT_ONLY */
typedef struct small_set {
    small_m m[5];
} small_set;

/* The time of a metric of an input: 0..P_COUNT-1 processes, then the in-process ones. */
enum { M_IN_VALIDATE = P_COUNT, M_IN_LOWER, M_COUNT };

/* ---- bench_proc.c: whole processes ----------------------------------------------------------- */

/** 1 for this project's tools (their ratio is to cp), 0 for the others (to validate). */
int bench_is_ours(int p);
/** Reads the file once so that every tool finds it in the page cache; returns its size. */
int bench_warm_file(const char *path, size_t *size, uint32_t *bound);
/** Every whole-process measurement of `in`. */
void bench_run_processes(const options *o, input *in);
/** The whole-process floor (spvbc_bench --walk-file PATH); exit status 0 if the walk ended at
 *  the end of the file. */
int bench_walk_file(const char *path);

/* ---- bench_inproc.c: the public API in process -------------------------------------------------
 */

/** Reads `path` into `*words` (xmalloc'ed) and its byte count into `*size`; 0 on success. */
int bench_load_words(const char *path, uint32_t **words, size_t *size);
/** The floors (bench_floor.c): seconds for one walk, and for one record pass over an id table
 *  of `bound` entries. */
double bench_run_walk(const uint32_t *words, size_t count);
double bench_run_record(const uint32_t *words, size_t count, uint32_t bound);
double bench_run_copy(const uint32_t *words, size_t count);
/** Times `op` on `words` into `t`: the first call in a new context, then warm calls; with the
 *  reusing allocator if `reuse`. */
void bench_measure_op(const options *o, input *in, op_kind op, const uint32_t *words, size_t count,
                      timing *t, int reuse);
/** Times the small modules per call, as a Vulkan layer calls the library. */
void bench_run_small(const options *o, small_set *s);

/* ---- bench_modules.c: modules built in memory --------------------------------------------------
 */

/* the ids of the pathological module; PA_FIRST is its first bitcast's result */
enum { PA_FN = 1, PA_VOID, PA_FNTY, PA_F, PA_F4, PA_F3, PA_I, PA_I4, PA_LABEL, PA_X, PA_FIRST };

/** The pathological module of `count` bitcasts into `b`; returns its errors and the word offset
 *  of the first bitcast in `*first_bitcast`. */
size_t bench_patho_build(mb *b, size_t count, size_t *first_bitcast);
/** Turns the errors of the pathological module into valid bitcasts (`errors` 0) and back. */
void bench_patho_set_errors(mb *b, size_t count, size_t first_bitcast, int errors);
/** The compute shader of `blocks` blocks, the first `lowerable` of them with a 4->3 bitcast. */
void bench_build_compute(mb *b, uint32_t blocks, uint32_t lowerable);
/** The clean shader: bench_build_compute() without errors, with the fewest blocks reaching 8 KiB.
 */
void bench_build_clean8k(mb *b);
/** --emit-small DIR: writes the two small modules for run.sh's spirv-val check. */
int bench_emit_small(const char *dir);

/* ---- bench_memory.c ---------------------------------------------------------------------------
 */

/** The library's memory on the pathological module of `count` bitcasts and its clean twin. */
void bench_run_patho(size_t count, patho *p);

/* ---- bench_figures.c: the figures of the tables and how they are written ------------------- */

/** Writes to stdout and, if `md` is set, the same text to the Markdown file; `goals`, when set
 *  (--goals-tsv), takes the goals table's rows instead of both. */
typedef struct out2 {
    FILE *md;
    FILE *goals;
} out2;

void bench_both(out2 *o, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;
/** `v` formatted with `f` in one of eight rotating buffers ("-" for NAN). */
const char *bench_num(double v, const char *f);
/** a / b, or NAN unless both are positive. */
double bench_ratio(double a, double b);
/** Peak RSS of tool `p` on `in` per input byte; NAN if not measured. */
double bench_rss_per_byte(const input *in, int p);
/** Median seconds of metric `m` of `in`: wall clock, or CPU time if `cpu`; NAN if none. */
double bench_metric_time(const input *in, int m, int cpu);
/** MB/s of the warm calls of `t` on `in` (CPU time if `cpu`); NAN if not measured. */
double bench_timing_mbps(const input *in, const timing *t, int cpu);

/* ---- bench_report.c: the tables -----------------------------------------------------------------
 */

/** Every table on stdout (and into --md), the goals among them, then the data files. */
void bench_report(const options *opt, input *ins, int n, const small_set *small, const patho *pa);

/* ---- bench_goals.c -----------------------------------------------------------------------------
 */

/** The goals table, each figure against its bound (met / MISSED); or, when `o->goals` is set,
 *  its rows as tab-separated lines for bench/spread.awk. */
void bench_goals(out2 *o, const options *opt, input *ins, int n, const small_set *small,
                 const patho *pa);

/* ---- bench_data.c ------------------------------------------------------------------------------
 */

/** --dat: every number as a tab-separated row. */
void bench_write_dat(const char *path, input *ins, int n, const small_set *small, const patho *pa);
/** --plot: throughput per tool over the sizes of the series, one gnuplot data block each. */
void bench_write_plot(const char *path, input *ins, int n);

#endif /* SPVBC_BENCH_H_ */
