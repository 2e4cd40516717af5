/*
 * cli.h - the rooms of the spirv-bitcast command-line tool (private to source/tools/).
 *
 * Rooms, each calling only rooms listed below it (main.c at the top, io.c the ground floor):
 *
 *   main.c           the command table, --help, --version
 *   explain.c        `explain SRC DST`
 *   options.c        options of validate and lower
 *   batch.c          several inputs: -r DIR, worker threads, progress, summaries
 *   process.c        one input: parse, --target-env, validate or lower, --verify, write
 *   report.c         findings as text and JSON; disassembly of diagnosed instructions
 *   report_sarif.c   findings as SARIF 2.1.0; the table of rule ids
 *   io.c             inputs (mapped files, stdin), atomic module output, the allocator, usage
 *                    errors, JSON strings
 *   opt.cpp          `opt` (C++: SPIRV-Tools' optimizer has no C API), called by main.c
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

/* libspirv.h defines (not only declares) the constant kDefaultMaxIdBound: one definition per
 * C file that includes it (C++ gives a namespace-scope const internal linkage; C does not).
 * Weak, the copies of the CLI's files link as one. */
#define kDefaultMaxIdBound kDefaultMaxIdBound __attribute__((weak))
#include <spirv-tools/libspirv.h>
#undef kDefaultMaxIdBound

#include "spirv_bitcast.h"

#define EXIT_FINDINGS 1
#define EXIT_USAGE 2

/** What a command's handler returns for its --help: main() prints the help and exits 0. */
#define CLI_EXIT_HELP (-1)

/* ---- options.c ---------------------------------------------------------------------------- */

typedef enum cli_command { CMD_VALIDATE, CMD_LOWER } cli_command;
typedef enum cli_format { FORMAT_TEXT, FORMAT_JSON, FORMAT_SARIF } cli_format;

typedef struct cli_options {
    cli_command cmd;
    cli_format format;
    bool have_env;
    spv_target_env env;
    uint32_t max_id_bound;
    bool strict, notes, werror, quiet, no_disasm, verify;
    spvbc_pad_policy pad;
    uint32_t classes;
    const char *out_path, *suffix, *out_dir;
    unsigned jobs;
    bool progress;
    /* -q on one input in text: the library only counts (spvbc_context_set_diagnostic_policy),
     * since nothing reads a finding; several inputs keep them for the summary's counts by rule */
    bool count_only;
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
} cli_input;

/** Reads `path` (mapped when it is a regular file; "-" is stdin) into `in`; returns an error
 *  text or NULL. */
const char *cli_input_load(const char *path, cli_input *in);
/** Releases what cli_input_load() read. */
void cli_input_release(cli_input *in);
/** Writes `mod`'s words to `path` ("-" = stdout) atomically, little-endian on every host (the
 *  byte order of every SPIR-V producer; a big-endian input is converted); returns an error
 *  text (possibly in `err`) or NULL. */
const char *cli_write_module(spvbc_module mod, const char *path, char *err, size_t errsize);
/** `words` in SPIR-V's default byte order (little-endian) in memory: `words` itself on a
 *  little-endian host, else a byte-swapped copy put in `*copy` (free() it; NULL and the result
 *  NULL when out of memory).  SPIRV-Tools reads the literal strings of a big-endian module
 *  byte-reversed, so on a big-endian host the CLI hands it little-endian words. */
const uint32_t *cli_words_le(const uint32_t *words, size_t count, uint32_t **copy);
/** A stream whose bytes end up in `*buf` (NUL-terminated, `*len` bytes, free() it) once
 *  cli_memstream_close() closed it: open_memstream(), or a temporary file on Windows. */
FILE *cli_memstream_open(char **buf, size_t *len);
int cli_memstream_close(FILE *f, char **buf, size_t *len);
/** The allocator of every context the CLI creates (huge pages for large tables). */
extern const spvbc_allocator cli_allocator;

extern const char *const cli_prog;

/** Prints "<prog>: <fmt...>" and a pointer to --help on stderr. */
void cli_usage_error(const char *fmt, ...)
#if defined(__MINGW32__) /* built with __USE_MINGW_ANSI_STDIO=1 */
    __attribute__((format(gnu_printf, 1, 2)))
#elif defined(__GNUC__)
    __attribute__((format(printf, 1, 2)))
#endif
    ;

/** A growable list of owned path strings. */
typedef struct path_list {
    char **items;
    size_t count, cap;
} path_list;

/** Appends a copy of `p` to `l`; false when out of memory. */
bool path_list_add(path_list *l, const char *p);
/** Frees `l`'s strings and array. */
void path_list_free(path_list *l);

/** Writes `s` as a JSON string (null for NULL). */
void json_string(FILE *f, const char *s);
/** Writes `v` as a JSON number (null for SPVBC_NO_POSITION). */
void json_size(FILE *f, size_t v);
/** "1 error", "2 errors". */
const char *plural(size_t n, const char *one, const char *many);

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
/** The slot of `id` in file_result.rule_counts (cli_rule_count for "other"). */
size_t cli_rule_count_slot(const char *id);
#define CLI_MAX_RULES 48

/** What one input produced; filled by cli_process(), printed by batch.c. */
typedef struct file_result {
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
    bool failed_run; /* a tool failure, not a finding (SARIF executionSuccessful) */
    spvbc_validate_summary vsum;
    spvbc_lower_summary lsum;
    size_t rule_counts[CLI_MAX_RULES + 1];
} file_result;

/** Disassembly of diagnosed instructions. */
typedef struct disasm {
    char *text;
    char **lines;
    size_t count;
    const uint32_t *words; /* per-instruction mode: the module */
    size_t word_count;
    spv_target_env env;
} disasm;

void disasm_build(disasm *d, const uint32_t *words, size_t count, spv_target_env env);
void disasm_free(disasm *d);

/** Where the reports of one input go while it is processed. */
typedef struct report_sink {
    const cli_options *o;
    file_result *r;
    const char *shown; /* the path as messages show it ("<stdin>" for stdin) */
    FILE *text; /* stderr text */
    FILE *doc; /* JSON object or SARIF results; NULL for text */
    FILE *notes; /* SARIF notifications; NULL otherwise */
    const unsigned char *bytes; /* the input, for SARIF regions */
    size_t size;
    size_t results; /* SARIF results written so far */
    size_t notes_written; /* SARIF notifications written so far */
} report_sink;

/** In JSON, the object {"file","error"} of an input that failed, plus "diagnostics" with every
 *  diagnostic of `ctx` when `ctx` is not NULL; nothing in the other formats. */
void report_json_error(report_sink *s, const char *error, spvbc_context ctx);
/** A failure of the tool on this input (unreadable, out of memory, output not written):
 *  "error: <shown>: <fmt...>" on the text stream, report_json_error(json_error) when
 *  `json_error` is not NULL, a notification in SARIF. */
void report_failure(report_sink *s, const char *json_error, const char *fmt, ...)
#if defined(__MINGW32__)
    __attribute__((format(gnu_printf, 3, 4)))
#elif defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;
/** One finding on the text stream when `text` (with its disassembly when `dis` is not NULL)
 *  and, in SARIF, as a result. */
void report_diag(report_sink *s, const spvbc_diagnostic *d, const disasm *dis, bool text);
/** report_diag() for every diagnostic of `ctx`. */
void report_diags(report_sink *s, spvbc_context ctx, const disasm *dis, bool text);
/** In JSON, the object of a validated or lowered input: its summary and every diagnostic. */
void report_json_summary(report_sink *s, spvbc_context ctx);

/* ---- report_sarif.c ----------------------------------------------------------------------- */

/** Writes diagnostic `d` of input `s` as one SARIF result on s->doc. */
void sarif_result(report_sink *s, const spvbc_diagnostic *d);
/** Writes one SARIF tool notification (level error) about input `s`. */
void sarif_notification(report_sink *s, const char *message);
/** Writes the SARIF log of all `count` inputs of `res` to `f`. */
void sarif_write_log(FILE *f, const file_result *res, size_t count);

/* ---- process.c ---------------------------------------------------------------------------- */

/** Processes input r->path under `o`, filling `r`; thread-safe for distinct results. */
void cli_process(const cli_options *o, file_result *r);

/* ---- batch.c ------------------------------------------------------------------------------ */

/** Adds every regular *.spv file below `dir` to `l`, sorted; false (after a message) on error.
 */
bool cli_scan_dir(const char *dir, path_list *l);
/** Runs every input of `files` under `o` and prints the reports and summaries; returns the exit
 *  status. */
int cli_run_files(cli_options *o, const path_list *files);

/* ---- explain.c ---------------------------------------------------------------------------- */

/** `explain SRC DST`: argv[0] is the command name; returns the exit status. */
int cli_cmd_explain(int argc, char **argv);

#endif /* SPVBC_TOOLS_CLI_H_ */
