/*
 * bench_proc.c - the benchmark's whole-process runs: wall time, CPU time and peak RSS (wait4)
 * of `spirv-bitcast validate` and `lower` (with and without -q), `spirv-val`, `spirv-opt` (no
 * passes), `cp` and the floor (this program mapping the file and reading every instruction),
 * medians of several runs.
 *
 * SPDX-License-Identifier: Apache-2.0
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include "bench.h"

const char *const bench_proc_names[P_COUNT] = {"cp",
                                               "spirv-bitcast validate",
                                               "spirv-bitcast lower",
                                               "spirv-val",
                                               "spirv-opt (no passes)",
                                               "spirv-bitcast validate -q",
                                               "spirv-bitcast lower -q",
                                               "floor: mmap + walk"};
const char *const bench_proc_keys[P_COUNT] = {
    "cp",        "proc_validate",   "proc_lower",   "spirv_val",
    "spirv_opt", "proc_validate_q", "proc_lower_q", "proc_floor_mmap_walk"};
_Static_assert(sizeof bench_proc_names / sizeof bench_proc_names[0] == P_COUNT,
               "one name per tool");
_Static_assert(sizeof bench_proc_keys / sizeof bench_proc_keys[0] == P_COUNT, "one key per tool");

int bench_is_ours(int p)
{
    return p == P_VALIDATE || p == P_LOWER || p == P_VALIDATE_Q || p == P_LOWER_Q || p == P_FLOOR;
}

char bench_self_exe[4096];

/** Runs `argv` with stdin and stdout on /dev/null and stderr into `errpath`; one measurement. */
static int run_once(char *const argv[], const char *errpath, double *wall, double *cpu,
                    long *rss_kb, int *status)
{
    double t0 = test_time_now();
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
    *wall = test_time_now() - t0;
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
    m->wall = test_time_median(walls, m->reps);
    m->cpu = test_time_median(cpus, m->reps);
    unlink(errpath);
    if (outpath) {
        unlink(outpath);
    }
}

int bench_warm_file(const char *path, size_t *size, uint32_t *bound)
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

void bench_run_processes(const options *o, input *in)
{
    char cap[32], capeq[48], outpath[4096];
    snprintf(cap, sizeof cap, "%u", bench_id_cap(in->bound));
    snprintf(capeq, sizeof capeq, "--max-id-bound=%u", bench_id_cap(in->bound));
    snprintf(outpath, sizeof outpath, "%s/spvbc-bench-out.%ld.spv", o->tmp, (long)getpid());
    char *path = (char *)in->path;

    {
        char *argv[] = {(char *)o->cp, path, outpath, NULL};
        measure_proc(o, &in->proc[P_CP], argv, 1u, outpath);
    }
    if (bench_self_exe[0]) {
        char *argv[] = {bench_self_exe, "--walk-file", path, NULL};
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

static volatile uint32_t walk_sink;

/* Maps `path` as the CLI does and reads every instruction's first word once. */
int bench_walk_file(const char *path)
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
