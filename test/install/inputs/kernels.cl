// OpenCL C kernels using as_type across 3- and 4-component vectors; compiled by clang-15 and
// llvm-spirv-15 into the "real producer" module of the spirv-opt parity tests.
float3 reinterpret3(uint4 x) { return as_float3(x); }

kernel void astype43(global const uint4 *in, global float *out) {
    size_t i = get_global_id(0);
    float3 f = reinterpret3(in[i]);
    out[i] = f.x + f.y * f.z;
}

kernel void pack(global const float4 *in, global uint *out, uint n) {
    size_t i = get_global_id(0);
    if (i >= n) return;
    uchar4 b = as_uchar4(in[i].w);
    uint acc = 0;
    for (int k = 0; k < 4; ++k) acc = acc * 31u + b[k];
    out[i] = acc ^ as_uint(in[i].x);
}
