/* test_witness.h - the second witnesses of test_witness_verdicts.c, run by test_witness.c's
 * main.
 *
 * SPDX-License-Identifier: Apache-2.0
 */
#ifndef SPVBC_TEST_WITNESS_H_
#define SPVBC_TEST_WITNESS_H_

void test_id_one(void **state);
void test_lower_bound_limit(void **state);
void test_pointer_bitcasts_at_1_5(void **state);
void test_logical_pointer_allocation_failures(void **state);
void test_operands_without_numerical_type(void **state);
void test_get_words_stable(void **state);
void test_position_ends_at_noline(void **state);

#endif /* SPVBC_TEST_WITNESS_H_ */
