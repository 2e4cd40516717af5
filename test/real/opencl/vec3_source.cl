// A 3-component operand reinterpreted as a type with other than 3 or 4 components
// (sizeof(char3) == sizeof(int), sizeof(float3) == sizeof(long2) == 16).

kernel void as_int_char3(global const char3 *in, global int *out)
{
    size_t i = get_global_id(0);
    out[i] = as_int(in[i] + in[i + 1]);
}

kernel void as_uint_uchar3(global const uchar *in, global uint *out)
{
    size_t i = get_global_id(0);
    uchar3 v = vload3(i, in) + (uchar)1;
    out[i] = as_uint(v) ^ 1u;
}

kernel void as_long2_float3(global const float3 *in, global long2 *out)
{
    size_t i = get_global_id(0);
    out[i] = as_long2(in[i] * 3.0f);
}

kernel void as_short8_int3(global const int3 *in, global short8 *out)
{
    size_t i = get_global_id(0);
    out[i] = as_short8(in[i] + in[i + 1]);
}

kernel void as_char16_float3(global const float3 *in, global char16 *out)
{
    size_t i = get_global_id(0);
    out[i] = as_char16(in[i] - 1.0f);
}

kernel void as_long_short3(global const short3 *in, global long *out)
{
    size_t i = get_global_id(0);
    out[i] = as_long(in[i] + in[i + 1]) >> 1;
}

kernel void as_float2_ushort3(global const ushort3 *in, global float2 *out)
{
    size_t i = get_global_id(0);
    out[i] = as_float2(in[i] << (ushort)1);
}
