// as_type from a 3-component operand to a 4-component result: legal (a 3-vector occupies the
// storage of 4), result implementation-defined.  clang pads lane 3 with undef.
#include "astype_kernel.h"

kernel void as_float4_float3(global const float *in, global float4 *out)
{
    size_t i = get_global_id(0);
    float3 v = vload3(i, in) * 2.0f;
    out[i] = as_float4(v);
}

ASTYPE_KERNEL(as_int4_float3, float3, int4, as_int4(in[i] + in[i + 1]) & 0x7fffffff)
ASTYPE_KERNEL(as_uchar4_char3, char3, uchar4, as_uchar4(in[i] + in[i + 1]))
ASTYPE_KERNEL(as_short4_ushort3, ushort3, short4, as_short4(in[i] * (ushort)3))
ASTYPE_KERNEL(as_long4_long3, long3, ulong4, as_ulong4(in[i] + in[i + 1]))
