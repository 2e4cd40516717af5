/*
 * bench_modules.c - the modules the benchmark builds in memory with test/support's module
 * builder: the pathological module (and its clean twin) and the two small compute shaders.
 *
 * SPDX-License-Identifier: Apache-2.0
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <spirv/unified1/spirv.h>

#include "bench.h"

#define WORDS(...) ((const uint32_t[]){__VA_ARGS__})

/* The pathological module, after test/fuzz/pathological.c: one Kernel function holding `count`
 * OpBitcast of one OpUndef float4; every 4th is as_float3(float4) written as a direct OpBitcast
 * (an error that lower rewrites), the others as_int4(float4).  bench_patho_set_errors() turns the
 * errors into valid as_int4 and back, which gives the clean twin (same size, no findings). */
size_t bench_patho_build(mb *b, size_t count, size_t *first_bitcast)
{
    b->n = 0;
    mb_reserve(b, 64 + 4 * count);
    mb_header(b, 0x00010000u, 0);
    MB(b, SpvOpCapability, SpvCapabilityKernel);
    MB(b, SpvOpCapability, SpvCapabilityAddresses);
    MB(b, SpvOpMemoryModel, SpvAddressingModelPhysical64, SpvMemoryModelOpenCL);
    mb_inst(b, SpvOpEntryPoint, WORDS(SpvExecutionModelKernel, PA_FN), 2, "k", NULL, 0);
    MB(b, SpvOpTypeVoid, PA_VOID);
    MB(b, SpvOpTypeFunction, PA_FNTY, PA_VOID);
    MB(b, SpvOpTypeFloat, PA_F, 32);
    MB(b, SpvOpTypeVector, PA_F4, PA_F, 4);
    MB(b, SpvOpTypeVector, PA_F3, PA_F, 3);
    MB(b, SpvOpTypeInt, PA_I, 32, 0);
    MB(b, SpvOpTypeVector, PA_I4, PA_I, 4);
    MB(b, SpvOpFunction, PA_VOID, PA_FN, 0, PA_FNTY);
    MB(b, SpvOpLabel, PA_LABEL);
    MB(b, SpvOpUndef, PA_F4, PA_X);
    *first_bitcast = b->n;
    for (size_t i = 0; i < count; ++i) {
        MB(b, SpvOpBitcast, i % 4 == 0 ? PA_F3 : PA_I4, (uint32_t)(PA_FIRST + i), PA_X);
    }
    mb_op0(b, SpvOpReturn);
    mb_op0(b, SpvOpFunctionEnd);
    b->w[3] = (uint32_t)(PA_FIRST + count);
    return (count + 3) / 4;
}

void bench_patho_set_errors(mb *b, size_t count, size_t first_bitcast, int errors)
{
    for (size_t i = 0; i < count; i += 4) {
        b->w[first_bitcast + i * 4 + 1] = errors ? PA_F3 : PA_I4;
    }
}

/* A compute shader shaped like the layer benchmark's module (layer/vulkan/test):
 * `blocks` blocks that load a float4 from a storage buffer, square it and store a bitcast of
 * it; the first `lowerable` blocks store as_float3(float4) written as a direct OpBitcast (an
 * error that lower rewrites), the others as_int4(float4). */
void bench_build_compute(mb *b, uint32_t blocks, uint32_t lowerable)
{
    enum {
        MAIN = 1,
        VOID,
        UINT,
        V3UINT,
        INT,
        V4INT,
        FLOAT,
        V4FLOAT,
        V3FLOAT,
        INT0,
        PTR_IN_V3UINT,
        GID,
        IN_ARR,
        IN_BLK,
        PTR_IN_BLK,
        IN_BUF,
        OUT_ARR,
        OUT_BLK,
        PTR_OUT_BLK,
        OUT_BUF,
        INT_ARR,
        INT_BLK,
        PTR_INT_BLK,
        INT_BUF,
        PTR_V4FLOAT,
        PTR_V3FLOAT,
        PTR_V4INT,
        FNTY,
        ENTRY,
        GIDV,
        I,
        FIRST
    };
    /* per block: constant k, idx, inp, x, s, y, outp */
    const uint32_t per = 7;
    b->n = 0; /* bench_build_clean8k() builds again into the same buffer */
    mb_reserve(b, 512 + 64 * (size_t)blocks);
    mb_header(b, 0x00010500u, 0);
    MB(b, SpvOpCapability, SpvCapabilityShader);
    MB(b, SpvOpMemoryModel, SpvAddressingModelLogical, SpvMemoryModelGLSL450);
    mb_inst(b, SpvOpEntryPoint, WORDS(SpvExecutionModelGLCompute, MAIN), 2, "main",
            WORDS(GID, IN_BUF, OUT_BUF, INT_BUF), 4);
    MB(b, SpvOpExecutionMode, MAIN, SpvExecutionModeLocalSize, 64, 1, 1);
    mb_name(b, MAIN, "main");
    mb_name(b, IN_BUF, "in_buf");
    mb_name(b, OUT_BUF, "out_buf");
    mb_name(b, INT_BUF, "int_buf");
    for (uint32_t k = 0; k < blocks; ++k) {
        char nm[24];
        snprintf(nm, sizeof nm, "x%u", k);
        mb_name(b, FIRST + k * per + 3, nm);
        snprintf(nm, sizeof nm, "y%u", k);
        mb_name(b, FIRST + k * per + 5, nm);
    }
    MB(b, SpvOpDecorate, GID, SpvDecorationBuiltIn, SpvBuiltInGlobalInvocationId);
    const uint32_t bufs[3][4] = {{IN_ARR, IN_BLK, IN_BUF, 0},
                                 {OUT_ARR, OUT_BLK, OUT_BUF, 1},
                                 {INT_ARR, INT_BLK, INT_BUF, 2}};
    for (int k = 0; k < 3; ++k) {
        MB(b, SpvOpDecorate, bufs[k][0], SpvDecorationArrayStride, 16);
        MB(b, SpvOpMemberDecorate, bufs[k][1], 0, SpvDecorationOffset, 0);
        if (k == 0) {
            MB(b, SpvOpMemberDecorate, bufs[k][1], 0, SpvDecorationNonWritable);
        }
        MB(b, SpvOpDecorate, bufs[k][1], SpvDecorationBlock);
        MB(b, SpvOpDecorate, bufs[k][2], SpvDecorationDescriptorSet, 0);
        MB(b, SpvOpDecorate, bufs[k][2], SpvDecorationBinding, bufs[k][3]);
    }
    MB(b, SpvOpTypeVoid, VOID);
    MB(b, SpvOpTypeInt, UINT, 32, 0);
    MB(b, SpvOpTypeVector, V3UINT, UINT, 3);
    MB(b, SpvOpTypeInt, INT, 32, 1);
    MB(b, SpvOpTypeVector, V4INT, INT, 4);
    MB(b, SpvOpTypeFloat, FLOAT, 32);
    MB(b, SpvOpTypeVector, V4FLOAT, FLOAT, 4);
    MB(b, SpvOpTypeVector, V3FLOAT, FLOAT, 3);
    MB(b, SpvOpConstant, INT, INT0, 0);
    MB(b, SpvOpTypePointer, PTR_IN_V3UINT, SpvStorageClassInput, V3UINT);
    MB(b, SpvOpVariable, PTR_IN_V3UINT, GID, SpvStorageClassInput);
    const uint32_t elem[3] = {V4FLOAT, V3FLOAT, V4INT};
    const uint32_t ptrs[3] = {PTR_IN_BLK, PTR_OUT_BLK, PTR_INT_BLK};
    for (int k = 0; k < 3; ++k) {
        MB(b, SpvOpTypeRuntimeArray, bufs[k][0], elem[k]);
        MB(b, SpvOpTypeStruct, bufs[k][1], bufs[k][0]);
        MB(b, SpvOpTypePointer, ptrs[k], SpvStorageClassStorageBuffer, bufs[k][1]);
        MB(b, SpvOpVariable, ptrs[k], bufs[k][2], SpvStorageClassStorageBuffer);
    }
    MB(b, SpvOpTypePointer, PTR_V4FLOAT, SpvStorageClassStorageBuffer, V4FLOAT);
    MB(b, SpvOpTypePointer, PTR_V3FLOAT, SpvStorageClassStorageBuffer, V3FLOAT);
    MB(b, SpvOpTypePointer, PTR_V4INT, SpvStorageClassStorageBuffer, V4INT);
    MB(b, SpvOpTypeFunction, FNTY, VOID);
    for (uint32_t k = 0; k < blocks; ++k) {
        MB(b, SpvOpConstant, UINT, FIRST + k * per, k == 0 ? blocks : k);
    }
    MB(b, SpvOpFunction, VOID, MAIN, SpvFunctionControlMaskNone, FNTY);
    MB(b, SpvOpLabel, ENTRY);
    MB(b, SpvOpLoad, V3UINT, GIDV, GID);
    MB(b, SpvOpCompositeExtract, UINT, I, GIDV, 0);
    for (uint32_t k = 0; k < blocks; ++k) {
        uint32_t id = FIRST + k * per, low = k < lowerable;
        /* block 0: idx = i * blocks; block k: idx = idx0 + k */
        if (k == 0) {
            MB(b, SpvOpIMul, UINT, id + 1, I, id);
        } else {
            MB(b, SpvOpIAdd, UINT, id + 1, FIRST + 1, id);
        }
        MB(b, SpvOpAccessChain, PTR_V4FLOAT, id + 2, IN_BUF, INT0, id + 1);
        MB(b, SpvOpLoad, V4FLOAT, id + 3, id + 2);
        MB(b, SpvOpFMul, V4FLOAT, id + 4, id + 3, id + 3);
        MB(b, SpvOpBitcast, low ? V3FLOAT : V4INT, id + 5, id + 4);
        MB(b, SpvOpAccessChain, low ? PTR_V3FLOAT : PTR_V4INT, id + 6, low ? OUT_BUF : INT_BUF,
           INT0, id + 1);
        MB(b, SpvOpStore, id + 6, id + 5);
    }
    mb_op0(b, SpvOpReturn);
    mb_op0(b, SpvOpFunctionEnd);
    b->w[3] = FIRST + blocks * per;
}

void bench_build_clean8k(mb *b)
{
    uint32_t blocks = 10;
    do {
        bench_build_compute(b, ++blocks, 0);
    } while (b->n * 4 < 8192);
}

static int write_words(const char *dir, const char *name, const mb *b)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "wb");
    int ok = f && fwrite(b->w, 4, b->n, f) == b->n;
    if (f && fclose(f) != 0) {
        ok = 0;
    }
    if (!ok) {
        fprintf(stderr, "spvbc_bench: cannot write %s\n", path);
    }
    return ok;
}

int bench_emit_small(const char *dir)
{
    mb six = {0}, clean = {0};
    bench_build_compute(&six, 10, 6);
    bench_build_clean8k(&clean);
    int ok = write_words(dir, "small-six-4to3.spv", &six) &&
             write_words(dir, "small-clean-8k.spv", &clean);
    mb_free(&six);
    mb_free(&clean);
    return ok ? 0 : 1;
}
