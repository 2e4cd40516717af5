#version 450 core
// expect: OpTypeCooperativeVectorNV
// GL_NV_cooperative_vector (OpTypeCooperativeVectorNV) beside scalar bit reinterpretation, from
// glslang 15, which nobody here wrote.
#extension GL_NV_cooperative_vector : require
#extension GL_EXT_shader_explicit_arithmetic_types_float16 : require
layout(local_size_x = 32) in;
layout(set = 0, binding = 0) buffer M { float16_t m[]; };
layout(set = 0, binding = 1) buffer V { float16_t v[]; };
layout(set = 0, binding = 2) buffer Bits { uint bits[64]; };
void main()
{
    coopvecNV<float16_t, 16> x;
    coopVecLoadNV(x, v, 0);
    coopvecNV<float16_t, 16> y;
    coopVecMatMulNV(y, x, gl_ComponentTypeFloat16NV, m, 0, gl_ComponentTypeFloat16NV, 16, 16,
                    gl_CooperativeVectorMatrixLayoutRowMajorNV, false, 32);
    coopVecStoreNV(y, v, 64);
    uint i = gl_LocalInvocationID.x;
    bits[i] = floatBitsToUint(float(v[i])) ^ 1u;
}
