/* Module memory: a module's memory made (by the reader), its output forgotten (by the lowering)
 * and released (by spvbc_module_destroy() or the context). */
#ifndef SPVBC_MODMEM_H_
#define SPVBC_MODMEM_H_

#include "module.h"

/** A fresh module over `word_count` words at `words`, linked into `ctx`'s live modules; NULL
 *  on allocation failure. */
struct spvbc_module_s *spvbc__module_new(spvbc_context ctx, const uint32_t *words,
                                         size_t word_count);
/** Unlinks `m` and releases all its memory (tables go back to the context as spares). */
void spvbc__module_release(struct spvbc_module_s *m);
/** Forgets the lowering's edits and output, as before the first spvbc_module_lower(). */
void spvbc__module_reset_output(struct spvbc_module_s *m);

#endif /* SPVBC_MODMEM_H_ */
