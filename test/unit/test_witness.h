/* test_witness.h - the second witnesses of test_witness_verdicts.c, test_witness_edges.c,
 * test_witness_analysis.c, test_witness_scan.c, test_witness_plan.c, test_witness_types.c,
 * test_witness_reader.c, test_witness_records.c and test_witness_bounds.c, run by test_witness.c's
 * main.
 *
 * SPDX-License-Identifier: Apache-2.0
 */
#ifndef SPVBC_TEST_WITNESS_H_
#define SPVBC_TEST_WITNESS_H_

#include <stddef.h>
#include <stdint.h>

#include "spirv_bitcast.h"

/* Fails the test unless spirv-val accepts the `n` words at `words` (in test_witness_verdicts.c,
 * the program's one includer of spvval.h, whose SPIRV-Tools header defines a constant). */
void expect_spirv_val(const uint32_t *words, size_t n);

/* A context whose every block ends, rounded up to 16 bytes, right before a page that cannot be
 * read, so that a read or write past a block ends the program (in test_witness_analysis.c);
 * NULL where there is no mmap. */
spvbc_context guarded_context(void);
/* The `n` words at `w` copied to the end of a readable page that an unreadable one follows (in
 * test_witness_analysis.c; NULL where there is no mmap), and their release. */
uint32_t *guarded_words(const uint32_t *w, size_t n);
void guarded_words_free(uint32_t *words, size_t n);
/* Whether there is no mmap here (then says so, SKIPPED, on stderr: the sanitizer build watches
 * those reads instead). */
int guard_pages_missing(void);
/* Parses the `n` words at `w` in guarded_context() (where there is mmap): SPVBC_ERROR_INVALID_ID,
 * no module, and one diagnostic, of `rule` at word `at`. */
void guarded_parse_fails(const uint32_t *w, size_t n, const char *rule, size_t at);

struct mb;
/* The module of `b` parsed with `po` (may be NULL) in a fresh context, left in `*ctx` (in
 * test_witness_verdicts.c). */
spvbc_module parse_fresh(const struct mb *b, const spvbc_parse_options *po, spvbc_context *ctx);
/* Resets `b` to a Kernel module of Linkage (SPIR-V 1.2, no function) that ends with `n`
 * float4 -> float3 OpSpecConstantOp Bitcasts %6, %7, ... of one spec-constant float4 (in
 * test_witness_edges.c). */
void spec_bitcasts_module(struct mb *b, uint32_t n);

void test_id_one(void **state);
void test_lower_bound_limit(void **state);
void test_pointer_bitcasts_at_1_5(void **state);
void test_logical_pointer_allocation_failures(void **state);
void test_early_findings_allocation_failures(void **state);
void test_operands_without_numerical_type(void **state);
void test_get_words_stable(void **state);
void test_position_ends_at_noline(void **state);
void test_pointer_width_physical32(void **state);
void test_scan_short_modules_at_a_page(void **state);
void test_lower_stops_at_failed_rewrite(void **state);
void test_writer_refuses_broken_edit_lists(void **state);
void test_write_unchanged_module(void **state);
void test_pair_with_warning_and_error_twice(void **state);
void test_write_spans_adjacent_and_last(void **state);
void test_spec_bitcast_generations(void **state);
void test_extract_offset_words(void **state);
void test_extract_offset_at_bound_at_a_page(void **state);
void test_struct_member_at_bound_at_a_page(void **state);
void test_scan_vec3_operand_at_each_offset(void **state);
void test_plan_refusals_and_lanes(void **state);
void test_type_declarations_swapped(void **state);
void test_cooperative_facts_in_verdicts(void **state);
void test_foreign_through_declarations(void **state);
void test_untyped_pointer_in_kernel(void **state);
void test_half_through_pointees(void **state);
void test_names_read_back(void **state);
void test_extract_base_checks(void **state);
void test_coopmat_table_ends_at_a_page(void **state);
void test_scalar_astype_spelling(void **state);
void test_scan_arguments(void **state);
void test_scan_ids_at_the_bound(void **state);
void test_scan_types_of_the_last_scan(void **state);
void test_scan_spec_bitcast_tiny(void **state);
void test_float_last_word_at_a_page(void **state);
void test_reader_ends_at_a_page(void **state);
void test_lower_full_edit_list_at_a_page(void **state);
void test_lower_sorted_edits_and_cap(void **state);
void test_reader_fast_path_edges(void **state);
void test_reader_header_fields(void **state);
void test_reader_records_in_verdicts(void **state);
void test_reader_special_edges(void **state);
void test_reader_foreign_guesses(void **state);
void test_reader_site_lines(void **state);
void test_reader_more_edges(void **state);
void test_reader_entry_points(void **state);
void test_reader_fast_path_wide_bound(void **state);
void test_reader_debug_lines(void **state);
void test_reader_foreign_edges(void **state);
void test_cooperative_parse_under_failures(void **state);
void test_reader_lines_many_sites(void **state);
void test_reader_bound_one_at_a_page(void **state);
void test_reader_word_limit_through_bytes(void **state);
void test_reader_bytes_magic_without_memory(void **state);
void test_operand_at_bound_after_pair(void **state);

#endif /* SPVBC_TEST_WITNESS_H_ */
