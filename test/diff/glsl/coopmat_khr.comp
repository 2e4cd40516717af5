#version 450 core
// expect: OpTypeCooperativeMatrixKHR
// GL_KHR_cooperative_matrix with bit reinterpretation beside it: glslang 15 makes
// OpTypeCooperativeMatrixKHR; floatBitsToUint / uintBitsToFloat make OpBitcast.
#extension GL_KHR_cooperative_matrix : require
#extension GL_KHR_memory_scope_semantics : require
#extension GL_EXT_shader_explicit_arithmetic_types : require
layout(local_size_x = 32) in;
layout(set = 0, binding = 0) buffer A { float16_t a[]; };
layout(set = 0, binding = 1) buffer B { float16_t b[]; };
layout(set = 0, binding = 2) buffer C { float c[]; };
layout(set = 0, binding = 3) buffer Bits { uint bits[64]; vec4 v[]; };
void main()
{
    coopmat<float16_t, gl_ScopeSubgroup, 16, 16, gl_MatrixUseA> ma;
    coopmat<float16_t, gl_ScopeSubgroup, 16, 16, gl_MatrixUseB> mb;
    coopmat<float, gl_ScopeSubgroup, 16, 16, gl_MatrixUseAccumulator> mc;
    coopMatLoad(ma, a, 0, 16, gl_CooperativeMatrixLayoutRowMajor);
    coopMatLoad(mb, b, 0, 16, gl_CooperativeMatrixLayoutRowMajor);
    coopMatLoad(mc, c, 0, 16, gl_CooperativeMatrixLayoutRowMajor);
    mc = coopMatMulAdd(ma, mb, mc);
    coopMatStore(mc, c, 0, 16, gl_CooperativeMatrixLayoutRowMajor);
    uint i = gl_LocalInvocationID.x;
    bits[i] = floatBitsToUint(c[i]) ^ 0x80000000u;
    v[i] = uintBitsToFloat(uvec4(bits[i], bits[i] + 1u, 0u, 1u));
}
