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
 * lowered ones.  That copy is freed when the program is destroyed: through
 * clSetProgramReleaseCallback where the driver supports it, and otherwise when
 * clReleaseProgram or clReleaseKernel drops the last reference (CL_PROGRAM_REFERENCE_COUNT and
 * CL_KERNEL_REFERENCE_COUNT read just before, under a lock, since kernels hold references to
 * their program).
 *
 * The layer never makes a call fail that would succeed without it: if the driver refuses the
 * lowered module at creation, or the layer cannot keep its copy, the application's own words
 * are passed on instead.
 *
 * SPDX-License-Identifier: Apache-2.0
 */
#define _XOPEN_SOURCE 700 /* PTHREAD_MUTEX_RECURSIVE */
#include "cl_target.h" /* before any other OpenCL header */

#include <CL/cl_layer.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "layer_core.h"
#include "layer_map.h"

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

/* What the layer keeps for a program whose module it lowered: the application's words. */
typedef struct program_record {
    int by_callback; /* freed by the driver's release callback (else at the last release) */
    size_t size;
    unsigned char il[];
} program_record;

/* g_lock guards the maps.  g_release_lock (recursive: a release callback may release other
 * objects on the same thread) makes "read the reference count, then release" one step, so two
 * threads dropping the last two references cannot both see a count of 2. */
static pthread_mutex_t g_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_mutex_t g_release_lock;
static pthread_once_t g_release_lock_once = PTHREAD_ONCE_INIT;
static spvbc_layer_map g_programs = SPVBC_LAYER_MAP_INIT; /* cl_program -> program_record */
static spvbc_layer_map g_khr_entry = SPVBC_LAYER_MAP_INIT; /* cl_platform_id -> khr_entry */

/* clCreateProgramWithILKHR as the layers below hand it out for one platform. */
typedef struct khr_entry {
    clCreateProgramWithILKHR_fn fn;
} khr_entry;
/* The one returned by clGetExtensionFunctionAddress (no platform), or by the last platform. */
static clCreateProgramWithILKHR_fn g_khr_any;

static void init_release_lock(void)
{
    pthread_mutexattr_t a;
    (void)pthread_mutexattr_init(&a);
    (void)pthread_mutexattr_settype(&a, PTHREAD_MUTEX_RECURSIVE);
    (void)pthread_mutex_init(&g_release_lock, &a);
    (void)pthread_mutexattr_destroy(&a);
}

static void release_lock(void)
{
    (void)pthread_once(&g_release_lock_once, init_release_lock);
    (void)pthread_mutex_lock(&g_release_lock);
}

static void release_unlock(void)
{
    (void)pthread_mutex_unlock(&g_release_lock);
}

/* Removes and frees the record of `program`, once the driver has destroyed it. */
static void forget_program(cl_program program)
{
    (void)pthread_mutex_lock(&g_lock);
    program_record *rec = spvbc_layer_map_take(&g_programs, program);
    (void)pthread_mutex_unlock(&g_lock);
    free(rec);
}

/* ---------------------------------------------------------------------------------------- */
/* Program creation */

/* Set at unload, when every record has been freed: a driver destroying a program later (at
 * its own exit) must not free its record again. */
static int g_unloaded;

static void CL_CALLBACK program_released(cl_program program, void *user_data)
{
    const program_record *rec = user_data;
    (void)pthread_mutex_lock(&g_lock);
    int unloaded = g_unloaded;
    if (!unloaded && spvbc_layer_map_get(&g_programs, program) == rec)
        (void)spvbc_layer_map_take(&g_programs, program);
    (void)pthread_mutex_unlock(&g_lock);
    /* Not in the map: the handle was reused and its record replaced; this one is still ours. */
    if (!unloaded) free(user_data);
}

/* Keeps `rec` for `program` (the driver's, made from the lowered module); returns 0, having
 * released the program, when the layer cannot keep it. */
static int keep_record(cl_program program, program_record *rec)
{
    (void)pthread_mutex_lock(&g_lock);
    /* A record already under this handle belongs to a destroyed program whose end the layer
     * missed (a driver that does not count its kernels' references); one waiting for its
     * release callback frees itself. */
    program_record *stale = spvbc_layer_map_get(&g_programs, program);
    int kept = spvbc_layer_map_put(&g_programs, program, rec);
    if (!kept || (stale != NULL && stale->by_callback)) stale = NULL;
    (void)pthread_mutex_unlock(&g_lock);
    free(stale);
    if (!kept) {
        if (g_next->clReleaseProgram != NULL) (void)g_next->clReleaseProgram(program);
        return 0;
    }
    /* clSetProgramReleaseCallback is deprecated in OpenCL 3.0 and many drivers refuse it
     * (CL_INVALID_OPERATION); the release wrappers below cover those. */
    int by_callback =
        g_next->clSetProgramReleaseCallback != NULL &&
        g_next->clSetProgramReleaseCallback(program, program_released, rec) == CL_SUCCESS;
    (void)pthread_mutex_lock(&g_lock);
    rec->by_callback = by_callback;
    (void)pthread_mutex_unlock(&g_lock);
    return 1;
}

/* The program `create` makes of the `size` lowered bytes at `code`, keeping the application's
 * `length` bytes at `il` for CL_PROGRAM_IL; where the driver refuses it, the program made of
 * the application's words instead (what the driver did goes into `o`).  NULL with the driver's
 * answer in `*err` when it refuses both. */
static cl_program create_lowered(clCreateProgramWithILKHR_fn create, const char *api,
                                 cl_context context, const void *il, size_t length,
                                 const uint32_t *code, size_t size, spvbc_layer_outcome *o,
                                 cl_int *err)
{
    program_record *rec = malloc(sizeof *rec + length);
    if (rec == NULL) {
        spvbc_layer_log(&g_config,
                        "spvbc-layer: %s: out of memory: the application's words "
                        "passed on instead",
                        api);
        return create(context, il, length, err);
    }
    rec->by_callback = 0;
    rec->size = length;
    memcpy(rec->il, il, length);
    cl_program program = create(context, code, size, err);
    if (program != NULL && keep_record(program, rec)) return program;
    free(rec);
    if (program != NULL) { /* released by keep_record */
        spvbc_layer_log(&g_config,
                        "spvbc-layer: %s: out of memory: the application's words "
                        "passed on instead",
                        api);
        return create(context, il, length, err);
    }
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
/* What the application reads back, and releases */

static CL_API_ENTRY cl_int CL_API_CALL layer_GetProgramInfo(cl_program program,
                                                            cl_program_info param_name,
                                                            size_t param_value_size,
                                                            void *param_value,
                                                            size_t *param_value_size_ret)
{
    if (param_name == CL_PROGRAM_IL) {
        cl_int r = CL_SUCCESS;
        (void)pthread_mutex_lock(&g_lock);
        const program_record *rec = spvbc_layer_map_get(&g_programs, program);
        if (rec != NULL) {
            if (param_value != NULL && param_value_size < rec->size) {
                r = CL_INVALID_VALUE;
            } else {
                if (param_value != NULL) memcpy(param_value, rec->il, rec->size);
                if (param_value_size_ret != NULL) *param_value_size_ret = rec->size;
            }
        }
        (void)pthread_mutex_unlock(&g_lock);
        if (rec != NULL) return r;
    }
    return g_next->clGetProgramInfo(program, param_name, param_value_size, param_value,
                                    param_value_size_ret);
}

/* 1 if `program` has a record that the release wrappers must free (no release callback). */
static int tracked_without_callback(cl_program program)
{
    (void)pthread_mutex_lock(&g_lock);
    const program_record *rec = spvbc_layer_map_get(&g_programs, program);
    int tracked = rec != NULL && !rec->by_callback;
    (void)pthread_mutex_unlock(&g_lock);
    return tracked;
}

/* The reference count of `program` (0 if it cannot be read). */
static cl_uint program_refs(cl_program program)
{
    cl_uint n = 0;
    if (g_next->clGetProgramInfo(program, CL_PROGRAM_REFERENCE_COUNT, sizeof n, &n, NULL) !=
        CL_SUCCESS)
        return 0;
    return n;
}

static CL_API_ENTRY cl_int CL_API_CALL layer_ReleaseProgram(cl_program program)
{
    if (!tracked_without_callback(program)) return g_next->clReleaseProgram(program);
    release_lock();
    cl_uint refs = program_refs(program);
    cl_int r = g_next->clReleaseProgram(program);
    if (r == CL_SUCCESS && refs == 1) forget_program(program);
    release_unlock();
    return r;
}

static CL_API_ENTRY cl_int CL_API_CALL layer_ReleaseKernel(cl_kernel kernel)
{
    cl_program program = NULL;
    if (g_next->clGetKernelInfo == NULL ||
        g_next->clGetKernelInfo(kernel, CL_KERNEL_PROGRAM, sizeof program, &program, NULL) !=
            CL_SUCCESS ||
        program == NULL || !tracked_without_callback(program))
        return g_next->clReleaseKernel(kernel);
    /* The last kernel of a program the application has released takes the program with it. */
    release_lock();
    cl_uint kernel_refs = 0;
    if (g_next->clGetKernelInfo(kernel, CL_KERNEL_REFERENCE_COUNT, sizeof kernel_refs, &kernel_refs,
                                NULL) != CL_SUCCESS)
        kernel_refs = 0;
    cl_uint refs = program_refs(program);
    cl_int r = g_next->clReleaseKernel(kernel);
    if (r == CL_SUCCESS && kernel_refs == 1 && refs == 1) forget_program(program);
    release_unlock();
    return r;
}

#if defined(__GNUC__)
/* At unload: say if the application left programs unreleased whose words the layer still kept,
 * then free everything. */
__attribute__((destructor)) static void free_at_unload(void)
{
    (void)pthread_mutex_lock(&g_lock);
    size_t kept = g_programs.count;
    g_unloaded = 1;
    spvbc_layer_map_clear(&g_programs, free);
    spvbc_layer_map_clear(&g_khr_entry, free);
    (void)pthread_mutex_unlock(&g_lock);
    if (kept != 0 && g_next != NULL)
        spvbc_layer_log(&g_config,
                        "spvbc-layer: " LAYER_NAME " unloaded with %zu lowered program%s never "
                        "released: their words freed now",
                        kept, kept == 1 ? "" : "s");
}
#endif

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

LAYER_EXPORT CL_API_ENTRY cl_int CL_API_CALL clInitLayer(cl_uint num_entries,
                                                         const cl_icd_dispatch *target_dispatch,
                                                         cl_uint *num_entries_ret,
                                                         const cl_icd_dispatch **layer_dispatch_ret)
{
    const size_t ours = sizeof g_dispatch / sizeof(void *);
    /* clSetProgramReleaseCallback is the last entry this layer reads. */
    if (target_dispatch == NULL || num_entries_ret == NULL || layer_dispatch_ret == NULL ||
        num_entries < ENTRIES_THROUGH(clSetProgramReleaseCallback))
        return CL_INVALID_VALUE;
    g_next = target_dispatch;
    spvbc_layer_config_from_env(&g_config);
    /* OpenCL modules are Kernel modules, where OpSpecConstantOp Bitcast exists: judge them by
     * current SPIRV-Tools' rules, so that a spec-constant size mismatch as_type allows is lowered
     * (layer_core.h). */
    g_config.validate_flags = SPVBC_VALIDATE_STRICT;
    /* Everything passes through to the next table, except what the layer intercepts. */
    memset(&g_dispatch, 0, sizeof g_dispatch);
    memcpy(&g_dispatch, target_dispatch,
           (num_entries < ours ? num_entries : ours) * sizeof(void *));
    if (g_config.mode != SPVBC_LAYER_MODE_OFF) {
        g_dispatch.clCreateProgramWithIL = layer_CreateProgramWithIL;
        g_dispatch.clGetExtensionFunctionAddressForPlatform =
            layer_GetExtensionFunctionAddressForPlatform;
        g_dispatch.clGetExtensionFunctionAddress = layer_GetExtensionFunctionAddress;
        g_dispatch.clGetProgramInfo = layer_GetProgramInfo;
        g_dispatch.clReleaseProgram = layer_ReleaseProgram;
        g_dispatch.clReleaseKernel = layer_ReleaseKernel;
    }
    spvbc_layer_announce(&g_config, LAYER_NAME);
    *layer_dispatch_ret = &g_dispatch;
    *num_entries_ret = (cl_uint)ours;
    return CL_SUCCESS;
}
