/* Analysis: the facts of one bitcast site, shared by validate, lower and the report. */
#include <stddef.h>
#include <string.h>

#include "analysis.h"

static spvbc__rule_env rule_env(const struct spvbc_module_s *m)
{
    spvbc__rule_env env;
    env.version = m->version;
    env.psb_gate = m->version >= 0x00010500u || m->has_psb_ext;
    env.shader = m->is_shader;
    env.features = m->caps_features;
    env.long_vector = m->long_vector;
    env.generation = m->generation ? m->generation : spvbc__generation(SPVBC_GENERATION_NEWEST);
    return env;
}

uint32_t spvbc__plan_features(const struct spvbc_module_s *m)
{
    return m->caps_features | (m->is_shader ? SPVBC_FEATURE_SHADER : 0u);
}

/* The opcode of an instruction this build does not know that value-or-type entry `e` (an id
 * table entry, or a value's type id) depends on, or 0. */
static uint32_t foreign_of_type_id(const struct spvbc_module_s *m, uint32_t type_id)
{
    if (type_id == 0 || type_id >= m->bound) return 0;
    const spvbc__type *t = spvbc__type_of_id(m, type_id);
    return t ? t->foreign_op : spvbc__foreign_op_of(m->ids[type_id]);
}

/* The plan of a pair with a side of a non-IEEE float encoding (BFloat16KHR, Float8E4M3EXT, ...):
 * OpenCL C has no such type, so nothing is lowered, but the pair is still judged by as_type's
 * sizes ("a 3-component vector occupies the storage of 4"), as for an integer of the same width
 * with every capability; widths that are no whole bytes (Float4E2M1EXT, Float6*) get no class. */
static void encoded_plan(spvbc__site_info *out, spvbc_pad_policy pad)
{
    spvbc_type_desc s = out->src, d = out->dst;
    s.kind = d.kind = SPVBC_SCALAR_INT;
    spvbc__plan(&s, &d, SPVBC_FEATURE_ALL_KERNEL, pad, &out->plan);
    if (out->plan.refusal != SPVBC_PLAN_REFUSAL_SIZE)
        out->plan.refusal = SPVBC_PLAN_REFUSAL_BAD_TYPE;
    out->plan.op_count = 0;
    out->plan.defined_by_opencl = 0;
    out->plan.exact_lanes = 0;
    if (out->plan.cls == SPVBC_ASTYPE_IDENTITY) out->plan.cls = SPVBC_ASTYPE_SAME_COUNT;
}

/* The rules of the OpBitcastExtractEXT `site` (its base analysed into `out` already): the type of
 * its Offset (word 4) read from the id table, when it is a known value. */
static void extract_rules(const struct spvbc_module_s *m, const spvbc__site *site,
                          spvbc__site_info *out)
{
    const uint32_t off_id = site->word_count >= 5 ? m->words[site->offset + 4] : 0;
    const uint32_t e = off_id && off_id < m->bound ? m->ids[off_id] : SPVBC__ID_UNDEF;
    /* a value's entry is its type's id (below the bound; types, marks and foreign results are
     * not) */
    const bool known = e != SPVBC__ID_UNDEF && e < m->bound;
    const spvbc__type *ot = known ? spvbc__type_of_id(m, e) : NULL;
    out->vrule = spvbc__check_extract(out->rtype, out->otype, ot, known);
}

void spvbc__analyze_site(const struct spvbc_module_s *m, const spvbc__site *site,
                         spvbc_pad_policy pad, bool want_plan, spvbc__site_info *out)
{
    /* Everything but the plan, which is written where it is computed (all of it for the
     * report, which reads every field). */
    memset(out, 0, want_plan ? sizeof *out : offsetof(spvbc__site_info, plan));
    out->spec = site->spec == SPVBC__SITE_SPEC;
    out->extract = site->spec == SPVBC__SITE_EXTRACT;
    out->opcode = out->spec      ? SpvOpSpecConstantOp
                  : out->extract ? SPVBC__OP_BITCAST_EXTRACT_EXT
                                 : SpvOpBitcast;
    out->result_type_id = site->result_type_id;
    out->result_id = site->result_id;
    out->operand_id = site->operand_id;
    const spvbc__type *rt = spvbc__type_of_id(m, out->result_type_id);
    out->rtype = rt;
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
    /* "An opcode the build does not know is never our error": a side that depends on one gets
     * a note naming it, and no verdict. */
    out->foreign_op = rt ? rt->foreign_op : foreign_of_type_id(m, out->result_type_id);
    if (!out->foreign_op) out->foreign_op = spvbc__foreign_op_of(e);
    if (!out->foreign_op && e != SPVBC__ID_NOTYPE && !(e & SPVBC__ID_TYPE_BIT))
        out->foreign_op = foreign_of_type_id(m, e);
    if (out->foreign_op) return; /* vrule stays SPVBC__V_OK: nothing to lower */
    if (e == SPVBC__ID_UNDEF || e == SPVBC__ID_FORWARD) {
        out->vrule = SPVBC__VUNDEF;
        return;
    }
    if (e != SPVBC__ID_NOTYPE && (e & SPVBC__ID_TYPE_BIT)) {
        out->vrule = SPVBC__V0;
        return;
    }
    out->otype = e == SPVBC__ID_NOTYPE ? NULL : spvbc__type_of_id(m, e);
    if (out->extract) {
        extract_rules(m, site, out);
        return;
    }
    const spvbc__rule_env env = rule_env(m);
    out->vrule = spvbc__check_bitcast(&env, rt, out->otype);
    if (out->vrule == SPVBC__VUNSIZED) {
        /* "A type the library cannot size is never an error": a note, and nothing to lower. */
        out->vrule = SPVBC__V_OK;
        out->unsized = true;
        return;
    }
    if (out->vrule == SPVBC__V_OK && !want_plan) return;

    if (spvbc__type_desc(out->otype, &out->src) && spvbc__type_desc(rt, &out->dst)) {
        out->has_astype = true;
        out->encoded = out->otype->encoded || rt->encoded;
        if (out->encoded)
            encoded_plan(out, pad);
        else
            spvbc__plan(&out->src, &out->dst, spvbc__plan_features(m), pad, &out->plan);
    }
}

void spvbc__analyze_site_memo(const struct spvbc_module_s *m, const spvbc__site *site,
                              spvbc_pad_policy pad, bool want_plan, spvbc__info_memo *memo,
                              spvbc__site_info *out)
{
    const uint64_t key = memo ? spvbc__pair_key(m, site) : 0;
    if (!key) {
        spvbc__analyze_site(m, site, pad, want_plan, out);
        return;
    }
    const uint32_t tag = (uint32_t)pad << 1 | (want_plan ? 1u : 0u);
    const uint32_t slot = spvbc__pair_hash(key) >> 28; /* the top 4 bits: SPVBC__INFO_SLOTS */
    if (memo->key[slot] == key && memo->tag[slot] == tag) {
        *out = memo->info[slot];
        out->result_id = site->result_id;
        out->operand_id = site->operand_id;
        return;
    }
    spvbc__analyze_site(m, site, pad, want_plan, out);
    if (out->vrule == SPVBC__V_OK) return; /* the pair memos of the passes have those */
    memo->key[slot] = key;
    memo->tag[slot] = tag;
    memo->info[slot] = *out;
}

const spvbc__type *spvbc__plan_component(const struct spvbc_module_s *m,
                                         const spvbc__site_info *info, const spvbc_type_desc *d)
{
    const spvbc__type *side = spvbc__same_element(d, &info->src) ? info->otype : info->rtype;
    return side->kind == SPVBC__T_VECTOR ? spvbc__type_of_id(m, side->elem) : side;
}

/* Whether every type the plan needs can be used at the site at `site_offset`: an existing vec4
 * declared after it cannot (a module whose layout puts it there is invalid, but parses), and
 * declaring a second one would duplicate a type, which SPIR-V forbids (SPVBC__KEEP_VEC4_AFTER).
 * A new vec4 or null goes right after the type it is built from, so the site's own types and
 * the plan's component types must precede it too (SPVBC__KEEP_TYPE_AFTER: an id an unknown
 * opcode seemed to define, later declared as the type, lets a value of it come first); that
 * holds whatever the padding policy, so validate and lower agree on what is lowerable. */
static spvbc__keep_reason plan_types_placed(const struct spvbc_module_s *m,
                                            const spvbc__site_info *info, uint32_t site_offset)
{
    if ((info->otype && info->otype->decl_offset > site_offset) ||
        (info->rtype && info->rtype->decl_offset > site_offset))
        return SPVBC__KEEP_TYPE_AFTER;
    for (uint32_t i = 0; i < info->plan.op_count; ++i) {
        const spvbc_type_desc *d = &info->plan.ops[i].result_type;
        if (d->count == info->dst.count && spvbc__same_element(d, &info->dst)) continue;
        const spvbc__type *comp = spvbc__plan_component(m, info, d);
        const spvbc__type *v4 = comp ? spvbc__type_of_id(m, comp->vec4_id) : NULL;
        if (v4 && v4->decl_offset > site_offset) return SPVBC__KEEP_VEC4_AFTER;
        if (!v4 && comp && comp->decl_offset > site_offset) return SPVBC__KEEP_TYPE_AFTER;
    }
    return SPVBC__KEEP_NONE;
}

spvbc__keep_reason spvbc__keep_reason_of(const struct spvbc_module_s *m,
                                         const spvbc__site_info *info, uint32_t site_offset)
{
    if (info->spec_needs_kernel) return SPVBC__KEEP_SPEC_NEEDS_KERNEL;
    /* Only a size mismatch that as_type allows is fixed; every other failure stays. */
    if (info->vrule != SPVBC__V12) return SPVBC__KEEP_NOT_SIZE;
    /* New ids come from the bound: in a module that already names ids at or above it they
     * would silently give those references a meaning nobody wrote. */
    if (m->refs_above_bound) return SPVBC__KEEP_REFS_ABOVE_BOUND;
    if (!info->has_astype) return SPVBC__KEEP_NO_ASTYPE;
    /* An operand defined after its use (invalid order, but it parses) may bring its types
     * after the site too, where a new vec4 or null would be declared: never rewrite that.
     * With the operand first, every type a recipe builds on precedes the site. */
    if (info->operand_later && info->plan.refusal == SPVBC_PLAN_REFUSAL_NONE)
        return SPVBC__KEEP_OPERAND_LATER;
    if (info->plan.refusal != SPVBC_PLAN_REFUSAL_NONE || info->plan.op_count == 0)
        return SPVBC__KEEP_PLAN_REFUSED;
    /* A spec-constant recipe needs OpSpecConstantOp VectorShuffle/Bitcast: Kernel only; and
     * every recipe needs its types declared before it. */
    if (info->spec && !m->is_kernel) return SPVBC__KEEP_SHADER_SPEC;
    return plan_types_placed(m, info, site_offset);
}

bool spvbc__site_lowerable(const struct spvbc_module_s *m, const spvbc__site_info *info,
                           uint32_t site_offset)
{
    return spvbc__keep_reason_of(m, info, site_offset) == SPVBC__KEEP_NONE;
}
