// as_type with half (cl_khr_fp16) and double (cl_khr_fp64) on either side, in every class.
#pragma OPENCL EXTENSION cl_khr_fp16 : enable
#pragma OPENCL EXTENSION cl_khr_fp64 : enable

kernel void as_half2_float(global const float *in, global half2 *out)
{
    size_t i = get_global_id(0);
    out[i] = as_half2(in[i] * 2.0f) + (half)1.0h;
}

kernel void as_ushort_half(global const half *in, global ushort *out)
{
    size_t i = get_global_id(0);
    out[i] = as_ushort((half)(in[i] + in[i + 1]));
}

kernel void as_short3_half4(global const half4 *in, global short3 *out)
{
    size_t i = get_global_id(0);
    out[i] = as_short3(in[i] * (half)3.0h);
}

kernel void as_half4_short3(global const short3 *in, global half4 *out)
{
    size_t i = get_global_id(0);
    out[i] = as_half4(in[i] + in[i + 1]) * (half)2.0h;
}

kernel void as_half3_int2(global const int2 *in, global half3 *out)
{
    size_t i = get_global_id(0);
    out[i] = as_half3(in[i] + 1);
}

kernel void as_double_long(global const long *in, global double *out)
{
    size_t i = get_global_id(0);
    out[i] = as_double(in[i] ^ 1) * 0.5;
}

kernel void as_double2_float3(global const float3 *in, global double2 *out)
{
    size_t i = get_global_id(0);
    out[i] = as_double2(in[i] + 1.0f);
}

kernel void as_float3_double2(global const double2 *in, global float3 *out)
{
    size_t i = get_global_id(0);
    out[i] = as_float3(in[i] * 2.0);
}

kernel void as_long3_double4(global const double4 *in, global long3 *out)
{
    size_t i = get_global_id(0);
    out[i] = as_long3(in[i] + in[i + 1]);
}

kernel void as_double4_long3(global const long3 *in, global double4 *out)
{
    size_t i = get_global_id(0);
    out[i] = as_double4(in[i] - 1);
}

kernel void as_half4_double(global const double *in, global half4 *out)
{
    size_t i = get_global_id(0);
    out[i] = as_half4(in[i] + 1.0);
}

kernel void as_half16_double4(global const double4 *in, global half16 *out)
{
    size_t i = get_global_id(0);
    out[i] = as_half16(in[i] * 3.0);
}
