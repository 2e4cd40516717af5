#version 450
// A Vulkan compute shader with floatBitsToUint (OpBitcast), a helper with a loop, a dead value
// and debug information (-g): real glslang output for the spirv-opt parity tests.
layout(local_size_x = 64) in;
layout(std430, binding = 0) readonly buffer In { vec4 data[]; } src;
layout(std430, binding = 1) writeonly buffer Out { uint bits[]; } dst;
layout(push_constant) uniform PC { uint n; float scale; } pc;

float weigh(vec4 v) {
    float s = 0.0;
    for (int i = 0; i < 4; ++i) s += v[i] * pc.scale;
    return s;
}

void main() {
    uint i = gl_GlobalInvocationID.x;
    if (i >= pc.n) return;
    vec4 v = src.data[i];
    float unused = v.x * 3.0;
    dst.bits[i] = floatBitsToUint(weigh(v)) ^ floatBitsToUint(v.y);
}
