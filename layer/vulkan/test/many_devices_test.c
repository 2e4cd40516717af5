/*
 * many_devices_test.c - the layer tracks any number of devices.
 *
 *   spvbc_layer_many_devices_test <log>
 *
 * Through VK_LAYER_SPVBC_bitcast (enabled by the environment), creates 200 logical devices on
 * one physical device, at most 100 alive at once (the first 100, then each new one after
 * destroying the oldest), and creates the naive as_float3(float4) module on each when it is
 * made and again on all 100 when they are all alive: every vkCreateShaderModule must succeed
 * and the log must show the layer lowering each of them (a device the layer does not track
 * would get its modules unlowered, or none at all).
 *
 * Exit status: 0 pass, 1 failure, 77 no device.
 *
 * SPDX-License-Identifier: Apache-2.0
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "layer_test_util.h"
#include "vulkan_setup.h"

#define TOTAL 200u
#define ALIVE 100u

static VkResult make_module(VkDevice dev, const uint32_t *w, size_t n)
{
    VkShaderModuleCreateInfo ci = {
        .sType = VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO, .codeSize = n * 4u, .pCode = w};
    VkShaderModule m = VK_NULL_HANDLE;
    VkResult r = vkCreateShaderModule(dev, &ci, NULL, &m);
    if (r == VK_SUCCESS) vkDestroyShaderModule(dev, m, NULL);
    return r;
}

int main(int argc, char **argv)
{
    if (lt_start(argc, argv, 1, "<log>") != 0) return 2;
    const char *log = argv[1];
    (void)remove(log);
    char msg[512];
    spvbc_vk vk;
    spvbc_vk_options o = {0};
    spvbc_vk_status st = spvbc_vk_create(&o, &vk, msg, sizeof msg);
    if (st != SPVBC_VK_OK) {
        printf("%s: %s\n", st == SPVBC_VK_NO_DEVICE ? "SKIP" : "FAIL", msg);
        spvbc_vk_destroy(&vk);
        return st == SPVBC_VK_NO_DEVICE ? 77 : 1;
    }
    printf("  device: %s\n", vk.description);
    size_t n = 0;
    uint32_t *w = spvbc_vk_naive_module("float4", "float3", &n);
    if (w == NULL) {
        printf("FAIL: the generator gave no module\n");
        spvbc_vk_destroy(&vk);
        return 1;
    }
    VkDevice ring[ALIVE] = {0};
    unsigned created = 0, device_failures = 0, module_failures = 0, modules = 0;
    for (unsigned i = 0; i < TOTAL; ++i) {
        VkDevice *slot = &ring[i % ALIVE];
        if (*slot != VK_NULL_HANDLE) {
            vkDestroyDevice(*slot, NULL);
            *slot = VK_NULL_HANDLE;
        }
        VkResult r = spvbc_vk_new_device(&vk, NULL, slot);
        if (r != VK_SUCCESS) {
            if (device_failures++ == 0) printf("  device %u: vkCreateDevice gave %d\n", i, (int)r);
            *slot = VK_NULL_HANDLE;
            continue;
        }
        ++created;
        r = make_module(*slot, w, n);
        ++modules;
        if (r != VK_SUCCESS && module_failures++ == 0)
            printf("  device %u: vkCreateShaderModule gave %d\n", i, (int)r);
        if (i + 1u == ALIVE) { /* all 100 alive: one more module on each */
            for (unsigned j = 0; j < ALIVE; ++j) {
                if (ring[j] == VK_NULL_HANDLE) continue;
                ++modules;
                r = make_module(ring[j], w, n);
                if (r != VK_SUCCESS && module_failures++ == 0)
                    printf("  device %u again: vkCreateShaderModule gave %d\n", j, (int)r);
            }
        }
    }
    for (unsigned j = 0; j < ALIVE; ++j)
        if (ring[j] != VK_NULL_HANDLE) vkDestroyDevice(ring[j], NULL);
    /* The set-up's own device makes one more alive throughout. */
    CHECK(created == TOTAL && device_failures == 0, "%u of %u devices created (%u at most alive)",
          created, TOTAL, ALIVE + 1u);
    CHECK(module_failures == 0 && modules == TOTAL + ALIVE,
          "%u vkCreateShaderModule calls, %u failed", modules, module_failures);
    char want[256];
    lt_verdict(want, sizeof want, "vkCreateShaderModule", w, n, "lowered 1 bitcast");
    size_t lowered = lt_log_count(log, want);
    CHECK(lowered == TOTAL + ALIVE, "the layer lowered %zu of %u modules (log '%s')", lowered,
          TOTAL + ALIVE, want);
    free(w);
    spvbc_vk_destroy(&vk);
    printf("layer.many_devices: %s\n", lt_failed ? "FAIL" : "PASS");
    return lt_failed ? 1 : 0;
}
