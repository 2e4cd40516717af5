/*
 * diff.c - the differential test: spvbc_module_validate() against spirv-val.
 *
 * A seeded generator (fixed seed: the run is reproducible) writes single-bitcast modules over:
 * scalars and vectors of int/float widths 8/16/32/64 and counts 1/2/3/4/8/16; pointers
 * (Physical32/Physical64 Kernel addressing, PhysicalStorageBuffer64 in Shader, Logical
 * addressing with Function/StorageBuffer pointers); SPIR-V 1.0-1.6 (with the
 * SPV_KHR_physical_storage_buffer extension in some <1.5 modules); Kernel and Shader modules
 * (Shader with and without Int8/Int16/Float16, so the storage-only rule fires); bool types;
 * operands that are not values (a type, an OpString, a label); OpSpecConstantOp Bitcast in
 * Kernel modules (and a few in Shader modules, where it needs the Kernel capability).
 *
 * Every module has a twin without the bitcast; spirv-val must accept the twin, so that its
 * verdict on the module is about the bitcast alone (cases whose twin is invalid are skipped and
 * counted).  For each case the library's verdict (spvbc_module_validate() returning
 * SPVBC_ERROR_VALIDATION_FAILED or not) must equal spirv-val's (SPIRV-Tools C API, the
 * module's universal target env), and the rule id of the library's error must map to
 * spirv-val's message.  The test also carries its own model of the rules sheet (section 1); it
 * must agree with spirv-val too.  OpSpecConstantOp Bitcast in Kernel modules is not checked by
 * SPIRV-Tools 2023.1: there the library follows current SPIRV-Tools (V1-V13 apply), and the
 * test compares it against the model instead (reported separately).
 *
 * With --spirv-tools-2025 ROOT SPIRV-Tools 2025.1 from Debian 13 is the oracle: its
 * spirv-val (and for the new categories its spirv-as) from the tree cmake/debian-tree.sh
 * unpacked at ROOT, run under the tree's own loader, one process per call.  The generator then
 * also writes cooperative matrices (KHR, and NV beside them), cooperative vectors
 * (SPV_NV_cooperative_vector) and untyped pointers (SPV_KHR_untyped_pointers, Kernel and Shader
 * modules), which 2023.1 cannot assemble; the model knows their rules too.
 *
 * Usage: spvbc_diff [--seed N] [--scale N] [--show CATEGORY] [--verbose] [--spirv-tools-2025 ROOT]
 *   --scale N runs N times as many cases; --show prints every module of a category with the
 *   three verdicts; --verbose also prints the skipped cases.
 * SPDX-License-Identifier: Apache-2.0
 */
#define _DEFAULT_SOURCE /* mkdtemp, fork */
#include <fcntl.h>
#include <glob.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "astype_gen.h"
#include "spirv_bitcast.h"
#include "test_rng.h"

#undef R_OK /* unistd.h access() mode; the rules below use the name */

/* ---- deterministic random numbers (test/support's xorshift64*) --------------------------- */

static test_rng g_rng = {0x5eed2b17c0ffee01ull};

/* 31 bits of each output (not test_rng_below's 32): the cases every seed has always made. */
static uint32_t rnd(uint32_t n)
{
    uint64_t x = test_rng_next(&g_rng);
    return n ? (uint32_t)(x >> 33) % n : 0;
}

static int coin(void)
{
    return (int)rnd(2);
}

/* ---- generator types -------------------------------------------------------------------- */

typedef enum { GT_INT, GT_FLOAT, GT_BOOL, GT_PTR } gkind;

enum { SC_FUNCTION, SC_CROSS, SC_WORKGROUP, SC_STORAGE_BUFFER, SC_PSB };
static const char *const k_sc_name[] = {"Function", "CrossWorkgroup", "Workgroup", "StorageBuffer",
                                        "PhysicalStorageBuffer"};

typedef struct gtype {
    gkind kind;
    uint32_t width; /* int/float */
    uint32_t count; /* 1: scalar */
    int is_signed;
    int sc; /* pointers */
    gkind pk; /* pointee: int/float/bool scalar or vector */
    uint32_t pw, pc;
    int ps;
} gtype;

static gtype num(gkind k, uint32_t w, uint32_t c, int s)
{
    gtype t;
    memset(&t, 0, sizeof t);
    t.kind = k;
    t.width = k == GT_BOOL ? 0 : w;
    t.count = c;
    t.is_signed = k == GT_INT ? s : 0;
    return t;
}

static gtype ptr(int sc, gtype pointee)
{
    gtype t;
    memset(&t, 0, sizeof t);
    t.kind = GT_PTR;
    t.count = 1;
    t.sc = sc;
    t.pk = pointee.kind;
    t.pw = pointee.width;
    t.pc = pointee.count;
    t.ps = pointee.is_signed;
    return t;
}

static gtype pointee_of(const gtype *p)
{
    return num(p->pk, p->pw, p->pc, p->ps);
}

static void type_name(const gtype *t, char *buf, size_t size)
{
    if (t->kind == GT_PTR) {
        gtype e = pointee_of(t);
        char en[32];
        type_name(&e, en, sizeof en);
        snprintf(buf, size, "p_%s_%s", k_sc_name[t->sc], en);
        return;
    }
    {
        char s[16];
        if (t->kind == GT_BOOL) {
            snprintf(s, sizeof s, "bool");
        } else {
            snprintf(s, sizeof s, "%c%u", t->kind == GT_FLOAT ? 'f' : (t->is_signed ? 'i' : 'u'),
                     (unsigned)t->width);
        }
        if (t->count > 1) {
            snprintf(buf, size, "v%u%s", (unsigned)t->count, s);
        } else {
            snprintf(buf, size, "%s", s);
        }
    }
}

/* ---- the module under construction ------------------------------------------------------ */

enum { ADDR_LOGICAL, ADDR_PHYS32, ADDR_PHYS64, ADDR_PSB64 };

typedef struct gmod {
    int minor; /* SPIR-V 1.<minor> */
    int kernel; /* Kernel (OpenCL) module, else Shader */
    int addressing;
    int psb_ext; /* OpExtension "SPV_KHR_physical_storage_buffer" */
    int int8, int16, float16; /* Shader: arithmetic capabilities declared */
    int use8, use16i, use16f, use64i, use64f, use_vec16, use_sb;
    spvbc_gen_text decls; /* types, constants, global variables in dependency order */
    spvbc_gen_text annots; /* decorations */
    spvbc_gen_text debug; /* OpString */
    spvbc_gen_text vars; /* function-scope OpVariable (first block) */
    spvbc_gen_text body; /* other function instructions before the bitcast */
    char params[8][64]; /* parameter type names */
    char param_ids[8][16];
    size_t nparams;
    char globals[512]; /* interface list (SPIR-V 1.4+) */
    spvbc_gen_names declared;
    unsigned next_id;
    unsigned next_binding;
} gmod;

static void new_id(gmod *m, char *buf, size_t size, const char *prefix)
{
    snprintf(buf, size, "%%%s_%u", prefix, m->next_id++); /* "_" keeps ids apart from types */
}

/* Declares `t` (and what it depends on) once; writes its id (with '%') to `buf`. */
static void ensure_type(gmod *m, const gtype *t, char *buf, size_t size)
{
    char name[48];
    type_name(t, name, sizeof name);
    snprintf(buf, size, "%%%s", name);
    if (spvbc_gen_names_has(&m->declared, name)) {
        return;
    }
    if (t->kind == GT_PTR) {
        gtype e = pointee_of(t);
        char en[64];
        ensure_type(m, &e, en, sizeof en);
        spvbc_gen_printf(&m->decls, "%%%s = OpTypePointer %s %s\n", name, k_sc_name[t->sc], en);
        m->use_sb |= t->sc == SC_STORAGE_BUFFER;
    } else if (t->count > 1) {
        gtype s = *t;
        char sn[64];
        s.count = 1;
        ensure_type(m, &s, sn, sizeof sn);
        spvbc_gen_printf(&m->decls, "%%%s = OpTypeVector %s %u\n", name, sn, (unsigned)t->count);
        if (t->count >= 8) {
            m->use_vec16 = 1;
        }
    } else if (t->kind == GT_BOOL) {
        spvbc_gen_printf(&m->decls, "%%%s = OpTypeBool\n", name);
    } else if (t->kind == GT_FLOAT) {
        spvbc_gen_printf(&m->decls, "%%%s = OpTypeFloat %u\n", name, (unsigned)t->width);
        m->use16f |= t->width == 16;
        m->use64f |= t->width == 64;
    } else {
        spvbc_gen_printf(&m->decls, "%%%s = OpTypeInt %u %d\n", name, (unsigned)t->width,
                         t->is_signed);
        m->use8 |= t->width == 8;
        m->use16i |= t->width == 16;
        m->use64i |= t->width == 64;
    }
    spvbc_gen_names_add(&m->declared, name);
}

static void add_global(gmod *m, const char *id)
{
    size_t len = strlen(m->globals);
    snprintf(m->globals + len, sizeof m->globals - len, " %s", id);
}

/* Whether `t` is an 8/16-bit type a Shader module can only store (no arithmetic capability). */
static int storage_only(const gmod *m, const gtype *t)
{
    if (m->kernel || t->kind == GT_BOOL) {
        return 0;
    }
    if (t->kind == GT_PTR) {
        gtype e = pointee_of(t);
        return storage_only(m, &e);
    }
    if (t->kind == GT_INT) {
        return (t->width == 8 && !m->int8) || (t->width == 16 && !m->int16);
    }
    return t->width == 16 && !m->float16;
}

/* A uint 0 constant (for access chains). */
static void const_u32_0(gmod *m, char *buf, size_t size)
{
    gtype u = num(GT_INT, 32, 1, 0);
    char un[64];
    ensure_type(m, &u, un, sizeof un);
    snprintf(buf, size, "%%c0");
    if (!spvbc_gen_names_has(&m->declared, "c0")) {
        spvbc_gen_printf(&m->decls, "%%c0 = OpConstant %s 0\n", un);
        spvbc_gen_names_add(&m->declared, "c0");
    }
}

/* A StorageBuffer block variable whose member 0 has type `t`; writes a pointer to member 0
 * into `ptr_id` (an OpAccessChain in the body). */
static void sb_member_pointer(gmod *m, const gtype *t, char *ptr_id, size_t size)
{
    char tn[64], blk[64], pblk[80], var[24], c0[16], name[48];
    gtype p = ptr(SC_STORAGE_BUFFER, *t);
    char pn[64];
    ensure_type(m, t, tn, sizeof tn);
    ensure_type(m, &p, pn, sizeof pn);
    type_name(t, name, sizeof name);
    snprintf(blk, sizeof blk, "%%blk_%s", name);
    snprintf(pblk, sizeof pblk, "%%p_StorageBuffer_blk_%s", name);
    if (!spvbc_gen_names_has(&m->declared, blk + 1)) {
        spvbc_gen_printf(&m->decls, "%s = OpTypeStruct %s\n%s = OpTypePointer StorageBuffer %s\n",
                         blk, tn, pblk, blk);
        spvbc_gen_printf(&m->annots, "OpMemberDecorate %s 0 Offset 0\nOpDecorate %s Block\n", blk,
                         blk);
        spvbc_gen_names_add(&m->declared, blk + 1);
    }
    new_id(m, var, sizeof var, "sb");
    spvbc_gen_printf(&m->decls, "%s = OpVariable %s StorageBuffer\n", var, pblk);
    spvbc_gen_printf(&m->annots, "OpDecorate %s DescriptorSet 0\nOpDecorate %s Binding %u\n", var,
                     var, m->next_binding++);
    add_global(m, var);
    m->use_sb = 1;
    const_u32_0(m, c0, sizeof c0);
    new_id(m, ptr_id, size, "a");
    spvbc_gen_printf(&m->body, "%s = OpAccessChain %s %s %s\n", ptr_id, pn, var, c0);
}

typedef enum { SRC_UNDEF, SRC_NULL, SRC_LOAD, SRC_PARAM, SRC_VAR, SRC_SB } src_kind;

/* Makes a value of type `t` for the bitcast operand; writes its id to `id`. */
static void make_value(gmod *m, const gtype *t, char *id, size_t size)
{
    char tn[64];
    src_kind k;
    ensure_type(m, t, tn, sizeof tn);
    if (t->kind == GT_PTR) {
        /* Pointers: a variable's address, an access chain, a parameter or OpUndef. */
        if (t->sc == SC_FUNCTION) {
            k = coin() ? SRC_VAR : SRC_UNDEF;
        } else if (t->sc == SC_CROSS) {
            k = coin() ? SRC_PARAM : SRC_UNDEF;
        } else if (t->sc == SC_WORKGROUP) {
            k = coin() ? SRC_VAR : SRC_UNDEF;
        } else if (t->sc == SC_STORAGE_BUFFER) {
            k = coin() ? SRC_SB : SRC_UNDEF;
        } else {
            k = SRC_UNDEF;
        }
        if (m->kernel && k == SRC_UNDEF && coin()) {
            k = SRC_NULL;
        }
        if (storage_only(m, t) && k == SRC_VAR) {
            k = SRC_UNDEF; /* no variables of storage-only types outside buffers */
        }
    } else if (t->kind == GT_BOOL) {
        k = coin() ? SRC_UNDEF : SRC_NULL;
    } else if (storage_only(m, t)) {
        k = SRC_SB; /* the only way to get such a value */
    } else if (m->kernel) {
        static const src_kind kk[4] = {SRC_UNDEF, SRC_NULL, SRC_LOAD, SRC_PARAM};
        k = kk[rnd(4)];
    } else {
        static const src_kind ks[3] = {SRC_UNDEF, SRC_NULL, SRC_SB};
        k = ks[rnd(3)];
    }
    switch (k) {
    case SRC_UNDEF:
        new_id(m, id, size, "u");
        spvbc_gen_printf(&m->body, "%s = OpUndef %s\n", id, tn);
        break;
    case SRC_NULL:
        new_id(m, id, size, "n");
        spvbc_gen_printf(&m->decls, "%s = OpConstantNull %s\n", id, tn);
        break;
    case SRC_PARAM:
        new_id(m, id, size, "param");
        if (m->nparams < 8) {
            snprintf(m->params[m->nparams], sizeof m->params[0], "%s", tn);
            snprintf(m->param_ids[m->nparams], sizeof m->param_ids[0], "%s", id);
            m->nparams++;
        }
        break;
    case SRC_LOAD: {
        gtype p = ptr(SC_FUNCTION, *t);
        char pn[64], var[24];
        ensure_type(m, &p, pn, sizeof pn);
        new_id(m, var, sizeof var, "fv");
        spvbc_gen_printf(&m->vars, "%s = OpVariable %s Function\n", var, pn);
        new_id(m, id, size, "ld");
        spvbc_gen_printf(&m->body, "%s = OpLoad %s %s\n", id, tn, var);
        break;
    }
    case SRC_VAR: {
        gtype e = pointee_of(t);
        char en[64];
        ensure_type(m, &e, en, sizeof en);
        new_id(m, id, size, "var");
        if (t->sc == SC_FUNCTION) {
            spvbc_gen_printf(&m->vars, "%s = OpVariable %s Function\n", id, tn);
        } else {
            spvbc_gen_printf(&m->decls, "%s = OpVariable %s %s\n", id, tn, k_sc_name[t->sc]);
            add_global(m, id);
        }
        break;
    }
    case SRC_SB:
        if (t->kind == GT_PTR) {
            gtype e = pointee_of(t);
            sb_member_pointer(m, &e, id, size);
        } else {
            char p[24];
            sb_member_pointer(m, t, p, sizeof p);
            new_id(m, id, size, "ld");
            spvbc_gen_printf(&m->body, "%s = OpLoad %s %s\n", id, tn, p);
        }
        break;
    }
}

/* Writes the whole module: `bitcast_line` (may be NULL: the twin) goes at the end of the body
 * when `global_line` is 0, or after the declarations (OpSpecConstantOp) otherwise. */
static void write_module(gmod *m, const char *bitcast_line, int global_line, spvbc_gen_text *out)
{
    char fnty[256];
    size_t len;
    spvbc_gen_printf(out, "OpCapability %s\n", m->kernel ? "Kernel" : "Shader");
    if (m->kernel) {
        spvbc_gen_printf(out, "OpCapability Addresses\n");
        if (m->use8) spvbc_gen_printf(out, "OpCapability Int8\n");
        if (m->use16i) spvbc_gen_printf(out, "OpCapability Int16\n");
        if (m->use16f) spvbc_gen_printf(out, "OpCapability Float16\n");
        if (m->use_vec16) spvbc_gen_printf(out, "OpCapability Vector16\n");
    } else {
        if (m->use8 && m->int8) spvbc_gen_printf(out, "OpCapability Int8\n");
        if (m->use16i && m->int16) spvbc_gen_printf(out, "OpCapability Int16\n");
        if (m->use16f && m->float16) spvbc_gen_printf(out, "OpCapability Float16\n");
        if (m->use8) spvbc_gen_printf(out, "OpCapability StorageBuffer8BitAccess\n");
        if (m->use16i || m->use16f)
            spvbc_gen_printf(out, "OpCapability StorageBuffer16BitAccess\n");
        if (m->addressing == ADDR_PSB64) {
            spvbc_gen_printf(out, "OpCapability PhysicalStorageBufferAddresses\n");
        }
    }
    if (m->use64i) spvbc_gen_printf(out, "OpCapability Int64\n");
    if (m->use64f) spvbc_gen_printf(out, "OpCapability Float64\n");
    if (m->psb_ext) spvbc_gen_printf(out, "OpExtension \"SPV_KHR_physical_storage_buffer\"\n");
    if (!m->kernel) {
        if (m->use8 && m->minor < 5)
            spvbc_gen_printf(out, "OpExtension \"SPV_KHR_8bit_storage\"\n");
        if ((m->use16i || m->use16f) && m->minor < 3) {
            spvbc_gen_printf(out, "OpExtension \"SPV_KHR_16bit_storage\"\n");
        }
        if ((m->use_sb || m->use8 || m->use16i || m->use16f) && m->minor < 3) {
            spvbc_gen_printf(out, "OpExtension \"SPV_KHR_storage_buffer_storage_class\"\n");
        }
    }
    {
        static const char *const addr[] = {"Logical", "Physical32", "Physical64",
                                           "PhysicalStorageBuffer64"};
        spvbc_gen_printf(out, "OpMemoryModel %s %s\n", addr[m->addressing],
                         m->kernel ? "OpenCL" : "GLSL450");
    }
    spvbc_gen_printf(out, "OpEntryPoint %s %%main \"main\"%s\n", m->kernel ? "Kernel" : "GLCompute",
                     m->minor >= 4 ? m->globals : "");
    if (!m->kernel) {
        spvbc_gen_printf(out, "OpExecutionMode %%main LocalSize 1 1 1\n");
    }
    spvbc_gen_printf(out, "%s%s", spvbc_gen_text_str(&m->debug), spvbc_gen_text_str(&m->annots));
    spvbc_gen_printf(out, "%%void = OpTypeVoid\n%s", spvbc_gen_text_str(&m->decls));
    if (bitcast_line && global_line) {
        spvbc_gen_printf(out, "%s\n", bitcast_line);
    }
    snprintf(fnty, sizeof fnty, "%%fn = OpTypeFunction %%void");
    for (size_t i = 0; i < m->nparams; ++i) {
        len = strlen(fnty);
        snprintf(fnty + len, sizeof fnty - len, " %s", m->params[i]);
    }
    spvbc_gen_printf(out, "%s\n%%main = OpFunction %%void None %%fn\n", fnty);
    for (size_t i = 0; i < m->nparams; ++i) {
        spvbc_gen_printf(out, "%s = OpFunctionParameter %s\n", m->param_ids[i], m->params[i]);
    }
    spvbc_gen_printf(out, "%%entry = OpLabel\n%s%s", spvbc_gen_text_str(&m->vars),
                     spvbc_gen_text_str(&m->body));
    if (bitcast_line && !global_line) {
        spvbc_gen_printf(out, "%s\n", bitcast_line);
    }
    spvbc_gen_printf(out, "OpReturn\nOpFunctionEnd\n");
}

static void gmod_free(gmod *m)
{
    spvbc_gen_text_free(&m->decls);
    spvbc_gen_text_free(&m->annots);
    spvbc_gen_text_free(&m->debug);
    spvbc_gen_text_free(&m->vars);
    spvbc_gen_text_free(&m->body);
}

/* ---- the model: the rules sheet, section 1 ------------------------------------------------ */

typedef enum {
    R_OK,
    R_V0,
    R_V1,
    R_V2,
    R_V3,
    R_V8,
    R_V9,
    R_V10,
    R_V11,
    R_V12,
    R_V13,
    R_S7,
    R_COOPVEC,
    R_COOPVEC_DIM,
    R_COOPMAT,
    R_COOPMAT_SHAPE,
    R_COUNT
} rule;

static const char *const k_rule_id[] = {"OK",        "V0",           "V1",        "V2",
                                        "V3",        "V8",           "V9",        "V10",
                                        "V11",       "V12",          "V13",       "S7",
                                        "V-COOPVEC", "V-COOPVEC-DIM", "V-COOPMAT", "V-COOPMAT-SHAPE"};

/* The part of spirv-val's message each rule is reported with (V1 has two spellings). */
static const char *const k_rule_message[][2] = {
    [R_V0] = {"cannot be a type", NULL},
    [R_V1] = {"requires a type", "Expected input to have a type"},
    [R_V2] = {"Expected Result Type to be a pointer or int or float vector or scalar type", NULL},
    [R_V3] = {"Expected input to be a pointer or int or float vector or scalar", NULL},
    [R_V8] = {"Expected input to be a pointer, int scalar or 32-bit int vector if Result Type is "
              "pointer",
              NULL},
    [R_V9] = {"Pointer can only be converted to another pointer, int scalar or 32-bit int vector",
              NULL},
    [R_V10] = {"Expected input to be a pointer or int scalar if Result Type is pointer", NULL},
    [R_V11] = {"Pointer can only be converted to another pointer or int scalar", NULL},
    [R_V12] = {"Expected input to have the same total bit width as Result Type", NULL},
    [R_V13] = {"8- or 16-bit types can only be used with width-only conversions", NULL},
    [R_S7] = {"Specialization constant operation Bitcast requires Kernel capability", NULL},
    [R_COOPVEC] = {"Cooperative vector can only be cast to another cooperative vector", NULL},
    [R_COOPVEC_DIM] = {"Expected number of components to be identical", NULL},
    [R_COOPMAT] = {"Cooperative matrix can only be cast to another cooperative matrix", NULL},
    [R_COOPMAT_SHAPE] = {"Expected cooperative matrix types", "of Matrix type and Result Type to be identical"},
};

static int message_matches(rule r, const char *msg)
{
    if (r == R_OK || r >= R_COUNT) return 0;
    if (r == R_COOPMAT_SHAPE && strstr(msg, "Expected scopes of Matrix and Result Type")) return 1;
    for (size_t i = 0; i < 2; ++i) {
        const char *part = k_rule_message[r][i];
        if (part != NULL && strstr(msg, part) != NULL) return 1;
    }
    return 0;
}

static rule rule_from_id(const char *id)
{
    for (size_t i = 1; i < sizeof k_rule_id / sizeof k_rule_id[0]; ++i) {
        if (strcmp(id, k_rule_id[i]) == 0) {
            return (rule)i;
        }
    }
    return R_OK;
}

static int numeric(const gtype *t)
{
    return t->kind == GT_INT || t->kind == GT_FLOAT;
}

/* The expected first error of `OpBitcast D S` in module `m` (current SPIRV-Tools behaviour). */
static rule model(const gmod *m, const gtype *d, const gtype *s)
{
    int gate = m->minor >= 5 || m->psb_ext;
    int rp = d->kind == GT_PTR, op = s->kind == GT_PTR;
    if (!rp && !numeric(d)) return R_V2;
    if (!op && !numeric(s)) return R_V3;
    if (gate) {
        if (rp && !(op || (s->kind == GT_INT && (s->count == 1 || s->width == 32)))) return R_V8;
        if (op && !(rp || (d->kind == GT_INT && (d->count == 1 || d->width == 32)))) return R_V9;
    } else {
        if (rp && !(op || (s->kind == GT_INT && s->count == 1))) return R_V10;
        if (op && !(rp || (d->kind == GT_INT && d->count == 1))) return R_V11;
    }
    if (!rp && !op && d->width * d->count != s->width * s->count) return R_V12;
    if (!m->kernel && (storage_only(m, d) || storage_only(m, s))) return R_V13;
    return R_OK;
}

/* ---- running one case ------------------------------------------------------------------- */

enum {
    CAT_NUM_KERNEL,
    CAT_NUM_SHADER,
    CAT_PTR_KERNEL,
    CAT_PTR_PSB,
    CAT_PTR_LOGICAL,
    CAT_BOOL,
    CAT_OPERAND_KIND,
    CAT_MULTI,
    CAT_SPEC_SHADER,
    CAT_SPEC_KERNEL,
    CAT_COOPMAT, /* the rest need SPIRV-Tools 2025.1 (--spirv-tools-2025) */
    CAT_COOPVEC,
    CAT_UNTYPED,
    CAT_COUNT
};
static const char *const k_cat_name[CAT_COUNT] = {"numeric-kernel",       "numeric-shader",
                                                  "pointer-kernel",       "pointer-psb64",
                                                  "pointer-logical",      "bool",
                                                  "operand-kind",         "multi-bitcast",
                                                  "spec-constant-shader", "spec-constant-kernel",
                                                  "cooperative-matrix",   "cooperative-vector",
                                                  "untyped-pointer"};

typedef struct cat_stats {
    size_t cases, skipped, errors_expected, passed, failed;
    size_t rule_hist[R_COUNT];
    size_t spirv_val_misses; /* spec-constant-kernel: 2023.1 accepts an invalid one */
} cat_stats;

static cat_stats g_cat[CAT_COUNT];
static int g_verbose;
static const char *g_show; /* --show CATEGORY: print every module of that category */
static size_t g_printed;

/* ---- SPIRV-Tools 2025.1 (Debian 13), from an unpacked tree ------------------------------ */

/* With --spirv-tools-2025 ROOT the verdicts are also SPIRV-Tools 2025.1's: its spirv-as and
 * spirv-val from the tree that cmake/debian-tree.sh unpacked, run under the tree's own loader
 * and libraries (trixie's glibc and libstdc++: nothing is installed on the system). */
static char g_loader[1024], g_libdir[1024], g_bindir[1024];
static int g_new; /* the 2025.1 oracle is in use */
static size_t g_tool_runs;

static int find_tree(const char *root)
{
    glob_t gl;
    char pat[1100];
    snprintf(pat, sizeof pat, "%s/usr/lib/*/ld-linux*.so.2", root);
    if (glob(pat, 0, NULL, &gl) != 0 || gl.gl_pathc == 0) return -1;
    snprintf(g_loader, sizeof g_loader, "%s", gl.gl_pathv[0]);
    globfree(&gl);
    snprintf(g_libdir, sizeof g_libdir, "%s", g_loader);
    *strrchr(g_libdir, '/') = '\0';
    snprintf(g_bindir, sizeof g_bindir, "%s/usr/bin", root);
    return 0;
}

/* Runs `tool` of the tree with `a1`..`a5` (NULL ends them early), its output into `log`.
 * Returns the exit status, or -1. */
static int run_tool(const char *tool, const char *a1, const char *a2, const char *a3,
                    const char *a4, const char *a5, const char *log)
{
    char exe[1100];
    snprintf(exe, sizeof exe, "%s/%s", g_bindir, tool);
    g_tool_runs++;
    pid_t pid = fork();
    if (pid < 0) return -1;
    if (pid == 0) {
        int fd = open(log, O_WRONLY | O_CREAT | O_TRUNC, 0600);
        if (fd >= 0) {
            dup2(fd, 1);
            dup2(fd, 2);
            close(fd);
        }
        execl(g_loader, g_loader, "--library-path", g_libdir, exe, a1, a2, a3, a4, a5,
              (char *)NULL);
        _exit(127);
    }
    int st = 0;
    if (waitpid(pid, &st, 0) < 0) return -1;
    return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

static char g_tmp[64] = "";

static const char *tmp_path(const char *name, char *buf, size_t size)
{
    if (!g_tmp[0]) {
        snprintf(g_tmp, sizeof g_tmp, "/tmp/spvbc_diff_XXXXXX");
        if (!mkdtemp(g_tmp)) return NULL;
    }
    snprintf(buf, size, "%s/%s", g_tmp, name);
    return buf;
}

static void read_log(const char *path, char *msg, size_t size)
{
    FILE *f = fopen(path, "r");
    size_t n = f ? fread(msg, 1, size - 1, f) : 0;
    msg[n] = '\0';
    if (f) fclose(f);
}

/* The --target-env of SPIR-V 1.<minor> for the tools. */
static const char *env_name(int minor)
{
    static const char *const names[] = {"spv1.0", "spv1.1", "spv1.2", "spv1.3",
                                        "spv1.4", "spv1.5", "spv1.6"};
    return names[minor < 0 || minor > 6 ? 6 : minor];
}

/* Assembles `text` with 2025.1's spirv-as; 0 and a malloc'd word array on success. */
static int new_assemble(const char *text, int minor, uint32_t **w, size_t *n)
{
    char src[128], bin[128], log[128];
    if (!tmp_path("m.spvasm", src, sizeof src) || !tmp_path("m.spv", bin, sizeof bin) ||
        !tmp_path("as.log", log, sizeof log))
        return -1;
    FILE *f = fopen(src, "w");
    if (!f) return -1;
    fputs(text, f);
    fclose(f);
    if (run_tool("spirv-as", "--target-env", env_name(minor), src, "-o", bin, log) != 0)
        return -1;
    f = fopen(bin, "rb");
    if (!f) return -1;
    fseek(f, 0, SEEK_END);
    long size = ftell(f);
    fseek(f, 0, SEEK_SET);
    *w = (uint32_t *)malloc(size > 0 ? (size_t)size : 4);
    *n = size > 0 ? (size_t)size / 4 : 0;
    int ok = *w && fread(*w, 4, *n, f) == *n;
    fclose(f);
    return ok ? 0 : -1;
}

/* Validates `w` with 2025.1's spirv-val; 0 if valid, else its message in `msg`. */
static int new_validate(const uint32_t *w, size_t n, int minor, char *msg, size_t size)
{
    char bin[128], log[128];
    msg[0] = '\0';
    if (!tmp_path("v.spv", bin, sizeof bin) || !tmp_path("val.log", log, sizeof log)) return -1;
    FILE *f = fopen(bin, "wb");
    if (!f) return -1;
    fwrite(w, 4, n, f);
    fclose(f);
    int rc = run_tool("spirv-val", "--target-env", env_name(minor), bin, NULL, NULL, log);
    if (rc != 0) {
        read_log(log, msg, size);
        if (!msg[0]) snprintf(msg, size, "spirv-val exited %d", rc);
    }
    return rc == 0 ? 0 : 1;
}

/* spirv-val of the generation in use: 2025.1 with --spirv-tools-2025, else the linked 2023.1
 * (for SPIR-V 1.<minor of the module's header>). */
static int oracle_validate(const uint32_t *w, size_t n, int env, char *msg, size_t size)
{
    if (!g_new) return spvbc_gen_validate(w, n, env, msg, size);
    return new_validate(w, n, n > 1 ? (int)((w[1] >> 8) & 0xffu) : 6, msg, size);
}

static void cleanup_tmp(void)
{
    char p[128];
    if (!g_tmp[0]) return;
    static const char *const names[] = {"m.spvasm", "m.spv", "as.log", "v.spv", "val.log"};
    for (size_t i = 0; i < sizeof names / sizeof names[0]; ++i)
        if (tmp_path(names[i], p, sizeof p)) unlink(p);
    rmdir(g_tmp);
}

/* The library's verdict, with the first error's rule in the model's terms. */
typedef struct lib_verdict {
    spvbc_result parse;
    spvbc_result verdict;
    size_t error_count;
    size_t lowerable_count; /* errors the library says spvbc_module_lower() can fix */
    rule first_error;
    char errors[512]; /* "rule: message" of each error */
} lib_verdict;

static void library_verdict(const uint32_t *w, size_t n, lib_verdict *v)
{
    spvbc_gen_verdict g;
    spvbc_gen_library_verdict(w, n, &g);
    v->parse = g.parse;
    v->verdict = g.verdict;
    v->error_count = g.error_count;
    v->lowerable_count = g.lowerable_count;
    v->first_error = R_OK;
    if (g.error_count > 0) {
        v->first_error = rule_from_id(g.first_rule);
        if (v->first_error == R_OK) {
            v->first_error = (rule)99; /* an unknown rule id */
        }
    }
    memcpy(v->errors, g.errors, sizeof v->errors);
}

static void print_failure(const char *what, int cat, const char *text, const uint32_t *w, size_t n,
                          int env, const char *val_msg, const lib_verdict *lv, rule expected)
{
    char *dis;
    fprintf(stderr, "FAIL [%s] %s\n  spirv-val: %s\n  library:   %s (%s)\n  model:     %s\n",
            k_cat_name[cat], what, val_msg[0] ? val_msg : "valid",
            lv->errors[0] ? lv->errors : "no errors", spvbc_result_string(lv->verdict),
            k_rule_id[expected]);
    if (g_printed++ < 20) {
        dis = spvbc_gen_disassemble(w, n, env);
        fprintf(stderr, "---- module ----\n%s----\n", dis ? dis : text);
        free(dis);
    }
}

typedef struct lower_stats {
    size_t runs, rewritten, refused, untouched, spirv_val_runs, failed;
} lower_stats;

static lower_stats g_lower;

/*
 * Lowers a case and checks the outcome against the validator's findings: a valid module stays
 * byte-identical; an error marked lowerable is rewritten into a module spirv-val accepts and
 * the library finds clean; an error not marked lowerable is refused and left alone.  Returns 0
 * if all holds.
 */
static int check_lowering(const uint32_t *w, size_t n, int env, const lib_verdict *lv, char *why,
                          size_t why_size)
{
    spvbc_context ctx = NULL;
    spvbc_module mod = NULL;
    spvbc_lower_summary sum;
    const uint32_t *out = NULL;
    size_t out_n = 0;
    int rc = 0;
    why[0] = '\0';
    if (spvbc_context_create(NULL, &ctx) != SPVBC_SUCCESS) {
        snprintf(why, why_size, "context creation failed");
        return -1;
    }
    g_lower.runs++;
    if (spvbc_module_parse(ctx, w, n, NULL, &mod) != SPVBC_SUCCESS ||
        spvbc_module_lower(mod, NULL, &sum) != SPVBC_SUCCESS ||
        spvbc_module_get_words(mod, &out, &out_n) != SPVBC_SUCCESS) {
        snprintf(why, why_size, "parse/lower/get_words failed");
        rc = -1;
    } else if (lv->error_count == 0 || lv->lowerable_count < lv->error_count) {
        /* Nothing to do, or something the library cannot fix: the module stays as it was. */
        size_t want_refused = lv->error_count - lv->lowerable_count;
        if (sum.rewritten != 0 && lv->lowerable_count == 0) {
            snprintf(why, why_size,
                     "lower rewrote %zu instructions, validate found nothing "
                     "lowerable",
                     sum.rewritten);
            rc = -1;
        } else if (lv->lowerable_count == 0 &&
                   (out_n != n || memcmp(out, w, n * sizeof(uint32_t)) != 0)) {
            snprintf(why, why_size, "lower changed a module with nothing to lower");
            rc = -1;
        } else if (sum.refused != want_refused) {
            snprintf(why, why_size,
                     "lower refused %zu, validate found %zu errors that are "
                     "not lowerable",
                     sum.refused, want_refused);
            rc = -1;
        }
        if (rc == 0 && sum.rewritten) {
            /* Some fixed, some refused: what remains is exactly the refused errors. */
            char msg[1024];
            lib_verdict again;
            g_lower.spirv_val_runs++;
            if (oracle_validate(out, out_n, env, msg, sizeof msg) == 0) {
                snprintf(why, why_size,
                         "spirv-val accepts an output that still holds %zu "
                         "refused bitcasts",
                         sum.refused);
                rc = -1;
            } else {
                library_verdict(out, out_n, &again);
                if (again.parse != SPVBC_SUCCESS || again.error_count != want_refused ||
                    again.lowerable_count != 0) {
                    snprintf(why, why_size,
                             "after lowering the library finds %zu errors (%zu "
                             "lowerable), expected the %zu refused ones",
                             again.error_count, again.lowerable_count, want_refused);
                    rc = -1;
                }
            }
        }
        if (sum.rewritten) {
            g_lower.rewritten++;
        } else if (sum.refused) {
            g_lower.refused++;
        } else {
            g_lower.untouched++;
        }
    } else {
        char msg[1024];
        lib_verdict again;
        g_lower.rewritten++;
        if (sum.rewritten != lv->lowerable_count || sum.refused != 0) {
            snprintf(why, why_size,
                     "lower rewrote %zu and refused %zu; validate found %zu "
                     "lowerable errors",
                     sum.rewritten, sum.refused, lv->lowerable_count);
            rc = -1;
        } else {
            g_lower.spirv_val_runs++;
            if (oracle_validate(out, out_n, env, msg, sizeof msg) != 0) {
                snprintf(why, why_size, "spirv-val rejects the lowered output: %s", msg);
                rc = -1;
            } else {
                library_verdict(out, out_n, &again);
                if (again.parse != SPVBC_SUCCESS || again.verdict != SPVBC_SUCCESS) {
                    snprintf(why, why_size, "the library finds errors in its own output: %s",
                             again.errors);
                    rc = -1;
                }
            }
        }
    }
    spvbc_module_destroy(mod);
    spvbc_context_destroy(ctx);
    if (rc) {
        g_lower.failed++;
    }
    return rc;
}

/* Assembles and checks one generated case.  `bitcast_line` is the bitcast; `global_line` says
 * whether it is an OpSpecConstantOp at global scope. */
static void run_case(int cat, gmod *m, const char *bitcast_line, int global_line, rule expected)
{
    spvbc_gen_text text = {0, 0, 0, 0}, twin = {0, 0, 0, 0};
    uint32_t *w = NULL, *tw = NULL;
    size_t n = 0, tn = 0;
    int env = spvbc_gen_universal_env(m->minor);
    char msg[2048], tmsg[2048];
    int val_ok, lib_error;
    lib_verdict lv;
    cat_stats *cs = &g_cat[cat];

    write_module(m, bitcast_line, global_line, &text);
    write_module(m, NULL, global_line, &twin);
    cs->cases++;
    if (text.failed || twin.failed ||
        spvbc_gen_assemble(spvbc_gen_text_str(&text), env, &w, &n) != 0 ||
        spvbc_gen_assemble(spvbc_gen_text_str(&twin), env, &tw, &tn) != 0) {
        fprintf(stderr, "FAIL [%s] the generator wrote a module that does not assemble:\n%s\n",
                k_cat_name[cat], spvbc_gen_text_str(&text));
        cs->failed++;
        goto done;
    }
    if (spvbc_gen_validate(tw, tn, env, tmsg, sizeof tmsg) != 0) {
        if (g_verbose) {
            fprintf(stderr, "skip [%s] twin invalid: %s\n%s\n", k_cat_name[cat], tmsg,
                    spvbc_gen_text_str(&twin));
        }
        cs->skipped++;
        goto done;
    }
    val_ok = (g_new ? new_validate(w, n, m->minor, msg, sizeof msg)
                    : spvbc_gen_validate(w, n, env, msg, sizeof msg)) == 0;
    library_verdict(w, n, &lv);
    if (g_show && strcmp(g_show, k_cat_name[cat]) == 0) {
        printf("==== [%s] SPIR-V 1.%d, model %s, spirv-val: %s\n  library: %s\n%s", k_cat_name[cat],
               m->minor, k_rule_id[expected], val_ok ? "valid" : msg,
               lv.errors[0] ? lv.errors : "no errors", spvbc_gen_text_str(&text));
    }
    if (expected != R_OK) {
        cs->errors_expected++;
    }
    cs->rule_hist[expected]++;
    if (lv.parse != SPVBC_SUCCESS) {
        print_failure("spvbc_module_parse failed", cat, spvbc_gen_text_str(&text), w, n, env, msg,
                      &lv, expected);
        cs->failed++;
        goto done;
    }
    lib_error = lv.verdict == SPVBC_ERROR_VALIDATION_FAILED;
    if (lv.verdict != SPVBC_SUCCESS && !lib_error) {
        print_failure("spvbc_module_validate returned an unexpected result", cat,
                      spvbc_gen_text_str(&text), w, n, env, msg, &lv, expected);
        cs->failed++;
        goto done;
    }
    {
        char why[1400];
        if (check_lowering(w, n, env, &lv, why, sizeof why) != 0) {
            print_failure(why, cat, spvbc_gen_text_str(&text), w, n, env, msg, &lv, expected);
            cs->failed++;
            goto done;
        }
    }
    if (cat == CAT_SPEC_KERNEL) {
        /* SPIRV-Tools 2023.1 does not check this form; compare against the model. */
        if (!val_ok && expected == R_OK) {
            print_failure("spirv-val rejects a spec-constant bitcast the model accepts", cat,
                          spvbc_gen_text_str(&text), w, n, env, msg, &lv, expected);
            cs->failed++;
        } else if (lib_error != (expected != R_OK)) {
            print_failure("library verdict differs from the current-SPIRV-Tools model", cat,
                          spvbc_gen_text_str(&text), w, n, env, msg, &lv, expected);
            cs->failed++;
        } else if (lib_error && lv.first_error != expected) {
            print_failure("library rule differs from the model", cat, spvbc_gen_text_str(&text), w,
                          n, env, msg, &lv, expected);
            cs->failed++;
        } else {
            cs->passed++;
            cs->spirv_val_misses += val_ok && expected != R_OK;
        }
        goto done;
    }
    if (lib_error == val_ok) {
        print_failure("library and spirv-val disagree", cat, spvbc_gen_text_str(&text), w, n, env,
                      msg, &lv, expected);
        cs->failed++;
    } else if (val_ok != (expected == R_OK) || (!val_ok && !message_matches(expected, msg))) {
        print_failure("the test's model of the rules disagrees with spirv-val", cat,
                      spvbc_gen_text_str(&text), w, n, env, msg, &lv, expected);
        cs->failed++;
    } else if (!val_ok && !message_matches(lv.first_error, msg)) {
        print_failure("the library's rule id does not map to spirv-val's message", cat,
                      spvbc_gen_text_str(&text), w, n, env, msg, &lv, expected);
        cs->failed++;
    } else {
        cs->passed++;
    }
done:
    free(w);
    free(tw);
    spvbc_gen_text_free(&text);
    spvbc_gen_text_free(&twin);
}

/* ---- case generators -------------------------------------------------------------------- */

static const uint32_t k_counts[6] = {1, 2, 3, 4, 8, 16};

static gtype random_numeric(const gmod *m)
{
    gkind k = coin() ? GT_INT : GT_FLOAT;
    uint32_t w = k == GT_INT ? (8u << rnd(4)) : (16u << rnd(3));
    uint32_t c = k_counts[rnd(m->kernel ? 6 : 4)];
    return num(k, w, c, m->kernel ? 0 : coin());
}

/* A numeric type with `bits` total bits, if one exists within the module's counts. */
static int numeric_with_bits(const gmod *m, uint32_t bits, gtype *out)
{
    gtype cand[64];
    size_t nc = 0;
    for (int k = 0; k < 2; ++k) {
        for (uint32_t w = 8; w <= 64; w *= 2) {
            if (k == 1 && w == 8) {
                continue;
            }
            for (size_t c = 0; c < (m->kernel ? 6u : 4u); ++c) {
                if (w * k_counts[c] == bits && nc < 64) {
                    cand[nc++] = num(k ? GT_FLOAT : GT_INT, w, k_counts[c], m->kernel ? 0 : coin());
                }
            }
        }
    }
    if (nc == 0) {
        return 0;
    }
    *out = cand[rnd((uint32_t)nc)];
    return 1;
}

/* A numeric type whose OpenCL size (a 3-component vector occupies 4) equals that of `t`. */
static int numeric_with_opencl_size(const gmod *m, const gtype *t, gtype *out)
{
    gtype cand[64];
    size_t nc = 0;
    uint32_t bytes = t->width / 8 * (t->count == 3 ? 4 : t->count);
    for (int k = 0; k < 2; ++k) {
        for (uint32_t w = 8; w <= 64; w *= 2) {
            if (k == 1 && w == 8) {
                continue;
            }
            for (size_t c = 0; c < (m->kernel ? 6u : 4u); ++c) {
                uint32_t cb = w / 8 * (k_counts[c] == 3 ? 4 : k_counts[c]);
                if (cb == bytes && nc < 64) {
                    cand[nc++] = num(k ? GT_FLOAT : GT_INT, w, k_counts[c], m->kernel ? 0 : coin());
                }
            }
        }
    }
    if (nc == 0) {
        return 0;
    }
    *out = cand[rnd((uint32_t)nc)];
    return 1;
}

static void init_module(gmod *m, int kernel)
{
    memset(m, 0, sizeof *m);
    m->minor = (int)rnd(7);
    m->kernel = kernel;
    m->next_id = 1;
    if (kernel) {
        m->addressing = coin() ? ADDR_PHYS64 : ADDR_PHYS32;
    } else {
        m->addressing = ADDR_LOGICAL;
        m->int8 = coin();
        m->int16 = coin();
        m->float16 = coin();
    }
    if (m->minor < 5 && rnd(4) == 0) {
        m->psb_ext = 1;
    }
}

static void bitcast_text(gmod *m, const gtype *d, const char *operand, char *line, size_t size)
{
    char dn[64];
    ensure_type(m, d, dn, sizeof dn);
    snprintf(line, size, "%%y = OpBitcast %s %s", dn, operand);
}

/* Runs `OpBitcast d s` in category `cat` on module `m` (an operand of type `s` made first),
 * then frees `m`. */
static void run_bitcast(int cat, gmod *m, const gtype *s, const gtype *d)
{
    char x[32], line[160];
    make_value(m, s, x, sizeof x);
    bitcast_text(m, d, x, line, sizeof line);
    run_case(cat, m, line, 0, model(m, d, s));
    gmod_free(m);
}

/* run_bitcast() with `a` and `b` as source and destination in a random order. */
static void run_either_way(int cat, gmod *m, const gtype *a, const gtype *b)
{
    if (coin()) {
        run_bitcast(cat, m, a, b);
    } else {
        run_bitcast(cat, m, b, a);
    }
}

static void case_numeric(int kernel)
{
    gmod m;
    gtype s, d;
    init_module(&m, kernel);
    s = random_numeric(&m);
    switch (rnd(3)) {
    case 0:
        if (!numeric_with_bits(&m, s.width * s.count, &d)) {
            d = random_numeric(&m);
        }
        break;
    case 1:
        /* as_type-legal (same OpenCL size), often lowerable */
        if (!numeric_with_opencl_size(&m, &s, &d)) {
            d = random_numeric(&m);
        }
        break;
    default: d = random_numeric(&m); break;
    }
    run_bitcast(kernel ? CAT_NUM_KERNEL : CAT_NUM_SHADER, &m, &s, &d);
}

/* A partner for a pointer: another pointer, an int scalar/vector, a float. */
static gtype pointer_partner(const gmod *m, int sc_choices[], int nsc)
{
    static const struct {
        gkind k;
        uint32_t w, c;
    } opts[] = {{GT_INT, 32, 1},   {GT_INT, 64, 1},  {GT_INT, 16, 1}, {GT_INT, 8, 1},
                {GT_INT, 32, 2},   {GT_INT, 32, 3},  {GT_INT, 32, 4}, {GT_INT, 16, 2},
                {GT_INT, 16, 4},   {GT_INT, 8, 4},   {GT_INT, 64, 2}, {GT_FLOAT, 32, 1},
                {GT_FLOAT, 64, 1}, {GT_FLOAT, 32, 2}};
    uint32_t r = rnd(20);
    if (r < 6) {
        gtype e = random_numeric(m);
        return ptr(sc_choices[rnd((uint32_t)nsc)], e);
    }
    r = rnd((uint32_t)(sizeof opts / sizeof opts[0]));
    if (!m->kernel && opts[r].c > 4) {
        r = 0;
    }
    return num(opts[r].k, opts[r].w, opts[r].c, m->kernel ? 0 : coin());
}

static void case_pointer(int cat)
{
    gmod m;
    gtype p, other;
    int scs[3];
    int nsc;
    init_module(&m, cat == CAT_PTR_KERNEL);
    if (cat == CAT_PTR_KERNEL) {
        scs[0] = SC_FUNCTION;
        scs[1] = SC_CROSS;
        scs[2] = SC_WORKGROUP;
        nsc = 3;
    } else if (cat == CAT_PTR_PSB) {
        m.addressing = ADDR_PSB64;
        if (m.minor < 5) {
            m.psb_ext = 1;
        }
        scs[0] = SC_PSB;
        scs[1] = SC_PSB;
        scs[2] = SC_FUNCTION;
        nsc = 3;
    } else {
        scs[0] = SC_FUNCTION;
        scs[1] = SC_STORAGE_BUFFER;
        nsc = 2;
    }
    p = ptr(scs[rnd((uint32_t)(cat == CAT_PTR_PSB ? 2 : nsc))], random_numeric(&m));
    other = pointer_partner(&m, scs, nsc);
    run_either_way(cat, &m, &p, &other);
}

static void case_bool(void)
{
    gmod m;
    gtype b, other;
    init_module(&m, coin());
    b = num(GT_BOOL, 0, k_counts[rnd(m.kernel ? 6 : 4)], 0);
    switch (rnd(3)) {
    case 0: other = num(GT_BOOL, 0, k_counts[rnd(m.kernel ? 6 : 4)], 0); break;
    case 1:
        other = m.kernel ? ptr(SC_FUNCTION, num(GT_INT, 32, 1, 0))
                         : ptr(SC_FUNCTION, num(GT_FLOAT, 32, 1, 0));
        break;
    default: other = random_numeric(&m); break;
    }
    run_either_way(CAT_BOOL, &m, &b, &other);
}

/* Operands that are not values: a type (V0), an OpString or a label (V1). */
static void case_operand_kind(void)
{
    gmod m;
    gtype d, t;
    char tn[64], line[160];
    rule expected;
    uint32_t r;
    init_module(&m, coin());
    d = num(GT_INT, 32, 1, 0);
    r = rnd(3);
    if (r == 0) {
        t = random_numeric(&m);
        if (storage_only(&m, &t)) {
            t = num(GT_FLOAT, 32, 1, 0);
        }
        ensure_type(&m, &t, tn, sizeof tn);
        expected = R_V0;
    } else if (r == 1) {
        snprintf(tn, sizeof tn, "%%str");
        spvbc_gen_printf(&m.debug, "%%str = OpString \"not a value\"\n");
        expected = R_V1;
    } else {
        snprintf(tn, sizeof tn, "%%entry");
        expected = R_V1;
    }
    bitcast_text(&m, &d, tn, line, sizeof line);
    run_case(CAT_OPERAND_KIND, &m, line, 0, expected);
    gmod_free(&m);
}

/* Two to four bitcasts in one function, each operand either a fresh value or the previous
 * result (chains): the verdict is the first error in module order. */
static void case_multi(void)
{
    gmod m;
    gtype prev;
    char prev_id[32] = "";
    char lines[800] = "";
    rule expected = R_OK;
    uint32_t k = 2 + rnd(3);
    init_module(&m, coin());
    prev = random_numeric(&m);
    for (uint32_t i = 0; i < k; ++i) {
        gtype s, d;
        char x[32], dn[64];
        size_t len = strlen(lines);
        rule r;
        if (i > 0 && rnd(3) != 0) {
            s = prev;
            snprintf(x, sizeof x, "%s", prev_id);
        } else {
            s = random_numeric(&m);
            make_value(&m, &s, x, sizeof x);
        }
        if (coin() || !numeric_with_opencl_size(&m, &s, &d)) {
            if (!numeric_with_bits(&m, s.width * s.count, &d)) {
                d = random_numeric(&m);
            }
        }
        ensure_type(&m, &d, dn, sizeof dn);
        snprintf(lines + len, sizeof lines - len, "%s%%y%u = OpBitcast %s %s", i ? "\n" : "",
                 (unsigned)i, dn, x);
        r = model(&m, &d, &s);
        if (expected == R_OK) {
            expected = r;
        }
        prev = d;
        snprintf(prev_id, sizeof prev_id, "%%y%u", (unsigned)i);
    }
    run_case(CAT_MULTI, &m, lines, 0, expected);
    gmod_free(&m);
}

/* OpSpecConstantOp %D Bitcast %c with a constant or spec-constant operand. */
static void case_spec(int kernel)
{
    gmod m;
    gtype s, d;
    char sn[64], dn[64], c[32], line[200];
    rule expected;
    init_module(&m, kernel);
    if (kernel) {
        uint32_t r = rnd(10);
        if (r < 7) {
            s = random_numeric(&m);
            if (coin()) {
                if (!numeric_with_opencl_size(&m, &s, &d)) {
                    d = random_numeric(&m);
                }
            } else if (coin() || !numeric_with_bits(&m, s.width * s.count, &d)) {
                d = random_numeric(&m);
            }
        } else if (r < 9) {
            /* pointer <-> integer (the null pointer constant) */
            gtype p = ptr(SC_CROSS, num(GT_FLOAT, 32, 1, 0));
            gtype i = num(GT_INT, m.addressing == ADDR_PHYS64 ? 64 : 32, 1, 0);
            if (rnd(4) == 0) {
                i = num(GT_INT, 32, 2, 0);
            }
            if (coin()) {
                s = p;
                d = i;
            } else {
                s = i;
                d = p;
            }
        } else {
            s = num(GT_BOOL, 0, 1, 0);
            d = num(GT_INT, 32, 1, 0);
            if (coin()) {
                gtype t = s;
                s = d;
                d = t;
            }
        }
    } else {
        static const gkind kinds[2] = {GT_INT, GT_FLOAT};
        s = num(kinds[rnd(2)], 32, 1 + rnd(2), coin());
        d = num(kinds[rnd(2)], 32, s.count, coin());
    }
    ensure_type(&m, &s, sn, sizeof sn);
    ensure_type(&m, &d, dn, sizeof dn);
    new_id(&m, c, sizeof c, "c");
    if (s.kind == GT_BOOL) {
        spvbc_gen_printf(&m.decls, "%s = OpSpecConstantTrue %s\n", c, sn);
    } else if (s.kind == GT_PTR || s.count > 1 || rnd(3) == 0) {
        spvbc_gen_printf(&m.decls, "%s = OpConstantNull %s\n", c, sn);
    } else {
        spvbc_gen_printf(&m.decls, "%s = %s %s %u\n", c, coin() ? "OpSpecConstant" : "OpConstant",
                         sn, 1u + rnd(100));
    }
    snprintf(line, sizeof line, "%%y = OpSpecConstantOp %s Bitcast %s", dn, c);
    expected = kernel ? model(&m, &d, &s) : R_S7;
    run_case(kernel ? CAT_SPEC_KERNEL : CAT_SPEC_SHADER, &m, line, 1, expected);
    gmod_free(&m);
}

/* ---- the types SPIRV-Tools 2025.1 knows and 2023.1 does not -------------------------------- */

/* Runs a case written as text (the module and its twin without the bitcast) against
 * SPIRV-Tools 2025.1 only: 2023.1 cannot even assemble these. */
static void run_new_case(int cat, int minor, const char *text, const char *twin, rule expected)
{
    uint32_t *w = NULL, *tw = NULL;
    size_t n = 0, tn = 0;
    char msg[2048], tmsg[2048], why[1400];
    lib_verdict lv;
    cat_stats *cs = &g_cat[cat];
    const int env = spvbc_gen_universal_env(minor);
    cs->cases++;
    if (new_assemble(text, minor, &w, &n) != 0 || new_assemble(twin, minor, &tw, &tn) != 0) {
        fprintf(stderr, "FAIL [%s] the generator wrote a module that does not assemble:\n%s\n",
                k_cat_name[cat], text);
        cs->failed++;
        goto done;
    }
    if (new_validate(tw, tn, minor, tmsg, sizeof tmsg) != 0) {
        if (g_verbose) fprintf(stderr, "skip [%s] twin invalid: %s\n%s\n", k_cat_name[cat], tmsg, twin);
        cs->skipped++;
        goto done;
    }
    int val_ok = new_validate(w, n, minor, msg, sizeof msg) == 0;
    library_verdict(w, n, &lv);
    if (g_show && strcmp(g_show, k_cat_name[cat]) == 0)
        printf("==== [%s] SPIR-V 1.%d, model %s, spirv-val: %s\n  library: %s\n%s", k_cat_name[cat],
               minor, k_rule_id[expected], val_ok ? "valid" : msg,
               lv.errors[0] ? lv.errors : "no errors", text);
    if (expected != R_OK) cs->errors_expected++;
    cs->rule_hist[expected]++;
    const int lib_error = lv.verdict == SPVBC_ERROR_VALIDATION_FAILED;
    if (lv.parse != SPVBC_SUCCESS || (lv.verdict != SPVBC_SUCCESS && !lib_error)) {
        print_failure("the library could not parse or validate", cat, text, w, n, env, msg, &lv,
                      expected);
        cs->failed++;
    } else if (check_lowering(w, n, env, &lv, why, sizeof why) != 0) {
        print_failure(why, cat, text, w, n, env, msg, &lv, expected);
        cs->failed++;
    } else if (lib_error == val_ok) {
        print_failure("library and spirv-val 2025.1 disagree", cat, text, w, n, env, msg, &lv,
                      expected);
        cs->failed++;
    } else if (val_ok != (expected == R_OK) || (!val_ok && !message_matches(expected, msg))) {
        print_failure("the test's model of the rules disagrees with spirv-val 2025.1", cat, text,
                      w, n, env, msg, &lv, expected);
        cs->failed++;
    } else if (!val_ok && !message_matches(lv.first_error, msg)) {
        print_failure("the library's rule id does not map to spirv-val's message", cat, text, w, n,
                      env, msg, &lv, expected);
        cs->failed++;
    } else {
        cs->passed++;
    }
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

/* The expected first error of `OpBitcast D S` between cooperative (or plain) types. */
static rule coop_model(const coop *d, const coop *s)
{
    const int dv = d->kind == 2, sv = s->kind == 2, dm = d->kind < 2, sm = s->kind < 2;
    if (dv != sv) return R_COOPVEC;
    if (dm != sm) return R_COOPMAT;
    if (dv && shape_differs(d->rows, s->rows)) return R_COOPVEC_DIM;
    if (dm && (d->kind != s->kind || shape_differs(d->scope, s->scope) ||
               shape_differs(d->rows, s->rows) || shape_differs(d->cols, s->cols) ||
               (d->kind == 0 && shape_differs(d->use, s->use))))
        return R_COOPMAT_SHAPE;
    return R_OK; /* plain <-> plain does not occur here */
}

/* A module with an OpBitcast between cooperative matrices (KHR, sometimes NV) or cooperative
 * vectors (SPV_NV_cooperative_vector), or between one of those and a scalar or vector. */
static void case_coop(int vectors)
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
        spvbc_gen_printf(&head, "OpCapability CooperativeMatrixKHR\nOpCapability "
                                "VulkanMemoryModel\n%sOpExtension \"SPV_KHR_cooperative_matrix\"\n",
                         nv ? "OpCapability CooperativeMatrixNV\n" : "");
        if (nv) spvbc_gen_printf(&head, "OpExtension \"SPV_NV_cooperative_matrix\"\n");
        if (minor < 5) spvbc_gen_printf(&head, "OpExtension \"SPV_KHR_vulkan_memory_model\"\n");
        spvbc_gen_printf(&head, "OpMemoryModel Logical Vulkan\n");
    }
    spvbc_gen_printf(&head,
                     "OpEntryPoint GLCompute %%main \"main\"\nOpExecutionMode %%main LocalSize 64 1 1\n"
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
static void case_untyped(int shader)
{
    static const struct {
        const char *id;
        gkind kind;
        uint32_t width, count;
    } types[] = {{"%up_a", GT_PTR, 0, 1},   {"%up_b", GT_PTR, 0, 1},   {"%up_fn", GT_PTR, 0, 1},
                 {"%tp_a", GT_PTR, 0, 1},   {"%u32", GT_INT, 32, 1},   {"%u64", GT_INT, 64, 1},
                 {"%v2u32", GT_INT, 32, 2}, {"%v4u32", GT_INT, 32, 4}, {"%v2u64", GT_INT, 64, 2},
                 {"%f32", GT_FLOAT, 32, 1}, {"%v2f32", GT_FLOAT, 32, 2}};
    gmod m;
    memset(&m, 0, sizeof m);
    m.minor = (int)rnd(7);
    m.kernel = !shader;
    const int wide = coin(); /* Physical64, or PhysicalStorageBuffer64 in a Shader module */
    const char *sc_a = shader ? (wide ? "PhysicalStorageBuffer" : "StorageBuffer") : "CrossWorkgroup";
    m.psb_ext = shader && wide && m.minor < 5;
    uint32_t a = rnd(3), b = rnd(11);
    if (coin()) {
        uint32_t t = a;
        a = b;
        b = t;
    }
    gtype s = num(types[a].kind, types[a].width, types[a].count, 0);
    gtype d = num(types[b].kind, types[b].width, types[b].count, 0);
    spvbc_gen_text head = {0, 0, 0, 0}, text = {0, 0, 0, 0}, twin = {0, 0, 0, 0};
    if (shader)
        spvbc_gen_printf(&head, "OpCapability Shader\nOpCapability Int64\n%s"
                                "OpCapability UntypedPointersKHR\n"
                                "OpExtension \"SPV_KHR_untyped_pointers\"\n%s%s"
                                "OpMemoryModel %s GLSL450\nOpEntryPoint GLCompute %%main \"main\"\n"
                                "OpExecutionMode %%main LocalSize 1 1 1\n",
                         wide ? "OpCapability PhysicalStorageBufferAddresses\n" : "",
                         m.psb_ext ? "OpExtension \"SPV_KHR_physical_storage_buffer\"\n" : "",
                         !wide && m.minor < 3
                             ? "OpExtension \"SPV_KHR_storage_buffer_storage_class\"\n"
                             : "",
                         wide ? "PhysicalStorageBuffer64" : "Logical");
    else
        spvbc_gen_printf(&head, "OpCapability Kernel\nOpCapability Addresses\nOpCapability Int64\n"
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
    spvbc_gen_printf(&text, "%s%s%%x = OpUndef %s\n%%y = OpBitcast %s %%x\nOpReturn\nOpFunctionEnd\n",
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

/* ---- main ------------------------------------------------------------------------------- */

int main(int argc, char **argv)
{
    size_t total = 0, skipped = 0, passed = 0, failed = 0, spec = 0, compared = 0;
    size_t scale = 1;
    for (int i = 1; i < argc; ++i) {
        if (strcmp(argv[i], "--seed") == 0 && i + 1 < argc) {
            test_rng_seed(&g_rng, strtoull(argv[++i], NULL, 0) | 1u);
        } else if (strcmp(argv[i], "--scale") == 0 && i + 1 < argc) {
            scale = (size_t)strtoul(argv[++i], NULL, 0);
        } else if (strcmp(argv[i], "--show") == 0 && i + 1 < argc) {
            g_show = argv[++i];
        } else if (strcmp(argv[i], "--verbose") == 0) {
            g_verbose = 1;
        } else if (strcmp(argv[i], "--spirv-tools-2025") == 0 && i + 1 < argc) {
            if (find_tree(argv[++i]) != 0) {
                printf("SKIP: no SPIRV-Tools tree with a loader under %s\n", argv[i]);
                return 77;
            }
            g_new = 1;
        } else {
            fprintf(stderr,
                    "usage: %s [--seed N] [--scale N] [--show CATEGORY] [--verbose] "
                    "[--spirv-tools-2025 ROOT]\n",
                    argv[0]);
            return 2;
        }
    }
    for (size_t rep = 0; rep < scale; ++rep) {
        for (int i = 0; i < 500; ++i)
            case_numeric(1);
        for (int i = 0; i < 500; ++i)
            case_numeric(0);
        for (int i = 0; i < 300; ++i)
            case_pointer(CAT_PTR_KERNEL);
        for (int i = 0; i < 250; ++i)
            case_pointer(CAT_PTR_PSB);
        for (int i = 0; i < 200; ++i)
            case_pointer(CAT_PTR_LOGICAL);
        for (int i = 0; i < 150; ++i)
            case_bool();
        for (int i = 0; i < 30; ++i)
            case_operand_kind();
        for (int i = 0; i < 200; ++i)
            case_multi();
        for (int i = 0; i < 50; ++i)
            case_spec(0);
        for (int i = 0; i < 400; ++i)
            case_spec(1);
        /* 2023.1 cannot assemble these: only with the 2025.1 oracle. */
        for (int i = 0; g_new && i < 250; ++i)
            case_coop(0);
        for (int i = 0; g_new && i < 100; ++i)
            case_coop(1);
        for (int i = 0; g_new && i < 150; ++i)
            case_untyped(i % 2);
    }
    cleanup_tmp();
    for (int c = 0; c < CAT_COUNT; ++c) {
        const cat_stats *s = &g_cat[c];
        char hist[256] = "";
        if (c >= CAT_COOPMAT && !g_new) continue; /* only with --spirv-tools-2025 */
        for (size_t r = 0; r < R_COUNT; ++r) {
            if (s->rule_hist[r]) {
                size_t len = strlen(hist);
                snprintf(hist + len, sizeof hist - len, " %s:%zu", k_rule_id[r], s->rule_hist[r]);
            }
        }
        printf("diff: %-21s %4zu cases, %3zu skipped (twin invalid), %4zu errors expected, "
               "%4zu passed, %zu failed;%s\n",
               k_cat_name[c], s->cases, s->skipped, s->errors_expected, s->passed, s->failed, hist);
        total += s->cases;
        skipped += s->skipped;
        passed += s->passed;
        failed += s->failed;
        if (c == CAT_SPEC_KERNEL) {
            spec += s->cases - s->skipped;
            printf("diff: spec-constant-kernel: %zu invalid ones that SPIRV-Tools %s "
                   "accepts (it does not check the operand)\n",
                   s->spirv_val_misses, g_new ? "2025.1" : "2023.1");
        } else {
            compared += s->cases - s->skipped;
        }
    }
    printf("diff: lowering every case: %zu runs, %zu rewritten (%zu spirv-val runs on the "
           "output), %zu refused, %zu untouched, %zu failed\n",
           g_lower.runs, g_lower.rewritten, g_lower.spirv_val_runs, g_lower.refused,
           g_lower.untouched, g_lower.failed);
    printf("diff: %zu cases (%zu compared with spirv-val %s, %zu spec-constant, %zu skipped), "
           "%zu passed, %zu failed\n",
           total, compared, g_new ? "2025.1 (Debian 13)" : "2023.1 (linked)", spec, skipped,
           passed, failed);
    if (g_new) printf("diff: %zu runs of SPIRV-Tools 2025.1's tools\n", g_tool_runs);
    /* Skips must stay rare, or the test stops testing. */
    if (skipped * 50 > total) {
        fprintf(stderr, "FAIL: too many skipped cases (%zu of %zu)\n", skipped, total);
        return 1;
    }
    return failed == 0 && passed > 0 ? 0 : 1;
}
