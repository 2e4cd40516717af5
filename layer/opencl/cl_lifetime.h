/*
 * cl_lifetime.h - what the OpenCL layer keeps for a program whose module it lowered (the
 * application's words, for CL_PROGRAM_IL), and when it lets go of it.
 *
 * A record is freed by the driver's program release callback where the driver takes one;
 * otherwise by the layer's own count of the program's references: its creation, each
 * clRetainProgram and clReleaseProgram, and each kernel made from it (clCreateKernel,
 * clCreateKernelsInProgram, clCloneKernel), counted with their own clRetainKernel and
 * clReleaseKernel until the last.  CL_PROGRAM_REFERENCE_COUNT is never read: the OpenCL
 * specification calls it stale the moment it is returned.
 *
 * SPDX-License-Identifier: Apache-2.0
 */
#ifndef SPVBC_CL_LIFETIME_H_
#define SPVBC_CL_LIFETIME_H_

#include "cl_target.h" /* before any other OpenCL header */

#include <CL/cl_icd.h>
#include <stddef.h>

typedef struct spvbc_cl_record spvbc_cl_record;

/** Where the wrappers below pass calls on (the layers below); set before any call. */
void spvbc_cl_lifetime_start(const cl_icd_dispatch *next);

/** A record of the application's `length` bytes at `il`, not kept yet; NULL without memory. */
spvbc_cl_record *spvbc_cl_record_new(const void *il, size_t length);
/** Frees a record that was never kept. */
void spvbc_cl_record_free(spvbc_cl_record *rec);
/** Keeps `rec` for `program`, the driver's program made of the lowered module, with one
 *  reference.  Returns 1; or 0 when it cannot keep it: then `rec` is freed and `program`
 *  released. */
int spvbc_cl_record_keep(cl_program program, spvbc_cl_record *rec);

/** Ends the records: frees every one still kept (later release callbacks free nothing) and
 *  returns how many there were. */
size_t spvbc_cl_lifetime_end(void);

/* The entry points the layer puts in its dispatch table. */
CL_API_ENTRY cl_int CL_API_CALL spvbc_cl_GetProgramInfo(cl_program program,
                                                        cl_program_info param_name,
                                                        size_t param_value_size, void *param_value,
                                                        size_t *param_value_size_ret);
CL_API_ENTRY cl_int CL_API_CALL spvbc_cl_RetainProgram(cl_program program);
CL_API_ENTRY cl_int CL_API_CALL spvbc_cl_ReleaseProgram(cl_program program);
CL_API_ENTRY cl_kernel CL_API_CALL spvbc_cl_CreateKernel(cl_program program,
                                                         const char *kernel_name,
                                                         cl_int *errcode_ret);
CL_API_ENTRY cl_int CL_API_CALL spvbc_cl_CreateKernelsInProgram(cl_program program,
                                                                cl_uint num_kernels,
                                                                cl_kernel *kernels,
                                                                cl_uint *num_kernels_ret);
CL_API_ENTRY cl_kernel CL_API_CALL spvbc_cl_CloneKernel(cl_kernel source_kernel,
                                                        cl_int *errcode_ret);
CL_API_ENTRY cl_int CL_API_CALL spvbc_cl_RetainKernel(cl_kernel kernel);
CL_API_ENTRY cl_int CL_API_CALL spvbc_cl_ReleaseKernel(cl_kernel kernel);

#endif /* SPVBC_CL_LIFETIME_H_ */
