/* ABI: the growable public structs.  Each starts with `size_t struct_size`, the size the caller
 * was compiled with; these copy between the caller's struct and the library's own, reading or
 * writing only the bytes both know (the header's "growable structs" convention).  Not
 * installed. */
#ifndef SPVBC_ABI_H_
#define SPVBC_ABI_H_

#include <stdbool.h>
#include <stddef.h>
#include <string.h>

#include "spirv_bitcast.h"

/* The size of `type` up to and including `last`: the size of its first growable version (0.2.0)
 * when `last` is the last field it had.  A later version appends fields and keeps these. */
#define SPVBC__SIZE_TO(type, last) (offsetof(type, last) + sizeof(((type *)0)->last))
#define SPVBC__MIN_ALLOCATOR SPVBC__SIZE_TO(spvbc_allocator, user)
#define SPVBC__MIN_PLAN_OPTIONS SPVBC__SIZE_TO(spvbc_plan_options, pad)
#define SPVBC__MIN_PLAN SPVBC__SIZE_TO(spvbc_plan, ops)
#define SPVBC__MIN_PARSE_OPTIONS SPVBC__SIZE_TO(spvbc_parse_options, copy_words)
#define SPVBC__MIN_MODULE_INFO SPVBC__SIZE_TO(spvbc_module_info, byte_swapped)
#define SPVBC__MIN_VALIDATE_OPTIONS SPVBC__SIZE_TO(spvbc_validate_options, flags)
#define SPVBC__MIN_VALIDATE_SUMMARY SPVBC__SIZE_TO(spvbc_validate_summary, lowerable)
#define SPVBC__MIN_LOWER_OPTIONS SPVBC__SIZE_TO(spvbc_lower_options, classes)
#define SPVBC__MIN_LOWER_SUMMARY SPVBC__SIZE_TO(spvbc_lower_summary, new_id_bound)

/** Copies the caller's input struct `in` (NULL: none) into `out` (`known` bytes, already holding
 *  the defaults; its struct_size becomes `known`).  SPVBC_ERROR_INVALID_ARGUMENT when its
 *  struct_size is below `min`, SPVBC_ERROR_UNSUPPORTED when it sets a byte beyond the `known`
 *  ones (a later version's field that this library cannot honour). */
static inline spvbc_result spvbc__struct_in(const void *in, void *out, size_t known, size_t min)
{
    memcpy(out, &known, sizeof known);
    if (!in) return SPVBC_SUCCESS;
    size_t size;
    memcpy(&size, in, sizeof size);
    if (size < min) return SPVBC_ERROR_INVALID_ARGUMENT;
    const unsigned char *bytes = (const unsigned char *)in;
    for (size_t i = known; i < size; ++i)
        if (bytes[i]) return SPVBC_ERROR_UNSUPPORTED;
    memcpy((unsigned char *)out + sizeof size, bytes + sizeof size,
           (size < known ? size : known) - sizeof size);
    return SPVBC_SUCCESS;
}

/** Whether the caller's output struct `out` has room for this version's first fields. */
static inline bool spvbc__struct_out_ok(const void *out, size_t min)
{
    size_t size;
    memcpy(&size, out, sizeof size);
    return size >= min;
}

/** Writes `val` (`known` bytes) into the caller's output struct `out` (checked with
 *  spvbc__struct_out_ok): the bytes both know, the caller's struct_size kept.  Nothing beyond
 *  the bytes this library knows is written: a later version's fields keep what the caller
 *  set (the INIT macros: zero). */
static inline void spvbc__struct_out(void *out, const void *val, size_t known)
{
    size_t size;
    memcpy(&size, out, sizeof size);
    unsigned char *bytes = (unsigned char *)out;
    memcpy(bytes + sizeof size, (const unsigned char *)val + sizeof size,
           (size < known ? size : known) - sizeof size);
}

/** The arguments of a pass (validate, lower): the caller's `options` (NULL: the defaults) into
 *  `opt` (`known` bytes, cleared first), and a check that `summary` (NULL: none wanted) has
 *  room for `min_summary` bytes.  SPVBC_SUCCESS or the error of spvbc__struct_in(). */
static inline spvbc_result spvbc__pass_args(const void *options, void *opt, size_t known,
                                            size_t min, const void *summary, size_t min_summary)
{
    memset(opt, 0, known);
    spvbc_result r = spvbc__struct_in(options, opt, known, min);
    if (r != SPVBC_SUCCESS) return r;
    return summary && !spvbc__struct_out_ok(summary, min_summary) ? SPVBC_ERROR_INVALID_ARGUMENT
                                                                  : SPVBC_SUCCESS;
}

#endif /* SPVBC_ABI_H_ */
