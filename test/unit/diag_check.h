/* diag_check.h - the unit tests' checks of a validation's findings (cmocka): the one finding
 * of a result id, no finding of one, a text within a message, and a validation of words in a
 * fresh context, a parse's one error; and whether this build's opcode facts know an instruction.
 * Shared by test_lower_edges.c, test_lower_words.c, test_analysis.c and the reader's tests; include
 * after cmocka.h and spirv_bitcast.h (the target needs source/ for rules.h).
 *
 * SPDX-License-Identifier: Apache-2.0
 */
#ifndef SPVBC_TEST_DIAG_CHECK_H_
#define SPVBC_TEST_DIAG_CHECK_H_

#include <stdio.h>
#include <string.h>

#include "rules.h" /* the opcode facts */

/* The one diagnostic of `ctx` about result id `id` (fails if there is none or more than one),
 * with its rule and severity checked. */
static inline const spvbc_diagnostic *diag_of(spvbc_context ctx, uint32_t id, const char *rule,
                                              spvbc_severity severity)
{
    const spvbc_diagnostic *found = NULL;
    for (size_t i = 0; i < spvbc_context_diagnostic_count(ctx); ++i) {
        const spvbc_diagnostic *d = spvbc_context_diagnostic(ctx, i);
        if (d->result_id != id) continue;
        if (found) fail_msg("two diagnostics of %%%u: %s, %s", id, found->message, d->message);
        found = d;
    }
    if (!found) fail_msg("no diagnostic of %%%u (expected %s)", id, rule);
    if (strcmp(found->rule, rule) != 0 || found->severity != severity)
        fail_msg("%%%u: expected %s (severity %d), got %s (severity %d): %s", id, rule,
                 (int)severity, found->rule, (int)found->severity, found->message);
    return found;
}

/* No diagnostic of `ctx` is about result id `id`. */
static inline void no_diag_of(spvbc_context ctx, uint32_t id)
{
    for (size_t i = 0; i < spvbc_context_diagnostic_count(ctx); ++i) {
        const spvbc_diagnostic *d = spvbc_context_diagnostic(ctx, i);
        if (d->result_id == id) fail_msg("%%%u: unexpected %s: %s", id, d->rule, d->message);
    }
}

/* Whether this build's opcode facts lack `op` (SPIR-V headers older than it: Debian 12's, the
 * cross builds'); if so, says so on stderr, naming the instruction `name`. */
static inline int opcode_unknown(uint32_t op, const char *name)
{
    if (!(spvbc__opcode_flags(op) & SPVBC__OPF_FOREIGN)) return 0;
    fprintf(stderr, "this build's opcode facts do not know %s\n", name);
    return 1;
}

/* `text` contains `part`. */
static inline void has_text(const char *text, const char *part)
{
    if (!text || !strstr(text, part)) fail_msg("expected \"%s\" in \"%s\"", part, text);
}

/* Parses the `n` words at `w` in `ctx`, which it destroys: fails with `expect`, no module, and
 * one diagnostic, of `rule` at word `offset`, whose message is `message` (NULL: any); returns
 * its opcode. */
static inline uint32_t expect_parse_error_in(spvbc_context ctx, const uint32_t *w, size_t n,
                                             spvbc_result expect, const char *rule, size_t offset,
                                             const char *message)
{
    spvbc_module mod = NULL;
    assert_int_equal(spvbc_module_parse(ctx, w, n, NULL, &mod), expect);
    assert_null(mod);
    assert_int_equal(spvbc_context_diagnostic_count(ctx), 1);
    const spvbc_diagnostic *d = spvbc_context_diagnostic(ctx, 0);
    assert_string_equal(d->rule, rule);
    assert_int_equal(d->word_offset, offset);
    if (message) assert_string_equal(d->message, message);
    const uint32_t opcode = d->opcode;
    spvbc_context_destroy(ctx);
    return opcode;
}

/* expect_parse_error_in() in a fresh context. */
static inline uint32_t expect_parse_error(const uint32_t *w, size_t n, spvbc_result expect,
                                          const char *rule, size_t offset, const char *message)
{
    spvbc_context ctx;
    assert_int_equal(spvbc_context_create(NULL, &ctx), SPVBC_SUCCESS);
    return expect_parse_error_in(ctx, w, n, expect, rule, offset, message);
}

/* Validates the `n` words at `w` in a fresh context with `flags`, in the newest generation;
 * the context (its diagnostics) is left in `*ctx` and the summary in `*vs`. */
static inline void validate_words(const uint32_t *w, size_t n, uint32_t flags, spvbc_result expect,
                                  spvbc_context *ctx, spvbc_validate_summary *vs)
{
    assert_int_equal(spvbc_context_create(NULL, ctx), SPVBC_SUCCESS);
    spvbc_module mod;
    const spvbc_result parsed = spvbc_module_parse(*ctx, w, n, NULL, &mod);
    for (size_t i = 0; parsed != SPVBC_SUCCESS && i < spvbc_context_diagnostic_count(*ctx); ++i)
        fprintf(stderr, "parse: %s\n", spvbc_context_diagnostic(*ctx, i)->message);
    assert_int_equal(parsed, SPVBC_SUCCESS);
    const spvbc_validate_options vo = {sizeof(spvbc_validate_options), flags,
                                       SPVBC_GENERATION_NEWEST};
    const spvbc_validate_summary init = SPVBC_VALIDATE_SUMMARY_INIT;
    *vs = init;
    const spvbc_result r = spvbc_module_validate(mod, &vo, vs);
    for (size_t i = 0; r != expect && i < spvbc_context_diagnostic_count(*ctx); ++i)
        fprintf(stderr, "validate: %s\n", spvbc_context_diagnostic(*ctx, i)->message);
    assert_int_equal(r, expect);
    spvbc_module_destroy(mod);
}

/* Validates the `n` words at `w` (validate_words(), no flags): one error, `rule` on result
 * %`bad`, whose message contains `part` (NULL: any), and no diagnostic of %`good`. */
static inline void expect_one_error(const uint32_t *w, size_t n, uint32_t bad, const char *rule,
                                    const char *part, uint32_t good)
{
    spvbc_context ctx;
    spvbc_validate_summary vs;
    validate_words(w, n, 0, SPVBC_ERROR_VALIDATION_FAILED, &ctx, &vs);
    assert_int_equal(vs.errors, 1);
    const spvbc_diagnostic *d = diag_of(ctx, bad, rule, SPVBC_SEVERITY_ERROR);
    if (part) has_text(d->message, part);
    no_diag_of(ctx, good);
    spvbc_context_destroy(ctx);
}

#endif /* SPVBC_TEST_DIAG_CHECK_H_ */
