/*
 * spvbc_layer.c - VK_LAYER_SPVBC_bitcast: validates and lowers as_type bitcasts in every SPIR-V
 * module before the driver sees it.
 *
 * Intercepted: vkCreateShaderModule, the VkShaderModuleCreateInfo that
 * VK_EXT_graphics_pipeline_library / VK_KHR_maintenance5 allow to chain into a
 * VkPipelineShaderStageCreateInfo of vkCreateComputePipelines, vkCreateGraphicsPipelines,
 * vkCreateRayTracingPipelinesKHR and vkCreateRayTracingPipelinesNV, and the SPIR-V code of
 * VK_EXT_shader_object's vkCreateShadersEXT (linked or not).  The application's
 * VK_EXT_debug_utils messengers are recorded (vk_messenger.c) and get each module's outcome;
 * the create infos are copied and reported by vk_rewrite.c.  Everything
 * else goes straight to the next layer or driver, among it what cannot be rewritten: shader
 * binaries (VK_SHADER_CODE_TYPE_BINARY_EXT) and stages created from a module identifier
 * (VkPipelineShaderStageModuleIdentifierCreateInfoEXT), which carry no SPIR-V.  What happens to a
 * module is spvbc_layer_decide()'s business (layer_core.h); this file deals with the loader's
 * layer interface (vk_layer.h, "Vulkan Loader Interface: Layers").
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
#include "vk_messenger.h"
#include "vk_rewrite.h"
#include "vk_settings.h"
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
    PFN_vkCreateDebugUtilsMessengerEXT create_messenger; /* NULL without VK_EXT_debug_utils */
    PFN_vkDestroyDebugUtilsMessengerEXT destroy_messenger;
    spvbc_layer_config *cfg; /* its settings (malloc'd, freed with the record; never NULL) */
} instance_data;

typedef struct device_data {
    dispatch_key key;
    dispatch_key instance; /* its instance's key (a physical device's is the instance's) */
    const spvbc_layer_config *cfg; /* its instance's settings, which outlive the device */
    VkDevice device;
    PFN_vkGetDeviceProcAddr next_gdpa;
    PFN_vkDestroyDevice destroy_device;
    PFN_vkCreateShaderModule create_shader_module;
    PFN_vkCreateComputePipelines create_compute_pipelines;
    PFN_vkCreateGraphicsPipelines create_graphics_pipelines;
    PFN_vkCreateShadersEXT create_shaders; /* NULL unless VK_EXT_shader_object is enabled */
    PFN_vkCreateRayTracingPipelinesKHR create_ray_tracing_pipelines; /* likewise */
    PFN_vkCreateRayTracingPipelinesNV create_ray_tracing_pipelines_nv;
} device_data;

/* Instances and devices, each in a map from its dispatch key to a malloc'd record, guarded by
 * g_lock.  The maps grow as needed (an application may keep any number of devices alive), as
 * Mesa's device-select layer keeps its instances in a hash table. */
static pthread_mutex_t g_lock = PTHREAD_MUTEX_INITIALIZER;
static spvbc_layer_map g_instances = SPVBC_LAYER_MAP_INIT;
static spvbc_layer_map g_devices = SPVBC_LAYER_MAP_INIT;
/* The settings of the process's environment: for what happens outside any instance (a record
 * that could not be stored) and for an instance whose own settings could not be allocated. */
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

/* Frees an instance record and the settings it owns (`record` is an instance_data). */
static void free_instance_record(void *record)
{
    instance_data *d = record;
    if (d != NULL && d->cfg != &g_config) free(d->cfg);
    free(d);
}

/* Stores a copy of `entry` (`size` bytes, beginning with its dispatch_key); a stale record under
 * the same key goes to `release`.  Logs (as `what`) and returns 0 if memory for it cannot be
 * had. */
static int table_add(spvbc_layer_map *map, size_t size, const void *entry, const char *what,
                     void (*release)(void *))
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
        if (stored)
            release(old); /* a stale record under a reused key is replaced */
        else
            free(e);
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
    spvbc_layer_map_clear(&g_instances, free_instance_record);
    spvbc_layer_map_clear(&g_devices, free);
    (void)pthread_mutex_unlock(&g_lock);
    spvbc_vkl_messenger_forget(NULL);
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

/* The settings of the instance `info` creates, malloc'd; the environment's (g_config) when
 * memory cannot be had.  A settings problem is logged and never fails the instance. */
static spvbc_layer_config *instance_config(const VkInstanceCreateInfo *info,
                                           const VkAllocationCallbacks *alloc)
{
    spvbc_layer_config *cfg = malloc(sizeof *cfg);
    if (cfg == NULL) {
        spvbc_layer_log(config(), "spvbc-layer: out of memory: this instance uses the "
                                  "environment's settings");
        return &g_config;
    }
    (void)spvbc_vkl_settings_read(info, alloc, cfg); /* logged; cfg is filled either way */
    return cfg;
}

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

    instance_data d = {
        key_of(*pInstance),
        *pInstance,
        next_gipa,
        (PFN_vkDestroyInstance)next_gipa(*pInstance, "vkDestroyInstance"),
        (PFN_vkCreateDebugUtilsMessengerEXT)next_gipa(*pInstance, "vkCreateDebugUtilsMessengerEXT"),
        (PFN_vkDestroyDebugUtilsMessengerEXT)next_gipa(*pInstance,
                                                       "vkDestroyDebugUtilsMessengerEXT"),
        instance_config(pCreateInfo, pAllocator)};
    if (table_add(&g_instances, sizeof d, &d, "instance", free_instance_record))
        spvbc_layer_announce(d.cfg, LAYER_NAME);
    else if (d.cfg != &g_config)
        free(d.cfg);
    return VK_SUCCESS;
}

/* vkDestroyDevice: the record of `handle` (of `record_type`, in `map`)
 * is forgotten, and the next layer's function it kept (its member `destroy`) is called. */
#define DESTROY_ENTRY(name, handle_type, record_type, map, destroy)                                \
    static VKAPI_ATTR void VKAPI_CALL name(handle_type handle, const VkAllocationCallbacks *alloc) \
    {                                                                                              \
        record_type d;                                                                             \
        if (handle != VK_NULL_HANDLE && table_find(&map, sizeof d, key_of(handle), &d, 1) &&       \
            d.destroy != NULL)                                                                     \
            d.destroy(handle, alloc);                                                              \
    }

static VKAPI_ATTR void VKAPI_CALL layer_DestroyInstance(VkInstance instance,
                                                        const VkAllocationCallbacks *alloc)
{
    instance_data d;
    if (instance == VK_NULL_HANDLE) return;
    spvbc_vkl_messenger_forget(key_of(instance));
    if (!table_find(&g_instances, sizeof d, key_of(instance), &d, 1)) return;
    if (d.destroy_instance != NULL) d.destroy_instance(instance, alloc);
    if (d.cfg != &g_config) free(d.cfg);
}

/* The application's debug messengers: recorded, so that the layer's findings reach them. */
static VKAPI_ATTR VkResult VKAPI_CALL layer_CreateDebugUtilsMessengerEXT(
    VkInstance instance, const VkDebugUtilsMessengerCreateInfoEXT *pCreateInfo,
    const VkAllocationCallbacks *pAllocator, VkDebugUtilsMessengerEXT *pMessenger)
{
    instance_data d;
    if (!find_instance(key_of(instance), &d) || d.create_messenger == NULL)
        return VK_ERROR_INITIALIZATION_FAILED;
    VkResult r = d.create_messenger(instance, pCreateInfo, pAllocator, pMessenger);
    if (r == VK_SUCCESS && !spvbc_vkl_messenger_add(key_of(instance), *pMessenger, pCreateInfo))
        spvbc_layer_log(d.cfg, "spvbc-layer: out of memory: this messenger gets nothing from "
                               "the layer");
    return r;
}

static VKAPI_ATTR void VKAPI_CALL
layer_DestroyDebugUtilsMessengerEXT(VkInstance instance, VkDebugUtilsMessengerEXT messenger,
                                    const VkAllocationCallbacks *pAllocator)
{
    instance_data d;
    if (instance == VK_NULL_HANDLE || !find_instance(key_of(instance), &d)) return;
    spvbc_vkl_messenger_remove(key_of(instance), messenger);
    if (d.destroy_messenger != NULL) d.destroy_messenger(instance, messenger, pAllocator);
}

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
    instance_data inst;
    device_data d = {
        key_of(dev),
        key_of(physicalDevice),
        find_instance(key_of(physicalDevice), &inst) ? inst.cfg : config(),
        dev,
        next_gdpa,
        (PFN_vkDestroyDevice)next_gdpa(dev, "vkDestroyDevice"),
        (PFN_vkCreateShaderModule)next_gdpa(dev, "vkCreateShaderModule"),
        (PFN_vkCreateComputePipelines)next_gdpa(dev, "vkCreateComputePipelines"),
        (PFN_vkCreateGraphicsPipelines)next_gdpa(dev, "vkCreateGraphicsPipelines"),
        (PFN_vkCreateShadersEXT)next_gdpa(dev, "vkCreateShadersEXT"),
        (PFN_vkCreateRayTracingPipelinesKHR)next_gdpa(dev, "vkCreateRayTracingPipelinesKHR"),
        (PFN_vkCreateRayTracingPipelinesNV)next_gdpa(dev, "vkCreateRayTracingPipelinesNV")};
    if (!table_add(&g_devices, sizeof d, &d, "device", free)) {
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
    if (pCreateInfo == NULL || d.cfg->mode == SPVBC_LAYER_MODE_OFF)
        return d.create_shader_module(device, pCreateInfo, pAllocator, pShaderModule);
    uint32_t *code = NULL;
    size_t size = 0;
    spvbc_layer_outcome o;
    VkResult r;
    if (spvbc_layer_decide(d.cfg, pCreateInfo->pCode, pCreateInfo->codeSize, &o, &code, &size)) {
        VkShaderModuleCreateInfo copy = *pCreateInfo;
        copy.pCode = code;
        copy.codeSize = size;
        r = d.create_shader_module(device, &copy, pAllocator, pShaderModule);
        free(code);
    } else {
        r = d.create_shader_module(device, pCreateInfo, pAllocator, pShaderModule);
    }
    /* Reported after the driver's answer, naming the module it made. */
    uint64_t handle = 0;
    if (r == VK_SUCCESS && pShaderModule != NULL)
        memcpy(&handle, pShaderModule, sizeof *pShaderModule);
    spvbc_vkl_report(d.cfg, d.instance, "vkCreateShaderModule", pCreateInfo->pCode,
                     pCreateInfo->codeSize, &o, VK_OBJECT_TYPE_SHADER_MODULE, handle);
    return r;
}

/* vkCreateComputePipelines (`graphics` 0) or vkCreateGraphicsPipelines (1): alike but for the
 * type of their create infos. */
static VkResult create_pipelines(VkDevice device, int graphics, VkPipelineCache cache,
                                 uint32_t count, const void *infos,
                                 const VkAllocationCallbacks *alloc, VkPipeline *pipelines)
{
    device_data d;
    VkResult r = VK_ERROR_INITIALIZATION_FAILED;
    if (!find_device(key_of(device), &d)) return r;
    spvbc_vkl_scratch s = SPVBC_VKL_SCRATCH_INIT(d.cfg, d.instance);
    if (graphics && d.create_graphics_pipelines != NULL)
        r = d.create_graphics_pipelines(
            device, cache, count,
            spvbc_vkl_rewrite_infos(&s, infos, count, sizeof(VkGraphicsPipelineCreateInfo),
                                    spvbc_vkl_rewrite_graphics),
            alloc, pipelines);
    else if (!graphics && d.create_compute_pipelines != NULL)
        r = d.create_compute_pipelines(device, cache, count,
                                       spvbc_vkl_rewrite_infos(&s, infos, count,
                                                               sizeof(VkComputePipelineCreateInfo),
                                                               spvbc_vkl_rewrite_compute),
                                       alloc, pipelines);
    spvbc_vkl_scratch_finish(&s, VK_OBJECT_TYPE_PIPELINE, pipelines, count);
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

/* Ray tracing (VK_KHR_ray_tracing_pipeline): a stage's chained VkShaderModuleCreateInfo is
 * lowered as a compute or graphics stage's is.  With a deferred operation the driver may read
 * the create infos after the call returns, when the layer's copies are gone: where the layer
 * changed a module, the call is made without deferral, and its success is the one the
 * specification gives for a deferral requested and not made, VK_OPERATION_NOT_DEFERRED_KHR. */
static VKAPI_ATTR VkResult VKAPI_CALL layer_CreateRayTracingPipelinesKHR(
    VkDevice device, VkDeferredOperationKHR deferredOperation, VkPipelineCache pipelineCache,
    uint32_t count, const VkRayTracingPipelineCreateInfoKHR *infos,
    const VkAllocationCallbacks *alloc, VkPipeline *pipelines)
{
    device_data d;
    if (!find_device(key_of(device), &d) || d.create_ray_tracing_pipelines == NULL)
        return VK_ERROR_INITIALIZATION_FAILED;
    spvbc_vkl_scratch s = SPVBC_VKL_SCRATCH_INIT(d.cfg, d.instance);
    const VkRayTracingPipelineCreateInfoKHR *passed =
        spvbc_vkl_rewrite_infos(&s, infos, count, sizeof *infos, spvbc_vkl_rewrite_ray_tracing);
    const int undeferred = passed != infos && deferredOperation != VK_NULL_HANDLE;
    VkResult r =
        d.create_ray_tracing_pipelines(device, undeferred ? VK_NULL_HANDLE : deferredOperation,
                                       pipelineCache, count, passed, alloc, pipelines);
    if (undeferred && r == VK_SUCCESS) r = VK_OPERATION_NOT_DEFERRED_KHR;
    spvbc_vkl_scratch_finish(&s, VK_OBJECT_TYPE_PIPELINE, pipelines, count);
    return r;
}

/* VK_NV_ray_tracing's pipelines: their stages as the KHR ones (no deferred operation). */
static VKAPI_ATTR VkResult VKAPI_CALL
layer_CreateRayTracingPipelinesNV(VkDevice device, VkPipelineCache pipelineCache, uint32_t count,
                                  const VkRayTracingPipelineCreateInfoNV *infos,
                                  const VkAllocationCallbacks *alloc, VkPipeline *pipelines)
{
    device_data d;
    if (!find_device(key_of(device), &d) || d.create_ray_tracing_pipelines_nv == NULL)
        return VK_ERROR_INITIALIZATION_FAILED;
    spvbc_vkl_scratch s = SPVBC_VKL_SCRATCH_INIT(d.cfg, d.instance);
    VkResult r = d.create_ray_tracing_pipelines_nv(
        device, pipelineCache, count,
        spvbc_vkl_rewrite_infos(&s, infos, count, sizeof *infos, spvbc_vkl_rewrite_ray_tracing_nv),
        alloc, pipelines);
    spvbc_vkl_scratch_finish(&s, VK_OBJECT_TYPE_PIPELINE, pipelines, count);
    return r;
}

/* ---------------------------------------------------------------------------------------- */
/* Shader objects (VK_EXT_shader_object) */

static VKAPI_ATTR VkResult VKAPI_CALL layer_CreateShadersEXT(
    VkDevice device, uint32_t createInfoCount, const VkShaderCreateInfoEXT *pCreateInfos,
    const VkAllocationCallbacks *pAllocator, VkShaderEXT *pShaders)
{
    device_data d;
    VkResult r = VK_ERROR_INITIALIZATION_FAILED;
    if (!find_device(key_of(device), &d) || d.create_shaders == NULL) return r;
    spvbc_vkl_scratch s = SPVBC_VKL_SCRATCH_INIT(d.cfg, d.instance);
    r = d.create_shaders(device, createInfoCount,
                         spvbc_vkl_rewrite_infos(&s, pCreateInfos, createInfoCount,
                                                 sizeof *pCreateInfos, spvbc_vkl_rewrite_shader),
                         pAllocator, pShaders);
    spvbc_vkl_scratch_finish(&s, VK_OBJECT_TYPE_SHADER_EXT, pShaders, createInfoCount);
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
    if (strcmp(name, "vkCreateRayTracingPipelinesKHR") == 0)
        return (PFN_vkVoidFunction)layer_CreateRayTracingPipelinesKHR;
    if (strcmp(name, "vkCreateRayTracingPipelinesNV") == 0)
        return (PFN_vkVoidFunction)layer_CreateRayTracingPipelinesNV;
    return NULL;
}

/* An extension's function is offered only where the layers below offer it (`next` is what they
 * return for the name): an application must see NULL for an extension nobody implements. */
static PFN_vkVoidFunction device_function_if(const char *name, PFN_vkVoidFunction next)
{
    if (next == NULL && (strcmp(name, "vkCreateShadersEXT") == 0 ||
                         strncmp(name, "vkCreateRayTracingPipelines", 27) == 0))
        return NULL;
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
    if (next != NULL && strcmp(pName, "vkCreateDebugUtilsMessengerEXT") == 0)
        return (PFN_vkVoidFunction)layer_CreateDebugUtilsMessengerEXT;
    if (next != NULL && strcmp(pName, "vkDestroyDebugUtilsMessengerEXT") == 0)
        return (PFN_vkVoidFunction)layer_DestroyDebugUtilsMessengerEXT;
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
