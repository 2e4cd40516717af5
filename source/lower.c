/* Lower: rewrites as_type-legal but SPIR-V-invalid bitcasts following spvbc_astype_plan(), as
 * an edit list over the input (no instruction moves); writer.c turns it into spans. */
#include <stdlib.h>
#include <string.h>

#include "abi.h"
#include "context.h"
#include "modmem.h"
#include "report.h"

/* A declaration the pass adds: OpTypeVector 4 of `key`, or OpConstantNull of `key`. */
typedef struct added {
    uint32_t key, id;
    bool is_null;
} added;

typedef struct lstate {
    struct spvbc_module_s *m;
    spvbc_context ctx;
    spvbc_lower_options opt;
    spvbc_lower_summary sum;
    uint32_t next_id;
    added *adds;
    size_t add_count, add_cap;
    spvbc_result error; /* first failure */
    spvbc__pair_memo valid; /* pairs of valid sites: nothing to lower */
    spvbc__info_memo *infos; /* analyses of the invalid sites' pairs */
} lstate;

static bool fail_oom(lstate *s)
{
    if (s->error == SPVBC_SUCCESS) s->error = SPVBC_ERROR_OUT_OF_MEMORY;
    return false;
}

static bool new_id(lstate *s, uint32_t *id)
{
    if (s->next_id == UINT32_MAX) {
        if (s->error == SPVBC_SUCCESS) s->error = SPVBC_ERROR_UNSUPPORTED;
        return false;
    }
    *id = s->next_id++;
    return true;
}

/* Appends an edit at `offset` replacing `remove` words by `count` words of `w`. */
static bool add_edit(lstate *s, uint32_t offset, uint32_t remove, const uint32_t *w, size_t count)
{
    struct spvbc_module_s *m = s->m;
    if ((m->edit_count == m->edit_cap && !spvbc__grow(s->ctx, (void **)&m->edits, &m->edit_cap,
                                                      sizeof *m->edits, m->edit_count + 1)) ||
        (m->edit_word_count + count > m->edit_word_cap &&
         !spvbc__grow(s->ctx, (void **)&m->edit_words, &m->edit_word_cap, 4,
                      m->edit_word_count + count)))
        return fail_oom(s);
    spvbc__edit *e = &m->edits[m->edit_count++];
    e->offset = offset;
    e->remove = remove;
    e->first = m->edit_word_count;
    e->count = count;
    memcpy(m->edit_words + m->edit_word_count, w, count * 4);
    m->edit_word_count += count;
    return true;
}

/* Finds or declares an added OpTypeVector 4 x `comp` or OpConstantNull `type`.  New
 * declarations go right after the declaration of the type they are built from, so they come
 * after their component type and before every use. */
static bool find_or_add(lstate *s, const spvbc__type *from, bool is_null, uint32_t site_offset,
                        uint32_t *out)
{
    /* An existing null declared after the site cannot be used there; this pass then adds one
     * (duplicate constants are valid).  Types were checked by spvbc__site_lowerable. */
    uint32_t existing =
        is_null ? (from->null_id && from->null_offset < site_offset ? from->null_id : 0u)
                : from->vec4_id;
    if (existing) {
        *out = existing;
        return true;
    }
    for (size_t i = 0; i < s->add_count; ++i)
        if (s->adds[i].key == from->id && s->adds[i].is_null == is_null) {
            *out = s->adds[i].id;
            return true;
        }
    uint32_t id;
    if (!new_id(s, &id)) return false;
    uint32_t w[4];
    size_t n;
    if (is_null) {
        w[0] = (3u << 16) | SpvOpConstantNull;
        w[1] = from->id;
        w[2] = id;
        n = 3;
        s->sum.constants_added++;
    } else {
        w[0] = (4u << 16) | SpvOpTypeVector;
        w[1] = id;
        w[2] = from->id;
        w[3] = 4;
        n = 4;
        s->sum.types_added++;
    }
    if (!add_edit(s, from->decl_offset + from->decl_words, 0, w, n)) return false;
    if (!spvbc__grow(s->ctx, (void **)&s->adds, &s->add_cap, sizeof *s->adds, s->add_count + 1))
        return fail_oom(s);
    s->adds[s->add_count++] = (added){from->id, id, is_null};
    *out = id;
    return true;
}

/* The type id for plan result type `d`: the as_type destination itself, or a 4-component
 * vector of the source's or destination's element type. */
static bool plan_type_id(lstate *s, const spvbc__site_info *info, const spvbc_type_desc *d,
                         uint32_t *out)
{
    if (d->count == info->dst.count && spvbc__same_element(d, &info->dst)) {
        *out = info->result_type_id;
        return true;
    }
    const spvbc__type *comp = spvbc__plan_component(s->m, info, d);
    if (!comp) return false;
    return find_or_add(s, comp, false, UINT32_MAX, out);
}

static uint32_t class_bit(spvbc_astype_class c)
{
    return 1u << (uint32_t)c;
}

static bool lower_site(lstate *s, const spvbc__site *site)
{
    struct spvbc_module_s *m = s->m;
    const uint64_t key = spvbc__pair_key(m, site);
    uint64_t *slot = spvbc__pair_slot(&s->valid, key);
    if (key && *slot == key) {
        s->sum.bitcasts_checked++;
        return true;
    }
    spvbc__site_info info;
    spvbc__analyze_site_memo(m, site, s->opt.pad, false, s->infos, &info);
    s->sum.bitcasts_checked++;
    if (info.vrule == SPVBC__V_OK && !info.spec_needs_kernel) {
        if (key) *slot = key;
        return true;
    }

    const spvbc__keep_reason keep = spvbc__keep_reason_of(m, &info, site->offset);
    spvbc__report_args a = {SPVBC_SEVERITY_WARNING, "L-SKIPPED", true, s->opt.pad, 0};
    if (keep == SPVBC__KEEP_NONE && !(s->opt.classes & class_bit(info.plan.cls))) {
        /* Fixable, but the caller asked for other classes only: left alone, not refused. */
        s->sum.skipped++;
        return spvbc__report(m, site, SPVBC__MSG_SKIPPED, &a) || fail_oom(s);
    }
    if (keep != SPVBC__KEEP_NONE) {
        /* A rule SPIRV-Tools 2025.1 does not check in a Kernel OpSpecConstantOp is validate's
         * warning W-SPEC-BITCAST: left alone with that warning, not refused. */
        const bool unchecked = !info.spec_needs_kernel && spvbc__spec_unchecked(&info) &&
                               !spvbc__spec_checked(m->generation);
        if (!unchecked) s->sum.refused++;
        a.severity = unchecked ? SPVBC_SEVERITY_WARNING : SPVBC_SEVERITY_ERROR;
        a.rule = unchecked ? "W-SPEC-BITCAST"
                           : (info.spec_needs_kernel ? "S7" : spvbc__vrule_id(info.vrule));
        a.lowerable = false;
        a.arg = keep;
        return spvbc__report(m, site, SPVBC__MSG_KEPT, &a) || fail_oom(s);
    }

    /* Emit the plan: each op feeds the next; the last keeps the original result id. */
    const spvbc_plan *p = &info.plan;
    uint32_t words[3 * 10];
    size_t nw = 0;
    uint32_t value = info.operand_id;
    for (uint32_t i = 0; i < p->op_count; ++i) {
        const spvbc_plan_op *op = &p->ops[i];
        uint32_t type, id, second = value;
        if (!plan_type_id(s, &info, &op->result_type, &type)) return s->error ? false : fail_oom(s);
        if (i + 1 == p->op_count)
            id = info.result_id;
        else if (!new_id(s, &id))
            return false;
        if (op->kind == SPVBC_PLAN_OP_SHUFFLE && op->second == SPVBC_PLAN_SECOND_NULL) {
            /* The null vector has the type of the value being padded: the operand's. */
            if (!find_or_add(s, info.otype, true, site->offset, &second)) return false;
        }
        uint32_t *w = words + nw;
        size_t head = info.spec ? 4 : 3;
        w[1] = type;
        w[2] = id;
        if (info.spec) w[3] = op->kind == SPVBC_PLAN_OP_BITCAST ? SpvOpBitcast : SpvOpVectorShuffle;
        size_t len;
        if (op->kind == SPVBC_PLAN_OP_BITCAST) {
            w[head] = value;
            len = head + 1;
        } else {
            w[head] = value;
            w[head + 1] = second;
            for (uint32_t k = 0; k < op->lane_count; ++k)
                w[head + 2 + k] = op->lanes[k];
            len = head + 2 + op->lane_count;
        }
        w[0] =
            ((uint32_t)len << 16) |
            (info.spec ? SpvOpSpecConstantOp
                       : (op->kind == SPVBC_PLAN_OP_BITCAST ? SpvOpBitcast : SpvOpVectorShuffle));
        nw += len;
        value = id;
    }
    const size_t first = m->edit_word_count;
    if (!add_edit(s, site->offset, site->word_count, words, nw)) return false;
    s->sum.rewritten++;
    a.severity = SPVBC_SEVERITY_NOTE;
    a.rule = "L-LOWERED";
    a.arg = first;
    return spvbc__report(m, site, SPVBC__MSG_LOWERED, &a) || fail_oom(s);
}

static int edit_cmp(const void *a, const void *b)
{
    const spvbc__edit *x = (const spvbc__edit *)a, *y = (const spvbc__edit *)b;
    if (x->offset != y->offset) return x->offset < y->offset ? -1 : 1;
    /* At one offset, insertions (remove == 0) precede the replacement of the instruction
     * there; among insertions, creation order (the word buffer position) decides. */
    if ((x->remove == 0) != (y->remove == 0)) return x->remove == 0 ? -1 : 1;
    return x->first < y->first ? -1 : x->first > y->first;
}

/* Forgets a failed lowering: its edits, and its per-site reports, which describe rewrites that
 * are undone. */
static void undo(struct spvbc_module_s *m)
{
    spvbc__module_reset_output(m);
    spvbc__diag_clear(m->ctx);
}

spvbc_result spvbc_module_lower(spvbc_module module, const spvbc_lower_options *options,
                                spvbc_lower_summary *out_summary)
{
    if (!module) return SPVBC_ERROR_INVALID_ARGUMENT;
    spvbc_lower_options o;
    spvbc_result r = spvbc__pass_args(options, &o, sizeof o, SPVBC__MIN_LOWER_OPTIONS, out_summary,
                                      SPVBC__MIN_LOWER_SUMMARY);
    if (r != SPVBC_SUCCESS) return r;
    if (o.pad != SPVBC_PAD_UNDEF && o.pad != SPVBC_PAD_ZERO && o.pad != SPVBC_PAD_ERROR)
        return SPVBC_ERROR_INVALID_ARGUMENT;
    if (o.classes & ~SPVBC_LOWER_ALL) return SPVBC_ERROR_INVALID_ARGUMENT;
    const uint32_t gen = spvbc__generation(o.generation);
    if (!gen) return SPVBC_ERROR_INVALID_ARGUMENT;
    spvbc__diag_clear(module->ctx);
    spvbc__module_reset_output(module);
    module->generation = gen;

    lstate s;
    memset(&s, 0, sizeof s);
    s.m = module;
    s.ctx = module->ctx;
    s.opt = o;
    if (!s.opt.classes) s.opt.classes = SPVBC_LOWER_ALL;
    s.next_id = module->bound;
    spvbc__info_memo infos;
    memset(infos.key, 0, sizeof infos.key);
    s.infos = &infos;

    for (size_t i = 0; i < module->site_count; ++i)
        if (!lower_site(&s, &module->sites[i])) break;
    spvbc__free(s.ctx, s.adds, s.add_cap * sizeof *s.adds);
    if (s.error == SPVBC_SUCCESS && !spvbc__report_finish(s.ctx))
        s.error = SPVBC_ERROR_OUT_OF_MEMORY;
    if (s.error != SPVBC_SUCCESS) {
        undo(module);
        if (s.error == SPVBC_ERROR_OUT_OF_MEMORY) return spvbc__oom(s.ctx);
        (void)spvbc__diag_simple(s.ctx, SPVBC_SEVERITY_ERROR, "R-LIMIT", 3, SPVBC_NO_POSITION, 0,
                                 "no ids left below 2^32 for the lowering's new values");
        return s.error;
    }
    /* The output's bound stays within the cap the module was parsed with (so it parses again,
     * and passes spirv-val's limit at the default cap): if it would not, nothing changes. */
    if (s.next_id > module->max_bound) {
        undo(module);
        if (!spvbc__diag_simple(s.ctx, SPVBC_SEVERITY_ERROR, "R-LIMIT", 3, SPVBC_NO_POSITION, 0,
                                "lowering needs an id bound of %u, above the cap of %u: nothing "
                                "was lowered (raise max_id_bound / --max-id-bound)",
                                s.next_id, module->max_bound))
            return spvbc__oom(s.ctx);
        return SPVBC_ERROR_UNSUPPORTED;
    }
    /* The edits are made in site order, so they are usually sorted already: a check costs
     * far less than qsort (glibc's merge sort copies every element). */
    bool sorted = true;
    for (size_t i = 1; i < module->edit_count && sorted; ++i)
        sorted = edit_cmp(&module->edits[i - 1], &module->edits[i]) <= 0;
    if (!sorted) qsort(module->edits, module->edit_count, sizeof *module->edits, edit_cmp);
    module->changed = module->edit_count > 0;
    module->out_bound = s.next_id;
    s.sum.new_id_bound = s.next_id;
    /* The findings' diagnostics now, while the words are surely there (destroy reads none). */
    if (!spvbc__report_make(s.ctx, s.infos)) {
        undo(module);
        return spvbc__oom(s.ctx);
    }
    if (out_summary) spvbc__struct_out(out_summary, &s.sum, sizeof s.sum);
    return s.sum.refused ? SPVBC_PARTIAL : SPVBC_SUCCESS;
}
