/*
 * messenger_test.c - VK_LAYER_SPVBC_bitcast's findings through the application's
 * VK_EXT_debug_utils messenger, on the real loader and driver.
 *
 *   spvbc_layer_messenger_test <file|stderr> <log path>
 *
 * The application (test/support's recording messenger, which keeps every message as
 * "<severity>: <message id name>: <text> [object <type> 0x<handle>]") creates shader modules
 * through the layer:
 *   file    SPVBC_LAYER_LOG=<log>, level all: the lowered 4->3 module is an info "L-LOWERED"
 *           naming the shader module made; as_double4(float4), a size error nothing can fix, a
 *           warning "SPVBC-LAYER" and its finding an error with rule id "V12", both naming their
 *           module; the log file has the same lines, findings included (a file set explicitly
 *           keeps its lines beside the messenger); the 4->3 module chained into a compute
 *           pipeline's stage (VK_EXT_graphics_pipeline_library) names the pipeline made
 *   stderr  no SPVBC_LAYER_LOG (standard error), level changes: the messenger gets the lowered
 *           module's message and standard error nothing; an instance without a messenger then
 *           gets the line on standard error, as without this feature
 *
 * Exit status: 0 pass, 1 failure, 77 no Vulkan device.
 *
 * SPDX-License-Identifier: Apache-2.0
 */
#define _POSIX_C_SOURCE 200809L
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "layer_core.h"
#include "layer_test_util.h"
#include "vulkan_setup.h"

static const char *const g_layers[] = {"VK_LAYER_SPVBC_bitcast"};

/* Creates a shader module of `n` words at `w` on `vk`; writes its handle as the recording
 * messenger prints it ("[object 15 0x...]") to `object`. */
static VkResult make_module(spvbc_vk *vk, const uint32_t *w, size_t n, char *object, size_t size)
{
    VkShaderModuleCreateInfo ci = {VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO, NULL, 0, n * 4u, w};
    VkShaderModule m = VK_NULL_HANDLE;
    VkResult r = vkCreateShaderModule(vk->device, &ci, NULL, &m);
    uint64_t h = 0;
    memcpy(&h, &m, sizeof m);
    (void)snprintf(object, size, " [object %d 0x%llx]", (int)VK_OBJECT_TYPE_SHADER_MODULE,
                   (unsigned long long)h);
    if (m != VK_NULL_HANDLE) vkDestroyShaderModule(vk->device, m, NULL);
    return r;
}

/* 1 if a kept message contains `a` followed, on its line, by `b`. */
static int message_has(spvbc_vk *vk, const char *a, const char *b)
{
    for (const char *p = vk->messages; p != NULL && (p = strstr(p, a)) != NULL; ++p) {
        const char *end = strchr(p, '\n');
        const char *q = strstr(p, b);
        if (q != NULL && (end == NULL || q < end)) return 1;
    }
    return 0;
}

/* The 4->3 module chained into a compute pipeline's stage: its message names the pipeline. */
static void chained_pipeline(spvbc_vk *vk, const uint32_t *w43, size_t n43)
{
    spvbc_vk_compute c;
    memset(&c, 0, sizeof c);
    char msg[256], want[256], object[64];
    if (spvbc_vk_compute_create(vk, 64, &c, msg, sizeof msg) != SPVBC_VK_OK) {
        CHECK(0, "compute harness: %s", msg);
        spvbc_vk_compute_destroy(vk, &c);
        return;
    }
    VkShaderModuleCreateInfo smci = {VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO, NULL, 0, n43 * 4u,
                                     w43};
    VkComputePipelineCreateInfo ci = {
        .sType = VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO,
        .stage = {.sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO,
                  .pNext = &smci,
                  .stage = VK_SHADER_STAGE_COMPUTE_BIT,
                  .pName = "main"},
        .layout = c.pipeline_layout};
    VkPipeline p = VK_NULL_HANDLE;
    VkResult r = vkCreateComputePipelines(vk->device, VK_NULL_HANDLE, 1, &ci, NULL, &p);
    uint64_t h = 0;
    memcpy(&h, &p, sizeof p);
    (void)snprintf(object, sizeof object, " [object %d 0x%llx]", (int)VK_OBJECT_TYPE_PIPELINE,
                   (unsigned long long)h);
    lt_verdict(want, sizeof want, "vkCreateComputePipelines", w43, n43, "lowered 1 bitcast");
    CHECK(r == VK_SUCCESS && message_has(vk, "info: L-LOWERED: ", want) &&
              message_has(vk, want, object),
          "chained into a compute pipeline (%d): '%s ...%s'", (int)r, want, object);
    if (p != VK_NULL_HANDLE) vkDestroyPipeline(vk->device, p, NULL);
    spvbc_vk_compute_destroy(vk, &c);
}

static void scenario_file(spvbc_vk *vk, const char *log, const uint32_t *w43, size_t n43,
                          const uint32_t *wsize, size_t nsize)
{
    char object[64], want[256];
    CHECK(make_module(vk, w43, n43, object, sizeof object) == VK_SUCCESS, "4->3 module");
    lt_verdict(want, sizeof want, "vkCreateShaderModule", w43, n43, "lowered 1 bitcast -> out");
    CHECK(message_has(vk, "info: L-LOWERED: ", want) && message_has(vk, want, object),
          "the messenger got 'info: L-LOWERED: %s ...%s'", want, object);
    CHECK(lt_log_has(log, want), "the log file too: '%s'", want);
    (void)make_module(vk, wsize, nsize, object, sizeof object);
    lt_verdict(want, sizeof want, "vkCreateShaderModule", wsize, nsize, "unchanged (1 error, ");
    CHECK(message_has(vk, "warning: SPVBC-LAYER: ", want) && message_has(vk, want, object),
          "the messenger got 'warning: SPVBC-LAYER: %s ...%s'", want, object);
    CHECK(message_has(vk, "error: V12: word ", object),
          "the messenger got the finding as 'error: V12: word <n>: ...%s'", object);
    CHECK(lt_log_has(log, "  error: word ") && lt_log_has(log, "[V12]"),
          "the log file has the finding's line too");
    chained_pipeline(vk, w43, n43);
}

static void scenario_stderr(spvbc_vk *vk, const char *err_path, const uint32_t *w43, size_t n43)
{
    char object[64], want[256];
    lt_verdict(want, sizeof want, "vkCreateShaderModule", w43, n43, "lowered 1 bitcast -> out");
    CHECK(make_module(vk, w43, n43, object, sizeof object) == VK_SUCCESS, "4->3 module");
    CHECK(message_has(vk, "info: L-LOWERED: ", want), "the messenger got '%s'", want);
    CHECK(!lt_log_has(err_path, "spvbc-layer"), "standard error got nothing");
    /* An instance of the same process without a messenger: standard error, as before. */
    spvbc_vk plain;
    spvbc_vk_options o = {.layers = g_layers, .layer_count = 1};
    char msg[256];
    if (spvbc_vk_create(&o, &plain, msg, sizeof msg) == SPVBC_VK_OK) {
        (void)make_module(&plain, w43, n43, object, sizeof object);
        CHECK(lt_log_count(err_path, want) == 1, "without a messenger, standard error: '%s'", want);
    } else {
        CHECK(0, "second instance: %s", msg);
    }
    spvbc_vk_destroy(&plain);
}

int main(int argc, char **argv)
{
    if (lt_start(argc, argv, 2, "file|stderr <log>") != 0) return 2;
    lt_verbose = 1;
    const char *scenario = argv[1], *log = argv[2];
    (void)remove(log);
    char err_path[1100];
    (void)snprintf(err_path, sizeof err_path, "%s.stderr", log);
    int saved = -1;
    if (strcmp(scenario, "stderr") == 0) { /* the layer's standard error, into a file */
        fflush(stderr);
        saved = dup(STDERR_FILENO);
        int fd = open(err_path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
        if (fd < 0 || saved < 0) return 1;
        (void)dup2(fd, STDERR_FILENO);
        (void)close(fd);
    }
    spvbc_vk vk;
    static const char *const gpl_ext[] = {VK_EXT_GRAPHICS_PIPELINE_LIBRARY_EXTENSION_NAME};
    VkPhysicalDeviceGraphicsPipelineLibraryFeaturesEXT gpl = {
        VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_GRAPHICS_PIPELINE_LIBRARY_FEATURES_EXT, NULL, VK_TRUE};
    /* A stage without a VkShaderModule needs VK_EXT_graphics_pipeline_library (or
     * VK_KHR_maintenance5). */
    spvbc_vk_options o = {.layers = g_layers,
                          .layer_count = 1,
                          .debug_utils = 1,
                          .device_extensions = gpl_ext,
                          .device_extension_count = 1,
                          .device_features = &gpl};
    char msg[512];
    spvbc_vk_status st = spvbc_vk_create(&o, &vk, msg, sizeof msg);
    if (st != SPVBC_VK_OK) {
        if (saved >= 0) (void)dup2(saved, STDERR_FILENO);
        printf("messenger: %s: %s\n", st == SPVBC_VK_NO_DEVICE ? "SKIP" : "FAIL", msg);
        spvbc_vk_destroy(&vk);
        return st == SPVBC_VK_NO_DEVICE ? 77 : 1;
    }
    printf("messenger: %s: %s\n", scenario, vk.description);
    spvbc_vk_clear_messages(&vk);
    size_t n43 = 0, nsize = 0;
    uint32_t *w43 = spvbc_vk_naive_module("float4", "float3", &n43);
    uint32_t *wsize = spvbc_vk_naive_module("float4", "double4", &nsize);
    if (w43 != NULL && wsize != NULL && strcmp(scenario, "file") == 0)
        scenario_file(&vk, log, w43, n43, wsize, nsize);
    else if (w43 != NULL && wsize != NULL)
        scenario_stderr(&vk, err_path, w43, n43);
    else
        CHECK(0, "the generator gave no module");
    if (saved >= 0) (void)dup2(saved, STDERR_FILENO);
    printf("  %u debug message(s):\n%s", vk.message_count, vk.messages != NULL ? vk.messages : "");
    free(w43);
    free(wsize);
    spvbc_vk_destroy(&vk);
    printf("messenger: %s: %s\n", scenario, lt_failed == 0 ? "passed" : "FAILED");
    return lt_failed == 0 ? 0 : 1;
}
