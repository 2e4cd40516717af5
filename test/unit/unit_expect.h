/*
 * unit_expect.h - cmocka checks that more than one unit test program makes (test_api.c and the
 * malformed-input catalogue); compiled into each of them.
 */
#ifndef SPVBC_UNIT_EXPECT_H_
#define SPVBC_UNIT_EXPECT_H_

#include "spirv_bitcast.h"

/* Lowers `m` with the default options and asserts that it refused exactly one bitcast and
 * rewrote none (SPVBC_PARTIAL). */
void expect_lower_refused(spvbc_module m);

#endif /* SPVBC_UNIT_EXPECT_H_ */
