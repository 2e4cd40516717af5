/*
 * layer_bench.c - what the layer costs per module: spvbc_layer_process() (the whole work of
 * VK_LAYER_SPVBC_bitcast for one vkCreateShaderModule, log line included) timed over many
 * calls.
 *
 *   spvbc_layer_bench <iterations> <module.spv | module.spvasm>...
 *
 * Prints, per module, its size, the verdict (replaced or passed on) and the mean and minimum
 * microseconds per call with the log on (to /dev/null); then the minimum with the log off
 * (SPVBC_LAYER_LOG=off), the minimum of the library's own calls for the module (what the layer
 * asks of it: the scan that passes on a module lowering cannot change; else parse, validate
 * and, for a module it replaces, lower, copy, parse and validate the copy, on one reused
 * context that counts findings and keeps none, as the layer's do) and
 * the layer's added time, each minimum less the library's.
 * The calls alternate, so a load that comes and goes on the machine hits all three alike.
 * Exit status 1 if a module cannot be read.
 *
 * SPDX-License-Identifier: Apache-2.0
 */
#define _POSIX_C_SOURCE 200809L /* clock_gettime */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "layer_core.h"
#include "vulkan_setup.h"

static double now_us(void)
{
    struct timespec ts;
    (void)clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e6 + (double)ts.tv_nsec / 1e3;
}

/* The words of `path`: assembled if it ends in ".spvasm", else its bytes. */
static uint32_t *load(const char *path, size_t *bytes)
{
    size_t len = strlen(path), words = 0;
    if (len > 7 && strcmp(path + len - 7, ".spvasm") == 0) {
        uint32_t *w = spvbc_vk_assemble_file(".", path, &words);
        *bytes = words * 4u;
        return w;
    }
    FILE *f = fopen(path, "rb");
    if (f == NULL) return NULL;
    long n = -1;
    if (fseek(f, 0, SEEK_END) == 0) n = ftell(f);
    (void)fseek(f, 0, SEEK_SET);
    uint32_t *w = n > 0 ? malloc((size_t)n) : NULL;
    if (w != NULL && fread(w, 1, (size_t)n, f) != (size_t)n) {
        free(w);
        w = NULL;
    }
    (void)fclose(f);
    *bytes = n > 0 ? (size_t)n : 0;
    return w;
}

/* The library's part of spvbc_layer_process() for one module (see layer_core.c), on `ctx`: in
 * lower mode at the log's default level, the scan first, which passes on a module that lowering
 * cannot change before any parse. */
static void library_only(spvbc_context ctx, const uint32_t *w, size_t size)
{
    int maybe = 1;
    if (spvbc_bytes_scan_lowerable(NULL, w, size, &maybe) == SPVBC_SUCCESS && !maybe) return;
    spvbc_module mod = NULL;
    if (spvbc_module_parse_bytes(ctx, w, size, NULL, &mod) != SPVBC_SUCCESS) return;
    spvbc_validate_summary vs = SPVBC_VALIDATE_SUMMARY_INIT;
    spvbc_result r = spvbc_module_validate(mod, NULL, &vs);
    if (r == SPVBC_ERROR_VALIDATION_FAILED && vs.errors > 0) {
        spvbc_lower_options lo = SPVBC_LOWER_OPTIONS_INIT;
        spvbc_lower_summary ls = SPVBC_LOWER_SUMMARY_INIT;
        const uint32_t *words = NULL;
        size_t count = 0;
        if (spvbc_module_lower(mod, &lo, &ls) == SPVBC_SUCCESS && ls.rewritten > 0 &&
            spvbc_module_get_words(mod, &words, &count) == SPVBC_SUCCESS) {
            uint32_t *copy = malloc(count * 4u);
            spvbc_module check = NULL;
            if (copy != NULL) {
                memcpy(copy, words, count * 4u);
                if (spvbc_module_parse(ctx, copy, count, NULL, &check) == SPVBC_SUCCESS) {
                    (void)spvbc_module_validate(check, NULL, NULL);
                    spvbc_module_destroy(check);
                }
            }
            free(copy);
        }
    }
    spvbc_module_destroy(mod);
}

int main(int argc, char **argv)
{
    if (argc < 3) {
        fprintf(stderr, "usage: %s <iterations> <module.spv|.spvasm>...\n", argv[0]);
        return 2;
    }
    long iterations = strtol(argv[1], NULL, 10);
    if (iterations < 1) iterations = 1;
    spvbc_layer_config cfg;
    memset(&cfg, 0, sizeof cfg);
    cfg.mode = SPVBC_LAYER_MODE_LOWER;
    cfg.pad = SPVBC_PAD_UNDEF;
    (void)snprintf(cfg.log_path, sizeof cfg.log_path, "/dev/null");
    spvbc_layer_config quiet = cfg;
    quiet.log_off = 1;
    spvbc_context ctx = NULL;
    if (spvbc_context_create(NULL, &ctx) != SPVBC_SUCCESS ||
        spvbc_context_set_diagnostic_policy(ctx, SPVBC_DIAGNOSTIC_POLICY_COUNT_ONLY, 0) !=
            SPVBC_SUCCESS) {
        printf("cannot create a context\n");
        return 1;
    }
    int rc = 0;
    for (int a = 2; a < argc; ++a) {
        size_t size = 0;
        uint32_t *w = load(argv[a], &size);
        if (w == NULL) {
            printf("%s: cannot read\n", argv[a]);
            rc = 1;
            continue;
        }
        double total = 0, best = 1e30, best_quiet = 1e30, best_lib = 1e30;
        int replaced = 0;
        for (long i = 0; i < iterations; ++i) {
            uint32_t *out = NULL;
            size_t out_size = 0;
            double t0 = now_us();
            replaced = spvbc_layer_process(&cfg, "bench", w, size, &out, &out_size);
            double dt = now_us() - t0;
            free(out);
            total += dt;
            if (dt < best) best = dt;
            out = NULL;
            t0 = now_us();
            (void)spvbc_layer_process(&quiet, "bench", w, size, &out, &out_size);
            dt = now_us() - t0;
            free(out);
            if (dt < best_quiet) best_quiet = dt;
            t0 = now_us();
            library_only(ctx, w, size);
            dt = now_us() - t0;
            if (dt < best_lib) best_lib = dt;
        }
        printf("%s: %zu bytes, %s: mean %.1f us, min %.1f us per module (%ld calls)\n", argv[a],
               size, replaced ? "lowered" : "passed on", total / (double)iterations, best,
               iterations);
        printf("%s: min %.2f us log off, %.2f us library alone: the layer adds %.2f us with the "
               "log off, %.2f us with it on\n",
               argv[a], best_quiet, best_lib, best_quiet - best_lib, best - best_lib);
        free(w);
    }
    spvbc_context_destroy(ctx);
    return rc;
}
