/*
 * matrix.h - what the rooms of the as_type matrix test (matrix.c) share.
 *
 *   matrix.c        the run: counters, reporting, the library wrapped, main
 *   matrix_match.c  a disassembly's lines and the FileCheck-like line matcher
 *   matrix_pair.c   one pair: the class table and its recipes, written independently, checked
 *                   against the lowered output
 *   matrix_seeds.c  the seed examples
 * SPDX-License-Identifier: Apache-2.0
 */
#ifndef SPVBC_MATRIX_H_
#define SPVBC_MATRIX_H_

#include <stddef.h>
#include <stdint.h>

#include "astype_gen.h"
#include "spirv_bitcast.h"

typedef struct stats {
    size_t kernel_pairs;
    size_t vulkan_pairs;
    size_t lowered; /* spvbc_module_lower() calls that rewrote something */
    size_t lower_calls;
    size_t val_runs; /* spirv-val runs */
    size_t checks_passed;
    size_t checks_failed;
    size_t seeds_passed;
    size_t seeds_failed;
    size_t dumped;
} stats;

extern stats g_stats;
extern const char *g_dump_dir;

/* ---- matrix_match.c ---------------------------------------------------------------------- */

/* The lines of a disassembly, leading blanks stripped. */
typedef struct lines {
    char *text;
    char **line;
    size_t count;
} lines;

int lines_split(const char *dis, lines *out);
void lines_free(lines *l);

/*
 * A FileCheck-like line matcher.  A pattern is a sequence of blank-separated tokens; a token
 * "[[NAME]]" matches any single token, binding NAME on its first use and requiring the same
 * token on later uses; every other token must match exactly.  The whole line must match.
 */
typedef struct bindings {
    char name[8][8];
    char value[8][64];
    size_t count;
} bindings;

int line_match(const char *line, const char *pattern, bindings *b);

/* Index of the first line starting with `prefix`, or -1. */
long find_prefix(const lines *l, const char *prefix);

/* Number of lines matching `pattern` under `b` (bindings not kept). */
size_t count_matches(const lines *l, const char *pattern, const bindings *b);

/* ---- matrix.c ------------------------------------------------------------------------------ */

typedef struct lower_result {
    spvbc_result parse;
    spvbc_result lower;
    spvbc_lower_summary summary;
    size_t error_diags;
    char first_error[512];
    char first_error_rule[32];
    uint32_t *words; /* malloc'd copy of the output */
    size_t word_count;
} lower_result;

/* Parses and lowers the `n` words of `in` under pad policy `pad` into `res`: 0 when the output
 * is there (`res->words`, malloc'd), else -1. */
int run_lower(const uint32_t *in, size_t n, spvbc_pad_policy pad, lower_result *res);

/* Whether every error the library reported is one it says it can lower (parse succeeded). */
int all_errors_lowerable(const spvbc_gen_verdict *v);

extern const char *g_case_dis; /* disassembly to print on failure, if any */

/* Reports a failure of the current case. */
void fail(const char *fmt, ...);
/* Starts a case named by `fmt`. */
void begin_case(const char *fmt, ...);
/* Counts the case as passed or failed (`seed`: among the seeds). */
void end_case(int seed);
/* spirv-val under target environment `env`, counted. */
int spirv_val(const uint32_t *w, size_t n, int env, char *msg, size_t size);

/* ---- matrix_pair.c ------------------------------------------------------------------------- */

typedef enum {
    K_IDENTITY,
    K_SAME_COUNT,
    K_4_TO_3,
    K_3_TO_4,
    K_VEC3_SOURCE,
    K_VEC3_DEST,
    K_COUNT_CHANGE,
    K_SIZE_ERROR
} klass;

const char *klass_name(klass k);
klass classify(const spvbc_type_desc *s, const spvbc_type_desc *d, spvbc_gen_flavour fl);
int words_equal(const uint32_t *a, size_t an, const uint32_t *b, size_t bn);
/* Checks the pair `s` -> `d` in flavour `fl`: validate, lower under each pad policy, recipe. */
void check_pair(const spvbc_type_desc *s, const spvbc_type_desc *d, spvbc_gen_flavour fl);

/* ---- matrix_seeds.c ------------------------------------------------------------------------ */

/* The seed examples, each a case of its own. */
void run_seeds(void);

#endif /* SPVBC_MATRIX_H_ */
