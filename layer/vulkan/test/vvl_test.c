/*
 * vvl_test.c - VK_LAYER_SPVBC_bitcast stacked with the Khronos validation layer
 * (VK_LAYER_KHRONOS_validation, Debian vulkan-validationlayers).
 *
 *   spvbc_layer_vvl_test <order> <log path>
 *
 * The application enables the layers itself (ppEnabledLayerNames; the first name is the layer
 * closest to the application) and captures every message through VK_EXT_debug_utils.  It builds
 * a compute pipeline from the naive as_float3(float4) module (one OpBitcast, invalid SPIR-V)
 * and runs it.
 *   without     validation only: the validation layer must report spirv-val's OpBitcast error
 *   ours_first  bitcast, then validation: the validation layer sees the lowered module, so no
 *               message at all, and the pipeline computes xyz bit-exact
 *   vvl_first   validation, then bitcast: the validation layer sees the application's module
 *               and reports the error; the driver still gets the lowered module and runs it
 *
 * Exit status: 0 pass, 1 failure, 77 no device or no validation layer.
 *
 * SPDX-License-Identifier: Apache-2.0
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "layer_test_util.h"
#include "vulkan_setup.h"

#define ELEMS 256u
#define GROUPS (ELEMS / 64u)
#define VVL "VK_LAYER_KHRONOS_validation"
#define OURS "VK_LAYER_SPVBC_bitcast"
/* What spirv-val says about the 4->3 OpBitcast (the validation layer forwards it). */
#define BITCAST_ERROR "Expected input to have the same total bit width as Result Type"

static uint32_t g_in[ELEMS * 4];

/* Builds and runs the pipeline; returns the first failing VkResult or VK_SUCCESS, and sets
 * `*xyz` when lanes 0..2 of every element equal the input's. */
static VkResult run(spvbc_vk *vk, spvbc_vk_compute *c, const uint32_t *w, size_t n, int *xyz)
{
    char msg[256];
    *xyz = 0;
    VkPipeline p = VK_NULL_HANDLE;
    VkResult r = spvbc_vk_compute_pipeline(vk, c, w, n, &p);
    if (r == VK_SUCCESS) {
        memcpy(c->mapped[0], g_in, sizeof g_in);
        memset(c->mapped[1], 0xa5, sizeof g_in);
        if (spvbc_vk_compute_begin(vk, c, msg, sizeof msg) == SPVBC_VK_OK) {
            vkCmdBindPipeline(c->cmd, VK_PIPELINE_BIND_POINT_COMPUTE, p);
            vkCmdDispatch(c->cmd, GROUPS, 1, 1);
            if (spvbc_vk_compute_submit(vk, c, msg, sizeof msg) == SPVBC_VK_OK) {
                const uint32_t *out = c->mapped[1];
                *xyz = 1;
                for (uint32_t e = 0; e < ELEMS; ++e)
                    if (memcmp(&out[e * 4], &g_in[e * 4], 12) != 0) *xyz = 0;
            } else {
                printf("  %s\n", msg);
                r = VK_ERROR_UNKNOWN;
            }
        }
        vkDestroyPipeline(vk->device, p, NULL);
    }
    return r;
}

int main(int argc, char **argv)
{
    if (lt_start(argc, argv, 2, "without|ours_first|vvl_first <log>") != 0) return 2;
    lt_verbose = 1;
    const char *order = argv[1], *log = argv[2];
    (void)remove(log);
    static const char *const without[] = {VVL};
    static const char *const ours_first[] = {OURS, VVL};
    static const char *const vvl_first[] = {VVL, OURS};
    spvbc_vk_options o = {.debug_utils = 1};
    if (strcmp(order, "without") == 0) {
        o.layers = without;
        o.layer_count = 1;
    } else if (strcmp(order, "ours_first") == 0) {
        o.layers = ours_first;
        o.layer_count = 2;
    } else if (strcmp(order, "vvl_first") == 0) {
        o.layers = vvl_first;
        o.layer_count = 2;
    } else {
        fprintf(stderr, "vvl: unknown order %s\n", order);
        return 2;
    }
    for (uint32_t i = 0; i < ELEMS * 4; ++i)
        g_in[i] = 0x3f800000u + i * 0x1234567u;

    spvbc_vk vk;
    spvbc_vk_compute c;
    memset(&c, 0, sizeof c);
    char msg[512];
    spvbc_vk_status st = spvbc_vk_create(&o, &vk, msg, sizeof msg);
    if (st == SPVBC_VK_OK) st = spvbc_vk_compute_create(&vk, sizeof g_in, &c, msg, sizeof msg);
    if (st != SPVBC_VK_OK) {
        printf("vvl: %s: %s\n", st == SPVBC_VK_NO_DEVICE ? "SKIP" : "FAIL", msg);
        spvbc_vk_compute_destroy(&vk, &c);
        spvbc_vk_destroy(&vk);
        return st == SPVBC_VK_NO_DEVICE ? 77 : 1;
    }
    printf("vvl: %s (layers:", vk.description);
    for (uint32_t i = 0; i < o.layer_count; ++i)
        printf(" %s", o.layers[i]);
    printf(")\n");
    /* Whatever the set-up said (the validation layer's own notes) is not about the module. */
    spvbc_vk_clear_messages(&vk);

    size_t n = 0;
    uint32_t *w = spvbc_vk_naive_module("float4", "float3", &n);
    int xyz = 0;
    VkResult r = w != NULL ? run(&vk, &c, w, n, &xyz) : VK_ERROR_UNKNOWN;
    printf("  pipeline: VkResult %d, xyz bit-exact: %d\n", (int)r, xyz);
    printf("  %u debug message(s)%s\n%s", vk.message_count, vk.message_count ? ":" : "",
           vk.messages != NULL ? vk.messages : "");
    char want[256];
    lt_verdict(want, sizeof want, "vkCreateShaderModule", w, n, "lowered 1 bitcast");
    int bitcast_error =
        spvbc_vk_messages_contain(&vk, BITCAST_ERROR) && spvbc_vk_messages_contain(&vk, "error: ");
    if (strcmp(order, "without") == 0) {
        CHECK(bitcast_error, "the validation layer reports the OpBitcast error ('%s')",
              BITCAST_ERROR);
        CHECK(!lt_log_has(log, "spvbc-layer"), "our layer is not loaded");
    } else if (strcmp(order, "ours_first") == 0) {
        CHECK(
            !bitcast_error && vk.message_count == 1 &&
                spvbc_vk_messages_contain(&vk, "info: L-LOWERED: vkCreateShaderModule: in xxh64="),
            "no validation message, only our layer's L-LOWERED info (%u)", vk.message_count);
        CHECK(r == VK_SUCCESS && xyz, "the pipeline runs and computes xyz bit-exact");
        CHECK(lt_log_has(log, want), "our layer lowered the module: '%s'", want);
    } else {
        CHECK(bitcast_error, "validation above our layer still sees the application's module "
                             "and reports the OpBitcast error");
        CHECK(r == VK_SUCCESS && xyz, "the driver gets the lowered module: xyz bit-exact");
        CHECK(lt_log_has(log, want), "our layer lowered the module: '%s'", want);
    }
    free(w);
    spvbc_vk_compute_destroy(&vk, &c);
    spvbc_vk_destroy(&vk);
    printf("vvl: %s: %s\n", order, lt_failed == 0 ? "passed" : "FAILED");
    return lt_failed == 0 ? 0 : 1;
}
