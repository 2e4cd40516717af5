/* Second witnesses (test_witness.c says why) of source/plan.c, through spvbc_astype_plan():
 *   - the options' struct checked before they are read (unit.test_api is the first witness);
 *   - bool and void on either side refused as such, not as a bad type (unit.test_plan_fields);
 *   - a float of 8, 24 or 128 bits and a kind past void are no OpenCL type: BAD_TYPE
 *     (unit.test_plan_fields, fuzz.regress);
 *   - the exact lanes: one bit per component of the identity and of a same-count pair, and of a
 *     double3 -> short16 under pad undef only the twelve that the three doubles fill (under pad
 *     zero all sixteen) (unit.test_rules).
 *
 * SPDX-License-Identifier: Apache-2.0
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "spirv_bitcast.h"
#include "test_witness.h"

static spvbc_type_desc desc(spvbc_scalar_kind kind, uint32_t width, uint32_t count)
{
    const spvbc_type_desc d = {kind, width, count, 0};
    return d;
}

/* The plan of `s` -> `d` under the default options. */
static spvbc_plan plan_of(spvbc_type_desc s, spvbc_type_desc d)
{
    spvbc_plan p = SPVBC_PLAN_INIT;
    assert_int_equal(spvbc_astype_plan(&s, &d, NULL, &p), SPVBC_SUCCESS);
    return p;
}

void test_plan_refusals_and_lanes(void **state)
{
    (void)state;
    const spvbc_type_desc i32 = desc(SPVBC_SCALAR_INT, 32, 1);
    /* options of a struct_size below the smallest known */
    spvbc_plan_options o = SPVBC_PLAN_OPTIONS_INIT;
    o.struct_size = 1;
    spvbc_plan p = SPVBC_PLAN_INIT;
    assert_int_equal(spvbc_astype_plan(&i32, &i32, &o, &p), SPVBC_ERROR_INVALID_ARGUMENT);

    const spvbc_scalar_kind none[2] = {SPVBC_SCALAR_BOOL, SPVBC_SCALAR_VOID};
    for (int k = 0; k < 2; ++k) {
        const spvbc_type_desc x = desc(none[k], 32, 1);
        assert_int_equal(plan_of(x, i32).refusal, SPVBC_PLAN_REFUSAL_BOOL_OR_VOID);
        assert_int_equal(plan_of(i32, x).refusal, SPVBC_PLAN_REFUSAL_BOOL_OR_VOID);
    }
    const uint32_t widths[3] = {8, 24, 128};
    for (int k = 0; k < 3; ++k) {
        const spvbc_type_desc f = desc(SPVBC_SCALAR_FLOAT, widths[k], 1);
        const spvbc_type_desc same = desc(SPVBC_SCALAR_INT, widths[k], 1);
        assert_int_equal(plan_of(f, same).refusal, SPVBC_PLAN_REFUSAL_BAD_TYPE);
        assert_int_equal(plan_of(same, f).refusal, SPVBC_PLAN_REFUSAL_BAD_TYPE);
    }
    const spvbc_type_desc other = desc((spvbc_scalar_kind)4, 32, 1);
    assert_int_equal(plan_of(other, i32).refusal, SPVBC_PLAN_REFUSAL_BAD_TYPE);
    assert_int_equal(plan_of(i32, other).refusal, SPVBC_PLAN_REFUSAL_BAD_TYPE);

    const uint32_t counts[6] = {1, 2, 3, 4, 8, 16};
    for (int k = 0; k < 6; ++k) {
        const spvbc_type_desc v = desc(SPVBC_SCALAR_FLOAT, 32, counts[k]);
        p = plan_of(v, v);
        assert_int_equal(p.cls, SPVBC_ASTYPE_IDENTITY);
        assert_int_equal(p.refusal, SPVBC_PLAN_REFUSAL_NONE);
        assert_int_equal(p.exact_lanes, (1u << counts[k]) - 1u);
    }
    p = plan_of(desc(SPVBC_SCALAR_FLOAT, 32, 4), desc(SPVBC_SCALAR_INT, 32, 4));
    assert_int_equal(p.cls, SPVBC_ASTYPE_SAME_COUNT);
    assert_int_equal(p.exact_lanes, 0xfu);
    const spvbc_type_desc d3 = desc(SPVBC_SCALAR_FLOAT, 64, 3),
                          s16 = desc(SPVBC_SCALAR_INT, 16, 16);
    p = plan_of(d3, s16);
    assert_int_equal(p.cls, SPVBC_ASTYPE_VEC3_SOURCE);
    assert_int_equal(p.exact_lanes, 0xfffu);
    o = (spvbc_plan_options)SPVBC_PLAN_OPTIONS_INIT;
    o.pad = SPVBC_PAD_ZERO;
    assert_int_equal(spvbc_astype_plan(&d3, &s16, &o, &p), SPVBC_SUCCESS);
    assert_int_equal(p.exact_lanes, 0xffffu);
}
