/*
 * gen_module.c - writes synthetic OpenCL Kernel SPIR-V modules for the benchmark, word by word
 * (no assembler, so 128 MiB take about a second).
 *
 * The module looks like the output of an unoptimising OpenCL C compiler (compare libclc's
 * spirv64-mesa3d-.spv): Addresses/Physical64/OpenCL, many small functions in units of 32 (one in
 * eight is a kernel entry point, the rest are helpers, half of them exported, that call earlier
 * helpers of their unit), loads and stores
 * through OpInBoundsPtrAccessChain and function-local variables, integer/float/vector arithmetic,
 * OpenCL.std calls, shuffles, composite extracts, if-diamonds with OpPhi, counted loops, and about
 * 7% OpBitcast (value and pointer casts of equal total width).  Every value gets an id, so the id
 * bound grows with the size (about one id per 6 words: a 128 MiB module has about 5.5 million
 * ids, above spirv-val's default bound of 4,194,303).  Functions and one value in twelve have
 * OpName.
 *
 * With --lowerable, exactly one bitcast in ten is instead an as_type-legal 4->3 reinterpretation
 * written as a direct, size-mismatched OpBitcast (float4 -> float3, int4 -> float3, ...): invalid
 * SPIR-V that `spirv-bitcast lower` turns into valid SPIR-V.
 *
 * This file is the command; gen_module.h names the rooms that write the words.
 *
 * Usage: gen_module [-s SIZE] [--lowerable] [--seed N] [-q] -o OUT.spv
 *   SIZE in bytes, with an optional K/M/G suffix (binary units); the module is at least SIZE
 *   bytes, rounded up to the end of a function.  Same arguments, same bytes.
 *
 * SPDX-License-Identifier: Apache-2.0
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gen_module.h"

static size_t total_words(const gen *g)
{
    return g->head.n + g->entry.n + g->debug.n + g->annot.n + g->types.n + g->funcs.n;
}

static int parse_size(const char *s, size_t *out)
{
    char *end;
    errno = 0;
    unsigned long long v = strtoull(s, &end, 10);
    if (errno || end == s) {
        return -1;
    }
    if (*end == 'K' || *end == 'k') {
        v <<= 10;
        end++;
    } else if (*end == 'M' || *end == 'm') {
        v <<= 20;
        end++;
    } else if (*end == 'G' || *end == 'g') {
        v <<= 30;
        end++;
    }
    if (*end != '\0' || v == 0 || v > ((unsigned long long)1 << 34)) {
        return -1;
    }
    *out = (size_t)v;
    return 0;
}

static void usage(void)
{
    fprintf(stderr, "usage: gen_module [-s SIZE[K|M|G]] [--lowerable] [--seed N] [-q] -o OUT\n");
}

int main(int argc, char **argv)
{
    size_t size = (size_t)1 << 20;
    const char *out = NULL;
    int lowerable = 0, quiet = 0;
    unsigned long long seed = 1;
    for (int i = 1; i < argc; ++i) {
        if (!strcmp(argv[i], "-s") && i + 1 < argc) {
            if (parse_size(argv[++i], &size)) {
                usage();
                return 2;
            }
        } else if (!strcmp(argv[i], "-o") && i + 1 < argc) {
            out = argv[++i];
        } else if (!strcmp(argv[i], "--lowerable")) {
            lowerable = 1;
        } else if (!strcmp(argv[i], "--seed") && i + 1 < argc) {
            seed = strtoull(argv[++i], NULL, 10);
        } else if (!strcmp(argv[i], "-q")) {
            quiet = 1;
        } else {
            usage();
            return 2;
        }
    }
    if (!out) {
        usage();
        return 2;
    }

    gen g;
    memset(&g, 0, sizeof g);
    g.next_id = 1;
    test_rng_seed(&g.rng, 0x9E3779B97F4A7C15ULL ^ (seed * 0xD1B54A32D192ED03ULL));
    g.lowerable = lowerable;

    /* header (bound patched at the end), capabilities, OpenCL.std, memory model */
    g.cur = &g.head;
    mb_header(&g.head, 0x00010000u, 0); /* SPIR-V 1.0, as libclc and llvm-spirv write;
                                           generator 0 (unregistered) */
    static const SpvCapability caps[] = {SpvCapabilityAddresses, SpvCapabilityLinkage,
                                         SpvCapabilityKernel,    SpvCapabilityVector16,
                                         SpvCapabilityInt64,     SpvCapabilityInt8};
    for (size_t i = 0; i < sizeof caps / sizeof caps[0]; ++i) {
        EMIT(&g, SpvOpCapability, (uint32_t)caps[i]);
    }
    g.std_set = new_id(&g);
    {
        uint32_t pre[1] = {g.std_set};
        gen_emit_with_string(&g, SpvOpExtInstImport, pre, 1, "OpenCL.std", NULL, 0);
    }
    EMIT(&g, SpvOpMemoryModel, SpvAddressingModelPhysical64, SpvMemoryModelOpenCL);
    g.cur = &g.debug;
    EMIT(&g, SpvOpSource, SpvSourceLanguageOpenCL_C, 102000);

    gen_declare_types(&g);

    size_t want_words = (size + 3) / 4;
    while (total_words(&g) < want_words) {
        if (g.functions % 32 == 0) {
            g.helper_count = 0; /* a new unit of 32 functions, 4 of them kernels */
        }
        gen_function(&g, g.functions % 8 == 7);
    }

    g.head.w[3] = g.next_id;
    FILE *f = fopen(out, "wb");
    if (!f) {
        fprintf(stderr, "gen_module: cannot open %s: %s\n", out, strerror(errno));
        return 1;
    }
    const mb *parts[] = {&g.head, &g.entry, &g.debug, &g.annot, &g.types, &g.funcs};
    for (size_t i = 0; i < sizeof parts / sizeof parts[0]; ++i) {
        if (parts[i]->n && fwrite(parts[i]->w, sizeof(uint32_t), parts[i]->n, f) != parts[i]->n) {
            fprintf(stderr, "gen_module: write error on %s\n", out);
            fclose(f);
            return 1;
        }
    }
    if (fclose(f) != 0) {
        fprintf(stderr, "gen_module: write error on %s\n", out);
        return 1;
    }
    if (!quiet) {
        size_t words = total_words(&g);
        fprintf(stderr,
                "gen_module: %s: %zu bytes, %zu instructions (%.2f words each), %zu functions "
                "(%zu kernels), %zu blocks, id bound %u (%.2f words per id), %zu OpName, "
                "%zu OpBitcast (%.2f%% of instructions), %zu of them lowerable 4->3 (%.1f%%)\n",
                out, words * 4, g.instructions, (double)words / (double)g.instructions, g.functions,
                g.kernels, g.blocks, g.next_id, (double)words / (double)g.next_id, g.names,
                g.bitcasts, 100.0 * (double)g.bitcasts / (double)g.instructions, g.lowered,
                g.bitcasts ? 100.0 * (double)g.lowered / (double)g.bitcasts : 0.0);
    }
    for (int t = 0; t < T_COUNT; ++t) {
        free(g.pools[t].v);
    }
    free(g.helpers);
    mb_free(&g.head);
    mb_free(&g.entry);
    mb_free(&g.debug);
    mb_free(&g.annot);
    mb_free(&g.types);
    mb_free(&g.funcs);
    return 0;
}
