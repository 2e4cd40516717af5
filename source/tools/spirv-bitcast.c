/* spirv-bitcast: command-line tool over the public C API.
 *
 *   spirv-bitcast validate [options] [file... | -r DIR | -]
 *   spirv-bitcast lower    [options] [file... | -r DIR | -]
 *   spirv-bitcast explain  SRC DST [--pad P] [--shader]
 *   spirv-bitcast opt      [spirv-opt flags] [--lower-astype[=P]] [--validate-bitcast] -o out in
 *
 * Exit status: 0 success, 1 findings or invalid input, 2 usage error. */
#define _POSIX_C_SOURCE 200809L
#define _DEFAULT_SOURCE /* MADV_HUGEPAGE */

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <spirv-tools/libspirv.h>

#include "spirv_bitcast.h"

#ifdef SPVBC_HAVE_OPT
#include "opt.h"
#endif

#define EXIT_FINDINGS 1
#define EXIT_USAGE 2

static const char *g_prog = "spirv-bitcast";

static void usage_error(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fprintf(stderr, "%s: ", g_prog);
    vfprintf(stderr, fmt, ap);
    fprintf(stderr, "\nTry '%s --help'.\n", g_prog);
    va_end(ap);
}

static void print_help(FILE *f)
{
    fprintf(
        f,
        "Usage: spirv-bitcast <command> [options] [<file>...]\n"
        "\n"
        "Validates and lowers OpBitcast in SPIR-V against the SPIR-V rules and OpenCL C as_type()\n"
        "rules. A 3-component vector occupies the storage of 4 in OpenCL C, so as_float3(float4) "
        "is\n"
        "legal OpenCL but a direct OpBitcast %%v3float %%v4float is invalid SPIR-V (96 != 128 "
        "bits);\n"
        "'lower' rewrites such bitcasts into OpVectorShuffle (+ OpBitcast).\n"
        "\n"
        "Commands:\n"
        "  validate   report every invalid or suspicious OpBitcast (functions and spec constants)\n"
        "  lower      rewrite as_type-legal but invalid bitcasts; write the module\n"
        "  explain SRC DST\n"
        "             how as_DST(SRC) maps onto SPIR-V, e.g. 'explain float4 float3'\n"
        "  opt        spirv-opt with our passes in the pipeline (see 'spirv-bitcast opt --help')\n"
        "\n"
        "Input: files, '-' or nothing for stdin, or -r DIR for every *.spv below DIR. Several\n"
        "inputs are processed in parallel (--jobs N) and followed by a summary.\n"
        "\n"
        "Common options:\n"
        "  --target-env E     spv1.0..spv1.6, vulkan1.0..vulkan1.3, opencl1.2, opencl2.0..2.2,\n"
        "                     universal1.0..1.6: the module's version must be allowed by E; also\n"
        "                     the environment for --verify (default: from the module's version)\n"
        "  --max-id-bound N   accept id bounds up to N (default 4194303)\n"
        "  -r DIR             process every *.spv file below DIR\n"
        "  --jobs N           worker threads for several inputs (default: number of CPUs)\n"
        "  -q, --quiet        no per-finding output, only the summary and the exit status\n"
        "  --no-disassembly   do not print the disassembled instruction under each finding\n"
        "\n"
        "validate options:\n"
        "  --strict           the logical-pointer rule of current SPIRV-Tools is an error\n"
        "  --notes            also report as_type whose result OpenCL leaves "
        "implementation-defined\n"
        "  -Werror            treat warnings as errors\n"
        "  --json             print findings and summary as JSON on stdout\n"
        "\n"
        "lower options:\n"
        "  --pad undef|zero|error\n"
        "                     lane 3 when padding a 3-component source: undefined (default, what\n"
        "                     clang emits), zero (a null vector operand), or refuse the rewrite\n"
        "  --only LIST        lower only these classes: 4to3,3to4,vec3src,vec3dst (default: all)\n"
        "  --verify           run SPIRV-Tools' validator on the output; fail if it rejects it\n"
        "  -o FILE            output file ('-' for stdout; default stdout if it is not a "
        "terminal)\n"
        "  --suffix S         with several inputs: write each output next to its input + S\n"
        "  --out-dir DIR      with several inputs: write each output into DIR\n"
        "\n"
        "explain options:\n"
        "  --pad undef|zero|error   as for lower\n"
        "  --shader           plan for a Vulkan (Shader) module: signed and unsigned integers are\n"
        "                     distinct types (default: Kernel, signless integers)\n"
        "\n"
        "Exit status: 0 success, 1 findings or invalid input, 2 usage error.\n"
        "Messages: <severity>: <file>: word <offset> (instruction <index>): <sentence> [<rule>]\n"
        "where <offset> counts 32-bit words from the start of the module and <index> counts\n"
        "instructions from 0.\n");
}

/* ---- options ------------------------------------------------------------------------------ */

typedef enum { CMD_VALIDATE, CMD_LOWER } command;

typedef struct options {
    command cmd;
    bool have_env;
    spv_target_env env;
    uint32_t max_id_bound;
    bool strict, notes, werror, json, quiet, no_disasm, verify;
    spvbc_pad_policy pad;
    uint32_t classes;
    const char *out_path, *suffix, *out_dir;
    unsigned jobs;
    bool progress;
} options;

static bool parse_pad(const char *s, spvbc_pad_policy *pad)
{
    if (!strcmp(s, "undef"))
        *pad = SPVBC_PAD_UNDEF;
    else if (!strcmp(s, "zero"))
        *pad = SPVBC_PAD_ZERO;
    else if (!strcmp(s, "error"))
        *pad = SPVBC_PAD_ERROR;
    else
        return false;
    return true;
}

static bool parse_classes(const char *s, uint32_t *out)
{
    uint32_t c = 0;
    char buf[128];
    if (strlen(s) >= sizeof buf) return false;
    strcpy(buf, s);
    for (char *save = NULL, *tok = strtok_r(buf, ",", &save); tok;
         tok = strtok_r(NULL, ",", &save)) {
        if (!strcmp(tok, "4to3"))
            c |= SPVBC_LOWER_4_TO_3;
        else if (!strcmp(tok, "3to4"))
            c |= SPVBC_LOWER_3_TO_4;
        else if (!strcmp(tok, "vec3src"))
            c |= SPVBC_LOWER_VEC3_SOURCE;
        else if (!strcmp(tok, "vec3dst"))
            c |= SPVBC_LOWER_VEC3_DEST;
        else
            return false;
    }
    *out = c;
    return c != 0;
}

static bool parse_u32(const char *s, uint32_t *out)
{
    char *end;
    errno = 0;
    unsigned long long v = strtoull(s, &end, 0);
    if (errno || *s == '\0' || *end != '\0' || *s == '-' || v > 0xFFFFFFFFull) return false;
    *out = (uint32_t)v;
    return true;
}

/* SPIRV-Tools' environment names, plus "universal1.N" as a synonym of "spv1.N". */
static bool parse_env(const char *s, spv_target_env *env)
{
    char buf[32];
    if (!strncmp(s, "universal", 9) && strlen(s) < sizeof buf - 3) {
        snprintf(buf, sizeof buf, "spv%s", s + 9);
        s = buf;
    }
    return spvParseTargetEnv(s, env);
}

/* The highest SPIR-V version word an environment accepts. */
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

/* ---- input -------------------------------------------------------------------------------- */

typedef struct input {
    const char *path; /* "-" for stdin */
    void *data;
    size_t size;
    bool mapped;
} input;

/* Reads `path` (mapped when it is a regular file) into `in`; returns an error text or NULL. */
static const char *load_input(const char *path, input *in)
{
    memset(in, 0, sizeof *in);
    in->path = path;
    if (!strcmp(path, "-")) {
        size_t cap = 1 << 16, len = 0;
        char *buf = malloc(cap);
        if (!buf) return "out of memory";
        for (;;) {
            if (len == cap) {
                char *nb = cap > SIZE_MAX / 2 ? NULL : realloc(buf, cap * 2);
                if (!nb) {
                    free(buf);
                    return "out of memory";
                }
                buf = nb;
                cap *= 2;
            }
            size_t n = fread(buf + len, 1, cap - len, stdin);
            len += n;
            if (n == 0) break;
        }
        if (ferror(stdin)) {
            free(buf);
            return strerror(errno);
        }
        in->data = buf;
        in->size = len;
        return NULL;
    }
    int fd = open(path, O_RDONLY);
    if (fd < 0) return strerror(errno);
    struct stat st;
    if (fstat(fd, &st) != 0) {
        close(fd);
        return strerror(errno);
    }
    if (!S_ISREG(st.st_mode)) {
        close(fd);
        return "not a regular file";
    }
    in->size = (size_t)st.st_size;
    if (in->size == 0) {
        close(fd);
        in->data = NULL;
        return NULL;
    }
    void *p = mmap(NULL, in->size, PROT_READ, MAP_PRIVATE, fd, 0);
    close(fd);
    if (p == MAP_FAILED) return strerror(errno);
    in->data = p;
    in->mapped = true;
    return NULL;
}

static void release_input(input *in)
{
    if (in->mapped)
        munmap(in->data, in->size);
    else
        free(in->data);
    in->data = NULL;
}

/* ---- output of one module ----------------------------------------------------------------- */

static int write_span(void *user, const uint32_t *words, size_t count)
{
    return fwrite(words, 4, count, (FILE *)user) == count ? 0 : 1;
}

/* Writes the module's words to `path` ("-" = stdout) through a temporary file renamed into
 * place, so a failure never leaves a truncated output (and `path` may be the input). */
static const char *write_module(spvbc_module mod, const char *path, char *err, size_t errsize)
{
    if (!strcmp(path, "-")) {
        (void)setvbuf(stdout, NULL, _IOFBF, 1u << 20);
        if (spvbc_module_write(mod, write_span, stdout) != SPVBC_SUCCESS || fflush(stdout))
            return "cannot write to stdout";
        return NULL;
    }
    size_t len = strlen(path);
    char *tmp = malloc(len + 16);
    if (!tmp) return "out of memory";
    snprintf(tmp, len + 16, "%s.tmpXXXXXX", path);
    int fd = mkstemp(tmp);
    if (fd < 0) {
        snprintf(err, errsize, "cannot create %s: %s", tmp, strerror(errno));
        free(tmp);
        return err;
    }
    FILE *f = fdopen(fd, "wb");
    if (f) (void)setvbuf(f, NULL, _IOFBF, 1u << 20); /* rewrites are many small spans */
    bool ok = f && spvbc_module_write(mod, write_span, f) == SPVBC_SUCCESS;
    if (f)
        ok = (fclose(f) == 0) && ok;
    else
        close(fd);
    if (ok) (void)chmod(tmp, 0644);
    if (!ok || rename(tmp, path) != 0) {
        snprintf(err, errsize, "cannot write %s: %s", path, strerror(errno));
        unlink(tmp);
        free(tmp);
        return err;
    }
    free(tmp);
    return NULL;
}

/* "1 error", "2 errors". */
static const char *plural(size_t n, const char *one, const char *many)
{
    return n == 1 ? one : many;
}

/* ---- allocator ---------------------------------------------------------------------------- */

/* Large tables (the id table, the site list, an output) come from their own mappings with
 * transparent huge pages requested: on a large module, first-touch page faults cost more than
 * the parse itself, and 2 MiB pages make 512 times fewer of them.  Small blocks use malloc. */
#define BIG_BLOCK (2u << 20)

static void *cli_alloc(void *user, size_t size)
{
    (void)user;
    if (size < BIG_BLOCK) return malloc(size);
    void *p = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED) return NULL;
#ifdef MADV_HUGEPAGE
    (void)madvise(p, size, MADV_HUGEPAGE);
#endif
    return p;
}

static void cli_free(void *user, void *ptr, size_t size)
{
    (void)user;
    if (size < BIG_BLOCK)
        free(ptr);
    else
        munmap(ptr, size);
}

static const spvbc_allocator k_cli_allocator = {cli_alloc, cli_free, NULL};

/* ---- per-file processing ------------------------------------------------------------------ */

typedef struct file_result {
    const char *path;
    char *out_path; /* lower: where the output goes */
    char *text; /* buffered stderr text */
    size_t text_len;
    char *json; /* buffered JSON object (validate --json) */
    size_t json_len;
    int status; /* 0 ok, 1 findings/invalid */
    bool bad_input;
    spvbc_validate_summary vsum;
    spvbc_lower_summary lsum;
    size_t rule_counts[32];
} file_result;

static const char *const k_rules[] = {"V0",
                                      "V1",
                                      "V2",
                                      "V3",
                                      "V8",
                                      "V9",
                                      "V10",
                                      "V11",
                                      "V12",
                                      "V13",
                                      "R-UNDEF",
                                      "S7",
                                      "S2",
                                      "S4",
                                      "S3-WIDTH",
                                      "W-LOGICAL-PTR",
                                      "N-IMPL-DEFINED",
                                      "N-NOT-ASTYPE",
                                      "L-LOWERED",
                                      "other"};
#define N_RULES (sizeof k_rules / sizeof k_rules[0])

static void count_rule(file_result *r, const char *rule)
{
    size_t i;
    for (i = 0; i + 1 < N_RULES; ++i)
        if (!strcmp(k_rules[i], rule)) break;
    r->rule_counts[i]++;
}

static void json_string(FILE *f, const char *s)
{
    if (!s) {
        fputs("null", f);
        return;
    }
    fputc('"', f);
    for (const unsigned char *p = (const unsigned char *)s; *p; ++p) {
        if (*p == '"' || *p == '\\')
            fprintf(f, "\\%c", *p);
        else if (*p < 0x20)
            fprintf(f, "\\u%04x", *p);
        else
            fputc(*p, f);
    }
    fputc('"', f);
}

static void json_size(FILE *f, size_t v)
{
    if (v == SPVBC_NO_POSITION)
        fputs("null", f);
    else
        fprintf(f, "%zu", v);
}

/* The disassembled instruction under each finding.  Small modules are disassembled once with
 * friendly names (%v3float); in large ones that costs more than everything else (the name
 * mapper walks every id), so each diagnosed instruction is disassembled alone, ids as %N. */
#define DISASM_WHOLE_MODULE_MAX_WORDS (1u << 16)

typedef struct disasm {
    char *text;
    char **lines;
    size_t count;
    const uint32_t *words; /* per-instruction mode: the module */
    size_t word_count;
    spv_target_env env;
} disasm;

static char *disasm_words(const uint32_t *words, size_t count, spv_target_env env, uint32_t flags)
{
    spv_context sctx = spvContextCreate(env);
    if (!sctx) return NULL;
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
    return out;
}

static void disasm_build(disasm *d, const uint32_t *words, size_t count, spv_target_env env)
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

/* Writes the disassembly of the instruction of `diag` to `f` (nothing if it cannot). */
static void disasm_print(FILE *f, const disasm *d, const spvbc_diagnostic *diag, const char *prefix)
{
    if (d->lines && diag->instruction_index < d->count) {
        const char *l = d->lines[diag->instruction_index];
        while (*l == ' ')
            ++l;
        fprintf(f, "  %s%s\n", prefix, l);
        return;
    }
    if (!d->words || diag->word_offset == SPVBC_NO_POSITION || diag->word_offset < 5 ||
        diag->word_offset >= d->word_count)
        return;
    const uint32_t *inst = d->words + diag->word_offset;
    size_t wc = inst[0] >> 16;
    if (wc == 0 || wc > d->word_count - diag->word_offset || wc > 64) return;
    uint32_t mini[5 + 64];
    memcpy(mini, d->words, 5 * 4);
    memcpy(mini + 5, inst, wc * 4);
    char *text = disasm_words(mini, 5 + wc, d->env, 0);
    if (!text) return;
    char *l = text;
    while (*l == ' ')
        ++l;
    char *nl = strchr(l, '\n');
    if (nl) *nl = '\0';
    fprintf(f, "  %s%s\n", prefix, l);
    free(text);
}

static void disasm_free(disasm *d)
{
    free(d->lines);
    free(d->text);
}

static void print_diag(FILE *f, const char *path, const spvbc_diagnostic *d, const disasm *dis)
{
    const char *sev = spvbc_severity_string(d->severity);
    if (!strcmp(d->rule, "L-LOWERED")) sev = "lowered";
    fprintf(f, "%s: %s: ", sev, path);
    if (d->word_offset != SPVBC_NO_POSITION) {
        fprintf(f, "word %zu", d->word_offset);
        if (d->instruction_index != SPVBC_NO_POSITION)
            fprintf(f, " (instruction %zu)", d->instruction_index);
        fputs(": ", f);
    }
    fprintf(f, "%s", d->message);
    if (d->result_name) fprintf(f, " (result %%%u is named \"%s\")", d->result_id, d->result_name);
    fprintf(f, " [%s]\n", d->rule);
    if (d->source_file || d->source_line)
        fprintf(f, "  at %s:%u:%u\n", d->source_file ? d->source_file : "<unknown>", d->source_line,
                d->source_column);
    if (dis && d->instruction_index != SPVBC_NO_POSITION)
        disasm_print(f, dis, d, strcmp(d->rule, "L-LOWERED") ? "" : "was: ");
}

static void print_diag_json(FILE *f, const spvbc_diagnostic *d, bool first)
{
    fprintf(f, "%s{\"severity\":", first ? "" : ",");
    json_string(f, spvbc_severity_string(d->severity));
    fputs(",\"rule\":", f);
    json_string(f, d->rule);
    fputs(",\"message\":", f);
    json_string(f, d->message);
    fputs(",\"word_offset\":", f);
    json_size(f, d->word_offset);
    fputs(",\"instruction_index\":", f);
    json_size(f, d->instruction_index);
    fprintf(f, ",\"opcode\":%u,\"result_id\":%u,\"result_name\":", d->opcode, d->result_id);
    json_string(f, d->result_name);
    fputs(",\"source_file\":", f);
    json_string(f, d->source_file);
    fprintf(f, ",\"source_line\":%u,\"source_column\":%u,\"operand_type\":", d->source_line,
            d->source_column);
    json_string(f, d->operand_type);
    fputs(",\"result_type\":", f);
    json_string(f, d->result_type);
    fprintf(f, ",\"operand_bits\":%u,\"result_bits\":%u,\"astype\":", d->operand_bits,
            d->result_bits);
    json_string(f, d->astype);
    fprintf(f, ",\"lowerable\":%s}", d->lowerable ? "true" : "false");
}

static bool verify_words(const uint32_t *words, size_t count, spv_target_env env,
                         uint32_t max_id_bound, FILE *err, const char *path)
{
    spv_context sctx = spvContextCreate(env);
    spv_validator_options vo = spvValidatorOptionsCreate();
    if (!sctx || !vo) {
        fprintf(err, "error: %s: cannot create the SPIRV-Tools validator\n", path);
        spvValidatorOptionsDestroy(vo);
        spvContextDestroy(sctx);
        return false;
    }
    if (max_id_bound)
        spvValidatorOptionsSetUniversalLimit(vo, spv_validator_limit_max_id_bound, max_id_bound);
    spv_const_binary_t bin = {words, count};
    spv_diagnostic diag = NULL;
    spv_result_t r = spvValidateWithOptions(sctx, vo, &bin, &diag);
    if (r != SPV_SUCCESS)
        fprintf(err, "error: %s: --verify: SPIRV-Tools rejects the output: %s\n", path,
                diag && diag->error ? diag->error : "(no message)");
    spvDiagnosticDestroy(diag);
    spvValidatorOptionsDestroy(vo);
    spvContextDestroy(sctx);
    return r == SPV_SUCCESS;
}

static void process(const options *o, file_result *r)
{
    FILE *err = open_memstream(&r->text, &r->text_len);
    FILE *js = o->json ? open_memstream(&r->json, &r->json_len) : NULL;
    if (!err || (o->json && !js)) {
        r->status = 1;
        r->bad_input = true;
        if (err) fclose(err);
        return;
    }
    const char *path = r->path;
    const char *shown = strcmp(path, "-") ? path : "<stdin>";
    input in;
    const char *e = load_input(path, &in);
    spvbc_context ctx = NULL;
    spvbc_module mod = NULL;
    disasm dis;
    memset(&dis, 0, sizeof dis);
    if (e) {
        fprintf(err, "error: %s: cannot read: %s\n", shown, e);
        r->status = 1;
        r->bad_input = true;
        if (js) {
            fputs("{\"file\":", js);
            json_string(js, shown);
            fputs(",\"error\":", js);
            json_string(js, e);
            fputs("}", js);
        }
        goto out;
    }
    if (spvbc_context_create(&k_cli_allocator, &ctx) != SPVBC_SUCCESS) {
        fprintf(err, "error: %s: out of memory\n", shown);
        r->status = 1;
        goto out;
    }
    spvbc_parse_options po;
    memset(&po, 0, sizeof po);
    po.max_id_bound = o->max_id_bound;
    spvbc_result pr = spvbc_module_parse_bytes(ctx, in.data, in.size, &po, &mod);
    spvbc_module_info info;
    memset(&info, 0, sizeof info);
    if (pr == SPVBC_SUCCESS) {
        (void)spvbc_module_get_info(mod, &info);
        if (o->have_env && info.version > env_max_version(o->env)) {
            fprintf(err,
                    "error: %s: word 1: SPIR-V version %u.%u is not allowed by target "
                    "environment %s [R-TARGET-ENV]\n",
                    shown, (info.version >> 16) & 0xff, (info.version >> 8) & 0xff,
                    spvTargetEnvDescription(o->env));
            r->status = 1;
            r->bad_input = true;
            if (js) {
                fputs("{\"file\":", js);
                json_string(js, shown);
                fputs(",\"error\":\"version not allowed by the target environment\"}", js);
            }
            goto out;
        }
    }
    if (pr != SPVBC_SUCCESS) {
        r->status = 1;
        r->bad_input = true;
        for (size_t i = 0; i < spvbc_context_diagnostic_count(ctx); ++i)
            if (!o->quiet) print_diag(err, shown, spvbc_context_diagnostic(ctx, i), NULL);
        if (js) {
            fputs("{\"file\":", js);
            json_string(js, shown);
            fputs(",\"error\":", js);
            json_string(js, spvbc_result_string(pr));
            fputs(",\"diagnostics\":[", js);
            for (size_t i = 0; i < spvbc_context_diagnostic_count(ctx); ++i)
                print_diag_json(js, spvbc_context_diagnostic(ctx, i), i == 0);
            fputs("]}", js);
        }
        goto out;
    }
    spv_target_env env = o->have_env ? o->env : universal_env(info.version);

    if (o->cmd == CMD_VALIDATE) {
        spvbc_validate_options vo;
        vo.flags = (o->strict ? SPVBC_VALIDATE_STRICT : 0u) |
                   (o->notes ? SPVBC_VALIDATE_NOTES : 0u) |
                   (o->werror ? SPVBC_VALIDATE_WARNINGS_AS_ERRORS : 0u);
        spvbc_result vr = spvbc_module_validate(mod, &vo, &r->vsum);
        if (vr != SPVBC_SUCCESS && vr != SPVBC_ERROR_VALIDATION_FAILED) {
            fprintf(err, "error: %s: %s\n", shown, spvbc_result_string(vr));
            r->status = 1;
            goto out;
        }
        size_t nd = spvbc_context_diagnostic_count(ctx);
        if (nd && !o->quiet && !o->no_disasm && !o->json)
            disasm_build(&dis, (const uint32_t *)in.data, in.size / 4, env);
        for (size_t i = 0; i < nd; ++i) {
            const spvbc_diagnostic *d = spvbc_context_diagnostic(ctx, i);
            count_rule(r, d->rule);
            if (!o->quiet && !o->json) print_diag(err, shown, d, &dis);
        }
        if (js) {
            fputs("{\"file\":", js);
            json_string(js, shown);
            fprintf(js,
                    ",\"summary\":{\"bitcasts_checked\":%zu,\"errors\":%zu,\"lowerable\":%zu,"
                    "\"warnings\":%zu,\"notes\":%zu},\"diagnostics\":[",
                    r->vsum.bitcasts_checked, r->vsum.errors, r->vsum.lowerable, r->vsum.warnings,
                    r->vsum.notes);
            for (size_t i = 0; i < nd; ++i)
                print_diag_json(js, spvbc_context_diagnostic(ctx, i), i == 0);
            fputs("]}", js);
        }
        r->status = vr == SPVBC_SUCCESS ? 0 : 1;
    } else {
        spvbc_lower_options lo;
        lo.pad = o->pad;
        lo.classes = o->classes;
        spvbc_result lr = spvbc_module_lower(mod, &lo, &r->lsum);
        if (lr != SPVBC_SUCCESS) {
            for (size_t i = 0; i < spvbc_context_diagnostic_count(ctx); ++i)
                print_diag(err, shown, spvbc_context_diagnostic(ctx, i), NULL);
            fprintf(err, "error: %s: lowering failed: %s\n", shown, spvbc_result_string(lr));
            r->status = 1;
            goto out;
        }
        size_t nd = spvbc_context_diagnostic_count(ctx);
        if (nd && !o->quiet && !o->no_disasm)
            disasm_build(&dis, (const uint32_t *)in.data, in.size / 4, env);
        for (size_t i = 0; i < nd; ++i) {
            const spvbc_diagnostic *d = spvbc_context_diagnostic(ctx, i);
            count_rule(r, d->rule);
            if (!o->quiet) print_diag(err, shown, d, &dis);
        }
        r->status = r->lsum.refused ? 1 : 0;
        bool verified = true;
        if (o->verify) {
            const uint32_t *w;
            size_t n;
            verified = spvbc_module_get_words(mod, &w, &n) == SPVBC_SUCCESS &&
                       verify_words(w, n, env, o->max_id_bound, err, shown);
            if (!verified) {
                r->status = 1;
                fprintf(err, "error: %s: output not written: it failed --verify\n", shown);
            }
        }
        if (r->out_path && verified) {
            char ebuf[512];
            const char *we = write_module(mod, r->out_path, ebuf, sizeof ebuf);
            if (we) {
                fprintf(err, "error: %s: %s\n", shown, we);
                r->status = 1;
            }
        }
    }
out:
    disasm_free(&dis);
    spvbc_module_destroy(mod);
    spvbc_context_destroy(ctx);
    if (e == NULL) release_input(&in);
    fclose(err);
    if (js) fclose(js);
}

/* ---- batch -------------------------------------------------------------------------------- */

typedef struct batch {
    const options *o;
    file_result *results;
    size_t count;
    size_t next; /* next file to take */
    size_t done;
    pthread_mutex_t lock;
} batch;

static void *worker(void *arg)
{
    batch *b = (batch *)arg;
    for (;;) {
        pthread_mutex_lock(&b->lock);
        size_t i = b->next < b->count ? b->next++ : b->count;
        pthread_mutex_unlock(&b->lock);
        if (i >= b->count) return NULL;
        process(b->o, &b->results[i]);
        pthread_mutex_lock(&b->lock);
        b->done++;
        if (b->o->progress) fprintf(stderr, "\r%s: %zu/%zu modules", g_prog, b->done, b->count);
        pthread_mutex_unlock(&b->lock);
    }
}

typedef struct path_list {
    char **items;
    size_t count, cap;
} path_list;

static bool list_add(path_list *l, const char *p)
{
    if (l->count == l->cap) {
        size_t ncap = l->cap ? l->cap * 2 : 64;
        char **n = realloc(l->items, ncap * sizeof *n);
        if (!n) return false;
        l->items = n;
        l->cap = ncap;
    }
    l->items[l->count] = strdup(p);
    return l->items[l->count++] != NULL;
}

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Adds every regular *.spv file below `dir`, recursively; returns false on error. */
static bool scan_dir(const char *dir, path_list *l, int depth)
{
    if (depth > 64) return true;
    DIR *d = opendir(dir);
    if (!d) {
        fprintf(stderr, "%s: cannot open directory %s: %s\n", g_prog, dir, strerror(errno));
        return false;
    }
    bool ok = true;
    struct dirent *ent;
    while ((ent = readdir(d)) && ok) {
        if (ent->d_name[0] == '.') continue;
        size_t len = strlen(dir) + strlen(ent->d_name) + 2;
        char *p = malloc(len);
        if (!p) {
            ok = false;
            break;
        }
        snprintf(p, len, "%s/%s", dir, ent->d_name);
        struct stat st;
        if (stat(p, &st) == 0) {
            if (S_ISDIR(st.st_mode))
                ok = scan_dir(p, l, depth + 1);
            else if (S_ISREG(st.st_mode) && len > 5 && !strcmp(p + strlen(p) - 4, ".spv"))
                ok = list_add(l, p);
        }
        free(p);
    }
    closedir(d);
    return ok;
}

static char *output_path_for(const options *o, const char *in, size_t nfiles)
{
    if (o->out_path && nfiles == 1) return strdup(o->out_path);
    if (o->suffix) {
        size_t len = strlen(in) + strlen(o->suffix) + 1;
        char *p = malloc(len);
        if (p) snprintf(p, len, "%s%s", in, o->suffix);
        return p;
    }
    if (o->out_dir) {
        const char *base = strrchr(in, '/');
        base = base ? base + 1 : in;
        size_t len = strlen(o->out_dir) + strlen(base) + 2;
        char *p = malloc(len);
        if (p) snprintf(p, len, "%s/%s", o->out_dir, base);
        return p;
    }
    return NULL;
}

static int run_files(options *o, path_list *files)
{
    file_result *res = calloc(files->count ? files->count : 1, sizeof *res);
    if (!res) {
        fprintf(stderr, "%s: out of memory\n", g_prog);
        return EXIT_FINDINGS;
    }
    for (size_t i = 0; i < files->count; ++i) {
        res[i].path = files->items[i];
        if (o->cmd == CMD_LOWER) {
            res[i].out_path = output_path_for(o, files->items[i], files->count);
            if (!res[i].out_path && files->count == 1 && !o->out_path) {
                if (isatty(STDOUT_FILENO)) {
                    usage_error("refusing to write a binary module to a terminal: use -o FILE "
                                "or -o -");
                    free(res);
                    return EXIT_USAGE;
                }
                res[i].out_path = strdup("-");
            }
        }
    }
    batch b;
    memset(&b, 0, sizeof b);
    b.o = o;
    b.results = res;
    b.count = files->count;
    pthread_mutex_init(&b.lock, NULL);
    unsigned jobs = o->jobs;
    if (jobs == 0) {
        long n = sysconf(_SC_NPROCESSORS_ONLN);
        jobs = n > 0 ? (unsigned)n : 1;
    }
    if (jobs > files->count) jobs = (unsigned)files->count;
    o->progress = files->count > 1 && isatty(STDERR_FILENO) && !o->quiet;
    if (jobs <= 1) {
        worker(&b);
    } else {
        pthread_t *t = calloc(jobs, sizeof *t);
        unsigned started = 0;
        if (t)
            for (; started < jobs; ++started)
                if (pthread_create(&t[started], NULL, worker, &b) != 0) break;
        if (started == 0) worker(&b);
        for (unsigned i = 0; i < started; ++i)
            pthread_join(t[i], NULL);
        free(t);
    }
    pthread_mutex_destroy(&b.lock);
    if (o->progress) fputs("\r\033[K", stderr);

    int status = 0;
    size_t totals[N_RULES] = {0};
    size_t bad = 0, failed = 0, checked = 0, errors = 0, warnings = 0, notes = 0, lowerable = 0,
           rewritten = 0, refused = 0, skipped = 0;
    if (o->json) fputs(files->count > 1 ? "[" : "", stdout);
    for (size_t i = 0; i < files->count; ++i) {
        file_result *r = &res[i];
        if (r->text_len) fwrite(r->text, 1, r->text_len, stderr);
        if (o->json && r->json) {
            if (i) fputc(',', stdout);
            fwrite(r->json, 1, r->json_len, stdout);
        }
        const char *shown = strcmp(r->path, "-") ? r->path : "<stdin>";
        if (!o->json && !r->bad_input && files->count == 1) {
            if (o->cmd == CMD_VALIDATE)
                printf("%s: %zu %s checked: %zu %s (%zu lowerable), %zu %s, %zu %s\n", shown,
                       r->vsum.bitcasts_checked,
                       plural(r->vsum.bitcasts_checked, "bitcast", "bitcasts"), r->vsum.errors,
                       plural(r->vsum.errors, "error", "errors"), r->vsum.lowerable,
                       r->vsum.warnings, plural(r->vsum.warnings, "warning", "warnings"),
                       r->vsum.notes, plural(r->vsum.notes, "note", "notes"));
            else
                fprintf(stderr,
                        "%s: %zu %s checked: %zu rewritten, %zu refused, %zu skipped (not "
                        "selected), %zu %s and %zu %s added\n",
                        shown, r->lsum.bitcasts_checked,
                        plural(r->lsum.bitcasts_checked, "bitcast", "bitcasts"), r->lsum.rewritten,
                        r->lsum.refused, r->lsum.skipped, r->lsum.types_added,
                        plural(r->lsum.types_added, "type", "types"), r->lsum.constants_added,
                        plural(r->lsum.constants_added, "constant", "constants"));
        }
        if (r->status) status = EXIT_FINDINGS;
        bad += r->bad_input;
        failed += r->status != 0;
        checked += o->cmd == CMD_VALIDATE ? r->vsum.bitcasts_checked : r->lsum.bitcasts_checked;
        errors += r->vsum.errors;
        warnings += r->vsum.warnings;
        notes += r->vsum.notes;
        lowerable += r->vsum.lowerable;
        rewritten += r->lsum.rewritten;
        refused += r->lsum.refused;
        skipped += r->lsum.skipped;
        for (size_t k = 0; k < N_RULES; ++k)
            totals[k] += r->rule_counts[k];
        free(r->text);
        free(r->json);
        free(r->out_path);
    }
    if (o->json) fputs(files->count > 1 ? "]\n" : "\n", stdout);
    if (files->count > 1) {
        FILE *f = o->json ? stderr : (o->cmd == CMD_VALIDATE ? stdout : stderr);
        fprintf(f,
                "summary: %zu modules (%zu unreadable or invalid, %zu with findings), %zu "
                "bitcasts checked",
                files->count, bad, failed, checked);
        if (o->cmd == CMD_VALIDATE)
            fprintf(f, ", %zu errors (%zu lowerable), %zu warnings, %zu notes", errors, lowerable,
                    warnings, notes);
        else
            fprintf(f, ", %zu rewritten, %zu refused, %zu skipped", rewritten, refused, skipped);
        bool any = false;
        for (size_t k = 0; k < N_RULES; ++k)
            if (totals[k] && strcmp(k_rules[k], "L-LOWERED")) {
                fprintf(f, "%s%s=%zu", any ? ", " : "; by rule: ", k_rules[k], totals[k]);
                any = true;
            }
        fputc('\n', f);
    }
    free(res);
    return status;
}

/* ---- explain ------------------------------------------------------------------------------ */

/* spirv-dis-style friendly name of a type description ("v4float", "uint"). */
static void friendly(const spvbc_type_desc *t, char *buf, size_t size)
{
    const char *base = "?";
    if (t->kind == SPVBC_SCALAR_FLOAT)
        base = t->width == 16 ? "half" : t->width == 32 ? "float" : "double";
    else if (t->kind == SPVBC_SCALAR_INT) {
        static const char *const s[] = {"char", "short", "int", "long"};
        static const char *const u[] = {"uchar", "ushort", "uint", "ulong"};
        int i = t->width == 8 ? 0 : t->width == 16 ? 1 : t->width == 32 ? 2 : 3;
        base = t->is_signed ? s[i] : u[i];
    }
    if (t->count == 1)
        snprintf(buf, size, "%%%s", base);
    else
        snprintf(buf, size, "%%v%u%s", t->count, base);
}

static int cmd_explain(int argc, char **argv)
{
    const char *names[2] = {NULL, NULL};
    int nn = 0;
    spvbc_pad_policy pad = SPVBC_PAD_UNDEF;
    bool shader = false;
    for (int i = 1; i < argc; ++i) {
        if (!strcmp(argv[i], "--pad")) {
            if (i + 1 >= argc || !parse_pad(argv[++i], &pad)) {
                usage_error("--pad takes undef, zero or error");
                return EXIT_USAGE;
            }
        } else if (!strncmp(argv[i], "--pad=", 6)) {
            if (!parse_pad(argv[i] + 6, &pad)) {
                usage_error("--pad takes undef, zero or error");
                return EXIT_USAGE;
            }
        } else if (!strcmp(argv[i], "--shader")) {
            shader = true;
        } else if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
            print_help(stdout);
            return 0;
        } else if (argv[i][0] == '-') {
            usage_error("unknown option '%s' for explain", argv[i]);
            return EXIT_USAGE;
        } else if (nn < 2) {
            names[nn++] = argv[i];
        } else {
            usage_error("explain takes exactly two type names");
            return EXIT_USAGE;
        }
    }
    if (nn != 2) {
        usage_error("explain takes two OpenCL C type names, e.g. 'explain float4 float3'");
        return EXIT_USAGE;
    }
    spvbc_type_desc src, dst;
    for (int k = 0; k < 2; ++k) {
        spvbc_type_desc *d = k ? &dst : &src;
        /* bool and void are names as_type knows to exclude (class "excluded"). */
        if (!strcmp(names[k], "bool") || !strcmp(names[k], "void")) {
            d->kind = names[k][0] == 'b' ? SPVBC_SCALAR_BOOL : SPVBC_SCALAR_VOID;
            d->width = 0;
            d->count = 1;
            d->is_signed = 0;
            continue;
        }
        if (spvbc_type_desc_from_opencl(names[k], d) != SPVBC_SUCCESS) {
            usage_error("'%s' is not an OpenCL C scalar or vector type (e.g. float4, uchar3, "
                        "half, ulong16; bool and void have no as_type)",
                        names[k]);
            return EXIT_USAGE;
        }
    }
    if (!shader) src.is_signed = dst.is_signed = 0; /* Kernel integers are signless */
    spvbc_plan_options po;
    po.features = shader ? (SPVBC_FEATURE_ALL_KERNEL | SPVBC_FEATURE_SHADER) : 0;
    po.pad = pad;
    spvbc_plan p;
    if (spvbc_astype_plan(&src, &dst, &po, &p) != SPVBC_SUCCESS) return EXIT_FINDINGS;

    const unsigned n = src.count, m = dst.count;
    const unsigned sbytes = src.width / 8 * (n == 3 ? 4 : n),
                   dbytes = dst.width / 8 * (m == 3 ? 4 : m);
    printf("as_%s(%s)\n", names[1], names[0]);
    printf("  class: %s\n", spvbc_astype_class_string(p.cls));
    if (p.refusal == SPVBC_REFUSE_BOOL_OR_VOID) {
        printf("  OpenCL C: error: as_type excludes bool and void\n");
        return EXIT_FINDINGS;
    }
    printf("  sizes: %s is %u bytes (%u bits of lanes), %s is %u bytes (%u bits of lanes)\n",
           names[0], sbytes, src.width * n, names[1], dbytes, dst.width * m);
    if (p.cls == SPVBC_ASTYPE_SIZE_ERROR) {
        printf("  OpenCL C: error: as_type needs operand and result of the same size in bytes\n");
        return EXIT_FINDINGS;
    }
    switch (p.cls) {
    case SPVBC_ASTYPE_IDENTITY:
        printf("  OpenCL C: defined: the same SPIR-V type; no instruction (use the operand)\n");
        break;
    case SPVBC_ASTYPE_SAME_COUNT:
        printf("  OpenCL C: defined: the bits are returned unchanged\n");
        break;
    case SPVBC_ASTYPE_4_TO_3:
        printf("  OpenCL C: defined: lanes 0..2 are the operand's lanes 0..2, bit-exact\n");
        break;
    default: printf("  OpenCL C: implementation-defined (different element counts)\n"); break;
    }
    if (p.cls != SPVBC_ASTYPE_IDENTITY && p.refusal == SPVBC_REFUSE_NONE)
        printf("  direct OpBitcast: %s (%u bits vs %u bits)\n",
               p.direct_bitcast_valid ? "valid SPIR-V" : "invalid SPIR-V", src.width * n,
               dst.width * m);
    if (p.refusal != SPVBC_REFUSE_NONE) {
        const char *why = p.refusal == SPVBC_REFUSE_PAD_POLICY
                              ? "the padding policy 'error' refuses 3-component sources"
                          : p.refusal == SPVBC_REFUSE_MISSING_FEATURE
                              ? "a side needs a capability the plan does not have"
                              : "not an OpenCL C as_type";
        printf("  plan: none: %s\n", why);
        return EXIT_FINDINGS;
    }
    printf("  exact lanes of the result:");
    for (unsigned j = 0; j < m; ++j)
        if (p.exact_lanes & (1u << j)) printf(" %u", j);
    if (p.exact_lanes != (m >= 32 ? 0xffffffffu : (1u << m) - 1u)) printf(" (others undefined)");
    printf("\n  plan (%u instruction%s):%s\n", p.op_count, p.op_count == 1 ? "" : "s",
           p.op_count ? "" : " none, the result is %x");
    char tn[32], cur[16] = "%x";
    for (uint32_t i = 0; i < p.op_count; ++i) {
        const spvbc_plan_op *op = &p.ops[i];
        friendly(&op->result_type, tn, sizeof tn);
        char res[16];
        if (i + 1 == p.op_count)
            snprintf(res, sizeof res, "%%r");
        else
            snprintf(res, sizeof res, "%%t%u", i + 1);
        if (op->kind == SPVBC_PLAN_OP_BITCAST) {
            printf("    %s = OpBitcast %s %s\n", res, tn, cur);
        } else {
            char null3[40] = "";
            if (op->second == SPVBC_PLAN_SECOND_NULL) {
                spvbc_type_desc s3 = src;
                char sn[32];
                friendly(&s3, sn, sizeof sn);
                snprintf(null3, sizeof null3, "%%null_%s", sn + 1);
            }
            printf("    %s = OpVectorShuffle %s %s %s", res, tn, cur,
                   op->second == SPVBC_PLAN_SECOND_NULL ? null3 : cur);
            for (uint32_t k = 0; k < op->lane_count; ++k)
                printf(" %u", op->lanes[k]);
            printf("\n");
        }
        snprintf(cur, sizeof cur, "%s", res);
    }
    return 0;
}

/* ---- main --------------------------------------------------------------------------------- */

/* The value of option `a` = argv[*i]: after '=' in "--name=V", else the next argument
 * (advancing *i).  NULL, after a usage message, when it is missing. */
static const char *opt_value(int argc, char **argv, int *i, size_t name_len)
{
    const char *a = argv[*i];
    if (a[name_len] == '=') return a + name_len + 1;
    if (*i + 1 >= argc) {
        usage_error("option '%s' needs an argument", a);
        return NULL;
    }
    return argv[++*i];
}

static int cmd_files(command cmd, int argc, char **argv)
{
    options o;
    memset(&o, 0, sizeof o);
    o.cmd = cmd;
    path_list files = {NULL, 0, 0};
    int status = EXIT_USAGE;
    bool dash_seen = false;
#define NEED_ARG()                                                                                 \
    do {                                                                                           \
        if (i + 1 >= argc) {                                                                       \
            usage_error("option '%s' needs an argument", argv[i]);                                 \
            goto done;                                                                             \
        }                                                                                          \
    } while (0)
    for (int i = 1; i < argc; ++i) {
        const char *a = argv[i];
        if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
            print_help(stdout);
            status = 0;
            goto done;
        } else if (!strcmp(a, "--target-env") || !strncmp(a, "--target-env=", 13)) {
            const char *v = opt_value(argc, argv, &i, 12);
            if (!v) goto done;
            if (!parse_env(v, &o.env)) {
                usage_error("unknown target environment '%s'", v);
                goto done;
            }
            o.have_env = true;
        } else if (!strcmp(a, "--max-id-bound") || !strncmp(a, "--max-id-bound=", 15)) {
            const char *v = opt_value(argc, argv, &i, 14);
            if (!v) goto done;
            if (!parse_u32(v, &o.max_id_bound) || o.max_id_bound == 0) {
                usage_error("--max-id-bound takes a positive 32-bit number");
                goto done;
            }
        } else if (!strcmp(a, "--jobs") || !strcmp(a, "-j")) {
            NEED_ARG();
            uint32_t j;
            if (!parse_u32(argv[++i], &j) || j == 0 || j > 1024) {
                usage_error("--jobs takes a number from 1 to 1024");
                goto done;
            }
            o.jobs = j;
        } else if (!strcmp(a, "-r")) {
            NEED_ARG();
            size_t before = files.count;
            if (!scan_dir(argv[++i], &files, 0)) {
                status = EXIT_FINDINGS;
                goto done;
            }
            /* readdir order is arbitrary: sort each scanned tree for stable output. */
            qsort(files.items + before, files.count - before, sizeof *files.items, cmp_str);
        } else if (!strcmp(a, "-q") || !strcmp(a, "--quiet")) {
            o.quiet = true;
        } else if (!strcmp(a, "--no-disassembly")) {
            o.no_disasm = true;
        } else if (cmd == CMD_VALIDATE && !strcmp(a, "--strict")) {
            o.strict = true;
        } else if (cmd == CMD_VALIDATE && !strcmp(a, "--notes")) {
            o.notes = true;
        } else if (cmd == CMD_VALIDATE && !strcmp(a, "-Werror")) {
            o.werror = true;
        } else if (cmd == CMD_VALIDATE && !strcmp(a, "--json")) {
            o.json = true;
        } else if (cmd == CMD_LOWER && (!strcmp(a, "--pad") || !strncmp(a, "--pad=", 6))) {
            const char *v = opt_value(argc, argv, &i, 5);
            if (!v) goto done;
            if (!parse_pad(v, &o.pad)) {
                usage_error("--pad takes undef, zero or error");
                goto done;
            }
        } else if (cmd == CMD_LOWER && (!strcmp(a, "--only") || !strncmp(a, "--only=", 7))) {
            const char *v = opt_value(argc, argv, &i, 6);
            if (!v) goto done;
            if (!parse_classes(v, &o.classes)) {
                usage_error("--only takes a comma-separated list of 4to3, 3to4, vec3src, "
                            "vec3dst");
                goto done;
            }
        } else if (cmd == CMD_LOWER && !strcmp(a, "--verify")) {
            o.verify = true;
        } else if (cmd == CMD_LOWER && !strcmp(a, "-o")) {
            NEED_ARG();
            o.out_path = argv[++i];
        } else if (cmd == CMD_LOWER && !strcmp(a, "--suffix")) {
            NEED_ARG();
            o.suffix = argv[++i];
            if (!*o.suffix) {
                usage_error("--suffix must not be empty (that would overwrite the inputs)");
                goto done;
            }
        } else if (cmd == CMD_LOWER && !strcmp(a, "--out-dir")) {
            NEED_ARG();
            o.out_dir = argv[++i];
        } else if (!strcmp(a, "-")) {
            if (dash_seen) {
                usage_error("stdin ('-') given twice");
                goto done;
            }
            dash_seen = true;
            if (!list_add(&files, a)) goto oom;
        } else if (a[0] == '-') {
            usage_error("unknown option '%s' for %s", a,
                        cmd == CMD_VALIDATE ? "validate" : "lower");
            goto done;
        } else {
            if (!list_add(&files, a)) goto oom;
        }
    }
#undef NEED_ARG
    if (files.count == 0 && !list_add(&files, "-")) goto oom;
    if (cmd == CMD_LOWER && files.count > 1) {
        if (o.out_path) {
            usage_error("-o takes one input; with several use --suffix or --out-dir");
            goto done;
        }
        if (!o.suffix && !o.out_dir) {
            usage_error("with several inputs, say where outputs go: --suffix S or --out-dir DIR");
            goto done;
        }
        if (dash_seen) {
            usage_error("stdin ('-') cannot be combined with other inputs for lower");
            goto done;
        }
    }
    if (cmd == CMD_LOWER && (o.suffix || o.out_dir) && files.count == 1 &&
        !strcmp(files.items[0], "-")) {
        usage_error("--suffix/--out-dir need file inputs");
        goto done;
    }
    status = run_files(&o, &files);
    goto done;
oom:
    fprintf(stderr, "%s: out of memory\n", g_prog);
    status = EXIT_FINDINGS;
done:
    for (size_t k = 0; k < files.count; ++k)
        free(files.items[k]);
    free(files.items);
    return status;
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        usage_error("missing command (validate, lower, explain or opt)");
        return EXIT_USAGE;
    }
    const char *cmd = argv[1];
    if (!strcmp(cmd, "--help") || !strcmp(cmd, "-h") || !strcmp(cmd, "help")) {
        print_help(stdout);
        return 0;
    }
    if (!strcmp(cmd, "--version")) {
        printf("spirv-bitcast %s (library %s)\n", SPVBC_VERSION_STRING, spvbc_version_string());
        return 0;
    }
    if (!strcmp(cmd, "validate")) return cmd_files(CMD_VALIDATE, argc - 1, argv + 1);
    if (!strcmp(cmd, "lower")) return cmd_files(CMD_LOWER, argc - 1, argv + 1);
    if (!strcmp(cmd, "explain")) return cmd_explain(argc - 1, argv + 1);
    if (!strcmp(cmd, "opt")) {
#ifdef SPVBC_HAVE_OPT
        return spvbc_cli_opt(argc - 1, argv + 1);
#else
        usage_error("this build has no 'opt' command (SPIRV-Tools' optimizer was not found)");
        return EXIT_USAGE;
#endif
    }
    usage_error("unknown command '%s'", cmd);
    return EXIT_USAGE;
}
