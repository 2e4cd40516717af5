// as_type from a 3-component operand to a 4-component result: legal (a 3-vector occupies the
// storage of 4), result implementation-defined.  clang pads lane 3 with undef.

kernel void as_float4_float3(global const float *in, global float4 *out)
{
    size_t i = get_global_id(0);
    float3 v = vload3(i, in) * 2.0f;
    out[i] = as_float4(v);
}

kernel void as_int4_float3(global const float3 *in, global int4 *out)
{
    size_t i = get_global_id(0);
    out[i] = as_int4(in[i] + in[i + 1]) & 0x7fffffff;
}

kernel void as_uchar4_char3(global const char3 *in, global uchar4 *out)
{
    size_t i = get_global_id(0);
    out[i] = as_uchar4(in[i] + in[i + 1]);
}

kernel void as_short4_ushort3(global const ushort3 *in, global short4 *out)
{
    size_t i = get_global_id(0);
    out[i] = as_short4(in[i] * (ushort)3);
}

kernel void as_long4_long3(global const long3 *in, global ulong4 *out)
{
    size_t i = get_global_id(0);
    out[i] = as_ulong4(in[i] + in[i + 1]);
}
