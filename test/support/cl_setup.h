/*
 * cl_setup.h - the OpenCL set-up the as_type execution tests share (test/exec/exec_opencl.c:
 * bookworm's PoCL through cl_khr_spir; test/opencl/opencl_il.c: trixie's rusticl and PoCL
 * through clCreateProgramWithIL): the platforms, what a device can run, a context with its
 * queue, and a program built into its kernel.  Each failure is printed on stdout as the tests'
 * other lines are ("FAIL: <call>: <code>", or "  FAIL <label>: ..." for one program).
 *
 * SPDX-License-Identifier: Apache-2.0
 */
#ifndef SPVBC_TEST_CL_SETUP_H_
#define SPVBC_TEST_CL_SETUP_H_

#ifndef CL_TARGET_OPENCL_VERSION
#define CL_TARGET_OPENCL_VERSION 300
#endif
#include <CL/cl.h>

#include <stddef.h>

#include "astype_gen.h"

#define SPVBC_CL_MAX_PLATFORMS 16u
#define SPVBC_CL_MAX_TYPE_BYTES 128u /* the largest OpenCL type: long16 / double16 */

/* What a test needs to know of a device. */
typedef struct spvbc_cl_device {
    cl_device_id id;
    char name[256], driver[256]; /* CL_DEVICE_NAME, CL_DRIVER_VERSION */
    char extensions[16384]; /* CL_DEVICE_EXTENSIONS */
    int fp16, fp64, int64; /* cl_khr_fp16, cl_khr_fp64, the full profile's 64-bit integers */
} spvbc_cl_device;

/* A device with a context and an in-order queue on it. */
typedef struct spvbc_cl_env {
    spvbc_cl_device dev;
    cl_context context;
    cl_command_queue queue;
} spvbc_cl_env;

/* Lists the first SPVBC_CL_MAX_PLATFORMS platforms into `ps`; returns how many it listed, 0
 * when there is none (`*err`: what clGetPlatformIDs returned), or -1 when counting them worked
 * and listing them failed. */
int spvbc_cl_platforms(cl_platform_id *ps, cl_int *err);

/* 1 when the space-separated `list` holds `word` as a whole word. */
int spvbc_cl_has_word(const char *list, const char *word);

/* Fills `d` for device `id`: names, extensions and the optional types it runs. */
void spvbc_cl_describe(cl_device_id id, spvbc_cl_device *d);

/* Why `dev` cannot run as_type pair (`s`, `d`): the first of the two types it lacks a feature
 * for (spvbc_gen_cl_missing_feature()), or NULL when it runs both. */
const char *spvbc_cl_pair_missing(const spvbc_cl_device *dev, const spvbc_type_desc *s,
                                  const spvbc_type_desc *d);

/* Creates a context on `platform` holding env->dev (spvbc_cl_describe() filled it) and a queue
 * on it; returns 0, or 1 after printing the failing call (what was made stays in `env` for
 * spvbc_cl_close()). */
int spvbc_cl_open(cl_platform_id platform, spvbc_cl_env *env);

/* Releases what spvbc_cl_open() made (of a zeroed `env`: nothing). */
void spvbc_cl_close(spvbc_cl_env *env);

/* The build log of `prog` on `dev` into `log` (`size` bytes, empty when there is none). */
void spvbc_cl_build_log(cl_program prog, cl_device_id dev, char *log, size_t size);

/* Builds `prog` for `dev` with `options` and creates its kernel `name`.  Returns the kernel;
 * on failure prints "  FAIL <label>: <call>: <code>" (with the build log), releases `prog`,
 * sets `*step` to the call that failed and returns NULL. */
cl_kernel spvbc_cl_build_kernel(cl_program prog, cl_device_id dev, const char *options,
                                const char *name, const char *label, const char **step);

#endif /* SPVBC_TEST_CL_SETUP_H_ */
