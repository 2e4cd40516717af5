/* opencl_scalars.h - test data: OpenCL C's scalar type names (OpenCL C 6.1.1) with the kind,
 * width and signedness spvbc_type_desc_from_opencl() must give each: is_signed is 1 for char,
 * short, int and long only.  Shared by the tests that read names back two ways
 * (test_plan_fields.c, test_witness.c).
 *
 * SPDX-License-Identifier: Apache-2.0
 */
#ifndef SPVBC_TEST_OPENCL_SCALARS_H_
#define SPVBC_TEST_OPENCL_SCALARS_H_

#include <stdint.h>

#include "spirv_bitcast.h"

typedef struct opencl_scalar {
    const char *name;
    spvbc_scalar_kind kind;
    uint32_t width;
    spvbc_bool is_signed;
} opencl_scalar;

static const opencl_scalar opencl_scalars[] = {
    {"uchar", SPVBC_SCALAR_INT, 8, 0},     {"char", SPVBC_SCALAR_INT, 8, 1},
    {"ushort", SPVBC_SCALAR_INT, 16, 0},   {"short", SPVBC_SCALAR_INT, 16, 1},
    {"uint", SPVBC_SCALAR_INT, 32, 0},     {"int", SPVBC_SCALAR_INT, 32, 1},
    {"ulong", SPVBC_SCALAR_INT, 64, 0},    {"long", SPVBC_SCALAR_INT, 64, 1},
    {"half", SPVBC_SCALAR_FLOAT, 16, 0},   {"float", SPVBC_SCALAR_FLOAT, 32, 0},
    {"double", SPVBC_SCALAR_FLOAT, 64, 0},
};
#define OPENCL_SCALAR_COUNT (sizeof opencl_scalars / sizeof opencl_scalars[0])

#endif /* SPVBC_TEST_OPENCL_SCALARS_H_ */
