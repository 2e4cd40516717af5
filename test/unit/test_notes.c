/* A diagnostic says the same thing whatever options produced it: every fixture given on the
 * command line (the lit fixtures of validate and lower, assembled here with the target
 * environment of their spirv-as RUN line) is validated with and without
 * SPVBC_VALIDATE_NOTES (and with STRICT / WARNINGS_AS_ERRORS), and lowered; then
 *   - every diagnostic of a run without notes equals, field by field, the one at the same
 *     place in the run with notes (which only adds N-* notes);
 *   - each diagnostic's as_type class and definedness, as its sentence states them, are those
 *     spvbc_astype_plan() gives for its as_type pair under the module's features, and the same
 *     in validate and in lower (lowerability too, where both report the site);
 *   - where spvbc_bytes_scan_lowerable() says lowering cannot change the module, no validation
 *     (default or strict) counts a lowerable error and no lowering (pad undef or zero) rewrites
 *     anything; it must say so for some fixtures (the ones with no 3-component vector bitcast);
 *   - its answer is the one the fixture's `; SCAN: no` or `; SCAN: maybe` line pins (every
 *     fixture has one): a scan that answers "maybe" more often loses fast-path answers without
 *     being wrong, so only an exact answer per fixture notices.
 * Usage: test_notes FIXTURE.spvasm...  (exit 0 when all hold, 1 otherwise). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <spirv-tools/libspirv.h>

#include "spirv_bitcast.h"

static int failures;
static int scan_no, scan_maybe; /* spvbc_bytes_scan_lowerable()'s answers over the fixtures */

#define FAIL(...)                                                                                  \
    do {                                                                                           \
        fprintf(stderr, "FAIL: " __VA_ARGS__);                                                     \
        fputc('\n', stderr);                                                                       \
        failures++;                                                                                \
    } while (0)

static char *read_text(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    size_t cap = 1 << 16, n = 0;
    char *buf = (char *)malloc(cap);
    size_t got;
    while (buf && (got = fread(buf + n, 1, cap - n - 1, f)) > 0) {
        n += got;
        if (cap - n < 2) {
            char *nb = (char *)realloc(buf, cap * 2);
            if (!nb) {
                free(buf);
                buf = NULL;
                break;
            }
            buf = nb;
            cap *= 2;
        }
    }
    fclose(f);
    if (buf) buf[n] = 0;
    return buf;
}

/* The target environment of the fixture's `spirv-as --target-env X` RUN line (universal 1.6,
 * spirv-as' default, when it names none). */
static spv_target_env target_env_of(const char *text)
{
    spv_target_env env = SPV_ENV_UNIVERSAL_1_6;
    const char *as = strstr(text, "spirv-as ");
    if (!as) return env;
    const char *eol = strchr(as, '\n');
    const char *te = strstr(as, "--target-env ");
    if (!te || (eol && te > eol)) return env;
    char name[64];
    if (sscanf(te + 13, "%63s", name) == 1 && !spvParseTargetEnv(name, &env))
        env = SPV_ENV_UNIVERSAL_1_6;
    return env;
}

/* A copy of diagnostic `d`'s fields (the context's own go at the next call). */
typedef struct diag_copy {
    spvbc_severity severity;
    char rule[32];
    char message[2048];
    char astype[64];
    size_t word_offset;
    int lowerable;
} diag_copy;

typedef struct run {
    spvbc_result r;
    size_t n;
    diag_copy *d;
} run;

static void copy_diags(spvbc_context ctx, run *out)
{
    out->n = spvbc_context_diagnostic_count(ctx);
    out->d = (diag_copy *)calloc(out->n ? out->n : 1, sizeof *out->d);
    for (size_t i = 0; i < out->n; ++i) {
        const spvbc_diagnostic *d = spvbc_context_diagnostic(ctx, i);
        diag_copy *c = &out->d[i];
        c->severity = d->severity;
        snprintf(c->rule, sizeof c->rule, "%s", d->rule);
        snprintf(c->message, sizeof c->message, "%s", d->message);
        snprintf(c->astype, sizeof c->astype, "%s", d->astype ? d->astype : "");
        c->word_offset = d->word_offset;
        c->lowerable = d->lowerable;
    }
}

static int is_note_rule(const char *rule)
{
    return strcmp(rule, "N-IMPL-DEFINED") == 0 || strcmp(rule, "N-NOT-ASTYPE") == 0;
}

/* Parses the as_type spelling "as_DST(SRC)" into its two types. */
static int parse_astype(const char *s, int kernel, spvbc_type_desc *src, spvbc_type_desc *dst)
{
    char d[32], o[32];
    if (sscanf(s, "as_%31[a-z0-9](%31[a-z0-9])", d, o) != 2) return 0;
    if (spvbc_type_desc_from_opencl(d, dst) != SPVBC_SUCCESS ||
        spvbc_type_desc_from_opencl(o, src) != SPVBC_SUCCESS)
        return 0;
    if (kernel && src->kind == SPVBC_SCALAR_INT) src->is_signed = 0;
    if (kernel && dst->kind == SPVBC_SCALAR_INT) dst->is_signed = 0;
    return 1;
}

/* The "; as_type: as_X(Y) is CLASS, DEFINEDNESS" part of a sentence, up to the next "; ". */
static const char *astype_part(const char *msg, char *buf, size_t size)
{
    const char *p = strstr(msg, "; as_type: ");
    if (!p) return NULL;
    p += 2;
    const char *e = strstr(p, "; ");
    size_t n = e ? (size_t)(e - p) : strlen(p);
    if (n >= size) n = size - 1;
    memcpy(buf, p, n);
    buf[n] = 0;
    return buf;
}

/* The class and definedness a diagnostic states are those of spvbc_astype_plan(). */
static void check_against_plan(const char *fixture, const char *what, const diag_copy *c,
                               const spvbc_module_info *info)
{
    char part[512];
    if (!c->astype[0] || !astype_part(c->message, part, sizeof part)) return;
    spvbc_type_desc src, dst;
    if (strstr(c->astype, "bool")) {
        /* No OpenCL type description for bool: as_type excludes it. */
        char want[128];
        snprintf(want, sizeof want, "as_type: %s is %s", c->astype,
                 spvbc_astype_class_string(SPVBC_ASTYPE_EXCLUDED));
        if (strncmp(part, want, strlen(want)) != 0)
            FAIL("%s (%s) [%s]: says '%s', expected '%s'", fixture, what, c->rule, part, want);
        return;
    }
    if (strstr(c->astype, "<no OpenCL C type>")) {
        /* A side OpenCL C has no name for (a float of another encoding, a long vector): no
         * plan to compare with; as_type excludes it, or forbids it first by size where the
         * byte sizes differ (which only the SPIR-V types tell). */
        char excluded[128], size[128];
        snprintf(excluded, sizeof excluded, "as_type: %s is %s,", c->astype,
                 spvbc_astype_class_string(SPVBC_ASTYPE_EXCLUDED));
        snprintf(size, sizeof size, "as_type: %s is %s,", c->astype,
                 spvbc_astype_class_string(SPVBC_ASTYPE_SIZE_ERROR));
        if (strncmp(part, excluded, strlen(excluded)) != 0 &&
            strncmp(part, size, strlen(size)) != 0)
            FAIL("%s (%s) [%s]: says '%s', expected '%s' or '%s'", fixture, what, c->rule, part,
                 excluded, size);
        return;
    }
    if (!parse_astype(c->astype, info->is_kernel, &src, &dst)) {
        FAIL("%s (%s): unreadable as_type spelling '%s'", fixture, what, c->astype);
        return;
    }
    spvbc_plan_options po = {sizeof(spvbc_plan_options),
                             info->features | (info->is_shader ? SPVBC_FEATURE_SHADER : 0u),
                             SPVBC_PAD_UNDEF};
    if (!po.features) po.features = 0x80000000u; /* "no features", not "all" */
    spvbc_plan plan = SPVBC_PLAN_INIT;
    if (spvbc_astype_plan(&src, &dst, &po, &plan) != SPVBC_SUCCESS) {
        FAIL("%s (%s): spvbc_astype_plan failed for %s", fixture, what, c->astype);
        return;
    }
    char want[128];
    snprintf(want, sizeof want, "as_type: %s is %s", c->astype,
             spvbc_astype_class_string(plan.cls));
    int ok = strncmp(part, want, strlen(want)) == 0;
    if (ok && plan.refusal == SPVBC_PLAN_REFUSAL_NONE)
        ok = strstr(part, plan.defined_by_opencl ? ", defined by OpenCL C"
                                                 : ", implementation-defined in OpenCL C") != NULL;
    if (!ok)
        FAIL("%s (%s) [%s]: says '%s', the plan says '%s' (%s)", fixture, what, c->rule, part, want,
             plan.defined_by_opencl ? "defined" : "implementation-defined");
}

static void validate_run(spvbc_context ctx, spvbc_module mod, uint32_t flags, run *out)
{
    spvbc_validate_options o = {sizeof(spvbc_validate_options), flags, SPVBC_GENERATION_NEWEST};
    out->r = spvbc_module_validate(mod, &o, NULL);
    copy_diags(ctx, out);
}

/* `plain` (no notes) against `with` (notes): the same diagnostics once the notes are left out. */
static void compare_runs(const char *fixture, uint32_t flags, const run *plain, const run *with)
{
    if (plain->r != with->r)
        FAIL("%s (flags %#x): validate returned %d without notes, %d with", fixture, flags,
             (int)plain->r, (int)with->r);
    size_t j = 0;
    for (size_t i = 0; i < plain->n; ++i, ++j) {
        while (j < with->n && is_note_rule(with->d[j].rule))
            j++;
        if (j >= with->n) {
            FAIL("%s (flags %#x): diagnostic %zu [%s] missing with notes", fixture, flags, i,
                 plain->d[i].rule);
            return;
        }
        const diag_copy *a = &plain->d[i], *b = &with->d[j];
        if (a->severity != b->severity || strcmp(a->rule, b->rule) != 0 ||
            strcmp(a->message, b->message) != 0 || strcmp(a->astype, b->astype) != 0 ||
            a->word_offset != b->word_offset || a->lowerable != b->lowerable)
            FAIL("%s (flags %#x): diagnostic %zu differs with notes:\n  without: [%s] %s%s\n"
                 "  with:    [%s] %s%s",
                 fixture, flags, i, a->rule, a->message, a->lowerable ? " (lowerable)" : "",
                 b->rule, b->message, b->lowerable ? " (lowerable)" : "");
    }
}

/* The validate diagnostic at `word_offset` with the same rule, if any. */
static const diag_copy *find_at(const run *v, const diag_copy *c)
{
    for (size_t i = 0; i < v->n; ++i)
        if (v->d[i].word_offset == c->word_offset && strcmp(v->d[i].rule, c->rule) == 0)
            return &v->d[i];
    return NULL;
}

/* The answer the fixture's `; SCAN: ` line pins: 0 "no", 1 "maybe", -1 no such line. */
static int pinned_scan(const char *text)
{
    const char *at = strstr(text, "; SCAN: ");
    if (!at) return -1;
    at += 8;
    if (strncmp(at, "no", 2) == 0 && (at[2] == '\n' || at[2] == '\r' || at[2] == ' ')) return 0;
    if (strncmp(at, "maybe", 5) == 0) return 1;
    return -1;
}

static void check_fixture(const char *path)
{
    char *text = read_text(path);
    if (!text) {
        FAIL("%s: cannot read", path);
        return;
    }
    spv_context sc = spvContextCreate(target_env_of(text));
    spv_binary bin = NULL;
    spv_diagnostic sd = NULL;
    /* Assembled as its RUN line assembles it: a fixture that writes raw words naming ids
     * (unknown_opcode.spvasm) only means what it says with its numeric ids kept. */
    uint32_t options = strstr(text, "--preserve-numeric-ids") != NULL
                           ? SPV_TEXT_TO_BINARY_OPTION_PRESERVE_NUMERIC_IDS
                           : SPV_TEXT_TO_BINARY_OPTION_NONE;
    if (spvTextToBinaryWithOptions(sc, text, strlen(text), options, &bin, &sd) != SPV_SUCCESS) {
        FAIL("%s: does not assemble: %s", path, sd ? sd->error : "?");
        spvDiagnosticDestroy(sd);
        spvContextDestroy(sc);
        free(text);
        return;
    }
    spvbc_context ctx;
    spvbc_module mod;
    if (spvbc_context_create(NULL, &ctx) != SPVBC_SUCCESS ||
        spvbc_module_parse(ctx, bin->code, bin->wordCount, NULL, &mod) != SPVBC_SUCCESS) {
        FAIL("%s: does not parse", path);
        goto out;
    }
    spvbc_module_info info = SPVBC_MODULE_INFO_INIT;
    spvbc_module_get_info(mod, &info);
    int maybe = -1;
    if (spvbc_bytes_scan_lowerable(ctx, bin->code, bin->wordCount * 4u, &maybe) != SPVBC_SUCCESS ||
        (maybe != 0 && maybe != 1))
        FAIL("%s: spvbc_bytes_scan_lowerable failed or answered %d", path, maybe);
    maybe == 0 ? ++scan_no : ++scan_maybe;
    const int pinned = pinned_scan(text);
    if (pinned < 0)
        FAIL("%s: no '; SCAN: no' or '; SCAN: maybe' line (spvbc_bytes_scan_lowerable answers %s)",
             path, maybe ? "maybe" : "no");
    else if (pinned != maybe)
        FAIL("%s: spvbc_bytes_scan_lowerable answers %s, the fixture pins %s", path,
             maybe ? "maybe" : "no", pinned ? "maybe" : "no");
    for (uint32_t strict = 0; strict <= SPVBC_VALIDATE_STRICT && maybe == 0;
         strict += SPVBC_VALIDATE_STRICT) {
        const spvbc_validate_options vo = {sizeof(spvbc_validate_options), strict,
                                           SPVBC_GENERATION_NEWEST};
        spvbc_validate_summary vs = SPVBC_VALIDATE_SUMMARY_INIT;
        (void)spvbc_module_validate(mod, &vo, &vs);
        if (vs.lowerable != 0)
            FAIL("%s: spvbc_bytes_scan_lowerable says nothing to lower, validate (flags %u) counts "
                 "%zu lowerable",
                 path, strict, vs.lowerable);
    }

    static const uint32_t extra[] = {0, SPVBC_VALIDATE_STRICT, SPVBC_VALIDATE_WARNINGS_AS_ERRORS};
    run first_plain = {SPVBC_SUCCESS, 0, NULL};
    for (size_t k = 0; k < sizeof extra / sizeof *extra; ++k) {
        run plain, with;
        validate_run(ctx, mod, extra[k], &plain);
        validate_run(ctx, mod, extra[k] | SPVBC_VALIDATE_NOTES, &with);
        compare_runs(path, extra[k], &plain, &with);
        for (size_t i = 0; i < with.n; ++i)
            check_against_plan(path, "validate", &with.d[i], &info);
        free(with.d);
        if (k == 0)
            first_plain = plain;
        else
            free(plain.d);
    }

    static const spvbc_pad_policy pads[] = {SPVBC_PAD_UNDEF, SPVBC_PAD_ZERO};
    for (size_t k = 0; k < sizeof pads / sizeof *pads; ++k) {
        spvbc_lower_options lo = {sizeof(spvbc_lower_options), pads[k], 0, SPVBC_GENERATION_NEWEST};
        run low;
        spvbc_lower_summary ls = SPVBC_LOWER_SUMMARY_INIT;
        low.r = spvbc_module_lower(mod, &lo, &ls);
        if (maybe == 0 && ls.rewritten != 0)
            FAIL("%s: spvbc_bytes_scan_lowerable says nothing to lower, lower rewrote %zu", path,
                 ls.rewritten);
        copy_diags(ctx, &low);
        for (size_t i = 0; i < low.n; ++i) {
            const diag_copy *c = &low.d[i];
            check_against_plan(path, "lower", c, &info);
            const diag_copy *v = find_at(&first_plain, c);
            char pa[512], pb[512];
            if (v && c->severity == SPVBC_SEVERITY_ERROR) {
                const char *a = astype_part(v->message, pa, sizeof pa);
                const char *b = astype_part(c->message, pb, sizeof pb);
                if ((a == NULL) != (b == NULL) || (a && strcmp(a, b) != 0))
                    FAIL("%s: [%s] at word %zu: validate says '%s', lower '%s'", path, c->rule,
                         c->word_offset, a ? a : "(no as_type)", b ? b : "(no as_type)");
                if (v->lowerable != c->lowerable)
                    FAIL("%s: [%s] at word %zu: lowerable %d in validate, %d in lower", path,
                         c->rule, c->word_offset, v->lowerable, c->lowerable);
            }
        }
        free(low.d);
    }
    free(first_plain.d);
    spvbc_module_destroy(mod);
out:
    spvbc_context_destroy(ctx);
    spvBinaryDestroy(bin);
    spvContextDestroy(sc);
    free(text);
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: test_notes FIXTURE.spvasm...\n");
        return 2;
    }
    for (int i = 1; i < argc; ++i)
        check_fixture(argv[i]);
    printf(
        "test_notes: spvbc_bytes_scan_lowerable: nothing to lower in %d fixture(s), maybe in %d\n",
        scan_no, scan_maybe);
    if (argc > 20 && (scan_no < 10 || scan_maybe < 10))
        FAIL("spvbc_bytes_scan_lowerable answers too one-sidedly to be a pre-filter");
    printf("test_notes: %d fixture(s), %d failure(s)\n", argc - 1, failures);
    return failures ? 1 : 0;
}
