/* Types: the module's id and type table, and the memory of a module (made by the reader,
 * released by spvbc_module_destroy() or the context). */
#ifndef SPVBC_TYPES_H_
#define SPVBC_TYPES_H_

#include "module.h"

/** A fresh module over `word_count` words at `words`, linked into `ctx`'s live modules; NULL
 *  on allocation failure. */
struct spvbc_module_s *spvbc__module_new(spvbc_context ctx, const uint32_t *words,
                                         size_t word_count);
/** Unlinks `m` and releases all its memory (tables go back to the context as spares). */
void spvbc__module_release(struct spvbc_module_s *m);
/** Forgets the lowering's edits and output, as before the first spvbc_module_lower(). */
void spvbc__module_reset_output(struct spvbc_module_s *m);

/** Why a type declaration was rejected: `fmt` is a sentence with at most one %u for `arg`. */
typedef struct spvbc__type_error {
    const char *rule;
    const char *fmt;
    uint32_t arg;
} spvbc__type_error;

/** Declares the type that the `wc`-word instruction `w` (opcode `op`, at word `offset`)
 *  gives result id `id`.  Returns SPVBC_SUCCESS, SPVBC_ERROR_OUT_OF_MEMORY, or an
 *  invalid-binary / invalid-id / unsupported result with `*err` saying why. */
spvbc_result spvbc__declare_type(struct spvbc_module_s *m, uint32_t op, const uint32_t *w,
                                 uint32_t wc, uint32_t id, size_t offset, spvbc__type_error *err);

#endif /* SPVBC_TYPES_H_ */
