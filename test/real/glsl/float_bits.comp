#version 450
// GLSL's float <-> integer bit reinterpretation built-ins, scalar and vector: each is one
// same-count OpBitcast in glslang's SPIR-V.
layout(local_size_x = 64) in;

layout(std430, set = 0, binding = 0) buffer Data {
    float f[64];
    vec3 f3[64];
    vec4 f4[64];
    uint u[64];
    uvec3 u3[64];
    ivec2 i2[64];
} data;

void main()
{
    uint i = gl_GlobalInvocationID.x;
    data.u[i] = floatBitsToUint(data.f[i] * 2.0) ^ 0x80000000u;
    data.f[i] = uintBitsToFloat(data.u[i] + 1u);
    data.u3[i] = floatBitsToUint(data.f3[i] + vec3(1.0));
    data.f3[i] = uintBitsToFloat(data.u3[i] | uvec3(1u));
    data.i2[i] = floatBitsToInt(data.f4[i].xy - data.f4[i].zw);
    data.f4[i] = intBitsToFloat(ivec4(data.i2[i], data.i2[i] >> 1));
}
