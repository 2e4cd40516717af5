/*
 * matrix.c - the as_type matrix test.
 *
 * For every ordered pair of the 66 OpenCL types whose byte sizes agree (a 3-component vector
 * occupies 4), in the Kernel flavour and (counts <= 4) the Vulkan flavour of the naive as_type
 * kernel (test/support/astype_gen.h), this program
 *   - checks the library's validator on the naive module (V12 error, lowerable, iff the total
 *     bits differ);
 *   - lowers it (once per pad policy undef/zero when the source has 3 components; pad policy
 *     "error" must refuse those with an error diagnostic when the destination does not have 3
 *     components, and change nothing when it does);
 *   - runs spirv-val on every output;
 *   - checks the disassembly against the recipe of the rules sheet's class table (section 3),
 *     written here as FileCheck-like line patterns derived from the pair's lane counts and
 *     element types, not from spvbc_astype_plan();
 *   - checks that lowering the output again changes nothing and that the bitcast's result id
 *     (OpName "y") names the final instruction of the recipe.
 * Then the seed examples (as_float of a constant, as_int4(float4), a mask select,
 * as_float3(float4)) run as separate cases.
 *
 * With `--dump-kernel DIR`, every lowered Kernel-flavour output is written to DIR as
 * <n>_as_<dst>_<src>[_pad].spv, its entry point renamed k<n> so that spirv-link can join them,
 * for the reverse-translation test (llvm_spirv_reverse.sh).
 * SPDX-License-Identifier: Apache-2.0
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "astype_gen.h"
#include "spirv_bitcast.h"

#define V12_MESSAGE "Expected input to have the same total bit width as Result Type: Bitcast"

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

static stats g_stats;
static const char *g_dump_dir;

/* ---- small helpers ---------------------------------------------------------------------- */

static char *xstrdup(const char *s)
{
    size_t n = strlen(s) + 1;
    char *d = (char *)malloc(n);
    if (d) {
        memcpy(d, s, n);
    }
    return d;
}

/* The lines of a disassembly, leading blanks stripped. */
typedef struct lines {
    char *text;
    char **line;
    size_t count;
} lines;

static int lines_split(const char *dis, lines *out)
{
    size_t cap = 64;
    char *p;
    out->text = xstrdup(dis);
    out->line = (char **)malloc(cap * sizeof(char *));
    out->count = 0;
    if (!out->text || !out->line) {
        free(out->text);
        free(out->line);
        return -1;
    }
    p = out->text;
    while (*p) {
        char *e = strchr(p, '\n');
        while (*p == ' ') {
            ++p;
        }
        if (e) {
            *e = '\0';
        }
        if (*p) {
            if (out->count == cap) {
                char **nl = (char **)realloc(out->line, cap * 2 * sizeof(char *));
                if (!nl) {
                    free(out->text);
                    free(out->line);
                    return -1;
                }
                out->line = nl;
                cap *= 2;
            }
            out->line[out->count++] = p;
        }
        if (!e) {
            break;
        }
        p = e + 1;
    }
    return 0;
}

static void lines_free(lines *l)
{
    free(l->text);
    free(l->line);
}

/* Splits `s` in place at blanks: returns the next token (NULL at the end), advancing `*save`. */
static char *next_token(char *s, char **save)
{
    char *p = s ? s : *save;
    char *start;
    while (*p == ' ') {
        ++p;
    }
    if (!*p) {
        *save = p;
        return NULL;
    }
    start = p;
    while (*p && *p != ' ') {
        ++p;
    }
    if (*p) {
        *p++ = '\0';
    }
    *save = p;
    return start;
}

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

static const char *binding_get(const bindings *b, const char *name)
{
    for (size_t i = 0; i < b->count; ++i) {
        if (strcmp(b->name[i], name) == 0) {
            return b->value[i];
        }
    }
    return NULL;
}

static int line_match(const char *line, const char *pattern, bindings *b)
{
    char lbuf[512], pbuf[512];
    char *ls, *ps, *lt, *pt;
    bindings trial = *b;
    snprintf(lbuf, sizeof lbuf, "%s", line);
    snprintf(pbuf, sizeof pbuf, "%s", pattern);
    lt = next_token(lbuf, &ls);
    pt = next_token(pbuf, &ps);
    while (lt && pt) {
        size_t pl = strlen(pt);
        if (pl > 4 && pt[0] == '[' && pt[1] == '[' && pt[pl - 1] == ']' && pt[pl - 2] == ']') {
            char name[8];
            const char *v;
            snprintf(name, sizeof name, "%.*s", (int)(pl - 4), pt + 2);
            v = binding_get(&trial, name);
            if (v) {
                if (strcmp(v, lt) != 0) {
                    return 0;
                }
            } else {
                if (trial.count == 8) {
                    return 0;
                }
                snprintf(trial.name[trial.count], sizeof trial.name[0], "%s", name);
                if (strlen(lt) >= sizeof trial.value[0]) {
                    return 0;
                }
                memcpy(trial.value[trial.count], lt, strlen(lt) + 1);
                trial.count++;
            }
        } else if (strcmp(pt, lt) != 0) {
            return 0;
        }
        lt = next_token(NULL, &ls);
        pt = next_token(NULL, &ps);
    }
    if (lt || pt) {
        return 0;
    }
    *b = trial;
    return 1;
}

/* Index of the first line starting with `prefix`, or -1. */
static long find_prefix(const lines *l, const char *prefix)
{
    size_t n = strlen(prefix);
    for (size_t i = 0; i < l->count; ++i) {
        if (strncmp(l->line[i], prefix, n) == 0) {
            return (long)i;
        }
    }
    return -1;
}

/* Number of lines matching `pattern` under `b` (bindings not kept). */
static size_t count_matches(const lines *l, const char *pattern, const bindings *b)
{
    size_t n = 0;
    for (size_t i = 0; i < l->count; ++i) {
        bindings t = *b;
        if (line_match(l->line[i], pattern, &t)) {
            ++n;
        }
    }
    return n;
}

/* ---- the library, wrapped --------------------------------------------------------------- */

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

static int run_lower(const uint32_t *in, size_t n, spvbc_pad_policy pad, lower_result *res)
{
    spvbc_context ctx = NULL;
    spvbc_module mod = NULL;
    spvbc_lower_options opts;
    memset(res, 0, sizeof *res);
    if (spvbc_context_create(NULL, &ctx) != SPVBC_SUCCESS) {
        return -1;
    }
    res->parse = spvbc_module_parse(ctx, in, n, NULL, &mod);
    if (res->parse != SPVBC_SUCCESS) {
        spvbc_context_destroy(ctx);
        return -1;
    }
    opts.pad = pad;
    opts.classes = 0;
    res->lower = spvbc_module_lower(mod, &opts, &res->summary);
    for (size_t i = 0; i < spvbc_context_diagnostic_count(ctx); ++i) {
        const spvbc_diagnostic *d = spvbc_context_diagnostic(ctx, i);
        if (d && d->severity == SPVBC_SEVERITY_ERROR) {
            if (res->error_diags++ == 0) {
                snprintf(res->first_error, sizeof res->first_error, "%s",
                         d->message ? d->message : "(no message)");
                snprintf(res->first_error_rule, sizeof res->first_error_rule, "%s",
                         d->rule ? d->rule : "");
            }
        }
    }
    if (res->lower == SPVBC_SUCCESS) {
        const uint32_t *w = NULL;
        size_t wc = 0;
        if (spvbc_module_get_words(mod, &w, &wc) == SPVBC_SUCCESS && w) {
            res->words = (uint32_t *)malloc(wc * sizeof(uint32_t));
            if (res->words) {
                memcpy(res->words, w, wc * sizeof(uint32_t));
                res->word_count = wc;
            }
        }
    }
    spvbc_module_destroy(mod);
    spvbc_context_destroy(ctx);
    g_stats.lower_calls++;
    return res->words ? 0 : -1;
}

/* Whether every error the library reported is one it says it can lower (parse succeeded). */
static int all_errors_lowerable(const spvbc_gen_verdict *v)
{
    return v->parse == SPVBC_SUCCESS && v->lowerable_count == v->error_count;
}

/* ---- reporting -------------------------------------------------------------------------- */

static char g_case[160];
static int g_case_failed;
static const char *g_case_dis; /* disassembly to print on failure, if any */
static int g_dis_printed; /* only the first few failures print their disassembly */

static void fail(const char *fmt, ...)
{
    va_list ap;
    fprintf(stderr, "FAIL %s: ", g_case);
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
    if (g_case_dis && !g_case_failed && g_dis_printed++ < 5) {
        fprintf(stderr, "---- output disassembly ----\n%s----\n", g_case_dis);
    }
    g_case_failed = 1;
}

static void begin_case(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(g_case, sizeof g_case, fmt, ap);
    va_end(ap);
    g_case_failed = 0;
    g_case_dis = NULL;
}

static void end_case(int seed)
{
    if (seed) {
        if (g_case_failed) {
            g_stats.seeds_failed++;
        } else {
            g_stats.seeds_passed++;
        }
    } else if (g_case_failed) {
        g_stats.checks_failed++;
    } else {
        g_stats.checks_passed++;
    }
}

static int spirv_val(const uint32_t *w, size_t n, int env, char *msg, size_t size)
{
    g_stats.val_runs++;
    return spvbc_gen_validate(w, n, env, msg, size);
}

/* ---- the class table, independently -------------------------------------------------------- */

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

static const char *klass_name(klass k)
{
    static const char *names[] = {"identity",    "same-count", "4->3",         "3->4",
                                  "vec3-source", "vec3-dest",  "count-change", "size-error"};
    return names[k];
}

/* Whether the element types are the same SPIR-V type in `flavour`. */
static int same_elem(const spvbc_type_desc *a, const spvbc_type_desc *b, spvbc_gen_flavour flavour)
{
    if (a->kind != b->kind || a->width != b->width) {
        return 0;
    }
    if (a->kind == SPVBC_SCALAR_INT && flavour == SPVBC_GEN_VULKAN) {
        return (a->is_signed != 0) == (b->is_signed != 0);
    }
    return 1;
}

static klass classify(const spvbc_type_desc *s, const spvbc_type_desc *d, spvbc_gen_flavour fl)
{
    uint32_t n = s->count, m = d->count;
    if (spvbc_gen_opencl_size(s) != spvbc_gen_opencl_size(d)) {
        return K_SIZE_ERROR;
    }
    if (n == m && same_elem(s, d, fl)) {
        return K_IDENTITY;
    }
    if (n == m) {
        return K_SAME_COUNT;
    }
    if (n == 4 && m == 3) {
        return K_4_TO_3;
    }
    if (n == 3 && m == 4) {
        return K_3_TO_4;
    }
    if (n == 3) {
        return K_VEC3_SOURCE;
    }
    if (m == 3) {
        return K_VEC3_DEST;
    }
    return K_COUNT_CHANGE;
}

/*
 * The expected recipe lines (between `%x = OpLoad` and the line defining %y, inclusive) of
 * class `k` for the pair, as patterns; `*null_pattern` gets the OpConstantNull declaration a
 * zero pad needs ("" if none) and `*v4_decl` the vec4 type declaration that must appear exactly
 * once ("" if none).  Returns the number of patterns.
 */
static size_t expected_recipe(klass k, const spvbc_type_desc *s, const spvbc_type_desc *d,
                              spvbc_gen_flavour fl, spvbc_pad_policy pad, char pat[3][160],
                              char *null_pattern, char *v4_decl, size_t size)
{
    char D[32], v4es[32], v4ed[32], v3es[32], es[32], ed[32];
    spvbc_type_desc t;
    const char *pad_operand = pad == SPVBC_PAD_ZERO ? "[[Z]]" : "%x";
    const char *pad_lane = pad == SPVBC_PAD_ZERO ? "3" : "4294967295";
    spvbc_gen_spirv_type_name(d, fl, D, sizeof D);
    t = *s;
    t.count = 4;
    spvbc_gen_spirv_type_name(&t, fl, v4es, sizeof v4es);
    t.count = 3;
    spvbc_gen_spirv_type_name(&t, fl, v3es, sizeof v3es);
    t.count = 1;
    spvbc_gen_spirv_type_name(&t, fl, es, sizeof es);
    t = *d;
    t.count = 4;
    spvbc_gen_spirv_type_name(&t, fl, v4ed, sizeof v4ed);
    t.count = 1;
    spvbc_gen_spirv_type_name(&t, fl, ed, sizeof ed);
    null_pattern[0] = '\0';
    v4_decl[0] = '\0';
    switch (k) {
    case K_IDENTITY:
    case K_SAME_COUNT:
    case K_COUNT_CHANGE:
    case K_SIZE_ERROR: snprintf(pat[0], 160, "%%y = OpBitcast %%%s %%x", D); return 1;
    case K_4_TO_3:
        if (same_elem(s, d, fl)) {
            snprintf(pat[0], 160, "%%y = OpVectorShuffle %%%s %%x %%x 0 1 2", D);
            return 1;
        }
        snprintf(v4_decl, size, "%%%s = OpTypeVector %%%s 4", v4ed, ed);
        snprintf(pat[0], 160, "[[T]] = OpBitcast %%%s %%x", v4ed);
        snprintf(pat[1], 160, "%%y = OpVectorShuffle %%%s [[T]] [[T]] 0 1 2", D);
        return 2;
    case K_3_TO_4:
    case K_VEC3_SOURCE:
        snprintf(v4_decl, size, "%%%s = OpTypeVector %%%s 4", v4es, es);
        if (pad == SPVBC_PAD_ZERO) {
            snprintf(null_pattern, size, "[[Z]] = OpConstantNull %%%s", v3es);
        }
        if (k == K_3_TO_4 && same_elem(s, d, fl)) {
            snprintf(pat[0], 160, "%%y = OpVectorShuffle %%%s %%x %s 0 1 2 %s", D, pad_operand,
                     pad_lane);
            return 1;
        }
        snprintf(pat[0], 160, "[[T]] = OpVectorShuffle %%%s %%x %s 0 1 2 %s", v4es, pad_operand,
                 pad_lane);
        snprintf(pat[1], 160, "%%y = OpBitcast %%%s [[T]]", D);
        return 2;
    case K_VEC3_DEST:
        snprintf(v4_decl, size, "%%%s = OpTypeVector %%%s 4", v4ed, ed);
        snprintf(pat[0], 160, "[[T]] = OpBitcast %%%s %%x", v4ed);
        snprintf(pat[1], 160, "%%y = OpVectorShuffle %%%s [[T]] [[T]] 0 1 2", D);
        return 2;
    }
    return 0;
}

/* Checks the recipe of `dis` against the patterns. */
static void check_recipe(const char *dis, char pat[3][160], size_t npat, const char *null_pattern,
                         const char *v4_decl, spvbc_gen_flavour fl)
{
    lines l;
    bindings b;
    long ix, iy;
    size_t bitcasts = 0, shuffles = 0, want_bitcasts = 0, want_shuffles = 0;
    memset(&b, 0, sizeof b);
    if (lines_split(dis, &l) != 0) {
        fail("out of memory");
        return;
    }
    ix = find_prefix(&l, "%x = OpLoad ");
    iy = find_prefix(&l, "%y = ");
    if (ix < 0 || iy < 0 || iy <= ix) {
        fail("cannot find '%%x = OpLoad' followed by '%%y = ' in the output");
        lines_free(&l);
        return;
    }
    if ((size_t)(iy - ix) != npat) {
        fail("recipe has %ld instructions between %%x and %%y (inclusive), expected %zu", iy - ix,
             npat);
    } else {
        for (size_t i = 0; i < npat; ++i) {
            const char *line = l.line[(size_t)ix + 1 + i];
            if (!line_match(line, pat[i], &b)) {
                fail("recipe line %zu is '%s', expected '%s'", i + 1, line, pat[i]);
                break;
            }
        }
    }
    /* The rewritten instruction keeps its result id: the final value is still stored. */
    {
        const char *store = fl == SPVBC_GEN_KERNEL ? "OpStore %out %y" : "OpStore [[P]] %y";
        long is = -1;
        for (size_t i = (size_t)iy + 1; i < l.count; ++i) {
            bindings t = b;
            char pbuf[64];
            snprintf(pbuf, sizeof pbuf, "%s", store);
            if (strncmp(l.line[i], "OpStore", 7) == 0) {
                if (fl == SPVBC_GEN_KERNEL) {
                    /* "OpStore %out %y Aligned N" */
                    if (strncmp(l.line[i], store, strlen(store)) == 0) {
                        is = (long)i;
                    }
                } else if (line_match(l.line[i], pbuf, &t)) {
                    is = (long)i;
                }
                break;
            }
        }
        if (is < 0) {
            fail("the store after the recipe does not store %%y");
        }
    }
    /* No other OpBitcast / OpVectorShuffle anywhere in the module. */
    for (size_t i = 0; i < npat; ++i) {
        want_bitcasts += strstr(pat[i], "OpBitcast") != NULL;
        want_shuffles += strstr(pat[i], "OpVectorShuffle") != NULL;
    }
    for (size_t i = 0; i < l.count; ++i) {
        bitcasts += strstr(l.line[i], " OpBitcast ") != NULL;
        shuffles += strstr(l.line[i], " OpVectorShuffle ") != NULL;
    }
    if (bitcasts != want_bitcasts || shuffles != want_shuffles) {
        fail("module has %zu OpBitcast and %zu OpVectorShuffle, expected %zu and %zu", bitcasts,
             shuffles, want_bitcasts, want_shuffles);
    }
    if (null_pattern[0]) {
        size_t c = count_matches(&l, null_pattern, &b);
        if (c != 1) {
            fail("expected exactly one '%s', found %zu", null_pattern, c);
        } else {
            /* The null constant is declared before the function. */
            long iz = -1;
            for (size_t i = 0; i < l.count; ++i) {
                bindings t = b;
                if (line_match(l.line[i], null_pattern, &t)) {
                    iz = (long)i;
                }
            }
            if (iz > ix) {
                fail("the OpConstantNull is declared after its use");
            }
        }
    }
    if (v4_decl[0]) {
        bindings none;
        size_t c;
        memset(&none, 0, sizeof none);
        c = count_matches(&l, v4_decl, &none);
        if (c != 1) {
            fail("expected exactly one '%s', found %zu", v4_decl, c);
        }
    }
    lines_free(&l);
}

/* ---- one pair --------------------------------------------------------------------------- */

static int words_equal(const uint32_t *a, size_t an, const uint32_t *b, size_t bn)
{
    return an == bn && memcmp(a, b, an * sizeof(uint32_t)) == 0;
}

/*
 * Writes a copy of `w` with the entry point (and its OpName) "astype" renamed to `name` (at
 * most 7 characters, so the instruction keeps its word count), for linking many outputs into
 * one module.  Returns 0 on success.
 */
static int write_renamed(const char *path, const uint32_t *w, size_t n, const char *name)
{
    uint32_t *c = (uint32_t *)malloc(n * sizeof(uint32_t));
    size_t i = 5;
    FILE *f;
    int ok;
    if (!c || strlen(name) > 7) {
        free(c);
        return -1;
    }
    memcpy(c, w, n * sizeof(uint32_t));
    while (i < n) {
        uint32_t wc = c[i] >> 16, op = c[i] & 0xffffu;
        size_t str_at = op == 15 ? 3 : op == 5 ? 2 : 0; /* OpEntryPoint, OpName */
        if (wc == 0 || i + wc > n) {
            break;
        }
        if (str_at && wc >= str_at + 2 && memcmp(&c[i + str_at], "astype\0", 7) == 0) {
            char lit[8] = {0};
            memcpy(lit, name, strlen(name));
            memcpy(&c[i + str_at], lit, 8);
        }
        i += wc;
    }
    f = fopen(path, "wb");
    ok = f && fwrite(c, sizeof(uint32_t), n, f) == n;
    if (f) {
        ok = fclose(f) == 0 && ok;
    }
    free(c);
    return ok ? 0 : -1;
}

/* Writes a lowered Kernel output into the dump directory as <n>_as_<dst>_<src><suffix>.spv,
 * its entry point renamed to k<n>. */
static void dump_kernel(const uint32_t *w, size_t n, const char *sname, const char *dname,
                        const char *suffix)
{
    char path[1024], name[16];
    if (!g_dump_dir) {
        return;
    }
    snprintf(path, sizeof path, "%s/%04zu_as_%s_%s%s.spv", g_dump_dir, g_stats.dumped % 10000u,
             dname, sname, suffix);
    snprintf(name, sizeof name, "k%04zu", g_stats.dumped % 10000u);
    if (write_renamed(path, w, n, name) != 0) {
        fprintf(stderr, "FAIL cannot write %s\n", path);
        g_stats.checks_failed++;
    } else {
        g_stats.dumped++;
    }
}

static void check_pair(const spvbc_type_desc *s, const spvbc_type_desc *d, spvbc_gen_flavour fl)
{
    int env = spvbc_gen_target_env(fl);
    const char *fname = fl == SPVBC_GEN_KERNEL ? "kernel" : "vulkan";
    char sname[16], dname[16], msg[1024];
    char *text;
    uint32_t *in = NULL;
    size_t in_n = 0;
    klass k = classify(s, d, fl);
    int bits_equal = s->width * s->count == d->width * d->count;
    int needs_pad = s->count == 3 && d->count != 3;
    spvbc_pad_policy pads[3] = {SPVBC_PAD_UNDEF, SPVBC_PAD_ZERO, SPVBC_PAD_ERROR};
    size_t npads = s->count == 3 ? 3 : 1; /* 3->3 under pad error: nothing to refuse */
    spvbc_gen_verdict vr;

    spvbc_gen_type_name(s, sname, sizeof sname);
    spvbc_gen_type_name(d, dname, sizeof dname);
    begin_case("%s as_%s(%s) [%s]", fname, dname, sname, klass_name(k));
    text = spvbc_gen_astype_text(s, d, fl);
    if (!text || spvbc_gen_assemble(text, env, &in, &in_n) != 0) {
        fail("cannot generate the naive module");
        free(text);
        end_case(0);
        return;
    }
    free(text);

    /* The validator's verdict on the naive module. */
    spvbc_gen_library_verdict(in, in_n, &vr);
    if (vr.parse != SPVBC_SUCCESS) {
        fail("spvbc_module_parse returned %s", spvbc_result_string(vr.parse));
    } else if (bits_equal) {
        if (vr.verdict != SPVBC_SUCCESS) {
            fail("validate reports errors [%s] on a valid direct bitcast", vr.rules);
        }
    } else if (vr.verdict != SPVBC_ERROR_VALIDATION_FAILED || strcmp(vr.rules, "V12") != 0 ||
               !all_errors_lowerable(&vr)) {
        fail("validate: expected one lowerable V12 error, got %s [%s]%s",
             spvbc_result_string(vr.verdict), vr.rules,
             all_errors_lowerable(&vr) ? "" : " (not lowerable)");
    }
    end_case(0);

    for (size_t p = 0; p < npads; ++p) {
        spvbc_pad_policy pad = pads[p];
        const char *padname = pad == SPVBC_PAD_UNDEF  ? "undef"
                              : pad == SPVBC_PAD_ZERO ? "zero"
                                                      : "error";
        lower_result lr, again;
        char *dis;
        begin_case("%s as_%s(%s) [%s] pad %s", fname, dname, sname, klass_name(k), padname);
        if (run_lower(in, in_n, pad, &lr) != 0) {
            fail("parse/lower failed: parse %s, lower %s", spvbc_result_string(lr.parse),
                 spvbc_result_string(lr.lower));
            free(lr.words);
            end_case(0);
            continue;
        }
        if (pad == SPVBC_PAD_ERROR && !needs_pad) {
            /* 3->3 is a valid direct bitcast: no padding, nothing to refuse. */
            if (lr.summary.refused != 0 || lr.summary.rewritten != 0 || lr.error_diags != 0 ||
                !words_equal(lr.words, lr.word_count, in, in_n)) {
                fail("pad error on a 3->3 pair: expected no change and no error; got %zu "
                     "refused, %zu rewritten, %zu error diagnostics",
                     lr.summary.refused, lr.summary.rewritten, lr.error_diags);
            }
            free(lr.words);
            end_case(0);
            continue;
        }
        if (pad == SPVBC_PAD_ERROR) {
            /* A 3-component source under pad "error": refused, left alone, error diagnostic. */
            if (lr.summary.refused != 1 || lr.summary.rewritten != 0 || lr.error_diags == 0) {
                fail("pad error: expected 1 refused, 0 rewritten and an error diagnostic; got "
                     "%zu refused, %zu rewritten, %zu error diagnostics",
                     lr.summary.refused, lr.summary.rewritten, lr.error_diags);
            }
            if (!words_equal(lr.words, lr.word_count, in, in_n)) {
                fail("pad error: the refused module was changed");
            }
            free(lr.words);
            end_case(0);
            continue;
        }
        if (!bits_equal) {
            g_stats.lowered += lr.summary.rewritten > 0;
        }
        if (spirv_val(lr.words, lr.word_count, env, msg, sizeof msg) != 0) {
            fail("spirv-val rejects the output: %s", msg);
        }
        dis = spvbc_gen_disassemble(lr.words, lr.word_count, env);
        if (!dis) {
            fail("cannot disassemble the output");
        } else {
            char pat[3][160], null_pattern[160], v4_decl[160];
            size_t npat =
                expected_recipe(k, s, d, fl, pad, pat, null_pattern, v4_decl, sizeof null_pattern);
            g_case_dis = dis;
            if (bits_equal) {
                /* same-count, count-change, identity and 3->3: untouched, byte-identical. */
                if (!words_equal(lr.words, lr.word_count, in, in_n) || lr.summary.rewritten != 0) {
                    fail("a valid direct bitcast was changed (%zu rewritten)",
                         lr.summary.rewritten);
                }
            } else if (lr.summary.rewritten != 1 || lr.summary.refused != 0) {
                fail("expected 1 rewritten, 0 refused; got %zu and %zu", lr.summary.rewritten,
                     lr.summary.refused);
            }
            check_recipe(dis, pat, npat, null_pattern, v4_decl, fl);
        }
        /* Lowering the output again changes nothing. */
        if (run_lower(lr.words, lr.word_count, pad, &again) != 0) {
            fail("second lowering failed");
        } else if (!words_equal(again.words, again.word_count, lr.words, lr.word_count) ||
                   again.summary.rewritten != 0) {
            fail("lowering the output again changed it (%zu rewritten)", again.summary.rewritten);
        }
        free(again.words);
        if (fl == SPVBC_GEN_KERNEL && !bits_equal) {
            dump_kernel(lr.words, lr.word_count, sname, dname,
                        needs_pad ? (pad == SPVBC_PAD_ZERO ? "_zero" : "_undef") : "");
        }
        end_case(0);
        free(dis);
        g_case_dis = NULL;
        free(lr.words);
    }
    free(in);
}

/* ---- seed examples: a constant, as_int4, a mask select, as_float3(float4) ----------------- */

static const char *const k_seed_constant =
    "OpCapability Addresses\nOpCapability Kernel\nOpMemoryModel Physical64 OpenCL\n"
    "OpEntryPoint Kernel %main \"as_float_const\"\nOpName %y \"y\"\n"
    "%void = OpTypeVoid\n%uint = OpTypeInt 32 0\n%float = OpTypeFloat 32\n"
    "%c = OpConstant %uint 1065353216\n"
    "%_ptr_CrossWorkgroup_float = OpTypePointer CrossWorkgroup %float\n"
    "%fn = OpTypeFunction %void %_ptr_CrossWorkgroup_float\n"
    "%main = OpFunction %void None %fn\n%out = OpFunctionParameter %_ptr_CrossWorkgroup_float\n"
    "%e = OpLabel\n%y = OpBitcast %float %c\nOpStore %out %y Aligned 4\nOpReturn\n"
    "OpFunctionEnd\n";

/* float4 select(float4 f, float4 g): as_float4(as_int4(f) & isless(f, g)); isless gives -1. */
static const char *const k_seed_mask =
    "OpCapability Addresses\nOpCapability Kernel\nOpMemoryModel Physical64 OpenCL\n"
    "OpEntryPoint Kernel %main \"mask\"\nOpName %y \"y\"\n"
    "%void = OpTypeVoid\n%uint = OpTypeInt 32 0\n%float = OpTypeFloat 32\n%bool = OpTypeBool\n"
    "%v4uint = OpTypeVector %uint 4\n%v4float = OpTypeVector %float 4\n"
    "%v4bool = OpTypeVector %bool 4\n"
    "%uint_m1 = OpConstant %uint 4294967295\n"
    "%allones = OpConstantComposite %v4uint %uint_m1 %uint_m1 %uint_m1 %uint_m1\n"
    "%zero = OpConstantNull %v4uint\n"
    "%_ptr_CrossWorkgroup_v4float = OpTypePointer CrossWorkgroup %v4float\n"
    "%fn = OpTypeFunction %void %_ptr_CrossWorkgroup_v4float %_ptr_CrossWorkgroup_v4float "
    "%_ptr_CrossWorkgroup_v4float\n"
    "%main = OpFunction %void None %fn\n"
    "%pf = OpFunctionParameter %_ptr_CrossWorkgroup_v4float\n"
    "%pg = OpFunctionParameter %_ptr_CrossWorkgroup_v4float\n"
    "%out = OpFunctionParameter %_ptr_CrossWorkgroup_v4float\n"
    "%e = OpLabel\n%f = OpLoad %v4float %pf Aligned 16\n%g = OpLoad %v4float %pg Aligned 16\n"
    "%fi = OpBitcast %v4uint %f\n%lt = OpFOrdLessThan %v4bool %f %g\n"
    "%m = OpSelect %v4uint %lt %allones %zero\n%and = OpBitwiseAnd %v4uint %fi %m\n"
    "%y = OpBitcast %v4float %and\nOpStore %out %y Aligned 16\nOpReturn\nOpFunctionEnd\n";

static uint32_t *assemble_kernel(const char *text, size_t *n)
{
    uint32_t *w = NULL;
    if (spvbc_gen_assemble(text, spvbc_gen_target_env(SPVBC_GEN_KERNEL), &w, n) != 0) {
        return NULL;
    }
    return w;
}

static uint32_t *assemble_pair(const char *src, const char *dst, spvbc_gen_flavour fl, size_t *n)
{
    spvbc_type_desc s, d;
    uint32_t *w = NULL;
    char *text;
    if (spvbc_type_desc_from_opencl(src, &s) != SPVBC_SUCCESS ||
        spvbc_type_desc_from_opencl(dst, &d) != SPVBC_SUCCESS) {
        fail("spvbc_type_desc_from_opencl rejects %s or %s", src, dst);
        return NULL;
    }
    text = spvbc_gen_astype_text(&s, &d, fl);
    if (!text || spvbc_gen_assemble(text, spvbc_gen_target_env(fl), &w, n) != 0) {
        fail("cannot generate as_%s(%s)", dst, src);
        w = NULL;
    }
    free(text);
    return w;
}

/* A seed whose bitcast is valid: validate clean, lower leaves it byte-identical, spirv-val ok. */
static void seed_untouched(const char *title, uint32_t *w, const size_t *np)
{
    spvbc_gen_verdict vr;
    lower_result lr;
    char msg[1024];
    int env = spvbc_gen_target_env(SPVBC_GEN_KERNEL);
    size_t n = *np;
    begin_case("seed %s", title);
    if (!w) {
        fail("cannot build the module");
        end_case(1);
        return;
    }
    if (spirv_val(w, n, env, msg, sizeof msg) != 0) {
        fail("the input is not valid: %s", msg);
    }
    spvbc_gen_library_verdict(w, n, &vr);
    if (vr.parse != SPVBC_SUCCESS || vr.verdict != SPVBC_SUCCESS) {
        fail("validate: parse %s, verdict %s [%s]", spvbc_result_string(vr.parse),
             spvbc_result_string(vr.verdict), vr.rules);
    }
    if (run_lower(w, n, SPVBC_PAD_UNDEF, &lr) != 0) {
        fail("lower failed");
    } else {
        if (!words_equal(lr.words, lr.word_count, w, n) || lr.summary.rewritten != 0) {
            fail("lower changed a valid module");
        }
        if (spirv_val(lr.words, lr.word_count, env, msg, sizeof msg) != 0) {
            fail("spirv-val rejects the output: %s", msg);
        }
    }
    free(lr.words);
    free(w);
    end_case(1);
}

/* A seed that lowers: the expected recipe lines must appear; output valid. */
static void seed_lowered(const char *title, const char *src, const char *dst, spvbc_pad_policy pad,
                         const char *const *pats, size_t npat, const char *extra_pattern)
{
    size_t n = 0;
    uint32_t *w;
    lower_result lr;
    char msg[1024];
    int env = spvbc_gen_target_env(SPVBC_GEN_KERNEL);
    begin_case("seed %s", title);
    w = assemble_pair(src, dst, SPVBC_GEN_KERNEL, &n);
    if (!w) {
        end_case(1);
        return;
    }
    if (run_lower(w, n, pad, &lr) != 0) {
        fail("lower failed");
    } else {
        char *dis = spvbc_gen_disassemble(lr.words, lr.word_count, env);
        if (lr.summary.rewritten != 1) {
            fail("expected 1 rewritten, got %zu", lr.summary.rewritten);
        }
        if (spirv_val(lr.words, lr.word_count, env, msg, sizeof msg) != 0) {
            fail("spirv-val rejects the output: %s", msg);
        }
        if (dis) {
            lines l;
            bindings b;
            long ix;
            memset(&b, 0, sizeof b);
            g_case_dis = dis;
            if (lines_split(dis, &l) == 0) {
                ix = find_prefix(&l, "%x = OpLoad ");
                for (size_t i = 0; i < npat; ++i) {
                    if (ix < 0 || (size_t)ix + 1 + i >= l.count ||
                        !line_match(l.line[(size_t)ix + 1 + i], pats[i], &b)) {
                        fail("expected line '%s' after %%x", pats[i]);
                        break;
                    }
                }
                if (extra_pattern && count_matches(&l, extra_pattern, &b) != 1) {
                    fail("expected exactly one '%s'", extra_pattern);
                }
                lines_free(&l);
            }
            g_case_dis = NULL;
            free(dis);
        } else {
            fail("cannot disassemble");
        }
    }
    free(lr.words);
    free(w);
    end_case(1);
}

static void run_seeds(void)
{
    size_t n = 0;
    /* as_float(0x3f800000): an OpConstant operand. */
    seed_untouched("as_float(0x3f800000)", assemble_kernel(k_seed_constant, &n), &n);
    /* as_int4(float4) */
    seed_untouched("as_int4(float4)", assemble_pair("float4", "int4", SPVBC_GEN_KERNEL, &n), &n);
    /* the mask select */
    seed_untouched("as_float4(as_int4(f) & isless(f, g))", assemble_kernel(k_seed_mask, &n), &n);
    seed_untouched("as_short2(int)", assemble_pair("int", "short2", SPVBC_GEN_KERNEL, &n), &n);
    seed_untouched("as_short8(int4)", assemble_pair("int4", "short8", SPVBC_GEN_KERNEL, &n), &n);
    {
        static const char *const p43[] = {"%y = OpVectorShuffle %v3float %x %x 0 1 2"};
        static const char *const p34u[] = {"%y = OpVectorShuffle %v4float %x %x 0 1 2 4294967295"};
        static const char *const p34z[] = {"%y = OpVectorShuffle %v4float %x [[Z]] 0 1 2 3"};
        seed_lowered("as_float3(float4)", "float4", "float3", SPVBC_PAD_UNDEF, p43, 1, NULL);
        seed_lowered("as_float4(float3) pad undef", "float3", "float4", SPVBC_PAD_UNDEF, p34u, 1,
                     NULL);
        seed_lowered("as_float4(float3) pad zero", "float3", "float4", SPVBC_PAD_ZERO, p34z, 1,
                     "[[Z]] = OpConstantNull %v3float");
    }
    /* as_float4(float3) under pad error: refused, unchanged. */
    {
        uint32_t *w;
        lower_result lr;
        begin_case("seed as_float4(float3) pad error");
        w = assemble_pair("float3", "float4", SPVBC_GEN_KERNEL, &n);
        if (w && run_lower(w, n, SPVBC_PAD_ERROR, &lr) == 0) {
            if (lr.summary.refused != 1 || lr.error_diags == 0 ||
                !words_equal(lr.words, lr.word_count, w, n)) {
                fail("expected refusal with an error diagnostic and no change");
            }
        } else {
            fail("lower failed");
            lr.words = NULL;
        }
        free(lr.words);
        free(w);
        end_case(1);
    }
    /* as_double4(float4): a size error; parse ok, V12 not lowerable, lower refuses. */
    {
        uint32_t *w;
        spvbc_gen_verdict vr;
        lower_result lr;
        char msg[1024];
        begin_case("seed as_double4(float4)");
        w = assemble_pair("float4", "double4", SPVBC_GEN_KERNEL, &n);
        if (!w) {
            end_case(1);
            return;
        }
        if (spirv_val(w, n, spvbc_gen_target_env(SPVBC_GEN_KERNEL), msg, sizeof msg) == 0 ||
            !strstr(msg, V12_MESSAGE)) {
            fail("spirv-val should reject with V12, says: %s", msg[0] ? msg : "valid");
        }
        spvbc_gen_library_verdict(w, n, &vr);
        if (vr.parse != SPVBC_SUCCESS) {
            fail("parse failed: %s", spvbc_result_string(vr.parse));
        } else if (vr.verdict != SPVBC_ERROR_VALIDATION_FAILED || strcmp(vr.rules, "V12") != 0 ||
                   all_errors_lowerable(&vr)) {
            fail("validate: expected one non-lowerable V12 error, got %s [%s]%s",
                 spvbc_result_string(vr.verdict), vr.rules,
                 all_errors_lowerable(&vr) ? " (lowerable)" : "");
        }
        if (run_lower(w, n, SPVBC_PAD_UNDEF, &lr) != 0) {
            fail("lower failed");
        } else if (lr.summary.refused != 1 || lr.summary.rewritten != 0 || lr.error_diags == 0 ||
                   !words_equal(lr.words, lr.word_count, w, n)) {
            fail("lower: expected 1 refused with an error diagnostic and no change; got %zu "
                 "refused, %zu rewritten, %zu errors",
                 lr.summary.refused, lr.summary.rewritten, lr.error_diags);
        }
        free(lr.words);
        free(w);
        end_case(1);
    }
}

/* ---- main ------------------------------------------------------------------------------- */

int main(int argc, char **argv)
{
    spvbc_type_desc types[SPVBC_GEN_OPENCL_TYPE_COUNT];
    size_t n = spvbc_gen_opencl_types(types);
    size_t legal = 0, plan_legal = 0, class_count[8] = {0}, plan_mismatch = 0;

    for (int i = 1; i < argc; ++i) {
        if (strcmp(argv[i], "--dump-kernel") == 0 && i + 1 < argc) {
            g_dump_dir = argv[++i];
        } else {
            fprintf(stderr, "usage: %s [--dump-kernel DIR]\n", argv[0]);
            return 2;
        }
    }

    /* Counts: our size rule against spvbc_astype_plan() (Kernel: signless integers). */
    for (size_t i = 0; i < n; ++i) {
        for (size_t j = 0; j < n; ++j) {
            spvbc_type_desc s = types[i], d = types[j];
            spvbc_plan plan;
            klass k = classify(&s, &d, SPVBC_GEN_KERNEL);
            static const spvbc_astype_class map[8] = {
                SPVBC_ASTYPE_IDENTITY,     SPVBC_ASTYPE_SAME_COUNT,  SPVBC_ASTYPE_4_TO_3,
                SPVBC_ASTYPE_3_TO_4,       SPVBC_ASTYPE_VEC3_SOURCE, SPVBC_ASTYPE_VEC3_DEST,
                SPVBC_ASTYPE_COUNT_CHANGE, SPVBC_ASTYPE_SIZE_ERROR};
            s.is_signed = 0;
            d.is_signed = 0;
            class_count[k]++;
            legal += k != K_SIZE_ERROR;
            if (spvbc_astype_plan(&s, &d, NULL, &plan) != SPVBC_SUCCESS) {
                ++plan_mismatch;
                continue;
            }
            plan_legal += plan.cls != SPVBC_ASTYPE_SIZE_ERROR;
            if (plan.cls != map[k]) {
                char sn[16], dn[16];
                spvbc_gen_type_name(&types[i], sn, sizeof sn);
                spvbc_gen_type_name(&types[j], dn, sizeof dn);
                if (plan_mismatch < 10) {
                    fprintf(stderr, "FAIL plan class of as_%s(%s): %s, expected %s\n", dn, sn,
                            spvbc_astype_class_string(plan.cls), klass_name(k));
                }
                ++plan_mismatch;
            }
        }
    }
    printf("matrix: %zu ordered pairs, %zu legal (spvbc_astype_plan: %zu non-size-error), %zu "
           "size errors\n",
           n * n, legal, plan_legal, class_count[K_SIZE_ERROR]);
    printf("matrix: kernel classes: identity %zu, same-count %zu, 4->3 %zu, 3->4 %zu, "
           "vec3-source %zu, vec3-dest %zu, count-change %zu\n",
           class_count[0], class_count[1], class_count[2], class_count[3], class_count[4],
           class_count[5], class_count[6]);
    if (legal != 710 || plan_legal != legal || plan_mismatch != 0) {
        fprintf(stderr,
                "FAIL counts: %zu legal (sheet: 710), plan says %zu, %zu class "
                "mismatches\n",
                legal, plan_legal, plan_mismatch);
        g_stats.checks_failed++;
    }

    for (int f = 0; f < 2; ++f) {
        spvbc_gen_flavour fl = f == 0 ? SPVBC_GEN_KERNEL : SPVBC_GEN_VULKAN;
        for (size_t i = 0; i < n; ++i) {
            for (size_t j = 0; j < n; ++j) {
                const spvbc_type_desc *s = &types[i], *d = &types[j];
                if (spvbc_gen_opencl_size(s) != spvbc_gen_opencl_size(d)) {
                    continue;
                }
                if (fl == SPVBC_GEN_VULKAN && (s->count > 4 || d->count > 4)) {
                    continue;
                }
                if (fl == SPVBC_GEN_KERNEL) {
                    g_stats.kernel_pairs++;
                } else {
                    g_stats.vulkan_pairs++;
                }
                check_pair(s, d, fl);
            }
        }
    }
    run_seeds();

    printf("matrix: seeds: %zu passed, %zu failed\n", g_stats.seeds_passed, g_stats.seeds_failed);
    if (g_dump_dir) {
        printf("matrix: %zu kernel outputs written to %s\n", g_stats.dumped, g_dump_dir);
    }
    printf("matrix: kernel %zu pairs, vulkan %zu pairs, %zu modules lowered (%zu lower calls), "
           "%zu spirv-val runs: %zu passed, %zu failed\n",
           g_stats.kernel_pairs, g_stats.vulkan_pairs, g_stats.lowered, g_stats.lower_calls,
           g_stats.val_runs, g_stats.checks_passed + g_stats.seeds_passed,
           g_stats.checks_failed + g_stats.seeds_failed);
    return g_stats.checks_failed + g_stats.seeds_failed == 0 ? 0 : 1;
}
