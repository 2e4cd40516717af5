/*
 * test_alloc_fail.c - allocation failure through every call.
 *
 * A caller allocator counts live bytes and fails the N-th allocation.  For every N from 1 until
 * a run completes without reaching N, each scenario runs context_create, parse, validate, lower
 * and get_words.  The call in which the N-th allocation fails must return
 * SPVBC_ERROR_OUT_OF_MEMORY, leave its out-parameters and the caller's words untouched, and
 * leave the objects usable: the failed call is then retried with allocation working again and
 * the run must end with exactly the output of an undisturbed run.  After destroy, no byte is
 * live.  A second mode fails every allocation from the N-th on (clean-up paths must not
 * allocate).  The allocator also checks that every free() receives the size that was asked for.
 *
 * Every lowered output (the undisturbed reference of each scenario) goes through spirv-val.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "modbuild.h"
#include "spirv_bitcast.h"
#include "spvval.h"
#include "test_alloc.h"

/* ---- scenarios ------------------------------------------------------------------------- */

typedef enum input_way {
    WAY_WORDS = 0, /* spvbc_module_parse on the caller's words */
    WAY_COPY = 1, /* copy_words */
    WAY_BYTES = 2, /* spvbc_module_parse_bytes, misaligned */
    WAY_SWAPPED = 3, /* opposite byte order */
    WAY_COUNT = 4
} input_way;

typedef struct scenario {
    const uint32_t *words; /* host order */
    size_t n;
    input_way way;
    spvbc_pad_policy pad;
    uint32_t validate_flags;
} scenario;

typedef struct outcome {
    spvbc_result validate_result;
    spvbc_validate_summary vs;
    size_t validate_diags;
    spvbc_lower_summary ls;
    uint32_t *out;
    size_t out_n;
    /* Every diagnostic of the validate and of the lower call, as text (rule, position, name,
     * line, message), to compare with the undisturbed run's. */
    char *texts[2];
    size_t texts_len[2];
} outcome;

typedef struct input_buf {
    unsigned char *raw; /* what the library reads */
    size_t raw_size;
    unsigned char *copy; /* to check it stays untouched */
} input_buf;

static void make_input(const scenario *sc, input_buf *in)
{
    in->raw_size = sc->n * 4;
    in->raw = (unsigned char *)malloc(in->raw_size + 8);
    assert_non_null(in->raw);
    unsigned char *dst = in->raw + (sc->way == WAY_BYTES ? 1 : 0);
    for (size_t i = 0; i < sc->n; ++i) {
        uint32_t w = sc->way == WAY_SWAPPED ? mb_bswap(sc->words[i]) : sc->words[i];
        memcpy(dst + 4 * i, &w, 4);
    }
    in->copy = (unsigned char *)malloc(in->raw_size + 8);
    assert_non_null(in->copy);
    memcpy(in->copy, in->raw, in->raw_size + 8);
}

static void check_input(const input_buf *in)
{
    assert_memory_equal(in->raw, in->copy, in->raw_size + 8);
}

static void free_input(input_buf *in)
{
    free(in->raw);
    free(in->copy);
}

static spvbc_result do_parse(spvbc_context ctx, const scenario *sc, const input_buf *in,
                             spvbc_module *m)
{
    spvbc_parse_options o = SPVBC_PARSE_OPTIONS_INIT;
    o.copy_words = sc->way == WAY_COPY;
    if (sc->way == WAY_BYTES)
        return spvbc_module_parse_bytes(ctx, in->raw + 1, in->raw_size, &o, m);
    /* raw is malloc'd, so it is aligned for words */
    return spvbc_module_parse(ctx, (const uint32_t *)(const void *)in->raw, sc->n, &o, m);
}

/* Asserts that the `size` bytes at `p` are still the 0xA5 they were filled with. */
static void assert_filled_a5(const void *p, size_t size)
{
    unsigned char untouched[256];
    assert_true(size <= sizeof untouched);
    memset(untouched, 0xA5, size);
    assert_memory_equal(p, untouched, size);
}

static int step_failed(test_alloc *a, int before, spvbc_result r, int *failures, spvbc_context ctx)
{
    if (r == SPVBC_ERROR_OUT_OF_MEMORY) {
        if (!a->triggered || before) fail_msg("OUT_OF_MEMORY without a failed allocation");
        /* Never silent: the call's last diagnostic says why (none for a context not made). */
        const size_t n = ctx ? spvbc_context_diagnostic_count(ctx) : 0;
        const spvbc_diagnostic *last = n ? spvbc_context_diagnostic(ctx, n - 1) : NULL;
        if (ctx && (!last || strcmp(last->rule, "R-MEMORY") != 0))
            fail_msg("OUT_OF_MEMORY after allocation %zu failed (%s), but the last of %zu "
                     "diagnostics is %s, not R-MEMORY",
                     a->fail_at, a->sticky ? "and every later one" : "alone", n,
                     last ? last->rule : "none");
        a->fail_at = 0;
        a->sticky = 0;
        ++*failures;
        return 1;
    }
    if (a->triggered != before)
        fail_msg("a call returned %s after allocation %zu failed in it", spvbc_result_string(r),
                 a->fail_at);
    return 0;
}

/* Reads every diagnostic of `ctx` into `*text` (malloc'd).  The calls made them before they
 * returned, so reading allocates nothing, and a call that did not return OUT_OF_MEMORY has no
 * R-MEMORY diagnostic in place of a finding. */
static void read_diagnostics(spvbc_context ctx, test_alloc *a, int oom_tail_ok, char **text,
                             size_t *len)
{
    const size_t calls = a->calls;
    size_t cap = 256, n = 0;
    char *t = (char *)malloc(cap);
    assert_non_null(t);
    t[0] = 0;
    const size_t count = spvbc_context_diagnostic_count(ctx);
    for (size_t i = 0; i < count; ++i) {
        const spvbc_diagnostic *d = spvbc_context_diagnostic(ctx, i);
        assert_non_null(d);
        assert_non_null(d->message);
        assert_non_null(d->rule);
        if (strcmp(d->rule, "R-MEMORY") == 0 && oom_tail_ok && i + 1 == count) break;
        if (strcmp(d->rule, "R-MEMORY") == 0)
            fail_msg("diagnostic %zu of %zu reads R-MEMORY after a call that succeeded", i, count);
        char line[2048];
        int w = snprintf(line, sizeof line, "%s %zu %zu %s %s:%u %s\n", d->rule, d->word_offset,
                         d->instruction_index, d->result_name ? d->result_name : "-",
                         d->source_file ? d->source_file : "-", d->source_line, d->message);
        assert_true(w > 0);
        size_t lw = strlen(line);
        while (n + lw + 1 > cap) {
            cap *= 2;
            t = (char *)realloc(t, cap);
            assert_non_null(t);
        }
        memcpy(t + n, line, lw + 1);
        n += lw;
    }
    if (a->calls != calls) fail_msg("reading the diagnostics allocated");
    *text = t;
    *len = n;
}

/* One run with allocator `a` (fail_at 0: undisturbed).  Fills `got`; returns the number of
 * calls whose allocation failure was observed. */
static int run_scenario(const scenario *sc, test_alloc *a, outcome *got)
{
    spvbc_allocator al = test_alloc_allocator(a);
    input_buf in;
    make_input(sc, &in);
    int failures = 0;

    int before = 0;
    /* Each step records whether the failing allocation had happened before it; a step that
     * reaches it must return OUT_OF_MEMORY (and is then retried with allocation working). */
#define STEP_FAILED(r) step_failed(a, before, (r), &failures, ctx_made)
    /* A step with a summary out-parameter `sum`, filled with 0xA5 first: on the failing
     * allocation it must stay untouched (and the input too) before `call` is retried. */
#define SUMMARY_STEP(r, call, sum)                                                                 \
    do {                                                                                           \
        memset(&(sum), 0xA5, sizeof(sum));                                                         \
        before = a->triggered;                                                                     \
        (r) = (call);                                                                              \
        if (STEP_FAILED(r)) {                                                                      \
            assert_filled_a5(&(sum), sizeof(sum));                                                 \
            check_input(&in);                                                                      \
            (r) = (call);                                                                          \
        }                                                                                          \
    } while (0)

    /* context */
    spvbc_context ctx_made = NULL; /* the context, once made */
    spvbc_context ctx = (spvbc_context)(uintptr_t)0x5a5a5a50u;
    before = a->triggered;
    spvbc_result r = spvbc_context_create(&al, &ctx);
    if (STEP_FAILED(r)) {
        assert_ptr_equal(ctx, (spvbc_context)(uintptr_t)0x5a5a5a50u);
        assert_int_equal(a->live_bytes, 0);
        r = spvbc_context_create(&al, &ctx);
    }
    assert_int_equal(r, SPVBC_SUCCESS);
    ctx_made = ctx;

    /* parse */
    spvbc_module m = (spvbc_module)(uintptr_t)0x5a5a5a50u;
    before = a->triggered;
    r = do_parse(ctx, sc, &in, &m);
    if (STEP_FAILED(r)) {
        assert_ptr_equal(m, (spvbc_module)(uintptr_t)0x5a5a5a50u);
        check_input(&in);
        r = do_parse(ctx, sc, &in, &m);
    }
    assert_int_equal(r, SPVBC_SUCCESS);
    check_input(&in);

    /* validate */
    spvbc_validate_options vo = {sizeof(spvbc_validate_options), sc->validate_flags,
                                 SPVBC_GENERATION_NEWEST};
    spvbc_validate_summary vs = SPVBC_VALIDATE_SUMMARY_INIT;
    SUMMARY_STEP(r, spvbc_module_validate(m, &vo, &vs), vs);
    assert_true(r == SPVBC_SUCCESS || r == SPVBC_ERROR_VALIDATION_FAILED);
    got->validate_result = r;
    got->vs = vs;
    got->validate_diags = spvbc_context_diagnostic_count(ctx);
    read_diagnostics(ctx, a, 0, &got->texts[0], &got->texts_len[0]);
    check_input(&in);

    /* lower */
    spvbc_lower_options lo = {sizeof(spvbc_lower_options), sc->pad, 0, SPVBC_GENERATION_NEWEST};
    spvbc_lower_summary ls = SPVBC_LOWER_SUMMARY_INIT;
    SUMMARY_STEP(r, spvbc_module_lower(m, &lo, &ls), ls);
    assert_int_equal(r, ls.refused ? SPVBC_PARTIAL : SPVBC_SUCCESS);
    got->ls = ls;
    check_input(&in);
    read_diagnostics(ctx, a, 0, &got->texts[1], &got->texts_len[1]);

    /* get_words (a failure there adds R-MEMORY after the lowering's diagnostics) */
    int words_failed = 0;
    const uint32_t *w = (const uint32_t *)(uintptr_t)0x5a5a5a50u;
    size_t n = 777;
    before = a->triggered;
    r = spvbc_module_get_words(m, &w, &n);
    if (STEP_FAILED(r)) {
        words_failed = 1;
        assert_ptr_equal(w, (const uint32_t *)(uintptr_t)0x5a5a5a50u);
        assert_int_equal(n, 777);
        check_input(&in);
        r = spvbc_module_get_words(m, &w, &n);
    }
    assert_int_equal(r, SPVBC_SUCCESS);
    got->out = (uint32_t *)malloc(n * 4 + 4);
    assert_non_null(got->out);
    memcpy(got->out, w, n * 4);
    got->out_n = n;
    check_input(&in);
#undef SUMMARY_STEP
#undef STEP_FAILED

    /* lower's findings still readable, the same, after their module is gone */
    spvbc_module_destroy(m);
    char *after;
    size_t after_len;
    read_diagnostics(ctx, a, words_failed, &after, &after_len);
    if (after_len != got->texts_len[1] || memcmp(after, got->texts[1], after_len) != 0)
        fail_msg("the lowering's diagnostics changed when its module was destroyed");
    free(after);
    spvbc_context_destroy(ctx);
    assert_int_equal(a->bad_free, 0);
    assert_int_equal(a->live_bytes, 0);
    assert_int_equal(a->live_blocks, 0);
    check_input(&in);
    free_input(&in);
    return failures;
}

static void free_outcome(outcome *o)
{
    free(o->out);
    free(o->texts[0]);
    free(o->texts[1]);
}

static void check_same_outcome(const outcome *ref, const outcome *got, size_t fail_at)
{
    if (got->out_n != ref->out_n || memcmp(got->out, ref->out, ref->out_n * 4) != 0)
        fail_msg("output differs from the undisturbed run after failing allocation %zu", fail_at);
    assert_int_equal(got->validate_result, ref->validate_result);
    assert_int_equal(got->validate_diags, ref->validate_diags);
    assert_memory_equal(&got->vs, &ref->vs, sizeof ref->vs);
    assert_memory_equal(&got->ls, &ref->ls, sizeof ref->ls);
    for (int k = 0; k < 2; ++k)
        if (got->texts_len[k] != ref->texts_len[k] ||
            memcmp(got->texts[k], ref->texts[k], ref->texts_len[k]) != 0)
            fail_msg("the %s diagnostics differ from the undisturbed run's after failing "
                     "allocation %zu:\n%s\n--- undisturbed:\n%s",
                     k ? "lower" : "validate", fail_at, got->texts[k], ref->texts[k]);
}

/* Runs one scenario for every N (single and sticky failure); returns the allocation count of
 * the undisturbed run. */
static size_t fail_every_allocation(const scenario *sc)
{
    test_alloc a;
    memset(&a, 0, sizeof a);
    outcome ref;
    memset(&ref, 0, sizeof ref);
    assert_int_equal(run_scenario(sc, &a, &ref), 0);
    const size_t total = a.calls;
    assert_true(total >= 2);

    for (int sticky = 0; sticky < 2; ++sticky) {
        for (size_t n = 1;; ++n) {
            memset(&a, 0, sizeof a);
            a.fail_at = n;
            a.sticky = sticky;
            outcome got;
            memset(&got, 0, sizeof got);
            int failures = run_scenario(sc, &a, &got);
            check_same_outcome(&ref, &got, n);
            free_outcome(&got);
            if (!a.triggered) {
                assert_int_equal(failures, 0);
                assert_true(n > total);
                break;
            }
            assert_int_equal(failures, 1);
        }
    }
    free_outcome(&ref);
    return total;
}

/* ---- tests ----------------------------------------------------------------------------- */

static void check_reference_valid(const scenario *sc)
{
    test_alloc a;
    memset(&a, 0, sizeof a);
    outcome ref;
    memset(&ref, 0, sizeof ref);
    run_scenario(sc, &a, &ref);
    assert_true(ref.ls.rewritten > 0);
    assert_int_equal(ref.ls.refused, 0);
    char msg[1024];
    if (spvval_check(ref.out, ref.out_n, msg, sizeof msg) != 1)
        fail_msg("spirv-val rejects the lowered sample: %s", msg);
    if (spvval_check(sc->words, sc->n, msg, sizeof msg) != 0)
        fail_msg("the sample was valid before lowering");
    free_outcome(&ref);
}

static void test_samples(void **state)
{
    (void)state;
    mb b = {0};
    for (int which = 0; mb_sample_module(which, &b); ++which) {
        for (int pad = SPVBC_PAD_UNDEF; pad <= SPVBC_PAD_ZERO; ++pad) {
            for (int way = 0; way < WAY_COUNT; ++way) {
                scenario sc = {b.w, b.n, (input_way)way, (spvbc_pad_policy)pad,
                               way == 0 ? SPVBC_VALIDATE_NOTES : 0u};
                if (way == 0) check_reference_valid(&sc);
                size_t total = fail_every_allocation(&sc);
                print_message("sample %d pad %d way %d: %zu allocations\n", which, pad, way, total);
            }
        }
    }
    mb_free(&b);
}

/* 3->4 under pad zero adds a type and a null constant: check the summary says so. */
static void test_pad_zero_adds(void **state)
{
    (void)state;
    mb b = {0};
    assert_true(mb_sample_module(0, &b));
    scenario sc = {b.w, b.n, WAY_WORDS, SPVBC_PAD_ZERO, 0};
    test_alloc a;
    memset(&a, 0, sizeof a);
    outcome ref;
    memset(&ref, 0, sizeof ref);
    run_scenario(&sc, &a, &ref);
    assert_int_equal(ref.ls.rewritten, 2);
    assert_int_equal(ref.ls.types_added, 1);
    assert_int_equal(ref.ls.constants_added, 1);
    free_outcome(&ref);
    mb_free(&b);
}

/* A module with errors lower cannot fix: diagnostics (with names, types, source lines) are the
 * allocations at stake; the output keeps the refused bitcast, which spirv-val still rejects. */
static void test_refused_and_pad_error(void **state)
{
    (void)state;
    mb b = {0};
    sm s;
    sm_init(&s, 0, 0x00010000u);
    uint32_t file = sm_string(&s, "refused.cl");
    uint32_t f3 = sm_type(&s, SM_F32(3)), f4 = sm_type(&s, SM_F32(4));
    uint32_t d2 = sm_type(&s, SM_F64(2)), i1 = sm_type(&s, SM_I32(1));
    sm_begin(&s);
    sm_line(&s, file, 3, 1);
    uint32_t y = sm_bitcast(&s, d2, sm_undef(&s, f3)); /* 3->4 padded: pad error refuses */
    sm_name(&s, y, "y");
    sm_bitcast(&s, f3, sm_undef(&s, f4)); /* 4->3: lowered */
    sm_line(&s, file, 4, 1);
    sm_bitcast(&s, i1, sm_undef(&s, f4)); /* size error: refused */
    sm_finish(&s, &b);

    for (int pad = 0; pad < 3; ++pad) {
        scenario sc = {b.w, b.n, WAY_WORDS, (spvbc_pad_policy)pad,
                       SPVBC_VALIDATE_NOTES | SPVBC_VALIDATE_STRICT};
        fail_every_allocation(&sc);
        test_alloc a;
        memset(&a, 0, sizeof a);
        outcome ref;
        memset(&ref, 0, sizeof ref);
        run_scenario(&sc, &a, &ref);
        assert_int_equal(ref.ls.refused, pad == SPVBC_PAD_ERROR ? 2 : 1);
        char msg[1024];
        assert_int_equal(spvval_check(ref.out, ref.out_n, msg, sizeof msg), 0);
        assert_non_null(strstr(msg, "Bitcast"));
        free_outcome(&ref);
    }
    mb_free(&b);
}

/* Validate finds exactly one `rule` in module `b` (notes on), lower rewrites nothing (`refused`
 * sites kept) and the output is the input word for word; then the scenario under every
 * allocation failure.  Frees `b`. */
static void check_finding_alone(mb *b, const char *rule, int refused)
{
    scenario sc = {b->w, b->n, WAY_WORDS, SPVBC_PAD_UNDEF, SPVBC_VALIDATE_NOTES};
    test_alloc a;
    memset(&a, 0, sizeof a);
    outcome ref;
    memset(&ref, 0, sizeof ref);
    run_scenario(&sc, &a, &ref);
    if (ref.validate_diags != 1 || !strstr(ref.texts[0], rule))
        fail_msg("expected one %s, got %zu: %s", rule, ref.validate_diags, ref.texts[0]);
    assert_int_equal(ref.ls.rewritten, 0);
    assert_int_equal(ref.ls.refused, refused);
    assert_int_equal(ref.out_n, b->n);
    assert_memory_equal(ref.out, b->w, b->n * 4);
    free_outcome(&ref);
    fail_every_allocation(&sc);
    mb_free(b);
}

/* A valid OpBitcast that no as_type maps: four Float8E4M3EXT to four Float8E5M2EXT (SPIR-V's
 * FPEncoding values 4214 and 4215, capability Float8EXT 4212). */
static void not_astype_module(mb *b)
{
    mb_header(b, 0x00010600u, 13);
    MB(b, SpvOpCapability, SpvCapabilityShader);
    MB(b, SpvOpCapability, 4212u);
    mb_extension(b, "SPV_EXT_float8");
    MB(b, SpvOpMemoryModel, SpvAddressingModelLogical, SpvMemoryModelGLSL450);
    mb_void_fn_type(b, 2, 3);
    MB(b, SpvOpTypeFloat, 4, 8, 4214u);
    MB(b, SpvOpTypeFloat, 5, 8, 4215u);
    MB(b, SpvOpTypeVector, 6, 4, 4);
    MB(b, SpvOpTypeVector, 7, 5, 4);
    mb_fn_begin(b, 2, 1, 3, 8);
    MB(b, SpvOpUndef, 6, 9);
    MB(b, SpvOpBitcast, 7, 10, 9);
    mb_fn_end(b);
}

/* One module per kind of validate finding, each the module's only bitcast, so that the
 * finding is the first record (whose store grows then): a failed record must end the call with
 * OUT_OF_MEMORY, not be dropped while the call goes on.  Nothing is lowered (the S7 site is
 * refused): the output is the input, word for word. */
static void test_findings_of_each_kind(void **state)
{
    (void)state;
    enum { K_S2, K_S4, K_S3_WIDTH, K_LOGICAL_PTR, K_S7, K_IMPL_DEFINED, K_NOT_ASTYPE, K_COUNT };
    static const char *const rules[K_COUNT] = {
        "S2", "S4", "S3-WIDTH", "W-LOGICAL-PTR", "S7", "N-IMPL-DEFINED", "N-NOT-ASTYPE"};
    for (int kind = 0; kind < K_COUNT; ++kind) {
        mb b = {0};
        if (kind == K_NOT_ASTYPE) {
            not_astype_module(&b);
            check_finding_alone(&b, rules[kind], 0);
            continue;
        }
        sm s;
        sm_init(&s, kind == K_LOGICAL_PTR || kind == K_S7, 0x00010300u);
        if (kind == K_S7) {
            uint32_t f = sm_type(&s, SM_F32(1)), i = sm_type(&s, SM_I32(1));
            sm_spec_bitcast(&s, i, sm_spec_const(&s, f, 0x3f800000u));
            sm_begin(&s);
        } else if (kind == K_S2 || kind == K_IMPL_DEFINED) {
            uint32_t i = sm_type(&s, SM_I32(1)), f4 = sm_type(&s, SM_F32(4));
            uint32_t s2 = sm_type(&s, SM_I16(2));
            sm_begin(&s);
            if (kind == K_S2)
                sm_bitcast(&s, f4, sm_undef(&s, f4));
            else
                sm_bitcast(&s, s2, sm_undef(&s, i)); /* as_short2(int) */
        } else {
            uint32_t f = sm_type(&s, SM_F32(1)), u = sm_type(&s, SM_I32(1));
            uint32_t storage = kind == K_LOGICAL_PTR ? SpvStorageClassStorageBuffer
                                                     : SpvStorageClassCrossWorkgroup;
            uint32_t pf = sm_ptr(&s, storage, f), pu = sm_ptr(&s, storage, u);
            uint32_t pfn = sm_ptr(&s, SpvStorageClassFunction, f);
            sm_begin(&s);
            uint32_t x = sm_undef(&s, pf);
            sm_bitcast(&s, kind == K_S4 ? pfn : kind == K_S3_WIDTH ? u : pu, x);
        }
        sm_finish(&s, &b);
        check_finding_alone(&b, rules[kind], kind == K_S7);
    }
}

/* Lowering twice (the module keeps the parsed input) under allocation failure. */
static void test_lower_twice(void **state)
{
    (void)state;
    mb b = {0};
    assert_true(mb_sample_module(1, &b));
    for (size_t n = 1;; ++n) {
        test_alloc a;
        memset(&a, 0, sizeof a);
        spvbc_allocator al = test_alloc_allocator(&a);
        spvbc_context ctx;
        assert_int_equal(spvbc_context_create(&al, &ctx), SPVBC_SUCCESS);
        spvbc_module m;
        assert_int_equal(spvbc_module_parse(ctx, b.w, b.n, NULL, &m), SPVBC_SUCCESS);
        spvbc_lower_options zero = {sizeof(spvbc_lower_options), SPVBC_PAD_ZERO, 0,
                                    SPVBC_GENERATION_NEWEST},
                            undef = {sizeof(spvbc_lower_options), SPVBC_PAD_UNDEF, 0,
                                     SPVBC_GENERATION_NEWEST};
        assert_int_equal(spvbc_module_lower(m, &zero, NULL), SPVBC_SUCCESS);
        const uint32_t *w1;
        size_t n1;
        assert_int_equal(spvbc_module_get_words(m, &w1, &n1), SPVBC_SUCCESS);
        uint32_t *first = (uint32_t *)malloc(n1 * 4);
        assert_non_null(first);
        memcpy(first, w1, n1 * 4);
        a.fail_at = a.calls + n;
        spvbc_result r = spvbc_module_lower(m, &undef, NULL);
        if (r == SPVBC_ERROR_OUT_OF_MEMORY) {
            a.fail_at = 0;
            assert_int_equal(spvbc_module_lower(m, &undef, NULL), SPVBC_SUCCESS);
        } else {
            assert_int_equal(r, SPVBC_SUCCESS);
        }
        const uint32_t *w2;
        size_t n2;
        r = spvbc_module_get_words(m, &w2, &n2);
        if (r == SPVBC_ERROR_OUT_OF_MEMORY) {
            a.fail_at = 0;
            assert_int_equal(spvbc_module_get_words(m, &w2, &n2), SPVBC_SUCCESS);
        }
        char msg[1024];
        if (spvval_check(w2, n2, msg, sizeof msg) != 1) fail_msg("invalid output: %s", msg);
        /* Lowering again with pad zero gives the first output again. */
        a.fail_at = 0;
        assert_int_equal(spvbc_module_lower(m, &zero, NULL), SPVBC_SUCCESS);
        assert_int_equal(spvbc_module_get_words(m, &w1, &n1), SPVBC_SUCCESS);
        assert_memory_equal(w1, first, n1 * 4);
        free(first);
        int triggered = a.triggered;
        spvbc_context_destroy(ctx); /* destroys the module too */
        assert_int_equal(a.bad_free, 0);
        assert_int_equal(a.live_bytes, 0);
        if (!triggered) break;
    }
    mb_free(&b);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_samples),
        cmocka_unit_test(test_pad_zero_adds),
        cmocka_unit_test(test_refused_and_pad_error),
        cmocka_unit_test(test_lower_twice),
        cmocka_unit_test(test_findings_of_each_kind),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
