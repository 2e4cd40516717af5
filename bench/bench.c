/*
 * bench.c - the spirv-bitcast benchmark (issue 6).  In one run, on the same inputs:
 *
 *   1. whole process: wall time, CPU time and peak RSS (wait4) of `spirv-bitcast validate`,
 *      `spirv-bitcast lower -o OUT`, `spirv-val`, `spirv-opt` (no passes) and `cp` of each input,
 *      medians of several runs;
 *   2. in process, with the input already in memory: parse+validate and parse+lower+get_words
 *      through the public API, first call and warm median, as MB/s;
 *   3. the growth exponent of each time over a series of sizes (least squares of ln t on ln size);
 *   4. the targets, each figure against its bound.
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
 *   --only validate|lower|validate-reuse|lower-reuse   in-process: this measurement only
 *   --dat FILE          all numbers as tab-separated rows
 *   --plot FILE         throughput per tool over the sizes of the series "valid" / "lowerable",
 *                       one gnuplot data block per tool
 *   --md FILE           the tables and target verdicts as Markdown
 * A series is a set of inputs of different sizes ("valid/1M", "valid/16M", ...); the targets read
 * the inputs named valid/16M, valid/128M, lowerable/16M and lowerable/128M.
 * Sizes are in MiB (2^20 bytes); throughput in MB/s is 10^6 bytes per second.
 *
 * SPDX-License-Identifier: Apache-2.0
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "spirv_bitcast.h"

/* ---- tools run as processes --------------------------------------------------------------- */

/* P_VALIDATE_Q and P_LOWER_Q (-q: no per-finding output) run on invalid series only: on a valid
 * module there is nothing to print and they equal P_VALIDATE / P_LOWER. */
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

static const char *const proc_names[] = {"cp",
                                         "spirv-bitcast validate",
                                         "spirv-bitcast lower",
                                         "spirv-val",
                                         "spirv-opt (no passes)",
                                         "spirv-bitcast validate -q",
                                         "spirv-bitcast lower -q",
                                         "floor: mmap + walk"};
static const char *const proc_keys[] = {"cp",           "proc_validate",       "proc_lower",
                                        "spirv_val",    "spirv_opt",           "proc_validate_q",
                                        "proc_lower_q", "proc_floor_mmap_walk"};
_Static_assert(sizeof proc_names / sizeof proc_names[0] == P_COUNT, "one name per tool");
_Static_assert(sizeof proc_keys / sizeof proc_keys[0] == P_COUNT, "one key per tool");

static int is_ours(int p)
{
    return p == P_VALIDATE || p == P_LOWER || p == P_VALIDATE_Q || p == P_LOWER_Q || p == P_FLOOR;
}

static char self_exe[4096];

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
    timing validate, lower, walk;
    timing validate_r, lower_r; /* with the reusing allocator */
    spvbc_result validate_result;
    spvbc_validate_summary vsum;
    spvbc_lower_summary lsum;
    spvbc_module_info info;
    size_t out_words;
} input;

typedef struct options {
    const char *cli, *spirv_val, *spirv_opt, *cp, *tmp;
    const char *dat, *plot, *md;
    const char *invalid[16];
    int invalid_count;
    double min_time;
    int min_reps, max_reps, proc_reps;
    int no_proc;
    const char *only;
} options;

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y ? 1 : 0;
}

static double median(double *v, int n)
{
    if (n <= 0) {
        return NAN;
    }
    qsort(v, (size_t)n, sizeof *v, cmp_double);
    return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

static void *xmalloc(size_t n)
{
    void *p = malloc(n ? n : 1);
    if (!p) {
        fprintf(stderr, "spvbc_bench: out of memory\n");
        exit(2);
    }
    return p;
}

static char *xstrdup(const char *s)
{
    size_t n = strlen(s) + 1;
    char *p = (char *)xmalloc(n);
    memcpy(p, s, n);
    return p;
}

/** Runs `argv` with stdin and stdout on /dev/null and stderr into `errpath`; one measurement. */
static int run_once(char *const argv[], const char *errpath, double *wall, double *cpu,
                    long *rss_kb, int *status)
{
    double t0 = now();
    pid_t pid = fork();
    if (pid < 0) {
        return -1;
    }
    if (pid == 0) {
        int dn = open("/dev/null", O_RDWR);
        int ef = open(errpath, O_WRONLY | O_CREAT | O_TRUNC, 0644);
        if (dn < 0 || ef < 0) {
            _exit(126);
        }
        dup2(dn, 0);
        dup2(dn, 1);
        dup2(ef, 2);
        execv(argv[0], argv);
        _exit(127);
    }
    int st = 0;
    struct rusage ru;
    if (wait4(pid, &st, 0, &ru) != pid) {
        return -1;
    }
    *wall = now() - t0;
    *cpu = (double)ru.ru_utime.tv_sec + (double)ru.ru_utime.tv_usec * 1e-6 +
           (double)ru.ru_stime.tv_sec + (double)ru.ru_stime.tv_usec * 1e-6;
    *rss_kb = ru.ru_maxrss;
    *status = WIFEXITED(st) ? WEXITSTATUS(st) : 128 + (WIFSIGNALED(st) ? WTERMSIG(st) : 0);
    return 0;
}

static void first_line(const char *path, char *buf, size_t size)
{
    FILE *f = fopen(path, "r");
    buf[0] = '\0';
    if (!f) {
        return;
    }
    if (fgets(buf, (int)size, f)) {
        buf[strcspn(buf, "\n")] = '\0';
    }
    fclose(f);
}

/** Measures `argv` (medians); `ok_mask` has bit s set for each acceptable exit status s. */
static void measure_proc(const options *o, proc_m *m, char *const argv[], unsigned ok_mask,
                         const char *outpath)
{
    double walls[32], cpus[32];
    char errpath[4096];
    snprintf(errpath, sizeof errpath, "%s/spvbc-bench-stderr.%ld", o->tmp, (long)getpid());
    memset(m, 0, sizeof *m);
    m->ran = 1;
    int want = 1;
    for (int r = 0; r < want; ++r) {
        long rss;
        int st;
        if (outpath) {
            unlink(outpath); /* do not time the truncation of the last run's output */
        }
        if (run_once(argv, errpath, &walls[r], &cpus[r], &rss, &st) != 0) {
            m->failed = 1;
            snprintf(m->note, sizeof m->note, "cannot run %s: %s", argv[0], strerror(errno));
            break;
        }
        m->status = st;
        m->reps = r + 1;
        if (rss > m->rss_kb) {
            m->rss_kb = rss;
        }
        if (st > 31 || !(ok_mask & (1u << st))) {
            m->failed = 1;
            first_line(errpath, m->note, sizeof m->note);
            break;
        }
        if (r == 0) {
            /* repeat what is quick; a slow tool's single run is its figure */
            want = walls[0] < 3.0 ? o->proc_reps : walls[0] < 20.0 ? 3 : 1;
            if (want > 32) {
                want = 32;
            }
        }
    }
    m->wall = median(walls, m->reps);
    m->cpu = median(cpus, m->reps);
    unlink(errpath);
    if (outpath) {
        unlink(outpath);
    }
}

/** Reads the file once so that every tool finds it in the page cache; returns its size. */
static int warm_file(const char *path, size_t *size, uint32_t *bound)
{
    int fd = open(path, O_RDONLY);
    if (fd < 0) {
        return -1;
    }
    static unsigned char buf[1 << 16];
    size_t total = 0;
    ssize_t n;
    uint32_t head[5] = {0, 0, 0, 0, 0};
    while ((n = read(fd, buf, sizeof buf)) > 0) {
        if (total == 0 && n >= 20) {
            memcpy(head, buf, sizeof head);
        }
        total += (size_t)n;
    }
    close(fd);
    if (n < 0) {
        return -1;
    }
    *size = total;
    *bound = head[0] == 0x07230203u ? head[3] : __builtin_bswap32(head[3]);
    return 0;
}

static uint32_t id_cap(uint32_t bound)
{
    uint64_t cap = (uint64_t)bound * 2;
    if (cap < SPVBC_DEFAULT_MAX_ID_BOUND) {
        cap = SPVBC_DEFAULT_MAX_ID_BOUND;
    }
    if (cap > 0x7FFFFFF0u) {
        cap = 0x7FFFFFF0u;
    }
    return (uint32_t)cap;
}

static int is_invalid_series(const options *o, const char *series)
{
    for (int i = 0; i < o->invalid_count; ++i) {
        if (!strcmp(o->invalid[i], series)) {
            return 1;
        }
    }
    return 0;
}

static void run_processes(const options *o, input *in)
{
    char cap[32], capeq[48], outpath[4096];
    snprintf(cap, sizeof cap, "%u", id_cap(in->bound));
    snprintf(capeq, sizeof capeq, "--max-id-bound=%u", id_cap(in->bound));
    snprintf(outpath, sizeof outpath, "%s/spvbc-bench-out.%ld.spv", o->tmp, (long)getpid());
    char *path = (char *)in->path;

    {
        char *argv[] = {(char *)o->cp, path, outpath, NULL};
        measure_proc(o, &in->proc[P_CP], argv, 1u, outpath);
    }
    if (self_exe[0]) {
        char *argv[] = {self_exe, "--walk-file", path, NULL};
        measure_proc(o, &in->proc[P_FLOOR], argv, 1u, NULL);
    }
    if (o->cli) {
        /* exit 1 = findings, expected on an invalid series */
        char *argv[] = {(char *)o->cli, "validate", "--max-id-bound", cap, path, NULL};
        measure_proc(o, &in->proc[P_VALIDATE], argv, in->invalid ? 3u : 1u, NULL);
        char *argl[] = {(char *)o->cli, "lower", "--max-id-bound", cap, "-o", outpath, path, NULL};
        measure_proc(o, &in->proc[P_LOWER], argl, 1u, outpath);
        if (in->invalid) {
            char *argvq[] = {(char *)o->cli, "validate", "-q", "--max-id-bound", cap, path, NULL};
            measure_proc(o, &in->proc[P_VALIDATE_Q], argvq, 3u, NULL);
            char *arglq[] = {(char *)o->cli, "lower", "-q", "--max-id-bound", cap, "-o",
                             outpath,        path,    NULL};
            measure_proc(o, &in->proc[P_LOWER_Q], arglq, 1u, outpath);
        }
    }
    if (o->spirv_val && !in->invalid) {
        char *argv[] = {(char *)o->spirv_val, "--max-id-bound", cap, path, NULL};
        measure_proc(o, &in->proc[P_SPIRV_VAL], argv, 1u, NULL);
    }
    if (o->spirv_opt && !in->invalid) {
        char *argv[] = {(char *)o->spirv_opt, capeq, path, "-o", outpath, NULL};
        measure_proc(o, &in->proc[P_SPIRV_OPT], argv, 1u, outpath);
    }
}

/* ---- in-process ----------------------------------------------------------------------------- */

static int load_words(const char *path, uint32_t **words, size_t *size)
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
    *words = (uint32_t *)xmalloc((*size + 3) & ~(size_t)3);
    size_t got = fread(*words, 1, *size, f);
    fclose(f);
    return got == *size ? 0 : -1;
}

typedef enum { OP_VALIDATE, OP_LOWER, OP_WALK } op_kind;

static volatile uint32_t walk_sink;

/** The floor: one linear pass that reads every instruction's first word and counts opcodes
 *  (what the issue calls "a single linear pass that only reads every instruction"). */
static double run_walk(const uint32_t *words, size_t count)
{
    static uint32_t hist[256];
    double t0 = now();
    memset(hist, 0, sizeof hist);
    size_t off = 5;
    while (off < count) {
        uint32_t w = words[off];
        uint32_t wc = w >> 16;
        hist[w & 0xffu]++;
        off += wc ? wc : 1;
    }
    uint32_t x = 0;
    for (int i = 0; i < 256; ++i) {
        x += hist[i] * (uint32_t)i;
    }
    walk_sink = x;
    return now() - t0;
}

/** One parse+validate or parse+lower+get_words, in a fresh context; seconds, or < 0 on failure. */
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
static double run_op(input *in, op_kind op, const uint32_t *words, size_t count,
                     const spvbc_allocator *alloc, spvbc_context *ctx)
{
    spvbc_module mod;
    spvbc_parse_options po = {id_cap(in->bound), 0};
    if (op == OP_WALK) {
        return run_walk(words, count);
    }
    double t0 = now();
    if (!*ctx && spvbc_context_create(alloc, ctx) != SPVBC_SUCCESS) {
        *ctx = NULL;
        return -1;
    }
    spvbc_result r = spvbc_module_parse(*ctx, words, count, &po, &mod);
    if (r == SPVBC_SUCCESS) {
        if (op == OP_VALIDATE) {
            r = spvbc_module_validate(mod, NULL, &in->vsum);
            in->validate_result = r;
            if (r == SPVBC_ERROR_VALIDATION_FAILED) {
                r = SPVBC_SUCCESS;
            }
        } else {
            const uint32_t *out;
            r = spvbc_module_lower(mod, NULL, &in->lsum);
            if (r == SPVBC_SUCCESS) {
                r = spvbc_module_get_words(mod, &out, &in->out_words);
            }
        }
        if (spvbc_module_get_info(mod, &in->info) != SPVBC_SUCCESS) {
            memset(&in->info, 0, sizeof in->info);
        }
        spvbc_module_destroy(mod);
    }
    double t = now() - t0;
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

static void measure_op(const options *o, input *in, op_kind op, const uint32_t *words, size_t count,
                       timing *t, int reuse)
{
    reuse_cache cache;
    spvbc_allocator ra = {reuse_alloc, reuse_free, &cache};
    const spvbc_allocator *alloc = reuse ? &ra : NULL;
    cache.count = 0;
    int cap = o->max_reps < 1 ? 1 : o->max_reps;
    double *times = (double *)xmalloc((size_t)cap * sizeof(double));
    double *cpus = (double *)xmalloc((size_t)cap * sizeof(double));
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
        t->warm = median(times, n); /* sorts */
        t->lo = times[0];
        t->hi = times[n - 1];
        t->cpu_warm = median(cpus, n);
    }
    free(times);
    free(cpus);
    spvbc_context_destroy(ctx);
    reuse_clear(&cache);
}

/* ---- growth --------------------------------------------------------------------------------- */

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

/* The time of a metric of an input: 0..P_COUNT-1 processes, then the in-process ones. */
enum { M_IN_VALIDATE = P_COUNT, M_IN_LOWER, M_COUNT };
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

/** Median seconds of metric `m` of `in`: wall clock, or CPU time if `cpu`; NAN if none. */
static double metric_time(const input *in, int m, int cpu)
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

static double series_exponent(input *ins, int n, const char *series, int m, int cpu)
{
    double s[64], t[64];
    int k = 0;
    for (int i = 0; i < n && k < 64; ++i) {
        if (!strcmp(ins[i].series, series)) {
            s[k] = (double)ins[i].size;
            t[k] = metric_time(&ins[i], m, cpu);
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

/* ---- output --------------------------------------------------------------------------------- */

static double mbps(size_t size, double seconds)
{
    return seconds > 0 ? (double)size / 1e6 / seconds : NAN;
}

static double mib(size_t size)
{
    return (double)size / (1024.0 * 1024.0);
}

/** Writes to stdout and, if `md` is set, the same text to the Markdown file. */
typedef struct out2 {
    FILE *md;
} out2;

static void both(out2 *o, const char *fmt, ...)
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

/* Formats `v` with `f` into one of eight rotating buffers ("-" for NAN). */
static const char *num(double v, const char *f)
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

static input *find_input(input *ins, int n, const char *label)
{
    for (int i = 0; i < n; ++i) {
        if (!strcmp(ins[i].label, label)) {
            return &ins[i];
        }
    }
    return NULL;
}

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
    return "**missed**";
}

/** One row of the target table: the wall-clock figure, and the CPU-time figure if any. */
static void target(out2 *o, verdict *vw, verdict *vc, const char *what, double wall, double cpu,
                   const char *unit, double bound, int at_least)
{
    const char *jw = judge(vw, wall, bound, at_least);
    const char *jc = isnan(cpu) ? "" : judge(vc, cpu, bound, at_least);
    both(o, "| %s | %s %s | %s | %s %g %s | %s | %s |\n", what, num(wall, "%.3g"), unit,
         isnan(cpu) ? "" : num(cpu, "%.3g"), at_least ? ">=" : "<=", bound, unit, jw, jc);
}

static double ratio(double a, double b)
{
    return (a > 0 && b > 0) ? a / b : NAN;
}

static double rss_per_byte(const input *in, int p)
{
    if (!in || !in->proc[p].ran || in->proc[p].failed) {
        return NAN;
    }
    return (double)in->proc[p].rss_kb * 1024.0 / (double)in->size;
}

static double metric_mbps(const input *in, int m, int cpu)
{
    return in ? mbps(in->size, metric_time(in, m, cpu)) : NAN;
}

static void report(const options *opt, input *ins, int n)
{
    out2 o = {NULL};
    if (opt->md) {
        o.md = fopen(opt->md, "w");
        if (!o.md) {
            fprintf(stderr, "spvbc_bench: cannot write %s\n", opt->md);
        }
    }

    both(&o, "\n### In process (input already in memory; public API)\n\n");
    both(&o, "validate = spvbc_module_parse + spvbc_module_validate; lower = spvbc_module_parse "
             "+ spvbc_module_lower + spvbc_module_get_words (+ spvbc_module_destroy).  first = "
             "spvbc_context_create and the first call, in a new context; the warm calls reuse that "
             "context, as a driver parsing module after module does.  MB/s = input bytes / median "
             "time of the warm calls (wall clock; CPU = thread CPU time, which the other users of "
             "the machine inflate less).  reuse = CPU MB/s "
             "with a caller allocator that hands freed blocks back (no fresh pages after the "
             "first call).  walk = one pass reading every instruction's first word (the memory "
             "floor).\n\n");
    both(&o, "| input | MiB | id bound | bitcasts | findings | rewritten | walk MB/s | "
             "validate first ms | warm ms | MB/s | MB/s CPU | reuse | lower first ms | warm ms | "
             "MB/s | MB/s CPU | reuse | runs |\n");
    both(&o, "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"
             "---:|\n");
    for (int i = 0; i < n; ++i) {
        input *in = &ins[i];
        both(&o, "| %s | %.1f | %u | %zu | %zu | %zu | %s |", in->label, mib(in->size), in->bound,
             in->vsum.bitcasts_checked, in->vsum.errors, in->lsum.rewritten,
             num(in->walk.reps ? mbps(in->size, in->walk.warm) : NAN, "%.0f"));
        for (int m = M_IN_VALIDATE; m <= M_IN_LOWER; ++m) {
            const timing *t = m == M_IN_VALIDATE ? &in->validate : &in->lower;
            if (t->failed) {
                both(&o, " FAILED | | | | |");
                continue;
            }
            const timing *r = m == M_IN_VALIDATE ? &in->validate_r : &in->lower_r;
            both(&o, " %s | %s | %s | %s | %s |", num(t->ran ? t->first * 1e3 : NAN, "%.2f"),
                 num(t->reps ? t->warm * 1e3 : NAN, "%.2f"), num(metric_mbps(in, m, 0), "%.0f"),
                 num(metric_mbps(in, m, 1), "%.0f"),
                 num(r->ran && !r->failed && r->reps ? mbps(in->size, r->cpu_warm) : NAN, "%.0f"));
        }
        both(&o, " %d/%d |\n", in->validate.reps, in->lower.reps);
    }

    static const int cols[] = {P_FLOOR,   P_VALIDATE,  P_LOWER,    P_VALIDATE_Q,
                               P_LOWER_Q, P_SPIRV_VAL, P_SPIRV_OPT};
    const int ncols = (int)(sizeof cols / sizeof cols[0]);
    both(&o,
         "\n### Whole process (median wall ms; x = wall time / wall time of cp for ours, / "
         "wall time of spirv-bitcast validate for spirv-val and spirv-opt; B/B = peak RSS in "
         "bytes per input byte)\n\n"
         "validate = `spirv-bitcast validate --max-id-bound N FILE`, lower = `spirv-bitcast "
         "lower --max-id-bound N -o OUT FILE`: findings printed with their disassembly, as "
         "by default; the -q forms (only on the lowerable inputs) print nothing per finding.  "
         "spirv-val and spirv-opt only run on valid inputs.  floor = this benchmark mapping the "
         "file and reading each instruction's first word: what any tool that reads its input "
         "pays here (cp copies inside the kernel).\n\n| input | MiB | cp ms |");
    for (int c = 0; c < ncols; ++c) {
        both(&o, " %s ms | x | B/B |", proc_names[cols[c]]);
    }
    both(&o, "\n|---|---:|---:|");
    for (int c = 0; c < ncols; ++c) {
        both(&o, "---:|---:|---:|");
    }
    both(&o, "\n");
    for (int i = 0; i < n; ++i) {
        input *in = &ins[i];
        double cp = metric_time(in, P_CP, 0), v = metric_time(in, P_VALIDATE, 0);
        both(&o, "| %s | %.1f | %s |", in->label, mib(in->size), num(cp * 1e3, "%.1f"));
        for (int c = 0; c < ncols; ++c) {
            int p = cols[c];
            double w = metric_time(in, p, 0);
            if (in->proc[p].failed) {
                both(&o, " FAILED (exit %d) | | |", in->proc[p].status);
                continue;
            }
            both(&o, " %s | %s | %s |", num(w * 1e3, "%.1f"),
                 num(ratio(w, is_ours(p) ? cp : v), "%.2f"), num(rss_per_byte(in, p), "%.2f"));
        }
        both(&o, "\n");
    }
    both(&o, "\nThe same runs in CPU seconds (user + system of the child, median), and the "
             "number of runs:\n\n| input | cp |");
    for (int c = 0; c < ncols; ++c) {
        both(&o, " %s | x |", proc_names[cols[c]]);
    }
    both(&o, " runs |\n|---|---:|");
    for (int c = 0; c < ncols; ++c) {
        both(&o, "---:|---:|");
    }
    both(&o, "---|\n");
    for (int i = 0; i < n; ++i) {
        input *in = &ins[i];
        double cp = metric_time(in, P_CP, 1), v = metric_time(in, P_VALIDATE, 1);
        both(&o, "| %s | %s |", in->label, num(cp, "%.3f"));
        for (int c = 0; c < ncols; ++c) {
            int p = cols[c];
            double t = metric_time(in, p, 1);
            both(&o, " %s | %s |", num(t, "%.3f"), num(ratio(t, is_ours(p) ? cp : v), "%.2f"));
        }
        both(&o, " %d", in->proc[P_CP].reps);
        for (int c = 0; c < ncols; ++c) {
            both(&o, "/%d", in->proc[cols[c]].reps);
        }
        both(&o, " |\n");
    }

    for (int i = 0; i < n; ++i) {
        for (int p = 0; p < P_COUNT; ++p) {
            if (ins[i].proc[p].failed) {
                both(&o, "\n%s on %s: exit %d: %s\n", proc_names[p], ins[i].label,
                     ins[i].proc[p].status, ins[i].proc[p].note);
            }
        }
    }

    /* growth */
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
    both(&o, "\n### Growth exponent (least-squares slope of ln time on ln size over the series; "
             "1.00 = linear; wall / CPU)\n\n| series |");
    for (int m = 0; m < M_COUNT; ++m) {
        both(&o, " %s |", metric_names[m]);
    }
    both(&o, "\n|---|");
    for (int m = 0; m < M_COUNT; ++m) {
        both(&o, "---:|");
    }
    both(&o, "\n");
    for (int s = 0; s < ns; ++s) {
        int any = 0;
        for (int m = 0; m < M_COUNT; ++m) {
            any |= !isnan(series_exponent(ins, n, series_seen[s], m, 0));
        }
        if (!any) {
            continue;
        }
        both(&o, "| %s |", series_seen[s]);
        for (int m = 0; m < M_COUNT; ++m) {
            both(&o, " %s / %s |", num(series_exponent(ins, n, series_seen[s], m, 0), "%.2f"),
                 num(series_exponent(ins, n, series_seen[s], m, 1), "%.2f"));
        }
        both(&o, "\n");
    }
    both(&o, "\n(cp and the small inputs are dominated by process start-up: their exponents say "
             "little.)\n");

    /* targets */
    input *v16 = find_input(ins, n, "valid/16M"), *v128 = find_input(ins, n, "valid/128M");
    input *l16 = find_input(ins, n, "lowerable/16M"), *l128 = find_input(ins, n, "lowerable/128M");
    verdict vw = {0, 0, 0}, vc = {0, 0, 0};
    both(&o, "\n### Targets (issue 6)\n\n| figure | measured (wall) | measured (CPU) | target | "
             "verdict (wall) | verdict (CPU) |\n|---|---:|---:|---:|---|---|\n");
    static const struct {
        const char *what;
        int which; /* 0 v16, 1 v128, 2 l16, 3 l128 */
        int metric;
        double bound;
    } speed[] = {
        {"in-process validate, valid/16M", 0, M_IN_VALIDATE, 2500},
        {"in-process validate, valid/128M", 1, M_IN_VALIDATE, 2500},
        {"in-process validate, lowerable/16M", 2, M_IN_VALIDATE, 2500},
        {"in-process validate, lowerable/128M", 3, M_IN_VALIDATE, 2500},
        {"in-process lower (10% lowerable), lowerable/16M", 2, M_IN_LOWER, 1500},
        {"in-process lower (10% lowerable), lowerable/128M", 3, M_IN_LOWER, 1500},
    };
    input *pick4[4] = {v16, v128, l16, l128};
    for (size_t k = 0; k < sizeof speed / sizeof speed[0]; ++k) {
        input *in = pick4[speed[k].which];
        target(&o, &vw, &vc, speed[k].what, metric_mbps(in, speed[k].metric, 0),
               metric_mbps(in, speed[k].metric, 1), "MB/s", speed[k].bound, 1);
    }
    target(&o, &vw, &vc, "process validate / cp, valid/128M",
           ratio(metric_time(v128, P_VALIDATE, 0), metric_time(v128, P_CP, 0)),
           ratio(metric_time(v128, P_VALIDATE, 1), metric_time(v128, P_CP, 1)), "x", 2, 0);
    target(&o, &vw, &vc, "process lower / cp, lowerable/128M",
           ratio(metric_time(l128, P_LOWER, 0), metric_time(l128, P_CP, 0)),
           ratio(metric_time(l128, P_LOWER, 1), metric_time(l128, P_CP, 1)), "x", 3, 0);
    target(&o, &vw, &vc, "process validate -q / cp, lowerable/128M",
           ratio(metric_time(l128, P_VALIDATE_Q, 0), metric_time(l128, P_CP, 0)),
           ratio(metric_time(l128, P_VALIDATE_Q, 1), metric_time(l128, P_CP, 1)), "x", 2, 0);
    target(&o, &vw, &vc, "process lower -q / cp, lowerable/128M",
           ratio(metric_time(l128, P_LOWER_Q, 0), metric_time(l128, P_CP, 0)),
           ratio(metric_time(l128, P_LOWER_Q, 1), metric_time(l128, P_CP, 1)), "x", 3, 0);
    target(&o, &vw, &vc, "process lower / cp, valid/128M (nothing to rewrite)",
           ratio(metric_time(v128, P_LOWER, 0), metric_time(v128, P_CP, 0)),
           ratio(metric_time(v128, P_LOWER, 1), metric_time(v128, P_CP, 1)), "x", 3, 0);
    for (int k = 0; k < 2; ++k) {
        input *in = k ? v128 : v16;
        char what[96];
        snprintf(what, sizeof what, "spirv-val / process validate, %s",
                 k ? "valid/128M" : "valid/16M");
        target(&o, &vw, &vc, what,
               ratio(metric_time(in, P_SPIRV_VAL, 0), metric_time(in, P_VALIDATE, 0)),
               ratio(metric_time(in, P_SPIRV_VAL, 1), metric_time(in, P_VALIDATE, 1)), "x", 200, 1);
    }
    target(&o, &vw, &vc, "peak RSS of validate, valid/128M", rss_per_byte(v128, P_VALIDATE), NAN,
           "B/B", 1.5, 0);
    target(&o, &vw, &vc, "peak RSS of validate, lowerable/128M", rss_per_byte(l128, P_VALIDATE),
           NAN, "B/B", 1.5, 0);
    target(&o, &vw, &vc, "peak RSS of lower, lowerable/128M", rss_per_byte(l128, P_LOWER), NAN,
           "B/B", 2.5, 0);
    target(&o, &vw, &vc, "peak RSS of lower, valid/128M", rss_per_byte(v128, P_LOWER), NAN, "B/B",
           2.5, 0);
    target(&o, &vw, &vc, "peak RSS of validate -q, lowerable/128M",
           rss_per_byte(l128, P_VALIDATE_Q), NAN, "B/B", 1.5, 0);
    target(&o, &vw, &vc, "peak RSS of lower -q, lowerable/128M", rss_per_byte(l128, P_LOWER_Q), NAN,
           "B/B", 2.5, 0);
    static const struct {
        const char *what, *series;
        int metric;
    } growth[] = {
        {"growth 1->128 MiB, in-process validate, valid", "valid", M_IN_VALIDATE},
        {"growth 1->128 MiB, in-process lower, lowerable", "lowerable", M_IN_LOWER},
        {"growth 1->128 MiB, process validate, valid", "valid", P_VALIDATE},
        {"growth 1->128 MiB, process lower, lowerable", "lowerable", P_LOWER},
    };
    for (size_t k = 0; k < sizeof growth / sizeof growth[0]; ++k) {
        target(&o, &vw, &vc, growth[k].what,
               series_exponent(ins, n, growth[k].series, growth[k].metric, 0),
               series_exponent(ins, n, growth[k].series, growth[k].metric, 1), "", 1.05, 0);
    }
    both(&o, "\nWall clock: %d met, %d missed, %d not measured.  CPU time: %d met, %d missed.\n",
         vw.pass, vw.miss, vw.unknown, vc.pass, vc.miss);
    both(&o,
         "\nFor scale: the floor (map the file, read every instruction's first word) takes "
         "%s x the wall time of cp on valid/128M (%s x in CPU time).\n",
         num(ratio(metric_time(v128, P_FLOOR, 0), metric_time(v128, P_CP, 0)), "%.2f"),
         num(ratio(metric_time(v128, P_FLOOR, 1), metric_time(v128, P_CP, 1)), "%.2f"));

    if (o.md) {
        fclose(o.md);
    }

    if (opt->dat) {
        FILE *f = fopen(opt->dat, "w");
        if (!f) {
            fprintf(stderr, "spvbc_bench: cannot write %s\n", opt->dat);
        } else {
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
                            in->series, in->size, in->bound, proc_keys[p], m->reps, m->wall, m->cpu,
                            m->rss_kb * 1024, mbps(in->size, m->wall), m->failed ? "failed" : "ok");
                }
                const timing *ts[5] = {&in->validate, &in->lower, &in->walk, &in->validate_r,
                                       &in->lower_r};
                const char *keys[5] = {"inproc_validate", "inproc_lower", "inproc_walk",
                                       "inproc_validate_reuse", "inproc_lower_reuse"};
                for (int k = 0; k < 5; ++k) {
                    if (!ts[k]->ran) {
                        continue;
                    }
                    fprintf(f, "%s\t%s\t%zu\t%u\t%s\t%d\t%.6f\t%.6f\t%.6f\t-\t%.2f\t%s\n",
                            in->label, in->series, in->size, in->bound, keys[k], ts[k]->reps,
                            ts[k]->first, ts[k]->warm, ts[k]->cpu_warm, mbps(in->size, ts[k]->warm),
                            ts[k]->failed ? "failed" : "ok");
                }
            }
            fclose(f);
        }
    }

    if (opt->plot) {
        FILE *f = fopen(opt->plot, "w");
        if (!f) {
            fprintf(stderr, "spvbc_bench: cannot write %s\n", opt->plot);
        } else {
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
                    double t = metric_time(&ins[i], lines[l].metric, 0);
                    if (!isnan(t)) {
                        fprintf(f, "%.3f\t%.3f\n", mib(ins[i].size), mbps(ins[i].size, t));
                    }
                }
            }
            fclose(f);
        }
    }
}

/* ---- main ----------------------------------------------------------------------------------- */

static void usage(void)
{
    fprintf(stderr,
            "usage: spvbc_bench [--cli P] [--spirv-val P] [--spirv-opt P] [--cp P] "
            "[--invalid SERIES]... [--tmp DIR]\n"
            "                   [--min-time S] [--min-reps N] [--max-reps N] [--proc-reps N]\n"
            "                   [--dat F] [--plot F] [--md F] SERIES/NAME=PATH...\n");
}

/** The whole-process floor: map `path` as the CLI does and read every instruction's first
 *  word once.  Exit status 0 if the walk ended at the end of the file. */
static int walk_file(const char *path)
{
    int fd = open(path, O_RDONLY);
    struct stat st;
    if (fd < 0 || fstat(fd, &st) != 0 || st.st_size < 20) {
        return 1;
    }
    size_t n = (size_t)st.st_size / 4;
    const uint32_t *w =
        (const uint32_t *)mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
    close(fd);
    if (w == MAP_FAILED) {
        return 1;
    }
    size_t off = 5;
    uint32_t h = 0;
    while (off < n) {
        uint32_t x = w[off];
        h += x & 0xffffu;
        off += (x >> 16) ? (x >> 16) : 1;
    }
    walk_sink = h;
    return off == n ? 0 : 1;
}

int main(int argc, char **argv)
{
    if (argc == 3 && !strcmp(argv[1], "--walk-file")) {
        return walk_file(argv[2]);
    }
    {
        ssize_t len = readlink("/proc/self/exe", self_exe, sizeof self_exe - 1);
        self_exe[len > 0 ? len : 0] = '\0';
    }
    options o;
    memset(&o, 0, sizeof o);
    o.cp = "/bin/cp";
    o.tmp = "/tmp";
    o.min_time = 1.5;
    o.min_reps = 5;
    o.max_reps = 400;
    o.proc_reps = 5;
    input *ins = (input *)xmalloc((size_t)argc * sizeof(input));
    int n = 0;
    for (int i = 1; i < argc; ++i) {
        const char *a = argv[i];
        const char *v = i + 1 < argc ? argv[i + 1] : NULL;
#define OPT(name) (!strcmp(a, name) && v && (++i, 1))
        if (OPT("--cli")) {
            o.cli = v;
        } else if (OPT("--spirv-val")) {
            o.spirv_val = *v ? v : NULL;
        } else if (OPT("--spirv-opt")) {
            o.spirv_opt = *v ? v : NULL;
        } else if (OPT("--cp")) {
            o.cp = v;
        } else if (OPT("--invalid")) {
            if (o.invalid_count < 16) {
                o.invalid[o.invalid_count++] = v;
            }
        } else if (OPT("--tmp")) {
            o.tmp = v;
        } else if (OPT("--min-time")) {
            o.min_time = atof(v);
        } else if (OPT("--min-reps")) {
            o.min_reps = atoi(v);
        } else if (OPT("--max-reps")) {
            o.max_reps = atoi(v);
        } else if (OPT("--proc-reps")) {
            o.proc_reps = atoi(v);
        } else if (!strcmp(a, "--no-proc")) {
            o.no_proc = 1;
        } else if (OPT("--only")) {
            o.only = v;
        } else if (OPT("--dat")) {
            o.dat = v;
        } else if (OPT("--plot")) {
            o.plot = v;
        } else if (OPT("--md")) {
            o.md = v;
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
            input *in = &ins[n++];
            memset(in, 0, sizeof *in);
            in->label = xstrdup(a);
            in->label[eq - a] = '\0';
            in->series = xstrdup(in->label);
            in->series[slash - a] = '\0';
            in->name = in->label + (slash - a) + 1;
            in->path = eq + 1;
            in->invalid = is_invalid_series(&o, in->series);
        }
#undef OPT
    }
    if (n == 0) {
        usage();
        return 2;
    }
    for (int i = 0; i < n; ++i) {
        ins[i].invalid = is_invalid_series(&o, ins[i].series);
    }

    printf("spvbc_bench: library %s; %d inputs; medians; the machine may be shared, so wall "
           "times are noisy\n",
           spvbc_version_string(), n);

    /* 1. whole processes, while this process is small */
    for (int i = 0; i < n; ++i) {
        input *in = &ins[i];
        if (warm_file(in->path, &in->size, &in->bound) != 0) {
            fprintf(stderr, "spvbc_bench: cannot read %s: %s\n", in->path, strerror(errno));
            return 1;
        }
        if (!o.no_proc) {
            printf("  process runs: %s (%.1f MiB)\n", in->label, mib(in->size));
            fflush(stdout);
            run_processes(&o, in);
        }
    }

    /* 2. in process */
    for (int i = 0; i < n; ++i) {
        input *in = &ins[i];
        uint32_t *words;
        size_t size;
        if (load_words(in->path, &words, &size) != 0 || size % 4) {
            fprintf(stderr, "spvbc_bench: cannot load %s\n", in->path);
            return 1;
        }
        printf("  in-process runs: %s\n", in->label);
        fflush(stdout);
        if (!o.only) {
            measure_op(&o, in, OP_WALK, words, size / 4, &in->walk, 0);
        }
        if (!o.only || !strcmp(o.only, "validate")) {
            measure_op(&o, in, OP_VALIDATE, words, size / 4, &in->validate, 0);
        }
        if (!o.only || !strcmp(o.only, "lower")) {
            measure_op(&o, in, OP_LOWER, words, size / 4, &in->lower, 0);
        }
        if (!o.only || !strcmp(o.only, "validate-reuse")) {
            measure_op(&o, in, OP_VALIDATE, words, size / 4, &in->validate_r, 1);
        }
        if (!o.only || !strcmp(o.only, "lower-reuse")) {
            measure_op(&o, in, OP_LOWER, words, size / 4, &in->lower_r, 1);
        }
        free(words);
    }

    report(&o, ins, n);
    for (int i = 0; i < n; ++i) {
        free(ins[i].label);
        free(ins[i].series);
    }
    free(ins);
    return 0;
}
