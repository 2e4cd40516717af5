// as_type with the same element count on both sides: exact in OpenCL, one OpBitcast in SPIR-V
// (or no instruction at all where the two OpenCL types map to one signless SPIR-V type).
// Operands are computed values so that -O2 keeps the reinterpretation on registers.
#include "astype_kernel.h"

ASTYPE_KERNEL(as_int4_float4, float4, int4, as_int4(in[i] + in[i + 1]))
ASTYPE_KERNEL(as_float_uint, uint, float, as_float(in[i] ^ 0x80000000u) * 2.0f)
ASTYPE_KERNEL(as_uint_int_identity, int, uint, as_uint(in[i] - 1) >> 3)
ASTYPE_KERNEL(as_uchar4_char4_identity, char4, uchar4, as_uchar4(in[i] + in[i + 1]) >> (uchar)1)
ASTYPE_KERNEL(as_ulong2_long2_identity, long2, float2, convert_float2(as_ulong2(in[i] * 3)))
ASTYPE_KERNEL(as_float8_int8, int8, float8, as_float8(in[i] | 1) + 1.0f)
ASTYPE_KERNEL(as_short16_ushort16, ushort16, short16, as_short16(in[i] + in[i + 1]) / (short)3)

// The examples of the OpenCL C specification's as_type section.
kernel void spec_examples(global const float4 *f, global const float4 *g, global float4 *out,
                          global float *one, global int4 *bits)
{
    size_t i = get_global_id(0);
    one[i] = as_float(0x3f800000) + (float)i;
    bits[i] = as_int4(f[i] * 2.0f);
    int4 is_less = f[i] < g[i];
    out[i] = as_float4(as_int4(f[i] + 1.0f) & is_less);
}
