/*
 * diff_cases2026.c - the differential test's case generators for the types only SPIRV-Tools
 * 2026.4 knows: floats of non-IEEE encodings (SPV_KHR_bfloat16, SPV_EXT_float8,
 * SPV_EXT_ocp_microscaling_types), vectors of any count (SPV_EXT_long_vector) and cooperative
 * vectors cast like vectors under LongVectorEXT.
 * SPDX-License-Identifier: Apache-2.0
 */
#include <stdio.h>
#include <string.h>

#include "diff_internal.h"

/* A scalar type of the generated modules: its id, declaration, width, and the capability and
 * extension it needs (NULL: none; "" for the extension: the capability alone). */
typedef struct scalar {
    const char *id, *decl;
    uint32_t width;
    const char *cap, *ext;
    int encoded;
} scalar;

static const scalar k_scalars[] = {
    {"%u8", "OpTypeInt 8 0", 8, "Int8", NULL, 0},
    {"%u16", "OpTypeInt 16 0", 16, "Int16", NULL, 0},
    {"%u32", "OpTypeInt 32 0", 32, NULL, NULL, 0},
    {"%u64", "OpTypeInt 64 0", 64, "Int64", NULL, 0},
    {"%f16", "OpTypeFloat 16", 16, "Float16", NULL, 0},
    {"%f32", "OpTypeFloat 32", 32, NULL, NULL, 0},
    {"%f64", "OpTypeFloat 64", 64, "Float64", NULL, 0},
    {"%bf16", "OpTypeFloat 16 BFloat16KHR", 16, "BFloat16TypeKHR", "SPV_KHR_bfloat16", 1},
    {"%e4m3", "OpTypeFloat 8 Float8E4M3EXT", 8, "Float8EXT", "SPV_EXT_float8", 1},
    {"%e5m2", "OpTypeFloat 8 Float8E5M2EXT", 8, "Float8EXT", "SPV_EXT_float8", 1},
    {"%e8m0", "OpTypeFloat 8 Float8UnsignedE8M0EXT", 8, "Float8UnsignedE8M0EXT",
     "SPV_EXT_ocp_microscaling_types", 1},
    {"%mx8", "OpTypeFloat 8 MXInt8EXT", 8, "MXInt8EXT", "SPV_EXT_ocp_microscaling_types", 1},
    {"%e2m3", "OpTypeFloat 6 Float6E2M3EXT", 6, "Float6EXT", "SPV_EXT_ocp_microscaling_types", 1},
    {"%e3m2", "OpTypeFloat 6 Float6E3M2EXT", 6, "Float6EXT", "SPV_EXT_ocp_microscaling_types", 1},
    {"%e2m1", "OpTypeFloat 4 Float4E2M1EXT", 4, "Float4EXT", "SPV_EXT_ocp_microscaling_types", 1},
};
#define SCALAR_COUNT (sizeof k_scalars / sizeof k_scalars[0])
#define FIRST_ENCODED 7u

/* One side of a bitcast: a scalar, a vector of it, or (coopvec) a cooperative vector of it whose
 * count is a constant (`spec` 0) or a specialization constant. */
typedef struct side {
    const scalar *s;
    uint32_t count;
    int coopvec, spec;
} side;

static uint32_t bits(const side *x)
{
    return x->s->width * x->count;
}

/* The declarations and capabilities of a module holding sides `a` and `b`. */
typedef struct module_text {
    spvbc_gen_text head, decls;
    int used[SCALAR_COUNT];
} module_text;

static void side_name(const side *x, char *buf, size_t size)
{
    if (x->coopvec)
        snprintf(buf, size, "%%cv%s%u_%s", x->spec ? "s" : "", (unsigned)x->count, x->s->id + 1);
    else if (x->count > 1)
        snprintf(buf, size, "%%v%u_%s", (unsigned)x->count, x->s->id + 1);
    else
        snprintf(buf, size, "%s", x->s->id);
}

/* Declares side `x` (once) in `t`. */
static void declare(module_text *t, const side *x, const char *other_name)
{
    char name[48];
    side_name(x, name, sizeof name);
    const size_t k = (size_t)(x->s - k_scalars);
    if (!t->used[k]) spvbc_gen_printf(&t->decls, "%s = %s\n", x->s->id, x->s->decl);
    t->used[k] = 1;
    if (other_name && strcmp(name, other_name) == 0) return;
    if (x->coopvec)
        spvbc_gen_printf(&t->decls, "%s = OpTypeCooperativeVectorNV %s %s%u\n", name, x->s->id,
                         x->spec ? "%sc" : "%c", (unsigned)x->count);
    else if (x->count > 1)
        spvbc_gen_printf(&t->decls, "%s = OpTypeVector %s %u\n", name, x->s->id,
                         (unsigned)x->count);
}

/* Writes the module (with the bitcast when `with`) of `OpBitcast d s` into `out`. */
static void write_2026(int kernel, int long_vector, int coopvec, int extract, const side *d,
                       const side *s, int with, spvbc_gen_text *out)
{
    module_text t;
    memset(&t, 0, sizeof t);
    char dn[48], sn[48];
    side_name(d, dn, sizeof dn);
    side_name(s, sn, sizeof sn);
    spvbc_gen_printf(&t.decls, "%%void = OpTypeVoid\n%%fn = OpTypeFunction %%void\n");
    if (coopvec) {
        /* the counts first: %u32 is the type of the count constants */
        t.used[2] = 1;
        spvbc_gen_printf(&t.decls, "%%u32 = OpTypeInt 32 0\n");
        for (uint32_t c = 2; c <= 16; c *= 2)
            spvbc_gen_printf(&t.decls,
                             "%%c%u = OpConstant %%u32 %u\n%%sc%u = OpSpecConstant "
                             "%%u32 %u\n",
                             (unsigned)c, (unsigned)c, (unsigned)c, (unsigned)c);
    }
    declare(&t, s, NULL);
    declare(&t, d, sn);
    if (extract) {
        /* the Offset: a 32-bit integer constant, or (extract 2) a float one */
        const side off = {&k_scalars[extract == 2 ? 5 : 2], 1, 0, 0};
        declare(&t, &off, sn);
        spvbc_gen_printf(&t.decls, "%%off = OpConstant %s %s\n", off.s->id,
                         extract == 2 ? "0.5" : "8");
    }
    spvbc_gen_printf(out, "OpCapability %s\n", kernel ? "Kernel" : "Shader");
    if (kernel) spvbc_gen_printf(out, "OpCapability Addresses\n");
    const char *caps_done[SCALAR_COUNT + 1] = {0}, *exts_done[SCALAR_COUNT + 1] = {0};
    for (size_t k = 0, nc = 0, ne = 0; k < SCALAR_COUNT; ++k) {
        if (!t.used[k]) continue;
        const scalar *x = &k_scalars[k];
        int seen_c = 0, seen_e = 0;
        for (size_t i = 0; i < nc; ++i)
            seen_c |= x->cap && strcmp(caps_done[i], x->cap) == 0;
        for (size_t i = 0; i < ne; ++i)
            seen_e |= x->ext && strcmp(exts_done[i], x->ext) == 0;
        if (x->cap && !seen_c) caps_done[nc++] = x->cap;
        if (x->ext && !seen_e) exts_done[ne++] = x->ext;
    }
    for (size_t i = 0; caps_done[i]; ++i)
        spvbc_gen_printf(out, "OpCapability %s\n", caps_done[i]);
    const int vec16 =
        !long_vector && ((d->count >= 8 && !d->coopvec) || (s->count >= 8 && !s->coopvec));
    if (vec16) spvbc_gen_printf(out, "OpCapability Vector16\n");
    if (long_vector) spvbc_gen_printf(out, "OpCapability LongVectorEXT\n");
    if (coopvec) spvbc_gen_printf(out, "OpCapability CooperativeVectorNV\n");
    if (extract) spvbc_gen_printf(out, "OpCapability BitcastExtractEXT\n");
    for (size_t i = 0; exts_done[i]; ++i)
        spvbc_gen_printf(out, "OpExtension \"%s\"\n", exts_done[i]);
    if (long_vector) spvbc_gen_printf(out, "OpExtension \"SPV_EXT_long_vector\"\n");
    if (coopvec) spvbc_gen_printf(out, "OpExtension \"SPV_NV_cooperative_vector\"\n");
    if (extract && !t.used[11]) /* else named by the scalars' extensions */
        spvbc_gen_printf(out, "OpExtension \"SPV_EXT_ocp_microscaling_types\"\n");
    spvbc_gen_printf(out, kernel ? "OpMemoryModel Physical64 OpenCL\nOpEntryPoint Kernel %%main "
                                   "\"main\"\n"
                                 : "OpMemoryModel Logical GLSL450\nOpEntryPoint GLCompute %%main "
                                   "\"main\"\nOpExecutionMode %%main LocalSize 1 1 1\n");
    spvbc_gen_printf(out, "%s", spvbc_gen_text_str(&t.decls));
    spvbc_gen_printf(out,
                     "%%main = OpFunction %%void None %%fn\n%%entry = OpLabel\n%%x = OpUndef "
                     "%s\n",
                     sn);
    if (with && extract)
        spvbc_gen_printf(out, "%%y = OpBitcastExtractEXT %s %%x %%off\n", dn);
    else if (with)
        spvbc_gen_printf(out, "%%y = OpBitcast %s %%x\n", dn);
    spvbc_gen_printf(out, "OpReturn\nOpFunctionEnd\n");
    spvbc_gen_text_free(&t.decls);
    spvbc_gen_text_free(&t.head);
}

static void run_2026(int cat, int kernel, int long_vector, int coopvec, int extract, const side *d,
                     const side *s, rule expected)
{
    spvbc_gen_text text = {0, 0, 0, 0}, twin = {0, 0, 0, 0};
    write_2026(kernel, long_vector, coopvec, extract, d, s, 1, &text);
    write_2026(kernel, long_vector, coopvec, extract, d, s, 0, &twin);
    run_new_case(cat, 6, spvbc_gen_text_str(&text), spvbc_gen_text_str(&twin), expected);
    spvbc_gen_text_free(&text);
    spvbc_gen_text_free(&twin);
}

/* A side of scalar `s` whose total bits are `want` if it can be (else a random count). */
static side matching(const scalar *s, uint32_t want, int long_vector)
{
    static const uint32_t counts[] = {1, 2, 3, 4, 8, 16};
    side x = {s, 1, 0, 0};
    if (want % s->width == 0) {
        const uint32_t n = want / s->width;
        int ok = long_vector ? n >= 1 : 0;
        for (size_t i = 0; i < 6; ++i)
            ok |= counts[i] == n;
        if (ok && n <= 64) {
            x.count = n;
            return x;
        }
    }
    x.count = long_vector ? 1 + rnd(20) : counts[rnd(6)];
    return x;
}

/* The expected first error of `OpBitcast d s` between numerical scalars, vectors and (under
 * LongVectorEXT) cooperative vectors: only the total bit width can differ here. */
static rule model_2026(const side *d, const side *s)
{
    return bits(d) != bits(s) ? R_V12 : R_OK;
}

/* OpBitcast with a float of a non-IEEE encoding on at least one side (counts 1, 2, 3, 4, and
 * 8 and 16 in Kernel modules), half of them of equal total bits. */
void case_encoded(int kernel)
{
    static const uint32_t counts[] = {1, 2, 3, 4, 8, 16};
    const scalar *ss = &k_scalars[FIRST_ENCODED + rnd(SCALAR_COUNT - FIRST_ENCODED)];
    side s = {ss, counts[rnd(kernel ? 6 : 4)], 0, 0};
    side d = {&k_scalars[rnd(SCALAR_COUNT)], counts[rnd(kernel ? 6 : 4)], 0, 0};
    if (coin()) d = matching(d.s, bits(&s), 0);
    if (!kernel && d.count > 4) d.count = 4;
    if (coin()) {
        side t = s;
        s = d;
        d = t;
    }
    run_2026(CAT_ENCODED, kernel, 0, 0, 0, &d, &s, model_2026(&d, &s));
}

/* OpBitcast between vectors of any count (LongVectorEXT), of any of the scalars. */
void case_long_vector(int kernel)
{
    side s = {&k_scalars[rnd(SCALAR_COUNT)], 2 + rnd(30), 0, 0};
    side d = {&k_scalars[rnd(SCALAR_COUNT)], 1 + rnd(30), 0, 0};
    if (rnd(3)) d = matching(d.s, bits(&s), 1);
    run_2026(CAT_LONG_VECTOR, kernel, 1, 0, 0, &d, &s, model_2026(&d, &s));
}

/* OpBitcast between cooperative vectors and vectors or scalars under LongVectorEXT, and between
 * cooperative vectors whose counts are both specialization constants (no size: spirv-val
 * compares 0 with 0 and accepts; the library notes N-UNSIZED). */
void case_coopvec_long(void)
{
    static const uint32_t cv_counts[] = {2, 4, 8, 16};
    const scalar *cs[] = {&k_scalars[0], &k_scalars[1], &k_scalars[2], &k_scalars[4],
                          &k_scalars[5], &k_scalars[7], &k_scalars[8]};
    side s = {cs[rnd(7)], cv_counts[rnd(4)], 1, 0};
    side d = {cs[rnd(7)], cv_counts[rnd(4)], (int)rnd(3) == 0, 0};
    if (!d.coopvec && coin()) d = matching(d.s, bits(&s), 1);
    if (d.coopvec && rnd(4) == 0) s.spec = d.spec = 1;
    if (coin()) {
        side t = s;
        s = d;
        d = t;
    }
    run_2026(CAT_COOPVEC_LONG, 0, 1, 1, 0, &d, &s, s.spec ? R_OK : model_2026(&d, &s));
}

/* OpBitcastExtractEXT (SPV_EXT_ocp_microscaling_types) between any of the scalars and their
 * vectors of 1 to 4 components, with an integer offset or (one in six) a float one.  The
 * expected first error is SPIRV-Tools 2026.4's, in its order. */
void case_extract(int kernel)
{
    side s = {&k_scalars[rnd(SCALAR_COUNT)], 1 + rnd(4), 0, 0};
    side d = {&k_scalars[rnd(SCALAR_COUNT)], rnd(3) ? s.count : 1 + rnd(4), 0, 0};
    const int float_offset = rnd(6) == 0;
    rule expected = R_OK;
    if (d.count != s.count)
        expected = R_EXTRACT_DIM;
    else if (s.s->width <= d.s->width)
        expected = R_EXTRACT_WIDTH;
    else if (float_offset)
        expected = R_EXTRACT_OFFSET;
    run_2026(CAT_EXTRACT, kernel, 0, 0, float_offset ? 2 : 1, &d, &s, expected);
}
