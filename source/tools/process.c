/* One input: read it, parse it, validate or lower it, --verify and write the output, and report
 * what happened through a cli_report_sink (text, JSON or SARIF, buffered per input so that worker
 * threads never interleave their output; the text report of a single input goes straight to
 * stderr as it is made, so that it takes no memory). */
#define _POSIX_C_SOURCE 200809L

#include <stdlib.h>
#include <string.h>

#include "cli.h"

/* The highest SPIR-V version word `env` accepts. */
static uint32_t env_max_version(spv_target_env env)
{
    switch (env) {
    case SPV_ENV_UNIVERSAL_1_0:
    case SPV_ENV_VULKAN_1_0:
    case SPV_ENV_OPENCL_1_2:
    case SPV_ENV_OPENCL_EMBEDDED_1_2:
    case SPV_ENV_OPENCL_2_0:
    case SPV_ENV_OPENCL_EMBEDDED_2_0:
    case SPV_ENV_OPENGL_4_0:
    case SPV_ENV_OPENGL_4_1:
    case SPV_ENV_OPENGL_4_2:
    case SPV_ENV_OPENGL_4_3:
    case SPV_ENV_OPENGL_4_5: return 0x00010000u;
    case SPV_ENV_UNIVERSAL_1_1:
    case SPV_ENV_OPENCL_2_1:
    case SPV_ENV_OPENCL_EMBEDDED_2_1: return 0x00010100u;
    case SPV_ENV_UNIVERSAL_1_2:
    case SPV_ENV_OPENCL_2_2:
    case SPV_ENV_OPENCL_EMBEDDED_2_2: return 0x00010200u;
    case SPV_ENV_UNIVERSAL_1_3:
    case SPV_ENV_VULKAN_1_1: return 0x00010300u;
    case SPV_ENV_UNIVERSAL_1_4:
    case SPV_ENV_VULKAN_1_1_SPIRV_1_4: return 0x00010400u;
    case SPV_ENV_UNIVERSAL_1_5:
    case SPV_ENV_VULKAN_1_2: return 0x00010500u;
    default: return 0x00010600u;
    }
}

/* The universal environment of a module's `version` word. */
static spv_target_env universal_env(uint32_t version)
{
    switch ((version >> 8) & 0xff) {
    case 0: return SPV_ENV_UNIVERSAL_1_0;
    case 1: return SPV_ENV_UNIVERSAL_1_1;
    case 2: return SPV_ENV_UNIVERSAL_1_2;
    case 3: return SPV_ENV_UNIVERSAL_1_3;
    case 4: return SPV_ENV_UNIVERSAL_1_4;
    case 5: return SPV_ENV_UNIVERSAL_1_5;
    default: return SPV_ENV_UNIVERSAL_1_6;
    }
}

/* One input while it is processed. */
typedef struct job {
    cli_report_sink sink;
    const cli_options *o;
    cli_file_result *r;
    cli_input in;
    bool loaded;
    spvbc_context ctx;
    spvbc_module mod;
    spvbc_module_info info;
    spv_target_env env;
    cli_disasm dis;
    size_t dropped; /* the input's pages below this byte were let go during the parse */
} job;

/* Whether findings are printed as text on stderr (else only in the JSON or SARIF report, or not
 * at all with -q). */
static bool text_findings(const cli_options *o)
{
    return !o->quiet && o->format == CLI_FORMAT_TEXT;
}

/* Counts every diagnostic of the context by rule and reports it; the disassembly of each
 * diagnosed instruction is printed under it in text output. */
static void report_findings(job *j)
{
    size_t nd = spvbc_context_diagnostic_count(j->ctx);
    bool text = text_findings(j->o);
    if (nd && text && !j->o->no_disasm)
        cli_disasm_build(&j->dis, (const uint32_t *)j->in.data, j->in.size / 4, j->env);
    size_t dropped = 0; /* the input's pages below this were let go */
    const char *rule = NULL; /* the last finding's rule (the library's static string) */
    size_t slot = 0;
    for (size_t i = 0; i < nd; ++i) {
        const spvbc_diagnostic *d = spvbc_context_diagnostic(j->ctx, i);
        if (d->rule != rule) slot = cli_rule_count_slot(rule = d->rule);
        j->r->rule_counts[slot]++;
        cli_report_diag(&j->sink, d, &j->dis, text);
        size_t at = d->word_offset != SPVBC_NO_POSITION ? d->word_offset * 4 : 0;
        if (at >= dropped + CLI_DROP_STEP && at <= j->in.size) {
            cli_input_drop(&j->in, dropped, at);
            dropped = at;
        }
    }
    cli_report_json_summary(&j->sink, j->ctx);
}

/* Records why input `r` was not checked: `what` and, when not NULL, `rule` as " [rule]" (or,
 * for "cannot read: ", the reason appended). */
static void set_not_checked(cli_file_result *r, const char *what, const char *rule)
{
    bool append = rule && what[strlen(what) - 1] == ' ';
    size_t len = strlen(what) + (rule ? strlen(rule) + 3 : 0) + 1;
    free(r->not_checked);
    if (!(r->not_checked = malloc(len))) return;
    if (!rule)
        snprintf(r->not_checked, len, "%s", what);
    else
        snprintf(r->not_checked, len, append ? "%s%s" : "%s [%s]", what, rule);
}

/* The parse's progress (every 4 MiB the walk has read): lets go of the input's pages behind the
 * walk, so that the input does not add all of its size to the parse's peak memory; what is read
 * again comes back from the file a page at a time. */
static int drop_behind(void *user, size_t words_read)
{
    job *j = (job *)user;
    const size_t at = words_read * 4;
    if (at > j->dropped && at <= j->in.size) {
        cli_input_drop(&j->in, j->dropped, at);
        j->dropped = at;
    }
    return 0;
}

/* Parses the input and checks its version against --target-env; false (reported) on failure. */
static bool parse(job *j)
{
    cli_file_result *r = j->r;
    if (spvbc_context_create(cli_allocator, &j->ctx) != SPVBC_SUCCESS) {
        cli_report_failure(&j->sink, NULL, "out of memory");
        r->status = 1;
        return false;
    }
    if (j->o->keep_first_only)
        (void)spvbc_context_set_diagnostic_policy(j->ctx, SPVBC_DIAGNOSTIC_POLICY_KEEP_FIRST, 1);
    spvbc_parse_options po = SPVBC_PARSE_OPTIONS_INIT;
    po.max_id_bound = j->o->max_id_bound;
    po.progress = drop_behind;
    po.progress_user = j;
    spvbc_result pr = spvbc_module_parse_bytes(j->ctx, j->in.data, j->in.size, &po, &j->mod);
    if (pr != SPVBC_SUCCESS) {
        r->status = 1;
        r->bad_input = true;
        const spvbc_diagnostic *first = spvbc_context_diagnostic(j->ctx, 0);
        set_not_checked(r, first ? first->message : spvbc_result_string(pr),
                        first ? first->rule : NULL);
        cli_report_diags(&j->sink, j->ctx, NULL, !j->o->quiet);
        cli_report_json_error(&j->sink, spvbc_result_string(pr), j->ctx);
        return false;
    }
    j->info.struct_size = sizeof j->info;
    (void)spvbc_module_get_info(j->mod, &j->info);
    if (j->o->have_env && j->info.version > env_max_version(j->o->env)) {
        char msg[256];
        snprintf(msg, sizeof msg, "SPIR-V version %u.%u is not allowed by target environment %s",
                 (j->info.version >> 16) & 0xff, (j->info.version >> 8) & 0xff,
                 spvTargetEnvDescription(j->o->env));
        spvbc_diagnostic d;
        memset(&d, 0, sizeof d);
        d.severity = SPVBC_SEVERITY_ERROR;
        d.rule = "R-TARGET-ENV";
        d.message = msg;
        d.word_offset = 1; /* the version word */
        d.instruction_index = SPVBC_NO_POSITION;
        cli_report_diag(&j->sink, &d, NULL, !j->o->quiet);
        set_not_checked(r, msg, d.rule);
        cli_report_json_error(&j->sink, "version not allowed by the target environment", NULL);
        r->status = 1;
        r->bad_input = true;
        return false;
    }
    j->env = j->o->have_env ? j->o->env : universal_env(j->info.version);
    return true;
}

static void validate(job *j)
{
    const cli_options *o = j->o;
    spvbc_validate_options vo = SPVBC_VALIDATE_OPTIONS_INIT;
    vo.flags = (o->strict ? SPVBC_VALIDATE_STRICT : 0u) | (o->notes ? SPVBC_VALIDATE_NOTES : 0u) |
               (o->werror ? SPVBC_VALIDATE_WARNINGS_AS_ERRORS : 0u);
    vo.generation = o->generation;
    j->r->vsum.struct_size = sizeof j->r->vsum;
    spvbc_result vr = spvbc_module_validate(j->mod, &vo, &j->r->vsum);
    if (vr != SPVBC_SUCCESS && vr != SPVBC_ERROR_VALIDATION_FAILED) {
        cli_report_failure(&j->sink, NULL, "%s", spvbc_result_string(vr));
        j->r->status = 1;
        return;
    }
    report_findings(j);
    j->r->status = vr == SPVBC_SUCCESS ? 0 : 1;
}

/* Runs SPIRV-Tools' validator on `words` (--verify); false (reported) when it rejects them. */
static bool verify_words(job *j, const uint32_t *words, size_t count)
{
    spv_context sctx = spvContextCreate(j->env);
    spv_validator_options vo = spvValidatorOptionsCreate();
    if (!sctx || !vo) {
        cli_report_failure(&j->sink, NULL, "cannot create the SPIRV-Tools validator");
        spvValidatorOptionsDestroy(vo);
        spvContextDestroy(sctx);
        return false;
    }
    if (j->o->max_id_bound)
        spvValidatorOptionsSetUniversalLimit(vo, spv_validator_limit_max_id_bound,
                                             j->o->max_id_bound);
    uint32_t *le_copy;
    spv_const_binary_t bin = {cli_words_le(words, count, &le_copy), count};
    spv_diagnostic diag = NULL;
    spv_result_t r =
        bin.code ? spvValidateWithOptions(sctx, vo, &bin, &diag) : SPV_ERROR_OUT_OF_MEMORY;
    free(le_copy);
    if (r != SPV_SUCCESS)
        cli_report_failure(&j->sink, NULL, "--verify: SPIRV-Tools rejects the output: %s",
                           diag && diag->error ? diag->error : "(no message)");
    spvDiagnosticDestroy(diag);
    spvValidatorOptionsDestroy(vo);
    spvContextDestroy(sctx);
    return r == SPV_SUCCESS;
}

/* --verify and the output of a lowered module. */
static void verify_and_write(job *j)
{
    cli_file_result *r = j->r;
    bool verified = true;
    if (j->o->verify) {
        const uint32_t *w;
        size_t n;
        verified = spvbc_module_get_words(j->mod, &w, &n) == SPVBC_SUCCESS && verify_words(j, w, n);
        if (!verified) {
            r->status = 1;
            cli_report_failure(&j->sink, NULL, "output not written: it failed --verify");
        }
    }
    if (r->out_path && verified) {
        char ebuf[512];
        const char *we = cli_write_module(j->mod, &j->in, r->out_path, ebuf, sizeof ebuf);
        if (we) {
            cli_report_failure(&j->sink, NULL, "%s", we);
            r->status = 1;
        }
    }
}

static void lower(job *j)
{
    spvbc_lower_options lo = SPVBC_LOWER_OPTIONS_INIT;
    lo.pad = j->o->pad;
    lo.classes = j->o->classes;
    lo.generation = j->o->generation;
    j->r->lsum.struct_size = sizeof j->r->lsum;
    spvbc_result lr = spvbc_module_lower(j->mod, &lo, &j->r->lsum);
    if (lr != SPVBC_SUCCESS && lr != SPVBC_PARTIAL) {
        cli_report_diags(&j->sink, j->ctx, NULL, true);
        cli_report_json_error(&j->sink, "lowering failed", j->ctx);
        cli_report_failure(&j->sink, NULL, "lowering failed: %s", spvbc_result_string(lr));
        j->r->status = 1;
        return;
    }
    report_findings(j);
    j->r->status = j->r->lsum.refused ? 1 : 0;
    verify_and_write(j);
}

/* Opens the per-input buffers of the report; false when out of memory. */
static bool open_sink(job *j)
{
    cli_report_sink *s = &j->sink;
    cli_file_result *r = j->r;
    s->o = j->o;
    s->r = r;
    s->shown = strcmp(r->path, "-") ? r->path : "<stdin>";
    s->text_streamed = j->o->stream_text && (s->text = cli_stderr_stream()) != NULL;
    if (!s->text_streamed) s->text = cli_memstream_open(&r->text, &r->text_len);
    if (j->o->format != CLI_FORMAT_TEXT) s->doc = cli_memstream_open(&r->doc, &r->doc_len);
    if (j->o->format == CLI_FORMAT_SARIF) s->notes = cli_memstream_open(&r->notes, &r->notes_len);
    return s->text && (j->o->format == CLI_FORMAT_TEXT || s->doc) &&
           (j->o->format != CLI_FORMAT_SARIF || s->notes);
}

static void close_sink(job *j)
{
    cli_report_sink *s = &j->sink;
    if (s->text_streamed)
        (void)fclose(s->text);
    else if (s->text)
        cli_memstream_close(s->text, &s->r->text, &s->r->text_len);
    if (s->doc) cli_memstream_close(s->doc, &s->r->doc, &s->r->doc_len);
    if (s->notes) cli_memstream_close(s->notes, &s->r->notes, &s->r->notes_len);
}

void cli_process(const cli_options *o, cli_file_result *r)
{
    job j;
    memset(&j, 0, sizeof j);
    j.o = o;
    j.r = r;
    if (!open_sink(&j)) {
        r->status = 1;
        r->bad_input = true;
        r->failed_run = true;
        close_sink(&j);
        return;
    }
    const char *e = cli_input_load(r->path, &j.in);
    if (e) {
        r->status = 1;
        r->bad_input = true;
        cli_report_unreadable(&j.sink, e);
        set_not_checked(r, "cannot read: ", e);
    } else {
        j.loaded = true;
        r->loaded = true;
        r->input_size = j.in.size;
        j.sink.bytes = j.in.data;
        j.sink.size = j.in.size;
        if (parse(&j)) {
            /* The parse has read it all, letting go of its pages behind its walk (drop_behind);
             * what is read again (the types and names, the instructions of findings, the
             * output's spans) comes back a page at a time, so that the findings' memory does
             * not add to all of the input's.  With -q too: the output's write maps the pages
             * again a step ahead of itself (cli_input_populate()); keeping them spared `lower
             * -q` a few percent of its time and cost it the input's size in memory. */
            cli_input_drop(&j.in, 0, j.in.size);
            if (o->cmd == CLI_CMD_VALIDATE)
                validate(&j);
            else
                lower(&j);
        }
    }
    cli_disasm_free(&j.dis);
    spvbc_module_destroy(j.mod);
    spvbc_context_destroy(j.ctx);
    if (j.loaded) cli_input_release(&j.in);
    close_sink(&j);
}
