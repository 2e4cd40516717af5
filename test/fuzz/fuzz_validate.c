/*
 * fuzz_validate.c - spvbc_module_validate on whatever parses.
 *
 * Properties: the result is SUCCESS or VALIDATION_FAILED and agrees with the summary; the
 * summary counts equal the diagnostics by severity; notes only when asked for; every
 * diagnostic is well-formed and points at a bitcast site; validating twice gives the same
 * findings; and the verdict agrees with SPIRV-Tools' validator (built with
 * SPVBC_FUZZ_SPIRV_VAL): a module spirv-val accepts has no error (OpSpecConstantOp Bitcast
 * included: what only newer SPIRV-Tools rejects there is the warning W-SPEC-BITCAST), and a
 * module spirv-val rejects with an OpBitcast message (": Bitcast") has at least one error; and the
 * diagnostic policies (keep-first N, count-only) give the same summary and keep-all's first
 * findings.
 */
#include "fuzz_harness.h"

static spvbc_result validate_pass(spvbc_module m, const void *options, void *summary)
{
    return spvbc_module_validate(m, (const spvbc_validate_options *)options,
                                 (spvbc_validate_summary *)summary);
}

typedef struct snapshot {
    spvbc_validate_summary s;
    size_t count;
    char *text; /* rules, offsets and messages joined */
} snapshot;

static void take(spvbc_context ctx, const spvbc_validate_summary *s, snapshot *out)
{
    out->s = *s;
    out->count = spvbc_context_diagnostic_count(ctx);
    size_t len = 1;
    for (size_t i = 0; i < out->count; ++i) {
        const spvbc_diagnostic *d = spvbc_context_diagnostic(ctx, i);
        len += strlen(d->rule) + strlen(d->message) + 48;
    }
    out->text = (char *)malloc(len);
    FUZZ_CHECK(out->text != NULL, "harness memory");
    size_t at = 0;
    out->text[0] = '\0';
    for (size_t i = 0; i < out->count; ++i) {
        const spvbc_diagnostic *d = spvbc_context_diagnostic(ctx, i);
        int k = snprintf(out->text + at, len - at, "%zu %d %s %s\n", d->word_offset,
                         (int)d->severity, d->rule, d->message);
        if (k > 0) at += (size_t)k;
    }
}

int spvbc_fuzz_validate(const uint8_t *data, size_t size)
{
    fuzz_input in;
    if (!fuzz_input_open(&in, data, size)) return 0;
    const uint32_t bits = in.bits;
    const size_t n = in.n;
    const uint32_t *h = in.h;
    spvbc_context ctx = in.ctx;
    spvbc_module m = in.m;
    const spvbc_module_info info = in.info;

    /* Generation 2023.1 (that of the linked spirv-val below) or the newest, by a bit. */
    const uint32_t gen = (bits >> 7) & 1u ? SPVBC_GENERATION_NEWEST : SPVBC_GENERATION_2023_1;
    spvbc_validate_options vo = {sizeof(spvbc_validate_options), (bits >> 4) & 7u, gen};
    spvbc_validate_summary s = SPVBC_VALIDATE_SUMMARY_INIT;
    spvbc_result r = spvbc_module_validate(m, &vo, &s);
    FUZZ_CHECK(r == SPVBC_SUCCESS || r == SPVBC_ERROR_VALIDATION_FAILED, "validate result");
    FUZZ_CHECK((r == SPVBC_SUCCESS) == (s.errors == 0), "result agrees with the error count");
    FUZZ_CHECK(s.bitcasts_checked == info.bitcast_count, "every site checked");
    FUZZ_CHECK(s.lowerable <= s.errors, "lowerable errors are errors");
    if (vo.flags & SPVBC_VALIDATE_WARNINGS_AS_ERRORS)
        FUZZ_CHECK(s.warnings == 0, "warnings became errors");
    fuzz_check_diags(ctx, n, h, info.instruction_count);

    size_t e = 0, wn = 0, no = 0, low = 0, unknown = 0;
    const size_t count = spvbc_context_diagnostic_count(ctx);
    FUZZ_CHECK(count == s.errors + s.warnings + s.notes, "one diagnostic per finding");
    for (size_t i = 0; i < count; ++i) {
        const spvbc_diagnostic *d = spvbc_context_diagnostic(ctx, i);
        if (d->severity == SPVBC_SEVERITY_ERROR) {
            e++;
            if (d->lowerable) low++;
        } else if (d->severity == SPVBC_SEVERITY_WARNING) {
            wn++;
        } else {
            no++;
            if (strcmp(d->rule, "N-UNKNOWN-OPCODE") == 0 || strcmp(d->rule, "N-UNSIZED") == 0)
                unknown++;
        }
        FUZZ_CHECK(d->word_offset >= 5 && d->word_offset < n, "findings point at instructions");
        const uint32_t op = h[d->word_offset] & 0xFFFFu;
        FUZZ_CHECK(op == 124 || op == 52 || op == 4195, "findings point at bitcast sites");
        FUZZ_CHECK(d->opcode == op, "opcode of the site");
        FUZZ_CHECK(d->result_id == h[d->word_offset + 2], "result id of the site");
    }
    FUZZ_CHECK(e == s.errors && wn == s.warnings && no == s.notes, "summary counts");
    FUZZ_CHECK(low == s.lowerable, "lowerable count");
    /* Without SPVBC_VALIDATE_NOTES the only notes are the ones that stand for a verdict that
     * cannot be given (N-UNKNOWN-OPCODE: a side depends on an opcode this build does not know;
     * N-UNSIZED: a side has no size yet). */
    if (!(vo.flags & SPVBC_VALIDATE_NOTES)) FUZZ_CHECK(s.notes == unknown, "notes only when asked");

    /* Deterministic: the same findings again. */
    snapshot a, b;
    take(ctx, &s, &a);
    spvbc_validate_summary s2 = SPVBC_VALIDATE_SUMMARY_INIT;
    FUZZ_CHECK(spvbc_module_validate(m, &vo, &s2) == r, "same verdict twice");
    take(ctx, &s2, &b);
    FUZZ_CHECK(memcmp(&a.s, &b.s, sizeof a.s) == 0 && a.count == b.count &&
                   strcmp(a.text, b.text) == 0,
               "same findings twice");
    free(a.text);
    free(b.text);

    /* Keep-first and count-only agree with keep-all. */
    fuzz_check_policies(&in, validate_pass, &vo, sizeof(spvbc_validate_summary));

    /* The generation between the two (2025.1): a verdict that agrees with its summary. */
    spvbc_validate_options mid = vo;
    mid.generation = SPVBC_GENERATION_2025_1;
    spvbc_validate_summary ms = SPVBC_VALIDATE_SUMMARY_INIT;
    const spvbc_result mr = spvbc_module_validate(m, &mid, &ms);
    FUZZ_CHECK((mr == SPVBC_SUCCESS) == (ms.errors == 0) &&
                   (mr == SPVBC_SUCCESS || mr == SPVBC_ERROR_VALIDATION_FAILED) &&
                   ms.bitcasts_checked == info.bitcast_count,
               "generation 2025.1: result, error count and sites agree");

#ifdef SPVBC_FUZZ_SPIRV_VAL
    /* Differential check against SPIRV-Tools 2023.1 on small modules, default flags only. */
    if (n <= 4096 && (vo.flags & ~SPVBC_VALIDATE_NOTES) == 0 && gen == SPVBC_GENERATION_2023_1) {
        char msg[2048];
        int v = spvbc_fuzz_spirv_val(h, n, msg, sizeof msg);
        if (v == 1) {
            if (s.errors != 0) {
                const spvbc_diagnostic *d = NULL;
                for (size_t i = 0; i < count && !d; ++i)
                    if (spvbc_context_diagnostic(ctx, i)->severity == SPVBC_SEVERITY_ERROR)
                        d = spvbc_context_diagnostic(ctx, i);
                fprintf(stderr, "spvbc reports [%s] %s at word %zu\n", d ? d->rule : "?",
                        d ? d->message : "?", d ? d->word_offset : 0);
            }
            FUZZ_CHECK(s.errors == 0, "spirv-val accepts the module: no error");
        }
        if (v == 0 && strstr(msg, ": Bitcast\n")) {
            if (s.errors == 0) fprintf(stderr, "spirv-val: %s\n", msg);
            FUZZ_CHECK(s.errors > 0, "spirv-val rejects a bitcast: an error");
        }
    }
#endif

    fuzz_input_close(&in);
    return 0;
}

SPVBC_FUZZ_ENTRY(spvbc_fuzz_validate)
