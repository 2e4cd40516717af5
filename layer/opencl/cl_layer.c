/*
 * cl_layer.c - CL_LAYER_SPVBC_bitcast: an OpenCL ICD loader layer (cl_loader_layers,
 * CL_LAYER_API_VERSION_100) that validates and lowers as_type bitcasts in every SPIR-V program
 * before the driver sees it.
 *
 * Intercepted: clCreateProgramWithIL and clCreateProgramWithILKHR (which applications get from
 * clGetExtensionFunctionAddressForPlatform or clGetExtensionFunctionAddress: the layer hands out
 * its own entry point wherever the layers below offer one).  What happens to a module is
 * spvbc_layer_process()'s business (layer_core.h), so the switches and the log are the Vulkan
 * layer's.  Every other call goes straight to the next layer or the driver.
 *
 * What the application reads back stays its own: clGetProgramInfo(CL_PROGRAM_IL) of a program
 * whose module was lowered returns the application's words (the layer keeps a copy), not the
 * lowered ones.  When that copy is freed is cl_lifetime.c's business: by the driver's release
 * callback, or by the layer's own count of the program's references.
 *
 * The end of the layer: where the loader initializes it with clInitLayerWithProperties and
 * CL_LAYER_DEINITIALIZATION_FUNCTION (the Khronos loader's layer interface beyond version 1.0),
 * the loader calls clDeinitLayer; otherwise (clInitLayer, as Debian's ocl-icd calls it) the
 * layer ends at exit (atexit, the Khronos interface's other way).  No destructor is relied on.
 *
 * The layer never makes a call fail that would succeed without it: if the driver refuses the
 * lowered module at creation, or the layer cannot keep its copy, the application's own words
 * are passed on instead.
 *
 * SPDX-License-Identifier: Apache-2.0
 */
#include "cl_target.h" /* before any other OpenCL header */

#include <CL/cl_layer.h>
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "cl_lifetime.h"
#include "layer_core.h"
#include "layer_map.h"

/* The layer interface's properties, where the headers predate them (Debian 12's
 * opencl-c-headers 3.0~2023.02.06): the values of the Khronos ICD loader. */
#if !defined(CL_LAYER_PROPERTIES_LIST_END)
typedef intptr_t cl_layer_properties;
#define CL_LAYER_PROPERTIES_LIST_END ((cl_layer_properties)0)
#endif
#if !defined(CL_LAYER_DEINITIALIZATION)
#define CL_LAYER_DEINITIALIZATION 0x4242
#define CL_LAYER_DEINITIALIZATION_ATEXIT 0x4243
#define CL_LAYER_DEINITIALIZATION_FUNCTION 0x4244
#endif

#define LAYER_NAME "CL_LAYER_SPVBC_bitcast"

#if defined(__GNUC__)
#define LAYER_EXPORT __attribute__((visibility("default")))
#else
#define LAYER_EXPORT
#endif

/* The dispatch of the layers below (the loader's or the next layer's), and ours. */
static const cl_icd_dispatch *g_next;
static cl_icd_dispatch g_dispatch;
static spvbc_layer_config g_config;

/* g_lock guards the map of clCreateProgramWithILKHR entries. */
static pthread_mutex_t g_lock = PTHREAD_MUTEX_INITIALIZER;
static spvbc_layer_map g_khr_entry = SPVBC_LAYER_MAP_INIT; /* cl_platform_id -> khr_entry */

/* clCreateProgramWithILKHR as the layers below hand it out for one platform. */
typedef struct khr_entry {
    clCreateProgramWithILKHR_fn fn;
} khr_entry;
/* The one returned by clGetExtensionFunctionAddress (no platform), or by the last platform. */
static clCreateProgramWithILKHR_fn g_khr_any;

/* ---------------------------------------------------------------------------------------- */
/* Program creation */

/* The program `create` makes of the `size` lowered bytes at `code`, keeping the application's
 * `length` bytes at `il` for CL_PROGRAM_IL; where the driver refuses it, the program made of
 * the application's words instead (what the driver did goes into `o`).  NULL with the driver's
 * answer in `*err` when it refuses both. */
static cl_program create_lowered(clCreateProgramWithILKHR_fn create, const char *api,
                                 cl_context context, const void *il, size_t length,
                                 const uint32_t *code, size_t size, spvbc_layer_outcome *o,
                                 cl_int *err)
{
    spvbc_cl_record *rec = spvbc_cl_record_new(il, length);
    if (rec == NULL) {
        spvbc_layer_log(&g_config,
                        "spvbc-layer: %s: out of memory: the application's words "
                        "passed on instead",
                        api);
        return create(context, il, length, err);
    }
    cl_program program = create(context, code, size, err);
    if (program != NULL && spvbc_cl_record_keep(program, rec)) return program;
    if (program != NULL) { /* released, and `rec` freed, by spvbc_cl_record_keep */
        spvbc_layer_log(&g_config,
                        "spvbc-layer: %s: out of memory: the application's words "
                        "passed on instead",
                        api);
        return create(context, il, length, err);
    }
    spvbc_cl_record_free(rec);
    /* The application's words instead: the driver's answer to them is the call's.  Only when
     * the driver takes those was it the lowered module it refused; otherwise it refused the
     * call for its own reasons (a NULL context, say), whatever the module. */
    o->driver_code = (int)*err;
    program = create(context, il, length, err);
    o->driver =
        program != NULL ? SPVBC_LAYER_DRIVER_REFUSED_LOWERED : SPVBC_LAYER_DRIVER_REFUSED_CALL;
    o->driver_code_again = (int)*err;
    o->say = !g_config.log_off;
    return program;
}

/* The program made by `create` from the lowered module when there is one (keeping the
 * application's `length` bytes at `il` for CL_PROGRAM_IL), else from `il` itself; the outcome,
 * with what the driver did, is logged after the driver's answer. */
static cl_program create_program(clCreateProgramWithILKHR_fn create, const char *api,
                                 cl_context context, const void *il, size_t length,
                                 cl_int *errcode_ret)
{
    uint32_t *code = NULL;
    size_t size = 0;
    if (create == NULL) {
        if (errcode_ret != NULL) *errcode_ret = CL_INVALID_OPERATION;
        return NULL;
    }
    spvbc_layer_outcome o;
    cl_int err = CL_SUCCESS;
    cl_program program;
    if (spvbc_layer_decide(&g_config, il, length, &o, &code, &size)) {
        program = create_lowered(create, api, context, il, length, code, size, &o, &err);
        free(code);
    } else {
        program = create(context, il, length, &err);
    }
    spvbc_layer_log_outcome(&g_config, api, il, length, &o);
    if (errcode_ret != NULL) *errcode_ret = err;
    return program;
}

static CL_API_ENTRY cl_program CL_API_CALL layer_CreateProgramWithIL(cl_context context,
                                                                     const void *il, size_t length,
                                                                     cl_int *errcode_ret)
{
    return create_program(g_next->clCreateProgramWithIL, "clCreateProgramWithIL", context, il,
                          length, errcode_ret);
}

/* The platform of `context` (through its first device), or NULL. */
static cl_platform_id platform_of(cl_context context)
{
    cl_device_id dev = NULL;
    cl_platform_id platform = NULL;
    if (g_next->clGetContextInfo == NULL || g_next->clGetDeviceInfo == NULL ||
        g_next->clGetContextInfo(context, CL_CONTEXT_DEVICES, sizeof dev, &dev, NULL) !=
            CL_SUCCESS ||
        dev == NULL)
        return NULL;
    if (g_next->clGetDeviceInfo(dev, CL_DEVICE_PLATFORM, sizeof platform, &platform, NULL) !=
        CL_SUCCESS)
        return NULL;
    return platform;
}

static CL_API_ENTRY cl_program CL_API_CALL layer_CreateProgramWithILKHR(cl_context context,
                                                                        const void *il,
                                                                        size_t length,
                                                                        cl_int *errcode_ret)
{
    cl_platform_id platform = platform_of(context);
    (void)pthread_mutex_lock(&g_lock);
    const khr_entry *e = platform != NULL ? spvbc_layer_map_get(&g_khr_entry, platform) : NULL;
    clCreateProgramWithILKHR_fn fn = e != NULL ? e->fn : g_khr_any;
    (void)pthread_mutex_unlock(&g_lock);
    return create_program(fn, "clCreateProgramWithILKHR", context, il, length, errcode_ret);
}

/* Hands out the layer's clCreateProgramWithILKHR for `name` where the layers below offer
 * `next` (remembered for `platform`, or for any platform); any other `next` unchanged. */
static void *extension_function(cl_platform_id platform, const char *name, void *next)
{
    if (next == NULL || name == NULL || strcmp(name, "clCreateProgramWithILKHR") != 0) return next;
    clCreateProgramWithILKHR_fn fn;
    memcpy(&fn, &next, sizeof fn); /* the API returns functions as void * */
    khr_entry *e = NULL;
    if (platform != NULL && (e = malloc(sizeof *e)) != NULL) e->fn = fn;
    (void)pthread_mutex_lock(&g_lock);
    g_khr_any = fn;
    if (e != NULL) {
        khr_entry *old = spvbc_layer_map_get(&g_khr_entry, platform);
        if (spvbc_layer_map_put(&g_khr_entry, platform, e)) {
            free(old);
            e = NULL;
        }
    }
    (void)pthread_mutex_unlock(&g_lock);
    free(e);
    clCreateProgramWithILKHR_fn ours = layer_CreateProgramWithILKHR;
    void *out;
    memcpy(&out, &ours, sizeof out);
    return out;
}

static CL_API_ENTRY void *CL_API_CALL
layer_GetExtensionFunctionAddressForPlatform(cl_platform_id platform, const char *func_name)
{
    void *next = g_next->clGetExtensionFunctionAddressForPlatform != NULL
                     ? g_next->clGetExtensionFunctionAddressForPlatform(platform, func_name)
                     : NULL;
    return extension_function(platform, func_name, next);
}

static CL_API_ENTRY void *CL_API_CALL layer_GetExtensionFunctionAddress(const char *func_name)
{
    void *next = g_next->clGetExtensionFunctionAddress != NULL
                     ? g_next->clGetExtensionFunctionAddress(func_name)
                     : NULL;
    return extension_function(NULL, func_name, next);
}

/* ---------------------------------------------------------------------------------------- */
/* The loader's layer interface */

LAYER_EXPORT CL_API_ENTRY cl_int CL_API_CALL clGetLayerInfo(cl_layer_info param_name,
                                                            size_t param_value_size,
                                                            void *param_value,
                                                            size_t *param_value_size_ret)
{
    static const cl_layer_api_version version = CL_LAYER_API_VERSION_100;
    static const char name[] = LAYER_NAME;
    const void *src;
    size_t size;
    switch (param_name) {
    case CL_LAYER_API_VERSION:
        src = &version;
        size = sizeof version;
        break;
    case CL_LAYER_NAME:
        src = name;
        size = sizeof name;
        break;
    default: return CL_INVALID_VALUE;
    }
    if ((param_value == NULL && param_value_size_ret == NULL) ||
        (param_value != NULL && param_value_size < size))
        return CL_INVALID_VALUE;
    if (param_value != NULL) memcpy(param_value, src, size);
    if (param_value_size_ret != NULL) *param_value_size_ret = size;
    return CL_SUCCESS;
}

/* The entries of a dispatch table up to and including `member`. */
#define ENTRIES_THROUGH(member)                                                                    \
    ((offsetof(cl_icd_dispatch, member) + sizeof(void *)) / sizeof(void *))

/* `ours` in `member` of the layer's table where the layers below offer that entry. */
#define INTERCEPT(member, ours)                                                                    \
    do {                                                                                           \
        if (g_dispatch.member != NULL) g_dispatch.member = ours;                                   \
    } while (0)

/* Everything passes through to the next table, except what the layer intercepts. */
static void fill_dispatch(cl_uint num_entries, const cl_icd_dispatch *target_dispatch)
{
    const size_t ours = sizeof g_dispatch / sizeof(void *);
    memset(&g_dispatch, 0, sizeof g_dispatch);
    memcpy(&g_dispatch, target_dispatch,
           (num_entries < ours ? num_entries : ours) * sizeof(void *));
    if (g_config.mode == SPVBC_LAYER_MODE_OFF) return;
    INTERCEPT(clCreateProgramWithIL, layer_CreateProgramWithIL);
    INTERCEPT(clGetExtensionFunctionAddressForPlatform,
              layer_GetExtensionFunctionAddressForPlatform);
    INTERCEPT(clGetExtensionFunctionAddress, layer_GetExtensionFunctionAddress);
    INTERCEPT(clGetProgramInfo, spvbc_cl_GetProgramInfo);
    INTERCEPT(clRetainProgram, spvbc_cl_RetainProgram);
    INTERCEPT(clReleaseProgram, spvbc_cl_ReleaseProgram);
    INTERCEPT(clCreateKernel, spvbc_cl_CreateKernel);
    INTERCEPT(clCreateKernelsInProgram, spvbc_cl_CreateKernelsInProgram);
    INTERCEPT(clCloneKernel, spvbc_cl_CloneKernel);
    INTERCEPT(clRetainKernel, spvbc_cl_RetainKernel);
    INTERCEPT(clReleaseKernel, spvbc_cl_ReleaseKernel);
}

/* Reads `properties` (a CL_LAYER_PROPERTIES_LIST_END-terminated list, or NULL) into
 * `*by_function` (whether the loader will call clDeinitLayer); CL_INVALID_PROPERTY for anything
 * else. */
static cl_int read_properties(const cl_layer_properties *properties, int *by_function)
{
    *by_function = 0;
    int seen = 0;
    for (const cl_layer_properties *p = properties; p != NULL && *p != CL_LAYER_PROPERTIES_LIST_END;
         p += 2) {
        if (*p != CL_LAYER_DEINITIALIZATION || seen) return CL_INVALID_PROPERTY;
        seen = 1;
        if (p[1] == CL_LAYER_DEINITIALIZATION_FUNCTION)
            *by_function = 1;
        else if (p[1] != CL_LAYER_DEINITIALIZATION_ATEXIT)
            return CL_INVALID_PROPERTY;
    }
    return CL_SUCCESS;
}

/* The end of the layer: says if the application left programs unreleased whose words the layer
 * still kept, then frees everything it holds. */
static void end_layer(void)
{
    size_t kept = spvbc_cl_lifetime_end();
    (void)pthread_mutex_lock(&g_lock);
    spvbc_layer_map_clear(&g_khr_entry, free);
    g_khr_any = NULL;
    (void)pthread_mutex_unlock(&g_lock);
    if (kept != 0 && g_next != NULL)
        spvbc_layer_log(&g_config,
                        "spvbc-layer: " LAYER_NAME " unloaded with %zu lowered program%s never "
                        "released: their words freed now",
                        kept, kept == 1 ? "" : "s");
    spvbc_layer_shutdown();
}

static pthread_once_t g_atexit_once = PTHREAD_ONCE_INIT;

static void end_at_exit(void)
{
    (void)atexit(end_layer);
}

/* clInitLayer and clInitLayerWithProperties: `by_function` says whether the loader ends the
 * layer with clDeinitLayer (else it ends at exit). */
static cl_int init_layer(cl_uint num_entries, const cl_icd_dispatch *target_dispatch,
                         cl_uint *num_entries_ret, const cl_icd_dispatch **layer_dispatch_ret,
                         int by_function)
{
    /* clSetProgramReleaseCallback is the last entry this layer needs. */
    if (target_dispatch == NULL || num_entries_ret == NULL || layer_dispatch_ret == NULL ||
        num_entries < ENTRIES_THROUGH(clSetProgramReleaseCallback))
        return CL_INVALID_VALUE;
    g_next = target_dispatch;
    spvbc_cl_lifetime_start(target_dispatch);
    spvbc_layer_config_from_env(&g_config);
    /* OpenCL modules are Kernel modules, where OpSpecConstantOp Bitcast exists: judge them by
     * current SPIRV-Tools' rules, so that a spec-constant size mismatch as_type allows is lowered
     * (layer_settings.h). */
    g_config.validate_flags = SPVBC_VALIDATE_STRICT;
    fill_dispatch(num_entries, target_dispatch);
    if (!by_function) (void)pthread_once(&g_atexit_once, end_at_exit);
    spvbc_layer_announce(&g_config, LAYER_NAME);
    *layer_dispatch_ret = &g_dispatch;
    *num_entries_ret = (cl_uint)(sizeof g_dispatch / sizeof(void *));
    return CL_SUCCESS;
}

LAYER_EXPORT CL_API_ENTRY cl_int CL_API_CALL clInitLayer(cl_uint num_entries,
                                                         const cl_icd_dispatch *target_dispatch,
                                                         cl_uint *num_entries_ret,
                                                         const cl_icd_dispatch **layer_dispatch_ret)
{
    return init_layer(num_entries, target_dispatch, num_entries_ret, layer_dispatch_ret, 0);
}

LAYER_EXPORT CL_API_ENTRY cl_int CL_API_CALL clInitLayerWithProperties(
    cl_uint num_entries, const cl_icd_dispatch *target_dispatch, cl_uint *num_entries_ret,
    const cl_icd_dispatch **layer_dispatch_ret, const cl_layer_properties *properties)
{
    int by_function = 0;
    cl_int r = read_properties(properties, &by_function);
    if (r != CL_SUCCESS) return r;
    return init_layer(num_entries, target_dispatch, num_entries_ret, layer_dispatch_ret,
                      by_function);
}

LAYER_EXPORT CL_API_ENTRY cl_int CL_API_CALL clDeinitLayer(void)
{
    end_layer();
    return CL_SUCCESS;
}
