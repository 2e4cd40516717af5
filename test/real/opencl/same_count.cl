// as_type with the same element count on both sides: exact in OpenCL, one OpBitcast in SPIR-V
// (or no instruction at all where the two OpenCL types map to one signless SPIR-V type).
// Operands are computed values so that -O2 keeps the reinterpretation on registers.

kernel void as_int4_float4(global const float4 *in, global int4 *out)
{
    size_t i = get_global_id(0);
    out[i] = as_int4(in[i] + in[i + 1]);
}

kernel void as_float_uint(global const uint *in, global float *out)
{
    size_t i = get_global_id(0);
    out[i] = as_float(in[i] ^ 0x80000000u) * 2.0f;
}

kernel void as_uint_int_identity(global const int *in, global uint *out)
{
    size_t i = get_global_id(0);
    out[i] = as_uint(in[i] - 1) >> 3;
}

kernel void as_uchar4_char4_identity(global const char4 *in, global uchar4 *out)
{
    size_t i = get_global_id(0);
    out[i] = as_uchar4(in[i] + in[i + 1]) >> (uchar)1;
}

kernel void as_ulong2_long2_identity(global const long2 *in, global float2 *out)
{
    size_t i = get_global_id(0);
    out[i] = convert_float2(as_ulong2(in[i] * 3));
}

kernel void as_float8_int8(global const int8 *in, global float8 *out)
{
    size_t i = get_global_id(0);
    out[i] = as_float8(in[i] | 1) + 1.0f;
}

kernel void as_short16_ushort16(global const ushort16 *in, global short16 *out)
{
    size_t i = get_global_id(0);
    out[i] = as_short16(in[i] + in[i + 1]) / (short)3;
}

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
