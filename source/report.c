/* Report: findings are recorded as compact records while the passes run; the diagnostics -
 * sentence, type spellings, as_type spelling, OpName and source line - are made from them when
 * somebody first reads one (or before their module is destroyed), in one batch: one analysis
 * per kept finding, then the module's preamble for names and lines; each is made once. */
#include <stdlib.h>
#include <string.h>

#include "context.h"
#include "report.h"

/* ---- recording ----------------------------------------------------------------------------- */

#define REC_LOWERABLE 0x1u
#define REC_PAD_SHIFT 1u

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
        (uint8_t)((args->lowerable ? REC_LOWERABLE : 0u) | ((uint32_t)args->pad << REC_PAD_SHIFT));
    return spvbc__record_add(m->ctx, m, &r);
}

bool spvbc__report_finish(spvbc_context ctx)
{
    const spvbc__diag_store *st = spvbc__context_diags(ctx);
    if (!st->not_kept) return true;
    const bool none = st->policy == SPVBC_DIAGNOSTICS_COUNT_ONLY || st->limit == 0;
    return spvbc__diag_simple(ctx, SPVBC_SEVERITY_NOTE, "R-NOT-KEPT", SPVBC_NO_POSITION,
                              SPVBC_NO_POSITION, 0,
                              none ? "%zu findings not kept (diagnostic policy: count only)%.0zu"
                                   : "%zu more findings not kept (diagnostic policy: keep the "
                                     "first %zu)",
                              /* "%.0zu" of 0 prints nothing */
                              st->not_kept, none ? (size_t)0 : st->limit) != NULL;
}

/* ---- sentences ----------------------------------------------------------------------------- */

/* A bounded text buffer: appends truncate, and formatting is plain copies and decimal digits
 * (vsnprintf was most of a diagnostic's cost). */
typedef struct sbuf {
    char *p;
    size_t size, len; /* len < size always: p[len] is the NUL */
} sbuf;

static sbuf sbuf_on(char *p, size_t size)
{
    sbuf b = {p, size, 0};
    p[0] = '\0';
    return b;
}

static void put(sbuf *b, const char *s)
{
    size_t n = strlen(s);
    if (n > b->size - 1 - b->len) n = b->size - 1 - b->len;
    memcpy(b->p + b->len, s, n);
    b->len += n;
    b->p[b->len] = '\0';
}

static void put_u(sbuf *b, uint32_t v)
{
    char d[11];
    size_t n = 0;
    do {
        d[n++] = (char)('0' + v % 10u);
        v /= 10u;
    } while (v);
    while (n && b->len + 1 < b->size)
        b->p[b->len++] = d[--n];
    b->p[b->len] = '\0';
}

/* Appends "%<id>". */
static void put_id(sbuf *b, uint32_t id)
{
    put(b, "%");
    put_u(b, id);
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

static void scalar_spelling(sbuf *b, uint32_t kind, uint32_t width, uint32_t sign)
{
    if (kind == SPVBC__T_INT) {
        put(b, "OpTypeInt ");
        put_u(b, width);
        put(b, sign ? " 1" : " 0");
    } else if (kind == SPVBC__T_FLOAT) {
        put(b, "OpTypeFloat ");
        put_u(b, width);
    } else {
        put(b, kind == SPVBC__T_BOOL   ? "OpTypeBool"
               : kind == SPVBC__T_VOID ? "OpTypeVoid"
                                       : "a non-numerical type");
    }
}

/* Appends the SPIR-V spelling of type `t` ("OpTypeVector 4 x OpTypeFloat 32"); a pointer names
 * its pointee when that is a scalar or vector. */
static void type_spelling(sbuf *b, const struct spvbc_module_s *m, const spvbc__type *t)
{
    if (!t) {
        put(b, "(not a type)");
        return;
    }
    switch (t->kind) {
    case SPVBC__T_VECTOR:
        put(b, "OpTypeVector ");
        put_u(b, t->count);
        put(b, " x ");
        scalar_spelling(b, t->comp_kind, t->width, t->is_signed);
        break;
    case SPVBC__T_POINTER: {
        if (t->untyped) {
            put(b, "OpTypeUntypedPointerKHR ");
            put(b, storage_name(t->storage));
            break;
        }
        put(b, "OpTypePointer ");
        put(b, storage_name(t->storage));
        put(b, " ");
        const spvbc__type *pt = spvbc__type_of_id(m, t->elem);
        if (pt && pt->kind != SPVBC__T_POINTER && pt->kind != SPVBC__T_OTHER)
            type_spelling(b, m, pt);
        else
            put_id(b, t->elem);
        break;
    }
    case SPVBC__T_OTHER:
        put(b, "non-numerical type ");
        put_id(b, t->id);
        break;
    case SPVBC__T_COOPMAT_KHR:
    case SPVBC__T_COOPMAT_NV:
    case SPVBC__T_COOPVEC_NV:
        put(b, t->kind == SPVBC__T_COOPMAT_KHR  ? "OpTypeCooperativeMatrixKHR of "
               : t->kind == SPVBC__T_COOPMAT_NV ? "OpTypeCooperativeMatrixNV of "
                                                : "OpTypeCooperativeVectorNV of ");
        scalar_spelling(b, t->comp_kind, t->width, t->is_signed);
        break;
    default: scalar_spelling(b, t->kind, t->width, t->is_signed); break;
    }
}

/* Appends why as_type refuses the pair of `info`, naming missing capabilities. */
static void refusal_text(sbuf *b, const struct spvbc_module_s *m, const spvbc__site_info *info)
{
    switch (info->plan.refusal) {
    case SPVBC_REFUSE_SIZE: put(b, "the byte sizes differ, which as_type forbids too"); break;
    case SPVBC_REFUSE_BOOL_OR_VOID: put(b, "as_type excludes bool and void"); break;
    case SPVBC_REFUSE_MISSING_FEATURE: {
        char names[96];
        spvbc__feature_names(
            spvbc__missing_features(&info->src, &info->dst, spvbc__plan_features(m)), names,
            sizeof names);
        put(b, "the module lacks the capability ");
        put(b, names);
        if (m->is_shader)
            put(b, " (without it these types are storage-only: no OpBitcast or "
                   "OpVectorShuffle)");
        break;
    }
    case SPVBC_REFUSE_PAD_POLICY:
        put(b, "the padding policy 'error' refuses 3-component sources");
        break;
    case SPVBC_REFUSE_BAD_TYPE: put(b, "a side is not an OpenCL C scalar or vector type"); break;
    default: break;
    }
}

/* Appends the spirv-dis friendly name of a plan type ("%v4float", "%v3uint"): unsigned and
 * signless integers are "u" types, as spirv-dis spells them. */
static void friendly_type(sbuf *b, const spvbc_type_desc *t)
{
    static const char *const ints[] = {"char", "short", "int", "long"};
    put(b, "%");
    if (t->count != 1) {
        put(b, "v");
        put_u(b, t->count);
    }
    if (t->kind == SPVBC_SCALAR_FLOAT) {
        put(b, t->width == 16 ? "half" : t->width == 32 ? "float" : "double");
    } else {
        if (!t->is_signed) put(b, "u");
        put(b, ints[t->width == 8 ? 0 : t->width == 16 ? 1 : t->width == 32 ? 2 : 3]);
    }
}

/* Appends "%id = OpVectorShuffle %v3float %a %b 0 1 2" (or the bitcast), after "; " unless it
 * is the first op. */
static void describe_op(sbuf *b, bool first, bool spec, uint32_t id, const spvbc_plan_op *op,
                        uint32_t a, uint32_t second)
{
    if (!first) put(b, "; ");
    put_id(b, id);
    const bool bitcast = op->kind == SPVBC_PLAN_OP_BITCAST;
    put(b, bitcast ? (spec ? " = OpSpecConstantOp Bitcast " : " = OpBitcast ")
                   : (spec ? " = OpSpecConstantOp VectorShuffle " : " = OpVectorShuffle "));
    friendly_type(b, &op->result_type);
    put(b, " ");
    put_id(b, a);
    if (bitcast) return;
    put(b, " ");
    put_id(b, second);
    for (uint32_t i = 0; i < op->lane_count; ++i) {
        put(b, " ");
        put_u(b, op->lanes[i]);
    }
}

#ifdef SPVBC_SPIRV_HEADERS_VERSION
#define SPVBC__HEADERS SPVBC_SPIRV_HEADERS_VERSION
#else
#define SPVBC__HEADERS "of unknown version"
#endif

/* The fixed sentences, by SPVBC__MSG_* (NULL: made from the site or the argument). */
static const char *const msg_text[] = {
    [SPVBC__MSG_S7] = "specialization constant operation Bitcast requires the Kernel capability",
    [SPVBC__MSG_S2] = "operand already has the result type: the bitcast is no instruction at all "
                      "(use the operand)",
    [SPVBC__MSG_S4] = "pointers to different storage classes",
    [SPVBC__MSG_LOGICAL_PTR] = "bitcast of a logical pointer (not PhysicalStorageBuffer) in "
                               "Logical or PhysicalStorageBuffer64 addressing: current "
                               "SPIRV-Tools rejects it",
    [SPVBC__MSG_IMPL_DEFINED] = "as_type with a different element count: OpenCL leaves the "
                                "result implementation-defined; SPIR-V maps low-order bits to "
                                "low-numbered components",
    [SPVBC__MSG_NOT_ASTYPE] = "valid SPIR-V, but not a legal OpenCL C as_type",
    [SPVBC__MSG_SKIPPED] = "left alone: this as_type class is not selected",
};

/* Why lower left a site alone, by spvbc__keep_reason (NULL: made from the site). */
static const char *const keep_text[] = {
    [SPVBC__KEEP_SPEC_NEEDS_KERNEL] = "not lowered: specialization constant operation Bitcast "
                                      "requires the Kernel capability",
    [SPVBC__KEEP_REFS_ABOVE_BOUND] = "not lowered: the module names ids at or above its bound, "
                                     "which the new ids would alias (the module is invalid: fix "
                                     "it first)",
    [SPVBC__KEEP_OPERAND_LATER] = "not lowered: its operand is defined after it (invalid order: "
                                  "fix the module first)",
    [SPVBC__KEEP_NO_ASTYPE] = "not lowered: total bit widths differ and no as_type maps them",
    [SPVBC__KEEP_VEC4_AFTER] = "not lowered: the 4-component vector type the recipe needs is "
                               "declared after this instruction",
    [SPVBC__KEEP_SHADER_SPEC] = "not lowered: a Shader module cannot express the recipe as "
                                "specialization constants",
};

/* The reason sentence of a record (validate's findings, lower's skipped and kept sites). */
static void reason_text(sbuf *b, const struct spvbc_module_s *m, const spvbc__record *r,
                        const spvbc__site_info *info)
{
    if (r->msg == SPVBC__MSG_VRULE ||
        (r->msg == SPVBC__MSG_KEPT && r->arg == SPVBC__KEEP_NOT_SIZE)) {
        put(b, spvbc__vrule_text(info->vrule));
    } else if (r->msg == SPVBC__MSG_S3_WIDTH) {
        put(b, "integer width differs from the ");
        put_u(b, (uint32_t)r->arg);
        put(b, "-bit pointer width of the addressing model");
    } else if (r->msg == SPVBC__MSG_FOREIGN) {
        put(b, "no verdict: a side depends on the result of opcode ");
        put_u(b, (uint32_t)r->arg);
        put(b, ", which this build does not know (its opcode facts come from "
               "SPIRV-Headers " SPVBC__HEADERS "); the rest of the module is judged as usual");
    } else if (r->msg == SPVBC__MSG_KEPT && r->arg == SPVBC__KEEP_PLAN_REFUSED) {
        put(b, "not lowered: ");
        refusal_text(b, m, info);
    } else if (r->msg == SPVBC__MSG_KEPT) {
        if (r->arg < sizeof keep_text / sizeof keep_text[0] && keep_text[r->arg])
            put(b, keep_text[r->arg]);
    } else if (r->msg < sizeof msg_text / sizeof msg_text[0] && msg_text[r->msg]) {
        put(b, msg_text[r->msg]);
    }
}

/* Appends the recipe of the rewrite whose replacement words start at `first` of the module's
 * edit words ("%5 = OpBitcast %v4uint %4; %2 = OpVectorShuffle ..."). */
static void recipe_text(sbuf *b, const struct spvbc_module_s *m, const spvbc__site_info *info,
                        size_t first)
{
    const spvbc_plan *p = &info->plan;
    const size_t head = info->spec ? 4 : 3;
    size_t at = first;
    for (uint32_t i = 0; i < p->op_count; ++i) {
        if (at >= m->edit_word_count) return;
        const uint32_t *w = m->edit_words + at;
        const size_t wc = w[0] >> 16;
        if (wc < head + 1 || at + wc > m->edit_word_count) return;
        const uint32_t second = wc > head + 1 ? w[head + 1] : w[head];
        describe_op(b, i == 0, info->spec, w[2], &p->ops[i], w[head], second);
        at += wc;
    }
}

/* Appends the as_type part of a sentence: "; as_type: as_float3(float4) is 4->3, defined by
 * OpenCL C". */
static void astype_text(sbuf *b, const struct spvbc_module_s *m, const spvbc__site_info *info,
                        const char *astype)
{
    const spvbc_plan *p = &info->plan;
    put(b, "; as_type: ");
    put(b, astype);
    put(b, " is ");
    put(b, spvbc_astype_class_string(p->cls));
    if (p->refusal != SPVBC_REFUSE_NONE) {
        const bool illegal = p->cls == SPVBC_ASTYPE_SIZE_ERROR || p->cls == SPVBC_ASTYPE_EXCLUDED;
        put(b, illegal ? ", not legal OpenCL C: " : " (");
        refusal_text(b, m, info);
        if (!illegal) put(b, ")");
    } else {
        put(b, p->defined_by_opencl ? ", defined by OpenCL C"
                                    : ", implementation-defined in OpenCL C");
    }
}

/* Appends `label`, a type's spelling and its bits when it has a width ("(128 bits)"). */
static void put_side(sbuf *b, const char *label, const char *spelling, uint32_t bits)
{
    put(b, label);
    put(b, spelling);
    if (!bits) return;
    put(b, " (");
    put_u(b, bits);
    put(b, " bits)");
}

/* Copies the text of `b` into the arena. */
static const char *keep(spvbc_context ctx, const sbuf *b)
{
    return spvbc__strndup(ctx, b->p, b->len);
}

/* Makes diagnostic `d` from record `r` about a site of `m`.  False on allocation failure. */
static bool format_record(const struct spvbc_module_s *m, const spvbc__record *r,
                          spvbc_diagnostic *d)
{
    spvbc_context ctx = m->ctx;
    const spvbc__site *site = &m->sites[r->site];
    const bool lowerable = (r->flags & REC_LOWERABLE) != 0;
    spvbc__site_info info;
    /* Always with the plan: the class, definedness and refusal a sentence gives must not depend
     * on the options (--notes) the site was first analysed under. */
    spvbc__analyze_site(m, site, (spvbc_pad_policy)(r->flags >> REC_PAD_SHIFT), true, &info);

    char rbuf[128], obuf[128], abuf[80], mbuf[1024];
    sbuf rts = sbuf_on(rbuf, sizeof rbuf), ots = sbuf_on(obuf, sizeof obuf);
    sbuf as = sbuf_on(abuf, sizeof abuf), msg = sbuf_on(mbuf, sizeof mbuf);
    type_spelling(&rts, m, info.rtype);
    if (info.otype)
        type_spelling(&ots, m, info.otype);
    else
        put(&ots, info.vrule == SPVBC__V0 ? "(a type, not a value)" : "(no type)");
    const uint32_t rbits = spvbc__type_bits(info.rtype), obits = spvbc__type_bits(info.otype);
    const char *astype = NULL;
    char cl_s[32], cl_d[32];
    if (info.has_astype && spvbc__opencl_name(&info.src, m->is_kernel, cl_s, sizeof cl_s) &&
        spvbc__opencl_name(&info.dst, m->is_kernel, cl_d, sizeof cl_d)) {
        put(&as, "as_");
        put(&as, cl_d);
        put(&as, "(");
        put(&as, cl_s);
        put(&as, ")");
        if (!(astype = keep(ctx, &as))) return false;
    }

    if (r->msg == SPVBC__MSG_LOWERED) {
        /* The rewrite's report says it all; only the as_type spelling is added. */
        put(&msg, "lowered ");
        put(&msg, astype ? astype : "bitcast");
        put(&msg, " (");
        put(&msg, spvbc_astype_class_string(info.plan.cls));
        put(&msg, ") into: ");
        recipe_text(&msg, m, &info, r->arg);
    } else {
        reason_text(&msg, m, r, &info);
        put(&msg, info.spec ? ": OpSpecConstantOp " : ": ");
        put_id(&msg, info.result_id);
        put(&msg, info.spec ? " = Bitcast " : " = OpBitcast ");
        put_id(&msg, info.operand_id);
        put_side(&msg, ": result ", rts.p, rbits);
        put_side(&msg, ", operand ", ots.p, obits);
        if (astype) astype_text(&msg, m, &info, astype);
        const spvbc_severity sev = (spvbc_severity)r->severity;
        if (sev == SPVBC_SEVERITY_ERROR || (sev == SPVBC_SEVERITY_WARNING && lowerable)) {
            put(&msg, lowerable ? "; lowerable" : "; not lowerable");
            if (astype) {
                put(&msg, ": ");
                put(&msg, astype);
            }
        }
    }

    memset(d, 0, sizeof *d);
    d->severity = (spvbc_severity)r->severity;
    d->rule = r->rule;
    d->message = keep(ctx, &msg);
    d->word_offset = site->offset;
    d->instruction_index = site->index;
    d->opcode = info.opcode;
    d->result_id = info.result_id;
    d->operand_type = keep(ctx, &ots);
    d->result_type = keep(ctx, &rts);
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

/* The bit of `id` in a filter of 2^(32 - `shift`) bits. */
static uint32_t filter_bit(uint32_t id, uint32_t shift)
{
    return (id * 2654435761u) >> shift;
}

/* One pass over the preamble (everything before the first function) for the current wants.  A
 * bit filter over the wanted ids, at least 16 bits per want (1,024 at the least: a filter made,
 * cleared and freed for each module destroyed is cheap only when small), rejects the names and
 * constants nobody wants (most of them) before the binary search. */
static void scan_preamble(resolver *r)
{
    if (!r->ok || r->count == 0) return;
    bool sorted = true; /* the sites come in module order, their ids mostly ascending */
    for (size_t i = 1; i < r->count && sorted; ++i)
        sorted = r->wants[i - 1].id <= r->wants[i].id;
    if (!sorted) qsort(r->wants, r->count, sizeof *r->wants, want_cmp);
    uint32_t shift = 22; /* 2^(32 - shift) bits */
    while (shift > 6 && ((size_t)1 << (32 - shift)) < r->count * 16u)
        --shift;
    const size_t words = ((size_t)1 << (32 - shift)) / 64u;
    spvbc_context ctx = r->m->ctx;
    uint64_t *filter = (uint64_t *)spvbc__alloc(ctx, words * sizeof *filter);
    if (!filter) {
        r->ok = false;
        return;
    }
    memset(filter, 0, words * sizeof *filter);
    for (size_t i = 0; i < r->count; ++i) {
        const uint32_t bit = filter_bit(r->wants[i].id, shift);
        filter[bit / 64u] |= (uint64_t)1 << (bit % 64u);
    }
    const struct spvbc_module_s *m = r->m;
    for (size_t off = 5; off < m->functions_offset && r->ok;) {
        const uint32_t *w = m->words + off;
        const uint32_t wc = w[0] >> 16, op = w[0] & 0xffffu;
        uint32_t id = 0;
        if ((op == SpvOpName || op == SpvOpString) && wc >= 3)
            id = w[1];
        else if ((op == SpvOpExtInst || op == SpvOpConstant) && wc >= 4)
            id = w[2];
        const uint32_t bit = filter_bit(id, shift);
        if (id && (filter[bit / 64u] >> (bit % 64u) & 1u)) satisfy(r, w, wc, op, id);
        off += wc;
    }
    spvbc__free(ctx, filter, words * sizeof *filter);
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
static const spvbc_diagnostic oom_diagnostic = {
    .severity = SPVBC_SEVERITY_ERROR,
    .rule = "R-MEMORY",
    .message = "out of memory while making this diagnostic",
    .word_offset = SPVBC_NO_POSITION,
    .instruction_index = SPVBC_NO_POSITION,
};

/* Makes the diagnostics of the records not made yet (all of them on the first read; later
 * only those added since, such as a limit error), once each.  On allocation failure the made
 * ones stay and the rest are tried again by the next read. */
static bool make_view(spvbc_context ctx)
{
    spvbc__diag_store *st = spvbc__context_diags(ctx);
    if (st->made == st->count) return true;
    if (!spvbc__grow(ctx, (void **)&st->view, &st->view_cap, sizeof *st->view, st->count))
        return false;
    const struct spvbc_module_s *m = st->module;
    const size_t first = st->made;
    for (size_t i = first; i < st->count; ++i) {
        const spvbc__record *r = &st->recs[i];
        if (r->msg == SPVBC__MSG_FIXED)
            st->view[i] = st->fixed[r->arg];
        else if (!m || !format_record(m, r, &st->view[i]))
            return false;
    }
    if (m && !resolve_names(m, st->recs + first, st->view + first, st->count - first)) return false;
    st->made = st->count;
    return true;
}

bool spvbc__report_make(spvbc_context ctx)
{
    return make_view(ctx);
}

void spvbc__report_detach(struct spvbc_module_s *m)
{
    spvbc__diag_store *st = spvbc__context_diags(m->ctx);
    /* The calls made every diagnostic before returning, so nothing here reads the words or
     * allocates; records a call could not make (it returned OUT_OF_MEMORY) read as R-MEMORY
     * once their module is gone. */
    if (st->module == m) st->module = NULL;
}

size_t spvbc_context_diagnostic_count(spvbc_context context)
{
    if (!context) return 0;
    const spvbc__diag_store *st = spvbc__context_diags(context);
    return st->count + (st->oom ? 1u : 0u);
}

const spvbc_diagnostic *spvbc_context_diagnostic(spvbc_context context, size_t index)
{
    if (!context) return NULL;
    spvbc__diag_store *st = spvbc__context_diags(context);
    if (index == st->count && st->oom) return &spvbc__oom_diagnostic;
    if (index >= st->count) return NULL;
    /* Parse and limit errors were made when they were added: they need nothing more. */
    const spvbc__record *r = &st->recs[index];
    if (r->msg == SPVBC__MSG_FIXED) return &st->fixed[r->arg];
    /* With no memory for the diagnostics themselves, each reads as the out-of-memory one. */
    return make_view(context) ? &st->view[index] : &oom_diagnostic;
}
