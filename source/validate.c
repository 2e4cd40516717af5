/* Validate: applies the SPIR-V and as_type rules to every bitcast site and records each
 * finding (report.c makes the sentences when they are read). */
#include <string.h>

#include "abi.h"
#include "context.h"
#include "report.h"

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

/* The releases whose rule changes the generations follow (YYYYMM, as SPVBC_GENERATION_*). */
#define GENERATION_2025_5 202505u

typedef struct vstate {
    struct spvbc_module_s *m;
    uint32_t flags;
    bool logical_ptr_error; /* generation 2025.5 or later, or --strict */
    bool spec_checked; /* generation 2026.2 or later: the OpBitcast rules' own errors */
    bool strict; /* SPVBC_VALIDATE_STRICT: W-SPEC-BITCAST an error */
    spvbc_validate_summary sum;
    spvbc__pair_memo clean; /* pairs at which check_site found nothing */
    spvbc__info_memo *infos; /* analyses of the other sites' pairs */
} vstate;

static bool report(vstate *s, const spvbc__site *site, uint16_t msg, spvbc_severity sev,
                   const char *rule, bool lowerable, size_t arg)
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
    spvbc__report_args a = {sev, rule, lowerable, SPVBC_PAD_UNDEF, arg};
    return spvbc__report(s->m, site, msg, &a);
}

static bool check_site(vstate *s, const spvbc__site *site)
{
    struct spvbc_module_s *m = s->m;
    spvbc__site_info info;
    spvbc__analyze_site_memo(m, site, SPVBC_PAD_UNDEF, (s->flags & SPVBC_VALIDATE_NOTES) != 0,
                             s->infos, &info);
    s->sum.bitcasts_checked++;

    if (info.spec_needs_kernel &&
        !report(s, site, SPVBC__MSG_S7, SPVBC_SEVERITY_ERROR, "S7", false, 0))
        return false;
    if (info.foreign_op)
        return report(s, site, SPVBC__MSG_FOREIGN, SPVBC_SEVERITY_NOTE, "N-UNKNOWN-OPCODE", false,
                      info.foreign_op);
    if (info.unsized)
        return report(s, site, SPVBC__MSG_UNSIZED, SPVBC_SEVERITY_NOTE, "N-UNSIZED", false, 0);
    if (info.vrule != SPVBC__V_OK) {
        bool low = spvbc__site_lowerable(m, &info, site->offset);
        /* A rule SPIRV-Tools before 2026.2 does not apply to OpSpecConstantOp: W-SPEC-BITCAST,
         * like W-LOGICAL-PTR a warning unless --strict.  2026.2 and later check it there as
         * for OpBitcast ("...: SpecConstantOp"): the rule's own error. */
        if (spvbc__spec_unchecked(&info) && !s->spec_checked)
            return report(s, site, SPVBC__MSG_SPEC_UNCHECKED,
                          s->strict ? SPVBC_SEVERITY_ERROR : SPVBC_SEVERITY_WARNING,
                          "W-SPEC-BITCAST", low, 0);
        return report(s, site, SPVBC__MSG_VRULE, SPVBC_SEVERITY_ERROR, spvbc__vrule_id(info.vrule),
                      low, 0);
    }
    const spvbc__type *rt = info.rtype, *ot = info.otype;
    /* S2 "Operand ... must be a different type than Result Type" (not checked by spirv-val). */
    if (info.otype && info.otype->id == info.result_type_id &&
        !report(s, site, SPVBC__MSG_S2, SPVBC_SEVERITY_WARNING, "S2", false, 0))
        return false;
    const bool rp = rt->kind == SPVBC__T_POINTER, op = ot->kind == SPVBC__T_POINTER;
    /* S4 "If Result Type is a pointer, Operand must be a pointer and point to the same
     * Storage Class" when both are pointers (not checked by spirv-val). */
    if (rp && op && rt->storage != ot->storage &&
        !report(s, site, SPVBC__MSG_S4, SPVBC_SEVERITY_WARNING, "S4", false, 0))
        return false;
    if (rp != op) {
        const spvbc__type *other = rp ? ot : rt;
        uint32_t pb = pointer_bits(m), ib = spvbc__type_bits(other);
        if (pb && ib && pb != ib &&
            !report(s, site, SPVBC__MSG_S3_WIDTH, SPVBC_SEVERITY_WARNING, "S3-WIDTH", false, pb))
            return false;
    }
    /* Current SPIRV-Tools rejects, in Logical or PhysicalStorageBuffer64 addressing, a
     * bitcast of a pointer outside PhysicalStorageBuffer ("logical pointer"). */
    if ((rp || op) && (m->addressing == SpvAddressingModelLogical ||
                       m->addressing == SpvAddressingModelPhysicalStorageBuffer64)) {
        bool logical = (rp && rt->storage != SpvStorageClassPhysicalStorageBuffer) ||
                       (op && ot->storage != SpvStorageClassPhysicalStorageBuffer);
        if (logical && !report(s, site, SPVBC__MSG_LOGICAL_PTR,
                               s->logical_ptr_error ? SPVBC_SEVERITY_ERROR : SPVBC_SEVERITY_WARNING,
                               "W-LOGICAL-PTR", false, 0))
            return false;
    }
    if (info.has_astype && (s->flags & SPVBC_VALIDATE_NOTES)) {
        const spvbc_plan *p = &info.plan;
        if (p->refusal == SPVBC_PLAN_REFUSAL_NONE && !p->defined_by_opencl &&
            !report(s, site, SPVBC__MSG_IMPL_DEFINED, SPVBC_SEVERITY_NOTE, "N-IMPL-DEFINED", false,
                    0))
            return false;
        if (p->refusal != SPVBC_PLAN_REFUSAL_NONE &&
            !report(s, site, SPVBC__MSG_NOT_ASTYPE, SPVBC_SEVERITY_NOTE, "N-NOT-ASTYPE", false, 0))
            return false;
    }
    return true;
}

spvbc_result spvbc_module_validate(spvbc_module module, const spvbc_validate_options *options,
                                   spvbc_validate_summary *out_summary)
{
    if (!module) return SPVBC_ERROR_INVALID_ARGUMENT;
    spvbc_validate_options o;
    spvbc_result r = spvbc__pass_args(options, &o, sizeof o, SPVBC__MIN_VALIDATE_OPTIONS,
                                      out_summary, SPVBC__MIN_VALIDATE_SUMMARY);
    if (r != SPVBC_SUCCESS) return r;
    const uint32_t gen = spvbc__generation(o.generation);
    if (!gen) return SPVBC_ERROR_INVALID_ARGUMENT;
    spvbc__diag_clear(module->ctx);
    module->generation = gen;
    vstate s;
    memset(&s, 0, sizeof s);
    s.m = module;
    s.flags = o.flags;
    /* Current SPIRV-Tools: "Instruction may not have a logical pointer operand" from 2025.5,
     * OpSpecConstantOp Bitcast checked as OpBitcast from 2026.2 (docs/rules.md). */
    const bool strict = (o.flags & SPVBC_VALIDATE_STRICT) != 0;
    s.logical_ptr_error = strict || gen >= GENERATION_2025_5;
    s.spec_checked = spvbc__spec_checked(gen);
    s.strict = strict;
    spvbc__info_memo infos;
    memset(infos.key, 0, sizeof infos.key);
    s.infos = &infos;
    bool ok = true;
    for (size_t i = 0; i < module->site_count && ok; ++i) {
        const spvbc__site *site = &module->sites[i];
        const uint64_t key = spvbc__pair_key(module, site);
        uint64_t *slot = spvbc__pair_slot(&s.clean, key);
        if (key && *slot == key) {
            s.sum.bitcasts_checked++;
            continue;
        }
        const size_t found = s.sum.errors + s.sum.warnings + s.sum.notes;
        ok = check_site(&s, site);
        if (key && found == s.sum.errors + s.sum.warnings + s.sum.notes) *slot = key;
    }
    if (!ok || !spvbc__report_finish(module->ctx) || !spvbc__report_make(module->ctx, &infos))
        return spvbc__oom(module->ctx);
    if (out_summary) spvbc__struct_out(out_summary, &s.sum, sizeof s.sum);
    return s.sum.errors ? SPVBC_ERROR_VALIDATION_FAILED : SPVBC_SUCCESS;
}
