/*
 * test_time.h - test support: the one monotonic clock and median of the timed programs (the
 * benchmark in bench/ and the pathological-size test in test/fuzz).  Part of spvbc::testbase.
 */
#ifndef SPVBC_TEST_TIME_H_
#define SPVBC_TEST_TIME_H_

/** Seconds on the monotonic clock (CLOCK_MONOTONIC): only differences mean anything. */
double test_time_now(void);

/** The median of the `n` values of `v`, which it sorts; NAN when `n` is 0 or less. */
double test_time_median(double *v, int n);

#endif /* SPVBC_TEST_TIME_H_ */
