/* Validate: applies the SPIR-V and as_type rules to every bitcast site and reports findings
 * with positions, names, types, widths, the as_type spelling and source lines. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"

static spvbc__rule_env rule_env(const struct spvbc_module_s *m)
{
    spvbc__rule_env env;
    env.version = m->version;
    env.psb_gate = m->version >= 0x00010500u || m->has_psb_ext;
    env.shader = m->is_shader;
    env.features = m->caps_features;
    return env;
}

/* The plan features a module grants: its capabilities, and for Shader modules the rule that
 * 8/16-bit types without arithmetic capabilities are storage-only. */
static uint32_t plan_features(const struct spvbc_module_s *m)
{
    return m->caps_features | (m->is_shader ? SPVBC_FEATURE_SHADER : 0u);
}

void spvbc__analyze_site(const struct spvbc_module_s *m, const spvbc__site *site,
                         spvbc_pad_policy pad, bool want_plan, spvbc__site_info *out)
{
    memset(out, 0, sizeof *out);
    out->spec = site->spec != 0;
    out->opcode = out->spec ? SpvOpSpecConstantOp : SpvOpBitcast;
    out->result_type_id = site->result_type_id;
    out->result_id = site->result_id;
    out->operand_id = site->operand_id;
    out->rtype = spvbc__type_of_id(m, out->result_type_id);
    out->spec_needs_kernel = out->spec && !m->is_kernel;

    const uint32_t oid = out->operand_id;
    if (oid == 0 || oid >= m->bound) {
        out->vrule = SPVBC__VUNDEF;
        return;
    }
    /* The entry the reader saw when it met the site (usually in cache then); an operand
     * defined later (invalid SSA, but possible) is looked up again. */
    const uint32_t e = site->operand_entry != SPVBC__ID_UNDEF ? site->operand_entry : m->ids[oid];
    out->operand_later = site->operand_entry == SPVBC__ID_UNDEF;
    if (e == SPVBC__ID_UNDEF || e == SPVBC__ID_FORWARD) {
        out->vrule = SPVBC__VUNDEF;
        return;
    }
    if (e != SPVBC__ID_NOTYPE && (e & SPVBC__ID_TYPE_BIT)) {
        out->vrule = SPVBC__V0;
        return;
    }
    out->otype = e == SPVBC__ID_NOTYPE ? NULL : spvbc__type_of_id(m, e);
    spvbc__rule_env env = rule_env(m);
    out->vrule = spvbc__check_bitcast(&env, out->rtype, out->otype);

    if (spvbc__type_desc(out->otype, &out->src) && spvbc__type_desc(out->rtype, &out->dst)) {
        out->has_astype = true;
        if (out->vrule != SPVBC__V_OK || want_plan)
            spvbc__plan(&out->src, &out->dst, plan_features(m), pad, &out->plan);
    }
}

/* Appends `text` to buf at *len, truncating. */
static void append(char *buf, size_t size, size_t *len, const char *fmt, ...) SPVBC_PRINTF(4, 5);
static void append(char *buf, size_t size, size_t *len, const char *fmt, ...)
{
    if (*len >= size) return;
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(buf + *len, size - *len, fmt, ap);
    va_end(ap);
    if (n > 0) *len += (size_t)n;
    if (*len >= size) *len = size - 1;
}

void spvbc__refusal_text(const struct spvbc_module_s *m, const spvbc__site_info *info, char *buf,
                         size_t size)
{
    const char *t = "";
    switch (info->plan.refusal) {
    case SPVBC_REFUSE_SIZE: t = "the byte sizes differ, which as_type forbids too"; break;
    case SPVBC_REFUSE_BOOL_OR_VOID: t = "as_type excludes bool and void"; break;
    case SPVBC_REFUSE_MISSING_FEATURE: {
        char names[96];
        spvbc__feature_names(spvbc__missing_features(&info->src, &info->dst, plan_features(m)),
                             names, sizeof names);
        (void)snprintf(buf, size,
                       m->is_shader ? "the module lacks the capability %s (without it these "
                                      "types are storage-only: no OpBitcast or OpVectorShuffle)"
                                    : "the module lacks the capability %s",
                       names);
        return;
    }
    case SPVBC_REFUSE_PAD_POLICY:
        t = "the padding policy 'error' refuses 3-component sources";
        break;
    case SPVBC_REFUSE_BAD_TYPE: t = "a side is not an OpenCL C scalar or vector type"; break;
    default: break;
    }
    (void)snprintf(buf, size, "%s", t);
}

bool spvbc__report_site(struct spvbc_module_s *m, const spvbc__site *site,
                        const spvbc__site_info *info, spvbc_severity sev, const char *rule,
                        const char *text, bool lowerable, bool details,
                        spvbc__diag_pending **pending, size_t *pending_count, size_t *pending_cap)
{
    spvbc_context ctx = m->ctx;
    char rts[128], ots[128], cl_s[32] = "", cl_d[32] = "";
    const char *astype = NULL;
    spvbc__type_spelling(m, info->rtype, rts, sizeof rts);
    if (info->otype)
        spvbc__type_spelling(m, info->otype, ots, sizeof ots);
    else
        (void)snprintf(ots, sizeof ots, "%s",
                       info->vrule == SPVBC__V0 ? "(a type, not a value)" : "(no type)");
    const uint32_t rbits = spvbc__type_bits(info->rtype), obits = spvbc__type_bits(info->otype);

    char msg[1024];
    size_t len = 0;
    if (!details) {
        /* The text says it all (a rewrite's report); only the as_type spelling is added. */
        if (info->has_astype && spvbc__opencl_name(&info->src, m->is_kernel, cl_s, sizeof cl_s) &&
            spvbc__opencl_name(&info->dst, m->is_kernel, cl_d, sizeof cl_d)) {
            astype = spvbc__sprintf(ctx, "as_%s(%s)", cl_d, cl_s);
            if (!astype) return false;
        }
        append(msg, sizeof msg, &len, text, astype ? astype : "bitcast");
        goto store;
    }
    append(msg, sizeof msg, &len, "%s: %s%%%u = %s %%%u: result ", text,
           info->spec ? "OpSpecConstantOp " : "", info->result_id,
           info->spec ? "Bitcast" : "OpBitcast", info->operand_id);
    append(msg, sizeof msg, &len, "%s", rts);
    if (rbits) append(msg, sizeof msg, &len, " (%u bits)", rbits);
    append(msg, sizeof msg, &len, ", operand %s", ots);
    if (obits) append(msg, sizeof msg, &len, " (%u bits)", obits);

    if (info->has_astype) {
        bool kernel = m->is_kernel;
        if (spvbc__opencl_name(&info->src, kernel, cl_s, sizeof cl_s) &&
            spvbc__opencl_name(&info->dst, kernel, cl_d, sizeof cl_d)) {
            astype = spvbc__sprintf(ctx, "as_%s(%s)", cl_d, cl_s);
            if (!astype) return false;
            const spvbc_plan *p = &info->plan;
            append(msg, sizeof msg, &len, "; as_type: %s is %s", astype,
                   spvbc_astype_class_string(p->cls));
            char why[192];
            spvbc__refusal_text(m, info, why, sizeof why);
            if (p->refusal != SPVBC_REFUSE_NONE && p->cls != SPVBC_ASTYPE_SIZE_ERROR &&
                p->cls != SPVBC_ASTYPE_EXCLUDED)
                append(msg, sizeof msg, &len, " (%s)", why);
            else if (p->refusal != SPVBC_REFUSE_NONE)
                append(msg, sizeof msg, &len, ", not legal OpenCL C: %s", why);
            else if (p->defined_by_opencl)
                append(msg, sizeof msg, &len, ", defined by OpenCL C");
            else
                append(msg, sizeof msg, &len, ", implementation-defined in OpenCL C");
        }
    }
    if (sev == SPVBC_SEVERITY_ERROR || (sev == SPVBC_SEVERITY_WARNING && lowerable))
        append(msg, sizeof msg, &len, lowerable ? "; lowerable%s%s" : "; not lowerable%s%s",
               astype ? ": " : "", astype ? astype : "");

store:;
    spvbc_diagnostic d;
    memset(&d, 0, sizeof d);
    d.severity = sev;
    d.rule = rule;
    d.message = spvbc__strndup(ctx, msg, len);
    d.word_offset = site->offset;
    d.instruction_index = site->index;
    d.opcode = info->opcode;
    d.result_id = info->result_id;
    d.operand_type = spvbc__strndup(ctx, ots, strlen(ots));
    d.result_type = spvbc__strndup(ctx, rts, strlen(rts));
    d.operand_bits = obits;
    d.result_bits = rbits;
    d.astype = astype;
    d.lowerable = lowerable;
    if (!d.message || !d.operand_type || !d.result_type) return false;
    size_t index = spvbc__diag_count(ctx);
    if (!spvbc__diag_add(ctx, &d)) return false;
    if (!spvbc__grow(ctx, (void **)pending, pending_cap, sizeof **pending, *pending_count + 1))
        return false;
    (*pending)[*pending_count].diag_index = index;
    (*pending)[*pending_count].line_offset = site->line_offset;
    (*pending_count)++;
    return true;
}

/* ---- name and source-line resolution ------------------------------------------------------ */

/* Copies the literal string starting at word `first` of the `wc`-word instruction `w` into the
 * arena, bounded by the instruction. */
static const char *copy_literal(spvbc_context ctx, const uint32_t *w, uint32_t wc, uint32_t first)
{
    if (first >= wc) return NULL;
    char buf[256];
    size_t len = 0;
    size_t max = (size_t)(wc - first) * 4u;
    for (size_t i = 0; i < max && len < sizeof buf - 1; ++i) {
        char ch = (char)(unsigned char)(w[first + i / 4] >> (8 * (i % 4)));
        if (ch == '\0') break;
        buf[len++] = ch;
    }
    return spvbc__strndup(ctx, buf, len);
}

typedef struct want {
    uint32_t id;
    size_t pending; /* index into the pending array */
    uint32_t kind;
} want;

enum { WANT_NAME, WANT_FILE, WANT_DEBUG_SOURCE, WANT_LINE_CONST, WANT_COLUMN_CONST };

static int want_cmp(const void *a, const void *b)
{
    const want *x = (const want *)a, *y = (const want *)b;
    return x->id < y->id ? -1 : x->id > y->id;
}

typedef struct resolver {
    struct spvbc_module_s *m;
    spvbc__diag_pending *pending;
    want *wants;
    size_t count, cap;
    uint32_t *debug_file; /* per pending: the File string id of its DebugSource */
    bool ok;
} resolver;

static void want_add(resolver *r, uint32_t id, size_t pending, uint32_t kind)
{
    if (!r->ok) return;
    if (!spvbc__grow(r->m->ctx, (void **)&r->wants, &r->cap, sizeof *r->wants, r->count + 1)) {
        r->ok = false;
        return;
    }
    r->wants[r->count++] = (want){id, pending, kind};
}

/* Applies what the preamble instruction `w` (defining `id`) says to every want of `id`. */
static void satisfy(resolver *r, const uint32_t *w, uint32_t wc, uint32_t op, uint32_t id)
{
    want key = {id, 0, 0};
    want *hit = (want *)bsearch(&key, r->wants, r->count, sizeof *r->wants, want_cmp);
    if (!hit) return;
    while (hit > r->wants && hit[-1].id == id)
        --hit;
    spvbc_context ctx = r->m->ctx;
    for (; hit < r->wants + r->count && hit->id == id && r->ok; ++hit) {
        spvbc_diagnostic *d = spvbc__diag_at(ctx, r->pending[hit->pending].diag_index);
        if (hit->kind == WANT_NAME && op == SpvOpName && !d->result_name) {
            d->result_name = copy_literal(ctx, w, wc, 2);
            r->ok = d->result_name != NULL;
        } else if (hit->kind == WANT_FILE && op == SpvOpString) {
            d->source_file = copy_literal(ctx, w, wc, 2);
            r->ok = d->source_file != NULL;
        } else if (hit->kind == WANT_DEBUG_SOURCE && op == SpvOpExtInst && wc >= 6 &&
                   w[4] == 35 /* DebugSource */) {
            r->debug_file[hit->pending] = w[5];
        } else if (hit->kind == WANT_LINE_CONST && op == SpvOpConstant) {
            d->source_line = w[3];
        } else if (hit->kind == WANT_COLUMN_CONST && op == SpvOpConstant) {
            d->source_column = w[3];
        }
    }
}

/* One pass over the preamble (everything before the first function) for the current wants. */
static void scan_preamble(resolver *r)
{
    if (!r->ok || r->count == 0) return;
    qsort(r->wants, r->count, sizeof *r->wants, want_cmp);
    const struct spvbc_module_s *m = r->m;
    for (size_t off = 5; off < m->functions_offset && r->ok;) {
        const uint32_t *w = m->words + off;
        const uint32_t wc = w[0] >> 16, op = w[0] & 0xffffu;
        if ((op == SpvOpName || op == SpvOpString) && wc >= 3)
            satisfy(r, w, wc, op, w[1]);
        else if ((op == SpvOpExtInst || op == SpvOpConstant) && wc >= 4)
            satisfy(r, w, wc, op, w[2]);
        off += wc;
    }
}

bool spvbc__resolve_pending(struct spvbc_module_s *m, spvbc__diag_pending *pending,
                            size_t pending_count, size_t pending_cap)
{
    spvbc_context ctx = m->ctx;
    resolver r;
    memset(&r, 0, sizeof r);
    r.m = m;
    r.pending = pending;
    r.ok = true;
    size_t fbytes = pending_count * sizeof *r.debug_file;
    if (pending_count) {
        r.debug_file = (uint32_t *)spvbc__alloc(ctx, fbytes);
        r.ok = r.debug_file != NULL;
        if (r.ok) memset(r.debug_file, 0, fbytes);
    }
    for (size_t i = 0; i < pending_count && r.ok; ++i) {
        spvbc_diagnostic *d = spvbc__diag_at(ctx, pending[i].diag_index);
        if (d->result_id) want_add(&r, d->result_id, i, WANT_NAME);
        const uint32_t lo = pending[i].line_offset;
        if (!lo) continue;
        const uint32_t *w = m->words + lo;
        if ((w[0] & 0xffffu) == SpvOpLine) {
            /* OpLine File Line Column */
            want_add(&r, w[1], i, WANT_FILE);
            d->source_line = w[2];
            d->source_column = w[3];
        } else {
            /* DebugLine Source LineStart LineEnd ColumnStart ColumnEnd (constant ids) */
            want_add(&r, w[5], i, WANT_DEBUG_SOURCE);
            want_add(&r, w[6], i, WANT_LINE_CONST);
            want_add(&r, w[8], i, WANT_COLUMN_CONST);
        }
    }
    scan_preamble(&r);
    /* DebugSource names its file through an OpString: a second, usually empty, lookup. */
    r.count = 0;
    for (size_t i = 0; i < pending_count && r.ok; ++i)
        if (r.debug_file[i]) want_add(&r, r.debug_file[i], i, WANT_FILE);
    scan_preamble(&r);
    spvbc__free(ctx, r.debug_file, fbytes);
    spvbc__free(ctx, r.wants, r.cap * sizeof *r.wants);
    spvbc__free(ctx, pending, pending_cap * sizeof *pending);
    return r.ok;
}

/* ---- the validator ------------------------------------------------------------------------- */

/* Pointer width in bits under the module's addressing model, 0 if none (Logical). */
static uint32_t pointer_bits(const struct spvbc_module_s *m)
{
    switch (m->addressing) {
    case SpvAddressingModelPhysical32: return 32;
    case SpvAddressingModelPhysical64:
    case SpvAddressingModelPhysicalStorageBuffer64: return 64;
    default: return 0;
    }
}

typedef struct vstate {
    struct spvbc_module_s *m;
    uint32_t flags;
    spvbc_validate_summary sum;
    spvbc__diag_pending *pending;
    size_t pending_count, pending_cap;
} vstate;

static bool report(vstate *s, const spvbc__site *site, const spvbc__site_info *info,
                   spvbc_severity sev, const char *rule, const char *text, bool lowerable)
{
    if (sev == SPVBC_SEVERITY_WARNING && (s->flags & SPVBC_VALIDATE_WARNINGS_AS_ERRORS))
        sev = SPVBC_SEVERITY_ERROR;
    if (sev == SPVBC_SEVERITY_ERROR) {
        s->sum.errors++;
        if (lowerable) s->sum.lowerable++;
    } else if (sev == SPVBC_SEVERITY_WARNING) {
        s->sum.warnings++;
    } else {
        s->sum.notes++;
    }
    return spvbc__report_site(s->m, site, info, sev, rule, text, lowerable, true, &s->pending,
                              &s->pending_count, &s->pending_cap);
}

bool spvbc__same_element(const spvbc_type_desc *a, const spvbc_type_desc *b)
{
    return a->kind == b->kind && a->width == b->width &&
           (a->kind != SPVBC_SCALAR_INT || a->is_signed == b->is_signed);
}

const spvbc__type *spvbc__plan_component(const struct spvbc_module_s *m,
                                         const spvbc__site_info *info, const spvbc_type_desc *d)
{
    const spvbc__type *side = spvbc__same_element(d, &info->src) ? info->otype : info->rtype;
    return side->kind == SPVBC__T_VECTOR ? spvbc__type_of_id(m, side->elem) : side;
}

/* Whether every intermediate type of the plan can be used at the site at `site_offset`: an
 * existing vec4 declared after it cannot (a module whose layout puts it there is invalid, but
 * parses), and declaring a second one would duplicate a type, which SPIR-V forbids. */
static bool plan_types_available(const struct spvbc_module_s *m, const spvbc__site_info *info,
                                 uint32_t site_offset)
{
    for (uint32_t i = 0; i < info->plan.op_count; ++i) {
        const spvbc_type_desc *d = &info->plan.ops[i].result_type;
        if (d->count == info->dst.count && spvbc__same_element(d, &info->dst)) continue;
        const spvbc__type *comp = spvbc__plan_component(m, info, d);
        const spvbc__type *v4 = comp ? spvbc__type_of_id(m, comp->vec4_id) : NULL;
        if (v4 && v4->decl_offset > site_offset) return false;
    }
    return true;
}

bool spvbc__site_lowerable(const struct spvbc_module_s *m, const spvbc__site_info *info,
                           uint32_t site_offset)
{
    /* Only a size mismatch that as_type allows is fixed; every other failure stays. */
    if (info->vrule != SPVBC__V12 || !info->has_astype) return false;
    if (info->plan.refusal != SPVBC_REFUSE_NONE || info->plan.op_count == 0) return false;
    /* New ids come from the bound: in a module that already names ids at or above it they
     * would silently give those references a meaning nobody wrote. */
    if (m->refs_above_bound) return false;
    /* An operand defined after its use (invalid order, but it parses) may bring its types
     * after the site too, where a new vec4 or null would be declared: never rewrite that.
     * With the operand first, every type a recipe builds on precedes the site. */
    if (info->operand_later) return false;
    /* A spec-constant recipe needs OpSpecConstantOp VectorShuffle/Bitcast: Kernel only; and
     * every recipe needs its types declared before it. */
    if (info->spec && !m->is_kernel) return false;
    return plan_types_available(m, info, site_offset);
}

static bool check_site(vstate *s, const spvbc__site *site)
{
    struct spvbc_module_s *m = s->m;
    spvbc__site_info info;
    spvbc__analyze_site(m, site, SPVBC_PAD_UNDEF, (s->flags & SPVBC_VALIDATE_NOTES) != 0, &info);
    s->sum.bitcasts_checked++;

    if (info.spec_needs_kernel &&
        !report(s, site, &info, SPVBC_SEVERITY_ERROR, "S7",
                "specialization constant operation Bitcast requires the Kernel capability", false))
        return false;
    if (info.vrule != SPVBC__V_OK) {
        bool low = spvbc__site_lowerable(m, &info, site->offset);
        return report(s, site, &info, SPVBC_SEVERITY_ERROR, spvbc__vrule_id(info.vrule),
                      spvbc__vrule_text(info.vrule), low);
    }
    const spvbc__type *rt = info.rtype, *ot = info.otype;
    /* S2 "Operand ... must be a different type than Result Type" (not checked by spirv-val). */
    if (info.otype && info.otype->id == info.result_type_id &&
        !report(s, site, &info, SPVBC_SEVERITY_WARNING, "S2",
                "operand already has the result type: the bitcast is no instruction at all "
                "(use the operand)",
                false))
        return false;
    const bool rp = rt->kind == SPVBC__T_POINTER, op = ot->kind == SPVBC__T_POINTER;
    /* S4 "If Result Type is a pointer, Operand must be a pointer and point to the same
     * Storage Class" when both are pointers (not checked by spirv-val). */
    if (rp && op && rt->storage != ot->storage &&
        !report(s, site, &info, SPVBC_SEVERITY_WARNING, "S4",
                "pointers to different storage classes", false))
        return false;
    if (rp != op) {
        const spvbc__type *other = rp ? ot : rt;
        uint32_t pb = pointer_bits(m), ib = spvbc__type_bits(other);
        if (pb && ib && pb != ib &&
            !report(s, site, &info, SPVBC_SEVERITY_WARNING, "S3-WIDTH",
                    pb == 32 ? "integer width differs from the 32-bit pointer width of the "
                               "addressing model"
                             : "integer width differs from the 64-bit pointer width of the "
                               "addressing model",
                    false))
            return false;
    }
    /* Current SPIRV-Tools rejects, in Logical or PhysicalStorageBuffer64 addressing, a
     * bitcast of a pointer outside PhysicalStorageBuffer ("logical pointer"). */
    if ((rp || op) && (m->addressing == SpvAddressingModelLogical ||
                       m->addressing == SpvAddressingModelPhysicalStorageBuffer64)) {
        bool logical = (rp && rt->storage != SpvStorageClassPhysicalStorageBuffer) ||
                       (op && ot->storage != SpvStorageClassPhysicalStorageBuffer);
        if (logical &&
            !report(s, site, &info,
                    (s->flags & SPVBC_VALIDATE_STRICT) ? SPVBC_SEVERITY_ERROR
                                                       : SPVBC_SEVERITY_WARNING,
                    "W-LOGICAL-PTR",
                    "bitcast of a logical pointer (not PhysicalStorageBuffer) in Logical or "
                    "PhysicalStorageBuffer64 addressing: current SPIRV-Tools rejects it",
                    false))
            return false;
    }
    if (info.has_astype && (s->flags & SPVBC_VALIDATE_NOTES)) {
        const spvbc_plan *p = &info.plan;
        if (p->refusal == SPVBC_REFUSE_NONE && !p->defined_by_opencl &&
            !report(s, site, &info, SPVBC_SEVERITY_NOTE, "N-IMPL-DEFINED",
                    "as_type with a different element count: OpenCL leaves the result "
                    "implementation-defined; SPIR-V maps low-order bits to low-numbered "
                    "components",
                    false))
            return false;
        if (p->refusal != SPVBC_REFUSE_NONE &&
            !report(s, site, &info, SPVBC_SEVERITY_NOTE, "N-NOT-ASTYPE",
                    "valid SPIR-V, but not a legal OpenCL C as_type", false))
            return false;
    }
    return true;
}

spvbc_result spvbc_module_validate(spvbc_module module, const spvbc_validate_options *options,
                                   spvbc_validate_summary *out_summary)
{
    if (!module) return SPVBC_ERROR_INVALID_ARGUMENT;
    spvbc__diag_clear(module->ctx);
    vstate s;
    memset(&s, 0, sizeof s);
    s.m = module;
    s.flags = options ? options->flags : 0;
    bool ok = true;
    for (size_t i = 0; i < module->site_count && ok; ++i)
        ok = check_site(&s, &module->sites[i]);
    ok = spvbc__resolve_pending(module, s.pending, s.pending_count, s.pending_cap) && ok;
    if (!ok) return spvbc__oom(module->ctx);
    if (out_summary) *out_summary = s.sum;
    return s.sum.errors ? SPVBC_ERROR_VALIDATION_FAILED : SPVBC_SUCCESS;
}
