/*
 * test_icd.c - a small OpenCL driver (ICD) that records what it receives, for testing the
 * OpenCL layer where no real driver can be had (Khronos' OpenCL-Layers test their layers the same
 * way).
 *
 * One platform ("spvbc test ICD", suffix "SPVBCTEST") with one device; contexts, programs and
 * kernels with reference counts.  clCreateProgramWithIL and clCreateProgramWithILKHR keep a copy
 * of the bytes they were given, which a test reads through the exported spvbc_test_icd_*()
 * functions (not through CL_PROGRAM_IL, which the layer answers itself).  Kernels hold a
 * reference to their program, as real drivers' do.  A program keeps several release callbacks
 * (up to 8), called in the reverse order of their registration when it is destroyed, as the
 * OpenCL specification says of clSetProgramReleaseCallback.  Queries of CL_PROGRAM_REFERENCE_COUNT
 * and CL_KERNEL_REFERENCE_COUNT are counted, so that a test can tell who reads them.
 *
 * Environment:
 *   SPVBC_TEST_ICD_RELEASE_CALLBACK=0   clSetProgramReleaseCallback returns CL_INVALID_OPERATION
 *                                       (as drivers that dropped it do); default: supported
 *   SPVBC_TEST_ICD_REFUSE=<n>           clCreateProgramWithIL refuses a module of <n> bytes
 *
 * SPDX-License-Identifier: Apache-2.0
 */
#include "cl_target.h" /* before any other OpenCL header */

#include <CL/cl_icd.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "test_icd.h"

#define EXPORT __attribute__((visibility("default")))

static cl_icd_dispatch g_dispatch;

struct _cl_platform_id {
    cl_icd_dispatch *dispatch;
};
struct _cl_device_id {
    cl_icd_dispatch *dispatch;
};
/* What contexts, programs and kernels begin with: the loader's dispatch, then the count of
 * references (under g_lock). */
typedef struct counted {
    cl_icd_dispatch *dispatch;
    cl_uint refs;
} counted;
struct _cl_context {
    counted base;
};
struct _cl_program {
    counted base;
    cl_context context;
    int via_khr;
    size_t size;
    unsigned char *il;
    int callbacks;
    struct {
        void(CL_CALLBACK *fn)(cl_program, void *);
        void *data;
    } on_release[8];
};
struct _cl_kernel {
    counted base;
    cl_program program;
};

static struct _cl_platform_id g_platform = {&g_dispatch};
static struct _cl_device_id g_device = {&g_dispatch};
static pthread_mutex_t g_lock = PTHREAD_MUTEX_INITIALIZER;
static long g_live_programs;
static unsigned long g_il_calls, g_khr_calls, g_refcount_queries;

/* Adds `delta` (1, -1, or 0 to read it) to `obj`'s references; returns how many there are. */
static cl_uint refs_add(counted *obj, int delta)
{
    (void)pthread_mutex_lock(&g_lock);
    cl_uint refs = obj->refs += (cl_uint)delta;
    (void)pthread_mutex_unlock(&g_lock);
    return refs;
}

static cl_int info(const void *src, size_t size, size_t value_size, void *value, size_t *size_ret)
{
    if (value != NULL && value_size < size) return CL_INVALID_VALUE;
    if (value != NULL) memcpy(value, src, size);
    if (size_ret != NULL) *size_ret = size;
    return CL_SUCCESS;
}

static cl_int CL_API_CALL icd_GetPlatformIDs(cl_uint num_entries, cl_platform_id *platforms,
                                             cl_uint *num_platforms)
{
    if (platforms == NULL && num_platforms == NULL) return CL_INVALID_VALUE;
    if (platforms != NULL && num_entries == 0) return CL_INVALID_VALUE;
    if (platforms != NULL) platforms[0] = &g_platform;
    if (num_platforms != NULL) *num_platforms = 1;
    return CL_SUCCESS;
}

static cl_int CL_API_CALL icd_GetPlatformInfo(cl_platform_id platform, cl_platform_info name,
                                              size_t size, void *value, size_t *size_ret)
{
    const char *s;
    if (platform != &g_platform && platform != NULL) return CL_INVALID_PLATFORM;
    switch (name) {
    case CL_PLATFORM_PROFILE: s = "FULL_PROFILE"; break;
    case CL_PLATFORM_VERSION: s = "OpenCL 3.0 spvbc"; break;
    case CL_PLATFORM_NAME: s = "spvbc test ICD"; break;
    case CL_PLATFORM_VENDOR: s = "spirv-bitcast"; break;
    case CL_PLATFORM_EXTENSIONS: s = "cl_khr_icd cl_khr_il_program"; break;
    case CL_PLATFORM_ICD_SUFFIX_KHR: s = "SPVBCTEST"; break;
    default: return CL_INVALID_VALUE;
    }
    return info(s, strlen(s) + 1, size, value, size_ret);
}

static cl_int CL_API_CALL icd_GetDeviceIDs(cl_platform_id platform, cl_device_type type,
                                           cl_uint num_entries, cl_device_id *devices,
                                           cl_uint *num_devices)
{
    (void)type;
    if (platform != &g_platform) return CL_INVALID_PLATFORM;
    if (devices == NULL && num_devices == NULL) return CL_INVALID_VALUE;
    if (devices != NULL && num_entries == 0) return CL_INVALID_VALUE;
    if (devices != NULL) devices[0] = &g_device;
    if (num_devices != NULL) *num_devices = 1;
    return CL_SUCCESS;
}

static cl_int CL_API_CALL icd_GetDeviceInfo(cl_device_id device, cl_device_info name, size_t size,
                                            void *value, size_t *size_ret)
{
    if (device != &g_device) return CL_INVALID_DEVICE;
    cl_platform_id p = &g_platform;
    cl_device_type t = CL_DEVICE_TYPE_CPU;
    switch (name) {
    case CL_DEVICE_PLATFORM: return info(&p, sizeof p, size, value, size_ret);
    case CL_DEVICE_TYPE: return info(&t, sizeof t, size, value, size_ret);
    case CL_DEVICE_NAME: return info("spvbc test device", 18, size, value, size_ret);
    case CL_DEVICE_IL_VERSION: return info("SPIR-V_1.0", 11, size, value, size_ret);
    default: return CL_INVALID_VALUE;
    }
}

static cl_context CL_API_CALL icd_CreateContext(
    const cl_context_properties *properties, cl_uint num_devices, const cl_device_id *devices,
    void(CL_CALLBACK *notify)(const char *, const void *, size_t, void *), void *user_data,
    cl_int *err)
{
    (void)properties;
    (void)notify;
    (void)user_data;
    if (num_devices != 1 || devices == NULL || devices[0] != &g_device) {
        if (err != NULL) *err = CL_INVALID_DEVICE;
        return NULL;
    }
    cl_context c = calloc(1, sizeof *c);
    if (c != NULL) {
        c->base = (counted){&g_dispatch, 1};
    }
    if (err != NULL) *err = c != NULL ? CL_SUCCESS : CL_OUT_OF_HOST_MEMORY;
    return c;
}

/* clRetain* and clRelease* of `obj` (NULL: `invalid`); `destroy` frees it when its last
 * reference goes. */
static cl_int retain(counted *obj, cl_int invalid)
{
    if (obj == NULL) return invalid;
    (void)refs_add(obj, 1);
    return CL_SUCCESS;
}

static cl_int release(counted *obj, cl_int invalid, void (*destroy)(counted *))
{
    if (obj == NULL) return invalid;
    if (refs_add(obj, -1) == 0) destroy(obj);
    return CL_SUCCESS;
}

/* icd_Retain<Name> and icd_Release<Name>, the entry points of counted handles of `type`;
 * `destroy` frees one (the handle is its `base`, its first member). */
#define RETAIN_RELEASE(Name, type, invalid, destroy)                                               \
    static cl_int CL_API_CALL icd_Retain##Name(type o)                                             \
    {                                                                                              \
        return retain(o != NULL ? &o->base : NULL, invalid);                                       \
    }                                                                                              \
    static cl_int CL_API_CALL icd_Release##Name(type o)                                            \
    {                                                                                              \
        return release(o != NULL ? &o->base : NULL, invalid, destroy);                             \
    }

static void destroy_context(counted *obj)
{
    free(obj);
}
RETAIN_RELEASE(Context, cl_context, CL_INVALID_CONTEXT, destroy_context)

static cl_int CL_API_CALL icd_GetContextInfo(cl_context c, cl_context_info name, size_t size,
                                             void *value, size_t *size_ret)
{
    if (c == NULL) return CL_INVALID_CONTEXT;
    cl_device_id d = &g_device;
    cl_uint n = 1;
    switch (name) {
    case CL_CONTEXT_DEVICES: return info(&d, sizeof d, size, value, size_ret);
    case CL_CONTEXT_NUM_DEVICES: return info(&n, sizeof n, size, value, size_ret);
    default: return CL_INVALID_VALUE;
    }
}

static cl_program create(cl_context c, const void *il, size_t length, cl_int *err, int khr)
{
    cl_int e = CL_SUCCESS;
    const char *refuse = getenv("SPVBC_TEST_ICD_REFUSE");
    cl_program p = NULL;
    if (c == NULL) {
        e = CL_INVALID_CONTEXT;
    } else if (il == NULL || length == 0) {
        e = CL_INVALID_VALUE;
    } else if (refuse != NULL && strtoul(refuse, NULL, 10) == length) {
        e = CL_INVALID_VALUE; /* what a driver says of a module it cannot read */
    } else if ((p = calloc(1, sizeof *p)) == NULL || (p->il = malloc(length)) == NULL) {
        free(p);
        p = NULL;
        e = CL_OUT_OF_HOST_MEMORY;
    } else {
        p->base = (counted){&g_dispatch, 1};
        p->context = c;
        p->via_khr = khr;
        p->size = length;
        memcpy(p->il, il, length);
        (void)icd_RetainContext(c);
        (void)pthread_mutex_lock(&g_lock);
        ++g_live_programs;
        ++*(khr ? &g_khr_calls : &g_il_calls);
        (void)pthread_mutex_unlock(&g_lock);
    }
    if (err != NULL) *err = e;
    return p;
}

static cl_program CL_API_CALL icd_CreateProgramWithIL(cl_context c, const void *il, size_t length,
                                                      cl_int *err)
{
    return create(c, il, length, err, 0);
}

static cl_program CL_API_CALL icd_CreateProgramWithILKHR(cl_context c, const void *il,
                                                         size_t length, cl_int *err)
{
    return create(c, il, length, err, 1);
}

static void destroy_program(counted *obj)
{
    cl_program p = (cl_program)(void *)obj;
    (void)pthread_mutex_lock(&g_lock);
    --g_live_programs;
    (void)pthread_mutex_unlock(&g_lock);
    for (int i = p->callbacks - 1; i >= 0; --i)
        p->on_release[i].fn(p, p->on_release[i].data);
    (void)icd_ReleaseContext(p->context);
    free(p->il);
    free(p);
}
RETAIN_RELEASE(Program, cl_program, CL_INVALID_PROGRAM, destroy_program)

static cl_int CL_API_CALL icd_SetProgramReleaseCallback(cl_program p,
                                                        void(CL_CALLBACK *fn)(cl_program, void *),
                                                        void *data)
{
    const char *cb = getenv("SPVBC_TEST_ICD_RELEASE_CALLBACK");
    if (cb != NULL && strcmp(cb, "0") == 0) return CL_INVALID_OPERATION;
    if (p == NULL) return CL_INVALID_PROGRAM;
    if (fn == NULL) return CL_INVALID_VALUE;
    (void)pthread_mutex_lock(&g_lock);
    int full = p->callbacks == (int)(sizeof p->on_release / sizeof p->on_release[0]);
    if (!full) {
        p->on_release[p->callbacks].fn = fn;
        p->on_release[p->callbacks].data = data;
        ++p->callbacks;
    }
    (void)pthread_mutex_unlock(&g_lock);
    return full ? CL_OUT_OF_HOST_MEMORY : CL_SUCCESS;
}

static cl_int CL_API_CALL icd_GetProgramInfo(cl_program p, cl_program_info name, size_t size,
                                             void *value, size_t *size_ret)
{
    if (p == NULL) return CL_INVALID_PROGRAM;
    cl_uint refs = refs_add(&p->base, 0);
    switch (name) {
    case CL_PROGRAM_REFERENCE_COUNT:
        (void)pthread_mutex_lock(&g_lock);
        ++g_refcount_queries;
        (void)pthread_mutex_unlock(&g_lock);
        return info(&refs, sizeof refs, size, value, size_ret);
    case CL_PROGRAM_CONTEXT: return info(&p->context, sizeof p->context, size, value, size_ret);
    case CL_PROGRAM_IL: return info(p->il, p->size, size, value, size_ret);
    default: return CL_INVALID_VALUE;
    }
}

static cl_int CL_API_CALL icd_BuildProgram(cl_program p, cl_uint n, const cl_device_id *devices,
                                           const char *options,
                                           void(CL_CALLBACK *notify)(cl_program, void *),
                                           void *data)
{
    (void)n;
    (void)devices;
    (void)options;
    if (p == NULL) return CL_INVALID_PROGRAM;
    if (notify != NULL) notify(p, data);
    return CL_SUCCESS;
}

static cl_kernel CL_API_CALL icd_CreateKernel(cl_program p, const char *name, cl_int *err)
{
    cl_kernel k = NULL;
    if (p == NULL || name == NULL) {
        if (err != NULL) *err = p == NULL ? CL_INVALID_PROGRAM : CL_INVALID_VALUE;
        return NULL;
    }
    k = calloc(1, sizeof *k);
    if (k != NULL) {
        k->base = (counted){&g_dispatch, 1};
        k->program = p;
        (void)icd_RetainProgram(p); /* a kernel keeps its program alive */
    }
    if (err != NULL) *err = k != NULL ? CL_SUCCESS : CL_OUT_OF_HOST_MEMORY;
    return k;
}

/* One kernel, "unpack_rgb", per program (all the tests need). */
static cl_int CL_API_CALL icd_CreateKernelsInProgram(cl_program p, cl_uint n, cl_kernel *kernels,
                                                     cl_uint *n_ret)
{
    if (p == NULL) return CL_INVALID_PROGRAM;
    if (kernels != NULL && n < 1) return CL_INVALID_VALUE;
    cl_int err = CL_SUCCESS;
    if (kernels != NULL) kernels[0] = icd_CreateKernel(p, "unpack_rgb", &err);
    if (n_ret != NULL && err == CL_SUCCESS) *n_ret = 1;
    return err;
}

static cl_kernel CL_API_CALL icd_CloneKernel(cl_kernel k, cl_int *err)
{
    if (k == NULL) {
        if (err != NULL) *err = CL_INVALID_KERNEL;
        return NULL;
    }
    return icd_CreateKernel(k->program, "unpack_rgb", err);
}

static void destroy_kernel(counted *obj)
{
    cl_kernel k = (cl_kernel)(void *)obj;
    (void)icd_ReleaseProgram(k->program);
    free(k);
}
RETAIN_RELEASE(Kernel, cl_kernel, CL_INVALID_KERNEL, destroy_kernel)

static cl_int CL_API_CALL icd_GetKernelInfo(cl_kernel k, cl_kernel_info name, size_t size,
                                            void *value, size_t *size_ret)
{
    if (k == NULL) return CL_INVALID_KERNEL;
    cl_uint refs = refs_add(&k->base, 0);
    switch (name) {
    case CL_KERNEL_PROGRAM: return info(&k->program, sizeof k->program, size, value, size_ret);
    case CL_KERNEL_REFERENCE_COUNT:
        (void)pthread_mutex_lock(&g_lock);
        ++g_refcount_queries;
        (void)pthread_mutex_unlock(&g_lock);
        return info(&refs, sizeof refs, size, value, size_ret);
    default: return CL_INVALID_VALUE;
    }
}

/* Functions are handed out as void * by the API. */
#define AS_VOID(f)                                                                                 \
    do {                                                                                           \
        void *out_;                                                                                \
        memcpy(&out_, &(f), sizeof out_);                                                          \
        return out_;                                                                               \
    } while (0)

static void *extension(const char *name)
{
    static const clCreateProgramWithILKHR_fn khr = icd_CreateProgramWithILKHR;
    static cl_int(CL_API_CALL *const ids)(cl_uint, cl_platform_id *, cl_uint *) =
        icd_GetPlatformIDs;
    static cl_int(CL_API_CALL *const pinfo)(cl_platform_id, cl_platform_info, size_t, void *,
                                            size_t *) = icd_GetPlatformInfo;
    if (name == NULL) return NULL;
    if (strcmp(name, "clCreateProgramWithILKHR") == 0) AS_VOID(khr);
    if (strcmp(name, "clIcdGetPlatformIDsKHR") == 0) AS_VOID(ids);
    if (strcmp(name, "clGetPlatformInfo") == 0) AS_VOID(pinfo);
    return NULL;
}

static void *CL_API_CALL icd_GetExtensionFunctionAddressForPlatform(cl_platform_id platform,
                                                                    const char *name)
{
    if (platform != &g_platform) return NULL;
    return extension(name);
}

static void fill_dispatch(void)
{
    g_dispatch.clGetPlatformIDs = icd_GetPlatformIDs;
    g_dispatch.clGetPlatformInfo = icd_GetPlatformInfo;
    g_dispatch.clGetDeviceIDs = icd_GetDeviceIDs;
    g_dispatch.clGetDeviceInfo = icd_GetDeviceInfo;
    g_dispatch.clCreateContext = icd_CreateContext;
    g_dispatch.clRetainContext = icd_RetainContext;
    g_dispatch.clReleaseContext = icd_ReleaseContext;
    g_dispatch.clGetContextInfo = icd_GetContextInfo;
    g_dispatch.clCreateProgramWithIL = icd_CreateProgramWithIL;
    g_dispatch.clRetainProgram = icd_RetainProgram;
    g_dispatch.clReleaseProgram = icd_ReleaseProgram;
    g_dispatch.clSetProgramReleaseCallback = icd_SetProgramReleaseCallback;
    g_dispatch.clGetProgramInfo = icd_GetProgramInfo;
    g_dispatch.clBuildProgram = icd_BuildProgram;
    g_dispatch.clCreateKernel = icd_CreateKernel;
    g_dispatch.clRetainKernel = icd_RetainKernel;
    g_dispatch.clReleaseKernel = icd_ReleaseKernel;
    g_dispatch.clGetKernelInfo = icd_GetKernelInfo;
    g_dispatch.clCreateKernelsInProgram = icd_CreateKernelsInProgram;
    g_dispatch.clCloneKernel = icd_CloneKernel;
    g_dispatch.clGetExtensionFunctionAddressForPlatform =
        icd_GetExtensionFunctionAddressForPlatform;
    g_dispatch.clGetExtensionFunctionAddress = extension;
}

static pthread_once_t g_once = PTHREAD_ONCE_INIT;

/* The loader finds an ICD through these two. */
EXPORT CL_API_ENTRY void *CL_API_CALL clGetExtensionFunctionAddress(const char *name)
{
    (void)pthread_once(&g_once, fill_dispatch);
    return extension(name);
}

EXPORT CL_API_ENTRY cl_int CL_API_CALL clIcdGetPlatformIDsKHR(cl_uint num_entries,
                                                              cl_platform_id *platforms,
                                                              cl_uint *num_platforms)
{
    (void)pthread_once(&g_once, fill_dispatch);
    return icd_GetPlatformIDs(num_entries, platforms, num_platforms);
}

EXPORT CL_API_ENTRY cl_int CL_API_CALL clGetPlatformInfo(cl_platform_id platform,
                                                         cl_platform_info name, size_t size,
                                                         void *value, size_t *size_ret)
{
    return icd_GetPlatformInfo(platform, name, size, value, size_ret);
}

/* ---------------------------------------------------------------------------------------- */
/* What a test reads */

EXPORT int spvbc_test_icd_received(cl_program program, const void **il, size_t *size, int *khr)
{
    if (program == NULL || program->base.dispatch != &g_dispatch) return 0;
    *il = program->il;
    *size = program->size;
    *khr = program->via_khr;
    return 1;
}

EXPORT void spvbc_test_icd_counts(long *live_programs, unsigned long *il_calls,
                                  unsigned long *khr_calls)
{
    (void)pthread_mutex_lock(&g_lock);
    *live_programs = g_live_programs;
    *il_calls = g_il_calls;
    *khr_calls = g_khr_calls;
    (void)pthread_mutex_unlock(&g_lock);
}

EXPORT unsigned long spvbc_test_icd_refcount_queries(void)
{
    (void)pthread_mutex_lock(&g_lock);
    unsigned long n = g_refcount_queries;
    (void)pthread_mutex_unlock(&g_lock);
    return n;
}
