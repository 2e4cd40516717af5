/*
 * layer_outcome.c - the decision about one module, as an outcome (see layer_outcome.h).
 *
 * Without a log, nothing is timed, hashed or kept: a module that passes unchanged costs the
 * library's parse and validation and nothing else (no allocation but the context's).  `say`
 * is set with each verdict: whether the configured level reports it (level all: every verdict;
 * level changes: a module lowered or refused, validate mode's errors, the layer's own
 * failures); only then are the findings kept and the module hashed.
 *
 * SPDX-License-Identifier: Apache-2.0
 */
#define _POSIX_C_SOURCE 200809L /* clock_gettime */
#include "layer_outcome.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "layer_hash.h"
#include "layer_pool.h"

/* One decision under way: its settings, input, library objects and outcome. */
typedef struct job {
    const spvbc_layer_config *cfg;
    const void *code;
    size_t size;
    int log_any, log_all;
    spvbc_context ctx;
    spvbc_module mod;
    spvbc_validate_options vo;
    spvbc_layer_outcome *o;
} job;

static long long now_us(void)
{
    struct timespec ts;
    if (clock_gettime(CLOCK_MONOTONIC, &ts) != 0) return 0;
    return (long long)ts.tv_sec * 1000000 + ts.tv_nsec / 1000;
}

/* Empties `o` (its findings' storage is left as it is: only the counts say what holds). */
static void outcome_clear(spvbc_layer_outcome *o)
{
    o->verdict = SPVBC_LAYER_PASSED;
    o->say = 0;
    o->detail[0] = '\0';
    o->bitcasts = o->errors = o->lowerable = o->rewritten = o->refused = o->errors_left = 0;
    o->in_hash = o->out_hash = 0;
    o->out_words = 0;
    o->us = 0;
    o->driver = SPVBC_LAYER_DRIVER_NOT_TOLD;
    o->driver_code = o->driver_code_again = 0;
    o->finding_count = 0;
    o->text_used = 0;
}

/* Sets verdict `v` (NOT_PARSED or LIBRARY_ERROR) with its detail: `call` (or NULL) and the
 * result `r` (or `what` in its place, when not NULL); reported if `say`. */
static void fail(spvbc_layer_outcome *o, spvbc_layer_verdict v, const char *call, spvbc_result r,
                 const char *what, int say)
{
    o->verdict = v;
    o->say = say;
    (void)snprintf(o->detail, sizeof o->detail, "%s%s%s", call != NULL ? call : "",
                   call != NULL ? " " : "", what != NULL ? what : spvbc_result_string(r));
}

/* A copy of `s` in `o`'s text, or NULL when it is full. */
static const char *keep_text(spvbc_layer_outcome *o, const char *s)
{
    if (s == NULL) s = "?";
    size_t n = strlen(s) + 1;
    if (n > sizeof o->text - o->text_used) return NULL;
    char *p = o->text + o->text_used;
    memcpy(p, s, n);
    o->text_used += n;
    return p;
}

/* The error diagnostics of `ctx` into `o` (as many as it holds). */
static void collect_findings(spvbc_context ctx, spvbc_layer_outcome *o)
{
    o->finding_count = 0;
    o->text_used = 0;
    size_t count = spvbc_context_diagnostic_count(ctx);
    for (size_t i = 0; i < count && o->finding_count < SPVBC_LAYER_MAX_FINDINGS; ++i) {
        const spvbc_diagnostic *d = spvbc_context_diagnostic(ctx, i);
        if (d == NULL || d->severity != SPVBC_SEVERITY_ERROR) continue;
        const char *rule = keep_text(o, d->rule), *message = keep_text(o, d->message);
        if (rule == NULL || message == NULL) break;
        spvbc_layer_finding *f = &o->findings[o->finding_count++];
        f->severity = d->severity;
        f->word_offset = d->word_offset;
        f->rule = rule;
        f->message = message;
    }
}

/* The lowered words of `j`'s module as a malloc'd copy in `*out_code` / `*out_size`, checked
 * with the library's own validator before the driver sees them; returns 1, or 0 (the outcome
 * says why). */
static int replacement(job *j, uint32_t **out_code, size_t *out_size)
{
    spvbc_layer_outcome *o = j->o;
    const uint32_t *words = NULL;
    size_t count = 0;
    o->say = j->log_any; /* a change, or a failure of the layer */
    spvbc_result r = spvbc_module_get_words(j->mod, &words, &count);
    if (r != SPVBC_SUCCESS || words == NULL || count == 0 || count > SIZE_MAX / 4u) {
        fail(o, SPVBC_LAYER_LIBRARY_ERROR, "get_words", r, NULL, j->log_any);
        return 0;
    }
    uint32_t *copy = malloc(count * 4u);
    if (copy == NULL) {
        fail(o, SPVBC_LAYER_LIBRARY_ERROR, NULL, SPVBC_ERROR_OUT_OF_MEMORY, "out of memory",
             j->log_any);
        return 0;
    }
    memcpy(copy, words, count * 4u);
    spvbc_module check = NULL;
    if (spvbc_module_parse(j->ctx, copy, count, NULL, &check) == SPVBC_SUCCESS) {
        spvbc_validate_summary after = SPVBC_VALIDATE_SUMMARY_INIT;
        if (spvbc_module_validate(check, &j->vo, &after) == SPVBC_ERROR_VALIDATION_FAILED)
            o->errors_left = after.errors;
        spvbc_module_destroy(check);
    }
    o->verdict = SPVBC_LAYER_LOWERED;
    o->out_words = count;
    if (o->say) o->out_hash = spvbc_layer_hash(copy, count * 4u);
    *out_code = copy;
    *out_size = count * 4u;
    return 1;
}

/* Lowers `j`'s invalid module; returns what replacement() returns, or 0 when the caller's words
 * stay (the outcome says why). */
static int lower(job *j, uint32_t **out_code, size_t *out_size)
{
    spvbc_layer_outcome *o = j->o;
    const spvbc_lower_options lo = {sizeof(spvbc_lower_options), j->cfg->pad, 0,
                                    j->cfg->generation};
    spvbc_lower_summary ls = SPVBC_LOWER_SUMMARY_INIT;
    spvbc_result r = spvbc_module_lower(j->mod, &lo, &ls);
    /* The refusals, if any, lowered again with their findings kept for the report (the same
     * rewrites: its result and summary stand for the first call's); otherwise lower's findings
     * are notes nobody reads, and none was made.  Reported at level changes: a rewrite, a
     * refusal (an as_type-legal bitcast left invalid: the validation counted it lowerable) or a
     * failure; not the other errors (a size that as_type forbids too). */
    const int refusal = o->lowerable > ls.rewritten;
    if (j->log_any && r != SPVBC_SUCCESS &&
        (j->log_all || r != SPVBC_PARTIAL || ls.rewritten > 0 || refusal)) {
        spvbc_layer_context_keep_findings(j->ctx);
        ls = (spvbc_lower_summary)SPVBC_LOWER_SUMMARY_INIT;
        r = spvbc_module_lower(j->mod, &lo, &ls);
        collect_findings(j->ctx, o);
    }
    if (r != SPVBC_SUCCESS && r != SPVBC_PARTIAL) {
        fail(o, SPVBC_LAYER_LIBRARY_ERROR, NULL, r, NULL, j->log_any);
        return 0;
    }
    o->rewritten = ls.rewritten;
    o->refused = ls.refused;
    /* Under pad policy error, a module with a refused bitcast is passed on as the application
     * gave it, its other bitcasts unlowered too: the policy asks for the driver's own verdict
     * on such a module, not for a module half the application's and half the layer's. */
    if (ls.rewritten > 0 && !(j->cfg->pad == SPVBC_PAD_ERROR && ls.refused > 0))
        return replacement(j, out_code, out_size);
    o->verdict = SPVBC_LAYER_UNFIXED;
    o->say = j->log_all || (j->log_any && refusal);
    if (o->say && o->finding_count == 0) {
        spvbc_layer_context_keep_findings(j->ctx);
        if (spvbc_module_validate(j->mod, &j->vo, NULL) != SPVBC_SUCCESS)
            collect_findings(j->ctx, o);
    }
    return 0;
}

/* Validates `j`'s parsed module and lowers it where the mode says so. */
static int decide_parsed(job *j, uint32_t **out_code, size_t *out_size)
{
    spvbc_layer_outcome *o = j->o;
    spvbc_validate_summary vs = SPVBC_VALIDATE_SUMMARY_INIT;
    /* Validate mode reports the errors of every invalid module: kept from the start. */
    if (j->log_any && j->cfg->mode == SPVBC_LAYER_MODE_VALIDATE)
        spvbc_layer_context_keep_findings(j->ctx);
    spvbc_result r = spvbc_module_validate(j->mod, &j->vo, &vs);
    if (r != SPVBC_SUCCESS && r != SPVBC_ERROR_VALIDATION_FAILED) {
        fail(o, SPVBC_LAYER_LIBRARY_ERROR, NULL, r, NULL, j->log_any);
        return 0;
    }
    o->bitcasts = vs.bitcasts_checked;
    o->errors = vs.errors;
    o->lowerable = vs.lowerable;
    if (vs.errors == 0) {
        o->verdict = SPVBC_LAYER_VALID;
        o->say = j->log_all;
        return 0;
    }
    if (j->cfg->mode == SPVBC_LAYER_MODE_VALIDATE) {
        o->verdict = SPVBC_LAYER_VALIDATE_ONLY;
        o->say = j->log_any;
        if (o->say) collect_findings(j->ctx, o);
        return 0;
    }
    return lower(j, out_code, out_size);
}

/* Parses `j`'s module in a pooled context and decides about it. */
static int decide_module(job *j, uint32_t **out_code, size_t *out_size)
{
    spvbc_result r = SPVBC_SUCCESS;
    int replaced = 0;
    j->ctx = spvbc_layer_context_take(&r);
    if (j->ctx == NULL) {
        fail(j->o, SPVBC_LAYER_LIBRARY_ERROR, NULL, r, NULL, j->log_any);
        return 0;
    }
    r = spvbc_module_parse_bytes(j->ctx, j->code, j->size, NULL, &j->mod);
    if (r != SPVBC_SUCCESS) {
        fail(j->o, SPVBC_LAYER_NOT_PARSED, NULL, r, NULL, j->log_all);
        if (j->o->say) collect_findings(j->ctx, j->o);
    } else {
        replaced = decide_parsed(j, out_code, out_size);
        spvbc_module_destroy(j->mod);
    }
    spvbc_layer_context_give(j->ctx);
    return replaced;
}

int spvbc_layer_decide(const spvbc_layer_config *cfg, const void *code, size_t code_size,
                       spvbc_layer_outcome *o, uint32_t **out_code, size_t *out_size)
{
    if (o == NULL) return 0;
    outcome_clear(o);
    if (cfg == NULL || cfg->mode == SPVBC_LAYER_MODE_OFF || out_code == NULL || out_size == NULL)
        return 0;
    job j = {cfg,
             code,
             code_size,
             !cfg->log_off,
             !cfg->log_off && cfg->log_all,
             NULL,
             NULL,
             {sizeof(spvbc_validate_options), cfg->validate_flags, cfg->generation},
             o};
    long long start = j.log_any ? now_us() : 0;
    int replaced = 0;
    int maybe = 1;
    if (code == NULL || code_size == 0) {
        fail(o, SPVBC_LAYER_NOT_PARSED, NULL, SPVBC_ERROR_INVALID_ARGUMENT, "no code", j.log_all);
    } else if (cfg->mode == SPVBC_LAYER_MODE_LOWER && !j.log_all &&
               spvbc_bytes_scan_lowerable(NULL, code, code_size, &maybe) == SPVBC_SUCCESS &&
               !maybe) {
        /* Where only a change or a refusal is reported, a module lowering cannot change is
         * passed on after a scan of its words: no context, no parse (no allocation: a bound
         * above 32,768 answers "maybe" without a context). */
    } else {
        replaced = decide_module(&j, out_code, out_size);
    }
    if (o->say) {
        /* The time is the layer's own work on this module, hashing included. */
        if (code != NULL) o->in_hash = spvbc_layer_hash(code, code_size);
        o->us = now_us() - start;
    }
    return replaced;
}
