/* Module memory: a module's memory made (for the reader), its lowering output forgotten (for
 * the lowering) and all of it released (by spvbc_module_destroy() or the context).  The words
 * stay the caller's. */
#include <string.h>

#include "context.h"
#include "modmem.h"

static void release_live(spvbc__live *self)
{
    /* `live` is the module's first member. */
    spvbc__module_release((struct spvbc_module_s *)(void *)self);
}

struct spvbc_module_s *spvbc__module_new(spvbc_context ctx, const uint32_t *words,
                                         size_t word_count)
{
    struct spvbc_module_s *m = (struct spvbc_module_s *)spvbc__alloc(ctx, sizeof *m);
    if (!m) return NULL;
    memset(m, 0, sizeof *m);
    m->ctx = ctx;
    m->words = words;
    m->word_count = word_count;
    m->addressing = ~0u;
    m->live.release = release_live;
    spvbc__live_link(ctx, &m->live);
    return m;
}

void spvbc__module_reset_output(struct spvbc_module_s *m)
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

void spvbc__module_release(struct spvbc_module_s *m)
{
    spvbc_context ctx = m->ctx;
    spvbc__live_unlink(ctx, &m->live);
    spvbc__free(ctx, m->owned, m->owned_count * 4);
    spvbc__give_spare(ctx, SPVBC__SPARE_IDS, m->ids, m->ids_bytes);
    spvbc__free(ctx, m->types, m->type_cap * sizeof *m->types);
    spvbc__give_spare(ctx, SPVBC__SPARE_SITES, m->sites, m->site_cap * sizeof *m->sites);
    spvbc__free(ctx, m->edits, m->edit_cap * sizeof *m->edits);
    spvbc__free(ctx, m->edit_words, m->edit_word_cap * 4);
    spvbc__give_spare(ctx, SPVBC__SPARE_OUT, m->out, m->out_bytes);
    spvbc__free(ctx, m, sizeof *m);
}
