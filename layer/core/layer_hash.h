/*
 * layer_hash.h - the hash the layers' log names modules by.
 *
 * SPDX-License-Identifier: Apache-2.0
 */
#ifndef SPVBC_LAYER_HASH_H_
#define SPVBC_LAYER_HASH_H_

#include <stddef.h>
#include <stdint.h>

/** XXH64 (seed 0) of `size` bytes: the value `xxh64sum` prints for them (of no bytes when
 *  `bytes` is NULL). */
uint64_t spvbc_layer_hash(const void *bytes, size_t size);

#endif /* SPVBC_LAYER_HASH_H_ */
