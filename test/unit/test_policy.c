/* Diagnostic policies: summary counts are exact under every policy; keep-first-N
 * keeps exactly the first N diagnostics of keep-all plus one R-NOT-KEPT note; count-only keeps
 * only the note; and under a cap, validate and lower of a module make the same number of
 * allocations, and reach the same peak, whether it holds a few thousand findings or a million
 * - and free them all. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "spirv_bitcast.h"
#include "test_alloc.h"

/* ---- a Kernel module with `sites` bitcasts of which the first `bad` are findings ---------- */

enum {
    ID_FLOAT = 1,
    ID_V4FLOAT,
    ID_V3FLOAT,
    ID_V2FLOAT,
    ID_UINT,
    ID_V4UINT,
    ID_VOID,
    ID_FN_TYPE,
    ID_NULL4,
    ID_NULL2,
    ID_FN,
    ID_LABEL,
    ID_FIRST_RESULT
};

typedef enum finding_kind {
    LOWERABLE_4_TO_3, /* as_float3(float4): lower rewrites it */
    REFUSED_SIZE /* as_float3(float2): a size error, refused by lower */
} finding_kind;

typedef struct module_words {
    uint32_t *w;
    size_t n;
} module_words;

static void put(module_words *m, uint32_t word)
{
    m->w[m->n++] = word;
}

static module_words make_module(size_t sites, size_t bad, finding_kind kind)
{
    module_words m;
    m.n = 0;
    m.w = (uint32_t *)malloc((64 + sites * 4) * sizeof *m.w);
    assert_non_null(m.w);
    const uint32_t bound = ID_FIRST_RESULT + (uint32_t)sites;
    const uint32_t header[] = {0x07230203u, 0x00010200u, 0, bound, 0};
    for (size_t i = 0; i < 5; ++i)
        put(&m, header[i]);
    put(&m, (2u << 16) | 17), put(&m, 6); /* OpCapability Kernel */
    put(&m, (2u << 16) | 17), put(&m, 4); /* OpCapability Addresses */
    put(&m, (3u << 16) | 14), put(&m, 2), put(&m, 2); /* OpMemoryModel Physical64 OpenCL */
    put(&m, (3u << 16) | 22), put(&m, ID_FLOAT), put(&m, 32); /* OpTypeFloat 32 */
    put(&m, (4u << 16) | 23), put(&m, ID_V4FLOAT), put(&m, ID_FLOAT), put(&m, 4);
    put(&m, (4u << 16) | 23), put(&m, ID_V3FLOAT), put(&m, ID_FLOAT), put(&m, 3);
    put(&m, (4u << 16) | 23), put(&m, ID_V2FLOAT), put(&m, ID_FLOAT), put(&m, 2);
    put(&m, (4u << 16) | 21), put(&m, ID_UINT), put(&m, 32), put(&m, 0); /* OpTypeInt 32 0 */
    put(&m, (4u << 16) | 23), put(&m, ID_V4UINT), put(&m, ID_UINT), put(&m, 4);
    put(&m, (2u << 16) | 19), put(&m, ID_VOID); /* OpTypeVoid */
    put(&m, (3u << 16) | 33), put(&m, ID_FN_TYPE), put(&m, ID_VOID); /* OpTypeFunction */
    put(&m, (3u << 16) | 46), put(&m, ID_V4FLOAT), put(&m, ID_NULL4); /* OpConstantNull */
    put(&m, (3u << 16) | 46), put(&m, ID_V2FLOAT), put(&m, ID_NULL2);
    put(&m, (5u << 16) | 54), put(&m, ID_VOID), put(&m, ID_FN), put(&m, 0), put(&m, ID_FN_TYPE);
    put(&m, (2u << 16) | 248), put(&m, ID_LABEL); /* OpLabel */
    for (size_t i = 0; i < sites; ++i) {
        /* valid: as_uint4(float4) is no finding, but a bitcast to check */
        uint32_t type = ID_V4UINT, operand = ID_NULL4;
        if (i < bad) {
            type = ID_V3FLOAT;
            operand = kind == LOWERABLE_4_TO_3 ? ID_NULL4 : ID_NULL2;
        }
        put(&m, (4u << 16) | 124), put(&m, type), put(&m, ID_FIRST_RESULT + (uint32_t)i);
        put(&m, operand);
    }
    put(&m, (1u << 16) | 253); /* OpReturn */
    put(&m, (1u << 16) | 56); /* OpFunctionEnd */
    return m;
}

/* ---- one run ------------------------------------------------------------------------------- */

typedef struct run_result {
    test_alloc mem;
    size_t diagnostics, errors, refused, rewritten, not_kept_note;
    size_t first_messages_hash;
} run_result;

static size_t hash_text(size_t h, const char *s)
{
    for (; s && *s; ++s)
        h = h * 131u + (unsigned char)*s;
    return h;
}

/* Parses `m`, then validates (lower == 0) or lowers it under `policy`, reads every diagnostic,
 * and destroys everything; the counter sees every allocation. */
static run_result run(const module_words *m, int lower, spvbc_diagnostic_policy policy,
                      size_t limit)
{
    run_result r;
    memset(&r, 0, sizeof r);
    spvbc_allocator al = test_alloc_allocator(&r.mem);
    spvbc_context ctx;
    assert_int_equal(spvbc_context_create(&al, &ctx), SPVBC_SUCCESS);
    assert_int_equal(spvbc_context_set_diagnostic_policy(ctx, policy, limit), SPVBC_SUCCESS);
    spvbc_parse_options po = SPVBC_PARSE_OPTIONS_INIT;
    po.max_id_bound = 0x7FFFFFF0u;
    spvbc_module mod;
    assert_int_equal(spvbc_module_parse(ctx, m->w, m->n, &po, &mod), SPVBC_SUCCESS);
    if (lower) {
        spvbc_lower_summary ls = SPVBC_LOWER_SUMMARY_INIT;
        spvbc_result lr = spvbc_module_lower(mod, NULL, &ls);
        assert_int_equal(lr, ls.refused ? SPVBC_PARTIAL : SPVBC_SUCCESS);
        r.refused = ls.refused;
        r.rewritten = ls.rewritten;
    } else {
        spvbc_validate_summary vs = SPVBC_VALIDATE_SUMMARY_INIT;
        spvbc_result v = spvbc_module_validate(mod, NULL, &vs);
        assert_true(v == SPVBC_SUCCESS || v == SPVBC_ERROR_VALIDATION_FAILED);
        r.errors = vs.errors;
    }
    r.diagnostics = spvbc_context_diagnostic_count(ctx);
    for (size_t i = 0; i < r.diagnostics; ++i) {
        const spvbc_diagnostic *d = spvbc_context_diagnostic(ctx, i);
        assert_non_null(d);
        assert_non_null(d->message);
        assert_string_not_equal(d->rule, "R-MEMORY");
        if (strcmp(d->rule, "R-NOT-KEPT") == 0) {
            assert_int_equal(i, r.diagnostics - 1); /* the call's last diagnostic */
            unsigned long long n = strtoull(d->message, NULL, 10);
            assert_true(n <= SIZE_MAX); /* size_t is 32 bits on armhf */
            r.not_kept_note = (size_t)n;
        } else if (i < 10) {
            r.first_messages_hash = hash_text(r.first_messages_hash, d->message);
        }
    }
    spvbc_module_destroy(mod);
    spvbc_context_destroy(ctx);
    assert_int_equal(r.mem.live_bytes, 0);
    assert_int_equal(r.mem.live_blocks, 0);
    assert_int_equal(r.mem.bad_free, 0);
    return r;
}

/* ---- tests --------------------------------------------------------------------------------- */

static void test_policy_arguments(void **state)
{
    (void)state;
    spvbc_context ctx;
    assert_int_equal(spvbc_context_set_diagnostic_policy(NULL, SPVBC_DIAGNOSTIC_POLICY_KEEP_ALL, 0),
                     SPVBC_ERROR_INVALID_ARGUMENT);
    assert_int_equal(spvbc_context_create(NULL, &ctx), SPVBC_SUCCESS);
    assert_int_equal(spvbc_context_set_diagnostic_policy(ctx, (spvbc_diagnostic_policy)3, 0),
                     SPVBC_ERROR_INVALID_ARGUMENT);
    assert_int_equal(
        spvbc_context_set_diagnostic_policy(ctx, SPVBC_DIAGNOSTIC_POLICY_COUNT_ONLY, 0),
        SPVBC_SUCCESS);
    spvbc_context_destroy(ctx);
}

/* The same findings, counted the same, under each policy; keep-first keeps keep-all's first. */
static void test_policies_agree(void **state)
{
    (void)state;
    for (int lower = 0; lower < 2; ++lower) {
        for (int kind = 0; kind < 2; ++kind) {
            module_words m = make_module(400, 150, (finding_kind)kind);
            run_result all = run(&m, lower, SPVBC_DIAGNOSTIC_POLICY_KEEP_ALL, 0);
            run_result first = run(&m, lower, SPVBC_DIAGNOSTIC_POLICY_KEEP_FIRST, 100);
            run_result none = run(&m, lower, SPVBC_DIAGNOSTIC_POLICY_COUNT_ONLY, 0);
            const size_t findings = lower ? all.refused + all.rewritten : all.errors;
            assert_int_equal(findings, 150);
            assert_int_equal(all.diagnostics, 150);
            assert_int_equal(all.not_kept_note, 0);
            assert_int_equal(first.diagnostics, 101);
            assert_int_equal(first.not_kept_note, 50);
            assert_int_equal(none.diagnostics, 1);
            assert_int_equal(none.not_kept_note, 150);
            assert_int_equal(first.first_messages_hash, all.first_messages_hash);
            assert_int_equal(first.errors, all.errors);
            assert_int_equal(none.errors, all.errors);
            assert_int_equal(first.refused, all.refused);
            assert_int_equal(none.rewritten, all.rewritten);
            free(m.w);
        }
    }
}

/* Under a cap of 1,000, the library's allocations do not depend on how many findings a module
 * of 1 M bitcasts holds: validate with 2,000 or 1 M errors, lower with 2,000 or 1 M refused
 * size errors make the same number of allocations and reach the same peak. */
static void test_allocations_independent_of_findings(void **state)
{
    (void)state;
    const size_t sites = 1000000, cap = 1000;
    for (int lower = 0; lower < 2; ++lower) {
        module_words few = make_module(sites, 2000, REFUSED_SIZE);
        module_words many = make_module(sites, sites, REFUSED_SIZE);
        assert_int_equal(few.n, many.n);
        run_result a = run(&few, lower, SPVBC_DIAGNOSTIC_POLICY_KEEP_FIRST, cap);
        run_result b = run(&many, lower, SPVBC_DIAGNOSTIC_POLICY_KEEP_FIRST, cap);
        assert_int_equal(lower ? a.refused : a.errors, 2000);
        assert_int_equal(lower ? b.refused : b.errors, sites);
        assert_int_equal(a.diagnostics, cap + 1);
        assert_int_equal(b.diagnostics, cap + 1);
        assert_int_equal(b.not_kept_note, sites - cap);
        assert_int_equal(a.mem.calls, b.mem.calls);
        assert_int_equal(a.mem.peak_bytes, b.mem.peak_bytes);
        /* without the cap the findings' records show: the check above can fail */
        run_result c = run(&many, lower, SPVBC_DIAGNOSTIC_POLICY_KEEP_ALL, 0);
        assert_int_equal(c.diagnostics, sites);
        assert_true(c.mem.peak_bytes > b.mem.peak_bytes + sites * 16);
        printf("%s, 1 M bitcasts, cap %zu: %zu allocations, peak %zu bytes, with 2,000 or "
               "1,000,000 findings\n",
               lower ? "lower" : "validate", cap, b.mem.calls, b.mem.peak_bytes);
        free(few.w);
        free(many.w);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_policy_arguments),
        cmocka_unit_test(test_policies_agree),
        cmocka_unit_test(test_allocations_independent_of_findings),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
