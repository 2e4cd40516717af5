// A 3-component operand reinterpreted as a type with other than 3 or 4 components
// (sizeof(char3) == sizeof(int), sizeof(float3) == sizeof(long2) == 16).
#include "astype_kernel.h"

ASTYPE_KERNEL(as_int_char3, char3, int, as_int(in[i] + in[i + 1]))

kernel void as_uint_uchar3(global const uchar *in, global uint *out)
{
    size_t i = get_global_id(0);
    uchar3 v = vload3(i, in) + (uchar)1;
    out[i] = as_uint(v) ^ 1u;
}

ASTYPE_KERNEL(as_long2_float3, float3, long2, as_long2(in[i] * 3.0f))
ASTYPE_KERNEL(as_short8_int3, int3, short8, as_short8(in[i] + in[i + 1]))
ASTYPE_KERNEL(as_char16_float3, float3, char16, as_char16(in[i] - 1.0f))
ASTYPE_KERNEL(as_long_short3, short3, long, as_long(in[i] + in[i + 1]) >> 1)
ASTYPE_KERNEL(as_float2_ushort3, ushort3, float2, as_float2(in[i] << (ushort)1))
