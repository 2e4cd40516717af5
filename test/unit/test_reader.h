/*
 * test_reader.h - what the two files of the reader's test program share (test_reader_walk.c:
 * the walk's fast paths, the source position, main(); test_reader_head.c: the header's and
 * spvbc_module_parse_bytes' diagnostics, the parse's memory).
 *
 * SPDX-License-Identifier: Apache-2.0
 */
#ifndef SPVBC_TEST_READER_H_
#define SPVBC_TEST_READER_H_

#include <stddef.h>
#include <stdint.h>

#include "modbuild.h"
#include "spirv_bitcast.h"

/* What a failed parse must leave in its out-parameter. */
#define SENTINEL ((spvbc_module)(uintptr_t)0x5a5a5a50u)
#define HDR SPVBC_NO_POSITION

/* Ids of the small Kernel module of mod_types() and what the tests add to it. */
enum { FN = 1, VOID, FNTY, FLOAT, V4, V3, LABEL, X, R, BOUND };

/* A fresh context with the default allocator. */
spvbc_context new_ctx(void);

/* The one diagnostic of `ctx`: an error of rule `rule` at word `offset`, instruction `index`. */
const spvbc_diagnostic *one_error(spvbc_context ctx, size_t offset, size_t index, const char *rule);

/* Parses the `n` words in `ctx` with `o`: the parse fails with `expect`, leaves the module
 * untouched, and reports one error as one_error() says. */
const spvbc_diagnostic *parse_fails(spvbc_context ctx, const uint32_t *w, size_t n,
                                    const spvbc_parse_options *o, spvbc_result expect,
                                    size_t offset, size_t index, const char *rule);

/* The module of the `n` words parsed in `ctx`; fails the test if the parse fails. */
spvbc_module parse_ok(spvbc_context ctx, const uint32_t *w, size_t n);

/* The Kernel head, void(), float, float4 and float3 (instructions 0-8) with bound `bound`. */
void mod_types(mb *b, uint32_t bound);

/* The cases of test_reader_head.c. */
void test_header_messages(void **state);
void test_bound_above_largest_cap(void **state);
void test_bytes_messages(void **state);
void test_bytes_refusals_cost(void **state);
void test_word_count_limit(void **state);
void test_copy_size_overflow(void **state);
void test_bytes_without_context(void **state);
void test_bytes_copy_out_of_memory(void **state);
void test_id_table_memory(void **state);
void test_parse_out_of_memory(void **state);

#endif /* SPVBC_TEST_READER_H_ */
