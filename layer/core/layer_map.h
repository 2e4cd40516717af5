/*
 * layer_map.h - a map from handles to records, with no fixed size, for the layers' bookkeeping
 * (Vulkan instances and devices, OpenCL programs).
 *
 * Open addressing with linear probing, keyed by pointer; it grows by doubling and never limits
 * how many handles it holds (only memory does).  It has no lock: every caller guards its map with
 * its own mutex.  Keys are non-NULL pointers; values are the caller's (usually malloc'd records).
 *
 * SPDX-License-Identifier: Apache-2.0
 */
#ifndef SPVBC_LAYER_MAP_H_
#define SPVBC_LAYER_MAP_H_

#include <stddef.h>

typedef struct spvbc_layer_map {
    const void **keys; /**< `cap` slots; NULL marks a free one */
    void **values;
    size_t cap; /**< 0 or a power of two */
    size_t count; /**< occupied slots */
} spvbc_layer_map;

/** An empty map (no memory until the first put). */
#define SPVBC_LAYER_MAP_INIT                                                                       \
    {                                                                                              \
        NULL, NULL, 0, 0                                                                           \
    }

/** Stores `value` under `key` (replacing an earlier value; `key` must not be NULL).  Returns 1,
 *  or 0 with the map unchanged when memory for a larger table cannot be had. */
int spvbc_layer_map_put(spvbc_layer_map *map, const void *key, void *value);

/** The value stored under `key`, or NULL. */
void *spvbc_layer_map_get(const spvbc_layer_map *map, const void *key);

/** Removes `key` and returns its value (NULL if it was not there). */
void *spvbc_layer_map_take(spvbc_layer_map *map, const void *key);

/** Removes every entry, handing each value to `free_value` (if not NULL), and frees the table. */
void spvbc_layer_map_clear(spvbc_layer_map *map, void (*free_value)(void *));

#endif /* SPVBC_LAYER_MAP_H_ */
