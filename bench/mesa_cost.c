/*
 * mesa_cost.c - what spirv-bitcast inside Mesa's SPIR-V front end costs (external/mesa/):
 * run by bench/mesa.sh on the patched lavapipe and on Debian's own build of the same Mesa, in
 * the Debian 13 root of cmake/mesa-native.sh.
 *
 *   spvbc_bench_mesa_cost [--rounds N] [DIR...]
 *
 * Sets of modules, from the Vulkan execution suite's as_type pairs (exec_pairs.h):
 *   valid     the naive modules that are valid SPIR-V (nothing for Mesa to lower);
 *   naive     the invalid naive modules, handed over unlowered (a patched Mesa lowers them;
 *             Debian's rejects them, and the set is then left out);
 *   lowered   the same, lowered beforehand by the library under pad zero (Mesa's policy), so
 *             that Mesa's scan finds nothing.
 * Each module is created and run once per round with vkr_run (vkCreateShaderModule,
 * vkCreateComputePipelines, one small dispatch: the pipeline's compile dominates), the sets in
 * alternating order; the median over the rounds of each set's time per module is printed.
 * In the same process it times spvbc_bytes_scan_lowerable(), the only work the patch adds for a
 * module that needs no lowering, on the valid set and on the SPIR-V files of each DIR (real
 * modules), and prints
 *   RESULT valid <modules> <us per module> scan <us per module> ratio <(run + scan) / run>
 *   RESULT naive <modules> <us per module> lowered <us per module> ratio <naive / lowered>
 *   RESULT scan <set> <modules> <bytes> <us per module> <MB/s>
 * Exit status 0, 1 on a failure, 77 without a Vulkan device.
 *
 * SPDX-License-Identifier: Apache-2.0
 */
#define _POSIX_C_SOURCE 200809L
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "exec_pairs.h"
#include "spirv_bitcast.h"
#include "test_time.h"

#define MB_ELEMS REF_ELEMS
#define MB_MAX_MODULES 4096
#define MB_MAX_ROUNDS 64
#define MB_SCAN_REPEAT 200

typedef struct mb_module {
    uint32_t *words;
    size_t count;
    size_t sstride, dstride;
    const spvbc_type_desc *s, *d;
} mb_module;

typedef struct mb_set {
    const char *name;
    mb_module mods[MB_MAX_MODULES];
    size_t n, bytes;
    double per_module_us[MB_MAX_ROUNDS];
} mb_set;

/* Microseconds on the monotonic clock. */
static double mb_now_us(void)
{
    return test_time_now() * 1e6;
}

static int mb_add(mb_set *set, uint32_t *words, size_t count, const spvbc_type_desc *s,
                  const spvbc_type_desc *d)
{
    if (set->n == MB_MAX_MODULES) {
        free(words);
        return 0;
    }
    mb_module *m = &set->mods[set->n++];
    m->words = words;
    m->count = count;
    m->s = s;
    m->d = d;
    m->sstride = s ? spvbc_gen_vulkan_stride(s) : 0;
    m->dstride = d ? spvbc_gen_vulkan_stride(d) : 0;
    set->bytes += count * sizeof *words;
    return 0;
}

/* The valid, naive and lowered sets of the pairs the device can run. */
static int mb_make_sets(vkr_context *vk, const spvbc_type_desc *types, size_t nt, mb_set *valid,
                        mb_set *naive, mb_set *lowered)
{
    const vkr_features *f = vkr_get_features(vk);
    exec_type_pair tp;
    for (size_t k = 0; exec_next_pair(types, nt, &k, &tp);) {
        if (exec_missing_feature(f, tp.s) != NULL || exec_missing_feature(f, tp.d) != NULL)
            continue;
        size_t nw = 0;
        uint32_t *words = exec_assemble_pair(tp.s, tp.d, &nw);
        if (words == NULL) return 1;
        if (tp.pc == PC_SAME_COUNT || tp.pc == PC_COUNT_CHANGE) {
            mb_add(valid, words, nw, tp.s, tp.d);
            continue;
        }
        uint32_t *low = NULL;
        size_t ln = 0, rewritten = 0;
        if (ref_lower(words, nw, SPVBC_PAD_ZERO, &low, &ln, &rewritten) != 0 || rewritten == 0)
            return 1;
        mb_add(naive, words, nw, tp.s, tp.d);
        mb_add(lowered, low, ln, tp.s, tp.d);
    }
    return 0;
}

/* Runs every module of `set` once; the time per module goes to round `r`.  -1 when one fails
 * (the set is then dropped: Debian's Mesa rejects the naive ones). */
static int mb_run_set(vkr_context *vk, mb_set *set, size_t r)
{
    static uint8_t in[MB_ELEMS * 32], out[MB_ELEMS * 32];
    double t0 = mb_now_us();
    for (size_t i = 0; i < set->n; ++i) {
        const mb_module *m = &set->mods[i];
        vkr_run_result rr;
        char msg[256];
        ref_make_inputs(in, m->s, m->d, m->sstride, 0x5eedull + i);
        if (vkr_run(vk, m->words, m->count, VKR_MODULE_OBJECT, in, m->sstride * MB_ELEMS, out,
                    m->dstride * MB_ELEMS, REF_OUT_FILL, MB_ELEMS / 64u, &rr, msg,
                    sizeof msg) != VKR_OK)
            return -1;
    }
    set->per_module_us[r] = (mb_now_us() - t0) / (double)(set->n ? set->n : 1);
    return 0;
}

/* The scan's time per module over `set`, repeated so that the clock's cost vanishes. */
static double mb_scan_us(const mb_set *set)
{
    volatile int sink = 0;
    double t0 = mb_now_us();
    for (int rep = 0; rep < MB_SCAN_REPEAT; ++rep)
        for (size_t i = 0; i < set->n; ++i) {
            int maybe = 1;
            (void)spvbc_bytes_scan_lowerable(NULL, set->mods[i].words,
                                             set->mods[i].count * sizeof(uint32_t), &maybe);
            sink += maybe;
        }
    (void)sink;
    return (mb_now_us() - t0) / (double)MB_SCAN_REPEAT / (double)(set->n ? set->n : 1);
}

/* The *.spv files of `dir` into `set`. */
static int mb_load_dir(const char *dir, mb_set *set)
{
    DIR *d = opendir(dir);
    if (d == NULL) return 1;
    for (struct dirent *e; (e = readdir(d)) != NULL;) {
        size_t len = strlen(e->d_name);
        if (len < 5 || strcmp(e->d_name + len - 4, ".spv") != 0) continue;
        char path[4096];
        (void)snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        FILE *f = fopen(path, "rb");
        long n = -1;
        if (f != NULL && fseek(f, 0, SEEK_END) == 0) n = ftell(f);
        uint32_t *w = (n >= 20 && n % 4 == 0) ? malloc((size_t)n) : NULL;
        if (w != NULL && (fseek(f, 0, SEEK_SET) != 0 || fread(w, 1, (size_t)n, f) != (size_t)n)) {
            free(w);
            w = NULL;
        }
        if (f != NULL) (void)fclose(f);
        if (w != NULL) mb_add(set, w, (size_t)n / 4, NULL, NULL);
    }
    (void)closedir(d);
    return 0;
}

static void mb_free(mb_set *set)
{
    for (size_t i = 0; i < set->n; ++i)
        free(set->mods[i].words);
    set->n = 0;
}

static int mb_report_scans(int argc, char **argv, int first)
{
    static mb_set real;
    for (int a = first; a < argc; ++a) {
        real.name = argv[a];
        if (mb_load_dir(argv[a], &real) != 0 || real.n == 0) {
            printf("mesa-cost: FAIL: no SPIR-V modules in %s\n", argv[a]);
            return 1;
        }
        double us = mb_scan_us(&real);
        printf("RESULT scan %s %zu %zu %.3f %.0f\n", argv[a], real.n, real.bytes, us,
               (double)real.bytes / (double)real.n / us);
        mb_free(&real);
        real.bytes = 0;
    }
    return 0;
}

int main(int argc, char **argv)
{
    setvbuf(stdout, NULL, _IOLBF, 0);
    size_t rounds = 5;
    int first = 1;
    if (argc > 2 && strcmp(argv[1], "--rounds") == 0) {
        rounds = (size_t)strtoul(argv[2], NULL, 10);
        first = 3;
    }
    if (rounds == 0 || rounds > MB_MAX_ROUNDS) {
        fprintf(stderr, "usage: %s [--rounds 1..%d] [DIR...]\n", argv[0], MB_MAX_ROUNDS);
        return 2;
    }
    vkr_context *vk = NULL;
    char desc[512];
    int rc = exec_open_device(&vk, desc, sizeof desc);
    if (rc != 0) return rc;
    static mb_set valid, naive, lowered;
    valid.name = "valid";
    naive.name = "naive";
    lowered.name = "lowered";
    spvbc_type_desc types[MAX_TYPES];
    size_t nt = exec_vulkan_types(types);
    if (mb_make_sets(vk, types, nt, &valid, &naive, &lowered) != 0) {
        printf("mesa-cost: FAIL: cannot make the modules\n");
        vkr_destroy(vk);
        return 1;
    }
    int naive_runs = 1;
    mb_set *order[3] = {&valid, &naive, &lowered};
    for (size_t r = 0; r < rounds && rc == 0; ++r)
        for (int k = 0; k < 3 && rc == 0; ++k) {
            mb_set *set = order[r % 2 ? 2 - k : k];
            if (set == &naive && !naive_runs) continue;
            if (mb_run_set(vk, set, r) != 0) {
                if (set != &naive) rc = 1;
                naive_runs = 0;
            }
        }
    if (rc == 0) {
        double v = test_time_median(valid.per_module_us, (int)rounds), scan = mb_scan_us(&valid);
        printf("RESULT valid %zu %.1f scan %.3f ratio %.5f\n", valid.n, v, scan, (v + scan) / v);
        double l = test_time_median(lowered.per_module_us, (int)rounds);
        if (naive_runs) {
            double nv = test_time_median(naive.per_module_us, (int)rounds);
            printf("RESULT naive %zu %.1f lowered %.1f ratio %.4f\n", naive.n, nv, l, nv / l);
        } else {
            printf("RESULT naive %zu rejected lowered %.1f\n", naive.n, l);
        }
        rc = mb_report_scans(argc, argv, first);
    } else {
        printf("mesa-cost: FAIL: a valid or lowered module did not run\n");
    }
    mb_free(&valid);
    mb_free(&naive);
    mb_free(&lowered);
    vkr_destroy(vk);
    return rc;
}
