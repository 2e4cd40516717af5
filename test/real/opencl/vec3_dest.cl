// A 3-component result from an operand with other than 3 or 4 components; the sheet's
// bit-level examples are as_char3(int) and as_int3(long2).
#include "astype_kernel.h"

ASTYPE_KERNEL_VSTORE3(as_char3_int, int, char, char3, as_char3(in[i] * 3), v)
ASTYPE_KERNEL(as_uchar3_float, float, uchar3, as_uchar3(in[i] + 1.0f))
ASTYPE_KERNEL_VSTORE3(as_int3_long2, long2, int, int3, as_int3(in[i] + in[i + 1]), v)
ASTYPE_KERNEL(as_float3_short8, short8, float3, as_float3(in[i] * (short)2))
ASTYPE_KERNEL(as_short3_int2, int2, short3, as_short3(in[i] - 1))
ASTYPE_KERNEL(as_ushort3_long, long, ushort3, as_ushort3(in[i] << 3))
ASTYPE_KERNEL(as_float3_char16, char16, float3, as_float3(in[i] ^ (char)0x55))
ASTYPE_KERNEL(as_char3_short2, short2, char3, as_char3(in[i] + in[i + 1]))
