/* Lower: rewrites as_type-legal but SPIR-V-invalid bitcasts following spvbc_astype_plan(), as
 * an edit list over the input (no instruction moves), and writes the result as spans. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"

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
    spvbc__diag_pending *pending;
    size_t pending_count, pending_cap;
    spvbc_result error; /* first failure */
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
    if (!spvbc__grow(s->ctx, (void **)&m->edits, &m->edit_cap, sizeof *m->edits,
                     m->edit_count + 1) ||
        !spvbc__grow(s->ctx, (void **)&m->edit_words, &m->edit_word_cap, 4,
                     m->edit_word_count + count))
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

/* The spirv-dis friendly name of a plan type ("v4float", "v3uint"): unsigned and signless
 * integers are "u" types, as spirv-dis spells them. */
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

/* Appends "%id = OpVectorShuffle %v3float %a %b 0 1 2" (or the bitcast) to `buf`. */
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

static bool lower_site(lstate *s, const spvbc__site *site)
{
    struct spvbc_module_s *m = s->m;
    spvbc__site_info info;
    spvbc__analyze_site(m, site, s->opt.pad, false, &info);
    s->sum.bitcasts_checked++;
    if (info.vrule == SPVBC__V_OK && !info.spec_needs_kernel) return true;

    const bool lowerable = spvbc__site_lowerable(m, &info, site->offset);
    if (lowerable && !(s->opt.classes & class_bit(info.plan.cls))) {
        /* Fixable, but the caller asked for other classes only: left alone, not refused. */
        s->sum.skipped++;
        if (!spvbc__report_site(m, site, &info, SPVBC_SEVERITY_WARNING, "L-SKIPPED",
                                "left alone: this as_type class is not selected", true, true,
                                &s->pending, &s->pending_count, &s->pending_cap))
            return fail_oom(s);
        return true;
    }
    if (info.spec_needs_kernel || !lowerable) {
        s->sum.refused++;
        char why[256];
        if (info.spec_needs_kernel)
            (void)snprintf(why, sizeof why,
                           "not lowered: specialization constant operation "
                           "Bitcast requires the Kernel capability");
        else if (info.vrule == SPVBC__V12 && m->refs_above_bound)
            (void)snprintf(why, sizeof why,
                           "not lowered: the module names ids at or above its bound, which the "
                           "new ids would alias (the module is invalid: fix it first)");
        else if (info.vrule != SPVBC__V12)
            (void)snprintf(why, sizeof why, "%s", spvbc__vrule_text(info.vrule));
        else if (info.operand_later && info.has_astype && info.plan.refusal == SPVBC_REFUSE_NONE)
            (void)snprintf(why, sizeof why,
                           "not lowered: its operand is defined after it (invalid order: fix "
                           "the module first)");
        else if (!info.has_astype)
            (void)snprintf(why, sizeof why,
                           "not lowered: total bit widths differ and no as_type maps them");
        else if (info.plan.refusal != SPVBC_REFUSE_NONE) {
            char r[160];
            spvbc__refusal_text(m, &info, r, sizeof r);
            (void)snprintf(why, sizeof why, "not lowered: %s", r);
        } else if (!info.spec || m->is_kernel)
            (void)snprintf(why, sizeof why,
                           "not lowered: the 4-component vector type the recipe needs is "
                           "declared after this instruction");
        else
            (void)snprintf(why, sizeof why,
                           "not lowered: a Shader module cannot express the recipe as "
                           "specialization constants");
        const char *rule = info.spec_needs_kernel ? "S7" : spvbc__vrule_id(info.vrule);
        if (!spvbc__report_site(m, site, &info, SPVBC_SEVERITY_ERROR, rule, why, false, true,
                                &s->pending, &s->pending_count, &s->pending_cap))
            return fail_oom(s);
        return true;
    }

    /* Emit the plan: each op feeds the next; the last keeps the original result id. */
    const spvbc_plan *p = &info.plan;
    uint32_t words[3 * 10];
    size_t nw = 0;
    uint32_t value = info.operand_id;
    char recipe[512];
    size_t rlen = 0;
    recipe[0] = '\0';
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
        describe_op(recipe, sizeof recipe, &rlen, info.spec, id, op, value, second);
        nw += len;
        value = id;
    }
    if (!add_edit(s, site->offset, site->word_count, words, nw)) return false;
    s->sum.rewritten++;
    /* "lowered %s (4->3) into: ..." with %s the as_type spelling; '%' in the recipe doubled. */
    char text[1100];
    size_t t = (size_t)snprintf(text, sizeof text,
                                "lowered %%s (%s) into: ", spvbc_astype_class_string(p->cls));
    for (size_t i = 0; recipe[i] && t + 2 < sizeof text; ++i) {
        if (recipe[i] == '%') text[t++] = '%';
        text[t++] = recipe[i];
    }
    text[t] = '\0';
    if (!spvbc__report_site(m, site, &info, SPVBC_SEVERITY_NOTE, "L-LOWERED", text, true, false,
                            &s->pending, &s->pending_count, &s->pending_cap))
        return fail_oom(s);
    return true;
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

static void reset_output(struct spvbc_module_s *m)
{
    m->edit_count = 0;
    m->edit_word_count = 0;
    m->changed = false;
    m->out_bound = m->bound;
    spvbc__give_spare(m->ctx, SPVBC__SPARE_OUT, m->out, m->out_bytes);
    m->out = NULL;
    m->out_count = 0;
    m->out_bytes = 0;
}

spvbc_result spvbc_module_lower(spvbc_module module, const spvbc_lower_options *options,
                                spvbc_lower_summary *out_summary)
{
    if (!module) return SPVBC_ERROR_INVALID_ARGUMENT;
    if (options && options->pad != SPVBC_PAD_UNDEF && options->pad != SPVBC_PAD_ZERO &&
        options->pad != SPVBC_PAD_ERROR)
        return SPVBC_ERROR_INVALID_ARGUMENT;
    if (options && (options->classes & ~SPVBC_LOWER_ALL)) return SPVBC_ERROR_INVALID_ARGUMENT;
    spvbc__diag_clear(module->ctx);
    reset_output(module);

    lstate s;
    memset(&s, 0, sizeof s);
    s.m = module;
    s.ctx = module->ctx;
    if (options) s.opt = *options;
    if (!s.opt.classes) s.opt.classes = SPVBC_LOWER_ALL;
    s.next_id = module->bound;

    for (size_t i = 0; i < module->site_count; ++i)
        if (!lower_site(&s, &module->sites[i])) break;
    bool resolved = spvbc__resolve_pending(module, s.pending, s.pending_count, s.pending_cap);
    spvbc__free(s.ctx, s.adds, s.add_cap * sizeof *s.adds);
    if (s.error == SPVBC_SUCCESS && !resolved) s.error = SPVBC_ERROR_OUT_OF_MEMORY;
    if (s.error != SPVBC_SUCCESS) {
        reset_output(module);
        if (s.error == SPVBC_ERROR_OUT_OF_MEMORY) return spvbc__oom(s.ctx);
        (void)spvbc__diag_simple(s.ctx, SPVBC_SEVERITY_ERROR, "R-LIMIT", 3, SPVBC_NO_POSITION, 0,
                                 "no ids left below 2^32 for the lowering's new values");
        return s.error;
    }
    /* The output's bound stays within the cap the module was parsed with (so it parses again,
     * and passes spirv-val's limit at the default cap): if it would not, nothing changes. */
    if (s.next_id > module->max_bound) {
        reset_output(module);
        spvbc__diag_clear(s.ctx); /* the per-site reports describe rewrites that are undone */
        if (!spvbc__diag_simple(s.ctx, SPVBC_SEVERITY_ERROR, "R-LIMIT", 3, SPVBC_NO_POSITION, 0,
                                "lowering needs an id bound of %u, above the cap of %u: nothing "
                                "was lowered (raise max_id_bound / --max-id-bound)",
                                s.next_id, module->max_bound))
            return spvbc__oom(s.ctx);
        return SPVBC_ERROR_UNSUPPORTED;
    }
    if (module->edit_count > 1)
        qsort(module->edits, module->edit_count, sizeof *module->edits, edit_cmp);
    module->changed = module->edit_count > 0;
    module->out_bound = s.next_id;
    s.sum.new_id_bound = s.next_id;
    if (out_summary) *out_summary = s.sum;
    return SPVBC_SUCCESS;
}

spvbc_result spvbc_module_write(spvbc_module module, spvbc_write_fn fn, void *user)
{
    if (!module || !fn) return SPVBC_ERROR_INVALID_ARGUMENT;
    const uint32_t *w = module->words;
    if (!module->changed) {
        if (fn(user, w, module->word_count)) return SPVBC_ERROR_INVALID_ARGUMENT;
        return SPVBC_SUCCESS;
    }
    uint32_t header[5] = {w[0], w[1], w[2], module->out_bound, w[4]};
    if (fn(user, header, 5)) return SPVBC_ERROR_INVALID_ARGUMENT;
    size_t pos = 5;
    for (size_t i = 0; i < module->edit_count; ++i) {
        const spvbc__edit *e = &module->edits[i];
        if (e->offset > pos && fn(user, w + pos, e->offset - pos))
            return SPVBC_ERROR_INVALID_ARGUMENT;
        if (fn(user, module->edit_words + e->first, e->count)) return SPVBC_ERROR_INVALID_ARGUMENT;
        pos = e->offset + e->remove;
    }
    if (pos < module->word_count && fn(user, w + pos, module->word_count - pos))
        return SPVBC_ERROR_INVALID_ARGUMENT;
    return SPVBC_SUCCESS;
}

typedef struct collect {
    uint32_t *dst;
    size_t at;
} collect;

static int collect_fn(void *user, const uint32_t *words, size_t count)
{
    collect *c = (collect *)user;
    memcpy(c->dst + c->at, words, count * 4);
    c->at += count;
    return 0;
}

spvbc_result spvbc_module_get_words(spvbc_module module, const uint32_t **out_words,
                                    size_t *out_word_count)
{
    if (!module || !out_words || !out_word_count) return SPVBC_ERROR_INVALID_ARGUMENT;
    if (!module->changed) {
        *out_words = module->words;
        *out_word_count = module->word_count;
        return SPVBC_SUCCESS;
    }
    if (!module->out) {
        size_t total = module->word_count;
        for (size_t i = 0; i < module->edit_count; ++i)
            total = total - module->edits[i].remove + module->edits[i].count;
        if (total > SIZE_MAX / 4) return spvbc__oom(module->ctx);
        size_t bytes = 0;
        uint32_t *out =
            (uint32_t *)spvbc__take_spare(module->ctx, SPVBC__SPARE_OUT, total * 4, &bytes);
        if (!out) {
            bytes = total * 4;
            out = (uint32_t *)spvbc__alloc(module->ctx, bytes);
        }
        if (!out) return spvbc__oom(module->ctx);
        collect c = {out, 0};
        (void)spvbc_module_write(module, collect_fn, &c);
        module->out = out;
        module->out_count = total;
        module->out_bytes = bytes;
    }
    *out_words = module->out;
    *out_word_count = module->out_count;
    return SPVBC_SUCCESS;
}
