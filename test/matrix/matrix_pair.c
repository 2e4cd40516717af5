/* matrix_pair.c - the matrix test (matrix.h): one pair, and the class table with its recipes,
 * written here independently of spvbc_astype_plan().  SPDX-License-Identifier: Apache-2.0 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "matrix.h"

/* ---- the class table, independently -------------------------------------------------------- */

const char *klass_name(klass k)
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

klass classify(const spvbc_type_desc *s, const spvbc_type_desc *d, spvbc_gen_flavour fl)
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

int words_equal(const uint32_t *a, size_t an, const uint32_t *b, size_t bn)
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

void check_pair(const spvbc_type_desc *s, const spvbc_type_desc *d, spvbc_gen_flavour fl)
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
