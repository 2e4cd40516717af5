/* Analysis: the facts of one bitcast site - its types, the SPIR-V verdict, the as_type pair,
 * class and plan, and whether the lowering can rewrite it.  Shared by validate, lower and the
 * report, so all three say the same thing about a site. */
#ifndef SPVBC_ANALYSIS_H_
#define SPVBC_ANALYSIS_H_

#include "rules.h"

typedef struct spvbc__site_info {
    uint32_t opcode; /* SpvOpBitcast, SpvOpSpecConstantOp or OpBitcastExtractEXT */
    bool spec;
    bool extract; /* OpBitcastExtractEXT: its own rules, no as_type */
    uint32_t result_type_id, result_id, operand_id;
    const spvbc__type *rtype, *otype; /* NULL when not a type */
    spvbc__vrule vrule;
    bool spec_needs_kernel; /* OpSpecConstantOp Bitcast outside Kernel */
    bool operand_later; /* the operand is defined after the site (invalid order) */
    bool has_astype; /* both sides int/float scalar or vector */
    uint32_t foreign_op; /* a side is built on an opcode this build does not know: no verdict */
    bool unsized; /* a side cannot be sized (SPVBC__VUNSIZED): no verdict, a note */
    bool encoded; /* a side is a float of a non-IEEE encoding (BFloat16KHR, ...): no OpenCL C
                   * type, so the plan is judged (padded-3 sizes) but refused */
    spvbc_type_desc src, dst;
    spvbc_plan plan; /* valid when has_astype */
} spvbc__site_info;

/* A memo of whole analyses by type pair, for the invalid sites (those the passes and the report
 * analyse again and again): the same pair gives the same facts but for the site's own ids
 * (result and operand), which are patched in.  Only `key` needs clearing before use
 * (SPVBC__INFO_SLOTS x 8 bytes). */
#define SPVBC__INFO_SLOTS 16u
typedef struct spvbc__info_memo {
    uint64_t key[SPVBC__INFO_SLOTS]; /* spvbc__pair_key(), 0: empty */
    uint32_t tag[SPVBC__INFO_SLOTS]; /* the pad policy and want_plan it was made with */
    spvbc__site_info info[SPVBC__INFO_SLOTS];
} spvbc__info_memo;

/** Applies the rules to `site`.  The as_type plan
 *  (with `pad`) is computed for invalid sites, and for valid ones too when `want_plan`;
 *  has_astype, src, dst and plan are set only then (plan only when has_astype): a valid site
 *  analysed without `want_plan` leaves them false and unset. */
void spvbc__analyze_site(const struct spvbc_module_s *m, const spvbc__site *site,
                         spvbc_pad_policy pad, bool want_plan, spvbc__site_info *out);

/** Whether the site is an OpSpecConstantOp Bitcast that fails an OpBitcast rule SPIRV-Tools
 *  2025.1 does not apply there (V2-V13, the cooperative types): only its generic id checks
 *  (V0, V1, an undefined id) run on that form; 2026.2 and later apply them all.  Such a finding
 *  is W-SPEC-BITCAST: a warning, an error under SPVBC_VALIDATE_STRICT. */
static inline bool spvbc__spec_unchecked(const spvbc__site_info *info)
{
    return info->spec && info->vrule != SPVBC__V_OK && info->vrule != SPVBC__V0 &&
           info->vrule != SPVBC__V1 && info->vrule != SPVBC__VUNDEF;
}

/** The plan features module `m` grants: its capabilities, and for Shader modules the rule that
 *  8/16-bit types without arithmetic capabilities are storage-only. */
uint32_t spvbc__plan_features(const struct spvbc_module_s *m);

/** spvbc__analyze_site() through `memo` (NULL: none), for a site the memo can answer for
 *  (spvbc__pair_key() not 0). */
void spvbc__analyze_site_memo(const struct spvbc_module_s *m, const spvbc__site *site,
                              spvbc_pad_policy pad, bool want_plan, spvbc__info_memo *memo,
                              spvbc__site_info *out);

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
    SPVBC__KEEP_SHADER_SPEC, /* a Shader module cannot express the recipe as spec constants */
    SPVBC__KEEP_TYPE_AFTER /* a type a new vec4 or null is built from is declared after it */
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
