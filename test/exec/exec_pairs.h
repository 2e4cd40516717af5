/*
 * exec_pairs.h - the as_type pairs of the Vulkan execution suite, shared by exec_astype.c and
 * bench/mesa_cost.c (exec_pairs.c).
 *
 * SPDX-License-Identifier: Apache-2.0
 */
#ifndef SPVBC_EXEC_PAIRS_H
#define SPVBC_EXEC_PAIRS_H

#include <stddef.h>
#include <stdint.h>

#include "astype_gen.h"
#include "astype_ref.h"
#include "vkrun.h"

/* At most this many types (the generator's OpenCL types of at most 4 lanes: 44). */
#define MAX_TYPES 64

/* The 44 types of at most 4 lanes, in the generator's order, into `out` (MAX_TYPES). */
size_t exec_vulkan_types(spvbc_type_desc *out);
/* Why the device cannot run a module using `t`, or NULL if it can. */
const char *exec_missing_feature(const vkr_features *f, const spvbc_type_desc *t);
/* The naive Vulkan module of as_<d>(<s>) (one OpBitcast), assembled, malloc'd; NULL when it
 * could not be made. */
uint32_t *exec_assemble_pair(const spvbc_type_desc *s, const spvbc_type_desc *d, size_t *n);
/* Opens the Vulkan device, describes it into `desc` and prints it; 0, 77 (no device) or 1. */
int exec_open_device(vkr_context **vk, char *desc, size_t desc_size);

/* An ordered pair of the Vulkan types whose OpenCL sizes agree and whose SPIR-V types differ:
 * its indexes into the type list, its types, class and OpenCL names. */
typedef struct exec_type_pair {
    size_t i, j;
    const spvbc_type_desc *s, *d;
    pair_class pc;
    char sn[16], dn[16];
} exec_type_pair;

/* Steps `*k` (0 to start) through the `nt` x `nt` ordered pairs of `types`, source-major, to
 * the next such pair, which it writes to `p`; returns 0 when there is none. */
int exec_next_pair(const spvbc_type_desc *types, size_t nt, size_t *k, exec_type_pair *p);

#endif
