/* Analysis: the facts of one bitcast site - its types, the SPIR-V verdict, the as_type pair,
 * class and plan, and whether the lowering can rewrite it.  Shared by validate, lower and the
 * report, so all three say the same thing about a site. */
#ifndef SPVBC_ANALYSIS_H_
#define SPVBC_ANALYSIS_H_

#include "rules.h"

typedef struct spvbc__site_info {
    uint32_t opcode; /* SpvOpBitcast or SpvOpSpecConstantOp */
    bool spec;
    uint32_t result_type_id, result_id, operand_id;
    const spvbc__type *rtype, *otype; /* NULL when not a type */
    spvbc__vrule vrule;
    bool spec_needs_kernel; /* OpSpecConstantOp Bitcast outside Kernel */
    bool operand_later; /* the operand is defined after the site (invalid order) */
    bool has_astype; /* both sides int/float scalar or vector */
    uint32_t foreign_op; /* a side is built on an opcode this build does not know: no verdict */
    spvbc_type_desc src, dst;
    spvbc_plan plan; /* valid when has_astype */
} spvbc__site_info;

/* A memo of the type pairs (result type, operand type) at which a pass found nothing to say,
 * for one pass over one module's sites: a module repeats a few pairs at many sites, and what
 * validate or lower make of a site that is no OpSpecConstantOp depends on the two type records,
 * the module and the pass's options only.  Zero it before the pass. */
#define SPVBC__PAIR_SLOTS 64u
typedef struct spvbc__pair_memo {
    uint64_t key[SPVBC__PAIR_SLOTS];
} spvbc__pair_memo;

/** The memo key of `site`: its two types' id table entries, or 0 when the memo cannot answer
 *  for it (a spec constant, an operand defined later, a side that is no declared type). */
static inline uint64_t spvbc__pair_key(const struct spvbc_module_s *m, const spvbc__site *site)
{
    const uint32_t rt = site->result_type_id, ov = site->operand_entry;
    /* the operand's entry: the id of its type, which the reader checked to be below the bound */
    if (site->spec || rt >= m->bound || ov - 1u >= SPVBC__ID_TYPE_BIT - 1u || ov >= m->bound)
        return 0;
    const uint32_t re = m->ids[rt], oe = m->ids[ov];
    const uint32_t lo = SPVBC__ID_TYPE_BIT, span = SPVBC__ID_FOREIGN - SPVBC__ID_TYPE_BIT;
    if (re - lo >= span || oe - lo >= span) return 0;
    return (uint64_t)re << 32 | oe;
}

static inline uint64_t *spvbc__pair_slot(spvbc__pair_memo *memo, uint64_t key)
{
    const uint32_t h = (uint32_t)(key >> 32) * 0x9E3779B1u ^ (uint32_t)key * 0x85EBCA77u;
    return &memo->key[h >> 26]; /* the top 6 bits: SPVBC__PAIR_SLOTS */
}

/** Applies the rules to `site`.  The as_type plan
 *  (with `pad`) is computed for invalid sites, and for valid ones too when `want_plan`;
 *  has_astype, src, dst and plan are set only then (plan only when has_astype): a valid site
 *  analysed without `want_plan` leaves them false and unset. */
void spvbc__analyze_site(const struct spvbc_module_s *m, const spvbc__site *site,
                         spvbc_pad_policy pad, bool want_plan, spvbc__site_info *out);

/** The plan features module `m` grants: its capabilities, and for Shader modules the rule that
 *  8/16-bit types without arithmetic capabilities are storage-only. */
uint32_t spvbc__plan_features(const struct spvbc_module_s *m);

/** Why the lowering leaves an invalid site alone (SPVBC__KEEP_NONE: it can rewrite it). */
typedef enum spvbc__keep_reason {
    SPVBC__KEEP_NONE = 0,
    SPVBC__KEEP_SPEC_NEEDS_KERNEL, /* OpSpecConstantOp Bitcast outside Kernel (S7) */
    SPVBC__KEEP_REFS_ABOVE_BOUND, /* new ids would alias ids the module already names */
    SPVBC__KEEP_NOT_SIZE, /* another rule than V12 fails: nothing to lower */
    SPVBC__KEEP_OPERAND_LATER, /* the operand is defined after the site */
    SPVBC__KEEP_NO_ASTYPE, /* widths differ and no as_type maps them */
    SPVBC__KEEP_PLAN_REFUSED, /* as_type refuses the pair (info->plan.refusal says why) */
    SPVBC__KEEP_VEC4_AFTER, /* the vec4 type the recipe needs is declared after the site */
    SPVBC__KEEP_SHADER_SPEC /* a Shader module cannot express the recipe as spec constants */
} spvbc__keep_reason;

/** Why lower would leave the invalid site at `site_offset` described by `info` alone, or
 *  SPVBC__KEEP_NONE when it can rewrite it. */
spvbc__keep_reason spvbc__keep_reason_of(const struct spvbc_module_s *m,
                                         const spvbc__site_info *info, uint32_t site_offset);
/** Whether lower can rewrite the site at `site_offset` described by `info`. */
bool spvbc__site_lowerable(const struct spvbc_module_s *m, const spvbc__site_info *info,
                           uint32_t site_offset);
/** The scalar type a plan intermediate `d` is built from: the source's or destination's. */
const spvbc__type *spvbc__plan_component(const struct spvbc_module_s *m,
                                         const spvbc__site_info *info, const spvbc_type_desc *d);

#endif /* SPVBC_ANALYSIS_H_ */
