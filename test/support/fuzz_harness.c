/*
 * fuzz_harness.c - the fuzz targets' plumbing (fuzz_harness.h), and the one translation unit of
 * the fuzz targets that includes SPIRV-Tools' C header (it defines a const object,
 * kDefaultMaxIdBound, that two C files cannot share).
 */
#include "fuzz_harness.h"
#include "spvval.h"

int spvbc_fuzz_spirv_val(const uint32_t *words, size_t n, char *msg, size_t msg_size)
{
    return spvval_check(words, n, msg, msg_size);
}

int fuzz_collect_fn(void *user, const uint32_t *words, size_t count)
{
    fuzz_collect *c = (fuzz_collect *)user;
    if (c->at + count > c->n || memcmp(c->expect + c->at, words, count * 4) != 0) c->mismatch = 1;
    c->at += count;
    return 0;
}

int fuzz_input_open(fuzz_input *in, const uint8_t *data, size_t size)
{
    memset(in, 0, sizeof *in);
    if (size % 4 != 0 || size < 20) return 0;
    in->bits = fuzz_option_bits(data, size);
    in->n = size / 4;
    in->w = fuzz_words(data, size);
    in->h = fuzz_host_words(in->w, in->n, &in->swapped);
    FUZZ_CHECK(spvbc_context_create(NULL, &in->ctx) == SPVBC_SUCCESS, "context");
    if (fuzz_parse_module(in->ctx, in->w, in->n, in->bits, &in->m) != SPVBC_SUCCESS) {
        in->m = NULL;
        fuzz_input_close(in);
        return 0;
    }
    in->info.struct_size = sizeof in->info;
    FUZZ_CHECK(spvbc_module_get_info(in->m, &in->info) == SPVBC_SUCCESS, "info");
    return 1;
}

void fuzz_input_close(fuzz_input *in)
{
    spvbc_module_destroy(in->m);
    spvbc_context_destroy(in->ctx);
    free(in->w);
    free(in->h);
    memset(in, 0, sizeof *in);
}

/* The rule and message of each diagnostic of `ctx`, joined ("rule message\n"...), the first
 * `limit` of them. */
static char *join_diagnostics(spvbc_context ctx, size_t limit)
{
    size_t count = spvbc_context_diagnostic_count(ctx), len = 1;
    if (count > limit) count = limit;
    for (size_t i = 0; i < count; ++i) {
        const spvbc_diagnostic *d = spvbc_context_diagnostic(ctx, i);
        len += strlen(d->rule) + strlen(d->message) + 2;
    }
    char *text = (char *)malloc(len);
    FUZZ_CHECK(text != NULL, "harness memory");
    size_t at = 0;
    for (size_t i = 0; i < count; ++i) {
        const spvbc_diagnostic *d = spvbc_context_diagnostic(ctx, i);
        at += (size_t)sprintf(text + at, "%s %s\n", d->rule, d->message);
    }
    text[at] = '\0';
    return text;
}

void fuzz_check_policies(fuzz_input *in, fuzz_pass_fn pass, const void *options,
                         size_t summary_size)
{
    enum { MAX_SUMMARY = 256 };
    FUZZ_CHECK(summary_size <= MAX_SUMMARY, "summary size");
    unsigned char all[MAX_SUMMARY], got[MAX_SUMMARY];
    memset(all, 0, sizeof all);
    const size_t limit = in->bits & 7u;
    FUZZ_CHECK(spvbc_context_set_diagnostic_policy(in->ctx, SPVBC_DIAGNOSTIC_POLICY_KEEP_ALL, 0) ==
                   SPVBC_SUCCESS,
               "keep all");
    const spvbc_result r_all = pass(in->m, options, all);
    const size_t count_all = spvbc_context_diagnostic_count(in->ctx);
    char *first_all = join_diagnostics(in->ctx, limit);
    const int passed = r_all == SPVBC_SUCCESS || r_all == SPVBC_ERROR_VALIDATION_FAILED;
    for (int k = 0; k < 2; ++k) {
        const spvbc_diagnostic_policy policy =
            k == 0 ? SPVBC_DIAGNOSTIC_POLICY_KEEP_FIRST : SPVBC_DIAGNOSTIC_POLICY_COUNT_ONLY;
        const size_t kept_max = k == 0 ? limit : 0;
        FUZZ_CHECK(spvbc_context_set_diagnostic_policy(in->ctx, policy, limit) == SPVBC_SUCCESS,
                   "set policy");
        memset(got, 0, sizeof got);
        FUZZ_CHECK(pass(in->m, options, got) == r_all, "the same result under every policy");
        if (!passed) continue; /* a limit error: its one diagnostic is kept by every policy */
        FUZZ_CHECK(memcmp(got, all, summary_size) == 0, "the same summary under every policy");
        const size_t kept = count_all < kept_max ? count_all : kept_max;
        const size_t dropped = count_all - kept;
        const size_t n = spvbc_context_diagnostic_count(in->ctx);
        FUZZ_CHECK(n == kept + (dropped ? 1u : 0u), "kept findings plus one note");
        char *first = join_diagnostics(in->ctx, kept);
        FUZZ_CHECK(strncmp(first, first_all, strlen(first)) == 0 &&
                       (kept == 0 || strlen(first) > 0),
                   "keep-first keeps keep-all's first findings");
        free(first);
        if (dropped) {
            const spvbc_diagnostic *note = spvbc_context_diagnostic(in->ctx, n - 1);
            FUZZ_CHECK(strcmp(note->rule, "R-NOT-KEPT") == 0 &&
                           note->severity == SPVBC_SEVERITY_NOTE,
                       "the last diagnostic says what was not kept");
            FUZZ_CHECK(strtoull(note->message, NULL, 10) == dropped, "the number not kept");
        }
    }
    free(first_all);
    FUZZ_CHECK(spvbc_context_set_diagnostic_policy(in->ctx, SPVBC_DIAGNOSTIC_POLICY_KEEP_ALL, 0) ==
                   SPVBC_SUCCESS,
               "keep all again");
}
