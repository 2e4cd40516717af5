/*
 * bench_util.c - the benchmark's bottom floor (bench_util.h): allocation, the id bound cap and
 * the units.
 *
 * SPDX-License-Identifier: Apache-2.0
 */
#include "bench_util.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "spirv_bitcast.h"

void *bench_xmalloc(size_t n)
{
    void *p = malloc(n ? n : 1);
    if (!p) {
        fprintf(stderr, "spvbc_bench: out of memory\n");
        exit(2);
    }
    return p;
}

char *bench_xstrdup(const char *s)
{
    size_t n = strlen(s) + 1;
    char *p = (char *)bench_xmalloc(n);
    memcpy(p, s, n);
    return p;
}

uint32_t bench_id_cap(uint32_t bound)
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

double bench_mbps(size_t size, double seconds)
{
    return seconds > 0 ? (double)size / 1e6 / seconds : NAN;
}

double bench_mib(size_t size)
{
    return (double)size / (1024.0 * 1024.0);
}
