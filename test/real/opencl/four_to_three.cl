// as_type from a 4-component operand to a 3-component result: the one count change OpenCL
// defines (lanes 0..2 bit-exact).  A direct OpBitcast would be invalid SPIR-V (96 vs 128 bits);
// clang + llvm-spirv emit OpBitcast to the 4-lane type, then OpVectorShuffle 0 1 2.

kernel void as_float3_float4(global const float4 *in, global float *out)
{
    size_t i = get_global_id(0);
    float3 v = as_float3(in[i] * 2.0f);
    vstore3(v, i, out);
}

kernel void as_int3_float4(global const float4 *in, global int *out)
{
    size_t i = get_global_id(0);
    int3 v = as_int3(in[i] + in[i + 1]);
    vstore3(v + 1, i, out);
}

kernel void as_uchar3_char4(global const char4 *in, global uchar *out)
{
    size_t i = get_global_id(0);
    uchar3 v = as_uchar3(in[i] + in[i + 1]);
    vstore3(v, i, out);
}

kernel void as_short3_ushort4(global const ushort4 *in, global short *out)
{
    size_t i = get_global_id(0);
    short3 v = as_short3(in[i] * (ushort)5);
    vstore3(v, i, out);
}

kernel void as_float3_int4(global const int4 *in, global float3 *out)
{
    size_t i = get_global_id(0);
    out[i] = as_float3(in[i] - 7) * 0.5f;
}

kernel void as_ulong3_long4(global const long4 *in, global ulong3 *out)
{
    size_t i = get_global_id(0);
    out[i] = as_ulong3(in[i] + in[i + 1]) >> 2;
}
