/*
 * minimal_frontend.c - the smallest front end that emits OpenCL C as_type() without ever
 * producing an invalid OpBitcast.
 *
 * A compiler that maps `as_float3(x)` 1:1 onto `OpBitcast %v3float %x` emits invalid SPIR-V
 * whenever one side has 3 components (a float3 occupies 16 bytes, but OpBitcast compares the
 * 96 bits of its lanes).  Instead, this front end asks spvbc_astype_plan() for the at most three
 * core instructions that implement each as_type, declares the types the plan needs (reusing a
 * declaration when it exists: a duplicate OpTypeVector is invalid) and emits the ops in order.
 *
 * For each expression of the table below it writes one kernel
 *     kernel void astype_N(global SRC *in, global DST *out) { *out = as_DST(*in); }
 * into one SPIR-V 1.0 Kernel module (Physical64, OpenCL memory model), reports as_type errors the way a
 * compiler would (as_double4(float4) is one), writes the module and checks it with
 * SPIRV-Tools' validator (C API) and with spirv-bitcast's own validator.
 *
 * Usage: minimal_frontend [--pad undef|zero|error] OUT.spv
 * Exit 0 when every expression had the expected outcome (planned, or refused exactly as
 * OpenCL C or the padding policy requires), the module was written and both validators
 * accept it; 1 otherwise; 2 on usage errors.
 *
 * SPDX-License-Identifier: Apache-2.0
 */
#include <spirv/unified1/spirv.h>
#include <spirv-tools/libspirv.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "spirv_bitcast.h"

/* ---- growable word buffers: one per logical section of the module -------------------- */

typedef struct words {
    uint32_t *data;
    size_t count, cap;
} words;

static int words_push(words *w, uint32_t value)
{
    if (w->count == w->cap) {
        size_t cap = w->cap ? 2 * w->cap : 64;
        uint32_t *grown = realloc(w->data, cap * sizeof *grown);
        if (!grown) return 0;
        w->data = grown;
        w->cap = cap;
    }
    w->data[w->count++] = value;
    return 1;
}

/** Appends instruction `op` with `n` operand words `ops` to `w`; 0 on allocation failure. */
static int emit(words *w, SpvOp op, const uint32_t *ops, size_t n)
{
    if (!words_push(w, (uint32_t)((n + 1) << SpvWordCountShift) | (uint32_t)op)) return 0;
    for (size_t i = 0; i < n; ++i)
        if (!words_push(w, ops[i])) return 0;
    return 1;
}

/** Appends `op` with `n_before` operands, the literal string `s`, then `n_after` operands. */
static int emit_str(words *w, SpvOp op, const uint32_t *before, size_t n_before, const char *s,
                    const uint32_t *after, size_t n_after)
{
    size_t len = strlen(s), str_words = len / 4 + 1; /* at least one NUL byte */
    size_t total = 1 + n_before + str_words + n_after;
    if (!words_push(w, (uint32_t)(total << SpvWordCountShift) | (uint32_t)op)) return 0;
    for (size_t i = 0; i < n_before; ++i)
        if (!words_push(w, before[i])) return 0;
    for (size_t i = 0; i < str_words; ++i) {
        uint32_t word = 0;
        for (size_t b = 0; b < 4; ++b) {
            size_t at = 4 * i + b;
            if (at < len) word |= (uint32_t)(unsigned char)s[at] << (8 * b);
        }
        if (!words_push(w, word)) return 0;
    }
    for (size_t i = 0; i < n_after; ++i)
        if (!words_push(w, after[i])) return 0;
    return 1;
}

/* ---- the module being built ----------------------------------------------------------- */

enum { MAX_TYPES = 64 };

typedef struct type_entry {
    spvbc_type_desc desc; /* scalar (count 1) or vector; is_signed always 0 (Kernel) */
    uint32_t id;
    uint32_t ptr_id;  /* OpTypePointer CrossWorkgroup to it, 0 until needed */
    uint32_t null_id; /* OpConstantNull of it, 0 until needed */
} type_entry;

typedef struct module {
    uint32_t next_id;
    words entry_points, names, types, functions;
    type_entry types_table[MAX_TYPES];
    size_t type_count;
    uint32_t void_id;
    uint32_t caps; /* SPVBC_FEATURE_* bits the declared types need */
    int oom;
} module;

static uint32_t new_id(module *m) { return m->next_id++; }

static int same_desc(const spvbc_type_desc *a, const spvbc_type_desc *b)
{
    return a->kind == b->kind && a->width == b->width && a->count == b->count;
}

/** The id of the scalar or vector type `d`, declaring it (and its component) on first use. */
static type_entry *get_type(module *m, const spvbc_type_desc *d)
{
    for (size_t i = 0; i < m->type_count; ++i)
        if (same_desc(&m->types_table[i].desc, d)) return &m->types_table[i];
    uint32_t component = 0;
    if (d->count > 1) {
        spvbc_type_desc scalar = *d;
        scalar.count = 1;
        type_entry *s = get_type(m, &scalar);
        if (!s) return NULL;
        component = s->id;
    }
    if (m->type_count == MAX_TYPES) return NULL;
    type_entry *t = &m->types_table[m->type_count++];
    memset(t, 0, sizeof *t);
    t->desc = *d;
    t->desc.is_signed = 0;
    t->id = new_id(m);
    int ok;
    if (d->count > 1) {
        uint32_t ops[] = {t->id, component, d->count};
        ok = emit(&m->types, SpvOpTypeVector, ops, 3);
        if (d->count >= 8) m->caps |= SPVBC_FEATURE_VECTOR16;
    } else if (d->kind == SPVBC_SCALAR_FLOAT) {
        uint32_t ops[] = {t->id, d->width};
        ok = emit(&m->types, SpvOpTypeFloat, ops, 2);
        if (d->width == 16) m->caps |= SPVBC_FEATURE_FLOAT16;
        if (d->width == 64) m->caps |= SPVBC_FEATURE_FLOAT64;
    } else {
        uint32_t ops[] = {t->id, d->width, 0}; /* Kernel integers are signless */
        ok = emit(&m->types, SpvOpTypeInt, ops, 3);
        if (d->width == 8) m->caps |= SPVBC_FEATURE_INT8;
        if (d->width == 16) m->caps |= SPVBC_FEATURE_INT16;
        if (d->width == 64) m->caps |= SPVBC_FEATURE_INT64;
    }
    if (!ok) m->oom = 1;
    return t;
}

static uint32_t get_pointer(module *m, type_entry *t)
{
    if (!t->ptr_id) {
        t->ptr_id = new_id(m);
        uint32_t ops[] = {t->ptr_id, SpvStorageClassCrossWorkgroup, t->id};
        if (!emit(&m->types, SpvOpTypePointer, ops, 3)) m->oom = 1;
    }
    return t->ptr_id;
}

static uint32_t get_null(module *m, type_entry *t)
{
    if (!t->null_id) {
        t->null_id = new_id(m);
        uint32_t ops[] = {t->id, t->null_id};
        if (!emit(&m->types, SpvOpConstantNull, ops, 2)) m->oom = 1;
    }
    return t->null_id;
}

/* ---- as_type through the plan --------------------------------------------------------- */

/**
 * Emits the instructions of `plan` into `m->functions`, starting from value `x` of type
 * `src`; returns the id holding as_DST(x) (x itself for an identity plan), 0 on failure.
 */
static uint32_t emit_astype(module *m, const spvbc_plan *plan, const spvbc_type_desc *src,
                            uint32_t x)
{
    uint32_t value = x;
    spvbc_type_desc value_type = *src;
    for (uint32_t i = 0; i < plan->op_count; ++i) {
        const spvbc_plan_op *op = &plan->ops[i];
        type_entry *rt = get_type(m, &op->result_type);
        if (!rt) return 0;
        uint32_t result = new_id(m);
        if (op->kind == SPVBC_PLAN_OP_BITCAST) {
            uint32_t ops[] = {rt->id, result, value};
            if (!emit(&m->functions, SpvOpBitcast, ops, 3)) return 0;
        } else {
            uint32_t second = value;
            if (op->second == SPVBC_PLAN_SECOND_NULL) {
                type_entry *vt = get_type(m, &value_type);
                if (!vt) return 0;
                second = get_null(m, vt);
            }
            uint32_t ops[4 + 4] = {rt->id, result, value, second};
            for (uint32_t l = 0; l < op->lane_count && l < 4; ++l) ops[4 + l] = op->lanes[l];
            if (!emit(&m->functions, SpvOpVectorShuffle, ops, 4 + op->lane_count)) return 0;
        }
        value = result;
        value_type = op->result_type;
    }
    return value;
}

static const char *refusal_text(spvbc_plan_refusal r)
{
    switch (r) {
    case SPVBC_PLAN_REFUSAL_SIZE: return "operand and result differ in size";
    case SPVBC_PLAN_REFUSAL_BOOL_OR_VOID: return "as_type excludes bool and void";
    case SPVBC_PLAN_REFUSAL_MISSING_FEATURE: return "a type needs an extension the device lacks";
    case SPVBC_PLAN_REFUSAL_PAD_POLICY: return "3-component sources are refused by --pad error";
    case SPVBC_PLAN_REFUSAL_BAD_TYPE: return "not an OpenCL C type";
    default: return "refused";
    }
}

/** The as_type expressions this "program" contains; `error` marks the ones OpenCL rejects. */
static const struct {
    const char *src, *dst;
    spvbc_plan_refusal error;
} k_exprs[] = {
    {"float4", "float3", SPVBC_PLAN_REFUSAL_NONE},  /* 4->3: defined by OpenCL */
    {"float3", "float4", SPVBC_PLAN_REFUSAL_NONE},  /* 3->4 */
    {"long2", "int3", SPVBC_PLAN_REFUSAL_NONE},     /* vec3 destination */
    {"int", "char3", SPVBC_PLAN_REFUSAL_NONE},      /* vec3 destination */
    {"uchar3", "uint", SPVBC_PLAN_REFUSAL_NONE},    /* vec3 source */
    {"float4", "int4", SPVBC_PLAN_REFUSAL_NONE},    /* same count */
    {"int", "short2", SPVBC_PLAN_REFUSAL_NONE},     /* count change */
    {"int", "uint", SPVBC_PLAN_REFUSAL_NONE},       /* identity: one signless SPIR-V type */
    {"float4", "double4", SPVBC_PLAN_REFUSAL_SIZE}  /* size error: a compile error */
};

/** Builds one kernel per expression into `m`; returns the number of unexpected outcomes. */
static int build(module *m, spvbc_pad_policy pad)
{
    int problems = 0;
    spvbc_plan_options options = {sizeof(spvbc_plan_options), SPVBC_FEATURE_ALL_KERNEL, pad};
    for (size_t e = 0; e < sizeof k_exprs / sizeof k_exprs[0]; ++e) {
        spvbc_type_desc src, dst;
        if (spvbc_type_desc_from_opencl(k_exprs[e].src, &src) != SPVBC_SUCCESS ||
            spvbc_type_desc_from_opencl(k_exprs[e].dst, &dst) != SPVBC_SUCCESS) {
            fprintf(stderr, "internal error: bad type name in the table\n");
            return problems + 1;
        }
        src.is_signed = dst.is_signed = 0; /* Kernel: int and uint are one SPIR-V type */
        spvbc_plan plan = SPVBC_PLAN_INIT;
        if (spvbc_astype_plan(&src, &dst, &options, &plan) != SPVBC_SUCCESS) {
            fprintf(stderr, "internal error: spvbc_astype_plan failed\n");
            return problems + 1;
        }
        /* Under --pad error, as_type from a 3-component source is refused by policy. */
        spvbc_plan_refusal expected = k_exprs[e].error;
        if (expected == SPVBC_PLAN_REFUSAL_NONE && pad == SPVBC_PAD_ERROR && src.count == 3)
            expected = SPVBC_PLAN_REFUSAL_PAD_POLICY;
        printf("as_%s(%s): %s", k_exprs[e].dst, k_exprs[e].src,
               spvbc_astype_class_string(plan.cls));
        if (plan.refusal != expected) {
            printf(": unexpected outcome: %s\n", plan.refusal == SPVBC_PLAN_REFUSAL_NONE
                                                       ? "planned"
                                                       : refusal_text(plan.refusal));
            ++problems;
            continue;
        }
        if (plan.refusal != SPVBC_PLAN_REFUSAL_NONE) {
            /* What a compiler does with as_double4(float4): a diagnostic, no code. */
            printf(": error: %s\n", refusal_text(plan.refusal));
            continue;
        }
        if (plan.op_count == 0)
            printf(", no instruction (the operand already has the result type)\n");
        else
            printf(", %u instruction%s%s\n", plan.op_count, plan.op_count == 1 ? "" : "s",
                   plan.direct_bitcast_valid ? "" : " (a direct OpBitcast would be invalid)");

        /* kernel void astype_N(global SRC *in, global DST *out) { *out = as_DST(*in); } */
        type_entry *st = get_type(m, &src), *dt = get_type(m, &dst);
        if (!st || !dt) return problems + 1;
        uint32_t src_ptr = get_pointer(m, st), dst_ptr = get_pointer(m, dt);
        uint32_t fn_type = new_id(m);
        uint32_t fty[] = {fn_type, m->void_id, src_ptr, dst_ptr};
        if (!emit(&m->types, SpvOpTypeFunction, fty, 4)) m->oom = 1;

        uint32_t fn = new_id(m), in = new_id(m), out = new_id(m), label = new_id(m);
        uint32_t loaded = new_id(m);
        char name[32];
        snprintf(name, sizeof name, "astype_%zu", e);
        uint32_t ep[] = {SpvExecutionModelKernel, fn};
        if (!emit_str(&m->entry_points, SpvOpEntryPoint, ep, 2, name, NULL, 0) ||
            !emit_str(&m->names, SpvOpName, &fn, 1, name, NULL, 0))
            m->oom = 1;
        uint32_t align = dt->desc.width / 8 * (dt->desc.count == 3 ? 4 : dt->desc.count);
        uint32_t src_align = st->desc.width / 8 * (st->desc.count == 3 ? 4 : st->desc.count);
        uint32_t f_ops[] = {m->void_id, fn, SpvFunctionControlMaskNone, fn_type};
        uint32_t p_in[] = {src_ptr, in}, p_out[] = {dst_ptr, out};
        uint32_t ld[] = {st->id, loaded, in, SpvMemoryAccessAlignedMask, src_align};
        if (!emit(&m->functions, SpvOpFunction, f_ops, 4) ||
            !emit(&m->functions, SpvOpFunctionParameter, p_in, 2) ||
            !emit(&m->functions, SpvOpFunctionParameter, p_out, 2) ||
            !emit(&m->functions, SpvOpLabel, &label, 1) ||
            !emit(&m->functions, SpvOpLoad, ld, 5)) {
            m->oom = 1;
            return problems + 1;
        }
        uint32_t result = emit_astype(m, &plan, &src, loaded);
        if (!result) {
            m->oom = 1;
            return problems + 1;
        }
        uint32_t stv[] = {out, result, SpvMemoryAccessAlignedMask, align};
        if (!emit(&m->functions, SpvOpStore, stv, 4) ||
            !emit(&m->functions, SpvOpReturn, NULL, 0) ||
            !emit(&m->functions, SpvOpFunctionEnd, NULL, 0))
            m->oom = 1;
    }
    return problems;
}

/** Concatenates header and sections into `*out` (caller frees); 0 on allocation failure. */
static int assemble(module *m, words *out)
{
    static const struct {
        uint32_t feature;
        SpvCapability cap;
    } k_caps[] = {{SPVBC_FEATURE_FLOAT16, SpvCapabilityFloat16},
                  {SPVBC_FEATURE_FLOAT64, SpvCapabilityFloat64},
                  {SPVBC_FEATURE_INT64, SpvCapabilityInt64},
                  {SPVBC_FEATURE_INT8, SpvCapabilityInt8},
                  {SPVBC_FEATURE_INT16, SpvCapabilityInt16},
                  {SPVBC_FEATURE_VECTOR16, SpvCapabilityVector16}};
    words head = {0};
    uint32_t header[] = {SpvMagicNumber, 0x00010000u /* SPIR-V 1.0 (OpenCL 1.2) */, 0, m->next_id, 0};
    int ok = 1;
    for (size_t i = 0; i < 5; ++i) ok = ok && words_push(&head, header[i]);
    uint32_t cap = SpvCapabilityAddresses;
    ok = ok && emit(&head, SpvOpCapability, &cap, 1);
    cap = SpvCapabilityKernel;
    ok = ok && emit(&head, SpvOpCapability, &cap, 1);
    for (size_t i = 0; i < sizeof k_caps / sizeof k_caps[0]; ++i) {
        cap = k_caps[i].cap;
        if (m->caps & k_caps[i].feature) ok = ok && emit(&head, SpvOpCapability, &cap, 1);
    }
    uint32_t mm[] = {SpvAddressingModelPhysical64, SpvMemoryModelOpenCL};
    ok = ok && emit(&head, SpvOpMemoryModel, mm, 2);
    const words *parts[] = {&m->entry_points, &m->names, &m->types, &m->functions};
    for (size_t p = 0; p < 4; ++p)
        for (size_t i = 0; i < parts[p]->count; ++i) ok = ok && words_push(&head, parts[p]->data[i]);
    *out = head;
    return ok;
}

/** Runs SPIRV-Tools' validator on `w`; prints its message and returns 0 if it rejects. */
static int spirv_tools_accepts(const words *w)
{
    spv_context ctx = spvContextCreate(SPV_ENV_OPENCL_1_2);
    if (!ctx) return 0;
    spv_const_binary_t binary = {w->data, w->count};
    spv_diagnostic diag = NULL;
    spv_result_t r = spvValidate(ctx, &binary, &diag);
    if (r != SPV_SUCCESS) {
        fprintf(stderr, "SPIRV-Tools rejects the module: %s\n",
                diag && diag->error ? diag->error : "(no message)");
    }
    spvDiagnosticDestroy(diag);
    spvContextDestroy(ctx);
    return r == SPV_SUCCESS;
}

/** Runs spirv-bitcast's validator on `w`; returns 0 on any error diagnostic. */
static int spvbc_accepts(const words *w)
{
    spvbc_context ctx;
    spvbc_module mod;
    if (spvbc_context_create(NULL, &ctx) != SPVBC_SUCCESS) return 0;
    spvbc_validate_summary sum = SPVBC_VALIDATE_SUMMARY_INIT;
    spvbc_result r = spvbc_module_parse(ctx, w->data, w->count, NULL, &mod);
    if (r == SPVBC_SUCCESS) {
        r = spvbc_module_validate(mod, NULL, &sum);
        spvbc_module_destroy(mod);
    }
    for (size_t i = 0; i < spvbc_context_diagnostic_count(ctx); ++i) {
        const spvbc_diagnostic *d = spvbc_context_diagnostic(ctx, i);
        fprintf(stderr, "spirv-bitcast: %s: word %zu: %s [%s]\n",
                spvbc_severity_string(d->severity), d->word_offset, d->message, d->rule);
    }
    spvbc_context_destroy(ctx);
    if (r == SPVBC_SUCCESS)
        printf("spirv-bitcast validate: %zu bitcasts checked, no error\n", sum.bitcasts_checked);
    return r == SPVBC_SUCCESS;
}

int main(int argc, char **argv)
{
    spvbc_pad_policy pad = SPVBC_PAD_UNDEF;
    const char *out_path = NULL;
    int bad = 0;
    for (int i = 1; i < argc && !bad; ++i) {
        if (strcmp(argv[i], "--pad") == 0 && i + 1 < argc) {
            const char *p = argv[++i];
            if (strcmp(p, "undef") == 0)
                pad = SPVBC_PAD_UNDEF;
            else if (strcmp(p, "zero") == 0)
                pad = SPVBC_PAD_ZERO;
            else if (strcmp(p, "error") == 0)
                pad = SPVBC_PAD_ERROR;
            else
                bad = 1;
        } else if (!out_path && argv[i][0] != '-') {
            out_path = argv[i];
        } else {
            bad = 1;
        }
    }
    if (bad || !out_path) {
        fprintf(stderr, "usage: %s [--pad undef|zero|error] OUT.spv\n", argv[0]);
        return 2;
    }

    module m;
    memset(&m, 0, sizeof m);
    m.next_id = 1;
    m.void_id = new_id(&m);
    if (!emit(&m.types, SpvOpTypeVoid, &m.void_id, 1)) m.oom = 1;
    int problems = build(&m, pad);
    words all = {0};
    int ok = !m.oom && assemble(&m, &all);
    if (!ok) fprintf(stderr, "out of memory\n");

    if (ok) {
        FILE *f = fopen(out_path, "wb");
        if (!f || fwrite(all.data, sizeof all.data[0], all.count, f) != all.count) {
            fprintf(stderr, "cannot write %s\n", out_path);
            ok = 0;
        }
        if (f && fclose(f) != 0) ok = 0;
        if (ok) printf("wrote %s: %zu words, id bound %u\n", out_path, all.count, m.next_id);
    }
    if (ok && spirv_tools_accepts(&all)) printf("SPIRV-Tools validator: valid\n");
    else ok = 0;
    if (ok && !spvbc_accepts(&all)) ok = 0;
    if (problems) fprintf(stderr, "%d as_type expression(s) had an unexpected outcome\n", problems);

    free(all.data);
    free(m.entry_points.data);
    free(m.names.data);
    free(m.types.data);
    free(m.functions.data);
    return ok && !problems ? 0 : 1;
}
