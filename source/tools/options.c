/* Options of `validate` and `lower`, and the SPIRV-Tools target environments. */
#define _POSIX_C_SOURCE 200809L

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

/* The index of `s` among the `count` strings of `names`, or -1. */
static int name_index(const char *s, const char *const *names, int count)
{
    for (int i = 0; i < count; ++i)
        if (!strcmp(s, names[i])) return i;
    return -1;
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

static bool parse_format(const char *s, cli_format *format)
{
    /* In the order of the enumerators CLI_FORMAT_TEXT, CLI_FORMAT_JSON, CLI_FORMAT_SARIF. */
    static const char *const names[] = {"text", "json", "sarif"};
    int i = name_index(s, names, 3);
    if (i < 0) return false;
    *format = (cli_format)i;
    return true;
}

/* The argument parser's state: the arguments, the position, and what was read so far. */
typedef struct parser {
    int argc;
    char **argv;
    int i;
    cli_options o;
    cli_path_list files;
    cli_dir_set dirs; /* entered by -r */
    bool dash_seen;
} parser;

/* The value of option argv[i], spelled "--name" (`name_len` characters) or "--name=V": after
 * '=' or the next argument.  NULL, after a usage message, when it is missing. */
static const char *opt_value(parser *p, size_t name_len)
{
    const char *a = p->argv[p->i];
    if (a[name_len] == '=') return a + name_len + 1;
    if (p->i + 1 >= p->argc) {
        cli_usage_error("option '%s' needs an argument", a);
        return NULL;
    }
    return p->argv[++p->i];
}

/* Whether argv[i] is option `name`, alone or (when `joined`) as "name=V". */
static bool is_opt(const parser *p, const char *name, bool joined)
{
    const char *a = p->argv[p->i];
    size_t n = strlen(name);
    return !strncmp(a, name, n) && (a[n] == '\0' || (joined && a[n] == '='));
}

typedef enum { PARSED, PARSE_HELP, PARSE_USAGE, PARSE_FAIL } parse_status;

/* Parses the option at argv[i] that both commands take; PARSE_FAIL + 1 when it is none. */
#define NOT_COMMON ((parse_status)(PARSE_FAIL + 1))
static parse_status parse_common(parser *p)
{
    cli_options *o = &p->o;
    const char *v;
    uint32_t j;
    if (is_opt(p, "--help", false) || is_opt(p, "-h", false)) {
        return PARSE_HELP;
    } else if (is_opt(p, "--target-env", true)) {
        if (!(v = opt_value(p, 12))) return PARSE_USAGE;
        if (!cli_parse_target_env(v, &o->env)) {
            cli_usage_error("unknown target environment '%s'", v);
            return PARSE_USAGE;
        }
        o->have_env = true;
    } else if (is_opt(p, "--max-id-bound", true)) {
        if (!(v = opt_value(p, 14))) return PARSE_USAGE;
        if (!cli_parse_u32(v, &o->max_id_bound) || o->max_id_bound == 0) {
            cli_usage_error("--max-id-bound takes a positive 32-bit number");
            return PARSE_USAGE;
        }
    } else if (is_opt(p, "--generation", true)) {
        if (!(v = opt_value(p, 12))) return PARSE_USAGE;
        if (spvbc_generation_from_string(v, &o->generation) != SPVBC_SUCCESS) {
            cli_usage_error("--generation takes 2023.1, 2025.1, 2026.4 or newest");
            return PARSE_USAGE;
        }
    } else if (is_opt(p, "--format", true)) {
        if (!(v = opt_value(p, 8))) return PARSE_USAGE;
        if (!parse_format(v, &o->format)) {
            cli_usage_error("--format takes text, json or sarif");
            return PARSE_USAGE;
        }
    } else if (is_opt(p, "--json", false)) {
        o->format = CLI_FORMAT_JSON;
    } else if (is_opt(p, "--jobs", true) || is_opt(p, "-j", false)) {
        if (!(v = opt_value(p, p->argv[p->i][1] == 'j' ? 2 : 6))) return PARSE_USAGE;
        if (!cli_parse_u32(v, &j) || j == 0 || j > 1024) {
            cli_usage_error("--jobs takes a number from 1 to 1024");
            return PARSE_USAGE;
        }
        o->jobs = j;
    } else if (is_opt(p, "-r", false)) {
        if (!(v = opt_value(p, 2))) return PARSE_USAGE;
        if (!cli_scan_dir(v, &p->files, &p->dirs)) return PARSE_FAIL;
    } else if (is_opt(p, "-q", false) || is_opt(p, "--quiet", false)) {
        o->quiet = true;
    } else if (is_opt(p, "--no-disassembly", false)) {
        o->no_disasm = true;
    } else {
        return NOT_COMMON;
    }
    return PARSED;
}

/* Parses an option of validate only; NOT_COMMON when it is none. */
static parse_status parse_validate_option(parser *p)
{
    if (is_opt(p, "--strict", false))
        p->o.strict = true;
    else if (is_opt(p, "--notes", false))
        p->o.notes = true;
    else if (is_opt(p, "-Werror", false))
        p->o.werror = true;
    else
        return NOT_COMMON;
    return PARSED;
}

/* Parses an option of lower only; NOT_COMMON when it is none. */
static parse_status parse_lower_option(parser *p)
{
    cli_options *o = &p->o;
    const char *v;
    if (is_opt(p, "--pad", true)) {
        if (!(v = opt_value(p, 5))) return PARSE_USAGE;
        if (spvbc_pad_policy_from_string(v, &o->pad) != SPVBC_SUCCESS) {
            cli_usage_error("--pad takes undef, zero or error");
            return PARSE_USAGE;
        }
    } else if (is_opt(p, "--only", true)) {
        if (!(v = opt_value(p, 6))) return PARSE_USAGE;
        if (!parse_classes(v, &o->classes)) {
            cli_usage_error("--only takes a comma-separated list of 4to3, 3to4, vec3src, "
                            "vec3dst");
            return PARSE_USAGE;
        }
    } else if (is_opt(p, "--verify", false)) {
        o->verify = true;
    } else if (is_opt(p, "-o", false)) {
        if (!(o->out_path = opt_value(p, 2))) return PARSE_USAGE;
    } else if (is_opt(p, "--suffix", true)) {
        if (!(o->suffix = opt_value(p, 8))) return PARSE_USAGE;
        if (!*o->suffix) {
            cli_usage_error("--suffix must not be empty (that would overwrite the inputs)");
            return PARSE_USAGE;
        }
    } else if (is_opt(p, "--out-dir", true)) {
        if (!(o->out_dir = opt_value(p, 9))) return PARSE_USAGE;
    } else {
        return NOT_COMMON;
    }
    return PARSED;
}

/* Parses one argument: an option or an input. */
static parse_status parse_argument(parser *p)
{
    const char *a = p->argv[p->i];
    parse_status st = parse_common(p);
    if (st == NOT_COMMON)
        st = p->o.cmd == CLI_CMD_VALIDATE ? parse_validate_option(p) : parse_lower_option(p);
    if (st != NOT_COMMON) return st;
    if (!strcmp(a, "-")) {
        if (p->dash_seen) {
            cli_usage_error("stdin ('-') given twice");
            return PARSE_USAGE;
        }
        p->dash_seen = true;
    } else if (a[0] == '-') {
        cli_usage_error("unknown option '%s' for %s", a,
                        p->o.cmd == CLI_CMD_VALIDATE ? "validate" : "lower");
        return PARSE_USAGE;
    }
    if (!cli_path_list_add(&p->files, a)) {
        fprintf(stderr, "%s: out of memory\n", cli_prog);
        return PARSE_FAIL;
    }
    return PARSED;
}

/* Checks the combination of inputs and outputs of lower; false after a usage message. */
static bool check_lower_outputs(const parser *p)
{
    const cli_options *o = &p->o;
    size_t n = p->files.count;
    bool only_stdin = n == 1 && !strcmp(p->files.items[0], "-");
    if (n > 1) {
        if (o->out_path) {
            cli_usage_error("-o takes one input; with several use --suffix or --out-dir");
            return false;
        }
        if (!o->suffix && !o->out_dir) {
            cli_usage_error("with several inputs, say where outputs go: --suffix S or --out-dir "
                            "DIR");
            return false;
        }
        if (p->dash_seen) {
            cli_usage_error("stdin ('-') cannot be combined with other inputs for lower");
            return false;
        }
    }
    if ((o->suffix || o->out_dir) && only_stdin) {
        cli_usage_error("--suffix/--out-dir need file inputs");
        return false;
    }
    /* A report on stdout and a module on stdout would be one unusable stream. */
    if (o->format != CLI_FORMAT_TEXT && n == 1 && !o->suffix && !o->out_dir &&
        (!o->out_path || !strcmp(o->out_path, "-"))) {
        cli_usage_error("--format %s writes the report on stdout: write the module to a file "
                        "(-o FILE)",
                        o->format == CLI_FORMAT_JSON ? "json" : "sarif");
        return false;
    }
    return true;
}

static int cmd_files(cli_command cmd, int argc, char **argv)
{
    parser p;
    memset(&p, 0, sizeof p);
    p.argc = argc;
    p.argv = argv;
    p.o.cmd = cmd;
    int status = CLI_EXIT_USAGE;
    for (p.i = 1; p.i < argc; ++p.i) {
        parse_status st = parse_argument(&p);
        if (st == PARSED) continue;
        status = st == PARSE_HELP   ? CLI_EXIT_HELP
                 : st == PARSE_FAIL ? CLI_EXIT_FINDINGS
                                    : CLI_EXIT_USAGE;
        goto done;
    }
    if (p.files.count == 0 && !cli_path_list_add(&p.files, "-")) {
        fprintf(stderr, "%s: out of memory\n", cli_prog);
        status = CLI_EXIT_FINDINGS;
        goto done;
    }
    if (cmd == CLI_CMD_LOWER && !check_lower_outputs(&p)) goto done;
    status = cli_run_files(&p.o, &p.files);
done:
    cli_path_list_free(&p.files);
    cli_dir_set_free(&p.dirs);
    return status;
}

int cli_cmd_validate(int argc, char **argv)
{
    return cmd_files(CLI_CMD_VALIDATE, argc, argv);
}

int cli_cmd_lower(int argc, char **argv)
{
    return cmd_files(CLI_CMD_LOWER, argc, argv);
}
