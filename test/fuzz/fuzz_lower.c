/*
 * fuzz_lower.c - spvbc_module_lower under every padding policy.
 *
 * Properties, for each policy (and the class selection the option bits give):
 *   - lower returns SUCCESS; the summary is consistent; get_words and write agree;
 *   - the output header keeps magic, version, generator and schema, and its bound is
 *     new_id_bound; without rewrites the output is the input;
 *   - the output parses again, and lowering it changes nothing (no rewrite, same words, the
 *     same refusals);
 *   - lowering the same module again gives the same output;
 *   - validate on the output reports errors (or W-SPEC-BITCAST) at exactly the refused and
 *     skipped bitcasts and those lower kept with W-SPEC-BITCAST;
 *   - if SPIRV-Tools accepts the input, it accepts the output (SPVBC_FUZZ_SPIRV_VAL);
 *   - where spvbc_bytes_scan_lowerable() says lowering cannot change the input, nothing is
 * rewritten or skipped; and the diagnostic policies (keep-first N, count-only) give the same
 * summary and keep-all's first findings.
 */
#include "fuzz_harness.h"

/* A W-SPEC-BITCAST finding: an OpSpecConstantOp Bitcast that breaks a rule SPIRV-Tools 2025.1
 * does not check there (a warning of validate; lower leaves the ones it cannot rewrite alone). */
static int is_spec_bitcast(const spvbc_diagnostic *d)
{
    return d && d->rule && strcmp(d->rule, "W-SPEC-BITCAST") == 0;
}

static spvbc_result lower_pass(spvbc_module m, const void *options, void *summary)
{
    return spvbc_module_lower(m, (const spvbc_lower_options *)options,
                              (spvbc_lower_summary *)summary);
}

static void lower_once(spvbc_context ctx, spvbc_module m, const spvbc_module_info *info,
                       const uint32_t *h, size_t n, spvbc_pad_policy pad, uint32_t classes,
                       int input_valid, uint32_t max_id_bound, int may_lower)
{
    spvbc_lower_options lo = {sizeof(spvbc_lower_options), pad, classes, SPVBC_GENERATION_NEWEST};
    spvbc_lower_summary ls = SPVBC_LOWER_SUMMARY_INIT;
    spvbc_result lr = spvbc_module_lower(m, &lo, &ls);
    if (lr == SPVBC_ERROR_UNSUPPORTED) {
        /* The output's bound would pass the parse cap: nothing changes, R-LIMIT says why. */
        const uint32_t *same = NULL;
        size_t same_n = 0;
        FUZZ_CHECK(spvbc_module_get_words(m, &same, &same_n) == SPVBC_SUCCESS, "get_words");
        FUZZ_CHECK(same_n == n && memcmp(same, h, n * 4) == 0, "over the cap: the input");
        const spvbc_diagnostic *d = spvbc_context_diagnostic(ctx, 0);
        FUZZ_CHECK(d && !strcmp(d->rule, "R-LIMIT"), "over the cap: an R-LIMIT diagnostic");
        (void)info;
        (void)input_valid;
        (void)max_id_bound;
        return;
    }
    FUZZ_CHECK(lr == (ls.refused ? SPVBC_PARTIAL : SPVBC_SUCCESS),
               "lower succeeds, SPVBC_PARTIAL exactly when it refused something");
    FUZZ_CHECK(ls.bitcasts_checked == info->bitcast_count, "every site checked");
    FUZZ_CHECK(ls.rewritten + ls.refused + ls.skipped <= ls.bitcasts_checked,
               "rewritten + refused + skipped");
    if (classes == 0) FUZZ_CHECK(ls.skipped == 0, "nothing skipped with every class selected");
    if (!may_lower)
        FUZZ_CHECK(ls.rewritten == 0 && ls.skipped == 0,
                   "nothing lowerable where spvbc_bytes_scan_lowerable says so");
    FUZZ_CHECK(ls.new_id_bound >= info->id_bound, "bound only grows");
    FUZZ_CHECK(ls.types_added + ls.constants_added <= ls.new_id_bound - info->id_bound,
               "every addition has a new id");
    if (ls.rewritten == 0)
        FUZZ_CHECK(ls.types_added == 0 && ls.constants_added == 0, "no additions without rewrites");
    if (pad != SPVBC_PAD_ZERO)
        FUZZ_CHECK(ls.constants_added == 0, "null constants only for pad zero");

    const uint32_t *out = NULL;
    size_t out_n = 0;
    FUZZ_CHECK(spvbc_module_get_words(m, &out, &out_n) == SPVBC_SUCCESS, "get_words");
    FUZZ_CHECK(out_n >= 5, "output has a header");
    FUZZ_CHECK(out[0] == 0x07230203u && out[1] == h[1] && out[2] == h[2] && out[4] == 0,
               "output header");
    if (ls.rewritten == 0) {
        FUZZ_CHECK(out_n == n && memcmp(out, h, n * 4) == 0, "nothing rewritten: the input");
    } else {
        FUZZ_CHECK(out[3] == ls.new_id_bound, "output bound");
    }
    fuzz_collect c = {out, out_n, 0, 0};
    FUZZ_CHECK(spvbc_module_write(m, fuzz_collect_fn, &c) == SPVBC_SUCCESS, "write");
    FUZZ_CHECK(!c.mismatch && c.at == out_n, "write streams what get_words returns");

    uint32_t *first = (uint32_t *)malloc(out_n * 4);
    FUZZ_CHECK(first != NULL, "harness memory");
    memcpy(first, out, out_n * 4);

    /* The same lowering again on the same module. */
    spvbc_lower_summary ls_again = SPVBC_LOWER_SUMMARY_INIT;
    FUZZ_CHECK(spvbc_module_lower(m, &lo, &ls_again) == lr, "lower again");
    FUZZ_CHECK(memcmp(&ls, &ls_again, sizeof ls) == 0, "same summary again");
    FUZZ_CHECK(spvbc_module_get_words(m, &out, &out_n) == SPVBC_SUCCESS, "get_words again");
    FUZZ_CHECK(out_n == c.n && memcmp(out, first, out_n * 4) == 0, "same output again");

    /* The output parses, lowering it changes nothing, and its errors are the refusals. */
    spvbc_context ctx2;
    FUZZ_CHECK(spvbc_context_create(NULL, &ctx2) == SPVBC_SUCCESS, "context");
    /* Parsed with the input's cap: the lowering keeps the output's bound within it. */
    spvbc_parse_options po = SPVBC_PARSE_OPTIONS_INIT;
    po.max_id_bound = max_id_bound;
    spvbc_module m2 = NULL;
    spvbc_result pr = spvbc_module_parse(ctx2, first, out_n, &po, &m2);
    if (pr != SPVBC_SUCCESS) {
        const spvbc_diagnostic *d = spvbc_context_diagnostic(ctx2, 0);
        fprintf(stderr, "output does not parse: %s at word %zu\n", d ? d->message : "?",
                d ? d->word_offset : 0);
    }
    FUZZ_CHECK(pr == SPVBC_SUCCESS, "the output parses again");
    spvbc_lower_summary ls2 = SPVBC_LOWER_SUMMARY_INIT;
    FUZZ_CHECK(spvbc_module_lower(m2, &lo, &ls2) == lr, "lower the output");
    FUZZ_CHECK(ls2.rewritten == 0, "lowering the output rewrites nothing");
    FUZZ_CHECK(ls2.refused == ls.refused, "the same refusals");
    const uint32_t *out2 = NULL;
    size_t out2_n = 0;
    FUZZ_CHECK(spvbc_module_get_words(m2, &out2, &out2_n) == SPVBC_SUCCESS, "get_words");
    FUZZ_CHECK(out2_n == out_n && memcmp(out2, first, out_n * 4) == 0,
               "lowering the output changes nothing");
    /* The sites lower left alone with a W-SPEC-BITCAST warning (a rule SPIRV-Tools 2025.1
     * does not check in OpSpecConstantOp): not refused. */
    size_t kept_spec = 0;
    for (size_t i = 0; i < spvbc_context_diagnostic_count(ctx2); ++i)
        kept_spec += (size_t)is_spec_bitcast(spvbc_context_diagnostic(ctx2, i));
    /* validate (default flags) on the output: the sites with errors or W-SPEC-BITCAST are the
     * refused, skipped and kept ones, and with every class selected and a padding policy that
     * pads, none is lowerable. */
    spvbc_validate_summary vs2 = SPVBC_VALIDATE_SUMMARY_INIT;
    (void)spvbc_module_validate(m2, NULL, &vs2);
    size_t sites_with_errors = 0, last = SPVBC_NO_POSITION;
    for (size_t i = 0; i < spvbc_context_diagnostic_count(ctx2); ++i) {
        const spvbc_diagnostic *d = spvbc_context_diagnostic(ctx2, i);
        const int spec = is_spec_bitcast(d);
        /* W-LOGICAL-PTR (an error in generation 2026.4) is no OpBitcast rule: the lowering
         * neither rewrites nor refuses it. */
        const int logical = strcmp(d->rule, "W-LOGICAL-PTR") == 0;
        if ((d->severity != SPVBC_SEVERITY_ERROR && !spec) || logical || d->word_offset == last)
            continue;
        last = d->word_offset;
        sites_with_errors++;
        if (spec && classes == 0 && pad != SPVBC_PAD_ERROR)
            FUZZ_CHECK(!d->lowerable, "no lowerable W-SPEC-BITCAST is left behind");
    }
    FUZZ_CHECK(sites_with_errors == ls.refused + ls.skipped + kept_spec,
               "the output's errors and W-SPEC-BITCAST are the refused, skipped and kept sites");
    if (classes == 0 && pad != SPVBC_PAD_ERROR)
        FUZZ_CHECK(vs2.lowerable == 0, "nothing lowerable is left behind");
    spvbc_module_destroy(m2);
    spvbc_context_destroy(ctx2);

#ifdef SPVBC_FUZZ_SPIRV_VAL
    if (input_valid == 1) {
        char msg[2048];
        int v = spvbc_fuzz_spirv_val(first, out_n, msg, sizeof msg);
        if (v != 1) fprintf(stderr, "spirv-val rejects the output (pad %d): %s\n", (int)pad, msg);
        FUZZ_CHECK(v == 1, "valid input gives valid output");
    }
#else
    (void)input_valid;
#endif
    free(first);
}

int spvbc_fuzz_lower(const uint8_t *data, size_t size)
{
    fuzz_input in;
    if (!fuzz_input_open(&in, data, size)) return 0;
    int input_valid = -1;
#ifdef SPVBC_FUZZ_SPIRV_VAL
    if (in.n <= 4096) input_valid = spvbc_fuzz_spirv_val(in.h, in.n, NULL, 0);
#endif
    /* classes: 0 (all) or a subset from the option bits */
    const uint32_t classes = ((in.bits >> 8) & 0xFu) << SPVBC_ASTYPE_4_TO_3;
    int may_lower = 1;
    FUZZ_CHECK(spvbc_bytes_scan_lowerable(in.ctx, in.h, in.n * 4u, &may_lower) == SPVBC_SUCCESS,
               "spvbc_bytes_scan_lowerable");
    for (int pad = 0; pad < 3; ++pad)
        lower_once(in.ctx, in.m, &in.info, in.h, in.n, (spvbc_pad_policy)pad, classes, input_valid,
                   fuzz_parse_options(in.bits).max_id_bound, may_lower);
    /* Keep-first and count-only agree with keep-all (the notes of rewrites included). */
    const spvbc_lower_options lo = {sizeof(spvbc_lower_options), SPVBC_PAD_UNDEF, classes,
                                    SPVBC_GENERATION_NEWEST};
    fuzz_check_policies(&in, lower_pass, &lo, sizeof(spvbc_lower_summary));
    /* The older generations' rules (lower_once uses the newest): the result agrees with the
     * summary, every site is checked. */
    static const uint32_t older[] = {SPVBC_GENERATION_2023_1, SPVBC_GENERATION_2025_1};
    for (size_t g = 0; g < sizeof older / sizeof older[0]; ++g) {
        const spvbc_lower_options og = {sizeof(spvbc_lower_options), SPVBC_PAD_UNDEF, classes,
                                        older[g]};
        spvbc_lower_summary os = SPVBC_LOWER_SUMMARY_INIT;
        const spvbc_result r = spvbc_module_lower(in.m, &og, &os);
        FUZZ_CHECK(r == SPVBC_ERROR_UNSUPPORTED ||
                       (r == (os.refused ? SPVBC_PARTIAL : SPVBC_SUCCESS) &&
                        os.bitcasts_checked == in.info.bitcast_count),
                   "an older generation: result and summary agree");
    }
    fuzz_input_close(&in);
    return 0;
}

SPVBC_FUZZ_ENTRY(spvbc_fuzz_lower)
