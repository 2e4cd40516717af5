/* Writer: the lowered module as spans of the input and the edit list's new words, streamed or
 * materialised once. */
#include <string.h>

#include "context.h"

/* Whether the edits of `m` are in order and inside what they name: each starts at or after
 * the end of the one before (never in the header), drops only words of the input and emits
 * only words of the edit buffer.  Then the output is exactly as long as get_words sizes it;
 * an edit list that breaks this (a bug of the lowering, which no input can reach) would make
 * the write go backwards and past the output, so it is refused instead. */
static bool edits_ok(const struct spvbc_module_s *m)
{
    size_t pos = 5;
    for (size_t i = 0; i < m->edit_count; ++i) {
        const spvbc__edit *e = &m->edits[i];
        if (e->offset < pos || e->offset > m->word_count || e->remove > m->word_count - e->offset ||
            e->first > m->edit_word_count || e->count > m->edit_word_count - e->first)
            return false;
        pos = (size_t)e->offset + e->remove;
    }
    return true;
}

spvbc_result spvbc_module_write(spvbc_module module, spvbc_write_fn fn, void *user)
{
    if (!module || !fn) return SPVBC_ERROR_INVALID_ARGUMENT;
    const uint32_t *w = module->words;
    if (!module->changed) {
        if (fn(user, w, module->word_count)) return SPVBC_ERROR_STOPPED;
        return SPVBC_SUCCESS;
    }
    if (!edits_ok(module)) return SPVBC_ERROR_UNSUPPORTED;
    uint32_t header[5] = {w[0], w[1], w[2], module->out_bound, w[4]};
    if (fn(user, header, 5)) return SPVBC_ERROR_STOPPED;
    size_t pos = 5;
    for (size_t i = 0; i < module->edit_count; ++i) {
        const spvbc__edit *e = &module->edits[i];
        if (e->offset > pos && fn(user, w + pos, e->offset - pos)) return SPVBC_ERROR_STOPPED;
        if (fn(user, module->edit_words + e->first, e->count)) return SPVBC_ERROR_STOPPED;
        pos = e->offset + e->remove;
    }
    if (pos < module->word_count && fn(user, w + pos, module->word_count - pos))
        return SPVBC_ERROR_STOPPED;
    return SPVBC_SUCCESS;
}

typedef struct collect {
    uint32_t *dst;
    size_t at, cap; /* words written, words sized */
} collect;

static int collect_fn(void *user, const uint32_t *words, size_t count)
{
    collect *c = (collect *)user;
    if (count > c->cap - c->at) return 1; /* never past what get_words sized */
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
        if (!edits_ok(module)) return SPVBC_ERROR_UNSUPPORTED;
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
        collect c = {out, 0, total};
        if (spvbc_module_write(module, collect_fn, &c) != SPVBC_SUCCESS || c.at != total) {
            spvbc__give_spare(module->ctx, SPVBC__SPARE_OUT, out, bytes);
            return SPVBC_ERROR_UNSUPPORTED;
        }
        module->out = out;
        module->out_count = total;
        module->out_bytes = bytes;
    }
    *out_words = module->out;
    *out_word_count = module->out_count;
    return SPVBC_SUCCESS;
}
