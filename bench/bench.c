/*
 * bench.c - the spirv-bitcast benchmark.  In one run, on the same inputs:
 *
 *   1. whole process: wall time, CPU time and peak RSS (wait4) of `spirv-bitcast validate`,
 *      `spirv-bitcast lower -o OUT`, `spirv-val`, `spirv-opt` (no passes) and `cp` of each input,
 *      medians of several runs;
 *   2. in process, with the input already in memory: parse+validate and parse+lower+get_words
 *      through the public API, first call and warm median, as MB/s;
 *      on invalid inputs also validate under SPVBC_DIAGNOSTIC_POLICY_COUNT_ONLY, and validate under
 *      the default policy reading every diagnostic through spvbc_context_diagnostic(); and
 *      the two floors these are set against (bench_floor.c): the walk and the record pass;
 *   3. the growth exponent of each time over a series of sizes (least squares of ln t on ln size);
 *   4. modules built in memory: two small shaders timed per call as a Vulkan layer calls the
 *      library (a 2.6 KB one with 6 lowerable 4->3 bitcasts, in a fresh and in a reused context;
 *      a clean 8 KB one), and a pathological module (--patho N bitcasts, every 4th an as_float3
 *      (float4) error) whose library memory a counting allocator measures under the default
 *      policy, KEEP_FIRST 1000 and COUNT_ONLY, with a clean twin of the same size;
 *   5. the performance goals, each figure against its bound (met / MISSED).
 *
 * Whole-process runs come first, while this process is small: Linux carries the parent's peak
 * RSS into a forked child's ru_maxrss, so forking from a process holding 128 MiB of input
 * would inflate every child's figure.
 *
 * Usage: spvbc_bench [options] SERIES/NAME=PATH...
 *   --cli PATH          spirv-bitcast executable (whole-process runs of validate and lower)
 *   --spirv-val PATH    --spirv-opt PATH    --cp PATH (default /bin/cp)
 *   --invalid SERIES    inputs of SERIES are not valid SPIR-V: no spirv-val / spirv-opt on them
 *   --tmp DIR           where whole-process outputs are written (default /tmp)
 *   --min-time S        in-process: repeat until S seconds are spent (default 1.5), at least
 *   --min-reps N        N runs (default 5) and at most --max-reps N (default 400)
 *   --proc-reps N       whole-process runs per measurement when one takes under 3 s (default 5)
 *   --no-proc           in-process measurements only (for profiling: perf record spvbc_bench ...)
 *   --only validate|lower|validate-reuse|lower-reuse|validate-count|validate-read
 *                       in-process: this measurement only (no small or pathological modules)
 *   --patho N           the pathological module with N bitcasts (default 0: not measured)
 *   --no-small          no small-module timings
 *   --emit-small DIR    (alone) write the two small modules to DIR and exit, for spirv-val
 *   --dat FILE          all numbers as tab-separated rows
 *   --plot FILE         throughput per tool over the sizes of the series "valid" / "lowerable",
 *                       one gnuplot data block per tool
 *   --md FILE           the tables and target verdicts as Markdown
 *   --goals-tsv FILE    the goals table's rows as tab-separated lines instead of the table (one
 *                       round of bench/run.sh --rounds; bench/spread.awk makes the table)
 * A series is a set of inputs of different sizes ("valid/1M", "valid/16M", ...); the goals read
 * valid/128M and lowerable/128M, or else the largest input of each of those series.
 * Sizes are in MiB (2^20 bytes); throughput in MB/s is 10^6 bytes per second.
 *
 * SPDX-License-Identifier: Apache-2.0
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bench.h"

static int is_invalid_series(const options *o, const char *series)
{
    for (int i = 0; i < o->invalid_count; ++i) {
        if (!strcmp(o->invalid[i], series)) {
            return 1;
        }
    }
    return 0;
}

/* ---- main ----------------------------------------------------------------------------------- */

static void usage(void)
{
    fprintf(stderr,
            "usage: spvbc_bench [--cli P] [--spirv-val P] [--spirv-opt P] [--cp P] "
            "[--invalid SERIES]... [--tmp DIR]\n"
            "                   [--min-time S] [--min-reps N] [--max-reps N] [--proc-reps N]\n"
            "                   [--patho N] [--no-small] [--no-proc] [--only M]\n"
            "                   [--dat F] [--plot F] [--md F] [--goals-tsv F] SERIES/NAME=PATH...\n"
            "       spvbc_bench --emit-small DIR\n");
}

/* Reads the command line into `*o` and the inputs into `ins` (room for `argc`), their number
 * into `*n`; 0, or 2 after printing the usage. */
static int parse_args(int argc, char **argv, options *o, input *ins, int *n)
{
    memset(o, 0, sizeof *o);
    o->cp = "/bin/cp";
    o->tmp = "/tmp";
    o->min_time = 1.5;
    o->min_reps = 5;
    o->max_reps = 400;
    o->proc_reps = 5;
    int count = 0;
    for (int i = 1; i < argc; ++i) {
        const char *a = argv[i];
        const char *v = i + 1 < argc ? argv[i + 1] : NULL;
#define OPT(name) (!strcmp(a, name) && v && (++i, 1))
        if (OPT("--cli")) {
            o->cli = v;
        } else if (OPT("--spirv-val")) {
            o->spirv_val = *v ? v : NULL;
        } else if (OPT("--spirv-opt")) {
            o->spirv_opt = *v ? v : NULL;
        } else if (OPT("--cp")) {
            o->cp = v;
        } else if (OPT("--invalid")) {
            if (o->invalid_count < 16) {
                o->invalid[o->invalid_count++] = v;
            }
        } else if (OPT("--tmp")) {
            o->tmp = v;
        } else if (OPT("--min-time")) {
            o->min_time = atof(v);
        } else if (OPT("--min-reps")) {
            o->min_reps = atoi(v);
        } else if (OPT("--max-reps")) {
            o->max_reps = atoi(v);
        } else if (OPT("--proc-reps")) {
            o->proc_reps = atoi(v);
        } else if (OPT("--patho")) {
            o->patho = (size_t)strtoull(v, NULL, 10);
        } else if (!strcmp(a, "--no-small")) {
            o->no_small = 1;
        } else if (!strcmp(a, "--no-proc")) {
            o->no_proc = 1;
        } else if (OPT("--only")) {
            o->only = v;
        } else if (OPT("--dat")) {
            o->dat = v;
        } else if (OPT("--plot")) {
            o->plot = v;
        } else if (OPT("--md")) {
            o->md = v;
        } else if (OPT("--goals-tsv")) {
            o->goals_tsv = v;
        } else if (a[0] == '-') {
            usage();
            return 2;
        } else {
            const char *eq = strchr(a, '=');
            const char *slash = strchr(a, '/');
            if (!eq || !slash || slash > eq) {
                usage();
                return 2;
            }
            input *in = &ins[count++];
            memset(in, 0, sizeof *in);
            in->label = bench_xstrdup(a);
            in->label[eq - a] = '\0';
            in->series = bench_xstrdup(in->label);
            in->series[slash - a] = '\0';
            in->name = in->label + (slash - a) + 1;
            in->path = eq + 1;
            in->invalid = is_invalid_series(o, in->series);
        }
#undef OPT
    }
    if (count == 0) {
        usage();
        return 2;
    }
    for (int i = 0; i < count; ++i) {
        ins[i].invalid = is_invalid_series(o, ins[i].series);
    }
    *n = count;
    return 0;
}

/* 1. Whole processes, while this process is small; 1 when an input cannot be read. */
static int measure_processes(const options *o, input *ins, int n)
{
    for (int i = 0; i < n; ++i) {
        input *in = &ins[i];
        if (bench_warm_file(in->path, &in->size, &in->bound) != 0) {
            fprintf(stderr, "spvbc_bench: cannot read %s: %s\n", in->path, strerror(errno));
            return 1;
        }
        if (!o->no_proc) {
            printf("  process runs: %s (%.1f MiB)\n", in->label, bench_mib(in->size));
            fflush(stdout);
            bench_run_processes(o, in);
        }
    }
    return 0;
}

/* 2. In process, with the input in memory; 1 when an input cannot be loaded. */
static int measure_in_process(const options *o, input *ins, int n)
{
    for (int i = 0; i < n; ++i) {
        input *in = &ins[i];
        uint32_t *words;
        size_t size;
        if (bench_load_words(in->path, &words, &size) != 0 || size % 4) {
            fprintf(stderr, "spvbc_bench: cannot load %s\n", in->path);
            return 1;
        }
        printf("  in-process runs: %s\n", in->label);
        fflush(stdout);
        if (!o->only) {
            bench_measure_op(o, in, OP_WALK, words, size / 4, &in->walk, 0);
            bench_measure_op(o, in, OP_RECORD, words, size / 4, &in->record, 0);
            bench_measure_op(o, in, OP_COPY, words, size / 4, &in->copy, 0);
        }
        if (!o->only || !strcmp(o->only, "validate")) {
            bench_measure_op(o, in, OP_VALIDATE, words, size / 4, &in->validate, 0);
        }
        if (!o->only || !strcmp(o->only, "lower")) {
            bench_measure_op(o, in, OP_LOWER, words, size / 4, &in->lower, 0);
        }
        if (!o->only || !strcmp(o->only, "validate-reuse")) {
            bench_measure_op(o, in, OP_VALIDATE, words, size / 4, &in->validate_r, 1);
        }
        if (!o->only || !strcmp(o->only, "lower-reuse")) {
            bench_measure_op(o, in, OP_LOWER, words, size / 4, &in->lower_r, 1);
        }
        if (in->invalid && (!o->only || !strcmp(o->only, "validate-count"))) {
            bench_measure_op(o, in, OP_VALIDATE_COUNT, words, size / 4, &in->validate_count, 0);
        }
        if (in->invalid && (!o->only || !strcmp(o->only, "validate-read"))) {
            bench_measure_op(o, in, OP_VALIDATE_READ, words, size / 4, &in->validate_read, 0);
        }
        free(words);
    }
    return 0;
}

int main(int argc, char **argv)
{
    if (argc == 3 && !strcmp(argv[1], "--walk-file")) {
        return bench_walk_file(argv[2]);
    }
    if (argc == 3 && !strcmp(argv[1], "--emit-small")) {
        return bench_emit_small(argv[2]);
    }
    {
        ssize_t len = readlink("/proc/self/exe", bench_self_exe, sizeof bench_self_exe - 1);
        bench_self_exe[len > 0 ? len : 0] = '\0';
    }
    options o;
    input *ins = (input *)bench_xmalloc((size_t)argc * sizeof(input));
    int n = 0;
    if (parse_args(argc, argv, &o, ins, &n) != 0) {
        return 2;
    }
    printf("spvbc_bench: library %s; %d inputs; medians; the machine may be shared, so wall "
           "times are noisy\n",
           spvbc_version_string(), n);

    if (measure_processes(&o, ins, n) != 0 || measure_in_process(&o, ins, n) != 0) {
        return 1;
    }

    /* 3. the small modules and the pathological one, built in memory */
    small_set small;
    patho pa;
    memset(&small, 0, sizeof small);
    memset(&pa, 0, sizeof pa);
    if (!o.only && !o.no_small) {
        bench_run_small(&o, &small);
    }
    if (!o.only && o.patho) {
        bench_run_patho(o.patho, &pa);
    }

    bench_report(&o, ins, n, &small, &pa);
    for (int i = 0; i < n; ++i) {
        free(ins[i].label);
        free(ins[i].series);
    }
    free(ins);
    return 0;
}
