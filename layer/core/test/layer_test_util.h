/*
 * layer_test_util.h - what the layers' tests (Vulkan and OpenCL) share: checks that count
 * failures, and questions about the layer's log file.
 *
 * SPDX-License-Identifier: Apache-2.0
 */
#ifndef SPVBC_LAYER_TEST_UTIL_H_
#define SPVBC_LAYER_TEST_UTIL_H_

#include <stddef.h>
#include <stdint.h>

#include "test_file.h" /* spvbc_test_read_file(), for the tests' own files */

/** Failed checks so far (all threads). */
extern int lt_failed;
/** 1: print passing checks too ("  ok   ..."); 0: failures only. */
extern int lt_verbose;

/** The start of a test's main(): line-buffered stdout, and a check that there are at least
 *  `need` arguments after the program name.  Returns 0 to go on, or 2 (the exit status) after
 *  printing "usage: <program> `usage`". */
int lt_start(int argc, char **argv, int need, const char *usage);

/** Counts a failure unless `ok`, printing the sentence `fmt` with the source `line`. */
void lt_check(int ok, int line, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;
#define CHECK(cond, ...) lt_check((cond) ? 1 : 0, __LINE__, __VA_ARGS__)

/** 1 if the log file `log` contains `needle`. */
int lt_log_has(const char *log, const char *needle);
/** How many times `needle` occurs in the log file `log`. */
size_t lt_log_count(const char *log, const char *needle);

/** The log's verdict prefix for a module: "<api>: in xxh64=<hash> <n> words: <what>". */
void lt_verdict(char *buf, size_t size, const char *api, const uint32_t *w, size_t n,
                const char *what);

#endif /* SPVBC_LAYER_TEST_UTIL_H_ */
