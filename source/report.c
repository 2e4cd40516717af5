/* Report: findings are recorded as compact records while the passes run; the diagnostics -
 * sentence, type spellings, as_type spelling, OpName and source line - are made from them when
 * somebody first reads one (or before their module is destroyed), in one batch: one analysis
 * per kept finding and one pass over the module's preamble for names and lines. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "context.h"
#include "report.h"

/* ---- recording ----------------------------------------------------------------------------- */

#define REC_LOWERABLE 0x1u
#define REC_WANT_PLAN 0x2u
#define REC_PAD_SHIFT 2u

bool spvbc__report(struct spvbc_module_s *m, const spvbc__site *site, uint16_t msg,
                   const spvbc__report_args *args)
{
    spvbc__record r;
    r.rule = args->rule;
    r.site = (uint32_t)(site - m->sites);
    r.arg = args->arg;
    r.msg = msg;
    r.severity = (uint8_t)args->severity;
    r.flags =
        (uint8_t)((args->lowerable ? REC_LOWERABLE : 0u) | (args->want_plan ? REC_WANT_PLAN : 0u) |
                  ((uint32_t)args->pad << REC_PAD_SHIFT));
    return spvbc__record_add(m->ctx, m, &r);
}

bool spvbc__report_finish(spvbc_context ctx)
{
    const spvbc__diag_store *st = spvbc__context_diags(ctx);
    if (!st->not_kept) return true;
    if (st->policy == SPVBC_DIAGNOSTICS_COUNT_ONLY)
        return spvbc__diag_simple(
                   ctx, SPVBC_SEVERITY_NOTE, "R-NOT-KEPT", SPVBC_NO_POSITION, SPVBC_NO_POSITION, 0,
                   "%zu findings not kept (diagnostic policy: count only)", st->not_kept) != NULL;
    return spvbc__diag_simple(ctx, SPVBC_SEVERITY_NOTE, "R-NOT-KEPT", SPVBC_NO_POSITION,
                              SPVBC_NO_POSITION, 0,
                              "%zu more findings not kept (diagnostic policy: keep the first %zu)",
                              st->not_kept, st->limit) != NULL;
}

/* ---- sentences ----------------------------------------------------------------------------- */

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

static const char *storage_name(uint32_t sc)
{
    switch (sc) {
    case SpvStorageClassUniformConstant: return "UniformConstant";
    case SpvStorageClassInput: return "Input";
    case SpvStorageClassUniform: return "Uniform";
    case SpvStorageClassOutput: return "Output";
    case SpvStorageClassWorkgroup: return "Workgroup";
    case SpvStorageClassCrossWorkgroup: return "CrossWorkgroup";
    case SpvStorageClassPrivate: return "Private";
    case SpvStorageClassFunction: return "Function";
    case SpvStorageClassGeneric: return "Generic";
    case SpvStorageClassPushConstant: return "PushConstant";
    case SpvStorageClassImage: return "Image";
    case SpvStorageClassStorageBuffer: return "StorageBuffer";
    case SpvStorageClassPhysicalStorageBuffer: return "PhysicalStorageBuffer";
    default: return "StorageClass?";
    }
}

static void scalar_spelling(uint32_t kind, uint32_t width, uint32_t sign, char *buf, size_t size)
{
    if (kind == SPVBC__T_INT)
        (void)snprintf(buf, size, "OpTypeInt %u %u", width, sign);
    else if (kind == SPVBC__T_FLOAT)
        (void)snprintf(buf, size, "OpTypeFloat %u", width);
    else if (kind == SPVBC__T_BOOL)
        (void)snprintf(buf, size, "OpTypeBool");
    else if (kind == SPVBC__T_VOID)
        (void)snprintf(buf, size, "OpTypeVoid");
    else
        (void)snprintf(buf, size, "a non-numerical type");
}

static void type_spelling(const struct spvbc_module_s *m, const spvbc__type *t, char *buf,
                          size_t size)
{
    char inner[64];
    if (!t) {
        (void)snprintf(buf, size, "(not a type)");
        return;
    }
    switch (t->kind) {
    case SPVBC__T_VECTOR:
        scalar_spelling(t->comp_kind, t->width, t->is_signed, inner, sizeof inner);
        (void)snprintf(buf, size, "OpTypeVector %u x %s", t->count, inner);
        break;
    case SPVBC__T_POINTER: {
        const spvbc__type *pt = spvbc__type_of_id(m, t->elem);
        if (pt && pt->kind != SPVBC__T_POINTER && pt->kind != SPVBC__T_OTHER)
            type_spelling(m, pt, inner, sizeof inner);
        else
            (void)snprintf(inner, sizeof inner, "%%%u", t->elem);
        (void)snprintf(buf, size, "OpTypePointer %s %s", storage_name(t->storage), inner);
        break;
    }
    case SPVBC__T_OTHER: (void)snprintf(buf, size, "non-numerical type %%%u", t->id); break;
    default: scalar_spelling(t->kind, t->width, t->is_signed, buf, size); break;
    }
}

static void refusal_text(const struct spvbc_module_s *m, const spvbc__site_info *info, char *buf,
                         size_t size)
{
    const char *t = "";
    switch (info->plan.refusal) {
    case SPVBC_REFUSE_SIZE: t = "the byte sizes differ, which as_type forbids too"; break;
    case SPVBC_REFUSE_BOOL_OR_VOID: t = "as_type excludes bool and void"; break;
    case SPVBC_REFUSE_MISSING_FEATURE: {
        char names[96];
        spvbc__feature_names(
            spvbc__missing_features(&info->src, &info->dst, spvbc__plan_features(m)), names,
            sizeof names);
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

static void friendly_type(const spvbc_type_desc *t, char *buf, size_t size)
{
    static const char *const ints[] = {"char", "short", "int", "long"};
    const char *base;
    char tmp[16];
    if (t->kind == SPVBC_SCALAR_FLOAT)
        base = t->width == 16 ? "half" : t->width == 32 ? "float" : "double";
    else {
        int i = t->width == 8 ? 0 : t->width == 16 ? 1 : t->width == 32 ? 2 : 3;
        (void)snprintf(tmp, sizeof tmp, "%s%s", t->is_signed ? "" : "u", ints[i]);
        base = tmp;
    }
    if (t->count == 1)
        (void)snprintf(buf, size, "%%%s", base);
    else
        (void)snprintf(buf, size, "%%v%u%s", t->count, base);
}
static void describe_op(char *buf, size_t size, size_t *len, bool spec, uint32_t id,
                        const spvbc_plan_op *op, uint32_t a, uint32_t b)
{
    char type[24];
    friendly_type(&op->result_type, type, sizeof type);
    int n;
    if (op->kind == SPVBC_PLAN_OP_BITCAST) {
        n = snprintf(buf + *len, size - *len, "%s%%%u = %s %s %%%u", *len ? "; " : "", id,
                     spec ? "OpSpecConstantOp Bitcast" : "OpBitcast", type, a);
    } else {
        n = snprintf(buf + *len, size - *len, "%s%%%u = %s %s %%%u %%%u", *len ? "; " : "", id,
                     spec ? "OpSpecConstantOp VectorShuffle" : "OpVectorShuffle", type, a, b);
        for (uint32_t i = 0; i < op->lane_count && n > 0 && *len + (size_t)n < size; ++i) {
            int k = snprintf(buf + *len + (size_t)n, size - *len - (size_t)n, " %u", op->lanes[i]);
            if (k > 0) n += k;
        }
    }
    if (n > 0) *len += (size_t)n;
    if (*len >= size) *len = size - 1;
}

/* The reason sentence of a record (validate's findings, lower's skipped and kept sites). */
static void reason_text(const struct spvbc_module_s *m, const spvbc__record *r,
                        const spvbc__site_info *info, char *buf, size_t size)
{
    const char *t = "";
    switch (r->msg) {
    case SPVBC__MSG_VRULE: t = spvbc__vrule_text(info->vrule); break;
    case SPVBC__MSG_S7:
        t = "specialization constant operation Bitcast requires the Kernel capability";
        break;
    case SPVBC__MSG_S2:
        t = "operand already has the result type: the bitcast is no instruction at all (use "
            "the operand)";
        break;
    case SPVBC__MSG_S4: t = "pointers to different storage classes"; break;
    case SPVBC__MSG_S3_WIDTH:
        t = r->arg == 32 ? "integer width differs from the 32-bit pointer width of the "
                           "addressing model"
                         : "integer width differs from the 64-bit pointer width of the "
                           "addressing model";
        break;
    case SPVBC__MSG_LOGICAL_PTR:
        t = "bitcast of a logical pointer (not PhysicalStorageBuffer) in Logical or "
            "PhysicalStorageBuffer64 addressing: current SPIRV-Tools rejects it";
        break;
    case SPVBC__MSG_IMPL_DEFINED:
        t = "as_type with a different element count: OpenCL leaves the result "
            "implementation-defined; SPIR-V maps low-order bits to low-numbered components";
        break;
    case SPVBC__MSG_NOT_ASTYPE: t = "valid SPIR-V, but not a legal OpenCL C as_type"; break;
    case SPVBC__MSG_SKIPPED: t = "left alone: this as_type class is not selected"; break;
    case SPVBC__MSG_KEPT:
        switch ((spvbc__keep_reason)r->arg) {
        case SPVBC__KEEP_SPEC_NEEDS_KERNEL:
            t = "not lowered: specialization constant operation Bitcast requires the Kernel "
                "capability";
            break;
        case SPVBC__KEEP_REFS_ABOVE_BOUND:
            t = "not lowered: the module names ids at or above its bound, which the new ids "
                "would alias (the module is invalid: fix it first)";
            break;
        case SPVBC__KEEP_NOT_SIZE: t = spvbc__vrule_text(info->vrule); break;
        case SPVBC__KEEP_OPERAND_LATER:
            t = "not lowered: its operand is defined after it (invalid order: fix the module "
                "first)";
            break;
        case SPVBC__KEEP_NO_ASTYPE:
            t = "not lowered: total bit widths differ and no as_type maps them";
            break;
        case SPVBC__KEEP_PLAN_REFUSED: {
            char why[160];
            refusal_text(m, info, why, sizeof why);
            (void)snprintf(buf, size, "not lowered: %s", why);
            return;
        }
        case SPVBC__KEEP_VEC4_AFTER:
            t = "not lowered: the 4-component vector type the recipe needs is declared after "
                "this instruction";
            break;
        default:
            t = "not lowered: a Shader module cannot express the recipe as specialization "
                "constants";
            break;
        }
        break;
    default: break;
    }
    (void)snprintf(buf, size, "%s", t);
}

/* Appends the recipe of the rewrite whose replacement words start at `first` of the module's
 * edit words ("%5 = OpBitcast %v4uint %4; %2 = OpVectorShuffle ..."). */
static void recipe_text(const struct spvbc_module_s *m, const spvbc__site_info *info, size_t first,
                        char *buf, size_t size, size_t *len)
{
    const spvbc_plan *p = &info->plan;
    const size_t head = info->spec ? 4 : 3;
    char recipe[512];
    size_t rlen = 0;
    recipe[0] = '\0';
    size_t at = first;
    for (uint32_t i = 0; i < p->op_count; ++i) {
        if (at >= m->edit_word_count) break;
        const uint32_t *w = m->edit_words + at;
        const size_t wc = w[0] >> 16;
        if (wc < head + 1 || at + wc > m->edit_word_count) break;
        const uint32_t b = wc > head + 1 ? w[head + 1] : w[head];
        describe_op(recipe, sizeof recipe, &rlen, info->spec, w[2], &p->ops[i], w[head], b);
        at += wc;
    }
    append(buf, size, len, "%s", recipe);
}

/* Appends the as_type part of a sentence: "; as_type: as_float3(float4) is 4->3, defined by
 * OpenCL C". */
static void astype_text(const struct spvbc_module_s *m, const spvbc__site_info *info,
                        const char *astype, char *msg, size_t size, size_t *len)
{
    const spvbc_plan *p = &info->plan;
    append(msg, size, len, "; as_type: %s is %s", astype, spvbc_astype_class_string(p->cls));
    char why[192];
    refusal_text(m, info, why, sizeof why);
    if (p->refusal != SPVBC_REFUSE_NONE && p->cls != SPVBC_ASTYPE_SIZE_ERROR &&
        p->cls != SPVBC_ASTYPE_EXCLUDED)
        append(msg, size, len, " (%s)", why);
    else if (p->refusal != SPVBC_REFUSE_NONE)
        append(msg, size, len, ", not legal OpenCL C: %s", why);
    else if (p->defined_by_opencl)
        append(msg, size, len, ", defined by OpenCL C");
    else
        append(msg, size, len, ", implementation-defined in OpenCL C");
}

/* Makes diagnostic `d` from record `r` about a site of `m`.  False on allocation failure. */
static bool format_record(const struct spvbc_module_s *m, const spvbc__record *r,
                          spvbc_diagnostic *d)
{
    spvbc_context ctx = m->ctx;
    const spvbc__site *site = &m->sites[r->site];
    const bool lowerable = (r->flags & REC_LOWERABLE) != 0;
    spvbc__site_info info;
    spvbc__analyze_site(m, site, (spvbc_pad_policy)(r->flags >> REC_PAD_SHIFT),
                        (r->flags & REC_WANT_PLAN) != 0, &info);

    char rts[128], ots[128], cl_s[32] = "", cl_d[32] = "";
    const char *astype = NULL;
    type_spelling(m, info.rtype, rts, sizeof rts);
    if (info.otype)
        type_spelling(m, info.otype, ots, sizeof ots);
    else
        (void)snprintf(ots, sizeof ots, "%s",
                       info.vrule == SPVBC__V0 ? "(a type, not a value)" : "(no type)");
    const uint32_t rbits = spvbc__type_bits(info.rtype), obits = spvbc__type_bits(info.otype);
    if (info.has_astype && spvbc__opencl_name(&info.src, m->is_kernel, cl_s, sizeof cl_s) &&
        spvbc__opencl_name(&info.dst, m->is_kernel, cl_d, sizeof cl_d)) {
        astype = spvbc__sprintf(ctx, "as_%s(%s)", cl_d, cl_s);
        if (!astype) return false;
    }

    char msg[1024];
    size_t len = 0;
    if (r->msg == SPVBC__MSG_LOWERED) {
        /* The rewrite's report says it all; only the as_type spelling is added. */
        append(msg, sizeof msg, &len, "lowered %s (%s) into: ", astype ? astype : "bitcast",
               spvbc_astype_class_string(info.plan.cls));
        recipe_text(m, &info, r->arg, msg, sizeof msg, &len);
    } else {
        char text[256];
        reason_text(m, r, &info, text, sizeof text);
        append(msg, sizeof msg, &len, "%s: %s%%%u = %s %%%u: result %s", text,
               info.spec ? "OpSpecConstantOp " : "", info.result_id,
               info.spec ? "Bitcast" : "OpBitcast", info.operand_id, rts);
        if (rbits) append(msg, sizeof msg, &len, " (%u bits)", rbits);
        append(msg, sizeof msg, &len, ", operand %s", ots);
        if (obits) append(msg, sizeof msg, &len, " (%u bits)", obits);
        if (astype) astype_text(m, &info, astype, msg, sizeof msg, &len);
        const spvbc_severity sev = (spvbc_severity)r->severity;
        if (sev == SPVBC_SEVERITY_ERROR || (sev == SPVBC_SEVERITY_WARNING && lowerable))
            append(msg, sizeof msg, &len, lowerable ? "; lowerable%s%s" : "; not lowerable%s%s",
                   astype ? ": " : "", astype ? astype : "");
    }

    memset(d, 0, sizeof *d);
    d->severity = (spvbc_severity)r->severity;
    d->rule = r->rule;
    d->message = spvbc__strndup(ctx, msg, len);
    d->word_offset = site->offset;
    d->instruction_index = site->index;
    d->opcode = info.opcode;
    d->result_id = info.result_id;
    d->operand_type = spvbc__strndup(ctx, ots, strlen(ots));
    d->result_type = spvbc__strndup(ctx, rts, strlen(rts));
    d->operand_bits = obits;
    d->result_bits = rbits;
    d->astype = astype;
    d->lowerable = lowerable;
    return d->message && d->operand_type && d->result_type;
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
    size_t pending; /* index into the view */
    uint32_t kind;
} want;

enum { WANT_NAME, WANT_FILE, WANT_DEBUG_SOURCE, WANT_LINE_CONST, WANT_COLUMN_CONST };

static int want_cmp(const void *a, const void *b)
{
    const want *x = (const want *)a, *y = (const want *)b;
    return x->id < y->id ? -1 : x->id > y->id;
}

typedef struct resolver {
    const struct spvbc_module_s *m;
    spvbc_diagnostic *view;
    want *wants;
    size_t count, cap;
    uint32_t *debug_file; /* per view entry: the File string id of its DebugSource */
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
        spvbc_diagnostic *d = &r->view[hit->pending];
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

/* Fills the result names and source positions of the `count` diagnostics at `view` made from
 * the records `recs` (one pass over the module's preamble, a second for DebugSource files). */
static bool resolve_names(const struct spvbc_module_s *m, const spvbc__record *recs,
                          spvbc_diagnostic *view, size_t count)
{
    spvbc_context ctx = m->ctx;
    resolver r;
    memset(&r, 0, sizeof r);
    r.m = m;
    r.view = view;
    r.ok = true;
    size_t fbytes = count * sizeof *r.debug_file;
    if (count) {
        r.debug_file = (uint32_t *)spvbc__alloc(ctx, fbytes);
        r.ok = r.debug_file != NULL;
        if (r.ok) memset(r.debug_file, 0, fbytes);
    }
    for (size_t i = 0; i < count && r.ok; ++i) {
        if (recs[i].msg == SPVBC__MSG_FIXED) continue;
        spvbc_diagnostic *d = &view[i];
        if (d->result_id) want_add(&r, d->result_id, i, WANT_NAME);
        const uint32_t lo = m->sites[recs[i].site].line_offset;
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
    for (size_t i = 0; i < count && r.ok; ++i)
        if (r.debug_file[i]) want_add(&r, r.debug_file[i], i, WANT_FILE);
    scan_preamble(&r);
    spvbc__free(ctx, r.debug_file, fbytes);
    spvbc__free(ctx, r.wants, r.cap * sizeof *r.wants);
    return r.ok;
}

/* ---- reading ------------------------------------------------------------------------------- */

/* Shown in place of a diagnostic the library had no memory left to make. */
static const spvbc_diagnostic oom_diagnostic = {SPVBC_SEVERITY_ERROR,
                                                "R-MEMORY",
                                                "out of memory while making this diagnostic",
                                                SPVBC_NO_POSITION,
                                                SPVBC_NO_POSITION,
                                                0,
                                                0,
                                                NULL,
                                                NULL,
                                                0,
                                                0,
                                                NULL,
                                                NULL,
                                                0,
                                                0,
                                                NULL,
                                                0};

/* Makes every kept diagnostic of the context from its record, once; all or nothing, so a read
 * that ran out of memory is tried again by the next read. */
static bool make_view(spvbc_context ctx)
{
    spvbc__diag_store *st = spvbc__context_diags(ctx);
    if (st->view_ready) return true;
    if (!spvbc__grow(ctx, (void **)&st->view, &st->view_cap, sizeof *st->view, st->count))
        return false;
    const struct spvbc_module_s *m = st->module;
    for (size_t i = 0; i < st->count; ++i) {
        const spvbc__record *r = &st->recs[i];
        if (r->msg == SPVBC__MSG_FIXED)
            st->view[i] = st->fixed[r->arg];
        else if (!m || !format_record(m, r, &st->view[i]))
            return false;
    }
    if (m && !resolve_names(m, st->recs, st->view, st->count)) return false;
    st->view_ready = true;
    return true;
}

void spvbc__report_detach(struct spvbc_module_s *m)
{
    spvbc__diag_store *st = spvbc__context_diags(m->ctx);
    if (st->module != m) return;
    /* Without memory now, the findings of a module that is gone read as out of memory. */
    (void)make_view(m->ctx);
    st->module = NULL;
}

size_t spvbc_context_diagnostic_count(spvbc_context context)
{
    return context ? spvbc__context_diags(context)->count : 0;
}

const spvbc_diagnostic *spvbc_context_diagnostic(spvbc_context context, size_t index)
{
    if (!context) return NULL;
    spvbc__diag_store *st = spvbc__context_diags(context);
    if (index >= st->count) return NULL;
    /* With no memory for the diagnostics themselves, each reads as the out-of-memory one. */
    return make_view(context) ? &st->view[index] : &oom_diagnostic;
}
