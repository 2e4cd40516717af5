/*
 * diff_oracle.c - the differential test's oracles and case runner: SPIRV-Tools 2023.1 (C API)
 * and 2025.1 (an unpacked tree's tools), the library's verdict, lowering.
 * SPDX-License-Identifier: Apache-2.0
 */
#define _DEFAULT_SOURCE /* mkdtemp, posix_spawn */
#include <fcntl.h>
#include <glob.h>
#include <spawn.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "diff_internal.h"

/* ---- running one case ------------------------------------------------------------------- */

const char *const k_cat_name[CAT_COUNT] = {
    "numeric-kernel",       "numeric-shader",     "pointer-kernel",
    "pointer-psb64",        "pointer-logical",    "bool",
    "operand-kind",         "multi-bitcast",      "spec-constant-shader",
    "spec-constant-kernel", "cooperative-matrix", "cooperative-vector",
    "untyped-pointer",      "float-encoding",     "long-vector",
    "coopvec-long-vector",  "bitcast-extract"};

cat_stats g_cat[CAT_COUNT];
int g_verbose;
const char *g_show; /* --show CATEGORY: print every module of that category */
static size_t g_printed;

/* ---- SPIRV-Tools 2025.1 (Debian 13), from an unpacked tree ------------------------------ */

/* With --spirv-tools-2025 ROOT (or --spirv-tools-2026 ROOT) the verdicts are SPIRV-Tools
 * 2025.1's (2026.4's): its spirv-as and
 * spirv-val from the tree that cmake/debian-tree.sh unpacked, run under the tree's own loader
 * and libraries (trixie's glibc and libstdc++: nothing is installed on the system). */
static char g_loader[1024], g_libdir[1024], g_bindir[1024];
int g_new; /* a tree's oracle (2025.1 or 2026.4) is in use */
int g_2026;
uint32_t g_generation = SPVBC_GENERATION_2023_1;
size_t g_tool_runs;

int find_tree(const char *root)
{
    glob_t gl;
    char pat[1100];
    snprintf(pat, sizeof pat, "%s/usr/lib/*/ld-linux*.so.2", root);
    if (glob(pat, 0, NULL, &gl) != 0 || gl.gl_pathc == 0) return -1;
    snprintf(g_loader, sizeof g_loader, "%s", gl.gl_pathv[0]);
    globfree(&gl);
    snprintf(g_libdir, sizeof g_libdir, "%s", g_loader);
    *strrchr(g_libdir, '/') = '\0';
    snprintf(g_bindir, sizeof g_bindir, "%s/usr/bin", root);
    return 0;
}

/* Runs `tool` of the tree with `a1`..`a5` (NULL ends them early), its output into `log`.
 * Returns the exit status, or -1. */
static int run_tool(const char *tool, const char *a1, const char *a2, const char *a3,
                    const char *a4, const char *a5, const char *log)
{
    char exe[1100];
    snprintf(exe, sizeof exe, "%s/%s", g_bindir, tool);
    g_tool_runs++;
    /* posix_spawn, not fork: glibc spawns without copying the page tables, which under
     * AddressSanitizer (a shadow of terabytes mapped) makes each call ten times cheaper. */
    posix_spawn_file_actions_t fa;
    if (posix_spawn_file_actions_init(&fa) != 0) return -1;
    posix_spawn_file_actions_addopen(&fa, 1, log, O_WRONLY | O_CREAT | O_TRUNC, 0600);
    posix_spawn_file_actions_adddup2(&fa, 1, 2);
    char *argv[12] = {g_loader, (char *)"--library-path", g_libdir, exe};
    const char *rest[5] = {a1, a2, a3, a4, a5};
    for (size_t i = 0, n = 4; i < 5 && rest[i]; ++i)
        argv[n++] = (char *)rest[i];
    extern char **environ;
    pid_t pid;
    int rc = posix_spawn(&pid, g_loader, &fa, NULL, argv, environ);
    posix_spawn_file_actions_destroy(&fa);
    if (rc != 0) return -1;
    int st = 0;
    if (waitpid(pid, &st, 0) < 0) return -1;
    return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

static char g_tmp[64] = "";

static const char *tmp_path(const char *name, char *buf, size_t size)
{
    if (!g_tmp[0]) {
        snprintf(g_tmp, sizeof g_tmp, "/tmp/spvbc_diff_XXXXXX");
        if (!mkdtemp(g_tmp)) return NULL;
    }
    snprintf(buf, size, "%s/%s", g_tmp, name);
    return buf;
}

static void read_log(const char *path, char *msg, size_t size)
{
    FILE *f = fopen(path, "r");
    size_t n = f ? fread(msg, 1, size - 1, f) : 0;
    msg[n] = '\0';
    if (f) fclose(f);
}

/* The --target-env of SPIR-V 1.<minor> for the tools. */
static const char *env_name(int minor)
{
    static const char *const names[] = {"spv1.0", "spv1.1", "spv1.2", "spv1.3",
                                        "spv1.4", "spv1.5", "spv1.6"};
    return names[minor < 0 || minor > 6 ? 6 : minor];
}

/* Assembles `text` with 2025.1's spirv-as; 0 and a malloc'd word array on success. */
int new_assemble(const char *text, int minor, uint32_t **w, size_t *n)
{
    char src[128], bin[128], log[128];
    if (!tmp_path("m.spvasm", src, sizeof src) || !tmp_path("m.spv", bin, sizeof bin) ||
        !tmp_path("as.log", log, sizeof log))
        return -1;
    FILE *f = fopen(src, "w");
    if (!f) return -1;
    fputs(text, f);
    fclose(f);
    if (run_tool("spirv-as", "--target-env", env_name(minor), src, "-o", bin, log) != 0) return -1;
    f = fopen(bin, "rb");
    if (!f) return -1;
    fseek(f, 0, SEEK_END);
    long size = ftell(f);
    fseek(f, 0, SEEK_SET);
    *w = (uint32_t *)malloc(size > 0 ? (size_t)size : 4);
    *n = size > 0 ? (size_t)size / 4 : 0;
    int ok = *w && fread(*w, 4, *n, f) == *n;
    fclose(f);
    return ok ? 0 : -1;
}

/* Validates `w` with 2025.1's spirv-val; 0 if valid, else its message in `msg`. */
int new_validate(const uint32_t *w, size_t n, int minor, char *msg, size_t size)
{
    char bin[128], log[128];
    msg[0] = '\0';
    if (!tmp_path("v.spv", bin, sizeof bin) || !tmp_path("val.log", log, sizeof log)) return -1;
    FILE *f = fopen(bin, "wb");
    if (!f) return -1;
    fwrite(w, 4, n, f);
    fclose(f);
    int rc = run_tool("spirv-val", "--target-env", env_name(minor), bin, NULL, NULL, log);
    if (rc != 0) {
        read_log(log, msg, size);
        if (!msg[0]) snprintf(msg, size, "spirv-val exited %d", rc);
    }
    return rc == 0 ? 0 : 1;
}

/* spirv-val of the generation in use: 2025.1 with --spirv-tools-2025, else the linked 2023.1
 * (for SPIR-V 1.<minor of the module's header>). */
static int oracle_validate(const uint32_t *w, size_t n, int env, char *msg, size_t size)
{
    if (!g_new) return spvbc_gen_validate(w, n, env, msg, size);
    return new_validate(w, n, n > 1 ? (int)((w[1] >> 8) & 0xffu) : 6, msg, size);
}

void cleanup_tmp(void)
{
    char p[128];
    if (!g_tmp[0]) return;
    static const char *const names[] = {"m.spvasm", "m.spv", "as.log", "v.spv", "val.log"};
    for (size_t i = 0; i < sizeof names / sizeof names[0]; ++i)
        if (tmp_path(names[i], p, sizeof p)) unlink(p);
    rmdir(g_tmp);
}

void library_verdict(const uint32_t *w, size_t n, lib_verdict *v)
{
    spvbc_gen_verdict g;
    spvbc_gen_library_verdict(w, n, &g);
    v->parse = g.parse;
    v->verdict = g.verdict;
    v->error_count = g.error_count;
    v->lowerable_count = g.lowerable_count;
    v->first_error = R_OK;
    if (g.error_count > 0) {
        v->first_error = rule_from_id(g.first_rule);
        if (v->first_error == R_OK) {
            v->first_error = (rule)99; /* an unknown rule id */
        }
    }
    memcpy(v->errors, g.errors, sizeof v->errors);
    /* W-LOGICAL-PTR errors (generation 2026.4): no OpBitcast rule the lowering refuses */
    v->logical_count = 0;
    for (const char *p = g.rules; (p = strstr(p, "W-LOGICAL-PTR")) != NULL; ++p)
        v->logical_count++;
}

void spec_findings_of(const uint32_t *w, size_t n, uint32_t flags, spec_findings *f)
{
    spvbc_context ctx = NULL;
    spvbc_module mod = NULL;
    spvbc_validate_options vo = SPVBC_VALIDATE_OPTIONS_INIT;
    memset(f, 0, sizeof *f);
    f->rule = R_OK;
    vo.flags = flags;
    vo.generation = g_generation;
    if (spvbc_context_create(NULL, &ctx) != SPVBC_SUCCESS) {
        f->failed = 1;
        return;
    }
    if (spvbc_module_parse(ctx, w, n, NULL, &mod) != SPVBC_SUCCESS) {
        f->failed = 1;
    } else {
        spvbc_result r = spvbc_module_validate(mod, &vo, NULL);
        f->failed = r != SPVBC_SUCCESS && r != SPVBC_ERROR_VALIDATION_FAILED;
    }
    for (size_t i = 0; !f->failed && i < spvbc_context_diagnostic_count(ctx); ++i) {
        const spvbc_diagnostic *d = spvbc_context_diagnostic(ctx, i);
        if (!d || !d->rule || strcmp(d->rule, "W-SPEC-BITCAST") != 0) {
            continue;
        }
        f->errors += d->severity == SPVBC_SEVERITY_ERROR;
        f->lowerable += d->lowerable != 0;
        if (f->count++ == 0 && d->message) {
            /* The message names the OpBitcast rule in parentheses: "... (V12): the spec...". */
            const char *close = strstr(d->message, "): the specification");
            const char *open = close;
            while (open && open > d->message && open[-1] != '(')
                --open;
            char id[32];
            if (open && open > d->message && close - open < (long)sizeof id) {
                memcpy(id, open, (size_t)(close - open));
                id[close - open] = '\0';
                f->rule = rule_from_id(id);
            }
            snprintf(f->message, sizeof f->message, "%s", d->message);
        }
    }
    spvbc_module_destroy(mod);
    spvbc_context_destroy(ctx);
}

void print_failure(const char *what, int cat, const char *text, const uint32_t *w, size_t n,
                   int env, const char *val_msg, const lib_verdict *lv, rule expected)
{
    char *dis;
    fprintf(stderr, "FAIL [%s] %s\n  spirv-val: %s\n  library:   %s (%s)\n  model:     %s\n",
            k_cat_name[cat], what, val_msg[0] ? val_msg : "valid",
            lv->errors[0] ? lv->errors : "no errors", spvbc_result_string(lv->verdict),
            k_rule_id[expected]);
    if (g_printed++ < 20) {
        dis = spvbc_gen_disassemble(w, n, env);
        fprintf(stderr, "---- module ----\n%s----\n", dis ? dis : text);
        free(dis);
    }
}

lower_stats g_lower;

/*
 * Lowers a case and checks the outcome against the validator's findings: a valid module stays
 * byte-identical; an error marked lowerable is rewritten into a module spirv-val accepts and
 * the library finds clean; an error not marked lowerable is refused and left alone.  A
 * W-SPEC-BITCAST warning counts as an error here, except that lower leaves one it cannot
 * rewrite alone with a warning instead of refusing it.  Returns 0 if all holds.
 */
int check_lowering(const uint32_t *w, size_t n, int env, const lib_verdict *lv_default, char *why,
                   size_t why_size)
{
    spec_findings spec;
    lib_verdict adjusted = *lv_default;
    const lib_verdict *lv = &adjusted;
    spec_findings_of(w, n, 0, &spec);
    if (spec.failed) {
        snprintf(why, why_size, "parse/validate failed");
        return -1;
    }
    adjusted.error_count += spec.count - spec.errors; /* the warnings (none with -Werror) */
    adjusted.lowerable_count += spec.lowerable;
    spvbc_context ctx = NULL;
    spvbc_module mod = NULL;
    spvbc_lower_summary sum = SPVBC_LOWER_SUMMARY_INIT;
    spvbc_lower_options lo = SPVBC_LOWER_OPTIONS_INIT;
    lo.generation = g_generation;
    const uint32_t *out = NULL;
    size_t out_n = 0;
    int rc = 0;
    why[0] = '\0';
    if (spvbc_context_create(NULL, &ctx) != SPVBC_SUCCESS) {
        snprintf(why, why_size, "context creation failed");
        return -1;
    }
    g_lower.runs++;
    if (spvbc_module_parse(ctx, w, n, NULL, &mod) != SPVBC_SUCCESS ||
        spvbc_module_lower(mod, &lo, &sum) < SPVBC_SUCCESS || /* SPVBC_PARTIAL: see refused */
        spvbc_module_get_words(mod, &out, &out_n) != SPVBC_SUCCESS) {
        snprintf(why, why_size, "parse/lower/get_words failed");
        rc = -1;
    } else if (lv->error_count == 0 || lv->lowerable_count < lv->error_count) {
        /* Nothing to do, or something the library cannot fix: the module stays as it was. */
        size_t want_refused = lv->error_count - lv->lowerable_count -
                              (spec.count - spec.lowerable) - lv->logical_count;
        if (sum.rewritten != 0 && lv->lowerable_count == 0) {
            snprintf(why, why_size,
                     "lower rewrote %zu instructions, validate found nothing "
                     "lowerable",
                     sum.rewritten);
            rc = -1;
        } else if (lv->lowerable_count == 0 &&
                   (out_n != n || memcmp(out, w, n * sizeof(uint32_t)) != 0)) {
            snprintf(why, why_size, "lower changed a module with nothing to lower");
            rc = -1;
        } else if (sum.refused != want_refused) {
            snprintf(why, why_size,
                     "lower refused %zu, validate found %zu errors that are "
                     "not lowerable",
                     sum.refused, want_refused);
            rc = -1;
        }
        if (rc == 0 && sum.rewritten && want_refused) {
            /* Some fixed, some refused: what remains is exactly the refused errors. */
            char msg[1024];
            lib_verdict again;
            g_lower.spirv_val_runs++;
            if (oracle_validate(out, out_n, env, msg, sizeof msg) == 0) {
                snprintf(why, why_size,
                         "spirv-val accepts an output that still holds %zu "
                         "refused bitcasts",
                         sum.refused);
                rc = -1;
            } else {
                library_verdict(out, out_n, &again);
                if (again.parse != SPVBC_SUCCESS ||
                    again.error_count - again.logical_count != want_refused ||
                    again.lowerable_count != 0) {
                    snprintf(why, why_size,
                             "after lowering the library finds %zu errors (%zu "
                             "lowerable), expected the %zu refused ones",
                             again.error_count, again.lowerable_count, want_refused);
                    rc = -1;
                }
            }
        }
        if (sum.rewritten) {
            g_lower.rewritten++;
        } else if (sum.refused) {
            g_lower.refused++;
        } else {
            g_lower.untouched++;
        }
    } else {
        char msg[1024];
        lib_verdict again;
        g_lower.rewritten++;
        if (sum.rewritten != lv->lowerable_count || sum.refused != 0) {
            snprintf(why, why_size,
                     "lower rewrote %zu and refused %zu; validate found %zu "
                     "lowerable errors",
                     sum.rewritten, sum.refused, lv->lowerable_count);
            rc = -1;
        } else {
            g_lower.spirv_val_runs++;
            if (oracle_validate(out, out_n, env, msg, sizeof msg) != 0) {
                snprintf(why, why_size, "spirv-val rejects the lowered output: %s", msg);
                rc = -1;
            } else {
                spec_findings left;
                library_verdict(out, out_n, &again);
                spec_findings_of(out, out_n, SPVBC_VALIDATE_STRICT, &left);
                if (again.parse != SPVBC_SUCCESS || again.verdict != SPVBC_SUCCESS) {
                    snprintf(why, why_size, "the library finds errors in its own output: %s",
                             again.errors);
                    rc = -1;
                } else if (left.failed || left.count) {
                    snprintf(why, why_size, "the lowered output still has W-SPEC-BITCAST: %s",
                             left.message);
                    rc = -1;
                }
            }
        }
    }
    spvbc_module_destroy(mod);
    spvbc_context_destroy(ctx);
    if (rc) {
        g_lower.failed++;
    }
    return rc;
}

/* The library's verdict on case `text` (assembled: `w`, `n` words, SPIR-V 1.`minor`) and its
 * lowering, against spirv-val's (`val_msg`: why it rejects the case, NULL when it accepts it) and
 * the model's `expected`: counts the case passed or failed in g_cat[`cat`]. */
void judge_case(int cat, int minor, const char *text, const uint32_t *w, size_t n,
                const char *val_msg, rule expected)
{
    const char *oracle = g_2026 ? "spirv-val 2026.4" : g_new ? "spirv-val 2025.1" : "spirv-val";
    const int env = spvbc_gen_universal_env(minor), val_ok = val_msg == NULL;
    const char *msg = val_ok ? "" : val_msg;
    char what[160];
    lib_verdict lv;
    cat_stats *cs = &g_cat[cat];
    library_verdict(w, n, &lv);
    if (g_show && strcmp(g_show, k_cat_name[cat]) == 0) {
        printf("==== [%s] SPIR-V 1.%d, model %s, %s: %s\n  library: %s\n%s", k_cat_name[cat], minor,
               k_rule_id[expected], oracle, val_ok ? "valid" : msg,
               lv.errors[0] ? lv.errors : "no errors", text);
    }
    if (expected != R_OK) {
        cs->errors_expected++;
    }
    cs->rule_hist[expected]++;
    const int lib_error = lv.verdict == SPVBC_ERROR_VALIDATION_FAILED;
    char why[1400];
    const char *failure = NULL;
    if (lv.parse != SPVBC_SUCCESS) {
        failure = "spvbc_module_parse failed";
    } else if (lv.verdict != SPVBC_SUCCESS && !lib_error) {
        failure = "spvbc_module_validate returned an unexpected result";
    } else if (check_lowering(w, n, env, &lv, why, sizeof why) != 0) {
        failure = why;
    } else if (cat == CAT_SPEC_KERNEL && val_ok && !lib_error && !g_2026) {
        /* SPIRV-Tools 2023.1 and 2025.1 do not check this form's operand (2026.4 does, as the
         * library does in that generation: compared as any case below): the library agrees
         * with them, and warns (W-SPEC-BITCAST, an error under --strict) exactly where the
         * model of current SPIRV-Tools finds an error, naming the model's rule. */
        spec_findings warn, strict;
        spec_findings_of(w, n, 0, &warn);
        spec_findings_of(w, n, SPVBC_VALIDATE_STRICT, &strict);
        if (warn.failed || strict.failed) {
            failure = "the library could not parse or validate";
        } else if ((warn.count != 0) != (expected != R_OK)) {
            failure = "W-SPEC-BITCAST differs from the current-SPIRV-Tools model";
        } else if (warn.errors != 0 || strict.errors != warn.count) {
            failure = "W-SPEC-BITCAST is not a warning by default and an error under --strict";
        } else if (warn.count && warn.rule != expected) {
            failure = "W-SPEC-BITCAST names another rule than the model";
        } else {
            cs->spirv_val_misses += warn.count != 0;
        }
        if (failure != NULL)
            fprintf(stderr, "  W-SPEC-BITCAST: %s\n", warn.count ? warn.message : "none");
    } else if (lib_error == val_ok) {
        (void)snprintf(what, sizeof what, "library and %s disagree", oracle);
        failure = what;
    } else if (val_ok != (expected == R_OK) || (!val_ok && !message_matches(expected, msg))) {
        (void)snprintf(what, sizeof what, "the test's model of the rules disagrees with %s",
                       oracle);
        failure = what;
    } else if (!val_ok && !message_matches(lv.first_error, msg)) {
        failure = "the library's rule id does not map to spirv-val's message";
    }
    if (failure != NULL) {
        print_failure(failure, cat, text, w, n, env, msg, &lv, expected);
        cs->failed++;
    } else {
        cs->passed++;
    }
}

/* Assembles and checks one generated case.  `bitcast_line` is the bitcast; `global_line` says
 * whether it is an OpSpecConstantOp at global scope. */
void run_case(int cat, gmod *m, const char *bitcast_line, int global_line, rule expected)
{
    spvbc_gen_text text = {0, 0, 0, 0}, twin = {0, 0, 0, 0};
    uint32_t *w = NULL, *tw = NULL;
    size_t n = 0, tn = 0;
    int env = spvbc_gen_universal_env(m->minor);
    char msg[2048], tmsg[2048];
    cat_stats *cs = &g_cat[cat];

    write_module(m, bitcast_line, global_line, &text);
    write_module(m, NULL, global_line, &twin);
    cs->cases++;
    if (text.failed || twin.failed ||
        spvbc_gen_assemble(spvbc_gen_text_str(&text), env, &w, &n) != 0 ||
        spvbc_gen_assemble(spvbc_gen_text_str(&twin), env, &tw, &tn) != 0) {
        fprintf(stderr, "FAIL [%s] the generator wrote a module that does not assemble:\n%s\n",
                k_cat_name[cat], spvbc_gen_text_str(&text));
        cs->failed++;
        goto done;
    }
    if (spvbc_gen_validate(tw, tn, env, tmsg, sizeof tmsg) != 0) {
        if (g_verbose) {
            fprintf(stderr, "skip [%s] twin invalid: %s\n%s\n", k_cat_name[cat], tmsg,
                    spvbc_gen_text_str(&twin));
        }
        cs->skipped++;
        goto done;
    }
    int val_ok = (g_new ? new_validate(w, n, m->minor, msg, sizeof msg)
                        : spvbc_gen_validate(w, n, env, msg, sizeof msg)) == 0;
    judge_case(cat, m->minor, spvbc_gen_text_str(&text), w, n, val_ok ? NULL : msg, expected);
done:
    free(w);
    free(tw);
    spvbc_gen_text_free(&text);
    spvbc_gen_text_free(&twin);
}
