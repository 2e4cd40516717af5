/* Types: the module's id and type table, each type declaration as the reader meets it. */
#ifndef SPVBC_TYPES_H_
#define SPVBC_TYPES_H_

#include "base.h"
#include "module.h"

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

/** After the walk: gives the cooperative types the values of their shape operands (the
 *  OpConstant 32-bit integers they name).  SPVBC_SUCCESS or SPVBC_ERROR_OUT_OF_MEMORY (whose
 *  diagnostic the caller records). */
spvbc_result spvbc__resolve_shapes(struct spvbc_module_s *m);

#endif /* SPVBC_TYPES_H_ */
