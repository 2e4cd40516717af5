/* Reports: findings as text and as JSON, from the library's diagnostic records, with the
 * disassembly of each diagnosed instruction.  SARIF is in report_sarif.c. */
#define _POSIX_C_SOURCE 200809L

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "../decimal.h" /* the library's one decimal writer (header-only) */
#include "cli.h"

/* The disassembled instruction under each finding.  Small modules are disassembled once with
 * friendly names (%v3float); in large ones that costs more than everything else (the name
 * mapper walks every id), so each diagnosed instruction is disassembled alone, ids as %N. */
#define DISASM_WHOLE_MODULE_MAX_WORDS (1u << 16)

static char *disasm_words(const uint32_t *words, size_t count, spv_target_env env, uint32_t flags)
{
    uint32_t *le_copy;
    words = cli_words_le(words, count, &le_copy);
    spv_context sctx = words ? spvContextCreate(env) : NULL;
    if (!sctx) {
        free(le_copy);
        return NULL;
    }
    spv_text text = NULL;
    spv_diagnostic diag = NULL;
    char *out = NULL;
    if (spvBinaryToText(sctx, words, count, flags | SPV_BINARY_TO_TEXT_OPTION_NO_HEADER, &text,
                        &diag) == SPV_SUCCESS &&
        text && (out = malloc(text->length + 1)) != NULL) {
        memcpy(out, text->str, text->length);
        out[text->length] = '\0';
    }
    spvTextDestroy(text);
    spvDiagnosticDestroy(diag);
    spvContextDestroy(sctx);
    free(le_copy);
    return out;
}

void cli_disasm_build(cli_disasm *d, const uint32_t *words, size_t count, spv_target_env env)
{
    memset(d, 0, sizeof d[0]);
    if (count > DISASM_WHOLE_MODULE_MAX_WORDS) {
        d->words = words;
        d->word_count = count;
        d->env = env;
        return;
    }
    d->text = disasm_words(words, count, env, SPV_BINARY_TO_TEXT_OPTION_FRIENDLY_NAMES);
    if (!d->text) return;
    size_t n = 0;
    for (const char *c = d->text; *c; ++c)
        n += *c == '\n';
    d->lines = malloc((n + 1) * sizeof *d->lines);
    if (!d->lines) return;
    char *save = NULL;
    for (char *l = strtok_r(d->text, "\n", &save); l; l = strtok_r(NULL, "\n", &save))
        d->lines[d->count++] = l;
}

/* A line of the text report, assembled in a buffer and written with one fwrite() (or one per
 * 512 bytes): findings are many, and printf's format parsing cost more than the rest of
 * printing them. */
typedef struct text_line {
    FILE *f;
    size_t len;
    char buf[512];
} text_line;

static void put_bytes(text_line *l, const char *s, size_t n)
{
    if (l->len + n > sizeof l->buf) {
        fwrite(l->buf, 1, l->len, l->f);
        l->len = 0;
        if (n > sizeof l->buf) {
            fwrite(s, 1, n, l->f);
            return;
        }
    }
    memcpy(l->buf + l->len, s, n);
    l->len += n;
}

/* `s` as printf's %s writes it ("(null)" for NULL, as glibc does). */
static void put(text_line *l, const char *s)
{
    if (!s) s = "(null)";
    put_bytes(l, s, strlen(s));
}

/* `v` in decimal (printf's %u and %zu). */
static void put_num(text_line *l, size_t v)
{
    char digits[SPVBC__DECIMAL_MAX];
    put_bytes(l, digits, spvbc__decimal(digits, v));
}

/* `%N`. */
static void put_id(text_line *l, uint32_t id)
{
    put_bytes(l, "%", 1);
    put_num(l, id);
}

static void put_end(text_line *l)
{
    if (l->len) fwrite(l->buf, 1, l->len, l->f);
    l->len = 0;
}

/* SPIR-V's OpBitcast and OpSpecConstantOp, and the latter's operation number of a bitcast. */
#define OP_BITCAST 124u
#define OP_SPEC_CONSTANT_OP 52u

/* Whether instruction `inst` (`wc` words, byte-reversed when `swapped`) is an OpBitcast or an
 * OpSpecConstantOp Bitcast of the usual shape, which the CLI writes as SPIRV-Tools'
 * disassembler writes it alone (without friendly names): what every rewrite and nearly every
 * finding is about, so that large modules do not pay for a disassembler per finding.  False
 * for any other instruction, and for an id 0 (which SPIRV-Tools refuses to print): SPIRV-Tools
 * writes those.  `w` gets the words in host order. */
static bool plain_bitcast(const uint32_t *inst, size_t wc, bool swapped, uint32_t w[5])
{
    if (wc != 4 && wc != 5) return false;
    if (swapped)
        cli_swap_words(w, inst, wc);
    else
        memcpy(w, inst, wc * 4);
    bool spec = (w[0] & 0xffffu) == OP_SPEC_CONSTANT_OP && wc == 5 && w[3] == OP_BITCAST;
    if (!spec && ((w[0] & 0xffffu) != OP_BITCAST || wc != 4)) return false;
    return w[1] && w[2] && w[wc - 1];
}

/* Writes the disassembly of the instruction of `diag` as a line "  <prefix><text>" (nothing
 * if it cannot). */
static void disasm_print(text_line *l, const cli_disasm *d, const spvbc_diagnostic *diag,
                         const char *prefix)
{
    const char *text = NULL;
    char *made = NULL;
    if (d->lines && diag->instruction_index < d->count) {
        text = d->lines[diag->instruction_index];
    } else {
        if (!d->words || diag->word_offset == SPVBC_NO_POSITION || diag->word_offset < 5 ||
            diag->word_offset >= d->word_count)
            return;
        const uint32_t *inst = d->words + diag->word_offset;
        bool swapped = d->words[0] == 0x03022307u; /* a module in the opposite byte order */
        uint32_t first = inst[0], w[5];
        if (swapped) cli_swap_words(&first, inst, 1);
        size_t wc = first >> 16;
        if (wc == 0 || wc > d->word_count - diag->word_offset || wc > 64) return;
        if (plain_bitcast(inst, wc, swapped, w)) {
            put(l, "  ");
            put(l, prefix);
            put_id(l, w[2]);
            put(l, wc == 5 ? " = OpSpecConstantOp " : " = OpBitcast ");
            put_id(l, w[1]);
            put(l, wc == 5 ? " Bitcast " : " ");
            put_id(l, w[wc - 1]);
            put(l, "\n");
            return;
        }
        uint32_t mini[5 + 64];
        memcpy(mini, d->words, 5 * 4);
        memcpy(mini + 5, inst, wc * 4);
        if (!(text = made = disasm_words(mini, 5 + wc, d->env, 0))) return;
        char *nl = strchr(made, '\n');
        if (nl) *nl = '\0';
    }
    while (*text == ' ')
        ++text;
    put(l, "  ");
    put(l, prefix);
    put(l, text);
    put(l, "\n");
    free(made);
}

void cli_disasm_free(cli_disasm *d)
{
    free(d->lines);
    free(d->text);
}

void cli_print_diag(FILE *f, const char *path, const spvbc_diagnostic *d, const cli_disasm *dis)
{
    text_line l;
    l.f = f;
    l.len = 0;
    const bool lowered = !strcmp(d->rule, "L-LOWERED");
    const char *sev = lowered ? "lowered" : spvbc_severity_string(d->severity);
    put(&l, sev);
    put(&l, ": ");
    put(&l, path);
    put(&l, ": ");
    if (d->word_offset != SPVBC_NO_POSITION) {
        put(&l, "word ");
        put_num(&l, d->word_offset);
        if (d->instruction_index != SPVBC_NO_POSITION) {
            put(&l, " (instruction ");
            put_num(&l, d->instruction_index);
            put(&l, ")");
        }
        put(&l, ": ");
    }
    put(&l, d->message);
    if (d->result_name) {
        put(&l, " (result ");
        put_id(&l, d->result_id);
        put(&l, " is named \"");
        put(&l, d->result_name);
        put(&l, "\")");
    }
    put(&l, " [");
    put(&l, d->rule);
    put(&l, "]\n");
    if (d->source_file || d->source_line) {
        put(&l, "  at ");
        put(&l, d->source_file ? d->source_file : "<unknown>");
        put(&l, ":");
        put_num(&l, d->source_line);
        put(&l, ":");
        put_num(&l, d->source_column);
        put(&l, "\n");
    }
    if (dis && d->instruction_index != SPVBC_NO_POSITION)
        disasm_print(&l, dis, d, lowered ? "was: " : "");
    put_end(&l);
}

static void print_diag_json(FILE *f, const spvbc_diagnostic *d, bool first)
{
    fprintf(f, "%s{\"severity\":", first ? "" : ",");
    cli_json_string(f, spvbc_severity_string(d->severity));
    fputs(",\"rule\":", f);
    cli_json_string(f, d->rule);
    fputs(",\"message\":", f);
    cli_json_string(f, d->message);
    fputs(",\"word_offset\":", f);
    cli_json_size(f, d->word_offset);
    fputs(",\"instruction_index\":", f);
    cli_json_size(f, d->instruction_index);
    fprintf(f, ",\"opcode\":%u,\"result_id\":%u,\"result_name\":", d->opcode, d->result_id);
    cli_json_string(f, d->result_name);
    fputs(",\"source_file\":", f);
    cli_json_string(f, d->source_file);
    fprintf(f, ",\"source_line\":%u,\"source_column\":%u,\"operand_type\":", d->source_line,
            d->source_column);
    cli_json_string(f, d->operand_type);
    fputs(",\"result_type\":", f);
    cli_json_string(f, d->result_type);
    fprintf(f, ",\"operand_bits\":%u,\"result_bits\":%u,\"astype\":", d->operand_bits,
            d->result_bits);
    cli_json_string(f, d->astype);
    fprintf(f, ",\"lowerable\":%s}", d->lowerable ? "true" : "false");
}

/* Opens the JSON object of input `s`: {"file":"<shown>" (the caller closes it). */
static void json_open_file(const cli_report_sink *s)
{
    fputs("{\"file\":", s->doc);
    cli_json_string(s->doc, s->shown);
}

/* Writes every diagnostic of `ctx` as the JSON array "diagnostics" and closes the object. */
static void json_diagnostics_close(const cli_report_sink *s, spvbc_context ctx)
{
    fputs(",\"diagnostics\":[", s->doc);
    for (size_t i = 0; i < spvbc_context_diagnostic_count(ctx); ++i)
        print_diag_json(s->doc, spvbc_context_diagnostic(ctx, i), i == 0);
    fputs("]}", s->doc);
}

void cli_report_json_error(cli_report_sink *s, const char *error, spvbc_context ctx)
{
    if (s->o->format != CLI_FORMAT_JSON) return;
    json_open_file(s);
    fputs(",\"error\":", s->doc);
    cli_json_string(s->doc, error);
    if (ctx)
        json_diagnostics_close(s, ctx);
    else
        fputs("}", s->doc);
}

void cli_report_failure(cli_report_sink *s, const char *json_error, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    char *msg = n >= 0 ? malloc((size_t)n + 1) : NULL;
    if (msg) {
        va_start(ap, fmt);
        vsnprintf(msg, (size_t)n + 1, fmt, ap);
        va_end(ap);
    }
    const char *m = msg ? msg : "out of memory";
    fprintf(s->text, "error: %s: %s\n", s->shown, m);
    if (json_error) cli_report_json_error(s, json_error, NULL);
    if (s->o->format == CLI_FORMAT_SARIF) cli_sarif_notification(s, m);
    s->r->failed_run = true;
    free(msg);
}

void cli_report_unreadable(cli_report_sink *s, const char *error)
{
    if (!s->o->quiet) fprintf(s->text, "error: %s: cannot read: %s\n", s->shown, error);
    cli_report_json_error(s, error, NULL);
    if (s->o->format == CLI_FORMAT_SARIF) {
        char m[512];
        snprintf(m, sizeof m, "cannot read: %s", error);
        cli_sarif_notification(s, m);
    }
    s->r->failed_run = true;
}

void cli_report_diag(cli_report_sink *s, const spvbc_diagnostic *d, const cli_disasm *dis,
                     bool text)
{
    if (text) cli_print_diag(s->text, s->shown, d, dis);
    if (s->o->format == CLI_FORMAT_SARIF) cli_sarif_result(s, d);
}

void cli_report_diags(cli_report_sink *s, spvbc_context ctx, const cli_disasm *dis, bool text)
{
    for (size_t i = 0; i < spvbc_context_diagnostic_count(ctx); ++i)
        cli_report_diag(s, spvbc_context_diagnostic(ctx, i), dis, text);
}

void cli_report_json_summary(cli_report_sink *s, spvbc_context ctx)
{
    if (s->o->format != CLI_FORMAT_JSON) return;
    json_open_file(s);
    if (s->o->cmd == CLI_CMD_VALIDATE) {
        const spvbc_validate_summary *v = &s->r->vsum;
        fprintf(s->doc,
                ",\"summary\":{\"bitcasts_checked\":%zu,\"errors\":%zu,\"lowerable\":%zu,"
                "\"warnings\":%zu,\"notes\":%zu}",
                v->bitcasts_checked, v->errors, v->lowerable, v->warnings, v->notes);
    } else {
        const spvbc_lower_summary *l = &s->r->lsum;
        fprintf(s->doc,
                ",\"summary\":{\"bitcasts_checked\":%zu,\"rewritten\":%zu,\"refused\":%zu,"
                "\"skipped\":%zu,\"types_added\":%zu,\"constants_added\":%zu}",
                l->bitcasts_checked, l->rewritten, l->refused, l->skipped, l->types_added,
                l->constants_added);
    }
    json_diagnostics_close(s, ctx);
}
