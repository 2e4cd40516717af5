// Different element counts, neither side 3: implementation-defined in OpenCL, fixed by
// SPIR-V's OpBitcast (lower-ordered bits to lower-numbered components); one OpBitcast.
#include "astype_kernel.h"

ASTYPE_KERNEL(as_short2_int, int, short2, as_short2(in[i] + 1))
ASTYPE_KERNEL(as_short8_int4, int4, short8, as_short8(in[i] * 5))
ASTYPE_KERNEL(as_long_int2, int2, long, as_long(in[i] + in[i + 1]))
ASTYPE_KERNEL(as_char16_long2, long2, char16, as_char16(in[i] >> 1))
ASTYPE_KERNEL(as_int_char4, char4, int, as_int(in[i] - in[i + 1]))
ASTYPE_KERNEL(as_float2_long, long, float2, as_float2(in[i] | 3) * 2.0f)
ASTYPE_KERNEL(as_long8_int16, int16, long8, as_long8(in[i] + 1))
ASTYPE_KERNEL(as_uchar2_ushort, ushort, uchar2, as_uchar2((ushort)(in[i] + 1u)))
