/*
 * ray_tracing_test.c - vkCreateRayTracingPipelinesKHR through VK_LAYER_SPVBC_bitcast, with the
 * ray generation stage's module in a VkShaderModuleCreateInfo chained into the stage.
 *
 *   spvbc_layer_ray_tracing_test <without|lower> <log path> <folder of raygen_4to3.spvasm>
 *
 *   without  no layer: what the driver says of the unlowered module (lavapipe must refuse it)
 *   lower    the layer lowers the chained module: the pipeline is created and the log has its
 *            "lowered 1 bitcast" line; with a deferred operation the call is not deferred
 *            (VK_OPERATION_NOT_DEFERRED_KHR: the layer's copies cannot outlive the call)
 * The device must offer VK_KHR_ray_tracing_pipeline (with rayTracingPipeline) and
 * VK_EXT_graphics_pipeline_library, which allows a stage without a VkShaderModule: else
 * SKIPPED (77) with the reason.  Mesa 22.3's lavapipe has no ray tracing; Mesa 25.0's has.
 *
 * Exit status: 0 pass, 1 failure, 77 no such device.
 *
 * SPDX-License-Identifier: Apache-2.0
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "layer_core.h"
#include "layer_test_util.h"
#include "vulkan_setup.h"

static const char *const g_layers[] = {"VK_LAYER_SPVBC_bitcast"};
static const char *const g_extensions[] = {VK_KHR_RAY_TRACING_PIPELINE_EXTENSION_NAME,
                                           VK_KHR_ACCELERATION_STRUCTURE_EXTENSION_NAME,
                                           VK_KHR_DEFERRED_HOST_OPERATIONS_EXTENSION_NAME,
                                           VK_EXT_GRAPHICS_PIPELINE_LIBRARY_EXTENSION_NAME};

/* Creates a ray tracing pipeline from the `n` words at `w` (chained into the stage), deferred
 * on `op` unless VK_NULL_HANDLE; destroys it again.  Returns the VkResult. */
static VkResult create(spvbc_vk *vk, VkPipelineLayout layout, const uint32_t *w, size_t n,
                       VkDeferredOperationKHR op)
{
    PFN_vkCreateRayTracingPipelinesKHR fn = (PFN_vkCreateRayTracingPipelinesKHR)vkGetDeviceProcAddr(
        vk->device, "vkCreateRayTracingPipelinesKHR");
    if (fn == NULL) return VK_ERROR_EXTENSION_NOT_PRESENT;
    VkShaderModuleCreateInfo smci = {VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO, NULL, 0, n * 4u,
                                     w};
    VkPipelineShaderStageCreateInfo stage = {VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO,
                                             &smci,
                                             0,
                                             VK_SHADER_STAGE_RAYGEN_BIT_KHR,
                                             VK_NULL_HANDLE,
                                             "main",
                                             NULL};
    VkRayTracingShaderGroupCreateInfoKHR group = {
        VK_STRUCTURE_TYPE_RAY_TRACING_SHADER_GROUP_CREATE_INFO_KHR,
        NULL,
        VK_RAY_TRACING_SHADER_GROUP_TYPE_GENERAL_KHR,
        0,
        VK_SHADER_UNUSED_KHR,
        VK_SHADER_UNUSED_KHR,
        VK_SHADER_UNUSED_KHR,
        NULL};
    VkRayTracingPipelineCreateInfoKHR ci = {VK_STRUCTURE_TYPE_RAY_TRACING_PIPELINE_CREATE_INFO_KHR,
                                            NULL,
                                            0,
                                            1,
                                            &stage,
                                            1,
                                            &group,
                                            1,
                                            NULL,
                                            NULL,
                                            NULL,
                                            layout,
                                            VK_NULL_HANDLE,
                                            0};
    VkPipeline p = VK_NULL_HANDLE;
    VkResult r = fn(vk->device, op, VK_NULL_HANDLE, 1, &ci, NULL, &p);
    if (p != VK_NULL_HANDLE) vkDestroyPipeline(vk->device, p, NULL);
    return r;
}

/* The deferred variant: a deferred operation made, used, joined where deferred, destroyed. */
static VkResult create_deferred(spvbc_vk *vk, VkPipelineLayout layout, const uint32_t *w, size_t n)
{
    PFN_vkCreateDeferredOperationKHR make = (PFN_vkCreateDeferredOperationKHR)vkGetDeviceProcAddr(
        vk->device, "vkCreateDeferredOperationKHR");
    PFN_vkDestroyDeferredOperationKHR destroy =
        (PFN_vkDestroyDeferredOperationKHR)vkGetDeviceProcAddr(vk->device,
                                                               "vkDestroyDeferredOperationKHR");
    PFN_vkDeferredOperationJoinKHR join = (PFN_vkDeferredOperationJoinKHR)vkGetDeviceProcAddr(
        vk->device, "vkDeferredOperationJoinKHR");
    VkDeferredOperationKHR op = VK_NULL_HANDLE;
    if (make == NULL || destroy == NULL || join == NULL ||
        make(vk->device, NULL, &op) != VK_SUCCESS)
        return VK_ERROR_EXTENSION_NOT_PRESENT;
    VkResult r = create(vk, layout, w, n, op);
    if (r == VK_OPERATION_DEFERRED_KHR)
        while (join(vk->device, op) == VK_THREAD_IDLE_KHR) {
        }
    destroy(vk->device, op, NULL);
    return r;
}

int main(int argc, char **argv)
{
    if (lt_start(argc, argv, 3, "without|lower <log> <dir>") != 0) return 2;
    lt_verbose = 1;
    const char *scenario = argv[1], *log = argv[2];
    const int layered = strcmp(scenario, "lower") == 0;
    (void)remove(log);
    VkPhysicalDeviceGraphicsPipelineLibraryFeaturesEXT gpl = {
        VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_GRAPHICS_PIPELINE_LIBRARY_FEATURES_EXT, NULL, VK_TRUE};
    VkPhysicalDeviceRayTracingPipelineFeaturesKHR rt = {
        .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_RAY_TRACING_PIPELINE_FEATURES_KHR,
        .pNext = &gpl,
        .rayTracingPipeline = VK_TRUE};
    spvbc_vk_options o = {.layers = layered ? g_layers : NULL,
                          .layer_count = layered ? 1u : 0u,
                          .device_extensions = g_extensions,
                          .device_extension_count = 4,
                          .device_features = &rt};
    spvbc_vk vk;
    char msg[512];
    spvbc_vk_status st = spvbc_vk_create(&o, &vk, msg, sizeof msg);
    if (st != SPVBC_VK_OK) {
        printf("ray tracing: %s: %s\n", st == SPVBC_VK_NO_DEVICE ? "SKIPPED" : "FAIL", msg);
        spvbc_vk_destroy(&vk);
        return st == SPVBC_VK_NO_DEVICE ? 77 : 1;
    }
    printf("ray tracing: %s: %s\n", scenario, vk.description);
    size_t n = 0;
    uint32_t *w = spvbc_vk_assemble_file(argv[3], "raygen_4to3.spvasm", &n);
    VkPipelineLayoutCreateInfo lci = {.sType = VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO};
    VkPipelineLayout layout = VK_NULL_HANDLE;
    if (w == NULL || vkCreatePipelineLayout(vk.device, &lci, NULL, &layout) != VK_SUCCESS) {
        printf("ray tracing: FAIL: no module or no pipeline layout\n");
        free(w);
        spvbc_vk_destroy(&vk);
        return 1;
    }
    char want[256];
    lt_verdict(want, sizeof want, "vkCreateRayTracingPipelinesKHR", w, n, "lowered 1 bitcast");
    VkResult r = create(&vk, layout, w, n, VK_NULL_HANDLE);
    if (layered) {
        CHECK(r == VK_SUCCESS, "ray tracing pipeline with the chained 4->3 module: VkResult %d",
              (int)r);
        CHECK(lt_log_count(log, want) == 1, "log: '%s'", want);
        r = create_deferred(&vk, layout, w, n);
        CHECK(r == VK_OPERATION_NOT_DEFERRED_KHR,
              "with a deferred operation: VK_OPERATION_NOT_DEFERRED_KHR (%d)", (int)r);
        CHECK(lt_log_count(log, want) == 2, "log: '%s' again", want);
    } else {
        printf("  without the layer, the unlowered module gives VkResult %d\n", (int)r);
        if (vk.driver_id == VK_DRIVER_ID_MESA_LLVMPIPE)
            CHECK(r != VK_SUCCESS, "lavapipe rejects the unlowered module (%d)", (int)r);
        CHECK(!lt_log_has(log, "spvbc-layer"), "no layer, no log");
    }
    vkDestroyPipelineLayout(vk.device, layout, NULL);
    free(w);
    spvbc_vk_destroy(&vk);
    printf("ray tracing: %s: %s\n", scenario, lt_failed == 0 ? "passed" : "FAILED");
    return lt_failed == 0 ? 0 : 1;
}
