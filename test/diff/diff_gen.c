/*
 * diff_gen.c - the differential test's generator: random numbers, types, the module under
 * construction (diff.c says what the test does).
 * SPDX-License-Identifier: Apache-2.0
 */
#include <stdio.h>
#include <string.h>

#include "diff_internal.h"

/* ---- deterministic random numbers (test/support's xorshift64*) --------------------------- */

test_rng g_rng = {0x5eed2b17c0ffee01ull};

/* 31 bits of each output (not test_rng_below's 32): the cases every seed has always made. */
uint32_t rnd(uint32_t n)
{
    uint64_t x = test_rng_next(&g_rng);
    return n ? (uint32_t)(x >> 33) % n : 0;
}

int coin(void)
{
    return (int)rnd(2);
}

static const char *const k_sc_name[] = {"Function", "CrossWorkgroup", "Workgroup", "StorageBuffer",
                                        "PhysicalStorageBuffer"};

gtype num(gkind k, uint32_t w, uint32_t c, int s)
{
    gtype t;
    memset(&t, 0, sizeof t);
    t.kind = k;
    t.width = k == GT_BOOL ? 0 : w;
    t.count = c;
    t.is_signed = k == GT_INT ? s : 0;
    return t;
}

gtype ptr(int sc, gtype pointee)
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

void new_id(gmod *m, char *buf, size_t size, const char *prefix)
{
    snprintf(buf, size, "%%%s_%u", prefix, m->next_id++); /* "_" keeps ids apart from types */
}

/* Declares `t` (and what it depends on) once; writes its id (with '%') to `buf`. */
void ensure_type(gmod *m, const gtype *t, char *buf, size_t size)
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
int storage_only(const gmod *m, const gtype *t)
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
void make_value(gmod *m, const gtype *t, char *id, size_t size)
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
void write_module(gmod *m, const char *bitcast_line, int global_line, spvbc_gen_text *out)
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

void gmod_free(gmod *m)
{
    spvbc_gen_text_free(&m->decls);
    spvbc_gen_text_free(&m->annots);
    spvbc_gen_text_free(&m->debug);
    spvbc_gen_text_free(&m->vars);
    spvbc_gen_text_free(&m->body);
}
