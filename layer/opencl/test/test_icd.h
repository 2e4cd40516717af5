/*
 * test_icd.h - what a test reads from the recording test ICD (test_icd.c), looked up with
 * dlsym() in the ICD the loader loaded.
 *
 * SPDX-License-Identifier: Apache-2.0
 */
#ifndef SPVBC_TEST_ICD_H_
#define SPVBC_TEST_ICD_H_

#include <CL/cl.h>
#include <stddef.h>

/** The bytes the ICD was given for `program` (`*il`, `*size`) and whether they came through
 *  clCreateProgramWithILKHR (`*khr`); 0 if `program` is not one of the ICD's. */
typedef int (*spvbc_test_icd_received_fn)(cl_program program, const void **il, size_t *size,
                                          int *khr);
/** Programs alive in the ICD, and how many clCreateProgramWithIL(KHR) calls it got. */
typedef void (*spvbc_test_icd_counts_fn)(long *live_programs, unsigned long *il_calls,
                                         unsigned long *khr_calls);

/** How many times CL_PROGRAM_REFERENCE_COUNT or CL_KERNEL_REFERENCE_COUNT was queried. */
typedef unsigned long (*spvbc_test_icd_refcount_queries_fn)(void);

#endif /* SPVBC_TEST_ICD_H_ */
