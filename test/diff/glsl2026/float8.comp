#version 450 core
// expect: OpTypeFloat 8 Float8E4M3EXT
// GL_EXT_float_e4m3 / GL_EXT_float_e5m2: 8-bit float bit reinterpretation (OpBitcast of
// OpTypeFloat 8 Float8E4M3EXT and Float8E5M2EXT), from glslang 16, which nobody here wrote.
#extension GL_EXT_float_e4m3 : require
#extension GL_EXT_float_e5m2 : require
#extension GL_EXT_shader_explicit_arithmetic_types_int8 : require
layout(local_size_x = 32) in;
layout(set = 0, binding = 0) buffer Bits { uint8_t bits[64]; };
layout(set = 0, binding = 1) buffer A { floate4m3_t a[64]; };
layout(set = 0, binding = 2) buffer B { floate5m2_t b[64]; };
void main()
{
    uint i = gl_LocalInvocationID.x;
    bits[i] = floate4m3BitsToUintEXT(a[i]);
    b[i] = uintBitsToFloate5m2EXT(bits[i] ^ uint8_t(1));
}
