#version 450
// packUint2x32 / unpackUint2x32 (GL_ARB_gpu_shader_int64): uvec2 <-> uint64_t, a count-change
// OpBitcast (2 x 32 bits <-> 1 x 64 bits); also the signed and double variants.
#extension GL_ARB_gpu_shader_int64 : require
layout(local_size_x = 64) in;

layout(std430, set = 0, binding = 0) buffer Data {
    uint64_t l[64];
    int64_t sl[64];
    uvec2 u2[64];
    ivec2 i2[64];
    double d[64];
} data;

void main()
{
    uint i = gl_GlobalInvocationID.x;
    uvec2 halves = unpackUint2x32(data.l[i] + 1ul);
    data.u2[i] = halves.yx;
    data.l[i] = packUint2x32(data.u2[i] ^ uvec2(1u, 2u));
    data.i2[i] = unpackInt2x32(data.sl[i] >> 1);
    data.sl[i] = packInt2x32(data.i2[i] + ivec2(3));
    data.d[i] = packDouble2x32(data.u2[i]) * 2.0;
    data.u2[i] = unpackDouble2x32(data.d[i] + 1.0);
}
