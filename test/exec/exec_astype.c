/*
 * exec_astype.c - runs as_type modules on a Vulkan device and compares bit for bit.
 *
 *   spvbc_exec_astype pairs [-v]         every as_type pair Vulkan compute can express, written
 *                                        naively (one OpBitcast), lowered by the library, checked
 *                                        by spirv-val, run on 256 input values under both padding
 *                                        policies and compared with a C reference
 *   spvbc_exec_astype seeds <dir>        the seed examples (as_float(0x3f800000) == 1.0f, ...)
 *   spvbc_exec_astype motivating <dir>   the unlowered naive 4->3 module (and a dead-code one)
 *                                        against the driver, then lowered; with
 *                                        --expect-accepted, the driver must run both unlowered
 *                                        and compute xyz (else lavapipe must reject them)
 *   spvbc_exec_astype unlowered [-v]     survey: what the driver does with every invalid naive
 *                                        module (pipeline result; if it runs, are lanes right?)
 *       --expect-accepted undef|zero     ... and fail unless the driver accepts every one and its
 *                                        defined lanes are right under that padding policy (a
 *                                        driver that lowers as_type itself: Mesa with
 *                                        spirv-bitcast, test/mesa)
 *       --expect-rejected                ... and fail unless the driver rejects every one (the
 *                                        same Mesa without it)
 *
 * The reference (ref_*) works from bytes only: as_type concatenates the source's lanes, lane 0
 * lowest (SPIR-V's OpBitcast mapping, "lower-ordered bits go to the lower-numbered components",
 * is little-endian), and slices the destination's lanes from that string.  A 3-component
 * source contributes 3 lanes; the 4th lane of the padded value is undefined under the undef
 * policy (destination lanes touching it are not compared) and zero under the zero policy.  It
 * never asks the library's planner which lanes are defined.
 *
 * Exit status: 0 pass, 1 failure, 77 no Vulkan device (ctest SKIP_RETURN_CODE).
 *
 * SPDX-License-Identifier: Apache-2.0
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "astype_gen.h"
#include "astype_ref.h"
#include "exec_pairs.h"
#include "spirv_bitcast.h"
#include "vkrun.h"
#include "vulkan_setup.h"

#define EXIT_SKIP 77
#define ELEMS REF_ELEMS
#define OUT_FILL REF_OUT_FILL
#define GROUPS (ELEMS / 64u)
#define MAX_STRIDE 32u

static int g_verbose;
/* unlowered: what the driver must do with every module (--expect-...), and the policy its
 * accepted results are compared under. */
static enum { EXPECT_NOTHING, EXPECT_ACCEPTED, EXPECT_REJECTED } g_expect;
static spvbc_pad_policy g_expect_pad = SPVBC_PAD_UNDEF;

/* ---------------------------------------------------------------------------------------- */
/* pairs */

static int cmd_pairs(vkr_context *vk, const char *desc, const char *dir)
{
    (void)dir;
    const vkr_features *f = vkr_get_features(vk);
    const int env = spvbc_gen_target_env(SPVBC_GEN_VULKAN);
    spvbc_type_desc types[MAX_TYPES];
    size_t nt = exec_vulkan_types(types);
    static const spvbc_pad_policy pads[2] = {SPVBC_PAD_UNDEF, SPVBC_PAD_ZERO};
    static uint8_t in[ELEMS * MAX_STRIDE], out[ELEMS * MAX_STRIDE];
    ref_tally t;
    memset(&t, 0, sizeof t);

    exec_type_pair tp;
    for (size_t k = 0; exec_next_pair(types, nt, &k, &tp);) {
        const spvbc_type_desc *s = tp.s, *d = tp.d;
        const char *sn = tp.sn, *dn = tp.dn;
        const pair_class pc = tp.pc;
        char label[64];
        const char *miss = exec_missing_feature(f, s);
        if (miss == NULL) miss = exec_missing_feature(f, d);
        if (miss != NULL) {
            t.pairs_skipped++;
            ref_reasons_add(&t.skipped, miss);
            if (g_verbose) printf("  skip as_%s(%s): %s\n", dn, sn, miss);
            continue;
        }
        int pair_ok = 1;
        size_t nw = 0;
        uint32_t *naive = exec_assemble_pair(s, d, &nw);
        if (naive == NULL) {
            printf("  FAIL as_%s(%s): the generator gave no module\n", dn, sn);
            ref_reasons_add(&t.failures, "no naive module");
            t.pairs_run++;
            t.pairs_failed++;
            continue;
        }
        int naive_valid = spvbc_gen_validate(naive, nw, env, NULL, 0) == 0;
        int expect_valid = pc == PC_SAME_COUNT || pc == PC_COUNT_CHANGE;
        if (naive_valid != expect_valid) {
            printf("  FAIL as_%s(%s): spirv-val says the naive module is %s\n", dn, sn,
                   naive_valid ? "valid" : "invalid");
            ref_reasons_add(&t.failures, "naive module validity");
            pair_ok = 0;
        }
        size_t sstride = spvbc_gen_vulkan_stride(s), dstride = spvbc_gen_vulkan_stride(d);
        for (int p = 0; p < 2 && pair_ok; ++p) {
            (void)snprintf(label, sizeof label, "as_%s(%s) pad=%s", dn, sn,
                           p == 0 ? "undef" : "zero");
            uint32_t *low = NULL;
            size_t ln = 0, rewritten = 0;
            if (ref_lower(naive, nw, pads[p], &low, &ln, &rewritten) != 0) {
                printf("  FAIL %s: the library could not lower it\n", label);
                ref_reasons_add(&t.failures, "lowering failed");
                pair_ok = 0;
                break;
            }
            char vmsg[512];
            if (spvbc_gen_validate(low, ln, env, vmsg, sizeof vmsg) != 0) {
                printf("  FAIL %s: spirv-val rejects the lowered module: %s\n", label, vmsg);
                ref_reasons_add(&t.failures, "lowered module invalid");
                pair_ok = 0;
            } else if (expect_valid && (rewritten != 0 || ln != nw ||
                                        memcmp(low, naive, nw * sizeof *naive) != 0)) {
                printf("  FAIL %s: a valid module was changed by lowering\n", label);
                ref_reasons_add(&t.failures, "valid module changed");
                pair_ok = 0;
            } else if (!expect_valid && rewritten != 1) {
                printf("  FAIL %s: %zu bitcasts rewritten, 1 expected\n", label, rewritten);
                ref_reasons_add(&t.failures, "rewrite count");
                pair_ok = 0;
            }
            if (!pair_ok) {
                free(low);
                break;
            }
            ref_make_inputs(in, s, d, sstride, 0x5eed0000ull + tp.i * 131u + tp.j * 7u + (unsigned)p);
            vkr_run_result rr;
            char msg[512];
            vkr_status st = vkr_run(vk, low, ln, VKR_MODULE_OBJECT, in, sstride * ELEMS, out,
                                    dstride * ELEMS, OUT_FILL, GROUPS, &rr, msg, sizeof msg);
            free(low);
            t.values += ELEMS;
            if (st != VKR_OK) {
                printf("  FAIL %s: %s\n", label, msg);
                ref_reasons_add(&t.failures, rr.stage != NULL ? rr.stage : "vkr_run");
                pair_ok = 0;
                break;
            }
            if (!ref_tally_compare(&t, label, in, sstride, s, out, dstride, d, pads[p], pc,
                                   g_verbose))
                pair_ok = 0;
        }
        free(naive);
        ref_tally_pair(&t, pc, pair_ok);
    }
    ref_tally_print(&t, "exec");
    return ref_tally_summary(&t, "exec", desc, "2 policies");
}

/* Lowers (pad undef) and validates `words`; runs them; returns 0 on success. */
static int lower_validate_run(vkr_context *vk, const char *label, const uint32_t *words, size_t n,
                              const void *in, size_t in_size, void *out, size_t out_size)
{
    uint32_t *low = NULL;
    size_t ln = 0, rewritten = 0;
    if (ref_lower(words, n, SPVBC_PAD_UNDEF, &low, &ln, &rewritten) != 0) {
        printf("  FAIL %s: the library could not lower it\n", label);
        return 1;
    }
    char vmsg[512];
    if (spvbc_gen_validate(low, ln, spvbc_gen_target_env(SPVBC_GEN_VULKAN), vmsg, sizeof vmsg) !=
        0) {
        printf("  FAIL %s: spirv-val rejects the lowered module: %s\n", label, vmsg);
        free(low);
        return 1;
    }
    vkr_run_result rr;
    char msg[512];
    vkr_status st = vkr_run(vk, low, ln, VKR_MODULE_OBJECT, in, in_size, out, out_size, OUT_FILL,
                            GROUPS, &rr, msg, sizeof msg);
    free(low);
    if (st != VKR_OK) {
        printf("  FAIL %s: %s\n", label, msg);
        return 1;
    }
    (void)rewritten;
    return 0;
}

/* ---------------------------------------------------------------------------------------- */
/* seeds */

static int check_u32(const char *label, const uint32_t *got, const uint32_t *want, size_t n,
                     size_t stride_words, size_t elems)
{
    for (size_t e = 0; e < elems; ++e) {
        for (size_t k = 0; k < n; ++k) {
            if (got[e * stride_words + k] != want[e * n + k]) {
                printf("  FAIL %s: element %zu lane %zu: want 0x%08x got 0x%08x\n", label, e, k,
                       want[e * n + k], got[e * stride_words + k]);
                return 1;
            }
        }
    }
    printf("  ok   %s\n", label);
    return 0;
}

static int cmd_seeds(vkr_context *vk, const char *desc, const char *dir)
{
    int failed = 0, run = 0;
    static uint32_t in[ELEMS * 8], out[ELEMS * 8], want[ELEMS * 8];
    size_t n = 0;
    uint32_t *w;

    /* as_float(0x3f800000) == 1.0f */
    const float one = 1.0f;
    uint32_t one_bits;
    memcpy(&one_bits, &one, 4);
    for (size_t e = 0; e < ELEMS; ++e) {
        in[e] = 0x3f800000u;
        want[e] = one_bits;
    }
    w = spvbc_vk_naive_module("uint", "float", &n);
    run++;
    if (w == NULL ||
        lower_validate_run(vk, "as_float(0x3f800000)", w, n, in, ELEMS * 4, out, ELEMS * 4) != 0 ||
        check_u32("as_float(0x3f800000) == 1.0f", out, want, 1, 1, ELEMS) != 0)
        failed++;
    free(w);

    /* as_int4((float4)(1,2,3,4)) == (0x3f800000, 0x40000000, 0x40400000, 0x40800000) */
    const float f4[4] = {1.0f, 2.0f, 3.0f, 4.0f};
    const uint32_t i4[4] = {0x3f800000u, 0x40000000u, 0x40400000u, 0x40800000u};
    for (size_t e = 0; e < ELEMS; ++e) {
        memcpy(&in[e * 4], f4, sizeof f4);
        memcpy(&want[e * 4], i4, sizeof i4);
    }
    w = spvbc_vk_naive_module("float4", "int4", &n);
    run++;
    if (w == NULL ||
        lower_validate_run(vk, "as_int4(float4)", w, n, in, ELEMS * 16, out, ELEMS * 16) != 0 ||
        check_u32("as_int4((float4)(1,2,3,4)) == (0x3f800000,0x40000000,0x40400000,0x40800000)",
                  out, want, 4, 4, ELEMS) != 0)
        failed++;
    free(w);

    /* as_float3((float4)(1,2,3,4)) == (1,2,3), and the same with NaN/denormal lanes */
    for (size_t e = 0; e < ELEMS; ++e) {
        if (e % 2 == 0) {
            memcpy(&in[e * 4], f4, sizeof f4);
        } else {
            const uint32_t odd[4] = {0x7f800001u, 0x00000001u, 0xffc12345u, 0x12345678u};
            memcpy(&in[e * 4], odd, sizeof odd);
        }
        memcpy(&want[e * 3], &in[e * 4], 12);
    }
    w = spvbc_vk_naive_module("float4", "float3", &n);
    run++;
    if (w == NULL ||
        lower_validate_run(vk, "as_float3(float4)", w, n, in, ELEMS * 16, out, ELEMS * 16) != 0 ||
        check_u32("as_float3((float4)(1,2,3,4)) == (1,2,3) (and sNaN/denormal lanes kept)", out,
                  want, 3, 4, ELEMS) != 0)
        failed++;
    free(w);

    /* the mask select: as_float4(as_int4(a) & (a < b ? -1 : 0)), hand-written */
    uint64_t st = 42;
    for (size_t e = 0; e < ELEMS; ++e) {
        for (size_t k = 0; k < 4; ++k) {
            float a = (float)((int)(ref_splitmix(&st) % 2001u) - 1000) / 8.0f;
            float b = (float)((int)(ref_splitmix(&st) % 2001u) - 1000) / 8.0f;
            if (e % 16 == 0 && k == 0) b = a; /* equal: not less */
            memcpy(&in[e * 8 + k], &a, 4);
            memcpy(&in[e * 8 + 4 + k], &b, 4);
            uint32_t abits;
            memcpy(&abits, &a, 4);
            want[e * 4 + k] = a < b ? abits : 0u;
        }
    }
    w = spvbc_vk_assemble_file(dir, "mask_select.spvasm", &n);
    run++;
    if (w == NULL ||
        lower_validate_run(vk, "mask select", w, n, in, ELEMS * 32, out, ELEMS * 16) != 0 ||
        check_u32("as_float4(as_int4(a) & (a < b)) selects a where a < b", out, want, 4, 4,
                  ELEMS) != 0)
        failed++;
    free(w);

    printf("exec: %s: %d seed examples run: %d passed, %d failed\n", desc, run, run - failed,
           failed);
    return failed == 0 ? 0 : 1;
}

/* ---------------------------------------------------------------------------------------- */
/* motivating: the unlowered module against the driver */

static int cmd_motivating(vkr_context *vk, const char *desc, const char *dir)
{
    int failed = 0;
    static uint32_t in[ELEMS * 4], out[ELEMS * 4];
    for (size_t e = 0; e < ELEMS * 4; ++e)
        in[e] = (uint32_t)(0x3f800000u + e);
    struct {
        const char *label;
        uint32_t *words;
        size_t n;
    } cases[2];
    cases[0].label = "naive as_float3(float4)";
    cases[0].words = spvbc_vk_naive_module("float4", "float3", &cases[0].n);
    cases[1].label = "as_float3(float4) in dead code";
    cases[1].words = spvbc_vk_assemble_file(dir, "dead_bitcast.spvasm", &cases[1].n);
    for (int c = 0; c < 2; ++c) {
        if (cases[c].words == NULL) {
            printf("  FAIL %s: no module\n", cases[c].label);
            failed++;
            continue;
        }
        char vmsg[512];
        int valid =
            spvbc_gen_validate(cases[c].words, cases[c].n, spvbc_gen_target_env(SPVBC_GEN_VULKAN),
                               vmsg, sizeof vmsg) == 0;
        char *nl = strchr(vmsg, '\n');
        if (nl != NULL) *nl = '\0';
        printf("  %s: spirv-val: %s\n", cases[c].label, valid ? "valid (unexpected)" : vmsg);
        if (valid) failed++;
        for (int path = 0; path < 2; ++path) {
            if (path == VKR_MODULE_CHAINED && !vkr_get_features(vk)->chained_module) continue;
            vkr_run_result rr;
            char msg[512];
            vkr_status st =
                vkr_run(vk, cases[c].words, cases[c].n, (vkr_module_path)path, in, sizeof in, out,
                        sizeof out, OUT_FILL, GROUPS, &rr, msg, sizeof msg);
            const char *how = path == 0 ? "vkCreateShaderModule" : "chained create info";
            if (st != VKR_OK) {
                printf("  unlowered %s (%s): %s returned %s (%d)\n", cases[c].label, how, rr.stage,
                       vkr_result_string(rr.result), (int)rr.result);
                if (g_expect == EXPECT_ACCEPTED) {
                    printf("  FAIL: the driver was expected to lower it itself\n");
                    failed++;
                }
            } else {
                int xyz = 1;
                for (size_t e = 0; e < ELEMS; ++e)
                    if (memcmp(&out[e * 4], &in[e * 4], 12) != 0) xyz = 0;
                printf("  unlowered %s (%s): the driver accepted it and %s\n", cases[c].label, how,
                       xyz ? "computed xyz bit-exact" : "did NOT compute xyz");
                /* Unpatched lavapipe rejects it; a driver that lowers it (--expect-accepted)
                 * must compute xyz. */
                if (g_expect == EXPECT_ACCEPTED ? !xyz : vkr_is_lavapipe(vk)) {
                    printf("  FAIL: %s\n", g_expect == EXPECT_ACCEPTED
                                               ? "the driver was expected to compute xyz"
                                               : "lavapipe was expected to reject it");
                    failed++;
                }
            }
        }
        if (lower_validate_run(vk, cases[c].label, cases[c].words, cases[c].n, in, sizeof in, out,
                               sizeof out) != 0) {
            failed++;
        } else {
            /* Both modules store in[i].xyz (the dead one through its live shuffle). */
            int xyz = 1;
            for (size_t e = 0; e < ELEMS; ++e)
                if (memcmp(&out[e * 4], &in[e * 4], 12) != 0) xyz = 0;
            printf("  lowered %s: pipeline created, %s\n", cases[c].label,
                   xyz ? "xyz computed bit-exact" : "WRONG result");
            if (!xyz) failed++;
        }
        free(cases[c].words);
    }
    printf("exec: %s: motivating example: %s\n", desc, failed == 0 ? "as expected" : "FAILED");
    return failed == 0 ? 0 : 1;
}

/* ---------------------------------------------------------------------------------------- */
/* unlowered: a survey of the driver on every invalid naive module */

static int cmd_unlowered(vkr_context *vk, const char *desc, const char *dir)
{
    (void)dir;
    const vkr_features *f = vkr_get_features(vk);
    spvbc_type_desc types[MAX_TYPES];
    size_t nt = exec_vulkan_types(types);
    static uint8_t in[ELEMS * MAX_STRIDE], out[ELEMS * MAX_STRIDE];
    reasons results[PC_NUM];
    memset(results, 0, sizeof results);
    unsigned tried = 0, accepted = 0, right = 0, wrong = 0, runner_errors = 0;
    compare_stats total;
    memset(&total, 0, sizeof total);
    exec_type_pair tp;
    for (size_t k = 0; exec_next_pair(types, nt, &k, &tp);) {
        const spvbc_type_desc *s = tp.s, *d = tp.d;
        if (tp.pc == PC_SAME_COUNT || tp.pc == PC_COUNT_CHANGE) continue;
        if (exec_missing_feature(f, s) != NULL || exec_missing_feature(f, d) != NULL) continue;
        char label[64];
        (void)snprintf(label, sizeof label, "as_%s(%s)", tp.dn, tp.sn);
        size_t nw = 0;
        uint32_t *naive = exec_assemble_pair(s, d, &nw);
        if (naive == NULL) {
            runner_errors++;
            continue;
        }
        size_t sstride = spvbc_gen_vulkan_stride(s), dstride = spvbc_gen_vulkan_stride(d);
        ref_make_inputs(in, s, d, sstride, 0xabcdull + tp.i * 131u + tp.j);
        vkr_run_result rr;
        char msg[512];
        vkr_status st = vkr_run(vk, naive, nw, VKR_MODULE_OBJECT, in, sstride * ELEMS, out,
                                dstride * ELEMS, OUT_FILL, GROUPS, &rr, msg, sizeof msg);
        free(naive);
        tried++;
        char what[128];
        if (st != VKR_OK) {
            if (rr.stage == NULL || strcmp(rr.stage, "vkr_run arguments") == 0) runner_errors++;
            (void)snprintf(what, sizeof what, "%s: %s", rr.stage ? rr.stage : "?",
                           vkr_result_string(rr.result));
        } else {
            accepted++;
            compare_stats cs;
            memset(&cs, 0, sizeof cs);
            unsigned long long bad = ref_compare(g_verbose ? label : "", in, sstride, s, out,
                                                 dstride, d, g_expect_pad, &cs);
            total.lanes_undefined += cs.lanes_undefined;
            total.pad_zero += cs.pad_zero;
            total.pad_memory += cs.pad_memory;
            total.pad_unwritten += cs.pad_unwritten;
            total.pad_other += cs.pad_other;
            total.partial_defined_differ += cs.partial_defined_differ;
            if (bad == 0) {
                right++;
                (void)snprintf(what, sizeof what, "accepted, defined lanes right");
            } else {
                wrong++;
                (void)snprintf(what, sizeof what, "accepted, %s", cs.why.r[0].text);
            }
        }
        ref_reasons_add(&results[tp.pc], what);
        if (g_verbose) printf("  %-22s [%s] %s\n", label, ref_class_names[tp.pc], what);
    }
    for (int c = 0; c < PC_NUM; ++c) {
        if (results[c].n == 0) continue;
        char buf[512];
        ref_reasons_format(&results[c], buf, sizeof buf);
        printf("exec: unlowered %s: %s\n", ref_class_names[c], buf);
    }
    if (accepted != 0) ref_print_undefined("exec", &total);
    printf("exec: %s: %u invalid naive modules tried: %u accepted by the driver (%u with the "
           "defined lanes right, %u wrong), %u rejected\n",
           desc, tried, accepted, right, wrong, tried - accepted);
    if (g_expect == EXPECT_ACCEPTED && (tried == 0 || accepted != tried || wrong != 0)) {
        printf("exec: FAIL: expected every one accepted with its defined lanes right (pad %s)\n",
               spvbc_pad_policy_string(g_expect_pad));
        return 1;
    }
    if (g_expect == EXPECT_REJECTED && (tried == 0 || accepted != 0)) {
        printf("exec: FAIL: expected every one rejected\n");
        return 1;
    }
    return runner_errors == 0 ? 0 : 1;
}

int main(int argc, char **argv)
{
    setvbuf(stdout, NULL, _IOLBF, 0);
    const char *cmd = argc > 1 ? argv[1] : "pairs";
    for (int i = 2; i < argc; ++i) {
        if (strcmp(argv[i], "-v") == 0) g_verbose = 1;
        if (strcmp(argv[i], "--expect-rejected") == 0) g_expect = EXPECT_REJECTED;
        if (strcmp(argv[i], "--expect-accepted") == 0) {
            g_expect = EXPECT_ACCEPTED;
            if (i + 1 >= argc || spvbc_pad_policy_from_string(argv[++i], &g_expect_pad) != 0) {
                fprintf(stderr, "%s: --expect-accepted undef|zero\n", argv[0]);
                return 2;
            }
        }
    }
    int (*run)(vkr_context *, const char *, const char *) = NULL;
    if (strcmp(cmd, "pairs") == 0) run = cmd_pairs;
    if (strcmp(cmd, "seeds") == 0 && argc > 2) run = cmd_seeds;
    if (strcmp(cmd, "motivating") == 0 && argc > 2) run = cmd_motivating;
    if (strcmp(cmd, "unlowered") == 0) run = cmd_unlowered;
    if (run == NULL) {
        fprintf(stderr,
                "usage: %s pairs [-v] | seeds <dir> | motivating <dir> | unlowered [-v] "
                "[--expect-accepted undef|zero | --expect-rejected]\n",
                argv[0]);
        return 2;
    }
    vkr_context *vk = NULL;
    char desc[512];
    int rc = exec_open_device(&vk, desc, sizeof desc);
    if (rc != 0) return rc;
    rc = run(vk, desc, argc > 2 ? argv[2] : NULL);
    vkr_destroy(vk);
    return rc;
}
