#version 450
// pack/unpack of GL_EXT_shader_explicit_arithmetic_types with 8-, 16- and 64-bit types: each
// is a count-change OpBitcast (e.g. u16vec2 <-> uint, u8vec4 <-> uint, u32vec2 <-> uint64_t).
#extension GL_EXT_shader_explicit_arithmetic_types : require
layout(local_size_x = 64) in;

layout(std430, set = 0, binding = 0) buffer Data {
    uint u[64];
    uint64_t l[64];
    u16vec2 s2[64];
    i16vec4 s4[64];
    u8vec4 c4[64];
    i8vec2 c2[64];
    f16vec2 h2[64];
    u16vec4 us4[64];
} data;

void main()
{
    uint i = gl_GlobalInvocationID.x;
    data.u[i] = pack32(data.s2[i] + u16vec2(1us));
    data.s2[i] = unpack16(data.u[i] ^ 1u);
    data.u[i] = pack32(data.c4[i] * u8vec4(uint8_t(3)));
    data.c4[i] = unpack8(data.u[i] + 7u);
    data.l[i] = pack64(data.s4[i] - i16vec4(int16_t(1)));
    data.s4[i] = unpack16(int64_t(data.l[i] >> 2));
    data.l[i] = pack64(unpack32(data.l[i] + 1ul).yx);
    data.s2[i] = pack16(data.c2[i] + i8vec2(int8_t(1))) == int16_t(0) ? data.s2[i] : u16vec2(2us);
    data.c2[i] = unpack8(int16_t(data.s4[i].x + int16_t(5)));
    data.h2[i] = unpackFloat2x16(data.u[i]) * float16_t(2.0hf);
    data.u[i] = packFloat2x16(data.h2[i] + f16vec2(1.0hf));
    data.us4[i] = unpack16(pack64(data.us4[i] * u16vec4(3us)));
}
