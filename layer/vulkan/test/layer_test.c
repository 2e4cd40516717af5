/*
 * layer_test.c - VK_LAYER_SPVBC_bitcast through the real Vulkan loader.
 *
 *   spvbc_layer_test <scenario> <log path> <folder of vertex_4to3.spvasm>
 *
 * ctest sets the environment of each scenario: VK_ADD_LAYER_PATH (the folder with the built
 * layer and its manifest), VK_INSTANCE_LAYERS=VK_LAYER_SPVBC_bitcast and SPVBC_LAYER_* for the
 * layer scenarios; nothing for "without".  Scenarios:
 *   without    no layer: what the driver does with the naive 4->3 module (lavapipe: must fail)
 *   lower      the 4->3 module builds and computes xyz (vkCreateShaderModule and a chained
 *              VkShaderModuleCreateInfo), a vertex shader with the same bitcast makes a graphics
 *              pipeline (both ways too); a valid module passes through unchanged (its hash is
 *              logged); the size error as_double4(float4) is passed on unchanged and logged
 *   pad_zero   3->4 lowered with a zero lane 3; as_uint(uchar3) gets a zero top byte
 *   pad_error  3->4 refused and passed on unchanged, 4->3 still lowered
 *   validate   everything passed on unchanged, errors logged
 *   off        the layer is loaded but silent and inactive
 *   garbage    bytes that are not SPIR-V reach vkCreateShaderModule through the layer
 *   native     no layer, on a driver that lowers as_type itself (Mesa with external/mesa's
 *              series, label mesa-native): the naive 4->3 module computes xyz, the vertex
 *              shader with the same bitcast makes a graphics pipeline (both ways), 3->4 has a
 *              zero lane 3 (Mesa's pad policy) and as_uint(uchar3) a zero top byte
 *   quiet      the default log level (the others run with SPVBC_LAYER_LOG_LEVEL=all): no
 *              announcement, no line for a valid module, for the size error nothing can fix
 *              or for garbage; one line for the lowered 4->3 module and one for a 3->4 refused
 *              under pad=error (validate mode's lines are checked by layer.core)
 *
 * Exit status: 0 pass, 1 failure, 77 no Vulkan device.
 *
 * SPDX-License-Identifier: Apache-2.0
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "layer_core.h"
#include "layer_test_util.h"
#include "vkrun.h"
#include "vulkan_setup.h"

#define ELEMS 256u
#define GROUPS (ELEMS / 64u)
#define FILL 0xa5u

static uint32_t g_in[ELEMS * 4], g_out[ELEMS * 4];

static void fill_inputs(void)
{
    for (uint32_t i = 0; i < ELEMS * 4; ++i)
        g_in[i] = 0x3f800000u + i * 0x1234567u;
    g_in[1] = 0x7f800001u; /* a signalling NaN */
    g_in[2] = 0x00000001u; /* a denormal */
}

/* Runs `w` (float4 -> float3 or float3 -> float4 style, 16-byte elements both sides); returns
 * the VkResult. */
static VkResult run(vkr_context *vk, const uint32_t *w, size_t n, vkr_module_path path)
{
    vkr_run_result rr;
    char msg[256];
    (void)vkr_run(vk, w, n, path, g_in, sizeof g_in, g_out, sizeof g_out, FILL, GROUPS, &rr, msg,
                  sizeof msg);
    return rr.result;
}

static int lanes_match(uint32_t lanes)
{
    for (uint32_t e = 0; e < ELEMS; ++e)
        if (memcmp(&g_out[e * 4], &g_in[e * 4], lanes * 4u) != 0) return 0;
    return 1;
}

static int lane3_zero(void)
{
    for (uint32_t e = 0; e < ELEMS; ++e)
        if (g_out[e * 4 + 3] != 0) return 0;
    return 1;
}

/* Runs as_uint(uchar3) `w`: VK_SUCCESS when it ran and every result is the source's low three
 * bytes with a zero top byte (pad zero), VK_ERROR_UNKNOWN when it ran with other results. */
static VkResult run_uchar3(vkr_context *vk, const uint32_t *w, size_t n)
{
    vkr_run_result rr;
    char msg[256];
    static uint32_t out1[ELEMS];
    (void)vkr_run(vk, w, n, VKR_MODULE_OBJECT, g_in, sizeof g_in, out1, sizeof out1, FILL, GROUPS,
                  &rr, msg, sizeof msg);
    if (rr.result != VK_SUCCESS) return rr.result;
    for (uint32_t e = 0; e < ELEMS; ++e)
        if (out1[e] != (g_in[e] & 0x00ffffffu)) return VK_ERROR_UNKNOWN;
    return VK_SUCCESS;
}

int main(int argc, char **argv)
{
    if (lt_start(argc, argv, 3,
                 "without|native|lower|pad_zero|pad_error|validate|off|garbage|quiet <log> <dir>"))
        return 2;
    lt_verbose = 1;
    const char *scenario = argv[1], *log = argv[2];
    (void)remove(log);
    fill_inputs();

    vkr_context *vk = NULL;
    char msg[512], desc[512], want[256];
    vkr_status st = vkr_create(NULL, &vk, msg, sizeof msg);
    if (st == VKR_NO_DEVICE) {
        printf("layer: SKIP: no Vulkan device: %s\n", msg);
        return 77;
    }
    if (st != VKR_OK) {
        printf("layer: FAIL: %s\n", msg);
        return 1;
    }
    vkr_describe(vk, desc, sizeof desc);
    printf("layer: %s: %s\n", scenario, desc);
    int lavapipe = vkr_is_lavapipe(vk);
    int chained = vkr_get_features(vk)->chained_module;

    /* Is the layer in the instance? */
    uint32_t nl = 0;
    int listed = 0;
    if (vkEnumerateInstanceLayerProperties(&nl, NULL) == VK_SUCCESS && nl > 0) {
        VkLayerProperties *lp = calloc(nl, sizeof *lp);
        if (lp != NULL && vkEnumerateInstanceLayerProperties(&nl, lp) == VK_SUCCESS)
            for (uint32_t i = 0; i < nl; ++i)
                if (strcmp(lp[i].layerName, "VK_LAYER_SPVBC_bitcast") == 0) listed = 1;
        free(lp);
    }

    size_t n43 = 0, nvalid = 0, nsize = 0, n34 = 0, nc3 = 0, nvs = 0;
    uint32_t *wvs = spvbc_vk_assemble_file(argv[3], "vertex_4to3.spvasm", &nvs);
    uint32_t *w43 = spvbc_vk_naive_module("float4", "float3", &n43);
    uint32_t *wvalid = spvbc_vk_naive_module("float4", "int4", &nvalid);
    uint32_t *wsize = spvbc_vk_naive_module("float4", "double4", &nsize);
    uint32_t *w34 = spvbc_vk_naive_module("float3", "float4", &n34);
    uint32_t *wc3 = spvbc_vk_naive_module("uchar3", "uint", &nc3);
    if (w43 == NULL || wvalid == NULL || wsize == NULL || w34 == NULL || wc3 == NULL ||
        wvs == NULL) {
        printf("layer: FAIL: the generator gave no module\n");
        return 1;
    }
    VkResult r;

    if (strcmp(scenario, "without") == 0) {
        r = run(vk, w43, n43, VKR_MODULE_OBJECT);
        printf("  without the layer, the naive 4->3 module gives %s%s\n", vkr_result_string(r),
               r == VK_SUCCESS ? (lanes_match(3) ? " and xyz" : " and WRONG lanes") : "");
        if (lavapipe) CHECK(r != VK_SUCCESS, "lavapipe rejects the unlowered 4->3 module");
        r = vkr_create_vertex_pipeline(vk, wvs, nvs, VKR_MODULE_OBJECT);
        printf("  without the layer, the vertex shader with the 4->3 bitcast gives %s\n",
               vkr_result_string(r));
        if (lavapipe) CHECK(r != VK_SUCCESS, "lavapipe rejects that graphics pipeline");
        CHECK(!lt_log_has(log, "spvbc-layer"), "no layer log without the layer");
    } else if (strcmp(scenario, "native") == 0) {
        /* The driver alone: each module and pipeline both ways, as the layer's "lower" does. */
        for (int chain = 0; chain <= (chained ? 1 : 0); ++chain) {
            vkr_module_path path = chain ? VKR_MODULE_CHAINED : VKR_MODULE_OBJECT;
            r = run(vk, w43, n43, path);
            CHECK(r == VK_SUCCESS && lanes_match(3), "naive 4->3%s: %s, xyz bit-exact",
                  chain ? " chained" : "", vkr_result_string(r));
            r = vkr_create_vertex_pipeline(vk, wvs, nvs, path);
            CHECK(r == VK_SUCCESS, "graphics pipeline, vertex shader with 4->3%s: %s",
                  chain ? " chained" : "", vkr_result_string(r));
        }
        r = run(vk, w34, n34, VKR_MODULE_OBJECT);
        CHECK(r == VK_SUCCESS && lanes_match(3) && lane3_zero(),
              "naive 3->4: %s, lanes 0..2 bit-exact, lane 3 == 0", vkr_result_string(r));
        r = run_uchar3(vk, wc3, nc3);
        CHECK(r == VK_SUCCESS, "naive as_uint(uchar3): %s, == x & 0xffffff", vkr_result_string(r));
        CHECK(!listed && !lt_log_has(log, "spvbc-layer"), "no layer in the instance");
    } else if (strcmp(scenario, "lower") == 0) {
        CHECK(listed, "VK_LAYER_SPVBC_bitcast is listed by vkEnumerateInstanceLayerProperties");
        CHECK(lt_log_has(log, "VK_LAYER_SPVBC_bitcast active: mode=lower pad=undef"),
              "the layer announced itself in the log");
        r = run(vk, w43, n43, VKR_MODULE_OBJECT);
        CHECK(r == VK_SUCCESS && lanes_match(3),
              "4->3 through vkCreateShaderModule: %s, xyz bit-exact", vkr_result_string(r));
        lt_verdict(want, sizeof want, "vkCreateShaderModule", w43, n43, "lowered 1 bitcast");
        CHECK(lt_log_has(log, want), "log: '%s'", want);
        if (chained) {
            r = run(vk, w43, n43, VKR_MODULE_CHAINED);
            CHECK(r == VK_SUCCESS && lanes_match(3),
                  "4->3 chained into vkCreateComputePipelines: %s, xyz bit-exact",
                  vkr_result_string(r));
            lt_verdict(want, sizeof want, "vkCreateComputePipelines", w43, n43,
                       "lowered 1 bitcast");
            CHECK(lt_log_has(log, want), "log: '%s'", want);
        } else {
            printf("  skip chained VkShaderModuleCreateInfo: the device lacks "
                   "VK_EXT_graphics_pipeline_library\n");
        }
        r = vkr_create_vertex_pipeline(vk, wvs, nvs, VKR_MODULE_OBJECT);
        CHECK(r == VK_SUCCESS, "graphics pipeline, vertex shader with 4->3: %s",
              vkr_result_string(r));
        if (chained) {
            r = vkr_create_vertex_pipeline(vk, wvs, nvs, VKR_MODULE_CHAINED);
            CHECK(r == VK_SUCCESS, "graphics pipeline, chained vertex shader with 4->3: %s",
                  vkr_result_string(r));
            lt_verdict(want, sizeof want, "vkCreateGraphicsPipelines", wvs, nvs,
                       "lowered 1 bitcast");
            CHECK(lt_log_has(log, want), "log: '%s'", want);
        }
        r = run(vk, w34, n34, VKR_MODULE_OBJECT);
        CHECK(r == VK_SUCCESS && lanes_match(3), "3->4 (pad undef): %s, lanes 0..2 bit-exact",
              vkr_result_string(r));
        r = run(vk, wvalid, nvalid, VKR_MODULE_OBJECT);
        CHECK(r == VK_SUCCESS && lanes_match(4), "valid as_int4(float4): %s, all lanes",
              vkr_result_string(r));
        lt_verdict(want, sizeof want, "vkCreateShaderModule", wvalid, nvalid, "unchanged (valid");
        CHECK(lt_log_has(log, want), "valid module passed through unchanged: log '%s'", want);
        r = vkr_create_module(vk, wsize, nsize);
        printf("  size error as_double4(float4): vkCreateShaderModule gives %s\n",
               vkr_result_string(r));
        lt_verdict(want, sizeof want, "vkCreateShaderModule", wsize, nsize, "unchanged (1 error");
        CHECK(lt_log_has(log, want), "unfixable module passed on unchanged: log '%s'", want);
    } else if (strcmp(scenario, "pad_zero") == 0) {
        CHECK(lt_log_has(log, "mode=lower pad=zero"), "the layer runs with pad=zero");
        r = run(vk, w34, n34, VKR_MODULE_OBJECT);
        CHECK(r == VK_SUCCESS && lanes_match(3) && lane3_zero(),
              "3->4 (pad zero): %s, lanes 0..2 bit-exact, lane 3 == 0", vkr_result_string(r));
        r = run_uchar3(vk, wc3, nc3);
        CHECK(r == VK_SUCCESS, "as_uint(uchar3) (pad zero): %s, == x & 0xffffff",
              vkr_result_string(r));
    } else if (strcmp(scenario, "pad_error") == 0) {
        r = run(vk, w34, n34, VKR_MODULE_OBJECT);
        lt_verdict(want, sizeof want, "vkCreateShaderModule", w34, n34, "unchanged (");
        CHECK(lt_log_has(log, want),
              "3->4 refused under pad=error, passed on unchanged (driver: %s)",
              vkr_result_string(r));
        if (lavapipe) CHECK(r != VK_SUCCESS, "lavapipe rejects the unchanged 3->4 module");
        r = run(vk, w43, n43, VKR_MODULE_OBJECT);
        CHECK(r == VK_SUCCESS && lanes_match(3), "4->3 still lowered under pad=error: %s",
              vkr_result_string(r));
    } else if (strcmp(scenario, "validate") == 0) {
        r = run(vk, w43, n43, VKR_MODULE_OBJECT);
        lt_verdict(want, sizeof want, "vkCreateShaderModule", w43, n43,
                   "unchanged (validate mode: 1 error, 1 lowerable)");
        CHECK(lt_log_has(log, want), "validate mode logs and passes on: '%s'", want);
        CHECK(lt_log_has(log, "[V12]"), "the V12 diagnostic is logged");
        if (lavapipe)
            CHECK(r != VK_SUCCESS, "lavapipe still rejects it (%s)", vkr_result_string(r));
    } else if (strcmp(scenario, "off") == 0) {
        CHECK(listed, "the layer is loaded");
        r = run(vk, w43, n43, VKR_MODULE_OBJECT);
        CHECK(!lt_log_has(log, "spvbc-layer"), "mode off logs nothing");
        if (lavapipe)
            CHECK(r != VK_SUCCESS, "lavapipe rejects the untouched module (%s)",
                  vkr_result_string(r));
    } else if (strcmp(scenario, "garbage") == 0) {
        uint32_t junk[16];
        for (uint32_t i = 0; i < 16; ++i)
            junk[i] = 0xdeadbeefu * (i + 1u);
        r = vkr_create_module(vk, junk, 16);
        printf("  garbage: vkCreateShaderModule gives %s\n", vkr_result_string(r));
        lt_verdict(want, sizeof want, "vkCreateShaderModule", junk, 16, "unchanged (not parsed");
        CHECK(lt_log_has(log, want), "garbage passed on unchanged: log '%s'", want);
        uint32_t trunc[8];
        memcpy(trunc, w43, sizeof trunc); /* a real header, then nothing useful */
        r = vkr_create_module(vk, trunc, 8);
        printf("  truncated module: vkCreateShaderModule gives %s\n", vkr_result_string(r));
        CHECK(lt_log_has(log, "words: unchanged (not parsed"), "truncated module logged");
    } else if (strcmp(scenario, "quiet") == 0) {
        r = run(vk, wvalid, nvalid, VKR_MODULE_OBJECT);
        CHECK(r == VK_SUCCESS && lanes_match(4), "valid as_int4(float4): %s, all lanes",
              vkr_result_string(r));
        (void)vkr_create_module(vk, wsize, nsize);
        uint32_t junk[16];
        for (uint32_t i = 0; i < 16; ++i)
            junk[i] = 0xdeadbeefu * (i + 1u);
        (void)vkr_create_module(vk, junk, 16);
        CHECK(!lt_log_has(log, "spvbc-layer"),
              "no line for the announcement, a valid module, a size error or garbage");
        r = run(vk, w43, n43, VKR_MODULE_OBJECT);
        CHECK(r == VK_SUCCESS && lanes_match(3), "4->3 lowered at the default level: %s",
              vkr_result_string(r));
        lt_verdict(want, sizeof want, "vkCreateShaderModule", w43, n43, "lowered 1 bitcast");
        CHECK(lt_log_has(log, want), "the lowered module has its line: '%s'", want);
        r = run(vk, w34, n34, VKR_MODULE_OBJECT);
        lt_verdict(want, sizeof want, "vkCreateShaderModule", w34, n34,
                   "unchanged (1 error, 1 refused)");
        CHECK(lt_log_has(log, want), "the refused 3->4 (pad=error) has its line: '%s'", want);
        CHECK(lt_log_has(log, "[V12]"), "with its error diagnostic");
    } else {
        printf("layer: unknown scenario %s\n", scenario);
        lt_failed++;
    }
    free(w43);
    free(wvalid);
    free(wsize);
    free(w34);
    free(wc3);
    free(wvs);
    vkr_destroy(vk);
    printf("layer: %s: %s\n", scenario, lt_failed == 0 ? "passed" : "FAILED");
    return lt_failed == 0 ? 0 : 1;
}
