#version 450 core
// expect: OpTypeFloat 16 BFloat16KHR
// GL_EXT_bfloat16: bfloat16 bit reinterpretation (OpBitcast of OpTypeFloat 16 BFloat16KHR)
// in a module without Float16 arithmetic on bfloat16, from glslang 16, which nobody here wrote.
#extension GL_EXT_bfloat16 : require
#extension GL_EXT_shader_explicit_arithmetic_types_int16 : require
layout(local_size_x = 32) in;
layout(set = 0, binding = 0) buffer Bits { uint16_t bits[64]; };
layout(set = 0, binding = 1) buffer Vals { bfloat16_t vals[64]; };
void main()
{
    uint i = gl_LocalInvocationID.x;
    bits[i] = bfloat16BitsToUintEXT(vals[i]);
    vals[i + 32u] = uintBitsToBFloat16EXT(bits[i] ^ uint16_t(1));
}
