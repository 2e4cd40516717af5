#version 450 core
// expect: OpCapability LongVectorEXT
// GL_EXT_long_vector: vectors of more than four components, bit-reinterpreted component-wise
// (OpBitcast between 6-component vectors), from glslang 16, which nobody here wrote.
#extension GL_EXT_long_vector : require
layout(local_size_x = 32) in;
layout(set = 0, binding = 0) buffer F { float f[192]; };
layout(set = 0, binding = 1) buffer U { uint u[192]; };
void main()
{
    uint i = gl_LocalInvocationID.x * 6u;
    vector<float, 6> v;
    for (uint k = 0u; k < 6u; ++k)
        v[k] = f[i + k];
    vector<uint, 6> bits = floatBitsToUint(v);
    for (uint k = 0u; k < 6u; ++k)
        u[i + k] = bits[k];
}
