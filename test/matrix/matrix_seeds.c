/* matrix_seeds.c - the matrix test (matrix.h): the seed examples.  SPDX-License-Identifier:
 * Apache-2.0 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "matrix.h"

#define V12_MESSAGE "Expected input to have the same total bit width as Result Type: Bitcast"


/* ---- seed examples: a constant, as_int4, a mask select, as_float3(float4) ----------------- */

static const char *const k_seed_constant =
    "OpCapability Addresses\nOpCapability Kernel\nOpMemoryModel Physical64 OpenCL\n"
    "OpEntryPoint Kernel %main \"as_float_const\"\nOpName %y \"y\"\n"
    "%void = OpTypeVoid\n%uint = OpTypeInt 32 0\n%float = OpTypeFloat 32\n"
    "%c = OpConstant %uint 1065353216\n"
    "%_ptr_CrossWorkgroup_float = OpTypePointer CrossWorkgroup %float\n"
    "%fn = OpTypeFunction %void %_ptr_CrossWorkgroup_float\n"
    "%main = OpFunction %void None %fn\n%out = OpFunctionParameter %_ptr_CrossWorkgroup_float\n"
    "%e = OpLabel\n%y = OpBitcast %float %c\nOpStore %out %y Aligned 4\nOpReturn\n"
    "OpFunctionEnd\n";

/* float4 select(float4 f, float4 g): as_float4(as_int4(f) & isless(f, g)); isless gives -1. */
static const char *const k_seed_mask =
    "OpCapability Addresses\nOpCapability Kernel\nOpMemoryModel Physical64 OpenCL\n"
    "OpEntryPoint Kernel %main \"mask\"\nOpName %y \"y\"\n"
    "%void = OpTypeVoid\n%uint = OpTypeInt 32 0\n%float = OpTypeFloat 32\n%bool = OpTypeBool\n"
    "%v4uint = OpTypeVector %uint 4\n%v4float = OpTypeVector %float 4\n"
    "%v4bool = OpTypeVector %bool 4\n"
    "%uint_m1 = OpConstant %uint 4294967295\n"
    "%allones = OpConstantComposite %v4uint %uint_m1 %uint_m1 %uint_m1 %uint_m1\n"
    "%zero = OpConstantNull %v4uint\n"
    "%_ptr_CrossWorkgroup_v4float = OpTypePointer CrossWorkgroup %v4float\n"
    "%fn = OpTypeFunction %void %_ptr_CrossWorkgroup_v4float %_ptr_CrossWorkgroup_v4float "
    "%_ptr_CrossWorkgroup_v4float\n"
    "%main = OpFunction %void None %fn\n"
    "%pf = OpFunctionParameter %_ptr_CrossWorkgroup_v4float\n"
    "%pg = OpFunctionParameter %_ptr_CrossWorkgroup_v4float\n"
    "%out = OpFunctionParameter %_ptr_CrossWorkgroup_v4float\n"
    "%e = OpLabel\n%f = OpLoad %v4float %pf Aligned 16\n%g = OpLoad %v4float %pg Aligned 16\n"
    "%fi = OpBitcast %v4uint %f\n%lt = OpFOrdLessThan %v4bool %f %g\n"
    "%m = OpSelect %v4uint %lt %allones %zero\n%and = OpBitwiseAnd %v4uint %fi %m\n"
    "%y = OpBitcast %v4float %and\nOpStore %out %y Aligned 16\nOpReturn\nOpFunctionEnd\n";

static uint32_t *assemble_kernel(const char *text, size_t *n)
{
    uint32_t *w = NULL;
    if (spvbc_gen_assemble(text, spvbc_gen_target_env(SPVBC_GEN_KERNEL), &w, n) != 0) {
        return NULL;
    }
    return w;
}

static uint32_t *assemble_pair(const char *src, const char *dst, spvbc_gen_flavour fl, size_t *n)
{
    spvbc_type_desc s, d;
    uint32_t *w = NULL;
    char *text;
    if (spvbc_type_desc_from_opencl(src, &s) != SPVBC_SUCCESS ||
        spvbc_type_desc_from_opencl(dst, &d) != SPVBC_SUCCESS) {
        fail("spvbc_type_desc_from_opencl rejects %s or %s", src, dst);
        return NULL;
    }
    text = spvbc_gen_astype_text(&s, &d, fl);
    if (!text || spvbc_gen_assemble(text, spvbc_gen_target_env(fl), &w, n) != 0) {
        fail("cannot generate as_%s(%s)", dst, src);
        w = NULL;
    }
    free(text);
    return w;
}

/* A seed whose bitcast is valid: validate clean, lower leaves it byte-identical, spirv-val ok. */
static void seed_untouched(const char *title, uint32_t *w, const size_t *np)
{
    spvbc_gen_verdict vr;
    lower_result lr;
    char msg[1024];
    int env = spvbc_gen_target_env(SPVBC_GEN_KERNEL);
    size_t n = *np;
    begin_case("seed %s", title);
    if (!w) {
        fail("cannot build the module");
        end_case(1);
        return;
    }
    if (spirv_val(w, n, env, msg, sizeof msg) != 0) {
        fail("the input is not valid: %s", msg);
    }
    spvbc_gen_library_verdict(w, n, &vr);
    if (vr.parse != SPVBC_SUCCESS || vr.verdict != SPVBC_SUCCESS) {
        fail("validate: parse %s, verdict %s [%s]", spvbc_result_string(vr.parse),
             spvbc_result_string(vr.verdict), vr.rules);
    }
    if (run_lower(w, n, SPVBC_PAD_UNDEF, &lr) != 0) {
        fail("lower failed");
    } else {
        if (!words_equal(lr.words, lr.word_count, w, n) || lr.summary.rewritten != 0) {
            fail("lower changed a valid module");
        }
        if (spirv_val(lr.words, lr.word_count, env, msg, sizeof msg) != 0) {
            fail("spirv-val rejects the output: %s", msg);
        }
    }
    free(lr.words);
    free(w);
    end_case(1);
}

/* A seed that lowers: the expected recipe lines must appear; output valid. */
static void seed_lowered(const char *title, const char *src, const char *dst, spvbc_pad_policy pad,
                         const char *const *pats, size_t npat, const char *extra_pattern)
{
    size_t n = 0;
    uint32_t *w;
    lower_result lr;
    char msg[1024];
    int env = spvbc_gen_target_env(SPVBC_GEN_KERNEL);
    begin_case("seed %s", title);
    w = assemble_pair(src, dst, SPVBC_GEN_KERNEL, &n);
    if (!w) {
        end_case(1);
        return;
    }
    if (run_lower(w, n, pad, &lr) != 0) {
        fail("lower failed");
    } else {
        char *dis = spvbc_gen_disassemble(lr.words, lr.word_count, env);
        if (lr.summary.rewritten != 1) {
            fail("expected 1 rewritten, got %zu", lr.summary.rewritten);
        }
        if (spirv_val(lr.words, lr.word_count, env, msg, sizeof msg) != 0) {
            fail("spirv-val rejects the output: %s", msg);
        }
        if (dis) {
            lines l;
            bindings b;
            long ix;
            memset(&b, 0, sizeof b);
            g_case_dis = dis;
            if (lines_split(dis, &l) == 0) {
                ix = find_prefix(&l, "%x = OpLoad ");
                for (size_t i = 0; i < npat; ++i) {
                    if (ix < 0 || (size_t)ix + 1 + i >= l.count ||
                        !line_match(l.line[(size_t)ix + 1 + i], pats[i], &b)) {
                        fail("expected line '%s' after %%x", pats[i]);
                        break;
                    }
                }
                if (extra_pattern && count_matches(&l, extra_pattern, &b) != 1) {
                    fail("expected exactly one '%s'", extra_pattern);
                }
                lines_free(&l);
            }
            g_case_dis = NULL;
            free(dis);
        } else {
            fail("cannot disassemble");
        }
    }
    free(lr.words);
    free(w);
    end_case(1);
}

void run_seeds(void)
{
    size_t n = 0;
    /* as_float(0x3f800000): an OpConstant operand. */
    seed_untouched("as_float(0x3f800000)", assemble_kernel(k_seed_constant, &n), &n);
    /* as_int4(float4) */
    seed_untouched("as_int4(float4)", assemble_pair("float4", "int4", SPVBC_GEN_KERNEL, &n), &n);
    /* the mask select */
    seed_untouched("as_float4(as_int4(f) & isless(f, g))", assemble_kernel(k_seed_mask, &n), &n);
    seed_untouched("as_short2(int)", assemble_pair("int", "short2", SPVBC_GEN_KERNEL, &n), &n);
    seed_untouched("as_short8(int4)", assemble_pair("int4", "short8", SPVBC_GEN_KERNEL, &n), &n);
    {
        static const char *const p43[] = {"%y = OpVectorShuffle %v3float %x %x 0 1 2"};
        static const char *const p34u[] = {"%y = OpVectorShuffle %v4float %x %x 0 1 2 4294967295"};
        static const char *const p34z[] = {"%y = OpVectorShuffle %v4float %x [[Z]] 0 1 2 3"};
        seed_lowered("as_float3(float4)", "float4", "float3", SPVBC_PAD_UNDEF, p43, 1, NULL);
        seed_lowered("as_float4(float3) pad undef", "float3", "float4", SPVBC_PAD_UNDEF, p34u, 1,
                     NULL);
        seed_lowered("as_float4(float3) pad zero", "float3", "float4", SPVBC_PAD_ZERO, p34z, 1,
                     "[[Z]] = OpConstantNull %v3float");
    }
    /* as_float4(float3) under pad error: refused, unchanged. */
    {
        uint32_t *w;
        lower_result lr;
        begin_case("seed as_float4(float3) pad error");
        w = assemble_pair("float3", "float4", SPVBC_GEN_KERNEL, &n);
        if (w && run_lower(w, n, SPVBC_PAD_ERROR, &lr) == 0) {
            if (lr.summary.refused != 1 || lr.error_diags == 0 ||
                !words_equal(lr.words, lr.word_count, w, n)) {
                fail("expected refusal with an error diagnostic and no change");
            }
        } else {
            fail("lower failed");
            lr.words = NULL;
        }
        free(lr.words);
        free(w);
        end_case(1);
    }
    /* as_double4(float4): a size error; parse ok, V12 not lowerable, lower refuses. */
    {
        uint32_t *w;
        spvbc_gen_verdict vr;
        lower_result lr;
        char msg[1024];
        begin_case("seed as_double4(float4)");
        w = assemble_pair("float4", "double4", SPVBC_GEN_KERNEL, &n);
        if (!w) {
            end_case(1);
            return;
        }
        if (spirv_val(w, n, spvbc_gen_target_env(SPVBC_GEN_KERNEL), msg, sizeof msg) == 0 ||
            !strstr(msg, V12_MESSAGE)) {
            fail("spirv-val should reject with V12, says: %s", msg[0] ? msg : "valid");
        }
        spvbc_gen_library_verdict(w, n, &vr);
        if (vr.parse != SPVBC_SUCCESS) {
            fail("parse failed: %s", spvbc_result_string(vr.parse));
        } else if (vr.verdict != SPVBC_ERROR_VALIDATION_FAILED || strcmp(vr.rules, "V12") != 0 ||
                   all_errors_lowerable(&vr)) {
            fail("validate: expected one non-lowerable V12 error, got %s [%s]%s",
                 spvbc_result_string(vr.verdict), vr.rules,
                 all_errors_lowerable(&vr) ? " (lowerable)" : "");
        }
        if (run_lower(w, n, SPVBC_PAD_UNDEF, &lr) != 0) {
            fail("lower failed");
        } else if (lr.summary.refused != 1 || lr.summary.rewritten != 0 || lr.error_diags == 0 ||
                   !words_equal(lr.words, lr.word_count, w, n)) {
            fail("lower: expected 1 refused with an error diagnostic and no change; got %zu "
                 "refused, %zu rewritten, %zu errors",
                 lr.summary.refused, lr.summary.rewritten, lr.error_diags);
        }
        free(lr.words);
        free(w);
        end_case(1);
    }
}
