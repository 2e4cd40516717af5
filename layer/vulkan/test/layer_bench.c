/*
 * layer_bench.c - what the layer costs per module: spvbc_layer_process() (the whole work of
 * VK_LAYER_SPVBC_bitcast for one vkCreateShaderModule, log line included) timed over many
 * calls.
 *
 *   spvbc_layer_bench <iterations> <module.spv | module.spvasm>...
 *
 * Prints, per module, its size, the verdict (replaced or passed on) and the mean and minimum
 * microseconds per call; the log goes to /dev/null.  Exit status 1 if a module cannot be read.
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
    int rc = 0;
    for (int a = 2; a < argc; ++a) {
        size_t size = 0;
        uint32_t *w = load(argv[a], &size);
        if (w == NULL) {
            printf("%s: cannot read\n", argv[a]);
            rc = 1;
            continue;
        }
        double total = 0, best = 1e30;
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
        }
        printf("%s: %zu bytes, %s: mean %.1f us, min %.1f us per module (%ld calls)\n", argv[a],
               size, replaced ? "lowered" : "passed on", total / (double)iterations, best,
               iterations);
        free(w);
    }
    return rc;
}
