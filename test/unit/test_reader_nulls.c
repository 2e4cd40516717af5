/* The OpConstantNull the reader records for each type, which the lowering's zero padding
 * (SPVBC_PAD_ZERO) uses instead of adding one: the first null of the type, and only at a site
 * after it.  A Kernel module with a float3 -> int4 (3->4) OpSpecConstantOp Bitcast, then two
 * OpConstantNull of float3, then the same cast in a function: the spec site gets a new null
 * (the module's come after it), the function's the first of the two.  The output is compared
 * with the expected shuffles and given to spirv-val.
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

#include "modbuild.h"
#include "spirv_bitcast.h"
#include "spvval.h"

enum {
    FN = 1,
    VOID,
    FNTY,
    FLOAT,
    V3,
    V4,
    INT,
    V4I,
    ONE,
    SPEC3,
    SPEC,
    NULL1,
    NULL2,
    LABEL,
    X,
    R,
    BOUND
};

/* The second operand (word 4) of each OpVectorShuffle of the `n` words at `w`, into `out` (at
 * most `max`); returns how many. */
static size_t shuffle_seconds(const uint32_t *w, size_t n, uint32_t *out, size_t max)
{
    size_t k = 0;
    for (size_t off = 5; off < n; off += w[off] >> 16) {
        const uint32_t op = w[off] & 0xffffu;
        if ((op == SpvOpVectorShuffle ||
             (op == SpvOpSpecConstantOp && w[off + 3] == SpvOpVectorShuffle)) &&
            k < max)
            out[k++] = w[off + (op == SpvOpVectorShuffle ? 4 : 5)];
    }
    return k;
}

static void test_first_null_before_site(void **state)
{
    (void)state;
    mb b = {NULL, 0, 0};
    mb_kernel_head(&b, 0x00010000u, BOUND, FN);
    mb_void_fn_type(&b, VOID, FNTY);
    MB(&b, SpvOpTypeFloat, FLOAT, 32);
    MB(&b, SpvOpTypeVector, V3, FLOAT, 3);
    MB(&b, SpvOpTypeVector, V4, FLOAT, 4);
    MB(&b, SpvOpTypeInt, INT, 32, 0);
    MB(&b, SpvOpTypeVector, V4I, INT, 4);
    MB(&b, SpvOpSpecConstant, FLOAT, ONE, 0x3f800000u);
    MB(&b, SpvOpSpecConstantComposite, V3, SPEC3, ONE, ONE, ONE);
    MB(&b, SpvOpSpecConstantOp, V4I, SPEC, SpvOpBitcast, SPEC3);
    MB(&b, SpvOpConstantNull, V3, NULL1);
    MB(&b, SpvOpConstantNull, V3, NULL2);
    mb_fn_begin(&b, VOID, FN, FNTY, LABEL);
    MB(&b, SpvOpUndef, V3, X);
    MB(&b, SpvOpBitcast, V4I, R, X);
    mb_fn_end(&b);
    assert_int_equal(spvval_check(b.w, b.n, NULL, 0), 0); /* 96 -> 128 bits: invalid before */

    spvbc_context ctx;
    assert_int_equal(spvbc_context_create(NULL, &ctx), SPVBC_SUCCESS);
    spvbc_module mod;
    assert_int_equal(spvbc_module_parse(ctx, b.w, b.n, NULL, &mod), SPVBC_SUCCESS);
    const spvbc_lower_options lo = {sizeof lo, SPVBC_PAD_ZERO, 0u, SPVBC_GENERATION_NEWEST};
    spvbc_lower_summary sum = SPVBC_LOWER_SUMMARY_INIT;
    assert_int_equal(spvbc_module_lower(mod, &lo, &sum), SPVBC_SUCCESS);
    assert_int_equal(sum.rewritten, 2);
    assert_int_equal(sum.types_added, 0);
    assert_int_equal(sum.constants_added, 1); /* the spec site's */
    assert_int_equal(sum.new_id_bound, BOUND + 3); /* that null, each site's shuffle */
    const uint32_t *out;
    size_t out_n;
    assert_int_equal(spvbc_module_get_words(mod, &out, &out_n), SPVBC_SUCCESS);
    char msg[512];
    if (spvval_check(out, out_n, msg, sizeof msg) != 1) fail_msg("spirv-val: %s", msg);
    uint32_t seconds[4];
    assert_int_equal(shuffle_seconds(out, out_n, seconds, 4), 2);
    assert_true(seconds[0] >= BOUND); /* the new null */
    assert_int_equal(seconds[1], NULL1);
    spvbc_module_destroy(mod);
    spvbc_context_destroy(ctx);
    mb_free(&b);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_first_null_before_site),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
