/*
 * layer_hash.c - the hash the layers' log names modules by (see layer_hash.h).
 *
 * SPDX-License-Identifier: Apache-2.0
 */
#include "layer_hash.h"

/* XXH64, as specified by its author (github.com/Cyan4973/xxHash, doc/xxhash_spec.md): four
 * lanes of 8-byte words, so a module costs about a multiply per 8 bytes (FNV-1a, used before,
 * costs one per byte, more than the library's parse of the module). */
#define XXH_P1 0x9E3779B185EBCA87ull
#define XXH_P2 0xC2B2AE3D27D4EB4Full
#define XXH_P3 0x165667B19E3779F9ull
#define XXH_P4 0x85EBCA77C2B2AE63ull
#define XXH_P5 0x27D4EB2F165667C5ull

static uint64_t rotl64(uint64_t x, int r)
{
    return (x << r) | (x >> (64 - r));
}

static uint64_t read64le(const unsigned char *p)
{
    uint64_t v = 0;
    for (int i = 7; i >= 0; --i)
        v = (v << 8) | p[i]; /* compilers make this one load on little-endian machines */
    return v;
}

static uint64_t xxh_round(uint64_t acc, uint64_t in)
{
    acc += in * XXH_P2;
    return rotl64(acc, 31) * XXH_P1;
}

static uint64_t xxh_merge(uint64_t acc, uint64_t v)
{
    acc ^= xxh_round(0, v);
    return acc * XXH_P1 + XXH_P4;
}

uint64_t spvbc_layer_hash(const void *bytes, size_t size)
{
    const unsigned char *p = bytes != NULL ? bytes : (const void *)"", *end;
    if (bytes == NULL) size = 0;
    end = p + size;
    uint64_t h;
    if (size >= 32) {
        uint64_t v1 = XXH_P1 + XXH_P2, v2 = XXH_P2, v3 = 0, v4 = 0 - XXH_P1;
        for (; end - p >= 32; p += 32) {
            v1 = xxh_round(v1, read64le(p));
            v2 = xxh_round(v2, read64le(p + 8));
            v3 = xxh_round(v3, read64le(p + 16));
            v4 = xxh_round(v4, read64le(p + 24));
        }
        h = rotl64(v1, 1) + rotl64(v2, 7) + rotl64(v3, 12) + rotl64(v4, 18);
        h = xxh_merge(h, v1);
        h = xxh_merge(h, v2);
        h = xxh_merge(h, v3);
        h = xxh_merge(h, v4);
    } else {
        h = XXH_P5;
    }
    h += (uint64_t)size;
    for (; end - p >= 8; p += 8) {
        h ^= xxh_round(0, read64le(p));
        h = rotl64(h, 27) * XXH_P1 + XXH_P4;
    }
    if (end - p >= 4) {
        uint64_t w =
            (uint64_t)p[0] | (uint64_t)p[1] << 8 | (uint64_t)p[2] << 16 | (uint64_t)p[3] << 24;
        h ^= w * XXH_P1;
        h = rotl64(h, 23) * XXH_P2 + XXH_P3;
        p += 4;
    }
    for (; p < end; ++p) {
        h ^= (uint64_t)*p * XXH_P5;
        h = rotl64(h, 11) * XXH_P1;
    }
    h ^= h >> 33;
    h *= XXH_P2;
    h ^= h >> 29;
    h *= XXH_P3;
    h ^= h >> 32;
    return h;
}
