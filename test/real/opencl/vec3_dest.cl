// A 3-component result from an operand with other than 3 or 4 components; the sheet's
// bit-level examples are as_char3(int) and as_int3(long2).

kernel void as_char3_int(global const int *in, global char *out)
{
    size_t i = get_global_id(0);
    char3 v = as_char3(in[i] * 3);
    vstore3(v, i, out);
}

kernel void as_uchar3_float(global const float *in, global uchar3 *out)
{
    size_t i = get_global_id(0);
    out[i] = as_uchar3(in[i] + 1.0f);
}

kernel void as_int3_long2(global const long2 *in, global int *out)
{
    size_t i = get_global_id(0);
    int3 v = as_int3(in[i] + in[i + 1]);
    vstore3(v, i, out);
}

kernel void as_float3_short8(global const short8 *in, global float3 *out)
{
    size_t i = get_global_id(0);
    out[i] = as_float3(in[i] * (short)2);
}

kernel void as_short3_int2(global const int2 *in, global short3 *out)
{
    size_t i = get_global_id(0);
    out[i] = as_short3(in[i] - 1);
}

kernel void as_ushort3_long(global const long *in, global ushort3 *out)
{
    size_t i = get_global_id(0);
    out[i] = as_ushort3(in[i] << 3);
}

kernel void as_float3_char16(global const char16 *in, global float3 *out)
{
    size_t i = get_global_id(0);
    out[i] = as_float3(in[i] ^ (char)0x55);
}

kernel void as_char3_short2(global const short2 *in, global char3 *out)
{
    size_t i = get_global_id(0);
    out[i] = as_char3(in[i] + in[i + 1]);
}
