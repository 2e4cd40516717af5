/* Second witnesses (test_witness.c says why) of source/plan.c, through spvbc_astype_plan():
 *   - the options' struct checked before they are read (unit.test_api is the first witness);
 *   - bool and void on either side refused as such, not as a bad type (unit.test_plan_fields);
 *   - a float of 8, 24 or 128 bits and a kind past void are no OpenCL type: BAD_TYPE
 *     (unit.test_plan_fields, fuzz.regress);
 *   - the exact lanes: one bit per component of the identity and of a same-count pair, and of a
 *     double3 -> short16 under pad undef only the twelve that the three doubles fill (under pad
 *     zero all sixteen), and of a 3-component destination three, not four (unit.test_rules).
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
    /* a 3-component destination has three lanes, though it fills the storage of four */
    p = plan_of(desc(SPVBC_SCALAR_INT, 32, 4), desc(SPVBC_SCALAR_FLOAT, 32, 3));
    assert_int_equal(p.cls, SPVBC_ASTYPE_4_TO_3);
    assert_int_equal(p.exact_lanes, 0x7u);
    p = plan_of(desc(SPVBC_SCALAR_INT, 64, 2), desc(SPVBC_SCALAR_INT, 32, 3));
    assert_int_equal(p.cls, SPVBC_ASTYPE_VEC3_DEST);
    assert_int_equal(p.exact_lanes, 0x7u);
}

/* The names of source/rules.c, each read back (unit.test_rules, unit.test_plan_fields and
 * unit.malformed are the first witnesses):
 *   - every generation's and pad policy's name from its value and back, "unknown" below the
 *     oldest generation and past the last policy;
 *   - an OpenCL name written into each size of buffer from 1 to one past its length: the longest
 *     prefix that fits, always terminated;
 *   - bool, an int of 24 bits, a kind past void of width 0 and a count of 5 have no OpenCL name;
 *   - NULL arguments refused. */
void test_names_read_back(void **state)
{
    (void)state;
    const uint32_t gens[] = {SPVBC_GENERATION_2023_1, SPVBC_GENERATION_2025_1,
                             SPVBC_GENERATION_2026_4};
    for (size_t i = 0; i < 3; ++i) {
        uint32_t g = 0;
        assert_int_equal(spvbc_generation_from_string(spvbc_generation_string(gens[i]), &g),
                         SPVBC_SUCCESS);
        assert_int_equal(g, gens[i]);
    }
    assert_string_equal(spvbc_generation_string(SPVBC_GENERATION_2023_1), "2023.1");
    assert_string_equal(spvbc_generation_string(SPVBC_GENERATION_NEWEST), "2026.4");
    assert_string_equal(spvbc_generation_string(SPVBC_GENERATION_OLDEST - 1), "unknown");
    uint32_t g = 7;
    assert_int_equal(spvbc_generation_from_string(NULL, &g), SPVBC_ERROR_INVALID_ARGUMENT);
    assert_int_equal(spvbc_generation_from_string("2023.1", NULL), SPVBC_ERROR_INVALID_ARGUMENT);
    assert_int_equal(g, 7);

    for (int p = SPVBC_PAD_UNDEF; p <= SPVBC_PAD_ERROR; ++p) {
        spvbc_pad_policy back = SPVBC_PAD_POLICY_MAX_ENUM;
        const char *name = spvbc_pad_policy_string((spvbc_pad_policy)p);
        assert_int_equal(spvbc_pad_policy_from_string(name, &back), SPVBC_SUCCESS);
        assert_int_equal(back, p);
    }
    assert_string_equal(spvbc_pad_policy_string(SPVBC_PAD_ERROR), "error");
    assert_string_equal(spvbc_pad_policy_string((spvbc_pad_policy)(SPVBC_PAD_ERROR + 1)),
                        "unknown");
    spvbc_pad_policy pad = SPVBC_PAD_ZERO;
    assert_int_equal(spvbc_pad_policy_from_string(NULL, &pad), SPVBC_ERROR_INVALID_ARGUMENT);
    assert_int_equal(spvbc_pad_policy_from_string("zero", NULL), SPVBC_ERROR_INVALID_ARGUMENT);
    assert_int_equal(pad, SPVBC_PAD_ZERO);

    const spvbc_type_desc d16 = {SPVBC_SCALAR_FLOAT, 64, 16, 0}; /* "double16" */
    for (size_t size = 1; size <= 9; ++size) {
        char buf[12];
        memset(buf, 'X', sizeof buf);
        assert_int_equal(spvbc_type_desc_opencl_name(&d16, buf, size), SPVBC_SUCCESS);
        assert_int_equal(strlen(buf), size - 1);
        assert_memory_equal(buf, "double16", size - 1);
        assert_int_equal(buf[size], 'X'); /* nothing written past the terminator */
    }
    const spvbc_type_desc none[] = {
        {SPVBC_SCALAR_BOOL, 0, 1, 0},
        {SPVBC_SCALAR_INT, 24, 1, 1},
        {(spvbc_scalar_kind)(SPVBC_SCALAR_VOID + 1), 0, 1, 0},
        {SPVBC_SCALAR_INT, 32, 5, 0},
    };
    for (size_t i = 0; i < sizeof none / sizeof *none; ++i) {
        char buf[16] = "";
        assert_int_equal(spvbc_type_desc_opencl_name(&none[i], buf, sizeof buf),
                         SPVBC_ERROR_INVALID_ARGUMENT);
    }
    spvbc_type_desc out = d16;
    assert_int_equal(spvbc_type_desc_from_opencl(NULL, &out), SPVBC_ERROR_INVALID_ARGUMENT);
    assert_int_equal(spvbc_type_desc_from_opencl("uint4", NULL), SPVBC_ERROR_INVALID_ARGUMENT);
    assert_int_equal(out.width, 64);
}
