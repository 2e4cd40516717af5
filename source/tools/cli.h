/*
 * cli.h - the rooms of the spirv-bitcast command-line tool (private to source/tools/).
 *
 * Rooms, each calling only rooms listed below it (main.c at the top, io.c the ground floor):
 *
 *   main.c           the command table, --help, --version
 *   opt.cpp          `opt`: SPIRV-Tools' optimizer and the pipeline (C++: the optimizer has no
 *                    C API); everything else of `opt` is in the C rooms below
 *   opt_args.c       the command line of `opt`
 *   opt_passes.c     `opt`'s own passes (--lower-astype, --validate-bitcast) and spirv-val
 *   explain.c        `explain SRC DST`
 *   options.c        options of validate and lower
 *   batch.c          several inputs: -r DIR, worker threads, progress, summaries
 *   process.c        one input: parse, --target-env, validate or lower, --verify, write
 *   report.c         findings as text and JSON; disassembly of diagnosed instructions
 *   report_sarif.c   findings as SARIF 2.1.0; the table of rule ids
 *   output.c         output that never destroys: what -o does with each kind of path
 *   io.c             inputs (mapped files, stdin), the allocator, usage errors, JSON strings
 *
 * Every room uses the public API (spirv_bitcast.h) and SPIRV-Tools only.
 *
 * SPDX-License-Identifier: Apache-2.0
 */
#ifndef SPVBC_TOOLS_CLI_H_
#define SPVBC_TOOLS_CLI_H_

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>

/* libspirv.h defines (not only declares) the constant kDefaultMaxIdBound: one definition per
 * C file that includes it (C++ gives a namespace-scope const internal linkage; C does not).
 * Weak, the copies of the CLI's C files link as one. */
#ifndef __cplusplus
#define kDefaultMaxIdBound kDefaultMaxIdBound __attribute__((weak))
#endif
#include <spirv-tools/libspirv.h>
#undef kDefaultMaxIdBound

#include "spirv_bitcast.h"

#ifdef __cplusplus
extern "C" {
#endif

#define CLI_EXIT_FINDINGS 1
#define CLI_EXIT_USAGE 2

/** What a command's handler returns for its --help: main() prints the help and exits 0. */
#define CLI_EXIT_HELP (-1)

/* ---- options.c ---------------------------------------------------------------------------- */

typedef enum cli_command { CLI_CMD_VALIDATE, CLI_CMD_LOWER } cli_command;
typedef enum cli_format { CLI_FORMAT_TEXT, CLI_FORMAT_JSON, CLI_FORMAT_SARIF } cli_format;

typedef struct cli_options {
    cli_command cmd;
    cli_format format;
    bool have_env;
    spv_target_env env;
    uint32_t max_id_bound;
    uint32_t generation; /* SPVBC_GENERATION_*: whose verdicts (--generation) */
    bool strict, notes, werror, quiet, no_disasm, verify;
    spvbc_pad_policy pad;
    uint32_t classes;
    const char *out_path, *suffix, *out_dir;
    unsigned jobs;
    bool progress;
    /* -q on one input in text: the library keeps only the first finding of each call
     * (spvbc_context_set_diagnostic_policy), the reason of a "not checked" summary, since
     * nothing else reads one; several inputs keep them for the summary's counts by rule */
    bool keep_first_only;
    /* one input: its text report goes straight to stderr as it is made (cli_stderr_stream),
     * not through a buffer kept until the input is done */
    bool stream_text;
} cli_options;

/** `validate` and `lower`: parses `argv` (argv[0] is the command name) and runs the inputs;
 *  returns the exit status. */
int cli_cmd_validate(int argc, char **argv);
int cli_cmd_lower(int argc, char **argv);

/* ---- io.c --------------------------------------------------------------------------------- */

typedef struct cli_input {
    const char *path; /* "-" for stdin */
    void *data;
    size_t size;
    bool mapped;
    bool let_go; /* cli_input_drop() let some of its pages go */
} cli_input;

/** Reads `path` into `in`: mapped when it is a regular file, read as a stream when it is "-"
 *  (stdin), a FIFO or a device; returns an error text or NULL. */
const char *cli_input_load(const char *path, cli_input *in);
/** Lets the memory of a mapped input's pages from the one holding byte `from` up to the one
 *  holding byte `to` (not included; all of them when `to` is the size) go: they are read again
 *  from the file when next touched, and meanwhile do not count as the process's memory (peak
 *  RSS: a large input is not all resident again while its report or its output is written).
 *  Nothing for an input read into memory. */
void cli_input_drop(cli_input *in, size_t from, size_t to);
/** Maps the pages of bytes [from, to) of an input whose pages were let go again in one call
 *  (where the system can: MADV_POPULATE_READ), cheaper than a fault for each in a write. */
void cli_input_populate(cli_input *in, size_t from, size_t to);
/** How many bytes of input the report of the findings and the output's write pass before they
 *  let the pages behind them go (the write also maps them again ahead of itself in steps of this
 *  size): small, so that the pages mapped ahead, the batch being written and the pages not yet
 *  let go stay a few MiB in all.  (The parse lets go of them every 4 MiB, at its callback.) */
#define CLI_DROP_STEP ((size_t)1 << 20)
/** Releases what cli_input_load() read. */
void cli_input_release(cli_input *in);
/** True on a big-endian host. */
bool cli_host_big_endian(void);
/** Copies `count` words from `src` to `dst` with each word's bytes reversed. */
void cli_swap_words(uint32_t *dst, const uint32_t *src, size_t count);
/** `words` in SPIR-V's default byte order (little-endian) in memory: `words` itself on a
 *  little-endian host, else a byte-swapped copy put in `*copy` (free() it; NULL and the result
 *  NULL when out of memory).  SPIRV-Tools reads the literal strings of a big-endian module
 *  byte-reversed, so on a big-endian host the CLI hands it little-endian words. */
const uint32_t *cli_words_le(const uint32_t *words, size_t count, uint32_t **copy);
/** A stream whose bytes end up in `*buf` (NUL-terminated, `*len` bytes, free() it) once
 *  cli_memstream_close() closed it: open_memstream(), or a temporary file on Windows. */
FILE *cli_memstream_open(char **buf, size_t *len);
int cli_memstream_close(FILE *f, char **buf, size_t *len);
/** A fully buffered stream of its own onto the standard error (a duplicate of its descriptor:
 *  fclose() it), for a report written as it is made; NULL where it cannot be had, and on
 *  Windows, whose stderr the CLI keeps unbuffered (the caller buffers the report instead). */
FILE *cli_stderr_stream(void);
/** The allocator of every context the CLI creates (huge pages for large tables; NULL, the
 *  library's malloc/free, on Windows). */
extern const spvbc_allocator *const cli_allocator;

extern const char *const cli_prog;

/** Prints "<prog>: <fmt...>" and a pointer to --help on stderr. */
void cli_usage_error(const char *fmt, ...)
#if defined(__MINGW32__) /* built with __USE_MINGW_ANSI_STDIO=1 */
    __attribute__((format(gnu_printf, 1, 2)))
#elif defined(__GNUC__)
    __attribute__((format(printf, 1, 2)))
#endif
    ;

/** "spirv-bitcast COMMAND: <fmt...>" and a pointer to `spirv-bitcast COMMAND --help` (to
 *  --help alone when `command` is NULL) on stderr. */
void cli_usage_error_for(const char *command, const char *fmt, ...)
#if defined(__MINGW32__)
    __attribute__((format(gnu_printf, 2, 3)))
#elif defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;
/** Parses `s` as an unsigned 32-bit number (decimal, 0x-hex or 0-octal, no sign). */
bool cli_parse_u32(const char *s, uint32_t *out);
/** SPIRV-Tools' target environment names (spvParseTargetEnv), plus "universal1.N" for
 *  "spv1.N". */
bool cli_parse_target_env(const char *s, spv_target_env *env);

/** A growable list of owned path strings. */
typedef struct cli_path_list {
    char **items;
    size_t count, cap;
} cli_path_list;

/** Appends a copy of `p` to `l`; false when out of memory. */
bool cli_path_list_add(cli_path_list *l, const char *p);
/** Frees `l`'s strings and array. */
void cli_path_list_free(cli_path_list *l);

/** Writes `s` as a JSON string (null for NULL). */
void cli_json_string(FILE *f, const char *s);
/** Writes `v` as a JSON number (null for SPVBC_NO_POSITION). */
void cli_json_size(FILE *f, size_t v);
/** "1 error", "2 errors". */
const char *cli_plural(size_t n, const char *one, const char *many);

/* ---- output.c ----------------------------------------------------------------------------- */

/** What writes an output: calls `write(stream, bytes, size)` (0 on success) for each piece and
 *  returns 0, or non-zero when a piece failed. */
typedef int (*cli_emit_fn)(void *user, int (*write)(void *stream, const void *bytes, size_t size),
                           void *stream);
/** Writes what `emit` produces to `path` ("-" = stdout): a regular file or a new path through a
 *  temporary file renamed into place (keeping an existing file's mode), a symbolic link's target
 *  by the same rules, a device, FIFO or socket in place; returns NULL, or the error text
 *  ("cannot write to PATH: reason", in `err`). Thread-safe for distinct paths. */
const char *cli_write_output(const char *path, cli_emit_fn emit, void *emit_user, char *err,
                             size_t errsize);
/** cli_write_output() of `mod`'s words, little-endian on every host (the byte order of every
 *  SPIR-V producer; a big-endian input is converted).  `in` (or NULL) is the input `mod` was
 *  parsed from: its spans go to the kernel from its memory without a copy (writev), and its
 *  pages are let go behind the write. */
const char *cli_write_module(spvbc_module mod, cli_input *in, const char *path, char *err,
                             size_t errsize);

/* ---- report.c ----------------------------------------------------------------------------- */

/** A rule id of docs/rules.md: its default level and its description there. */
typedef struct cli_rule {
    const char *id;
    spvbc_severity level;
    bool counted; /* counted by name in the batch summary (else as "other") */
    const char *description;
} cli_rule;

/** Every rule id the library and the CLI report (report_sarif.c), counted ones first in the
 *  order of the batch summary. */
extern const cli_rule cli_rules[];
extern const size_t cli_rule_count;
/** The index of `id` in cli_rules, or cli_rule_count if it is not there. */
size_t cli_rule_index(const char *id);
/** The slot of `id` in cli_file_result.rule_counts (cli_rule_count for "other"). */
size_t cli_rule_count_slot(const char *id);
#define CLI_MAX_RULES 56

/** What one input produced; filled by cli_process(), printed by batch.c. */
typedef struct cli_file_result {
    const char *path;
    size_t index; /* position among the inputs (the SARIF artifact index) */
    bool loaded; /* the input was read */
    size_t input_size; /* bytes read, for the SARIF artifact */
    char *out_path; /* lower: where the output goes */
    char *text; /* buffered stderr text */
    size_t text_len;
    char *doc; /* buffered JSON object, or SARIF results separated by commas */
    size_t doc_len;
    char *notes; /* buffered SARIF tool notifications separated by commas */
    size_t notes_len;
    int status; /* 0 ok, 1 findings/invalid */
    bool bad_input;
    char *not_checked; /* bad_input: why, for the summary line of -q ("cannot read: ...") */
    bool failed_run; /* a tool failure, not a finding (SARIF executionSuccessful) */
    spvbc_validate_summary vsum;
    spvbc_lower_summary lsum;
    size_t rule_counts[CLI_MAX_RULES + 1];
} cli_file_result;

/** Disassembly of diagnosed instructions. */
typedef struct cli_disasm {
    char *text;
    char **lines;
    size_t count;
    const uint32_t *words; /* per-instruction mode: the module */
    size_t word_count;
    spv_target_env env;
} cli_disasm;

void cli_disasm_build(cli_disasm *d, const uint32_t *words, size_t count, spv_target_env env);
void cli_disasm_free(cli_disasm *d);

/** Where the reports of one input go while it is processed. */
typedef struct cli_report_sink {
    const cli_options *o;
    cli_file_result *r;
    const char *shown; /* the path as messages show it ("<stdin>" for stdin) */
    FILE *text; /* stderr text */
    bool text_streamed; /* `text` is a cli_stderr_stream(), else a buffer in r->text */
    FILE *doc; /* JSON object or SARIF results; NULL for text */
    FILE *notes; /* SARIF notifications; NULL otherwise */
    const unsigned char *bytes; /* the input, for SARIF regions */
    size_t size;
    size_t results; /* SARIF results written so far */
    size_t notes_written; /* SARIF notifications written so far */
} cli_report_sink;

/** Prints finding `d` of input `path` in the CLI's text format on `f`, with the disassembly of
 *  its instruction when `dis` is not NULL. */
void cli_print_diag(FILE *f, const char *path, const spvbc_diagnostic *d, const cli_disasm *dis);
/** In JSON, the object {"file","error"} of an input that failed, plus "diagnostics" with every
 *  diagnostic of `ctx` when `ctx` is not NULL; nothing in the other formats. */
void cli_report_json_error(cli_report_sink *s, const char *error, spvbc_context ctx);
/** A failure of the tool on this input (unreadable, out of memory, output not written):
 *  "error: <shown>: <fmt...>" on the text stream, cli_report_json_error(json_error) when
 *  `json_error` is not NULL, a notification in SARIF. */
void cli_report_failure(cli_report_sink *s, const char *json_error, const char *fmt, ...)
#if defined(__MINGW32__)
    __attribute__((format(gnu_printf, 3, 4)))
#elif defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;
/** An input that cannot be read (`error`): cli_report_failure() of "cannot read: <error>",
 *  whose text line -q leaves out. */
void cli_report_unreadable(cli_report_sink *s, const char *error);
/** One finding on the text stream when `text` (with its disassembly when `dis` is not NULL)
 *  and, in SARIF, as a result. */
void cli_report_diag(cli_report_sink *s, const spvbc_diagnostic *d, const cli_disasm *dis,
                     bool text);
/** cli_report_diag() for every diagnostic of `ctx`. */
void cli_report_diags(cli_report_sink *s, spvbc_context ctx, const cli_disasm *dis, bool text);
/** In JSON, the object of a validated or lowered input: its summary and every diagnostic. */
void cli_report_json_summary(cli_report_sink *s, spvbc_context ctx);

/* ---- report_sarif.c ----------------------------------------------------------------------- */

/** Writes diagnostic `d` of input `s` as one SARIF result on s->doc. */
void cli_sarif_result(cli_report_sink *s, const spvbc_diagnostic *d);
/** Writes one SARIF tool notification (level error) about input `s`. */
void cli_sarif_notification(cli_report_sink *s, const char *message);
/** Writes the SARIF log of all `count` inputs of `res` to `f`. */
void cli_sarif_write_log(FILE *f, const cli_file_result *res, size_t count);
/** Writes `path` as a JSON string holding its URI reference (RFC 3986): an absolute path is a
 *  file: URI, a relative one a relative reference (to the directory the tool ran in).  With
 *  `windows` (the Windows build) a backslash is a separator too, written '/', and a drive or
 *  UNC path takes RFC 8089's form: C:\d\a.spv -> file:///C:/d/a.spv, \\host\s\a.spv ->
 *  file://host/s/a.spv.  Other bytes than the unreserved characters, '/' and the sub-delimiters
 *  are percent-encoded (':' too, but for a drive's). */
void cli_sarif_uri(FILE *f, const char *path, bool windows);

/* ---- process.c ---------------------------------------------------------------------------- */

/** Processes input r->path under `o`, filling `r`; thread-safe for distinct results. */
void cli_process(const cli_options *o, cli_file_result *r);

/* ---- batch.c ------------------------------------------------------------------------------ */

/** The directories -r walks have entered, by device and inode: none is entered twice, even
 *  where a bind mount makes the tree a loop or two -r name one tree. */
typedef struct cli_dir_set {
    struct {
        dev_t dev;
        ino_t ino;
    } * items;
    size_t count, cap;
} cli_dir_set;
void cli_dir_set_free(cli_dir_set *v);
/** Adds every regular *.spv file below `dir` to `l`, sorted, entering no directory of `v` (and
 *  adding those it enters to `v`); symbolic links to directories below `dir` are not followed.
 *  False (after a message) on error. */
bool cli_scan_dir(const char *dir, cli_path_list *l, cli_dir_set *v);
/** Runs every input of `files` under `o` and prints the reports and summaries; returns the exit
 *  status. */
int cli_run_files(cli_options *o, const cli_path_list *files);

/* ---- opt_args.c, opt_passes.c: `opt` (its pipeline is opt.cpp) ------------------------------ */

typedef enum cli_opt_stage_kind {
    CLI_OPT_SPIRV_TOOLS, /* a run of spirv-opt pass flags: one Optimizer::Run */
    CLI_OPT_LOWER_ASTYPE,
    CLI_OPT_VALIDATE_BITCAST
} cli_opt_stage_kind;

/** One stage of an `opt` pipeline. */
typedef struct cli_opt_stage {
    cli_opt_stage_kind kind;
    const char *spelling; /* our flags: as written, for messages */
    spvbc_pad_policy pad; /* CLI_OPT_LOWER_ASTYPE */
    cli_path_list flags; /* CLI_OPT_SPIRV_TOOLS: spirv-opt pass flags, "--name=value" */
} cli_opt_stage;

/** spirv-val's relaxations that `opt` takes (bits of cli_opt_args.relax). */
enum {
    CLI_RELAX_LOGICAL_POINTER = 1u << 0,
    CLI_RELAX_BEFORE_HLSL_LEGALIZATION = 1u << 1,
    CLI_RELAX_BLOCK_LAYOUT = 1u << 2,
    CLI_RELAX_SCALAR_BLOCK_LAYOUT = 1u << 3,
    CLI_RELAX_WORKGROUP_SCALAR_BLOCK_LAYOUT = 1u << 4,
    CLI_RELAX_SKIP_BLOCK_LAYOUT = 1u << 5,
    CLI_RELAX_STRUCT_STORE = 1u << 6
};

/** The command line of `opt`. */
typedef struct cli_opt_args {
    spv_target_env env; /* default spv1.6, as spirv-opt */
    uint32_t max_id_bound; /* 0: the defaults of SPIRV-Tools and of the library */
    uint32_t generation; /* SPVBC_GENERATION_* of our stages (--generation) */
    uint32_t relax; /* CLI_RELAX_* */
    bool skip_validation, preserve_bindings, preserve_spec_constants, validate_after_all, print_all,
        time_report;
    const char *in_path; /* "-" for stdin */
    const char *out_path;
    const char *shown; /* the input's name in messages ("<stdin>" for stdin) */
    cli_opt_stage *stages;
    size_t stage_count;
    cli_path_list words; /* the arguments, with every -Oconfig=FILE replaced by its flags */
} cli_opt_args;

/** What cli_opt_parse() found: run the pipeline, or exit with a status. */
#define CLI_OPT_RUN (-1)
/** `opt` (opt.cpp): argv[0] is the command name; returns the exit status (0 success, 1 a
 *  failure: unreadable or invalid input, a failing pass, --validate-bitcast findings, invalid
 *  output, output not written; 2 a usage error).  Never throws, never calls exit(). */
int cli_cmd_opt(int argc, char **argv);
/** Parses `opt`'s `argv` (argv[0] is the command name) into `a`; prints --help, --version or
 *  a usage error; returns CLI_OPT_RUN or the exit status. `a` is freed by cli_opt_args_free()
 *  in every case. */
int cli_opt_parse(int argc, char **argv, cli_opt_args *a);
void cli_opt_args_free(cli_opt_args *a);

/** Sets `a`'s validator relaxations and id bound on `vo`. */
void cli_opt_validator_options(const cli_opt_args *a, spv_validator_options vo);
/** Validates `words` with SPIRV-Tools' validator under `a`; prints why not and returns false
 *  when they are invalid (`what` names the point of the pipeline). */
bool cli_opt_spirv_val(const cli_opt_args *a, const uint32_t *words, size_t count,
                       const char *what);
/** Runs our stage `s` on `words`: --lower-astype (`*out` becomes a malloc'd lowered module,
 *  or NULL when nothing was rewritten) or --validate-bitcast; prints findings the CLI's way
 *  and returns false on failure. */
bool cli_opt_stage_run(const cli_opt_args *a, const cli_opt_stage *s, const uint32_t *words,
                       size_t count, uint32_t **out, size_t *out_count);

/* ---- explain.c ---------------------------------------------------------------------------- */

/** `explain SRC DST`: argv[0] is the command name; returns the exit status. */
int cli_cmd_explain(int argc, char **argv);

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* SPVBC_TOOLS_CLI_H_ */
