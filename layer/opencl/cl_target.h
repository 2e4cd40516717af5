/*
 * cl_target.h - the OpenCL headers as the layer (cl_layer.c) and the test ICD
 * (test/test_icd.c) see them: OpenCL 3.0, with every deprecated entry point declared, since
 * both fill a whole dispatch table, deprecated entries included.
 *
 * SPDX-License-Identifier: Apache-2.0
 */
#ifndef SPVBC_CL_TARGET_H_
#define SPVBC_CL_TARGET_H_

#define CL_TARGET_OPENCL_VERSION 300
#define CL_USE_DEPRECATED_OPENCL_1_0_APIS
#define CL_USE_DEPRECATED_OPENCL_1_1_APIS
#define CL_USE_DEPRECATED_OPENCL_1_2_APIS
#define CL_USE_DEPRECATED_OPENCL_2_0_APIS
#define CL_USE_DEPRECATED_OPENCL_2_1_APIS
#define CL_USE_DEPRECATED_OPENCL_2_2_APIS
#include <CL/cl_ext.h>

#endif /* SPVBC_CL_TARGET_H_ */
