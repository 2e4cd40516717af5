/*
 * bench_util.h - the benchmark's bottom floor: allocation that exits when memory runs out, the
 * id bound cap the tools get, and the units of the tables.  It calls nothing of bench/; the clock
 * and the median are test/support's (test_time.h), shared with the pathological-size test.
 *
 * SPDX-License-Identifier: Apache-2.0
 */
#ifndef SPVBC_BENCH_UTIL_H_
#define SPVBC_BENCH_UTIL_H_

#include <stddef.h>
#include <stdint.h>

/** malloc() that exits with status 2 when out of memory. */
void *bench_xmalloc(size_t n);
/** strdup() through bench_xmalloc(). */
char *bench_xstrdup(const char *s);
/** The id bound cap the tools get for a module of id bound `bound`. */
uint32_t bench_id_cap(uint32_t bound);
/** MB/s (10^6 bytes per second) of `size` bytes in `seconds`; NAN unless `seconds` > 0. */
double bench_mbps(size_t size, double seconds);
/** `size` in MiB (2^20 bytes). */
double bench_mib(size_t size);

#endif /* SPVBC_BENCH_UTIL_H_ */
