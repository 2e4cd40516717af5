/* spvbc_bytes_scan_lowerable()'s answer pinned per module, in each of the scan's forms (this
 * program is built four times: as is, where the processor's AVX-512 steps of 64 and 32 words
 * and AVX2 steps of 32, 16 and 8 words run, and with source/scan.c compiled again under
 * SPVBC_SCAN_NO_AVX512 (AVX2), SPVBC_SCAN_NO_AVX2 (SSE2, 4 words) and SPVBC_SCAN_SCALAR, as
 * test_notes_avx2, test_notes_sse2 and test_notes_scalar are):
 *   - Shader modules with a bitcast of each kind (uint4 <- T3, which lowering rewrites (3 -> 4);
 *     T3 <- uint4 (4 -> 3); uint4 <- uint4, nothing to lower), 0 to 10 3-component vector types
 *     with the bitcast's at each place among them, 0-63 three-word OpUndefs before the site (3
 *     and 64 coprime: every position of the widest step) and 0-5 after it (values of a
 *     3-component type that no bitcast reads), and the site's ids across the marks' bytes and
 *     (at bound 4,097) the bit sets' 64-bit words: the answer must be 1 where lowering rewrites,
 *     1 with more than 8 such types, else 0 (the header's "no"), and lowering's output must pass
 *     spirv-val;
 *   - every prefix of those modules from the site on: a bitcast cut short is no bitcast, so the
 *     answer is the full module's once the bitcast is whole and 0 (no bitcast at all) before;
 *   - every scan reads its words from the end of a page whose next page cannot be read (where
 *     mmap is there), so a read past the module's end crashes the test, and the prefixes are
 *     also scanned with the module's real next words after them.
 * The header's other cases (sizes, alignment, byte order, bound, the allocator) are in
 * test_scan_bytes.c.
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
#include "test_scan.h"

/* Scalar component types: float, then the others a 3-component vector type is made of. */
static const uint32_t comps[SWEEP_MAX_VEC3] = {SW_FLOAT,  SW_INT,   SW_UINT,   SW_BOOL, SW_HALF,
                                               SW_DOUBLE, SW_SHORT, SW_USHORT, SW_LONG, SW_ULONG};

void sweep_module(mb *b, sweep_case *c)
{
    const uint32_t x = c->base + 10, r = c->base + 11, pad = c->base + 12;
    const uint32_t uint4 = c->uint4 ? c->uint4 : SW_UINT4;
    const uint32_t caps[] = {SpvCapabilityShader, SpvCapabilityFloat16, SpvCapabilityFloat64,
                             SpvCapabilityInt16, SpvCapabilityInt64};
    b->n = 0;
    mb_header(b, 0x00010600u, c->bound ? c->bound : pad + c->before + c->after);
    for (size_t i = 0; i < sizeof caps / sizeof caps[0]; ++i)
        MB(b, SpvOpCapability, caps[i]);
    MB(b, SpvOpMemoryModel, SpvAddressingModelLogical, SpvMemoryModelGLSL450);
    mb_entry(b, SpvExecutionModelGLCompute, SW_FN, "main");
    MB(b, SpvOpExecutionMode, SW_FN, SpvExecutionModeLocalSize, 1, 1, 1);
    mb_void_fn_type(b, SW_VOID, SW_FNTY);
    MB(b, SpvOpTypeFloat, SW_FLOAT, 32);
    MB(b, SpvOpTypeInt, SW_INT, 32, 1);
    MB(b, SpvOpTypeInt, SW_UINT, 32, 0);
    MB(b, SpvOpTypeBool, SW_BOOL);
    MB(b, SpvOpTypeFloat, SW_HALF, 16);
    MB(b, SpvOpTypeFloat, SW_DOUBLE, 64);
    MB(b, SpvOpTypeInt, SW_SHORT, 16, 1);
    MB(b, SpvOpTypeInt, SW_USHORT, 16, 0);
    MB(b, SpvOpTypeInt, SW_LONG, 64, 1);
    MB(b, SpvOpTypeInt, SW_ULONG, 64, 0);
    MB(b, SpvOpTypeVector, uint4, SW_UINT, 4);
    /* float3 is the j-th 3-component type, the others in the order of comps[] */
    for (uint32_t k = 0, other = 1; k < c->n; ++k)
        MB(b, SpvOpTypeVector, c->base + k, k == c->j ? SW_FLOAT : comps[other++], 3);
    if (c->dup) /* the first declared again: the same type, no 9th */
        MB(b, SpvOpTypeVector, c->base, c->j == 0 ? SW_FLOAT : comps[1], 3);
    if (c->kind == SITE_SAME4) /* a float4, right after the 3-component types' ids */
        MB(b, SpvOpTypeVector, c->base + c->n, SW_FLOAT, 4);
    if (c->look_alike) { /* words that only look like a bitcast (base + 0 is an int3) */
        MB(b, SpvOpTypeVector, SpvOpBitcast, SW_ULONG, 2); /* ulong2, id 124 */
        /* a struct whose fourth word is 124 and fifth float, the word after float3's id */
        MB(b, SpvOpTypeStruct, SW_S, SW_FLOAT, SpvOpBitcast, SW_FLOAT);
        MB(b, SpvOpConstant, SW_ULONG, SW_C1, c->look_alike, c->base);
        MB(b, SpvOpConstantNull, SpvOpBitcast, SW_C2);
        MB(b, SpvOpConstantNull, c->base, SW_C3);
        MB(b, SpvOpSpecConstantOp, c->base, SW_C4, SpvOpIAdd, SW_C3, SW_C3);
    }
    mb_fn_begin(b, SW_VOID, SW_FN, SW_FNTY, SW_LABEL);
    for (uint32_t k = 0; k < c->before; ++k)
        MB(b, SpvOpUndef, SW_FLOAT, pad + k);
    const uint32_t v3 = c->base + c->j;
    c->site_at[0] = b->n;
    const uint32_t from[] = {uint4, v3, uint4, SW_INT, c->base + c->n};
    const uint32_t to[] = {uint4, uint4, v3, SW_FLOAT, uint4};
    MB(b, SpvOpUndef, from[c->kind], x);
    c->site_at[1] = b->n;
    MB(b, SpvOpBitcast, to[c->kind], r, x);
    c->site_at[2] = b->n;
    for (uint32_t k = 0; k < c->after; ++k) /* values of a 3-component type, no bitcast's */
        MB(b, SpvOpUndef, c->n ? c->base : SW_FLOAT, pad + c->before + k);
    mb_fn_end(b);
}

guard_buf guard;

size_t lower_count(spvbc_context ctx, const mb *b, const char *what)
{
    spvbc_module mod;
    assert_int_equal(spvbc_module_parse(ctx, b->w, b->n, NULL, &mod), SPVBC_SUCCESS);
    spvbc_lower_summary ls = SPVBC_LOWER_SUMMARY_INIT;
    assert_int_equal(spvbc_module_lower(mod, NULL, &ls), SPVBC_SUCCESS);
    const uint32_t *out = NULL;
    size_t out_n = 0;
    assert_int_equal(spvbc_module_get_words(mod, &out, &out_n), SPVBC_SUCCESS);
    char msg[1024];
    if (spvval_check(out, out_n, msg, sizeof msg) != 1) fail_msg("%s: spirv-val: %s", what, msg);
    spvbc_module_destroy(mod);
    return ls.rewritten;
}

/* Checks the answer for the module of `c` and for its prefixes from the site on. */
void check_case(spvbc_context ctx, mb *b, sweep_case *c)
{
    char what[160];
    snprintf(what, sizeof what, "n %u, j %u, kind %d, base %u, before %u, after %u", c->n, c->j,
             (int)c->kind, c->base, c->before, c->after);
    sweep_module(b, c);
    const size_t rewritten = lower_count(ctx, b, what);
    if (rewritten != (c->kind == SITE_3_TO_4 || c->kind == SITE_4_TO_3))
        fail_msg("%s: lowered %zu", what, rewritten);
    /* the header's "no": no bitcast with a 3-component side and at most 8 such types; with no
     * bitcast at all (before it is whole), "no" whatever the types */
    const int whole = rewritten || c->n > 8, without = 0;
    for (size_t cut = c->site_at[0] - 1; cut <= b->n; ++cut) {
        const int expect = cut >= c->site_at[2] ? whole : without;
        const int got = guard_scan(&guard, ctx, b->w, cut * 4);
        if (got != expect) fail_msg("%s, %zu of %zu words: scan said %d", what, cut, b->n, got);
        spvbc_bool maybe = -1; /* the module's own next words after the cut */
        assert_int_equal(spvbc_bytes_scan_lowerable(ctx, b->w, cut * 4, &maybe), SPVBC_SUCCESS);
        if (maybe != expect)
            fail_msg("%s, %zu of %zu words in place: scan said %d", what, cut, b->n, maybe);
    }
}

/* Each place of the site relative to the vector steps, with one and three 3-component types. */
static void test_scan_each_position(void **state)
{
    (void)state;
    spvbc_context ctx;
    assert_int_equal(spvbc_context_create(NULL, &ctx), SPVBC_SUCCESS);
    mb b = {NULL, 0, 0};
    for (uint32_t n = 1; n <= 3; n += 2)
        for (int kind = SITE_NONE; kind <= SITE_4_TO_3; ++kind)
            for (uint32_t before = 0; before < 64; ++before)
                for (uint32_t after = 0; after <= 5; ++after) {
                    sweep_case c = sweep(n, n - 1, (site_kind)kind, SW_FIRST_KEY, before, after);
                    check_case(ctx, &b, &c);
                }
    spvbc_context_destroy(ctx);
    mb_free(&b);
}

/* 0 to 10 3-component types, the site's at each place among them. */
static void test_scan_each_vec3_count(void **state)
{
    (void)state;
    spvbc_context ctx;
    assert_int_equal(spvbc_context_create(NULL, &ctx), SPVBC_SUCCESS);
    mb b = {NULL, 0, 0};
    for (uint32_t n = 0; n <= SWEEP_MAX_VEC3; ++n)
        for (uint32_t j = 0; j < (n ? n : 1); ++j)
            for (int kind = SITE_NONE; kind <= (n ? SITE_4_TO_3 : SITE_NONE); ++kind)
                for (uint32_t before = 0; before < 24; before += 5)
                    for (uint32_t after = 0; after <= 3; after += 3) {
                        sweep_case c = sweep(n, j, (site_kind)kind, SW_FIRST_KEY, before, after);
                        check_case(ctx, &b, &c);
                    }
    spvbc_context_destroy(ctx);
    mb_free(&b);
}

/* The site's types and ids across the marks' bytes and, at bound 4,097, the bit sets' 64-bit
 * words (ids 17 to 200), each kind of site. */
static void test_scan_each_id(void **state)
{
    (void)state;
    spvbc_context ctx;
    assert_int_equal(spvbc_context_create(NULL, &ctx), SPVBC_SUCCESS);
    mb b = {NULL, 0, 0};
    for (uint32_t bound = 0; bound <= 4097; bound += 4097) /* 0: the module's own (bytes) */
        for (uint32_t base = SW_FIRST_KEY; base <= 190; ++base)
            for (int kind = SITE_NONE; kind <= SITE_SAME4; ++kind) {
                sweep_case c = sweep(2, 1, (site_kind)kind, base, base % 7, 1);
                c.bound = bound;
                check_case(ctx, &b, &c);
            }
    spvbc_context_destroy(ctx);
    mb_free(&b);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_scan_each_position),
        cmocka_unit_test(test_scan_each_vec3_count),
        cmocka_unit_test(test_scan_each_id),
        cmocka_unit_test(test_scan_sizes),
        cmocka_unit_test(test_scan_alignment),
        cmocka_unit_test(test_scan_header_fields),
        cmocka_unit_test(test_scan_allocations),
        cmocka_unit_test(test_scan_look_alikes),
        cmocka_unit_test(test_scan_stale_types),
        cmocka_unit_test(test_scan_tiny),
        cmocka_unit_test(test_scan_last_instruction),
        cmocka_unit_test(test_scan_id_at_bound),
        cmocka_unit_test(test_scan_head),
        cmocka_unit_test(test_scan_many_steps),
        cmocka_unit_test(test_scan_ids_past_bound),
    };
    int rc = guard_init(&guard, 1u << 16);
    if (rc != 0) return rc;
    rc = cmocka_run_group_tests(tests, NULL, NULL);
    guard_fini(&guard);
    return rc;
}
