/*
 * bench.c - the spirv-bitcast benchmark.  In one run, on the same inputs:
 *
 *   1. whole process: wall time, CPU time and peak RSS (wait4) of `spirv-bitcast validate`,
 *      `spirv-bitcast lower -o OUT`, `spirv-val`, `spirv-opt` (no passes) and `cp` of each input,
 *      medians of several runs;
 *   2. in process, with the input already in memory: parse+validate and parse+lower+get_words
 *      through the public API, first call and warm median, as MB/s;
 *      on invalid inputs also validate under SPVBC_DIAGNOSTICS_COUNT_ONLY, and validate under
 *      the default policy reading every diagnostic through spvbc_context_diagnostic();
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
 * A series is a set of inputs of different sizes ("valid/1M", "valid/16M", ...); the goals read
 * valid/128M and lowerable/128M, or else the largest input of each of those series.
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

#include <spirv/unified1/spirv.h>

#include "spirv_bitcast.h"

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
    const char *invalid[16];
    int invalid_count;
    double min_time;
    int min_reps, max_reps, proc_reps;
    int no_proc;
    const char *only;
    size_t patho; /* bitcasts of the pathological module; 0: not measured */
    int no_small;
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
        /* validate -q on valid inputs too: the goal compares the lowerable and valid figures */
        char *argvq[] = {(char *)o->cli, "validate", "-q", "--max-id-bound", cap, path, NULL};
        measure_proc(o, &in->proc[P_VALIDATE_Q], argvq, in->invalid ? 3u : 1u, NULL);
        if (in->invalid) {
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

/* OP_VALIDATE_COUNT: validate under SPVBC_DIAGNOSTICS_COUNT_ONLY.  OP_VALIDATE_READ: validate
 * under the default policy (KEEP_ALL), then read every diagnostic through
 * spvbc_context_diagnostic() (which makes its sentence) and touch its text, as a caller that
 * shows every message does. */
typedef enum { OP_VALIDATE, OP_LOWER, OP_WALK, OP_VALIDATE_COUNT, OP_VALIDATE_READ } op_kind;

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
static volatile size_t diag_sink;

/** Reads every diagnostic of `ctx` through spvbc_context_diagnostic() and touches the text a
 *  caller would print (sentence, rule, as_type spelling); returns how many it read. */
static size_t read_diagnostics(spvbc_context ctx)
{
    size_t n = spvbc_context_diagnostic_count(ctx), sum = 0;
    for (size_t i = 0; i < n; ++i) {
        const spvbc_diagnostic *d = spvbc_context_diagnostic(ctx, i);
        if (d) {
            sum += strlen(d->message) + (size_t)d->rule[0] + d->word_offset;
            sum += d->astype ? (size_t)d->astype[0] : 0;
        }
    }
    diag_sink = sum;
    return n;
}

static double run_op(input *in, op_kind op, const uint32_t *words, size_t count,
                     const spvbc_allocator *alloc, spvbc_context *ctx)
{
    spvbc_module mod;
    spvbc_parse_options po = {id_cap(in->bound), 0};
    if (op == OP_WALK) {
        return run_walk(words, count);
    }
    double t0 = now();
    if (!*ctx) {
        if (spvbc_context_create(alloc, ctx) != SPVBC_SUCCESS) {
            *ctx = NULL;
            return -1;
        }
        if (op == OP_VALIDATE_COUNT &&
            spvbc_context_set_diagnostic_policy(*ctx, SPVBC_DIAGNOSTICS_COUNT_ONLY, 0) !=
                SPVBC_SUCCESS) {
            spvbc_context_destroy(*ctx);
            *ctx = NULL;
            return -1;
        }
    }
    spvbc_result r = spvbc_module_parse(*ctx, words, count, &po, &mod);
    if (r == SPVBC_SUCCESS) {
        if (op != OP_LOWER) {
            r = spvbc_module_validate(mod, NULL, &in->vsum);
            in->validate_result = r;
            if (r == SPVBC_ERROR_VALIDATION_FAILED) {
                r = SPVBC_SUCCESS;
            }
            if (op == OP_VALIDATE_READ) {
                in->diags_read = read_diagnostics(*ctx);
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

/* ---- modules built in memory: the pathological module and two small shaders ---------------- */

/* A word buffer of a capacity fixed when it is made (each builder knows its module's size). */
typedef struct wbuf {
    uint32_t *w;
    size_t n, cap;
} wbuf;

static void wb_make(wbuf *b, size_t cap)
{
    b->w = (uint32_t *)xmalloc(cap * sizeof(uint32_t));
    b->n = 0;
    b->cap = cap;
}

static void wb_push(wbuf *b, uint32_t word)
{
    if (b->n == b->cap) {
        fprintf(stderr, "spvbc_bench: module builder overran its %zu words\n", b->cap);
        exit(2);
    }
    b->w[b->n++] = word;
}

/** Appends instruction `op`: the `npre` words of `pre`, the literal string `str` (if not NULL,
 *  NUL-terminated and zero-padded), then the `npost` words of `post`. */
static void wb_inst(wbuf *b, uint32_t op, const uint32_t *pre, size_t npre, const char *str,
                    const uint32_t *post, size_t npost)
{
    size_t len = str ? strlen(str) + 1 : 0, sw = (len + 3) / 4;
    wb_push(b, (uint32_t)((1 + npre + sw + npost) << 16) | op);
    for (size_t i = 0; i < npre; ++i) {
        wb_push(b, pre[i]);
    }
    for (size_t i = 0; i < sw; ++i) {
        uint32_t w = 0;
        for (size_t k = 0; k < 4 && i * 4 + k < len; ++k) {
            w |= (uint32_t)(unsigned char)str[i * 4 + k] << (8 * k);
        }
        wb_push(b, w);
    }
    for (size_t i = 0; i < npost; ++i) {
        wb_push(b, post[i]);
    }
}

#define WORDS(...) ((const uint32_t[]){__VA_ARGS__})
#define NWORDS(...) (sizeof((const uint32_t[]){__VA_ARGS__}) / sizeof(uint32_t))
/* INST(b, SpvOpX, operands...); INST0(b, SpvOpX) has none; NAME(b, id, "name") is OpName */
#define INST(b, op, ...) wb_inst(b, op, WORDS(__VA_ARGS__), NWORDS(__VA_ARGS__), NULL, NULL, 0)
#define INST0(b, op) wb_inst(b, op, NULL, 0, NULL, NULL, 0)
#define NAME(b, id, s) wb_inst(b, SpvOpName, WORDS(id), 1, s, NULL, 0)

static void wb_header(wbuf *b, uint32_t version)
{
    uint32_t h[5] = {SpvMagicNumber, version, 0, 0 /* bound, set when done */, 0};
    for (int i = 0; i < 5; ++i) {
        wb_push(b, h[i]);
    }
}

/* The pathological module, after test/fuzz/pathological.c: one Kernel function holding `count`
 * OpBitcast of one OpUndef float4; every 4th is as_float3(float4) written as a direct OpBitcast
 * (an error that lower rewrites), the others as_int4(float4).  patho_set_errors() turns the
 * errors into valid as_int4 and back, which gives the clean twin (same size, no findings). */
enum { PA_FN = 1, PA_VOID, PA_FNTY, PA_F, PA_F4, PA_F3, PA_I, PA_I4, PA_LABEL, PA_X, PA_FIRST };

static size_t patho_build(wbuf *b, size_t count, size_t *first_bitcast)
{
    wb_make(b, 64 + 4 * count);
    wb_header(b, 0x00010000u);
    INST(b, SpvOpCapability, SpvCapabilityKernel);
    INST(b, SpvOpCapability, SpvCapabilityAddresses);
    INST(b, SpvOpMemoryModel, SpvAddressingModelPhysical64, SpvMemoryModelOpenCL);
    wb_inst(b, SpvOpEntryPoint, WORDS(SpvExecutionModelKernel, PA_FN), 2, "k", NULL, 0);
    INST(b, SpvOpTypeVoid, PA_VOID);
    INST(b, SpvOpTypeFunction, PA_FNTY, PA_VOID);
    INST(b, SpvOpTypeFloat, PA_F, 32);
    INST(b, SpvOpTypeVector, PA_F4, PA_F, 4);
    INST(b, SpvOpTypeVector, PA_F3, PA_F, 3);
    INST(b, SpvOpTypeInt, PA_I, 32, 0);
    INST(b, SpvOpTypeVector, PA_I4, PA_I, 4);
    INST(b, SpvOpFunction, PA_VOID, PA_FN, 0, PA_FNTY);
    INST(b, SpvOpLabel, PA_LABEL);
    INST(b, SpvOpUndef, PA_F4, PA_X);
    *first_bitcast = b->n;
    for (size_t i = 0; i < count; ++i) {
        INST(b, SpvOpBitcast, i % 4 == 0 ? PA_F3 : PA_I4, (uint32_t)(PA_FIRST + i), PA_X);
    }
    INST0(b, SpvOpReturn);
    INST0(b, SpvOpFunctionEnd);
    b->w[3] = (uint32_t)(PA_FIRST + count);
    return (count + 3) / 4;
}

static void patho_set_errors(wbuf *b, size_t count, size_t first_bitcast, int errors)
{
    for (size_t i = 0; i < count; i += 4) {
        b->w[first_bitcast + i * 4 + 1] = errors ? PA_F3 : PA_I4;
    }
}

/* A compute shader shaped like the layer benchmark's module (layer/vulkan/test):
 * `blocks` blocks that load a float4 from a storage buffer, square it and store a bitcast of
 * it; the first `lowerable` blocks store as_float3(float4) written as a direct OpBitcast (an
 * error that lower rewrites), the others as_int4(float4). */
static void build_compute(wbuf *b, uint32_t blocks, uint32_t lowerable)
{
    enum {
        MAIN = 1,
        VOID,
        UINT,
        V3UINT,
        INT,
        V4INT,
        FLOAT,
        V4FLOAT,
        V3FLOAT,
        INT0,
        PTR_IN_V3UINT,
        GID,
        IN_ARR,
        IN_BLK,
        PTR_IN_BLK,
        IN_BUF,
        OUT_ARR,
        OUT_BLK,
        PTR_OUT_BLK,
        OUT_BUF,
        INT_ARR,
        INT_BLK,
        PTR_INT_BLK,
        INT_BUF,
        PTR_V4FLOAT,
        PTR_V3FLOAT,
        PTR_V4INT,
        FNTY,
        ENTRY,
        GIDV,
        I,
        FIRST
    };
    /* per block: constant k, idx, inp, x, s, y, outp */
    const uint32_t per = 7;
    free(b->w); /* build_clean8k() builds again into the same buffer */
    wb_make(b, 512 + 64 * (size_t)blocks);
    wb_header(b, 0x00010500u);
    INST(b, SpvOpCapability, SpvCapabilityShader);
    INST(b, SpvOpMemoryModel, SpvAddressingModelLogical, SpvMemoryModelGLSL450);
    wb_inst(b, SpvOpEntryPoint, WORDS(SpvExecutionModelGLCompute, MAIN), 2, "main",
            WORDS(GID, IN_BUF, OUT_BUF, INT_BUF), 4);
    INST(b, SpvOpExecutionMode, MAIN, SpvExecutionModeLocalSize, 64, 1, 1);
    NAME(b, MAIN, "main");
    NAME(b, IN_BUF, "in_buf");
    NAME(b, OUT_BUF, "out_buf");
    NAME(b, INT_BUF, "int_buf");
    for (uint32_t k = 0; k < blocks; ++k) {
        char nm[24];
        snprintf(nm, sizeof nm, "x%u", k);
        NAME(b, FIRST + k * per + 3, nm);
        snprintf(nm, sizeof nm, "y%u", k);
        NAME(b, FIRST + k * per + 5, nm);
    }
    INST(b, SpvOpDecorate, GID, SpvDecorationBuiltIn, SpvBuiltInGlobalInvocationId);
    const uint32_t bufs[3][4] = {{IN_ARR, IN_BLK, IN_BUF, 0},
                                 {OUT_ARR, OUT_BLK, OUT_BUF, 1},
                                 {INT_ARR, INT_BLK, INT_BUF, 2}};
    for (int k = 0; k < 3; ++k) {
        INST(b, SpvOpDecorate, bufs[k][0], SpvDecorationArrayStride, 16);
        INST(b, SpvOpMemberDecorate, bufs[k][1], 0, SpvDecorationOffset, 0);
        if (k == 0) {
            INST(b, SpvOpMemberDecorate, bufs[k][1], 0, SpvDecorationNonWritable);
        }
        INST(b, SpvOpDecorate, bufs[k][1], SpvDecorationBlock);
        INST(b, SpvOpDecorate, bufs[k][2], SpvDecorationDescriptorSet, 0);
        INST(b, SpvOpDecorate, bufs[k][2], SpvDecorationBinding, bufs[k][3]);
    }
    INST(b, SpvOpTypeVoid, VOID);
    INST(b, SpvOpTypeInt, UINT, 32, 0);
    INST(b, SpvOpTypeVector, V3UINT, UINT, 3);
    INST(b, SpvOpTypeInt, INT, 32, 1);
    INST(b, SpvOpTypeVector, V4INT, INT, 4);
    INST(b, SpvOpTypeFloat, FLOAT, 32);
    INST(b, SpvOpTypeVector, V4FLOAT, FLOAT, 4);
    INST(b, SpvOpTypeVector, V3FLOAT, FLOAT, 3);
    INST(b, SpvOpConstant, INT, INT0, 0);
    INST(b, SpvOpTypePointer, PTR_IN_V3UINT, SpvStorageClassInput, V3UINT);
    INST(b, SpvOpVariable, PTR_IN_V3UINT, GID, SpvStorageClassInput);
    const uint32_t elem[3] = {V4FLOAT, V3FLOAT, V4INT};
    const uint32_t ptrs[3] = {PTR_IN_BLK, PTR_OUT_BLK, PTR_INT_BLK};
    for (int k = 0; k < 3; ++k) {
        INST(b, SpvOpTypeRuntimeArray, bufs[k][0], elem[k]);
        INST(b, SpvOpTypeStruct, bufs[k][1], bufs[k][0]);
        INST(b, SpvOpTypePointer, ptrs[k], SpvStorageClassStorageBuffer, bufs[k][1]);
        INST(b, SpvOpVariable, ptrs[k], bufs[k][2], SpvStorageClassStorageBuffer);
    }
    INST(b, SpvOpTypePointer, PTR_V4FLOAT, SpvStorageClassStorageBuffer, V4FLOAT);
    INST(b, SpvOpTypePointer, PTR_V3FLOAT, SpvStorageClassStorageBuffer, V3FLOAT);
    INST(b, SpvOpTypePointer, PTR_V4INT, SpvStorageClassStorageBuffer, V4INT);
    INST(b, SpvOpTypeFunction, FNTY, VOID);
    for (uint32_t k = 0; k < blocks; ++k) {
        INST(b, SpvOpConstant, UINT, FIRST + k * per, k == 0 ? blocks : k);
    }
    INST(b, SpvOpFunction, VOID, MAIN, SpvFunctionControlMaskNone, FNTY);
    INST(b, SpvOpLabel, ENTRY);
    INST(b, SpvOpLoad, V3UINT, GIDV, GID);
    INST(b, SpvOpCompositeExtract, UINT, I, GIDV, 0);
    for (uint32_t k = 0; k < blocks; ++k) {
        uint32_t id = FIRST + k * per, low = k < lowerable;
        /* block 0: idx = i * blocks; block k: idx = idx0 + k */
        if (k == 0) {
            INST(b, SpvOpIMul, UINT, id + 1, I, id);
        } else {
            INST(b, SpvOpIAdd, UINT, id + 1, FIRST + 1, id);
        }
        INST(b, SpvOpAccessChain, PTR_V4FLOAT, id + 2, IN_BUF, INT0, id + 1);
        INST(b, SpvOpLoad, V4FLOAT, id + 3, id + 2);
        INST(b, SpvOpFMul, V4FLOAT, id + 4, id + 3, id + 3);
        INST(b, SpvOpBitcast, low ? V3FLOAT : V4INT, id + 5, id + 4);
        INST(b, SpvOpAccessChain, low ? PTR_V3FLOAT : PTR_V4INT, id + 6, low ? OUT_BUF : INT_BUF,
             INT0, id + 1);
        INST(b, SpvOpStore, id + 6, id + 5);
    }
    INST0(b, SpvOpReturn);
    INST0(b, SpvOpFunctionEnd);
    b->w[3] = FIRST + blocks * per;
}

/** The clean shader: build_compute() without errors, with the fewest blocks reaching 8 KiB. */
static void build_clean8k(wbuf *b)
{
    uint32_t blocks = 10;
    do {
        build_compute(b, ++blocks, 0);
    } while (b->n * 4 < 8192);
}

/* A caller allocator that counts the live bytes and keeps their peak. */
typedef struct counter {
    size_t live, peak;
} counter;

static void *count_alloc(void *user, size_t size)
{
    counter *c = (counter *)user;
    void *p = malloc(size ? size : 1);
    if (p) {
        c->live += size;
        c->peak = c->live > c->peak ? c->live : c->peak;
    }
    return p;
}

static void count_free(void *user, void *ptr, size_t size)
{
    counter *c = (counter *)user;
    if (ptr) {
        c->live -= size;
    }
    free(ptr);
}

/* One call of the library on the pathological module, from context creation to destruction. */
typedef struct mem_run {
    int ran, failed;
    size_t peak; /* peak live bytes of the library (counting allocator) */
    size_t leaked; /* live bytes after spvbc_context_destroy (should be 0) */
    size_t findings; /* validate: errors; lower: rewritten + refused */
    size_t kept; /* diagnostics the context held after the call */
    double seconds;
} mem_run;

static void run_mem(const wbuf *b, int lower, spvbc_diagnostic_policy policy, size_t limit,
                    mem_run *m)
{
    counter c = {0, 0};
    spvbc_allocator a = {count_alloc, count_free, &c};
    spvbc_context ctx;
    spvbc_module mod;
    spvbc_parse_options po = {id_cap(b->w[3]), 0};
    memset(m, 0, sizeof *m);
    m->ran = 1;
    double t0 = now();
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
            spvbc_lower_summary ls;
            const uint32_t *out;
            size_t nout;
            r = spvbc_module_lower(mod, NULL, &ls);
            if (r == SPVBC_SUCCESS) {
                r = spvbc_module_get_words(mod, &out, &nout);
                m->findings = ls.rewritten + ls.refused;
            }
        } else {
            spvbc_validate_summary vs;
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
    m->seconds = now() - t0;
    m->peak = c.peak;
    m->leaked = c.live;
    m->failed = r != SPVBC_SUCCESS || c.live != 0;
}

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

static void run_patho(size_t count, patho *p)
{
    wbuf b = {NULL, 0, 0};
    size_t first;
    memset(p, 0, sizeof *p);
    p->ran = 1;
    p->count = count;
    p->errors = patho_build(&b, count, &first);
    p->bytes = b.n * 4;
    for (int op = 0; op < 2; ++op) {
        printf("  library memory: %s, %zu bitcasts, %zu errors\n", op ? "lower" : "validate", count,
               p->errors);
        fflush(stdout);
        run_mem(&b, op, SPVBC_DIAGNOSTICS_KEEP_ALL, 0, &p->all[op]);
        run_mem(&b, op, SPVBC_DIAGNOSTICS_KEEP_FIRST, PATHO_KEEP_FIRST, &p->first[op]);
        run_mem(&b, op, SPVBC_DIAGNOSTICS_COUNT_ONLY, 0, &p->only[op]);
    }
    patho_set_errors(&b, count, first, 0);
    for (int op = 0; op < 2; ++op) {
        run_mem(&b, op, SPVBC_DIAGNOSTICS_KEEP_ALL, 0, &p->clean[op]);
    }
    free(b.w);
}

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

static int small_call(spvbc_context *ctx, const wbuf *b, int fresh, spvbc_diagnostic_policy policy)
{
    spvbc_module mod;
    spvbc_validate_summary vs;
    int ok = 1;
    if (fresh && (spvbc_context_create(NULL, ctx) != SPVBC_SUCCESS ||
                  spvbc_context_set_diagnostic_policy(*ctx, policy, 0) != SPVBC_SUCCESS)) {
        return 0;
    }
    if (spvbc_module_parse_bytes(*ctx, b->w, b->n * 4, NULL, &mod) != SPVBC_SUCCESS) {
        ok = 0;
    } else {
        spvbc_result r = spvbc_module_validate(mod, NULL, &vs);
        ok = r == SPVBC_SUCCESS || r == SPVBC_ERROR_VALIDATION_FAILED;
        if (ok && vs.errors) {
            spvbc_lower_summary ls;
            const uint32_t *out;
            size_t nout;
            ok = spvbc_module_lower(mod, NULL, &ls) == SPVBC_SUCCESS && ls.rewritten &&
                 spvbc_module_get_words(mod, &out, &nout) == SPVBC_SUCCESS;
        }
        spvbc_module_destroy(mod);
    }
    if (fresh) {
        spvbc_context_destroy(*ctx);
        *ctx = NULL;
    }
    return ok;
}

static void measure_small(const options *o, const wbuf *b, int fresh,
                          spvbc_diagnostic_policy policy, small_m *m)
{
    enum { BATCH = 64, MAX_BATCHES = 4096 };
    static double per[MAX_BATCHES];
    spvbc_context ctx = NULL;
    memset(m, 0, sizeof *m);
    m->ran = 1;
    m->bytes = b->n * 4;
    if (!fresh && (spvbc_context_create(NULL, &ctx) != SPVBC_SUCCESS ||
                   spvbc_context_set_diagnostic_policy(ctx, policy, 0) != SPVBC_SUCCESS)) {
        m->failed = 1;
        return;
    }
    for (int k = 0; k < BATCH; ++k) { /* warm up: caches, and the context's spare tables */
        m->failed |= !small_call(&ctx, b, fresh, policy);
    }
    double spent = 0, limit = o->min_time < 0.2 ? 0.2 : o->min_time;
    int n = 0;
    while (!m->failed && n < MAX_BATCHES && (n < 30 || spent < limit)) {
        double t0 = now();
        for (int k = 0; k < BATCH; ++k) {
            m->failed |= !small_call(&ctx, b, fresh, policy);
        }
        double t = now() - t0;
        spent += t;
        per[n++] = t / BATCH * 1e6;
    }
    spvbc_context_destroy(ctx);
    m->calls = n * BATCH;
    if (n) {
        m->us = median(per, n); /* sorts */
        m->us_min = per[0];
    }
}

/* [0] six 4->3 fresh, [1] six 4->3 reused, [2] clean 8K reused, [3] clean 8K fresh,
 * [4] six 4->3 reused under COUNT_ONLY */
typedef struct small_set {
    small_m m[5];
} small_set;

static void run_small(const options *o, small_set *s)
{
    wbuf six = {NULL, 0, 0}, clean = {NULL, 0, 0};
    build_compute(&six, 10, 6);
    build_clean8k(&clean);
    printf("  small modules: %zu bytes with 6 rewrites, clean %zu bytes\n", six.n * 4, clean.n * 4);
    fflush(stdout);
    measure_small(o, &six, 1, SPVBC_DIAGNOSTICS_KEEP_ALL, &s->m[0]);
    measure_small(o, &six, 0, SPVBC_DIAGNOSTICS_KEEP_ALL, &s->m[1]);
    measure_small(o, &clean, 0, SPVBC_DIAGNOSTICS_KEEP_ALL, &s->m[2]);
    measure_small(o, &clean, 1, SPVBC_DIAGNOSTICS_KEEP_ALL, &s->m[3]);
    measure_small(o, &six, 0, SPVBC_DIAGNOSTICS_COUNT_ONLY, &s->m[4]);
    free(six.w);
    free(clean.w);
}

static int write_words(const char *dir, const char *name, const wbuf *b)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "wb");
    int ok = f && fwrite(b->w, 4, b->n, f) == b->n;
    if (f && fclose(f) != 0) {
        ok = 0;
    }
    if (!ok) {
        fprintf(stderr, "spvbc_bench: cannot write %s\n", path);
    }
    return ok;
}

/** --emit-small DIR: writes the two small modules for run.sh's spirv-val check. */
static int emit_small(const char *dir)
{
    wbuf six = {NULL, 0, 0}, clean = {NULL, 0, 0};
    build_compute(&six, 10, 6);
    build_clean8k(&clean);
    int ok = write_words(dir, "small-six-4to3.spv", &six) &&
             write_words(dir, "small-clean-8k.spv", &clean);
    free(six.w);
    free(clean.w);
    return ok ? 0 : 1;
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

/** MB/s of the warm calls of `t` on `in` (CPU time if `cpu`); NAN if not measured. */
static double timing_mbps(const input *in, const timing *t, int cpu)
{
    if (!in || !t->ran || t->failed || !t->reps) {
        return NAN;
    }
    return mbps(in->size, cpu ? t->cpu_warm : t->warm);
}

/** One row of the goals table: the verdict on the wall-clock `value`, and on `cpu_value` (the
 *  same figure in CPU time) when there is one; `bound` NAN makes an information row. */
static void goal(out2 *o, verdict *vw, verdict *vc, const char *figure, const char *measured,
                 const char *cpu, double cpu_value, const char *goal_text, double value,
                 double bound, int at_least)
{
    const char *jw = isnan(bound) ? "info" : judge(vw, value, bound, at_least);
    const char *jc = isnan(bound) || isnan(cpu_value) ? "" : judge(vc, cpu_value, bound, at_least);
    both(o, "| %s | %s | %s | %s | %s | %s |\n", figure,
         isnan(value) && !isnan(bound) ? "-" : measured, isnan(cpu_value) ? "" : cpu, goal_text, jw,
         jc);
}

static double mem_mib(const mem_run *m)
{
    return m->ran && !m->failed ? mib(m->peak) : NAN;
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

static void goals(out2 *o, const options *opt, input *ins, int n, const small_set *small,
                  const patho *pa)
{
    input *v = goal_input(ins, n, "valid"), *l = goal_input(ins, n, "lowerable");
    const char *vl = v ? v->label : "valid/128M", *ll = l ? l->label : "lowerable/128M";
    verdict vd = {0, 0, 0}, vc = {0, 0, 0};
    char f[200], m[240], c[80], g[120];
    both(o, "\n### Goals\n\n");
    if (v && strcmp(v->name, "128M")) {
        both(o,
             "**Not the goals' sizes**: the %s and %s inputs stand in for the 128 MiB ones "
             "(as with run.sh --quick).\n\n",
             vl, ll);
    }
    (void)opt;
    both(o,
         "The verdict is on the wall-clock figure (medians); the same figure in CPU time (thread "
         "CPU time in process, user + system of the child for processes) has its own verdict, "
         "which tells the library from a busy machine.  In process: warm calls, context "
         "reused.\n\n");
    both(o, "| figure | measured (wall clock) | CPU time | goal | verdict | verdict (CPU) |\n"
            "|---|---|---|---|---|---|\n");

    double vm = timing_mbps(v, v ? &v->validate : NULL, 0);
    double vmc = timing_mbps(v, v ? &v->validate : NULL, 1);
    snprintf(f, sizeof f, "in-process validate, %s (walk floor shown)", vl);
    snprintf(m, sizeof m, "%s MB/s (walk floor %s MB/s)", num(vm, "%.0f"),
             num(v && v->walk.reps ? mbps(v->size, v->walk.warm) : NAN, "%.0f"));
    snprintf(c, sizeof c, "%s MB/s", num(vmc, "%.0f"));
    goal(o, &vd, &vc, f, m, c, vmc, ">= 3500 MB/s", vm, 3500, 1);

    double cm = timing_mbps(l, l ? &l->validate_count : NULL, 0);
    double cmc = timing_mbps(l, l ? &l->validate_count : NULL, 1);
    snprintf(f, sizeof f, "in-process validate, %s, counting only (COUNT_ONLY)", ll);
    snprintf(m, sizeof m, "%s MB/s = %s%% of valid (%zu errors counted)", num(cm, "%.0f"),
             num(ratio(cm, vm) * 100, "%.0f"), l ? l->vsum.errors : 0);
    snprintf(c, sizeof c, "%s%%", num(ratio(cmc, vmc) * 100, "%.0f"));
    goal(o, &vd, &vc, f, m, c, ratio(cmc, vmc), ">= 90% of the valid figure", ratio(cm, vm), 0.9,
         1);

    double rm = timing_mbps(l, l ? &l->validate_read : NULL, 0);
    double rmc = timing_mbps(l, l ? &l->validate_read : NULL, 1);
    snprintf(f, sizeof f,
             "in-process validate, %s, every message (KEEP_ALL, each diagnostic read through "
             "spvbc_context_diagnostic)",
             ll);
    snprintf(m, sizeof m, "%s MB/s = %s%% of valid (%zu diagnostics read)", num(rm, "%.0f"),
             num(ratio(rm, vm) * 100, "%.0f"), l ? l->diags_read : 0);
    snprintf(c, sizeof c, "%s%%", num(ratio(rmc, vmc) * 100, "%.0f"));
    goal(o, &vd, &vc, f, m, c, ratio(rmc, vmc), ">= 70% of the valid figure", ratio(rm, vm), 0.7,
         1);

    double lm = timing_mbps(l, l ? &l->lower : NULL, 0);
    double lmc = timing_mbps(l, l ? &l->lower : NULL, 1);
    snprintf(f, sizeof f, "in-process lower, %s", ll);
    snprintf(m, sizeof m, "%s MB/s (%zu rewritten)", num(lm, "%.0f"), l ? l->lsum.rewritten : 0);
    snprintf(c, sizeof c, "%s MB/s", num(lmc, "%.0f"));
    goal(o, &vd, &vc, f, m, c, lmc, ">= 2000 MB/s", lm, 2000, 1);

    /* whole process: wall ratios, CPU ratios for information */
    static const struct {
        int lowerable, p, q; /* figure = time of p / time of q (q < 0: cp) */
        const char *what, *goal_text;
        double bound;
    } procs[] = {
        {0, P_VALIDATE, P_CP, "process `validate` / `cp`", "<= 2x", 2},
        {1, P_LOWER_Q, P_CP, "process `lower -q` / `cp`", "<= 3x", 3},
        {1, P_LOWER, P_CP, "process `lower` / `cp`, printing all rewrites", "<= 6x", 6},
    };
    for (size_t k = 0; k < sizeof procs / sizeof procs[0]; ++k) {
        input *in = procs[k].lowerable ? l : v;
        double w = ratio(metric_time(in, procs[k].p, 0), metric_time(in, procs[k].q, 0));
        double u = ratio(metric_time(in, procs[k].p, 1), metric_time(in, procs[k].q, 1));
        snprintf(f, sizeof f, "%s, %s", procs[k].what, in ? in->label : "-");
        snprintf(m, sizeof m, "%sx (%s ms / %s ms)", num(w, "%.2f"),
                 num(metric_time(in, procs[k].p, 0) * 1e3, "%.1f"),
                 num(metric_time(in, procs[k].q, 0) * 1e3, "%.1f"));
        if (procs[k].p == P_VALIDATE) {
            size_t len = strlen(m);
            snprintf(m + len, sizeof m - len, "; floor mmap + walk / cp %sx",
                     num(ratio(metric_time(in, P_FLOOR, 0), metric_time(in, P_CP, 0)), "%.2f"));
        }
        snprintf(c, sizeof c, "%sx", num(u, "%.2f"));
        goal(o, &vd, &vc, f, m, c, u, procs[k].goal_text, w, procs[k].bound, 0);
    }
    {
        /* time per input byte, so that the few bytes the two inputs differ by do not count */
        double tl = metric_time(l, P_VALIDATE_Q, 0), tv = metric_time(v, P_VALIDATE_Q, 0);
        double w = l && v ? ratio(tl / (double)l->size, tv / (double)v->size) : NAN;
        double ul = metric_time(l, P_VALIDATE_Q, 1), uv = metric_time(v, P_VALIDATE_Q, 1);
        double u = l && v ? ratio(ul / (double)l->size, uv / (double)v->size) : NAN;
        snprintf(f, sizeof f, "process `validate -q`, %s vs the same on %s (per byte)", ll, vl);
        snprintf(m, sizeof m, "%sx (%s ms / %s ms)", num(w, "%.2f"), num(tl * 1e3, "%.1f"),
                 num(tv * 1e3, "%.1f"));
        snprintf(c, sizeof c, "%sx", num(u, "%.2f"));
        goal(o, &vd, &vc, f, m, c, u, "<= 1.2x", w, 1.2, 0);
    }
    {
        double r = rss_per_byte(l, P_VALIDATE);
        snprintf(f, sizeof f, "peak RSS of `validate`, %s", ll);
        snprintf(
            m, sizeof m, "%s B/B (%s MiB)", num(r, "%.2f"),
            num(l && !isnan(r) ? mib((size_t)l->proc[P_VALIDATE].rss_kb * 1024) : NAN, "%.1f"));
        goal(o, &vd, &vc, f, m, "", NAN, "<= 1.3 bytes per input byte", r, 1.3, 0);
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
                     what, (double)pa->count / 1e6, (double)pa->errors / 1e6, mib(pa->bytes));
            snprintf(m, sizeof m,
                     "%s MiB = %s B/B; %s bytes per finding above %s (%s MiB); %zu findings, "
                     "%.2f s",
                     num(mem_mib(all), "%.1f"), num((double)all->peak / bytes, "%.2f"),
                     num(((double)all->peak - (double)base->peak) / (double)all->findings, "%.0f"),
                     op ? "COUNT_ONLY" : "the clean twin", num(mem_mib(base), "%.1f"),
                     all->findings, all->seconds);
            goal(o, &vd, &vc, f, m, "", NAN, "none: keeps every finding", mem_mib(all), NAN, 0);
            snprintf(f, sizeof f, "library peak, %s, same module, KEEP_FIRST %u", what,
                     PATHO_KEEP_FIRST);
            double excess = (double)first->peak - (double)base->peak;
            snprintf(m, sizeof m,
                     "%s MiB = %s B/B; %+.0f KiB over %s (%s MiB, %s B/B); %zu diagnostics "
                     "kept, %.2f s",
                     num(mem_mib(first), "%.1f"), num((double)first->peak / bytes, "%.2f"),
                     excess / 1024.0, op ? "COUNT_ONLY on the same module" : "the clean twin",
                     num(mem_mib(base), "%.1f"), num((double)base->peak / bytes, "%.2f"),
                     first->kept, first->seconds);
            snprintf(g, sizeof g,
                     "bounded by the cap: <= %s + %u x %u B + 1 MiB, whatever the number of "
                     "findings",
                     op ? "COUNT_ONLY" : "clean twin", PATHO_KEEP_FIRST, PATHO_BYTES_PER_KEPT);
            double ok = first->ran && !first->failed && base->ran && !base->failed ? excess : NAN;
            goal(o, &vd, &vc, f, m, "", NAN, g, ok,
                 (double)PATHO_KEEP_FIRST * PATHO_BYTES_PER_KEPT + PATHO_SLACK, 0);
        }
    } else {
        both(o, "| library peak on the pathological module | - | | bounded by the cap | not "
                "measured | |\n");
        vd.unknown++;
    }

    /* small modules */
    static const char *const small_what[5] = {
        "module with 6 rewrites, fresh context per call (what the layer used to do)",
        "module with 6 rewrites, reused context (what the layer does now)",
        "clean shader, reused context", NULL,
        "module with 6 rewrites, reused context, COUNT_ONLY (a driver that reads no finding: "
        "none is made into a sentence when the module is destroyed)"};
    for (int k = 0; k < 5; ++k) {
        if (!small_what[k]) continue;
        const small_m *s = &small->m[k];
        snprintf(f, sizeof f, "%.1f KB %s", (double)s->bytes / 1000.0, small_what[k]);
        snprintf(m, sizeof m, "%s us per call (fastest batch %s us; %d calls)",
                 num(s->ran && !s->failed ? s->us : NAN, "%.2f"), num(s->us_min, "%.2f"), s->calls);
        if (k == 2 && small->m[3].ran) {
            size_t len = strlen(m);
            snprintf(m + len, sizeof m - len, "; fresh context %s us",
                     num(small->m[3].failed ? NAN : small->m[3].us, "%.2f"));
        }
        goal(o, &vd, &vc, f, m, "", NAN, "<= 4 us", s->ran && !s->failed ? s->us : NAN, 4, 0);
    }
    both(o,
         "\nGoals (wall clock): %d met, %d MISSED, %d not measured.  In CPU time: %d met, %d "
         "MISSED.\n",
         vd.pass, vd.miss, vd.unknown, vc.pass, vc.miss);
    if (pa->ran) {
        for (int op = 0; op < 2; ++op) {
            const mem_run *r[4] = {&pa->all[op], &pa->first[op], &pa->only[op], &pa->clean[op]};
            for (int k = 0; k < 4; ++k) {
                if (r[k]->failed) {
                    both(o, "\nlibrary memory run %d of %s failed (%zu bytes left live)\n", k,
                         op ? "lower" : "validate", r[k]->leaked);
                }
            }
        }
    }
}

static void report(const options *opt, input *ins, int n, const small_set *small, const patho *pa)
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
         "by default; the -q forms print nothing per finding (lower -q only on the lowerable "
         "inputs).  "
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

    /* the performance goals */
    goals(&o, opt, ins, n, small, pa);

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
                const timing *ts[7] = {&in->validate,     &in->lower,   &in->walk,
                                       &in->validate_r,   &in->lower_r, &in->validate_count,
                                       &in->validate_read};
                const char *keys[7] = {
                    "inproc_validate",         "inproc_lower",       "inproc_walk",
                    "inproc_validate_reuse",   "inproc_lower_reuse", "inproc_validate_count_only",
                    "inproc_validate_read_all"};
                for (int k = 0; k < 7; ++k) {
                    if (!ts[k]->ran) {
                        continue;
                    }
                    fprintf(f, "%s\t%s\t%zu\t%u\t%s\t%d\t%.6f\t%.6f\t%.6f\t-\t%.2f\t%s\n",
                            in->label, in->series, in->size, in->bound, keys[k], ts[k]->reps,
                            ts[k]->first, ts[k]->warm, ts[k]->cpu_warm, mbps(in->size, ts[k]->warm),
                            ts[k]->failed ? "failed" : "ok");
                }
            }
            /* small modules: median seconds per call; pathological: library peak bytes */
            static const char *const small_keys[5] = {
                "small_six_4to3_fresh_ctx", "small_six_4to3_reused_ctx",
                "small_clean_8k_reused_ctx", "small_clean_8k_fresh_ctx",
                "small_six_4to3_reused_ctx_count_only"};
            for (int k = 0; k < 5; ++k) {
                const small_m *m = &small->m[k];
                if (m->ran) {
                    fprintf(f, "small\tsmall\t%zu\t-\t%s\t%d\t-\t%.9f\t-\t-\t%.2f\t%s\n", m->bytes,
                            small_keys[k], m->calls, m->us * 1e-6, mbps(m->bytes, m->us * 1e-6),
                            m->failed ? "failed" : "ok");
                }
            }
            if (pa->ran) {
                static const char *const pol[4] = {"keep_all", "keep_first_1000", "count_only",
                                                   "clean_twin"};
                for (int op = 0; op < 2; ++op) {
                    const mem_run *r[4] = {&pa->all[op], &pa->first[op], &pa->only[op],
                                           &pa->clean[op]};
                    for (int k = 0; k < 4; ++k) {
                        fprintf(f,
                                "patho/%zu\tpatho\t%zu\t%u\tlib_peak_%s_%s\t1\t-\t%.6f\t-\t%zu\t%."
                                "2f\t%s\n",
                                pa->count, pa->bytes, (unsigned)(pa->count + PA_FIRST),
                                op ? "lower" : "validate", pol[k], r[k]->seconds, r[k]->peak,
                                mbps(pa->bytes, r[k]->seconds), r[k]->failed ? "failed" : "ok");
                    }
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
            "                   [--patho N] [--no-small] [--no-proc] [--only M]\n"
            "                   [--dat F] [--plot F] [--md F] SERIES/NAME=PATH...\n"
            "       spvbc_bench --emit-small DIR\n");
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
    if (argc == 3 && !strcmp(argv[1], "--emit-small")) {
        return emit_small(argv[2]);
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
        } else if (OPT("--patho")) {
            o.patho = (size_t)strtoull(v, NULL, 10);
        } else if (!strcmp(a, "--no-small")) {
            o.no_small = 1;
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
        if (in->invalid && (!o.only || !strcmp(o.only, "validate-count"))) {
            measure_op(&o, in, OP_VALIDATE_COUNT, words, size / 4, &in->validate_count, 0);
        }
        if (in->invalid && (!o.only || !strcmp(o.only, "validate-read"))) {
            measure_op(&o, in, OP_VALIDATE_READ, words, size / 4, &in->validate_read, 0);
        }
        free(words);
    }

    /* 3. the small modules and the pathological one, built in memory */
    small_set small;
    patho pa;
    memset(&small, 0, sizeof small);
    memset(&pa, 0, sizeof pa);
    if (!o.only && !o.no_small) {
        run_small(&o, &small);
    }
    if (!o.only && o.patho) {
        run_patho(o.patho, &pa);
    }

    report(&o, ins, n, &small, &pa);
    for (int i = 0; i < n; ++i) {
        free(ins[i].label);
        free(ins[i].series);
    }
    free(ins);
    return 0;
}
