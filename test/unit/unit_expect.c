/* unit_expect.c - cmocka checks that more than one unit test program makes (unit_expect.h). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "unit_expect.h"

void expect_lower_refused(spvbc_module m)
{
    spvbc_lower_summary ls = SPVBC_LOWER_SUMMARY_INIT;
    assert_int_equal(spvbc_module_lower(m, NULL, &ls), SPVBC_PARTIAL);
    assert_int_equal(ls.rewritten, 0);
    assert_int_equal(ls.refused, 1);
}
