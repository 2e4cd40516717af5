/* `opt`'s own stages (--lower-astype, --validate-bitcast) through the public API, and the
 * SPIRV-Tools validator at the points of the pipeline where opt.cpp asks for it.  Findings are
 * printed as by `validate` and `lower` (report.c). */
#define _POSIX_C_SOURCE 200809L

#include <stdlib.h>
#include <string.h>

#include "cli.h"

void cli_opt_validator_options(const cli_opt_args *a, spv_validator_options vo)
{
    static const struct {
        uint32_t bit;
        void (*set)(spv_validator_options, bool);
    } relax[] = {
        {CLI_RELAX_LOGICAL_POINTER, spvValidatorOptionsSetRelaxLogicalPointer},
        {CLI_RELAX_BEFORE_HLSL_LEGALIZATION, spvValidatorOptionsSetBeforeHlslLegalization},
        {CLI_RELAX_BLOCK_LAYOUT, spvValidatorOptionsSetRelaxBlockLayout},
        {CLI_RELAX_SCALAR_BLOCK_LAYOUT, spvValidatorOptionsSetScalarBlockLayout},
        {CLI_RELAX_WORKGROUP_SCALAR_BLOCK_LAYOUT, spvValidatorOptionsSetWorkgroupScalarBlockLayout},
        {CLI_RELAX_SKIP_BLOCK_LAYOUT, spvValidatorOptionsSetSkipBlockLayout},
        {CLI_RELAX_STRUCT_STORE, spvValidatorOptionsSetRelaxStoreStruct},
    };
    for (size_t i = 0; i < sizeof relax / sizeof relax[0]; ++i)
        if (a->relax & relax[i].bit) relax[i].set(vo, true);
    if (a->max_id_bound)
        spvValidatorOptionsSetUniversalLimit(vo, spv_validator_limit_max_id_bound, a->max_id_bound);
}

bool cli_opt_spirv_val(const cli_opt_args *a, const uint32_t *words, size_t count, const char *what)
{
    spv_context sctx = spvContextCreate(a->env);
    spv_validator_options vo = spvValidatorOptionsCreate();
    spv_diagnostic diag = NULL;
    spv_result_t r = SPV_ERROR_OUT_OF_MEMORY;
    if (sctx && vo) {
        cli_opt_validator_options(a, vo);
        spv_const_binary_t bin = {words, count};
        r = spvValidateWithOptions(sctx, vo, &bin, &diag);
    }
    if (r != SPV_SUCCESS) {
        const char *m = diag && diag->error ? diag->error : "cannot run the validator";
        size_t len = strlen(m);
        while (len && m[len - 1] == '\n') /* it ends with the instruction and a newline */
            --len;
        fprintf(stderr, "error: %s: spirv-val (%s): %.*s\n", a->shown, what, (int)len, m);
    }
    spvDiagnosticDestroy(diag);
    spvValidatorOptionsDestroy(vo);
    spvContextDestroy(sctx);
    return r == SPV_SUCCESS;
}

/* Prints the errors and warnings of `ctx` (not notes: a pipeline is quiet when it succeeds). */
static void print_findings(const cli_opt_args *a, spvbc_context ctx)
{
    for (size_t i = 0; i < spvbc_context_diagnostic_count(ctx); ++i) {
        const spvbc_diagnostic *d = spvbc_context_diagnostic(ctx, i);
        if (d && d->severity <= SPVBC_SEVERITY_WARNING) cli_print_diag(stderr, a->shown, d, NULL);
    }
}

static bool stage_failed(const cli_opt_args *a, const cli_opt_stage *s, spvbc_result r)
{
    fprintf(stderr, "error: %s: %s: %s\n", a->shown, s->spelling, spvbc_result_string(r));
    return false;
}

/* --lower-astype on the parsed `mod`. */
static bool lower(const cli_opt_args *a, const cli_opt_stage *s, spvbc_context ctx,
                  spvbc_module mod, uint32_t **out, size_t *out_count)
{
    spvbc_lower_options lo = SPVBC_LOWER_OPTIONS_INIT;
    lo.pad = s->pad;
    lo.classes = SPVBC_LOWER_ALL;
    lo.generation = a->generation;
    spvbc_lower_summary sum = SPVBC_LOWER_SUMMARY_INIT;
    spvbc_result r = spvbc_module_lower(mod, &lo, &sum);
    print_findings(a, ctx);
    if (r != SPVBC_SUCCESS && r != SPVBC_PARTIAL) return stage_failed(a, s, r);
    if (r == SPVBC_PARTIAL) { /* some refused: sum.refused of them */
        fprintf(stderr, "error: %s: %s: %zu invalid bitcast(s) cannot be lowered\n", a->shown,
                s->spelling, sum.refused);
        return false;
    }
    if (sum.rewritten == 0) return true; /* the words stay as they are */
    const uint32_t *w;
    size_t n;
    if ((r = spvbc_module_get_words(mod, &w, &n)) != SPVBC_SUCCESS) return stage_failed(a, s, r);
    if (!(*out = malloc(n * sizeof *w))) return stage_failed(a, s, SPVBC_ERROR_OUT_OF_MEMORY);
    memcpy(*out, w, n * sizeof *w);
    *out_count = n;
    return true;
}

/* --validate-bitcast on the parsed `mod`. */
static bool validate(const cli_opt_args *a, const cli_opt_stage *s, spvbc_context ctx,
                     spvbc_module mod)
{
    spvbc_validate_summary sum = SPVBC_VALIDATE_SUMMARY_INIT;
    spvbc_validate_options vo = SPVBC_VALIDATE_OPTIONS_INIT;
    vo.generation = a->generation;
    spvbc_result r = spvbc_module_validate(mod, &vo, &sum);
    print_findings(a, ctx);
    if (r == SPVBC_SUCCESS) return true;
    if (r != SPVBC_ERROR_VALIDATION_FAILED) return stage_failed(a, s, r);
    fprintf(stderr, "error: %s: %s: %zu error(s) in %zu bitcast(s)", a->shown, s->spelling,
            sum.errors, sum.bitcasts_checked);
    if (sum.lowerable) fprintf(stderr, "; %zu can be fixed by --lower-astype", sum.lowerable);
    fputc('\n', stderr);
    return false;
}

bool cli_opt_stage_run(const cli_opt_args *a, const cli_opt_stage *s, const uint32_t *words,
                       size_t count, uint32_t **out, size_t *out_count)
{
    *out = NULL;
    *out_count = 0;
    spvbc_context ctx = NULL;
    spvbc_module mod = NULL;
    spvbc_result r = spvbc_context_create(cli_allocator, &ctx);
    if (r != SPVBC_SUCCESS) return stage_failed(a, s, r);
    spvbc_parse_options po = SPVBC_PARSE_OPTIONS_INIT;
    po.max_id_bound = a->max_id_bound;
    bool ok;
    r = spvbc_module_parse(ctx, words, count, &po, &mod);
    if (r != SPVBC_SUCCESS) {
        print_findings(a, ctx);
        ok = stage_failed(a, s, r);
    } else if (s->kind == CLI_OPT_LOWER_ASTYPE) {
        ok = lower(a, s, ctx, mod, out, out_count);
    } else {
        ok = validate(a, s, ctx, mod);
    }
    spvbc_module_destroy(mod);
    spvbc_context_destroy(ctx);
    return ok;
}
