/*
 * test_rng.h - the one generator of random numbers of the tests and the benchmark: xorshift64*
 * (Vigna, "An experimental exploration of Marsaglia's xorshift generators, scrambled", 2016),
 * the same sequence on every machine, so a seed always gives the same cases and modules.
 * Header-only (the fuzz targets compile it with their own instrumentation); no dependency.
 *
 * Users: the differential test's cases (test/diff), the fuzz mutator's edits (test/fuzz) and the
 * benchmark's module generator (bench/gen_module).  Each takes the bits it always took from the
 * 64-bit output (test_rng_below() takes the top 32).
 *
 * SPDX-License-Identifier: Apache-2.0
 */
#ifndef SPVBC_TEST_RNG_H_
#define SPVBC_TEST_RNG_H_

#include <stdint.h>

typedef struct test_rng {
    uint64_t s; /* never 0 (xorshift stays at 0 forever) */
} test_rng;

/** Starts `r` at `seed` (0, which xorshift cannot leave, becomes 1). */
static inline void test_rng_seed(test_rng *r, uint64_t seed)
{
    r->s = seed ? seed : 1u;
}

/** The next 64-bit output; the high bits are the best. */
static inline uint64_t test_rng_next(test_rng *r)
{
    r->s ^= r->s >> 12;
    r->s ^= r->s << 25;
    r->s ^= r->s >> 27;
    return r->s * 0x2545F4914F6CDD1Dull;
}

/** A number in [0, `n`) from the top 32 bits of the next output; 0 when `n` is 0 (the generator
 *  still advances, so a call sequence stays the same whatever the bounds). */
static inline uint32_t test_rng_below(test_rng *r, uint32_t n)
{
    uint32_t x = (uint32_t)(test_rng_next(r) >> 32);
    return n ? x % n : 0;
}

#endif /* SPVBC_TEST_RNG_H_ */
