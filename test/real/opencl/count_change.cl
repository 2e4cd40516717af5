// Different element counts, neither side 3: implementation-defined in OpenCL, fixed by
// SPIR-V's OpBitcast (lower-ordered bits to lower-numbered components); one OpBitcast.

kernel void as_short2_int(global const int *in, global short2 *out)
{
    size_t i = get_global_id(0);
    out[i] = as_short2(in[i] + 1);
}

kernel void as_short8_int4(global const int4 *in, global short8 *out)
{
    size_t i = get_global_id(0);
    out[i] = as_short8(in[i] * 5);
}

kernel void as_long_int2(global const int2 *in, global long *out)
{
    size_t i = get_global_id(0);
    out[i] = as_long(in[i] + in[i + 1]);
}

kernel void as_char16_long2(global const long2 *in, global char16 *out)
{
    size_t i = get_global_id(0);
    out[i] = as_char16(in[i] >> 1);
}

kernel void as_int_char4(global const char4 *in, global int *out)
{
    size_t i = get_global_id(0);
    out[i] = as_int(in[i] - in[i + 1]);
}

kernel void as_float2_long(global const long *in, global float2 *out)
{
    size_t i = get_global_id(0);
    out[i] = as_float2(in[i] | 3) * 2.0f;
}

kernel void as_long8_int16(global const int16 *in, global long8 *out)
{
    size_t i = get_global_id(0);
    out[i] = as_long8(in[i] + 1);
}

kernel void as_uchar2_ushort(global const ushort *in, global uchar2 *out)
{
    size_t i = get_global_id(0);
    out[i] = as_uchar2((ushort)(in[i] + 1u));
}
