/*
 * shader_object_test.c - VK_LAYER_SPVBC_bitcast and VK_EXT_shader_object, through the real
 * loader.
 *
 *   spvbc_layer_shader_object_test <scenario> <log path> <folder of the .spvasm files>
 *
 * Scenarios (ctest sets the layer's environment as for layer_test.c):
 *   without   no layer: what the driver does with the naive 4->3 module given to
 *             vkCreateShadersEXT (lavapipe: must refuse it)
 *   lower     through the layer: an unlinked compute shader object with the 4->3 bitcast is
 *             created, bound with vkCmdBindShadersEXT and computes xyz bit-exact; a linked
 *             vertex (4->3) + fragment (valid) pair and an unlinked vertex shader are created;
 *             the log shows each lowered stage and the valid one unchanged; a shader binary
 *             (VK_SHADER_CODE_TYPE_BINARY_EXT) read back from the driver is passed on untouched
 *             (no log line) and accepted
 *   threads   16 threads at once create (and destroy) shader modules, compute pipelines and
 *             shader objects from the 4->3 module through the layer; every one must succeed and
 *             be logged as lowered (run under ThreadSanitizer as layer.threads.tsan)
 *
 * Exit status: 0 pass, 1 failure, 77 no device with VK_EXT_shader_object (Mesa 22.3.6's
 * lavapipe lacks it; the threads scenario then uses shader modules only).
 *
 * SPDX-License-Identifier: Apache-2.0
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "layer_core.h"
#include "layer_test_util.h"
#include "vk_shader_object.h"
#include "vulkan_setup.h"

#define ELEMS 256u
#define GROUPS (ELEMS / 64u)
#define FILL 0xa5u
#define THREADS 16
#define ROUNDS 4

typedef struct so_fns {
    PFN_vkCreateShadersEXT create;
    PFN_vkDestroyShaderEXT destroy;
    PFN_vkCmdBindShadersEXT bind;
    PFN_vkGetShaderBinaryDataEXT binary;
} so_fns;

typedef struct so_test {
    spvbc_vk vk;
    spvbc_vk_compute c;
    so_fns fn;
    int has_shader_object;
    const char *log;
    uint32_t *w43, *wvalid, *wvs, *wfs;
    size_t n43, nvalid, nvs, nfs;
} so_test;

static uint32_t g_in[ELEMS * 4];

static VkShaderCreateInfoEXT spirv_info(VkShaderStageFlagBits stage, VkShaderStageFlags next,
                                        const uint32_t *w, size_t n,
                                        const VkDescriptorSetLayout *layout)
{
    VkShaderCreateInfoEXT ci = {.sType = VK_STRUCTURE_TYPE_SHADER_CREATE_INFO_EXT,
                                .stage = stage,
                                .nextStage = next,
                                .codeType = VK_SHADER_CODE_TYPE_SPIRV_EXT,
                                .codeSize = n * 4u,
                                .pCode = w,
                                .pName = "main",
                                .setLayoutCount = layout != NULL ? 1u : 0u,
                                .pSetLayouts = layout};
    return ci;
}

/* Creates the shader objects of `count` create infos and destroys them; returns the result. */
static VkResult create_and_destroy(so_test *t, uint32_t count, const VkShaderCreateInfoEXT *ci)
{
    VkShaderEXT shaders[4] = {VK_NULL_HANDLE, VK_NULL_HANDLE, VK_NULL_HANDLE, VK_NULL_HANDLE};
    VkResult r = t->fn.create(t->vk.device, count, ci, NULL, shaders);
    for (uint32_t i = 0; i < count; ++i)
        if (shaders[i] != VK_NULL_HANDLE) t->fn.destroy(t->vk.device, shaders[i], NULL);
    return r;
}

/* Creates a compute shader object from `ci`, dispatches it and compares lanes 0..2 of every
 * element with the input; keeps the shader in `*keep` if `keep` is not NULL. */
static VkResult run_compute(so_test *t, const VkShaderCreateInfoEXT *ci, int *xyz,
                            VkShaderEXT *keep)
{
    char msg[256];
    VkShaderEXT sh = VK_NULL_HANDLE;
    *xyz = 0;
    VkResult r = t->fn.create(t->vk.device, 1, ci, NULL, &sh);
    if (r != VK_SUCCESS) return r;
    memcpy(t->c.mapped[0], g_in, sizeof g_in);
    memset(t->c.mapped[1], FILL, sizeof g_in);
    VkShaderStageFlagBits stage = VK_SHADER_STAGE_COMPUTE_BIT;
    if (spvbc_vk_compute_begin(&t->vk, &t->c, msg, sizeof msg) == SPVBC_VK_OK) {
        t->fn.bind(t->c.cmd, 1, &stage, &sh);
        vkCmdDispatch(t->c.cmd, GROUPS, 1, 1);
        if (spvbc_vk_compute_submit(&t->vk, &t->c, msg, sizeof msg) == SPVBC_VK_OK) {
            const uint32_t *out = t->c.mapped[1];
            *xyz = 1;
            for (uint32_t e = 0; e < ELEMS; ++e)
                if (memcmp(&out[e * 4], &g_in[e * 4], 12) != 0) *xyz = 0;
        } else {
            printf("  %s\n", msg);
        }
    }
    if (keep != NULL)
        *keep = sh;
    else
        t->fn.destroy(t->vk.device, sh, NULL);
    return r;
}

static void scenario_without(so_test *t, int lavapipe)
{
    VkShaderCreateInfoEXT ci =
        spirv_info(VK_SHADER_STAGE_COMPUTE_BIT, 0, t->w43, t->n43, &t->c.set_layout);
    VkShaderEXT sh = VK_NULL_HANDLE;
    VkResult r = t->fn.create(t->vk.device, 1, &ci, NULL, &sh);
    if (sh != VK_NULL_HANDLE) t->fn.destroy(t->vk.device, sh, NULL);
    printf("  without the layer, vkCreateShadersEXT(naive 4->3 compute) gives %d\n", (int)r);
    if (lavapipe) CHECK(r != VK_SUCCESS, "lavapipe refuses the unlowered 4->3 shader object");
    VkShaderCreateInfoEXT linked[2] = {
        spirv_info(VK_SHADER_STAGE_VERTEX_BIT, VK_SHADER_STAGE_FRAGMENT_BIT, t->wvs, t->nvs, NULL),
        spirv_info(VK_SHADER_STAGE_FRAGMENT_BIT, 0, t->wfs, t->nfs, NULL)};
    linked[0].flags = linked[1].flags = VK_SHADER_CREATE_LINK_STAGE_BIT_EXT;
    r = create_and_destroy(t, 2, linked);
    printf("  without the layer, linked vertex (4->3) + fragment gives %d\n", (int)r);
    if (lavapipe) CHECK(r != VK_SUCCESS, "lavapipe refuses the linked pair with the 4->3 vertex");
    CHECK(!lt_log_has(t->log, "spvbc-layer"), "no layer log without the layer");
}

static void scenario_lower(so_test *t)
{
    char want[256];
    CHECK(lt_log_has(t->log, "VK_LAYER_SPVBC_bitcast active"), "the layer is active");
    int xyz = 0;
    VkShaderEXT compute = VK_NULL_HANDLE;
    VkShaderCreateInfoEXT ci =
        spirv_info(VK_SHADER_STAGE_COMPUTE_BIT, 0, t->w43, t->n43, &t->c.set_layout);
    VkResult r = run_compute(t, &ci, &xyz, &compute);
    CHECK(r == VK_SUCCESS && xyz,
          "unlinked compute shader object with 4->3: result %d, xyz bit-exact: %d", (int)r, xyz);
    lt_verdict(want, sizeof want, "vkCreateShadersEXT", t->w43, t->n43, "lowered 1 bitcast");
    CHECK(lt_log_has(t->log, want), "log: '%s'", want);

    VkShaderCreateInfoEXT linked[2] = {
        spirv_info(VK_SHADER_STAGE_VERTEX_BIT, VK_SHADER_STAGE_FRAGMENT_BIT, t->wvs, t->nvs, NULL),
        spirv_info(VK_SHADER_STAGE_FRAGMENT_BIT, 0, t->wfs, t->nfs, NULL)};
    linked[0].flags = linked[1].flags = VK_SHADER_CREATE_LINK_STAGE_BIT_EXT;
    r = create_and_destroy(t, 2, linked);
    CHECK(r == VK_SUCCESS, "linked vertex (4->3) + fragment shader objects: result %d", (int)r);
    lt_verdict(want, sizeof want, "vkCreateShadersEXT", t->wvs, t->nvs, "lowered 1 bitcast");
    CHECK(lt_log_has(t->log, want), "log: '%s'", want);
    lt_verdict(want, sizeof want, "vkCreateShadersEXT", t->wfs, t->nfs, "unchanged (valid");
    CHECK(lt_log_has(t->log, want), "the valid fragment stage is passed on unchanged: '%s'", want);

    size_t before = lt_log_count(t->log, "vkCreateShadersEXT");
    linked[0].flags = 0; /* the vertex stage alone, unlinked */
    r = create_and_destroy(t, 1, linked);
    CHECK(r == VK_SUCCESS, "unlinked vertex shader object (4->3): result %d", (int)r);
    CHECK(lt_log_count(t->log, "vkCreateShadersEXT") == before + 1, "it was logged");

    ci = spirv_info(VK_SHADER_STAGE_COMPUTE_BIT, 0, t->wvalid, t->nvalid, &t->c.set_layout);
    r = create_and_destroy(t, 1, &ci);
    lt_verdict(want, sizeof want, "vkCreateShadersEXT", t->wvalid, t->nvalid,
               "unchanged (valid, 1 bitcast)");
    CHECK(r == VK_SUCCESS && lt_log_has(t->log, want), "valid module passed on unchanged: '%s'",
          want);

    /* A binary read back from the driver: no SPIR-V, so the layer must not look at it. */
    size_t size = 0;
    r = compute != VK_NULL_HANDLE ? t->fn.binary(t->vk.device, compute, &size, NULL)
                                  : VK_ERROR_UNKNOWN;
    void *bin = size > 0 ? malloc(size) : NULL;
    if (bin != NULL) r = t->fn.binary(t->vk.device, compute, &size, bin);
    CHECK(r == VK_SUCCESS && bin != NULL, "vkGetShaderBinaryDataEXT: %zu bytes", size);
    if (bin != NULL && r == VK_SUCCESS) {
        before = lt_log_count(t->log, "vkCreateShadersEXT");
        ci = spirv_info(VK_SHADER_STAGE_COMPUTE_BIT, 0, bin, 0, &t->c.set_layout);
        ci.codeType = VK_SHADER_CODE_TYPE_BINARY_EXT;
        ci.codeSize = size;
        r = run_compute(t, &ci, &xyz, NULL);
        CHECK(r == VK_SUCCESS && xyz, "the binary shader object runs: result %d, xyz %d", (int)r,
              xyz);
        CHECK(lt_log_count(t->log, "vkCreateShadersEXT") == before,
              "the binary was passed on untouched (no log line)");
    }
    free(bin);
    if (compute != VK_NULL_HANDLE) t->fn.destroy(t->vk.device, compute, NULL);
}

/* ---------------------------------------------------------------------------------------- */
/* threads */

typedef struct worker {
    so_test *t;
    int index;
    int ok;
} worker;

static void *work(void *arg)
{
    worker *w = arg;
    so_test *t = w->t;
    VkDevice dev = t->vk.device;
    w->ok = 1;
    for (int round = 0; round < ROUNDS; ++round) {
        VkPipeline p = VK_NULL_HANDLE;
        if (spvbc_vk_compute_pipeline(&t->vk, &t->c, t->w43, t->n43, &p) != VK_SUCCESS) w->ok = 0;
        if (p != VK_NULL_HANDLE) vkDestroyPipeline(dev, p, NULL);
        if (t->has_shader_object) {
            VkShaderCreateInfoEXT ci =
                spirv_info(VK_SHADER_STAGE_COMPUTE_BIT, 0, t->w43, t->n43, &t->c.set_layout);
            if (create_and_destroy(t, 1, &ci) != VK_SUCCESS) w->ok = 0;
        }
    }
    return NULL;
}

static void scenario_threads(so_test *t)
{
    pthread_t th[THREADS];
    worker w[THREADS];
    int started = 0;
    for (int i = 0; i < THREADS; ++i) {
        w[i] = (worker){t, i, 0};
        if (pthread_create(&th[i], NULL, work, &w[i]) == 0)
            started++;
        else
            break;
    }
    CHECK(started == THREADS, "%d threads started", started);
    int all_ok = 1;
    for (int i = 0; i < started; ++i) {
        (void)pthread_join(th[i], NULL);
        all_ok &= w[i].ok;
    }
    CHECK(all_ok, "every module, pipeline and shader object of every thread was created");
    char want[256];
    lt_verdict(want, sizeof want, "vkCreateShaderModule", t->w43, t->n43, "lowered 1 bitcast");
    size_t n = lt_log_count(t->log, want);
    CHECK(n == (size_t)started * ROUNDS, "%zu of %d vkCreateShaderModule calls logged as lowered",
          n, started * ROUNDS);
    if (t->has_shader_object) {
        lt_verdict(want, sizeof want, "vkCreateShadersEXT", t->w43, t->n43, "lowered 1 bitcast");
        n = lt_log_count(t->log, want);
        CHECK(n == (size_t)started * ROUNDS, "%zu of %d vkCreateShadersEXT calls logged as lowered",
              n, started * ROUNDS);
    } else {
        printf("  (no VK_EXT_shader_object on this device: shader modules only)\n");
    }
}

/* ---------------------------------------------------------------------------------------- */

static spvbc_vk_status open_device(so_test *t, int want_shader_object, char *msg, size_t size)
{
    static const char *const ext[] = {VK_EXT_SHADER_OBJECT_EXTENSION_NAME};
    VkPhysicalDeviceShaderObjectFeaturesEXT so = {
        .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_OBJECT_FEATURES_EXT,
        .shaderObject = VK_TRUE};
    VkPhysicalDeviceVulkan13Features f13 = {
        .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_FEATURES,
        .pNext = &so,
        .dynamicRendering = VK_TRUE};
    spvbc_vk_options o = {
        .device_extensions = ext, .device_extension_count = 1, .device_features = &f13};
    spvbc_vk_status st = want_shader_object ? spvbc_vk_create(&o, &t->vk, msg, size)
                                            : spvbc_vk_create(NULL, &t->vk, msg, size);
    t->has_shader_object = want_shader_object && st == SPVBC_VK_OK;
    if (st != SPVBC_VK_OK) return st;
    if (t->has_shader_object) {
        VkDevice d = t->vk.device;
        t->fn.create = (PFN_vkCreateShadersEXT)vkGetDeviceProcAddr(d, "vkCreateShadersEXT");
        t->fn.destroy = (PFN_vkDestroyShaderEXT)vkGetDeviceProcAddr(d, "vkDestroyShaderEXT");
        t->fn.bind = (PFN_vkCmdBindShadersEXT)vkGetDeviceProcAddr(d, "vkCmdBindShadersEXT");
        t->fn.binary =
            (PFN_vkGetShaderBinaryDataEXT)vkGetDeviceProcAddr(d, "vkGetShaderBinaryDataEXT");
        if (!t->fn.create || !t->fn.destroy || !t->fn.bind || !t->fn.binary) {
            (void)snprintf(msg, size, "VK_EXT_shader_object is enabled but a function is NULL");
            return SPVBC_VK_ERROR;
        }
    }
    return spvbc_vk_compute_create(&t->vk, sizeof g_in, &t->c, msg, size);
}

int main(int argc, char **argv)
{
    if (lt_start(argc, argv, 3, "without|lower|threads <log> <dir>") != 0) return 2;
    lt_verbose = 1;
    const char *scenario = argv[1];
    so_test t;
    memset(&t, 0, sizeof t);
    t.log = argv[2];
    (void)remove(t.log);
    for (uint32_t i = 0; i < ELEMS * 4; ++i)
        g_in[i] = 0x3f800000u + i * 0x1234567u;
    g_in[1] = 0x7f800001u; /* a signalling NaN */

    char msg[512];
    int threads = strcmp(scenario, "threads") == 0;
    spvbc_vk_status st = open_device(&t, 1, msg, sizeof msg);
    if (st == SPVBC_VK_NO_DEVICE && threads) {
        printf("shader-object: %s; shader modules only\n", msg);
        spvbc_vk_destroy(&t.vk);
        st = open_device(&t, 0, msg, sizeof msg);
    }
    if (st == SPVBC_VK_NO_DEVICE) {
        printf("shader-object: SKIP: %s\n", msg);
        spvbc_vk_destroy(&t.vk);
        return 77;
    }
    if (st != SPVBC_VK_OK) {
        printf("shader-object: FAIL: %s\n", msg);
        spvbc_vk_compute_destroy(&t.vk, &t.c);
        spvbc_vk_destroy(&t.vk);
        return 1;
    }
    printf("shader-object: %s: %s\n", scenario, t.vk.description);
    t.w43 = spvbc_vk_naive_module("float4", "float3", &t.n43);
    t.wvalid = spvbc_vk_naive_module("float4", "int4", &t.nvalid);
    t.wvs = spvbc_vk_assemble_file(argv[3], "vertex_4to3.spvasm", &t.nvs);
    t.wfs = spvbc_vk_assemble_file(argv[3], "fragment_white.spvasm", &t.nfs);
    if (t.w43 == NULL || t.wvalid == NULL || t.wvs == NULL || t.wfs == NULL) {
        printf("shader-object: FAIL: the modules could not be made\n");
        lt_failed++;
    } else if (strcmp(scenario, "without") == 0) {
        scenario_without(&t, t.vk.driver_id == VK_DRIVER_ID_MESA_LLVMPIPE);
    } else if (strcmp(scenario, "lower") == 0) {
        scenario_lower(&t);
    } else if (threads) {
        scenario_threads(&t);
    } else {
        printf("shader-object: unknown scenario %s\n", scenario);
        lt_failed++;
    }
    free(t.w43);
    free(t.wvalid);
    free(t.wvs);
    free(t.wfs);
    spvbc_vk_compute_destroy(&t.vk, &t.c);
    spvbc_vk_destroy(&t.vk);
    printf("shader-object: %s: %s\n", scenario, lt_failed == 0 ? "passed" : "FAILED");
    return lt_failed == 0 ? 0 : 1;
}
