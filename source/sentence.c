/* Sentence: the text of a diagnostic - the sentence of its record, the SPIR-V spelling of its
 * types and the as_type spelling - made in the caller's buffers from one analysis of its site.
 * No allocation: the report copies the texts into the arena. */
#include <string.h>

#include "context.h"
#include "decimal.h"
#include "sentence.h"

/* A bounded text buffer: appends truncate, and formatting is plain copies and decimal digits
 * (vsnprintf was most of a diagnostic's cost). */
typedef struct sbuf {
    char *p;
    size_t size, len; /* len < size always: p[len] is the NUL */
    spvbc__sentence *ids; /* where put_id() records its spans, or NULL */
} sbuf;

static sbuf sbuf_on(char *p, size_t size)
{
    sbuf b = {p, size, 0, NULL};
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
    char d[SPVBC__DECIMAL_MAX];
    size_t n = spvbc__decimal(d, v);
    if (n > b->size - 1 - b->len) n = b->size - 1 - b->len;
    memcpy(b->p + b->len, d, n);
    b->len += n;
    b->p[b->len] = '\0';
}

/* Appends "%<id>", recording where it went when `b` records ids. */
static void put_id(sbuf *b, uint32_t id)
{
    const size_t at = b->len;
    put(b, "%");
    put_u(b, id);
    spvbc__sentence *s = b->ids;
    if (!s || s->id_count > SPVBC__SENTENCE_IDS) return;
    if (s->id_count == SPVBC__SENTENCE_IDS) {
        s->id_count = SPVBC__SENTENCE_IDS + 1; /* too many to reuse */
        return;
    }
    s->id_at[s->id_count][0] = (uint16_t)at;
    s->id_at[s->id_count][1] = (uint16_t)b->len;
    s->id_count++;
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

/* Appends the name of OpTypeFloat's Floating Point Encoding `e` (SPIRV-Headers 1.4.363's
 * FPEncoding, by number so that older headers build it too), or "encoding <e>". */
static void encoding_name(sbuf *b, uint32_t e)
{
    static const struct {
        uint32_t value;
        const char *name;
    } names[] = {{0, "BFloat16KHR"},
                 {4214, "Float8E4M3EXT"},
                 {4215, "Float8E5M2EXT"},
                 {4223, "Float6E2M3EXT"},
                 {4224, "Float6E3M2EXT"},
                 {4225, "Float4E2M1EXT"},
                 {4226, "Float8UnsignedE8M0EXT"},
                 {4227, "MXInt8EXT"}};
    for (size_t i = 0; i < sizeof names / sizeof names[0]; ++i) {
        if (names[i].value == e) {
            put(b, names[i].name);
            return;
        }
    }
    put(b, "encoding ");
    put_u(b, e);
}

/* Appends the spelling of the scalar kind `kind` of `t` (its own, or its components'). */
static void scalar_spelling(sbuf *b, uint32_t kind, const spvbc__type *t)
{
    if (kind == SPVBC__T_INT) {
        put(b, "OpTypeInt ");
        put_u(b, t->width);
        put(b, t->is_signed ? " 1" : " 0");
    } else if (kind == SPVBC__T_FLOAT) {
        put(b, "OpTypeFloat ");
        put_u(b, t->width);
        if (t->encoded) {
            put(b, " ");
            encoding_name(b, t->encoding);
        }
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
        scalar_spelling(b, t->comp_kind, t);
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
        scalar_spelling(b, t->comp_kind, t);
        break;
    default: scalar_spelling(b, t->kind, t); break;
    }
}

/* Appends why as_type refuses the pair of `info`, naming missing capabilities. */
static void refusal_text(sbuf *b, const struct spvbc_module_s *m, const spvbc__site_info *info)
{
    switch (info->plan.refusal) {
    case SPVBC_PLAN_REFUSAL_SIZE: put(b, "the byte sizes differ, which as_type forbids too"); break;
    case SPVBC_PLAN_REFUSAL_BOOL_OR_VOID: put(b, "as_type excludes bool and void"); break;
    case SPVBC_PLAN_REFUSAL_MISSING_FEATURE: {
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
    case SPVBC_PLAN_REFUSAL_PAD_POLICY:
        put(b, "the padding policy 'error' refuses 3-component sources");
        break;
    case SPVBC_PLAN_REFUSAL_BAD_TYPE:
        put(b, info->encoded ? "a side is a float of a non-IEEE encoding, which OpenCL C has no "
                               "type for: nothing to lower"
                             : "a side is not an OpenCL C scalar or vector type");
        break;
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
    [SPVBC__MSG_UNSIZED] = "no verdict: a side has no size yet (a cooperative vector whose "
                           "component count is a specialization constant, cast like a vector "
                           "under LongVectorEXT); the rest of the module is judged as usual",
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
    [SPVBC__KEEP_TYPE_AFTER] = "not lowered: a type the recipe builds on is declared after this "
                               "instruction (invalid order: fix the module first)",
};

/* The reason sentence of a record (validate's findings, lower's skipped and kept sites). */
static void reason_text(sbuf *b, const struct spvbc_module_s *m, const spvbc__record *r,
                        const spvbc__site_info *info)
{
    if (r->msg == SPVBC__MSG_VRULE ||
        (r->msg == SPVBC__MSG_KEPT && r->arg == SPVBC__KEEP_NOT_SIZE)) {
        put(b, spvbc__vrule_text(info->vrule));
    } else if (r->msg == SPVBC__MSG_SPEC_UNCHECKED) {
        put(b, spvbc__vrule_text(info->vrule));
        put(b, " (");
        put(b, spvbc__vrule_id(info->vrule));
        put(b, info->vrule == SPVBC__V12
                   ? "): the specification requires equal total widths of OpSpecConstantOp "
                     "Bitcast too"
                   : "): the specification's OpBitcast rules hold for OpSpecConstantOp Bitcast "
                     "too");
        put(b, "; SPIRV-Tools 2026.2 and later reject it, 2025.1 and older do not check it");
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

/* Fills `ids` with the ids each op of the recipe of the rewrite whose replacement words start at
 * `first` of the module's edit words names (result, operand, second operand), and returns how
 * many ops the edit words describe. */
static uint32_t recipe_ids(const struct spvbc_module_s *m, const spvbc__site_info *info,
                           size_t first, uint32_t ids[3][3])
{
    const spvbc_plan *p = &info->plan;
    const size_t head = info->spec ? 4 : 3;
    size_t at = first;
    uint32_t i = 0;
    for (; i < p->op_count && i < 3; ++i) {
        if (at >= m->edit_word_count) break;
        const uint32_t *w = m->edit_words + at;
        const size_t wc = w[0] >> 16;
        if (wc < head + 1 || at + wc > m->edit_word_count) break;
        ids[i][0] = w[2];
        ids[i][1] = w[head];
        ids[i][2] = wc > head + 1 ? w[head + 1] : w[head];
        at += wc;
    }
    return i;
}

/* Appends the recipe of the rewrite whose replacement words start at `first` of the module's
 * edit words ("%5 = OpBitcast %v4uint %4; %2 = OpVectorShuffle ..."). */
static void recipe_text(sbuf *b, const struct spvbc_module_s *m, const spvbc__site_info *info,
                        size_t first)
{
    uint32_t ids[3][3];
    const uint32_t n = recipe_ids(m, info, first, ids);
    for (uint32_t i = 0; i < n; ++i)
        describe_op(b, i == 0, info->spec, ids[i][0], &info->plan.ops[i], ids[i][1], ids[i][2]);
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
    if (p->refusal != SPVBC_PLAN_REFUSAL_NONE) {
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

/* Makes the texts of the diagnostic of record `r` about the site of `m` that `info` analysed:
 * its type spellings, its as_type spelling and its sentence. */
void spvbc__sentence_make(const struct spvbc_module_s *m, const spvbc__record *r, bool lowerable,
                          const spvbc__site_info *info, spvbc__sentence *s)
{
    sbuf rts = sbuf_on(s->result_type, sizeof s->result_type);
    sbuf ots = sbuf_on(s->operand_type, sizeof s->operand_type);
    sbuf as = sbuf_on(s->astype, sizeof s->astype), msg = sbuf_on(s->message, sizeof s->message);
    s->id_count = 0;
    msg.ids = s;
    type_spelling(&rts, m, info->rtype);
    if (info->otype)
        type_spelling(&ots, m, info->otype);
    else
        put(&ots, info->vrule == SPVBC__V0 ? "(a type, not a value)" : "(no type)");
    const uint32_t rbits = spvbc__type_bits(info->rtype), obits = spvbc__type_bits(info->otype);
    const char *astype = NULL;
    char cl_s[32], cl_d[32];
    const bool ns = info->has_astype && !info->otype->encoded &&
                    spvbc__opencl_name(&info->src, m->is_kernel, cl_s, sizeof cl_s);
    const bool nd = info->has_astype && !info->rtype->encoded &&
                    spvbc__opencl_name(&info->dst, m->is_kernel, cl_d, sizeof cl_d);
    /* A side of a type newer than OpenCL C (a non-IEEE float encoding, a long vector) says it
     * has no name there. */
    if ((ns && nd) || (info->has_astype && (info->encoded || m->long_vector))) {
        put(&as, "as_");
        put(&as, nd ? cl_d : "<no OpenCL C type>");
        put(&as, "(");
        put(&as, ns ? cl_s : "<no OpenCL C type>");
        put(&as, ")");
        astype = as.p;
    }

    if (r->msg == SPVBC__MSG_LOWERED) {
        /* The rewrite's report says it all; only the as_type spelling is added. */
        put(&msg, "lowered ");
        put(&msg, astype ? astype : "bitcast");
        put(&msg, " (");
        put(&msg, spvbc_astype_class_string(info->plan.cls));
        put(&msg, ") into: ");
        recipe_text(&msg, m, info, r->arg);
    } else {
        reason_text(&msg, m, r, info);
        put(&msg, info->spec ? ": OpSpecConstantOp " : ": ");
        put_id(&msg, info->result_id);
        put(&msg, info->spec      ? " = Bitcast "
                  : info->extract ? " = OpBitcastExtractEXT "
                                  : " = OpBitcast ");
        put_id(&msg, info->operand_id);
        put_side(&msg, ": result ", rts.p, rbits);
        put_side(&msg, ", operand ", ots.p, obits);
        if (astype) astype_text(&msg, m, info, astype);
        const spvbc_severity sev = (spvbc_severity)r->severity;
        if (sev == SPVBC_SEVERITY_ERROR || (sev == SPVBC_SEVERITY_WARNING && lowerable)) {
            put(&msg, lowerable ? "; lowerable" : "; not lowerable");
            if (astype) {
                put(&msg, ": ");
                put(&msg, astype);
            }
        }
    }
    s->result_type_len = rts.len;
    s->operand_type_len = ots.len;
    s->astype_len = as.len;
    s->message_len = msg.len;
    s->has_astype = astype != NULL;
    s->result_bits = rbits;
    s->operand_bits = obits;
}

/* Appends id `v` as text ("%5") to `ids`. */
static void id_text(spvbc__sentence_ids *ids, uint32_t v)
{
    char digits[SPVBC__DECIMAL_MAX];
    size_t n = spvbc__decimal(digits, v); /* at most 10: `v` is 32 bits */
    char *t = ids->text[ids->count];
    t[0] = '%';
    memcpy(t + 1, digits, n);
    ids->len[ids->count++] = (uint8_t)(n + 1);
}

void spvbc__sentence_ids_of(const struct spvbc_module_s *m, const spvbc__record *r,
                            const spvbc__site_info *info, spvbc__sentence_ids *ids)
{
    ids->count = 0;
    if (r->msg != SPVBC__MSG_LOWERED) {
        id_text(ids, info->result_id);
        id_text(ids, info->operand_id);
        return;
    }
    uint32_t op_ids[3][3];
    const uint32_t n = recipe_ids(m, info, r->arg, op_ids);
    for (uint32_t i = 0; i < n; ++i) {
        id_text(ids, op_ids[i][0]);
        id_text(ids, op_ids[i][1]);
        if (info->plan.ops[i].kind != SPVBC_PLAN_OP_BITCAST) id_text(ids, op_ids[i][2]);
    }
}

size_t spvbc__sentence_again_len(size_t prev_len, const uint16_t *id_at,
                                 const spvbc__sentence_ids *ids)
{
    size_t len = prev_len;
    for (uint32_t i = 0; i < ids->count; ++i)
        len = len - (size_t)(id_at[2 * i + 1] - id_at[2 * i]) + ids->len[i];
    return len;
}

void spvbc__sentence_again(char *msg, const char *prev, size_t prev_len, const uint16_t *id_at,
                           const spvbc__sentence_ids *ids)
{
    char *out = msg;
    size_t from = 0;
    for (uint32_t i = 0; i < ids->count; ++i) {
        const size_t span = (size_t)id_at[2 * i] - from;
        memcpy(out, prev + from, span);
        out += span;
        for (uint32_t k = 0; k < ids->len[i]; ++k)
            *out++ = ids->text[i][k];
        from = id_at[2 * i + 1];
    }
    memcpy(out, prev + from, prev_len - from);
    out[prev_len - from] = '\0';
}
