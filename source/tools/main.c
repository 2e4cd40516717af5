/* spirv-bitcast: command-line tool over the public C API.
 *
 *   spirv-bitcast validate [options] [file... | -r DIR | -]
 *   spirv-bitcast lower    [options] [file... | -r DIR | -]
 *   spirv-bitcast explain  SRC DST [--pad P] [--shader]
 *   spirv-bitcast opt      [spirv-opt flags] [--lower-astype[=P]] [--validate-bitcast] -o out in
 *
 * Exit status: 0 success, 1 findings or invalid input, 2 usage error.
 *
 * This file is the command table; cli.h maps the other rooms. */
#include <stdio.h>
#include <string.h>

#include "cli.h"

static void print_help(FILE *f);

static int cmd_help(int argc, char **argv)
{
    (void)argc;
    (void)argv;
    print_help(stdout);
    return 0;
}

static int cmd_version(int argc, char **argv)
{
    (void)argc;
    (void)argv;
    printf("spirv-bitcast %s (library %s)\n", SPVBC_VERSION_STRING, spvbc_version_string());
#ifdef SPVBC_SPIRV_HEADERS_VERSION
    printf("opcode facts from SPIRV-Headers %s\n", SPVBC_SPIRV_HEADERS_VERSION);
#endif
    printf("verdicts of SPIRV-Tools %s by default; --generation 2023.1, 2025.1, 2026.4\n",
           spvbc_generation_string(SPVBC_GENERATION_NEWEST));
    return 0;
}

static int cmd_opt(int argc, char **argv)
{
#ifdef SPVBC_HAVE_OPT
    return cli_cmd_opt(argc, argv);
#else
    (void)argc;
    (void)argv;
    cli_usage_error("this build has no 'opt' command (SPIRV-Tools' optimizer was not found)");
    return CLI_EXIT_USAGE;
#endif
}

typedef struct command {
    const char *name;
    int (*run)(int argc, char **argv); /* argv[0] is the command name */
    const char *synopsis; /* NULL: an option, listed under "General options" in --help */
    const char *help;
} command;

static const command k_commands[] = {
    {"validate", cli_cmd_validate, "validate",
     "report every invalid or suspicious OpBitcast (functions and spec constants)"},
    {"lower", cli_cmd_lower, "lower",
     "rewrite as_type-legal but invalid bitcasts; write the module"},
    {"explain", cli_cmd_explain, "explain SRC DST",
     "how as_DST(SRC) maps onto SPIR-V, e.g. 'explain float4 float3'"},
    {"opt", cmd_opt, "opt",
     "spirv-opt with our passes in the pipeline (see 'spirv-bitcast opt --help')"},
    {"help", cmd_help, "help", "print this help (the same as -h and --help)"},
    {"--help", cmd_help, NULL, NULL},
    {"-h", cmd_help, NULL, NULL},
    {"--version", cmd_version, NULL, NULL},
};
#define N_COMMANDS (sizeof k_commands / sizeof k_commands[0])

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
        "Commands:\n");
    for (size_t i = 0; i < N_COMMANDS; ++i) {
        const command *c = &k_commands[i];
        if (!c->synopsis) continue;
        if (strlen(c->synopsis) < 11)
            fprintf(f, "  %-11s%s\n", c->synopsis, c->help);
        else
            fprintf(f, "  %s\n  %11s%s\n", c->synopsis, "", c->help);
    }
    fprintf(
        f,
        "\n"
        "General options:\n"
        "  -h, --help         print this help\n"
        "  --version          print the versions of the tool and of the library\n"
        "\n"
        "Input: files, '-' or nothing for stdin, or -r DIR for every *.spv below DIR. Several\n"
        "inputs are processed in parallel (--jobs N) and followed by a summary. A long option's\n"
        "value is the next argument or follows '=' (--jobs=4); a short one's, the next argument.\n"
        "\n"
        "Common options:\n"
        "  --target-env E     spv1.0..spv1.6, vulkan1.0..vulkan1.3, opencl1.2, opencl2.0..2.2,\n"
        "                     universal1.0..1.6: the module's version must be allowed by E; also\n"
        "                     the environment for --verify (default: from the module's version)\n"
        "  --max-id-bound N   accept id bounds up to N (default 4194303)\n"
        "  --generation G     give the verdicts of SPIRV-Tools G: 2023.1, 2025.1, 2026.4 or\n"
        "                     newest (default: newest, 2026.4)\n"
        "  -r DIR             process every *.spv file below DIR (links to directories are not\n"
        "                     followed)\n"
        "  --jobs N, -j N     worker threads for several inputs (default: number of CPUs)\n"
        "  -q, --quiet        only summaries: no finding and no input error (an input that\n"
        "                     cannot be checked gets a 'FILE: not checked: REASON' line)\n"
        "  --no-disassembly   do not print the disassembled instruction under each finding\n"
        "  --format F         text (default: messages on stderr), json, or sarif (one SARIF 2.1.0\n"
        "                     log for all inputs, for code scanning in CI): the report on stdout;\n"
        "                     lower then needs -o FILE, --suffix or --out-dir for the module\n"
        "  --json             the same as --format json\n"
        "\n"
        "validate options:\n"
        "  --strict           rules of current SPIRV-Tools that the --generation selected does\n"
        "                     not check are errors (W-LOGICAL-PTR, W-SPEC-BITCAST)\n"
        "  --notes            also report as_type whose result OpenCL leaves "
        "implementation-defined\n"
        "  -Werror            treat warnings as errors\n"
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

int main(int argc, char **argv)
{
#ifdef _WIN32
    /* The C runtime there buffers stderr when it is a pipe or a file: findings would come after
     * the summary on stdout in a merged stream (2>&1).  C says stderr is not fully buffered. */
    (void)setvbuf(stderr, NULL, _IONBF, 0);
#endif
    if (argc < 2) {
        cli_usage_error("missing command (validate, lower, explain or opt)");
        return CLI_EXIT_USAGE;
    }
    for (size_t i = 0; i < N_COMMANDS; ++i) {
        if (strcmp(argv[1], k_commands[i].name)) continue;
        int status = k_commands[i].run(argc - 1, argv + 1);
        if (status != CLI_EXIT_HELP) return status;
        print_help(stdout);
        return 0;
    }
    cli_usage_error("unknown command '%s'", argv[1]);
    return CLI_EXIT_USAGE;
}
