/* The command line of `opt`: --help, -Oconfig=FILE, our options, and the cut of the line into
 * stages at each of our passes.  spirv-opt's own pass flags are only collected here; opt.cpp
 * hands them to SPIRV-Tools' flag parser, which accepts or rejects them. */
#define _POSIX_C_SOURCE 200809L

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

/* SPIR-V's minimum id-bound limit, which spirv-opt also refuses to go below. */
#define MIN_MAX_ID_BOUND 0x3FFFFFu

static void print_help(FILE *f)
{
    fputs("usage: spirv-bitcast opt [spirv-opt flags and our flags, in pipeline order] -o <out> "
          "[<in>]\n"
          "\n"
          "A drop-in for spirv-opt: runs SPIRV-Tools' optimizer passes and this project's passes\n"
          "in the order given.  <in> or '-' (or no file) reads stdin; '-o -' writes stdout.\n"
          "\n"
          "Our passes (each may appear anywhere, any number of times; the pipeline is cut there):\n"
          "  --lower-astype[=undef|zero|error]\n"
          "        Rewrite as_type-legal but SPIR-V-invalid OpBitcasts (4->3, 3->4, 3-component\n"
          "        source or result) into OpVectorShuffle (+ OpBitcast).  The value names how the\n"
          "        fourth lane of a 3->4 result is filled (default undef); 'error' refuses to\n"
          "        lower a 3-component source.  Any bitcast left invalid is an error (exit 1).\n"
          "        Put --lower-astype FIRST when the input's only problem is such bitcasts:\n"
          "        the input is then validated after the leading --lower-astype passes instead\n"
          "        of before them, so input that spirv-opt would reject is accepted.\n"
          "  --validate-bitcast\n"
          "        Check every OpBitcast against the SPIR-V and OpenCL as_type rules at this\n"
          "        point of the pipeline; print the findings; fail (exit 1) on any error.\n"
          "\n"
          "SPIRV-Tools passes: every pass flag of spirv-opt (-O, -Os, --strip-debug,\n"
          "--eliminate-dead-code-aggressive, --legalize-hlsl, ...; see `spirv-opt --help`),\n"
          "parsed by SPIRV-Tools' own flag parser.  An unknown flag is a usage error (exit 2).\n"
          "\n"
          "Options (anywhere on the line):\n"
          "  -o <file>              Output file ('-' for stdout).  Required.  Written as by\n"
          "                         'spirv-bitcast lower -o' (see OUTPUT in spirv-bitcast(1)).\n"
          "  --target-env <env>     Target environment, spelled as for spirv-opt (spv1.5,\n"
          "                         vulkan1.2, opencl1.2, ...); also --target-env=<env>.\n"
          "                         Default: spv1.6, as spirv-opt.\n"
          "  --skip-validation      Do not validate the input and the output with spirv-val.\n"
          "  --max-id-bound <n>     Id bound limit (at least 0x3FFFFF) for the validator, the\n"
          "                         optimizer and our parser; also --max-id-bound=<n>.\n"
          "  --generation <g>       Verdicts of our stages as SPIRV-Tools <g> gives them: 2023.1,\n"
          "                         2025.1, 2026.4 or newest (default); also --generation=<g>.\n"
          "  --preserve-bindings, --preserve-spec-constants, --validate-after-all,\n"
          "  --print-all, --time-report, --before-hlsl-legalization, --relax-logical-pointer,\n"
          "  --relax-block-layout, --scalar-block-layout, --workgroup-scalar-block-layout,\n"
          "  --skip-block-layout, --relax-struct-store, -Oconfig=<file>\n"
          "                         As for spirv-opt.\n"
          "  -h, --help             Print this help.\n"
          "  --version              Print the versions of spirv-bitcast and SPIRV-Tools.\n"
          "\n"
          "With none of our passes, the output is byte-for-byte that of spirv-opt with the same\n"
          "flags.  Validation: the input before the first pass (see --lower-astype above) and the\n"
          "output after the last, with SPIRV-Tools' validator and the target environment.\n"
          "Exit status: 0 success, 1 failure (invalid input or output, a failing pass, bitcast\n"
          "errors), 2 usage error.\n",
          f);
}

/* spirv-opt's flags that switch one option of ours on, and spirv-val's relaxations. */
static const struct {
    const char *name;
    size_t offset; /* of a bool in cli_opt_args, or (size_t)-1 for a relaxation */
    uint32_t relax;
} k_flags[] = {
    {"--skip-validation", offsetof(cli_opt_args, skip_validation), 0},
    {"--preserve-bindings", offsetof(cli_opt_args, preserve_bindings), 0},
    {"--preserve-spec-constants", offsetof(cli_opt_args, preserve_spec_constants), 0},
    {"--validate-after-all", offsetof(cli_opt_args, validate_after_all), 0},
    {"--print-all", offsetof(cli_opt_args, print_all), 0},
    {"--time-report", offsetof(cli_opt_args, time_report), 0},
    {"--before-hlsl-legalization", (size_t)-1, CLI_RELAX_BEFORE_HLSL_LEGALIZATION},
    {"--relax-logical-pointer", (size_t)-1, CLI_RELAX_LOGICAL_POINTER},
    {"--relax-block-layout", (size_t)-1, CLI_RELAX_BLOCK_LAYOUT},
    {"--scalar-block-layout", (size_t)-1, CLI_RELAX_SCALAR_BLOCK_LAYOUT},
    {"--workgroup-scalar-block-layout", (size_t)-1, CLI_RELAX_WORKGROUP_SCALAR_BLOCK_LAYOUT},
    {"--skip-block-layout", (size_t)-1, CLI_RELAX_SKIP_BLOCK_LAYOUT},
    {"--relax-struct-store", (size_t)-1, CLI_RELAX_STRUCT_STORE},
};

/* spirv-opt still accepts these pass flags with their argument as the next word
 * ("--loop-fusion 3"); the optimizer's parser wants "--loop-fusion=3". */
static bool takes_separate_argument(const char *flag)
{
    static const char *const names[] = {"--set-spec-const-default-value", "--loop-fission",
                                        "--loop-fusion", "--loop-unroll-partial",
                                        "--loop-peeling-threshold"};
    for (size_t i = 0; i < sizeof names / sizeof names[0]; ++i)
        if (!strcmp(flag, names[i])) return true;
    return false;
}

/* Adds the flags of an -Oconfig=FILE to `l` the way spirv-opt reads them: whitespace-separated
 * words, lines starting with '#' ignored, no quoting; false when it cannot be read. */
static bool read_config_flags(const char *path, cli_path_list *l)
{
    cli_input in;
    if (cli_input_load(path, &in)) return false;
    bool ok = true, line_start = true, comment = false;
    const char *p = in.data, *end = p + in.size;
    while (ok && p < end) {
        if (*p == '\n') {
            line_start = true;
            comment = false;
            ++p;
            continue;
        }
        if (line_start && *p == '#') comment = true;
        line_start = false;
        if (comment || strchr(" \t\r\v\f", *p)) {
            ++p;
            continue;
        }
        const char *w = p;
        while (p < end && !strchr(" \t\r\v\f\n", *p))
            ++p;
        size_t n = (size_t)(p - w);
        char *word = malloc(n + 1); /* no strndup() in MinGW-w64 */
        if (word) {
            memcpy(word, w, n);
            word[n] = '\0';
        }
        ok = word && cli_path_list_add(l, word);
        free(word);
    }
    cli_input_release(&in);
    return ok;
}

/* Adds a new stage of `kind` to `a`; NULL when out of memory. */
static cli_opt_stage *add_stage(cli_opt_args *a, cli_opt_stage_kind kind, const char *spelling)
{
    cli_opt_stage *n = realloc(a->stages, (a->stage_count + 1) * sizeof *n);
    if (!n) return NULL;
    a->stages = n;
    n += a->stage_count++;
    memset(n, 0, sizeof *n);
    n->kind = kind;
    n->spelling = spelling;
    return n;
}

/* The value of option `name` at words[*i], spelled "name=V" or "name V" (*i then advances
 * past V); NULL after a usage message when it is missing. */
static const char *option_value(const cli_opt_args *a, size_t *i, const char *name)
{
    const char *w = a->words.items[*i];
    size_t n = strlen(name);
    if (w[n] == '=') return w + n + 1;
    if (*i + 1 >= a->words.count) {
        cli_usage_error_for("opt", "%s needs a value", name);
        return NULL;
    }
    return a->words.items[++*i];
}

static bool is_flag(const char *w, const char *name, bool joined)
{
    size_t n = strlen(name);
    return !strncmp(w, name, n) && (w[n] == '\0' || (joined && w[n] == '='));
}

/* Parses one word at words[*i] into `a`; returns CLI_OPT_RUN to go on or an exit status. */
static int parse_word(cli_opt_args *a, size_t *i)
{
    const char *w = a->words.items[*i], *v;
    bool have_next = *i + 1 < a->words.count;
    if (w[0] != '-' || !strcmp(w, "-")) {
        if (a->in_path) {
            cli_usage_error_for("opt", "more than one input file: '%s' and '%s'", a->in_path, w);
            return CLI_EXIT_USAGE;
        }
        a->in_path = w;
    } else if (!strcmp(w, "-h") || !strcmp(w, "--help")) {
        print_help(stdout);
        return 0;
    } else if (!strcmp(w, "--version")) {
        printf("spirv-bitcast opt %s\n%s\n", spvbc_version_string(),
               spvSoftwareVersionDetailsString());
        return 0;
    } else if (is_flag(w, "-o", false)) {
        if (a->out_path || !have_next) {
            cli_usage_error_for("opt", a->out_path ? "-o given twice" : "-o needs a file name");
            return CLI_EXIT_USAGE;
        }
        a->out_path = a->words.items[++*i];
    } else if (is_flag(w, "--lower-astype", true)) {
        spvbc_pad_policy pad = SPVBC_PAD_UNDEF;
        if (w[14] == '=' && spvbc_pad_policy_from_string(w + 15, &pad) != SPVBC_SUCCESS) {
            cli_usage_error_for("opt", "bad value in '%s': expected undef, zero or error", w);
            return CLI_EXIT_USAGE;
        }
        cli_opt_stage *s = add_stage(a, CLI_OPT_LOWER_ASTYPE, w);
        if (!s) return CLI_EXIT_FINDINGS;
        s->pad = pad;
    } else if (is_flag(w, "--validate-bitcast", false)) {
        if (!add_stage(a, CLI_OPT_VALIDATE_BITCAST, w)) return CLI_EXIT_FINDINGS;
    } else if (is_flag(w, "--target-env", true)) {
        if (!(v = option_value(a, i, "--target-env"))) return CLI_EXIT_USAGE;
        if (!cli_parse_target_env(v, &a->env)) {
            cli_usage_error_for("opt", "unknown target environment '%s'", v);
            return CLI_EXIT_USAGE;
        }
    } else if (is_flag(w, "--max-id-bound", true)) {
        if (!(v = option_value(a, i, "--max-id-bound"))) return CLI_EXIT_USAGE;
        if (!cli_parse_u32(v, &a->max_id_bound) || a->max_id_bound < MIN_MAX_ID_BOUND) {
            cli_usage_error_for("opt", "bad --max-id-bound '%s': a number of at least 0x3FFFFF", v);
            return CLI_EXIT_USAGE;
        }
    } else if (is_flag(w, "--generation", true)) {
        if (!(v = option_value(a, i, "--generation"))) return CLI_EXIT_USAGE;
        if (spvbc_generation_from_string(v, &a->generation) != SPVBC_SUCCESS) {
            cli_usage_error_for("opt", "bad --generation '%s': 2023.1, 2025.1, 2026.4 or newest",
                                v);
            return CLI_EXIT_USAGE;
        }
    } else if (!strncmp(w, "-Oconfig=", 9)) {
        /* Expanded before parsing; one left here came from a configuration file. */
        cli_usage_error_for("opt", "-Oconfig= may not be used inside a configuration file");
        return CLI_EXIT_USAGE;
    } else {
        for (size_t k = 0; k < sizeof k_flags / sizeof k_flags[0]; ++k) {
            if (strcmp(w, k_flags[k].name)) continue;
            if (k_flags[k].offset == (size_t)-1)
                a->relax |= k_flags[k].relax;
            else
                *(bool *)((char *)a + k_flags[k].offset) = true;
            return CLI_OPT_RUN;
        }
        /* A spirv-opt pass flag: appended to the current SPIRV-Tools stage. */
        if (a->stage_count == 0 || a->stages[a->stage_count - 1].kind != CLI_OPT_SPIRV_TOOLS)
            if (!add_stage(a, CLI_OPT_SPIRV_TOOLS, w)) return CLI_EXIT_FINDINGS;
        cli_path_list *flags = &a->stages[a->stage_count - 1].flags;
        if (takes_separate_argument(w) && have_next) {
            size_t len = strlen(w) + strlen(a->words.items[*i + 1]) + 2;
            char *joined = malloc(len);
            if (joined) snprintf(joined, len, "%s=%s", w, a->words.items[++*i]);
            bool ok = joined && cli_path_list_add(flags, joined);
            free(joined);
            if (!ok) return CLI_EXIT_FINDINGS;
        } else if (!cli_path_list_add(flags, w)) {
            return CLI_EXIT_FINDINGS;
        }
        /* Code from an HLSL front end is validated with the relaxed rules, as spirv-opt does. */
        if (!strcmp(w, "--legalize-hlsl")) a->relax |= CLI_RELAX_BEFORE_HLSL_LEGALIZATION;
    }
    return CLI_OPT_RUN;
}

int cli_opt_parse(int argc, char **argv, cli_opt_args *a)
{
    memset(a, 0, sizeof *a);
    a->env = SPV_ENV_UNIVERSAL_1_6; /* spirv-opt's default: every SPIR-V version up to 1.6 */
    for (int i = 1; i < argc; ++i) {
        bool ok;
        if (!strncmp(argv[i], "-Oconfig=", 9)) {
            ok = read_config_flags(argv[i] + 9, &a->words);
            if (!ok) {
                cli_usage_error_for("opt", "cannot read optimizer flags from '%s'", argv[i] + 9);
                return CLI_EXIT_USAGE;
            }
        } else if (!cli_path_list_add(&a->words, argv[i])) {
            fprintf(stderr, "%s: out of memory\n", cli_prog);
            return CLI_EXIT_FINDINGS;
        }
    }
    for (size_t i = 0; i < a->words.count; ++i) {
        int st = parse_word(a, &i);
        if (st == CLI_EXIT_FINDINGS) fprintf(stderr, "%s: out of memory\n", cli_prog);
        if (st != CLI_OPT_RUN) return st;
    }
    if (!a->out_path) {
        cli_usage_error_for("opt", "-o <file> is required");
        return CLI_EXIT_USAGE;
    }
    if (!a->in_path) a->in_path = "-";
    a->shown = strcmp(a->in_path, "-") ? a->in_path : "<stdin>";
    return CLI_OPT_RUN;
}

void cli_opt_args_free(cli_opt_args *a)
{
    for (size_t i = 0; i < a->stage_count; ++i)
        cli_path_list_free(&a->stages[i].flags);
    free(a->stages);
    cli_path_list_free(&a->words);
    memset(a, 0, sizeof *a);
}
