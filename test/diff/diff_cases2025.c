/*
 * diff_cases2025.c - the differential test's case generators for the types only SPIRV-Tools
 * 2025.1 knows: cooperative matrices and vectors, untyped pointers.
 * SPDX-License-Identifier: Apache-2.0
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "diff_internal.h"

/* ---- the types SPIRV-Tools 2025.1 knows and 2023.1 does not -------------------------------- */

/* Runs a case written as text (the module and its twin without the bitcast) against
 * SPIRV-Tools 2025.1 (or 2026.4) only: 2023.1 cannot even assemble these. */
void run_new_case(int cat, int minor, const char *text, const char *twin, rule expected)
{
    uint32_t *w = NULL, *tw = NULL;
    size_t n = 0, tn = 0;
    char msg[2048], tmsg[2048];
    cat_stats *cs = &g_cat[cat];
    cs->cases++;
    if (new_assemble(text, minor, &w, &n) != 0 || new_assemble(twin, minor, &tw, &tn) != 0) {
        fprintf(stderr, "FAIL [%s] the generator wrote a module that does not assemble:\n%s\n",
                k_cat_name[cat], text);
        cs->failed++;
        goto done;
    }
    if (new_validate(tw, tn, minor, tmsg, sizeof tmsg) != 0) {
        if (g_verbose)
            fprintf(stderr, "skip [%s] twin invalid: %s\n%s\n", k_cat_name[cat], tmsg, twin);
        cs->skipped++;
        goto done;
    }
    int val_ok = new_validate(w, n, minor, msg, sizeof msg) == 0;
    judge_case(cat, minor, text, w, n, val_ok ? NULL : msg, expected);
done:
    free(w);
    free(tw);
}

/* A shape operand of a cooperative type: the constant's id and its value (not `known`: a
 * specialization constant, whose value spirv-val does not compare). */
typedef struct shape_op {
    const char *id;
    uint32_t value;
    int known;
} shape_op;

static const shape_op k_dims[] = {
    {"%c8", 8, 1}, {"%c16", 16, 1}, {"%c16b", 16, 1}, {"%sc16", 16, 0}};
static const shape_op k_scopes[] = {{"%sub", 3, 1}, {"%sub", 3, 1}, {"%sub", 3, 1}, {"%wg", 2, 1}};
static const shape_op k_uses[] = {{"%use0", 0, 1}, {"%use1", 1, 1}, {"%use2", 2, 1}};
static const char *const k_comps[] = {"%f16", "%f32", "%u8", "%i8", "%u16", "%i16", "%u32", "%i32"};
static const char *const k_plain[] = {"%u32", "%f32", "%v2u32", "%v4f16", "%v4u32", "%i16"};

typedef struct coop {
    int kind; /* 0 KHR matrix, 1 NV matrix, 2 NV vector, 3 not cooperative (plain) */
    const char *comp;
    shape_op scope, rows, cols, use;
    const char *plain;
} coop;

static int shape_differs(shape_op a, shape_op b)
{
    return a.known && b.known && a.value != b.value;
}

static coop random_coop(int kind)
{
    coop c;
    memset(&c, 0, sizeof c);
    c.kind = kind;
    c.comp = k_comps[rnd(8)];
    c.scope = k_scopes[rnd(4)];
    c.rows = k_dims[rnd(4)];
    c.cols = k_dims[rnd(3)];
    c.use = k_uses[rnd(3)];
    c.plain = k_plain[rnd(6)];
    return c;
}

static void coop_decl(spvbc_gen_text *t, const char *name, const coop *c)
{
    if (c->kind == 0)
        spvbc_gen_printf(t, "%s = OpTypeCooperativeMatrixKHR %s %s %s %s %s\n", name, c->comp,
                         c->scope.id, c->rows.id, c->cols.id, c->use.id);
    else if (c->kind == 1)
        spvbc_gen_printf(t, "%s = OpTypeCooperativeMatrixNV %s %s %s %s\n", name, c->comp,
                         c->scope.id, c->rows.id, c->cols.id);
    else if (c->kind == 2)
        spvbc_gen_printf(t, "%s = OpTypeCooperativeVectorNV %s %s\n", name, c->comp, c->rows.id);
}

static int same_decl(const coop *a, const coop *b)
{
    if (a->kind != b->kind) return 0;
    if (a->kind == 3) return a->plain == b->plain;
    return a->comp == b->comp && a->rows.id == b->rows.id &&
           (a->kind == 2 || (a->scope.id == b->scope.id && a->cols.id == b->cols.id &&
                             (a->kind == 1 || a->use.id == b->use.id)));
}

/* The width of component type `comp` ("%f16": 16). */
static uint32_t comp_width(const char *comp)
{
    return (uint32_t)strtoul(comp + 2, NULL, 10);
}

/* The expected first error of `OpBitcast D S` between cooperative (or plain) types. */
static rule coop_model(const coop *d, const coop *s)
{
    const int dv = d->kind == 2, sv = s->kind == 2, dm = d->kind < 2, sm = s->kind < 2;
    if (dv != sv) return R_COOPVEC;
    if (dm != sm) return R_COOPMAT;
    if (dv && shape_differs(d->rows, s->rows)) return R_COOPVEC_DIM;
    /* 2026.4 also compares cooperative vectors' total bits (the case generator leaves out a
     * specialization-constant count beside a constant one: the library has no size for it). */
    if (dv && g_2026 && d->rows.known && s->rows.known &&
        comp_width(d->comp) * d->rows.value != comp_width(s->comp) * s->rows.value)
        return R_V12;
    if (dm && (d->kind != s->kind || shape_differs(d->scope, s->scope) ||
               shape_differs(d->rows, s->rows) || shape_differs(d->cols, s->cols) ||
               (d->kind == 0 && shape_differs(d->use, s->use))))
        return R_COOPMAT_SHAPE;
    return R_OK; /* plain <-> plain does not occur here */
}

/* A module with an OpBitcast between cooperative matrices (KHR, sometimes NV) or cooperative
 * vectors (SPV_NV_cooperative_vector), or between one of those and a scalar or vector. */
void case_coop(int vectors)
{
    const int minor = 3 + (int)rnd(4);
    coop s = random_coop(vectors ? 2 : 0), d;
    uint32_t r = rnd(10);
    if (r < 5) {
        d = s; /* same shape, another component type (maybe a duplicate-valued constant) */
        d.comp = k_comps[rnd(8)];
        if (d.rows.id == k_dims[1].id && coin()) d.rows = k_dims[2];
    } else if (r < 8) {
        d = random_coop(s.kind);
    } else {
        d = random_coop(vectors ? 3 : (coin() ? 1 : 3));
    }
    /* 2026.4 counts a specialization-constant count as 0 bits beside a constant one (the library
     * notes N-UNSIZED there: validate2026/coopvec_long_vector.spvasm has it). */
    if (g_2026 && s.kind == 2 && d.kind == 2 && s.rows.known != d.rows.known) d.rows = s.rows;
    const int nv = s.kind == 1 || d.kind == 1;
    const char *dname = same_decl(&s, &d) ? "%S" : "%D";
    spvbc_gen_text head = {0, 0, 0, 0}, text = {0, 0, 0, 0}, twin = {0, 0, 0, 0};
    spvbc_gen_printf(&head, "OpCapability Shader\nOpCapability Float16\nOpCapability Int8\n"
                            "OpCapability Int16\n");
    if (vectors) {
        spvbc_gen_printf(&head, "OpCapability CooperativeVectorNV\n"
                                "OpExtension \"SPV_NV_cooperative_vector\"\n"
                                "OpMemoryModel Logical GLSL450\n");
    } else {
        spvbc_gen_printf(&head,
                         "OpCapability CooperativeMatrixKHR\nOpCapability "
                         "VulkanMemoryModel\n%sOpExtension \"SPV_KHR_cooperative_matrix\"\n",
                         nv ? "OpCapability CooperativeMatrixNV\n" : "");
        if (nv) spvbc_gen_printf(&head, "OpExtension \"SPV_NV_cooperative_matrix\"\n");
        if (minor < 5) spvbc_gen_printf(&head, "OpExtension \"SPV_KHR_vulkan_memory_model\"\n");
        spvbc_gen_printf(&head, "OpMemoryModel Logical Vulkan\n");
    }
    spvbc_gen_printf(
        &head, "OpEntryPoint GLCompute %%main \"main\"\nOpExecutionMode %%main LocalSize 64 1 1\n"
               "OpDecorate %%sc16 SpecId 0\n"
               "%%void = OpTypeVoid\n%%fn = OpTypeFunction %%void\n"
               "%%u32 = OpTypeInt 32 0\n%%i32 = OpTypeInt 32 1\n%%u16 = OpTypeInt 16 0\n"
               "%%i16 = OpTypeInt 16 1\n%%u8 = OpTypeInt 8 0\n%%i8 = OpTypeInt 8 1\n"
               "%%f16 = OpTypeFloat 16\n%%f32 = OpTypeFloat 32\n"
               "%%v2u32 = OpTypeVector %%u32 2\n%%v4u32 = OpTypeVector %%u32 4\n"
               "%%v4f16 = OpTypeVector %%f16 4\n"
               "%%c8 = OpConstant %%u32 8\n%%c16 = OpConstant %%u32 16\n"
               "%%c16b = OpConstant %%u32 16\n%%sc16 = OpSpecConstant %%u32 16\n"
               "%%sub = OpConstant %%u32 3\n%%wg = OpConstant %%u32 2\n"
               "%%use0 = OpConstant %%u32 0\n%%use1 = OpConstant %%u32 1\n"
               "%%use2 = OpConstant %%u32 2\n");
    coop_decl(&head, "%S", &s);
    if (dname[1] == 'D') coop_decl(&head, "%D", &d);
    const char *dtype = d.kind == 3 ? d.plain : dname;
    const char *body = "%main = OpFunction %void None %fn\n%e = OpLabel\n%x = OpUndef %S\n";
    spvbc_gen_printf(&text, "%s%s%%y = OpBitcast %s %%x\nOpReturn\nOpFunctionEnd\n",
                     spvbc_gen_text_str(&head), body, dtype);
    spvbc_gen_printf(&twin, "%s%sOpReturn\nOpFunctionEnd\n", spvbc_gen_text_str(&head), body);
    if (!text.failed && !twin.failed)
        run_new_case(vectors ? CAT_COOPVEC : CAT_COOPMAT, minor, spvbc_gen_text_str(&text),
                     spvbc_gen_text_str(&twin), coop_model(&d, &s));
    spvbc_gen_text_free(&head);
    spvbc_gen_text_free(&text);
    spvbc_gen_text_free(&twin);
}

/* A module with an OpBitcast between an untyped pointer (SPV_KHR_untyped_pointers) and another
 * pointer, an integer scalar or vector, or a float: a Kernel module in Physical32/64 addressing,
 * or a Shader module in Logical or PhysicalStorageBuffer64 addressing. */
void case_untyped(int shader)
{
    static const struct {
        const char *id;
        gkind kind;
        uint32_t width, count;
    } types[] = {{"%up_a", GT_PTR, 0, 1},   {"%up_b", GT_PTR, 0, 1},    {"%up_fn", GT_PTR, 0, 1},
                 {"%tp_a", GT_PTR, 0, 1},   {"%u32", GT_INT, 32, 1},    {"%u64", GT_INT, 64, 1},
                 {"%v2u32", GT_INT, 32, 2}, {"%v4u32", GT_INT, 32, 4},  {"%v2u64", GT_INT, 64, 2},
                 {"%f32", GT_FLOAT, 32, 1}, {"%v2f32", GT_FLOAT, 32, 2}};
    gmod m;
    memset(&m, 0, sizeof m);
    m.minor = (int)rnd(7);
    m.kernel = !shader;
    const int wide = coin(); /* Physical64, or PhysicalStorageBuffer64 in a Shader module */
    const char *sc_a =
        shader ? (wide ? "PhysicalStorageBuffer" : "StorageBuffer") : "CrossWorkgroup";
    m.psb_ext = shader && wide && m.minor < 5;
    uint32_t a = rnd(3), b = rnd(11);
    if (coin()) {
        uint32_t t = a;
        a = b;
        b = t;
    }
    m.addressing = shader ? (wide ? ADDR_PSB64 : ADDR_LOGICAL) : (wide ? ADDR_PHYS64 : ADDR_PHYS32);
    /* the storage classes of %up_a, %up_b, %up_fn and %tp_a (for the logical-pointer rule) */
    const int sc_of[4] = {shader ? (wide ? SC_PSB : SC_STORAGE_BUFFER) : SC_CROSS, SC_WORKGROUP,
                          SC_FUNCTION, shader ? (wide ? SC_PSB : SC_STORAGE_BUFFER) : SC_CROSS};
    gtype s = num(types[a].kind, types[a].width, types[a].count, 0);
    gtype d = num(types[b].kind, types[b].width, types[b].count, 0);
    if (a < 4) s.sc = sc_of[a];
    if (b < 4) d.sc = sc_of[b];
    spvbc_gen_text head = {0, 0, 0, 0}, text = {0, 0, 0, 0}, twin = {0, 0, 0, 0};
    if (shader)
        spvbc_gen_printf(
            &head,
            "OpCapability Shader\nOpCapability Int64\n%s"
            "OpCapability UntypedPointersKHR\n"
            "OpExtension \"SPV_KHR_untyped_pointers\"\n%s%s"
            "OpMemoryModel %s GLSL450\nOpEntryPoint GLCompute %%main \"main\"\n"
            "OpExecutionMode %%main LocalSize 1 1 1\n",
            wide ? "OpCapability PhysicalStorageBufferAddresses\n" : "",
            m.psb_ext ? "OpExtension \"SPV_KHR_physical_storage_buffer\"\n" : "",
            !wide && m.minor < 3 ? "OpExtension \"SPV_KHR_storage_buffer_storage_class\"\n" : "",
            wide ? "PhysicalStorageBuffer64" : "Logical");
    else
        spvbc_gen_printf(&head,
                         "OpCapability Kernel\nOpCapability Addresses\nOpCapability Int64\n"
                         "OpCapability UntypedPointersKHR\n"
                         "OpExtension \"SPV_KHR_untyped_pointers\"\n"
                         "OpMemoryModel %s OpenCL\nOpEntryPoint Kernel %%main \"main\"\n",
                         wide ? "Physical64" : "Physical32");
    spvbc_gen_printf(&head,
                     "%%void = OpTypeVoid\n%%fn = OpTypeFunction %%void\n"
                     "%%u32 = OpTypeInt 32 0\n%%u64 = OpTypeInt 64 0\n%%f32 = OpTypeFloat 32\n"
                     "%%v2u32 = OpTypeVector %%u32 2\n%%v4u32 = OpTypeVector %%u32 4\n"
                     "%%v2u64 = OpTypeVector %%u64 2\n%%v2f32 = OpTypeVector %%f32 2\n"
                     "%%up_a = OpTypeUntypedPointerKHR %s\n"
                     "%%up_b = OpTypeUntypedPointerKHR Workgroup\n"
                     "%%up_fn = OpTypeUntypedPointerKHR Function\n"
                     "%%tp_a = OpTypePointer %s %%u32\n",
                     sc_a, sc_a);
    const char *body = "%main = OpFunction %void None %fn\n%e = OpLabel\n";
    spvbc_gen_printf(&text,
                     "%s%s%%x = OpUndef %s\n%%y = OpBitcast %s %%x\nOpReturn\nOpFunctionEnd\n",
                     spvbc_gen_text_str(&head), body, types[a].id, types[b].id);
    spvbc_gen_printf(&twin, "%s%s%%x = OpUndef %s\nOpReturn\nOpFunctionEnd\n",
                     spvbc_gen_text_str(&head), body, types[a].id);
    if (!text.failed && !twin.failed)
        run_new_case(CAT_UNTYPED, m.minor, spvbc_gen_text_str(&text), spvbc_gen_text_str(&twin),
                     model(&m, &d, &s));
    spvbc_gen_text_free(&head);
    spvbc_gen_text_free(&text);
    spvbc_gen_text_free(&twin);
}
