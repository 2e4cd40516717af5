#version 450 core
// expect: OpTypeCooperativeMatrixNV
// GL_NV_cooperative_matrix (OpTypeCooperativeMatrixNV) beside scalar bit reinterpretation, from
// glslang 15, which nobody here wrote.
#extension GL_NV_cooperative_matrix : require
#extension GL_KHR_memory_scope_semantics : require
#extension GL_EXT_shader_explicit_arithmetic_types_float16 : require
layout(local_size_x = 32) in;
layout(constant_id = 0) const uint N = 16;
layout(set = 0, binding = 0) buffer A { float16_t a[]; };
layout(set = 0, binding = 1) buffer C { float c[]; };
layout(set = 0, binding = 2) buffer Bits { uint bits[64]; };
void main()
{
    fcoopmatNV<16, gl_ScopeSubgroup, 16, 16> ma, mb;
    fcoopmatNV<32, gl_ScopeSubgroup, 16, 16> mc;
    coopMatLoadNV(ma, a, 0, 16, false);
    coopMatLoadNV(mb, a, 256, 16, false);
    coopMatLoadNV(mc, c, 0, 16, false);
    mc = coopMatMulAddNV(ma, mb, mc);
    coopMatStoreNV(mc, c, 0, 16, false);
    uint i = gl_LocalInvocationID.x;
    bits[i] = floatBitsToUint(c[i]) + N;
}
