/*
 * spvbc_layer.c - VK_LAYER_SPVBC_bitcast: validates and lowers as_type bitcasts in every SPIR-V
 * module before the driver sees it.
 *
 * Intercepted: vkCreateShaderModule, the VkShaderModuleCreateInfo that
 * VK_EXT_graphics_pipeline_library / VK_KHR_maintenance5 allow to chain into a
 * VkPipelineShaderStageCreateInfo of vkCreateComputePipelines and vkCreateGraphicsPipelines,
 * and the SPIR-V code of VK_EXT_shader_object's vkCreateShadersEXT (linked or not).  Everything
 * else goes straight to the next layer or driver, among it what cannot be rewritten: shader
 * binaries (VK_SHADER_CODE_TYPE_BINARY_EXT) and stages created from a module identifier
 * (VkPipelineShaderStageModuleIdentifierCreateInfoEXT), which carry no SPIR-V.  What happens to a
 * module is spvbc_layer_process()'s business (layer_core.h); this file only deals with the loader's
 * layer interface (vk_layer.h, "Vulkan Loader Interface: Layers") and with copying create infos.
 *
 * If anything fails (allocation, an unknown structure in front of a chained module), the call is
 * passed on with the caller's structures untouched: the layer never makes a call fail.
 *
 * SPDX-License-Identifier: Apache-2.0
 */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include <vulkan/vk_layer.h>
#include <vulkan/vulkan.h>

#include "layer_core.h"
#include "layer_map.h"
#include "vk_shader_object.h"

/* vk_layer.h of Vulkan-Headers >= 1.3.2xx (Debian 13) no longer defines it. */
#ifndef VK_LAYER_EXPORT
#if defined(__GNUC__)
#define VK_LAYER_EXPORT __attribute__((visibility("default")))
#else
#define VK_LAYER_EXPORT
#endif
#endif

#define LAYER_NAME "VK_LAYER_SPVBC_bitcast"

/* ---------------------------------------------------------------------------------------- */
/* Dispatch tables, keyed by the loader's dispatch pointer (the first word of every handle). */

typedef void *dispatch_key;

static dispatch_key key_of(const void *handle)
{
    return *(dispatch_key *)(uintptr_t)handle;
}

typedef struct instance_data {
    dispatch_key key;
    VkInstance instance;
    PFN_vkGetInstanceProcAddr next_gipa;
    PFN_vkDestroyInstance destroy_instance;
} instance_data;

typedef struct device_data {
    dispatch_key key;
    VkDevice device;
    PFN_vkGetDeviceProcAddr next_gdpa;
    PFN_vkDestroyDevice destroy_device;
    PFN_vkCreateShaderModule create_shader_module;
    PFN_vkCreateComputePipelines create_compute_pipelines;
    PFN_vkCreateGraphicsPipelines create_graphics_pipelines;
    PFN_vkCreateShadersEXT create_shaders; /* NULL unless VK_EXT_shader_object is enabled */
} device_data;

/* Instances and devices, each in a map from its dispatch key to a malloc'd record, guarded by
 * g_lock.  The maps grow as needed (an application may keep any number of devices alive), as
 * Mesa's device-select layer keeps its instances in a hash table. */
static pthread_mutex_t g_lock = PTHREAD_MUTEX_INITIALIZER;
static spvbc_layer_map g_instances = SPVBC_LAYER_MAP_INIT;
static spvbc_layer_map g_devices = SPVBC_LAYER_MAP_INIT;
static pthread_once_t g_config_once = PTHREAD_ONCE_INIT;
static spvbc_layer_config g_config;

static void load_config(void)
{
    spvbc_layer_config_from_env(&g_config);
}

static const spvbc_layer_config *config(void)
{
    (void)pthread_once(&g_config_once, load_config);
    return &g_config;
}

/* Copies the record of `size` bytes for `key` to `out` (and removes it from `map` if `take`);
 * returns 1 if found. */
static int table_find(spvbc_layer_map *map, size_t size, dispatch_key key, void *out, int take)
{
    if (key == NULL) return 0;
    (void)pthread_mutex_lock(&g_lock);
    void *e = take ? spvbc_layer_map_take(map, key) : spvbc_layer_map_get(map, key);
    if (e != NULL) memcpy(out, e, size);
    (void)pthread_mutex_unlock(&g_lock);
    if (take) free(e);
    return e != NULL;
}

/* Stores a copy of `entry` (`size` bytes, beginning with its dispatch_key); logs (as `what`)
 * and returns 0 if memory for it cannot be had. */
static int table_add(spvbc_layer_map *map, size_t size, const void *entry, const char *what)
{
    dispatch_key key;
    memcpy(&key, entry, sizeof key);
    void *e = malloc(size);
    int stored = 0;
    if (e != NULL) {
        memcpy(e, entry, size);
        (void)pthread_mutex_lock(&g_lock);
        void *old = spvbc_layer_map_get(map, key);
        stored = spvbc_layer_map_put(map, key, e);
        (void)pthread_mutex_unlock(&g_lock);
        free(stored ? old : e); /* a stale record under a reused key is replaced */
    }
    if (!stored)
        spvbc_layer_log(config(), "spvbc-layer: out of memory: this %s is not tracked", what);
    return stored;
}

#if defined(__GNUC__)
/* When the layer is unloaded, records of objects the application never destroyed go too. */
__attribute__((destructor)) static void free_tables_at_unload(void)
{
    (void)pthread_mutex_lock(&g_lock);
    spvbc_layer_map_clear(&g_instances, free);
    spvbc_layer_map_clear(&g_devices, free);
    (void)pthread_mutex_unlock(&g_lock);
}
#endif

static int find_instance(dispatch_key key, instance_data *out)
{
    return table_find(&g_instances, sizeof *out, key, out, 0);
}

static int find_device(dispatch_key key, device_data *out)
{
    return table_find(&g_devices, sizeof *out, key, out, 0);
}

/* The loader's link info for this layer in a create info's chain (`type` is
 * VK_STRUCTURE_TYPE_LOADER_INSTANCE_CREATE_INFO or ..._DEVICE_CREATE_INFO; both structures
 * begin with sType, pNext, function).  The caller advances it for the next layer down. */
static VkLayerInstanceCreateInfo *find_link(const void *chain, VkStructureType type)
{
    VkLayerInstanceCreateInfo *link = (VkLayerInstanceCreateInfo *)(uintptr_t)chain;
    while (link != NULL && !(link->sType == type && link->function == VK_LAYER_LINK_INFO))
        link = (VkLayerInstanceCreateInfo *)(uintptr_t)link->pNext;
    return link;
}

/* ---------------------------------------------------------------------------------------- */
/* Instance */

static VKAPI_ATTR VkResult VKAPI_CALL layer_CreateInstance(const VkInstanceCreateInfo *pCreateInfo,
                                                           const VkAllocationCallbacks *pAllocator,
                                                           VkInstance *pInstance)
{
    VkLayerInstanceCreateInfo *link =
        find_link(pCreateInfo->pNext, VK_STRUCTURE_TYPE_LOADER_INSTANCE_CREATE_INFO);
    if (link == NULL || link->u.pLayerInfo == NULL) return VK_ERROR_INITIALIZATION_FAILED;
    PFN_vkGetInstanceProcAddr next_gipa = link->u.pLayerInfo->pfnNextGetInstanceProcAddr;
    link->u.pLayerInfo = link->u.pLayerInfo->pNext; /* the next layer down reads its own link */
    PFN_vkCreateInstance create =
        (PFN_vkCreateInstance)next_gipa(VK_NULL_HANDLE, "vkCreateInstance");
    if (create == NULL) return VK_ERROR_INITIALIZATION_FAILED;
    VkResult r = create(pCreateInfo, pAllocator, pInstance);
    if (r != VK_SUCCESS) return r;

    instance_data d = {key_of(*pInstance), *pInstance, next_gipa,
                       (PFN_vkDestroyInstance)next_gipa(*pInstance, "vkDestroyInstance")};
    (void)table_add(&g_instances, sizeof d, &d, "instance");
    spvbc_layer_announce(config(), LAYER_NAME);
    return VK_SUCCESS;
}

/* vkDestroyInstance and vkDestroyDevice: the record of `handle` (of `record_type`, in `map`)
 * is forgotten, and the next layer's function it kept (its member `destroy`) is called. */
#define DESTROY_ENTRY(name, handle_type, record_type, map, destroy)                                \
    static VKAPI_ATTR void VKAPI_CALL name(handle_type handle, const VkAllocationCallbacks *alloc) \
    {                                                                                              \
        record_type d;                                                                             \
        if (handle != VK_NULL_HANDLE && table_find(&map, sizeof d, key_of(handle), &d, 1) &&       \
            d.destroy != NULL)                                                                     \
            d.destroy(handle, alloc);                                                              \
    }
DESTROY_ENTRY(layer_DestroyInstance, VkInstance, instance_data, g_instances, destroy_instance)

/* ---------------------------------------------------------------------------------------- */
/* Device */

static VKAPI_ATTR VkResult VKAPI_CALL layer_CreateDevice(VkPhysicalDevice physicalDevice,
                                                         const VkDeviceCreateInfo *pCreateInfo,
                                                         const VkAllocationCallbacks *pAllocator,
                                                         VkDevice *pDevice)
{
    VkLayerDeviceCreateInfo *link = (VkLayerDeviceCreateInfo *)(void *)find_link(
        pCreateInfo->pNext, VK_STRUCTURE_TYPE_LOADER_DEVICE_CREATE_INFO);
    if (link == NULL || link->u.pLayerInfo == NULL) return VK_ERROR_INITIALIZATION_FAILED;
    PFN_vkGetInstanceProcAddr next_gipa = link->u.pLayerInfo->pfnNextGetInstanceProcAddr;
    PFN_vkGetDeviceProcAddr next_gdpa = link->u.pLayerInfo->pfnNextGetDeviceProcAddr;
    link->u.pLayerInfo = link->u.pLayerInfo->pNext;
    PFN_vkCreateDevice create = (PFN_vkCreateDevice)next_gipa(VK_NULL_HANDLE, "vkCreateDevice");
    if (create == NULL) return VK_ERROR_INITIALIZATION_FAILED;
    VkResult r = create(physicalDevice, pCreateInfo, pAllocator, pDevice);
    if (r != VK_SUCCESS) return r;

    VkDevice dev = *pDevice;
    device_data d = {key_of(dev),
                     dev,
                     next_gdpa,
                     (PFN_vkDestroyDevice)next_gdpa(dev, "vkDestroyDevice"),
                     (PFN_vkCreateShaderModule)next_gdpa(dev, "vkCreateShaderModule"),
                     (PFN_vkCreateComputePipelines)next_gdpa(dev, "vkCreateComputePipelines"),
                     (PFN_vkCreateGraphicsPipelines)next_gdpa(dev, "vkCreateGraphicsPipelines"),
                     (PFN_vkCreateShadersEXT)next_gdpa(dev, "vkCreateShadersEXT")};
    if (!table_add(&g_devices, sizeof d, &d, "device")) {
        /* Untracked, its shader calls could not be passed on: give the memory back instead. */
        if (d.destroy_device != NULL) d.destroy_device(dev, pAllocator);
        *pDevice = VK_NULL_HANDLE;
        return VK_ERROR_OUT_OF_HOST_MEMORY;
    }
    return VK_SUCCESS;
}

DESTROY_ENTRY(layer_DestroyDevice, VkDevice, device_data, g_devices, destroy_device)

/* ---------------------------------------------------------------------------------------- */
/* Shader modules */

static VKAPI_ATTR VkResult VKAPI_CALL
layer_CreateShaderModule(VkDevice device, const VkShaderModuleCreateInfo *pCreateInfo,
                         const VkAllocationCallbacks *pAllocator, VkShaderModule *pShaderModule)
{
    device_data d;
    if (!find_device(key_of(device), &d) || d.create_shader_module == NULL)
        return VK_ERROR_INITIALIZATION_FAILED;
    uint32_t *code = NULL;
    size_t size = 0;
    if (pCreateInfo != NULL &&
        spvbc_layer_process(config(), "vkCreateShaderModule", pCreateInfo->pCode,
                            pCreateInfo->codeSize, &code, &size)) {
        VkShaderModuleCreateInfo copy = *pCreateInfo;
        copy.pCode = code;
        copy.codeSize = size;
        VkResult r = d.create_shader_module(device, &copy, pAllocator, pShaderModule);
        free(code);
        return r;
    }
    return d.create_shader_module(device, pCreateInfo, pAllocator, pShaderModule);
}

/* Memory the rewritten create infos point into; freed after the driver call. */
typedef struct scratch {
    void **blocks;
    size_t count, cap;
    int failed;
} scratch;

/* Makes `s` own `p` (freed by scratch_free); frees `p` and returns NULL if that fails. */
static void *scratch_adopt(scratch *s, void *p)
{
    if (p == NULL || s->failed) {
        free(p);
        s->failed = 1;
        return NULL;
    }
    if (s->count == s->cap) {
        size_t cap = s->cap ? s->cap * 2u : 16u;
        void **b = realloc(s->blocks, cap * sizeof *b);
        if (b == NULL) {
            free(p);
            s->failed = 1;
            return NULL;
        }
        s->blocks = b;
        s->cap = cap;
    }
    s->blocks[s->count++] = p;
    return p;
}

static void *scratch_alloc(scratch *s, size_t size)
{
    return scratch_adopt(s, calloc(1, size != 0 ? size : 1));
}

/* The caller's array of `bytes` at `src`, copied into `s` the first time (`*copy` is NULL) so
 * that elements can be rewritten; returns the copy, or NULL if allocation failed. */
static void *copy_once(scratch *s, void *copy, const void *src, size_t bytes)
{
    if (copy != NULL) return copy;
    copy = scratch_alloc(s, bytes);
    if (copy != NULL) memcpy(copy, src, bytes);
    return copy;
}

static void scratch_free(scratch *s)
{
    for (size_t i = 0; i < s->count; ++i)
        free(s->blocks[i]);
    free(s->blocks);
}

/* The size of a structure that may stand in front of a chained VkShaderModuleCreateInfo in a
 * stage's pNext chain, or 0 if this layer does not know it (then the stage is left alone). */
static size_t known_stage_struct_size(VkStructureType t)
{
    switch (t) {
    case VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_REQUIRED_SUBGROUP_SIZE_CREATE_INFO:
        return sizeof(VkPipelineShaderStageRequiredSubgroupSizeCreateInfo);
    case VK_STRUCTURE_TYPE_DEBUG_UTILS_OBJECT_NAME_INFO_EXT:
        return sizeof(VkDebugUtilsObjectNameInfoEXT);
    case VK_STRUCTURE_TYPE_PIPELINE_ROBUSTNESS_CREATE_INFO_EXT:
        return sizeof(VkPipelineRobustnessCreateInfoEXT);
    case VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_MODULE_IDENTIFIER_CREATE_INFO_EXT:
        return sizeof(VkPipelineShaderStageModuleIdentifierCreateInfoEXT);
    default: return 0;
    }
}

/* If `stage` chains a VkShaderModuleCreateInfo that the layer replaces, writes a rewritten copy
 * of the stage to `*out` (its chain partly copied into `s`) and returns 1; else returns 0. */
static int rewrite_stage(const VkPipelineShaderStageCreateInfo *stage, const char *api, scratch *s,
                         VkPipelineShaderStageCreateInfo *out)
{
    const VkBaseInStructure *smci_node = NULL;
    size_t before = 0;
    for (const VkBaseInStructure *n = stage->pNext; n != NULL; n = n->pNext) {
        if (n->sType == VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO) {
            smci_node = n;
            break;
        }
        ++before;
    }
    if (smci_node == NULL) return 0;
    const VkShaderModuleCreateInfo *smci =
        (const VkShaderModuleCreateInfo *)(const void *)smci_node;
    for (const VkBaseInStructure *n = stage->pNext; n != smci_node; n = n->pNext) {
        if (known_stage_struct_size(n->sType) == 0) {
            spvbc_layer_log(config(),
                            "spvbc-layer: %s: a chained VkShaderModuleCreateInfo follows structure "
                            "type %d, which this layer cannot copy: module passed on unchecked",
                            api, (int)n->sType);
            return 0;
        }
    }
    uint32_t *code = NULL;
    size_t size = 0;
    if (!spvbc_layer_process(config(), api, smci->pCode, smci->codeSize, &code, &size)) return 0;
    if (scratch_adopt(s, code) == NULL) return 0;
    VkShaderModuleCreateInfo *new_smci = scratch_alloc(s, sizeof *new_smci);
    if (new_smci == NULL) return 0;
    *new_smci = *smci;
    new_smci->pCode = code;
    new_smci->codeSize = size;
    /* Copy the structures in front of it so that the last one points at the copy. */
    const void *head = new_smci;
    if (before > 0) {
        VkBaseOutStructure **copies = scratch_alloc(s, before * sizeof *copies);
        if (copies == NULL) return 0;
        size_t i = 0;
        for (const VkBaseInStructure *n = stage->pNext; n != smci_node; n = n->pNext, ++i) {
            size_t sz = known_stage_struct_size(n->sType);
            copies[i] = scratch_alloc(s, sz);
            if (copies[i] == NULL) return 0;
            memcpy(copies[i], n, sz);
        }
        for (i = 0; i + 1 < before; ++i)
            copies[i]->pNext = copies[i + 1];
        copies[before - 1]->pNext = (VkBaseOutStructure *)(void *)new_smci;
        head = copies[0];
    }
    *out = *stage;
    out->pNext = head;
    return 1;
}

/* A create info the layer may rewrite, on the stack until the caller's array is copied. */
typedef union any_info {
    VkComputePipelineCreateInfo compute;
    VkGraphicsPipelineCreateInfo graphics; /* a stage is part of a compute create info */
    VkShaderCreateInfoEXT shader;
} any_info;

/* Rewrites `in`, an element of a caller's array, into `out` (a copy of it); returns 1 if it did. */
typedef int (*rewrite_fn)(const void *in, void *out, scratch *s);

/* What to pass on for the `count` elements of `size` bytes at `infos`: a copy in `s` with the
 * elements `rewrite` changed, or where none was (or anything failed: s->failed) `infos`. */
static const void *rewrite_infos(scratch *s, const void *infos, uint32_t count, size_t size,
                                 rewrite_fn rewrite)
{
    if (config()->mode == SPVBC_LAYER_MODE_OFF || infos == NULL || count == 0 ||
        size > sizeof(any_info))
        return infos;
    unsigned char *copy = NULL;
    any_info one;
    for (uint32_t i = 0; i < count && !s->failed; ++i) {
        const unsigned char *in = (const unsigned char *)infos + (size_t)i * size;
        memcpy(&one, in, size);
        if (!rewrite(in, &one, s)) continue;
        copy = copy_once(s, copy, infos, (size_t)count * size);
        if (copy == NULL) break;
        memcpy(copy + (size_t)i * size, &one, size);
    }
    return (copy != NULL && !s->failed) ? copy : infos;
}

static int rewrite_compute(const void *in, void *out, scratch *s)
{
    return rewrite_stage(&((const VkComputePipelineCreateInfo *)in)->stage,
                         "vkCreateComputePipelines", s,
                         &((VkComputePipelineCreateInfo *)out)->stage);
}

static int rewrite_graphics_stage(const void *in, void *out, scratch *s)
{
    return rewrite_stage(in, "vkCreateGraphicsPipelines", s, out);
}

static int rewrite_graphics(const void *in, void *out, scratch *s)
{
    const VkGraphicsPipelineCreateInfo *ci = in;
    const VkPipelineShaderStageCreateInfo *stages =
        rewrite_infos(s, ci->pStages, ci->stageCount, sizeof *ci->pStages, rewrite_graphics_stage);
    ((VkGraphicsPipelineCreateInfo *)out)->pStages = stages;
    return stages != ci->pStages;
}

/* vkCreateComputePipelines (`graphics` 0) or vkCreateGraphicsPipelines (1): alike but for the
 * type of their create infos. */
static VkResult create_pipelines(VkDevice device, int graphics, VkPipelineCache cache,
                                 uint32_t count, const void *infos,
                                 const VkAllocationCallbacks *alloc, VkPipeline *pipelines)
{
    device_data d;
    scratch s = {0};
    VkResult r = VK_ERROR_INITIALIZATION_FAILED;
    if (!find_device(key_of(device), &d)) return r;
    if (graphics && d.create_graphics_pipelines != NULL)
        r = d.create_graphics_pipelines(
            device, cache, count,
            rewrite_infos(&s, infos, count, sizeof(VkGraphicsPipelineCreateInfo), rewrite_graphics),
            alloc, pipelines);
    else if (!graphics && d.create_compute_pipelines != NULL)
        r = d.create_compute_pipelines(
            device, cache, count,
            rewrite_infos(&s, infos, count, sizeof(VkComputePipelineCreateInfo), rewrite_compute),
            alloc, pipelines);
    scratch_free(&s);
    return r;
}

/* The two entry points, which differ only in the type of their create infos. */
#define PIPELINES_ENTRY(name, info_type, graphics)                                                 \
    static VKAPI_ATTR VkResult VKAPI_CALL name(                                                    \
        VkDevice device, VkPipelineCache cache, uint32_t count, const info_type *infos,            \
        const VkAllocationCallbacks *alloc, VkPipeline *pipelines)                                 \
    {                                                                                              \
        return create_pipelines(device, graphics, cache, count, infos, alloc, pipelines);          \
    }
PIPELINES_ENTRY(layer_CreateComputePipelines, VkComputePipelineCreateInfo, 0)
PIPELINES_ENTRY(layer_CreateGraphicsPipelines, VkGraphicsPipelineCreateInfo, 1)

/* ---------------------------------------------------------------------------------------- */
/* Shader objects (VK_EXT_shader_object) */

/* Each SPIR-V create info is lowered on its own, as vkCreateShaderModule would: a set of linked
 * stages (VK_SHADER_CREATE_LINK_STAGE_BIT_EXT) stays linked, since only pCode and codeSize of
 * a copy change.  Binary code is passed on untouched. */
static int rewrite_shader(const void *in, void *out, scratch *s)
{
    const VkShaderCreateInfoEXT *ci = in;
    uint32_t *code = NULL;
    size_t size = 0;
    if (ci->codeType != VK_SHADER_CODE_TYPE_SPIRV_EXT ||
        !spvbc_layer_process(config(), "vkCreateShadersEXT", ci->pCode, ci->codeSize, &code,
                             &size) ||
        scratch_adopt(s, code) == NULL)
        return 0;
    ((VkShaderCreateInfoEXT *)out)->pCode = code;
    ((VkShaderCreateInfoEXT *)out)->codeSize = size;
    return 1;
}

static VKAPI_ATTR VkResult VKAPI_CALL layer_CreateShadersEXT(
    VkDevice device, uint32_t createInfoCount, const VkShaderCreateInfoEXT *pCreateInfos,
    const VkAllocationCallbacks *pAllocator, VkShaderEXT *pShaders)
{
    device_data d;
    scratch s = {0};
    VkResult r = VK_ERROR_INITIALIZATION_FAILED;
    if (find_device(key_of(device), &d) && d.create_shaders != NULL)
        r = d.create_shaders(
            device, createInfoCount,
            rewrite_infos(&s, pCreateInfos, createInfoCount, sizeof *pCreateInfos, rewrite_shader),
            pAllocator, pShaders);
    scratch_free(&s);
    return r;
}

/* ---------------------------------------------------------------------------------------- */
/* Proc addresses and negotiation */

static VKAPI_ATTR PFN_vkVoidFunction VKAPI_CALL layer_GetDeviceProcAddr(VkDevice device,
                                                                        const char *pName);

static PFN_vkVoidFunction device_function(const char *name)
{
    if (strcmp(name, "vkGetDeviceProcAddr") == 0)
        return (PFN_vkVoidFunction)layer_GetDeviceProcAddr;
    if (strcmp(name, "vkDestroyDevice") == 0) return (PFN_vkVoidFunction)layer_DestroyDevice;
    if (strcmp(name, "vkCreateShaderModule") == 0)
        return (PFN_vkVoidFunction)layer_CreateShaderModule;
    if (strcmp(name, "vkCreateComputePipelines") == 0)
        return (PFN_vkVoidFunction)layer_CreateComputePipelines;
    if (strcmp(name, "vkCreateGraphicsPipelines") == 0)
        return (PFN_vkVoidFunction)layer_CreateGraphicsPipelines;
    if (strcmp(name, "vkCreateShadersEXT") == 0) return (PFN_vkVoidFunction)layer_CreateShadersEXT;
    return NULL;
}

/* An extension's function is offered only where the layers below offer it (`next` is what they
 * return for the name): an application must see NULL for an extension nobody implements. */
static PFN_vkVoidFunction device_function_if(const char *name, PFN_vkVoidFunction next)
{
    if (strcmp(name, "vkCreateShadersEXT") == 0 && next == NULL) return NULL;
    return device_function(name);
}

static VKAPI_ATTR PFN_vkVoidFunction VKAPI_CALL layer_GetDeviceProcAddr(VkDevice device,
                                                                        const char *pName)
{
    if (pName == NULL || device == VK_NULL_HANDLE) return NULL;
    device_data d;
    if (!find_device(key_of(device), &d) || d.next_gdpa == NULL) return device_function(pName);
    PFN_vkVoidFunction next = d.next_gdpa(device, pName);
    PFN_vkVoidFunction f = device_function_if(pName, next);
    return f != NULL ? f : next;
}

static VKAPI_ATTR PFN_vkVoidFunction VKAPI_CALL layer_GetInstanceProcAddr(VkInstance instance,
                                                                          const char *pName)
{
    if (pName == NULL) return NULL;
    if (strcmp(pName, "vkGetInstanceProcAddr") == 0)
        return (PFN_vkVoidFunction)layer_GetInstanceProcAddr;
    if (strcmp(pName, "vkCreateInstance") == 0) return (PFN_vkVoidFunction)layer_CreateInstance;
    if (strcmp(pName, "vkDestroyInstance") == 0) return (PFN_vkVoidFunction)layer_DestroyInstance;
    if (strcmp(pName, "vkCreateDevice") == 0) return (PFN_vkVoidFunction)layer_CreateDevice;
    instance_data d;
    if (instance == VK_NULL_HANDLE || !find_instance(key_of(instance), &d) || d.next_gipa == NULL)
        return device_function(pName);
    PFN_vkVoidFunction next = d.next_gipa(instance, pName);
    PFN_vkVoidFunction f = device_function_if(pName, next);
    return f != NULL ? f : next;
}

VK_LAYER_EXPORT VKAPI_ATTR VkResult VKAPI_CALL
vkNegotiateLoaderLayerInterfaceVersion(VkNegotiateLayerInterface *pVersionStruct)
{
    if (pVersionStruct == NULL || pVersionStruct->sType != LAYER_NEGOTIATE_INTERFACE_STRUCT)
        return VK_ERROR_INITIALIZATION_FAILED;
    if (pVersionStruct->loaderLayerInterfaceVersion > CURRENT_LOADER_LAYER_INTERFACE_VERSION)
        pVersionStruct->loaderLayerInterfaceVersion = CURRENT_LOADER_LAYER_INTERFACE_VERSION;
    if (pVersionStruct->loaderLayerInterfaceVersion >= 2) {
        pVersionStruct->pfnGetInstanceProcAddr = layer_GetInstanceProcAddr;
        pVersionStruct->pfnGetDeviceProcAddr = layer_GetDeviceProcAddr;
        pVersionStruct->pfnGetPhysicalDeviceProcAddr = NULL;
    }
    return VK_SUCCESS;
}

/* Loaders older than interface version 2 look these names up directly. */
VK_LAYER_EXPORT VKAPI_ATTR PFN_vkVoidFunction VKAPI_CALL vkGetInstanceProcAddr(VkInstance instance,
                                                                               const char *pName)
{
    return layer_GetInstanceProcAddr(instance, pName);
}

VK_LAYER_EXPORT VKAPI_ATTR PFN_vkVoidFunction VKAPI_CALL vkGetDeviceProcAddr(VkDevice device,
                                                                             const char *pName)
{
    return layer_GetDeviceProcAddr(device, pName);
}
