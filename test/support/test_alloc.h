/*
 * test_alloc.h - test support: a spvbc_allocator that counts, fails on request and checks every
 * free.  Shared by the allocation-failure loops (test_alloc_fail.c), the huge-cap test
 * (test_malformed.c) and the memory measurements of the pathological-size test.
 *
 * Each block carries a 16-byte header with its size and a magic word, so a free with the wrong
 * size or of an unknown pointer is caught (`bad_free`) instead of corrupting the heap.
 */
#ifndef SPVBC_TEST_ALLOC_H_
#define SPVBC_TEST_ALLOC_H_

#include <stddef.h>

#include "spirv_bitcast.h"

typedef struct test_alloc {
    size_t calls; /* allocations asked for */
    size_t fail_at; /* 1-based call that fails; 0 = never */
    int sticky; /* fail every call from fail_at on */
    int triggered; /* a call failed because of fail_at */
    size_t max_size; /* refuse any one allocation larger than this; 0 = no limit */
    size_t live_bytes, live_blocks, peak_bytes;
    int bad_free; /* a free with the wrong size or of an unknown pointer (leaked, not freed) */
} test_alloc;

/** The allocator that counts into `a` (zero `a` first, then set fail_at/sticky/max_size). */
spvbc_allocator test_alloc_allocator(test_alloc *a);

#endif /* SPVBC_TEST_ALLOC_H_ */
