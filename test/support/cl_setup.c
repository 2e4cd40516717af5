/*
 * cl_setup.c - the OpenCL set-up the as_type execution tests share: see cl_setup.h.
 * SPDX-License-Identifier: Apache-2.0
 */
#include "cl_setup.h"

#include <stdio.h>
#include <string.h>

int spvbc_cl_platforms(cl_platform_id *ps, cl_int *err)
{
    cl_uint np = 0;
    *err = clGetPlatformIDs(0, NULL, &np);
    if (*err != CL_SUCCESS || np == 0) return 0;
    if (np > SPVBC_CL_MAX_PLATFORMS) np = SPVBC_CL_MAX_PLATFORMS;
    *err = clGetPlatformIDs(np, ps, NULL);
    return *err == CL_SUCCESS ? (int)np : -1;
}

int spvbc_cl_has_word(const char *list, const char *word)
{
    size_t n = strlen(word);
    for (const char *p = strstr(list, word); p != NULL; p = strstr(p + 1, word))
        if ((p == list || p[-1] == ' ') && (p[n] == ' ' || p[n] == '\0')) return 1;
    return 0;
}

void spvbc_cl_describe(cl_device_id id, spvbc_cl_device *d)
{
    char profile[64] = "";
    d->id = id;
    d->name[0] = d->driver[0] = d->extensions[0] = '\0';
    (void)clGetDeviceInfo(id, CL_DEVICE_NAME, sizeof d->name, d->name, NULL);
    (void)clGetDeviceInfo(id, CL_DRIVER_VERSION, sizeof d->driver, d->driver, NULL);
    (void)clGetDeviceInfo(id, CL_DEVICE_EXTENSIONS, sizeof d->extensions, d->extensions, NULL);
    (void)clGetDeviceInfo(id, CL_DEVICE_PROFILE, sizeof profile, profile, NULL);
    d->fp16 = spvbc_cl_has_word(d->extensions, "cl_khr_fp16");
    d->fp64 = spvbc_cl_has_word(d->extensions, "cl_khr_fp64");
    d->int64 = strcmp(profile, "FULL_PROFILE") == 0;
}

const char *spvbc_cl_pair_missing(const spvbc_cl_device *dev, const spvbc_type_desc *s,
                                  const spvbc_type_desc *d)
{
    const char *miss = spvbc_gen_cl_missing_feature(s, dev->fp16, dev->fp64, dev->int64);
    return miss != NULL ? miss : spvbc_gen_cl_missing_feature(d, dev->fp16, dev->fp64, dev->int64);
}

int spvbc_cl_open(cl_platform_id platform, spvbc_cl_env *env)
{
    cl_int e;
    cl_context_properties props[] = {CL_CONTEXT_PLATFORM, (cl_context_properties)platform, 0};
    env->context = clCreateContext(props, 1, &env->dev.id, NULL, NULL, &e);
    if (e != CL_SUCCESS) {
        printf("FAIL: clCreateContext: %d\n", (int)e);
        env->context = NULL;
        return 1;
    }
    env->queue = clCreateCommandQueueWithProperties(env->context, env->dev.id, NULL, &e);
    if (e != CL_SUCCESS) {
        printf("FAIL: clCreateCommandQueueWithProperties: %d\n", (int)e);
        env->queue = NULL;
        return 1;
    }
    return 0;
}

void spvbc_cl_close(spvbc_cl_env *env)
{
    if (env->queue != NULL) clReleaseCommandQueue(env->queue);
    if (env->context != NULL) clReleaseContext(env->context);
}

void spvbc_cl_build_log(cl_program prog, cl_device_id dev, char *log, size_t size)
{
    log[0] = '\0';
    (void)clGetProgramBuildInfo(prog, dev, CL_PROGRAM_BUILD_LOG, size, log, NULL);
    log[size - 1] = '\0';
}

cl_kernel spvbc_cl_build_kernel(cl_program prog, cl_device_id dev, const char *options,
                                const char *name, const char *label, const char **step)
{
    cl_int e = clBuildProgram(prog, 1, &dev, options, NULL, NULL);
    if (e != CL_SUCCESS) {
        static char log[8192];
        spvbc_cl_build_log(prog, dev, log, sizeof log);
        printf("  FAIL %s: clBuildProgram: %d: %.600s\n", label, (int)e, log);
        *step = "clBuildProgram";
        clReleaseProgram(prog);
        return NULL;
    }
    cl_kernel k = clCreateKernel(prog, name, &e);
    if (e != CL_SUCCESS) {
        printf("  FAIL %s: clCreateKernel: %d\n", label, (int)e);
        *step = "clCreateKernel";
        clReleaseProgram(prog);
        return NULL;
    }
    return k;
}
