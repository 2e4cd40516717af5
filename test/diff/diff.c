/*
 * diff.c - the differential test: spvbc_module_validate() against spirv-val.
 *
 * A seeded generator (fixed seed: the run is reproducible) writes single-bitcast modules over:
 * scalars and vectors of int/float widths 8/16/32/64 and counts 1/2/3/4/8/16; pointers
 * (Physical32/Physical64 Kernel addressing, PhysicalStorageBuffer64 in Shader, Logical
 * addressing with Function/StorageBuffer pointers); SPIR-V 1.0-1.6 (with the
 * SPV_KHR_physical_storage_buffer extension in some <1.5 modules); Kernel and Shader modules
 * (Shader with and without Int8/Int16/Float16, so the storage-only rule fires); bool types;
 * operands that are not values (a type, an OpString, a label); OpSpecConstantOp Bitcast in
 * Kernel modules (and a few in Shader modules, where it needs the Kernel capability).
 *
 * Every module has a twin without the bitcast; spirv-val must accept the twin, so that its
 * verdict on the module is about the bitcast alone (cases whose twin is invalid are skipped and
 * counted).  For each case the library's verdict (spvbc_module_validate() returning
 * SPVBC_ERROR_VALIDATION_FAILED or not) must equal spirv-val's (SPIRV-Tools C API, the
 * module's universal target env), and the rule id of the library's error must map to
 * spirv-val's message.  The test also carries its own model of the rules sheet (section 1); it
 * must agree with spirv-val too.  OpSpecConstantOp Bitcast in Kernel modules is not checked by
 * SPIRV-Tools 2023.1 or 2025.1 (both accept every generated case, and so must the library);
 * current SPIRV-Tools applies V1-V13 there, and the library warns where it would reject
 * (W-SPEC-BITCAST, an error under SPVBC_VALIDATE_STRICT): the test checks those warnings
 * against its model (reported separately).
 *
 * With --spirv-tools-2025 ROOT SPIRV-Tools 2025.1 from Debian 13 is the oracle: its
 * spirv-val (and for the new categories its spirv-as) from the tree cmake/debian-tree.sh
 * unpacked at ROOT, run under the tree's own loader, one process per call.  The generator then
 * also writes cooperative matrices (KHR, and NV beside them), cooperative vectors
 * (SPV_NV_cooperative_vector) and untyped pointers (SPV_KHR_untyped_pointers, Kernel and Shader
 * modules), which 2023.1 cannot assemble; the model knows their rules too.
 *
 * Usage: spvbc_diff [--seed N] [--scale N] [--show CATEGORY] [--verbose] [--spirv-tools-2025 ROOT]
 *   --scale N runs N times as many cases; --show prints every module of a category with the
 *   three verdicts; --verbose also prints the skipped cases.
 * The rooms (diff_internal.h is what they share): diff_gen.c the generator, diff_model.c the
 * model, diff_oracle.c the oracles and the case runner, diff_cases.c and diff_cases2025.c the
 * case generators, this file the options and the report.
 * SPDX-License-Identifier: Apache-2.0
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "diff_internal.h"

/* ---- main ------------------------------------------------------------------------------- */

int main(int argc, char **argv)
{
    size_t total = 0, skipped = 0, passed = 0, failed = 0, spec = 0;
    size_t scale = 1;
    for (int i = 1; i < argc; ++i) {
        if (strcmp(argv[i], "--seed") == 0 && i + 1 < argc) {
            test_rng_seed(&g_rng, strtoull(argv[++i], NULL, 0) | 1u);
        } else if (strcmp(argv[i], "--scale") == 0 && i + 1 < argc) {
            scale = (size_t)strtoul(argv[++i], NULL, 0);
        } else if (strcmp(argv[i], "--show") == 0 && i + 1 < argc) {
            g_show = argv[++i];
        } else if (strcmp(argv[i], "--verbose") == 0) {
            g_verbose = 1;
        } else if (strcmp(argv[i], "--spirv-tools-2025") == 0 && i + 1 < argc) {
            if (find_tree(argv[++i]) != 0) {
                printf("SKIP: no SPIRV-Tools tree with a loader under %s\n", argv[i]);
                return 77;
            }
            g_new = 1;
            g_generation = SPVBC_GENERATION_2025_1;
        } else if (strcmp(argv[i], "--spirv-tools-2026") == 0 && i + 1 < argc) {
            if (find_tree(argv[++i]) != 0) {
                printf("SKIP: no SPIRV-Tools tree with a loader under %s\n", argv[i]);
                return 77;
            }
            g_new = g_2026 = 1;
            g_generation = SPVBC_GENERATION_NEWEST;
        } else {
            fprintf(stderr,
                    "usage: %s [--seed N] [--scale N] [--show CATEGORY] [--verbose] "
                    "[--spirv-tools-2025 ROOT | --spirv-tools-2026 ROOT]\n",
                    argv[0]);
            return 2;
        }
    }
    /* The library gives the verdicts of the oracle's generation. */
    spvbc_gen_generation = g_generation;
    for (size_t rep = 0; rep < scale; ++rep) {
        for (int i = 0; i < 500; ++i)
            case_numeric(1);
        for (int i = 0; i < 500; ++i)
            case_numeric(0);
        for (int i = 0; i < 300; ++i)
            case_pointer(CAT_PTR_KERNEL);
        for (int i = 0; i < 250; ++i)
            case_pointer(CAT_PTR_PSB);
        for (int i = 0; i < 200; ++i)
            case_pointer(CAT_PTR_LOGICAL);
        for (int i = 0; i < 150; ++i)
            case_bool();
        for (int i = 0; i < 30; ++i)
            case_operand_kind();
        for (int i = 0; i < 200; ++i)
            case_multi();
        for (int i = 0; i < 50; ++i)
            case_spec(0);
        for (int i = 0; i < 400; ++i)
            case_spec(1);
        /* 2023.1 cannot assemble these: only with the 2025.1 oracle. */
        for (int i = 0; g_new && i < 250; ++i)
            case_coop(0);
        for (int i = 0; g_new && i < 100; ++i)
            case_coop(1);
        for (int i = 0; g_new && i < 150; ++i)
            case_untyped(i % 2);
        /* 2025.1 cannot assemble these: only with the 2026.4 oracle. */
        for (int i = 0; g_2026 && i < 300; ++i)
            case_encoded(i % 2);
        for (int i = 0; g_2026 && i < 200; ++i)
            case_long_vector(i % 2);
        for (int i = 0; g_2026 && i < 150; ++i)
            case_coopvec_long();
        for (int i = 0; g_2026 && i < 150; ++i)
            case_extract(i % 2);
    }
    cleanup_tmp();
    for (int c = 0; c < CAT_COUNT; ++c) {
        const cat_stats *s = &g_cat[c];
        char hist[256] = "";
        if (c >= CAT_COOPMAT && !g_new) continue; /* only with --spirv-tools-2025 or 2026 */
        if (c >= CAT_ENCODED && !g_2026) continue; /* only with --spirv-tools-2026 */
        for (size_t r = 0; r < R_COUNT; ++r) {
            if (s->rule_hist[r]) {
                size_t len = strlen(hist);
                snprintf(hist + len, sizeof hist - len, " %s:%zu", k_rule_id[r], s->rule_hist[r]);
            }
        }
        printf("diff: %-21s %4zu cases, %3zu skipped (twin invalid), %4zu errors expected, "
               "%4zu passed, %zu failed;%s\n",
               k_cat_name[c], s->cases, s->skipped, s->errors_expected, s->passed, s->failed, hist);
        total += s->cases;
        skipped += s->skipped;
        passed += s->passed;
        failed += s->failed;
        if (c == CAT_SPEC_KERNEL && !g_2026) {
            spec = s->spirv_val_misses;
            printf("diff: spec-constant-kernel: %zu that current SPIRV-Tools rejects and %s "
                   "accepts (it does not check the operand): W-SPEC-BITCAST warnings, errors "
                   "under --strict\n",
                   spec,
                   g_2026  ? "2026.4"
                   : g_new ? "2025.1"
                           : "2023.1");
        }
    }
    printf("diff: lowering every case: %zu runs, %zu rewritten (%zu spirv-val runs on the "
           "output), %zu refused, %zu untouched, %zu failed\n",
           g_lower.runs, g_lower.rewritten, g_lower.spirv_val_runs, g_lower.refused,
           g_lower.untouched, g_lower.failed);
    printf("diff: %zu cases compared with spirv-val %s (%zu skipped), %zu agree, %zu failed; "
           "%zu of the agreeing ones W-SPEC-BITCAST warnings\n",
           total,
           g_2026  ? "2026.4 (Debian unstable), generation 2026.4"
           : g_new ? "2025.1 (Debian 13), generation 2025.1"
                   : "2023.1 (linked), generation 2023.1",
           skipped, passed, failed, spec);
    if (g_new)
        printf("diff: %zu runs of SPIRV-Tools %s's tools\n", g_tool_runs,
               g_2026 ? "2026.4" : "2025.1");
    /* Skips must stay rare, or the test stops testing. */
    if (skipped * 50 > total) {
        fprintf(stderr, "FAIL: too many skipped cases (%zu of %zu)\n", skipped, total);
        return 1;
    }
    return failed == 0 && passed > 0 ? 0 : 1;
}
