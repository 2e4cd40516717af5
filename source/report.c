/* Report: findings are recorded as compact records while the passes run; the diagnostics -
 * sentence, type spellings, as_type spelling, OpName and source line - are made from them when
 * somebody first reads one (or before their module is destroyed), in one batch: one analysis
 * per kept finding, then the module's preamble for names and lines; each is made once. */
#include <stdlib.h>
#include <string.h>

#include "context.h"
#include "decimal.h"
#include "report.h"
#include "sentence.h"

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

/* Appends `len` bytes of `s` to the `*n` bytes at `text`. */
static void text_put(char *text, size_t *n, const char *s, size_t len)
{
    memcpy(text + *n, s, len);
    *n += len;
}

/* Appends `v` in decimal (as "%zu") to the `*n` bytes at `text`. */
static void text_size(char *text, size_t *n, size_t v)
{
    char digits[SPVBC__DECIMAL_MAX];
    text_put(text, n, digits, spvbc__decimal(digits, v));
}

/* Adds the R-NOT-KEPT note of `st`: "%zu findings not kept (diagnostic policy: count only)" or
 * "%zu more findings not kept (diagnostic policy: keep the first %zu)", without vsnprintf (most
 * of a call's cost under count-only).  False on allocation failure. */
static bool not_kept_note(spvbc_context ctx, const spvbc__diag_store *st)
{
    static const char none_text[] = " findings not kept (diagnostic policy: count only)";
    static const char first_text[] = " more findings not kept (diagnostic policy: keep the first ";
    char text[128];
    size_t n = 0;
    text_size(text, &n, st->not_kept);
    if (st->policy == SPVBC_DIAGNOSTIC_POLICY_COUNT_ONLY || st->limit == 0) {
        text_put(text, &n, none_text, sizeof none_text - 1);
    } else {
        text_put(text, &n, first_text, sizeof first_text - 1);
        text_size(text, &n, st->limit);
        text_put(text, &n, ")", 1);
    }
    return spvbc__diag_text(ctx, SPVBC_SEVERITY_NOTE, "R-NOT-KEPT", SPVBC_NO_POSITION,
                            SPVBC_NO_POSITION, 0, text, n) != NULL;
}

bool spvbc__report_finish(spvbc_context ctx)
{
    const spvbc__diag_store *st = spvbc__context_diags(ctx);
    return !st->not_kept || not_kept_note(ctx, st);
}

/* A memo of the diagnostics one make made in full, by type pair and record fields: a site
 * whose pair and record match shares the type spellings and as_type spelling of the memo's
 * diagnostic, and its sentence is the memo's with the site's ids in place of the memo's.  Only
 * `key` needs clearing before use. */
#define SENTENCE_SLOTS 16u
typedef struct sentence_memo {
    uint64_t key[SENTENCE_SLOTS]; /* spvbc__pair_key(), 0: empty */
    uint32_t fields[SENTENCE_SLOTS]; /* the record's msg, severity and flags */
    size_t arg[SENTENCE_SLOTS]; /* the record's arg, 0 for a rewrite's (its recipe's place) */
    const spvbc_diagnostic *made[SENTENCE_SLOTS]; /* made in full by this make */
    size_t len[SENTENCE_SLOTS]; /* of its message */
    uint32_t id_count[SENTENCE_SLOTS];
    uint16_t id_at[SENTENCE_SLOTS][SPVBC__SENTENCE_IDS][2];
    spvbc__site_info info[SENTENCE_SLOTS]; /* but for the ids */
} sentence_memo;

/* Fills the fields of `d` that come from record `r`, its site `site` and `info`. */
static void fill(spvbc_diagnostic *d, const spvbc__record *r, const spvbc__site *site,
                 const spvbc__site_info *info, const char *message)
{
    memset(d, 0, sizeof *d);
    d->severity = (spvbc_severity)r->severity;
    d->rule = r->rule;
    d->message = message;
    d->word_offset = site->offset;
    d->instruction_index = site->index;
    d->opcode = info->opcode;
    d->result_id = info->result_id;
    d->lowerable = (r->flags & REC_LOWERABLE) != 0;
}

/* Makes diagnostic `d` from record `r` about site `site` of `m` from the diagnostic slot `slot`
 * of `memo` made.  False when the sentence must be made in full, or on allocation failure
 * (`*oom`). */
static bool format_again(const struct spvbc_module_s *m, const spvbc__record *r,
                         const spvbc__site *site, sentence_memo *memo, uint32_t slot,
                         spvbc_diagnostic *d, bool *oom)
{
    /* The same facts but for the site's ids: spvbc__analyze_site_memo() relies on it too. */
    spvbc__site_info *info = &memo->info[slot];
    info->result_id = site->result_id;
    info->operand_id = site->operand_id;
    spvbc__sentence_ids ids;
    spvbc__sentence_ids_of(m, r, info, &ids);
    if (ids.count != memo->id_count[slot]) return false;
    const spvbc_diagnostic *prev = memo->made[slot];
    const uint16_t *id_at = &memo->id_at[slot][0][0];
    const size_t len = spvbc__sentence_again_len(memo->len[slot], id_at, &ids);
    if (len + 1 >= sizeof((spvbc__sentence *)NULL)->message) return false; /* truncated */
    char *message = spvbc__stralloc(m->ctx, len);
    if (!message) {
        *oom = true;
        return false;
    }
    spvbc__sentence_again(message, prev->message, memo->len[slot], id_at, &ids);
    fill(d, r, site, info, message);
    d->operand_type = prev->operand_type;
    d->result_type = prev->result_type;
    d->operand_bits = prev->operand_bits;
    d->result_bits = prev->result_bits;
    d->astype = prev->astype;
    return true;
}

/* Takes into `info` the pass's analysis of the pair `key` (not 0) of `site` under `pad` from
 * `pass` (may be NULL), as spvbc__analyze_site() with the plan would make it.  False when the
 * pass has none. */
static bool from_pass(const spvbc__info_memo *pass, uint64_t key, uint32_t pad,
                      const spvbc__site *site, spvbc__site_info *info)
{
    if (!pass) return false;
    const uint32_t slot = spvbc__pair_hash(key) >> 28; /* as spvbc__analyze_site_memo() */
    if (pass->key[slot] != key || pass->tag[slot] >> 1 != pad) return false;
    *info = pass->info[slot];
    info->result_id = site->result_id;
    info->operand_id = site->operand_id;
    /* The memo holds invalid sites only, whose plan is made whenever they have an as_type
     * pair; without one the plan was left unset where the pass did not want it. */
    if (!info->has_astype) memset(&info->plan, 0, sizeof info->plan);
    return true;
}

/* Makes diagnostic `d` from record `r` about a site of `m`, through `memo` where it can.  False
 * on allocation failure. */
static bool format_record(const struct spvbc_module_s *m, const spvbc__record *r,
                          const spvbc__info_memo *pass, spvbc__info_memo *infos,
                          sentence_memo *memo, spvbc_diagnostic *d)
{
    spvbc_context ctx = m->ctx;
    const spvbc__site *site = &m->sites[r->site];
    const uint64_t key = spvbc__pair_key(m, site);
    const uint32_t fields = (uint32_t)r->msg << 16 | (uint32_t)r->severity << 8 | r->flags;
    const size_t arg = r->msg == SPVBC__MSG_LOWERED ? 0 : r->arg;
    const uint32_t slot = (spvbc__pair_hash(key) ^ fields * 0x9E3779B1u ^ (uint32_t)arg) >> 28;
    if (key && memo->key[slot] == key && memo->fields[slot] == fields && memo->arg[slot] == arg) {
        bool oom = false;
        if (format_again(m, r, site, memo, slot, d, &oom)) return true;
        if (oom) return false;
    }
    spvbc__site_info info;
    /* Always with the plan: the class, definedness and refusal a sentence gives must not depend
     * on the options (--notes) the site was first analysed under. */
    const uint32_t pad = (uint32_t)r->flags >> REC_PAD_SHIFT;
    if (!key || !from_pass(pass, key, pad, site, &info))
        spvbc__analyze_site_memo(m, site, (spvbc_pad_policy)pad, true, infos, &info);

    spvbc__sentence s;
    spvbc__sentence_make(m, r, (r->flags & REC_LOWERABLE) != 0, &info, &s);
    const char *astype = NULL;
    if (s.has_astype && !(astype = spvbc__strndup(ctx, s.astype, s.astype_len))) return false;

    fill(d, r, site, &info, spvbc__strndup(ctx, s.message, s.message_len));
    d->operand_type = spvbc__strndup(ctx, s.operand_type, s.operand_type_len);
    d->result_type = spvbc__strndup(ctx, s.result_type, s.result_type_len);
    d->operand_bits = s.operand_bits;
    d->result_bits = s.result_bits;
    d->astype = astype;
    if (!d->message || !d->operand_type || !d->result_type) return false;
    /* Only an untruncated sentence can be reused. */
    if (key && s.message_len + 1 < sizeof s.message && s.id_count <= SPVBC__SENTENCE_IDS) {
        memo->key[slot] = key;
        memo->fields[slot] = fields;
        memo->arg[slot] = arg;
        memo->made[slot] = d;
        memo->len[slot] = s.message_len;
        memo->id_count[slot] = s.id_count;
        memcpy(memo->id_at[slot], s.id_at, sizeof s.id_at);
        memo->info[slot] = info;
    }
    return true;
}

/* ---- name and source-line resolution ------------------------------------------------------ */

typedef struct want {
    uint32_t id;
    uint32_t kind;
    size_t pending; /* index into the resolved sites */
} want;

enum { WANT_NAME, WANT_FILE, WANT_DEBUG_SOURCE, WANT_LINE_CONST, WANT_COLUMN_CONST };

static int want_cmp(const void *a, const void *b)
{
    const want *x = (const want *)a, *y = (const want *)b;
    return x->id < y->id ? -1 : x->id > y->id;
}

typedef struct resolver {
    const struct spvbc_module_s *m;
    spvbc__site_names *sites; /* what is resolved, per wanted site */
    want *wants;
    size_t count, cap;
    size_t open; /* wants a later instruction may still change: all but the names found */
    bool ok;
} resolver;

static void want_add(resolver *r, uint32_t id, size_t pending, uint32_t kind)
{
    if (!r->ok) return;
    if (r->count == r->cap &&
        !spvbc__grow(r->m->ctx, (void **)&r->wants, &r->cap, sizeof *r->wants, r->count + 1)) {
        r->ok = false;
        return;
    }
    r->wants[r->count++] = (want){id, kind, pending};
}

/* Applies what the preamble instruction at word `off` (defining `id`) says to every want of
 * `id`. */
static void satisfy(resolver *r, uint32_t off, uint32_t wc, uint32_t op, uint32_t id)
{
    want key = {id, 0, 0};
    want *hit = (want *)bsearch(&key, r->wants, r->count, sizeof *r->wants, want_cmp);
    if (!hit) return;
    while (hit > r->wants && hit[-1].id == id)
        --hit;
    const uint32_t *w = r->m->words + off;
    for (; hit < r->wants + r->count && hit->id == id; ++hit) {
        spvbc__site_names *e = &r->sites[hit->pending];
        if (hit->kind == WANT_NAME && op == SpvOpName && !e->name_at) {
            e->name_at = off; /* the first OpName names it: no later one changes it */
            --r->open;
        } else if (hit->kind == WANT_FILE && op == SpvOpString)
            e->file_at = off;
        else if (hit->kind == WANT_DEBUG_SOURCE && op == SpvOpExtInst && wc >= 6 &&
                 w[4] == 35 /* DebugSource */)
            e->debug_source = w[5];
        else if (hit->kind == WANT_LINE_CONST && op == SpvOpConstant)
            e->line = w[3];
        else if (hit->kind == WANT_COLUMN_CONST && op == SpvOpConstant)
            e->column = w[3];
    }
}

/* The bit of `id` in a filter of 2^(32 - `shift`) bits. */
static uint32_t filter_bit(uint32_t id, uint32_t shift)
{
    return (id * 2654435761u) >> shift;
}

/* One pass over the preamble (everything before the first function) for the current wants.  A
 * bit filter over the wanted ids, at least 16 bits per want (1,024 at the least, on the stack
 * up to 4,096), rejects the names and constants nobody wants (most of them) before the binary
 * search. */
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
    uint64_t small[64];
    uint64_t *filter = words <= 64 ? small : (uint64_t *)spvbc__alloc(ctx, words * sizeof *filter);
    if (!filter) {
        r->ok = false;
        return;
    }
    memset(filter, 0, words * sizeof *filter);
    for (size_t i = 0; i < r->count; ++i) {
        const uint32_t bit = filter_bit(r->wants[i].id, shift);
        filter[bit / 64u] |= (uint64_t)1 << (bit % 64u);
    }
    const uint32_t *const words_of = r->m->words;
    const uint32_t end = r->m->functions_offset;
    /* The last OpString, DebugSource or OpConstant of an id counts, the first OpName: when
     * only names are wanted the pass ends once it has found them all. */
    r->open = r->count;
    for (uint32_t off = 5; off < end && r->open;) {
        const uint32_t *w = words_of + off;
        const uint32_t wc = w[0] >> 16, op = w[0] & 0xffffu;
        uint32_t id = 0;
        if ((op == SpvOpName || op == SpvOpString) && wc >= 3)
            id = w[1];
        else if ((op == SpvOpExtInst || op == SpvOpConstant) && wc >= 4)
            id = w[2];
        const uint32_t bit = filter_bit(id, shift);
        if (id && (filter[bit / 64u] >> (bit % 64u) & 1u)) satisfy(r, off, wc, op, id);
        off += wc;
    }
    if (filter != small) spvbc__free(ctx, filter, words * sizeof *filter);
}

static int site_names_cmp(const void *a, const void *b)
{
    const spvbc__site_names *x = (const spvbc__site_names *)a, *y = (const spvbc__site_names *)b;
    return x->site < y->site ? -1 : x->site > y->site;
}

/* Resolves, into the store's resolved sites (replacing them, in record order), the names and
 * source positions of the sites of the `count` records `recs` (one pass over the module's
 * preamble, a second for DebugSource files); `*sorted` tells whether they are sorted by site.
 * False on allocation failure. */
static bool scan_names(spvbc__diag_store *st, const struct spvbc_module_s *m,
                       const spvbc__record *recs, size_t count, bool *sorted)
{
    spvbc_context ctx = m->ctx;
    st->names_module = NULL;
    st->names_count = 0;
    if (!spvbc__grow(ctx, (void **)&st->names, &st->names_cap, sizeof *st->names, count))
        return false;
    resolver r;
    memset(&r, 0, sizeof r);
    r.m = m;
    r.sites = st->names;
    r.ok = true;
    size_t n = 0;
    *sorted = true;
    for (size_t i = 0; i < count && r.ok; ++i) {
        if (recs[i].msg == SPVBC__MSG_FIXED) continue;
        const spvbc__site *site = &m->sites[recs[i].site];
        spvbc__site_names *e = &st->names[n];
        memset(e, 0, sizeof *e);
        e->site = recs[i].site;
        *sorted = *sorted && (n == 0 || e[-1].site <= e->site);
        if (site->result_id) want_add(&r, site->result_id, n, WANT_NAME);
        const uint32_t lo = site->line_offset;
        if (lo) {
            const uint32_t *w = m->words + lo;
            if ((w[0] & 0xffffu) == SpvOpLine) {
                /* OpLine File Line Column */
                want_add(&r, w[1], n, WANT_FILE);
                e->line = w[2];
                e->column = w[3];
            } else {
                /* DebugLine Source LineStart LineEnd ColumnStart ColumnEnd (constant ids) */
                want_add(&r, w[5], n, WANT_DEBUG_SOURCE);
                want_add(&r, w[6], n, WANT_LINE_CONST);
                want_add(&r, w[8], n, WANT_COLUMN_CONST);
            }
        }
        ++n;
    }
    scan_preamble(&r);
    /* DebugSource names its file through an OpString: a second, usually empty, lookup. */
    r.count = 0;
    for (size_t i = 0; i < n && r.ok; ++i)
        if (st->names[i].debug_source) want_add(&r, st->names[i].debug_source, i, WANT_FILE);
    scan_preamble(&r);
    spvbc__free(ctx, r.wants, r.cap * sizeof *r.wants);
    st->names_count = n;
    return r.ok;
}

/* The store's resolved entry of site `site`, or NULL; `*hint` is where the last one was (the
 * records come in module order). */
static const spvbc__site_names *find_names(const spvbc__diag_store *st, uint32_t site, size_t *hint)
{
    const spvbc__site_names *e = st->names;
    size_t h = *hint;
    if (h < st->names_count && e[h].site == site) return &e[h];
    if (h + 1 < st->names_count && e[h + 1].site == site) {
        *hint = h + 1;
        return &e[h + 1];
    }
    size_t lo = 0, hi = st->names_count;
    while (lo < hi) {
        const size_t mid = lo + (hi - lo) / 2;
        if (e[mid].site < site)
            lo = mid + 1;
        else
            hi = mid;
    }
    if (lo == st->names_count || e[lo].site != site) return NULL;
    *hint = lo;
    return &e[lo];
}

/* Copies the literal string starting at word 2 of the instruction at word `off` of `m` into the
 * arena, bounded by the instruction. */
static const char *copy_literal(const struct spvbc_module_s *m, uint32_t off)
{
    const uint32_t *w = m->words + off;
    const uint32_t wc = w[0] >> 16, first = 2;
    if (first >= wc) return NULL;
    char buf[256];
    size_t len = 0;
    size_t max = (size_t)(wc - first) * 4u;
    for (size_t i = 0; i < max && len < sizeof buf - 1; ++i) {
        char ch = (char)(unsigned char)(w[first + i / 4] >> (8 * (i % 4)));
        if (ch == '\0') break;
        buf[len++] = ch;
    }
    return spvbc__strndup(m->ctx, buf, len);
}

/* Fills the result name and source position of diagnostic `d` from `e`, resolved in `m`.  False
 * on allocation failure. */
static bool apply_names(const struct spvbc_module_s *m, const spvbc__site_names *e,
                        spvbc_diagnostic *d)
{
    if (e->name_at && !(d->result_name = copy_literal(m, e->name_at))) return false;
    if (e->file_at && !(d->source_file = copy_literal(m, e->file_at))) return false;
    d->source_line = e->line;
    d->source_column = e->column;
    return true;
}

/* Fills the result names and source positions of the `count` diagnostics at `view` made from
 * the records `recs`: from what an earlier call resolved for the same module when it has every
 * site (validate, then lower), else from a pass over the preamble, kept for the next call.
 * False on allocation failure. */
static bool resolve_names(const struct spvbc_module_s *m, const spvbc__record *recs,
                          spvbc_diagnostic *view, size_t count)
{
    spvbc__diag_store *st = spvbc__context_diags(m->ctx);
    bool known = st->names_module == m;
    size_t hint = 0;
    for (size_t i = 0; i < count && known; ++i)
        known = recs[i].msg == SPVBC__MSG_FIXED || find_names(st, recs[i].site, &hint);
    if (known) {
        hint = 0;
        for (size_t i = 0; i < count; ++i)
            if (recs[i].msg != SPVBC__MSG_FIXED &&
                !apply_names(m, find_names(st, recs[i].site, &hint), &view[i]))
                return false;
        return true;
    }
    bool sorted;
    if (!scan_names(st, m, recs, count, &sorted)) return false;
    const spvbc__site_names *e = st->names;
    for (size_t i = 0; i < count; ++i)
        if (recs[i].msg != SPVBC__MSG_FIXED && !apply_names(m, e++, &view[i])) return false;
    if (!sorted) qsort(st->names, st->names_count, sizeof *st->names, site_names_cmp);
    st->names_module = m;
    return true;
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
static bool make_view(spvbc_context ctx, const spvbc__info_memo *pass)
{
    spvbc__diag_store *st = spvbc__context_diags(ctx);
    if (st->made == st->count) return true;
    if (!spvbc__grow(ctx, (void **)&st->view, &st->view_cap, sizeof *st->view, st->count))
        return false;
    const struct spvbc_module_s *m = st->module;
    const size_t first = st->made;
    spvbc__info_memo infos; /* one analysis per type pair (and padding policy) */
    memset(infos.key, 0, sizeof infos.key);
    sentence_memo memo;
    memset(memo.key, 0, sizeof memo.key);
    for (size_t i = first; i < st->count; ++i) {
        const spvbc__record *r = &st->recs[i];
        if (r->msg == SPVBC__MSG_FIXED)
            st->view[i] = st->fixed[r->arg];
        else if (!m || !format_record(m, r, pass, &infos, &memo, &st->view[i]))
            return false;
    }
    if (m && !resolve_names(m, st->recs + first, st->view + first, st->count - first)) return false;
    st->made = st->count;
    return true;
}

bool spvbc__report_make(spvbc_context ctx, const spvbc__info_memo *pass)
{
    return make_view(ctx, pass);
}

void spvbc__report_detach(struct spvbc_module_s *m)
{
    spvbc__diag_store *st = spvbc__context_diags(m->ctx);
    /* The calls made every diagnostic before returning, so nothing here reads the words or
     * allocates; records a call could not make (it returned OUT_OF_MEMORY) read as R-MEMORY
     * once their module is gone. */
    if (st->module == m) st->module = NULL;
    /* A later module may come at the same address. */
    if (st->names_module == m) st->names_module = NULL;
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
    return make_view(context, NULL) ? &st->view[index] : &oom_diagnostic;
}
