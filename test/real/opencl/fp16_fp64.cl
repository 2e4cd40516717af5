// as_type with half (cl_khr_fp16) and double (cl_khr_fp64) on either side, in every class.
#pragma OPENCL EXTENSION cl_khr_fp16 : enable
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
#include "astype_kernel.h"

ASTYPE_KERNEL(as_half2_float, float, half2, as_half2(in[i] * 2.0f) + (half)1.0h)
ASTYPE_KERNEL(as_ushort_half, half, ushort, as_ushort((half)(in[i] + in[i + 1])))
ASTYPE_KERNEL(as_short3_half4, half4, short3, as_short3(in[i] * (half)3.0h))
ASTYPE_KERNEL(as_half4_short3, short3, half4, as_half4(in[i] + in[i + 1]) * (half)2.0h)
ASTYPE_KERNEL(as_half3_int2, int2, half3, as_half3(in[i] + 1))
ASTYPE_KERNEL(as_double_long, long, double, as_double(in[i] ^ 1) * 0.5)
ASTYPE_KERNEL(as_double2_float3, float3, double2, as_double2(in[i] + 1.0f))
ASTYPE_KERNEL(as_float3_double2, double2, float3, as_float3(in[i] * 2.0))
ASTYPE_KERNEL(as_long3_double4, double4, long3, as_long3(in[i] + in[i + 1]))
ASTYPE_KERNEL(as_double4_long3, long3, double4, as_double4(in[i] - 1))
ASTYPE_KERNEL(as_half4_double, double, half4, as_half4(in[i] + 1.0))
ASTYPE_KERNEL(as_half16_double4, double4, half16, as_half16(in[i] * 3.0))
