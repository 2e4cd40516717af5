/* write_refused.h - the check that spvbc_module_write() and spvbc_module_get_words() both
 * refuse a module's edit list as it is (a test broke it by hand), shared by the tests that
 * break one: unit.test_lower_edges and unit.test_witness.  Include it after <cmocka.h>.
 *
 * SPDX-License-Identifier: Apache-2.0
 */
#ifndef SPVBC_TEST_WRITE_REFUSED_H_
#define SPVBC_TEST_WRITE_REFUSED_H_

#include <stddef.h>
#include <stdint.h>

#include "spirv_bitcast.h"

/* A write callback that counts its calls in the int at `user`. */
static inline int count_spans(void *user, const uint32_t *words, size_t count)
{
    (void)words;
    (void)count;
    ++*(int *)user;
    return 0;
}

/* write and get_words of `mod` return SPVBC_ERROR_UNSUPPORTED, write passing no span and
 * get_words leaving its out-parameters untouched. */
static inline void expect_write_refused(spvbc_module mod)
{
    int spans = 0;
    assert_int_equal(spvbc_module_write(mod, count_spans, &spans), SPVBC_ERROR_UNSUPPORTED);
    assert_int_equal(spans, 0);
    const uint32_t *out = (const uint32_t *)&spans;
    size_t out_n = 12345;
    assert_int_equal(spvbc_module_get_words(mod, &out, &out_n), SPVBC_ERROR_UNSUPPORTED);
    assert_ptr_equal(out, (const uint32_t *)&spans);
    assert_int_equal(out_n, 12345);
}

#endif /* SPVBC_TEST_WRITE_REFUSED_H_ */
