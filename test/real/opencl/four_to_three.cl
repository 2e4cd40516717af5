// as_type from a 4-component operand to a 3-component result: the one count change OpenCL
// defines (lanes 0..2 bit-exact).  A direct OpBitcast would be invalid SPIR-V (96 vs 128 bits);
// clang + llvm-spirv emit OpBitcast to the 4-lane type, then OpVectorShuffle 0 1 2.
#include "astype_kernel.h"

ASTYPE_KERNEL_VSTORE3(as_float3_float4, float4, float, float3, as_float3(in[i] * 2.0f), v)
ASTYPE_KERNEL_VSTORE3(as_int3_float4, float4, int, int3, as_int3(in[i] + in[i + 1]), v + 1)
ASTYPE_KERNEL_VSTORE3(as_uchar3_char4, char4, uchar, uchar3, as_uchar3(in[i] + in[i + 1]), v)
ASTYPE_KERNEL_VSTORE3(as_short3_ushort4, ushort4, short, short3, as_short3(in[i] * (ushort)5), v)
ASTYPE_KERNEL(as_float3_int4, int4, float3, as_float3(in[i] - 7) * 0.5f)
ASTYPE_KERNEL(as_ulong3_long4, long4, ulong3, as_ulong3(in[i] + in[i + 1]) >> 2)
