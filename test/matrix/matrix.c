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

#include "matrix.h"

stats g_stats;
const char *g_dump_dir;

/* ---- the library, wrapped --------------------------------------------------------------- */

int run_lower(const uint32_t *in, size_t n, spvbc_pad_policy pad, lower_result *res)
{
    spvbc_context ctx = NULL;
    spvbc_module mod = NULL;
    spvbc_lower_options opts = SPVBC_LOWER_OPTIONS_INIT;
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
    res->summary.struct_size = sizeof res->summary;
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
    /* SPVBC_PARTIAL exactly when something was refused; the output is there either way. */
    const int consistent = (res->lower == SPVBC_PARTIAL) == (res->summary.refused != 0);
    if (consistent && (res->lower == SPVBC_SUCCESS || res->lower == SPVBC_PARTIAL)) {
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
int all_errors_lowerable(const spvbc_gen_verdict *v)
{
    return v->parse == SPVBC_SUCCESS && v->lowerable_count == v->error_count;
}

/* ---- reporting -------------------------------------------------------------------------- */

/* Whether the fields `p` leaves unused are 0, as spirv_bitcast.h promises: every field of the
 * ops past op_count, a bitcast's second, lane count and lanes, a shuffle's lanes past its
 * lane count (a second witness of unit.test_plan_fields, over every pair). */
static int plan_unused_zero(const spvbc_plan *p)
{
    for (uint32_t i = 0; i < 3; ++i) {
        const spvbc_plan_op *op = &p->ops[i];
        const int used = i < p->op_count, shuffle = used && op->kind == SPVBC_PLAN_OP_SHUFFLE;
        if (!used && (op->kind != 0 || op->result_type.kind != 0 || op->result_type.width != 0 ||
                      op->result_type.count != 0 || op->result_type.is_signed != 0))
            return 0;
        if (!shuffle && (op->second != 0 || op->lane_count != 0)) return 0;
        for (uint32_t k = shuffle ? op->lane_count : 0; k < 4; ++k)
            if (op->lanes[k] != 0) return 0;
    }
    return 1;
}

static char g_case[160];
static int g_case_failed;
const char *g_case_dis; /* disassembly to print on failure, if any */
static int g_dis_printed; /* only the first few failures print their disassembly */

void fail(const char *fmt, ...)
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

void begin_case(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(g_case, sizeof g_case, fmt, ap);
    va_end(ap);
    g_case_failed = 0;
    g_case_dis = NULL;
}

void end_case(int seed)
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

int spirv_val(const uint32_t *w, size_t n, int env, char *msg, size_t size)
{
    g_stats.val_runs++;
    return spvbc_gen_validate(w, n, env, msg, size);
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
            spvbc_plan plan = SPVBC_PLAN_INIT;
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
            if (!plan_unused_zero(&plan)) {
                char sn[16], dn[16];
                spvbc_gen_type_name(&types[i], sn, sizeof sn);
                spvbc_gen_type_name(&types[j], dn, sizeof dn);
                if (plan_mismatch < 10)
                    fprintf(stderr, "FAIL plan of as_%s(%s): an unused field is not 0\n", dn, sn);
                ++plan_mismatch;
            }
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
