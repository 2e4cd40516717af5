/*
 * layer_map.c - the layers' handle map (see layer_map.h).
 *
 * SPDX-License-Identifier: Apache-2.0
 */
#include "layer_map.h"

#include <stdint.h>
#include <stdlib.h>

/* Handles are aligned heap addresses: the low bits carry nothing, so mix before masking. */
static size_t slot_of(const void *key, size_t cap)
{
    uint64_t h = (uint64_t)(uintptr_t)key;
    h ^= h >> 33;
    h *= 0xff51afd7ed558ccdull;
    h ^= h >> 33;
    return (size_t)h & (cap - 1u);
}

/* The slot holding `key`, or the free slot where it would go (the table is never full). */
static size_t find_slot(const spvbc_layer_map *map, const void *key)
{
    size_t i = slot_of(key, map->cap);
    while (map->keys[i] != NULL && map->keys[i] != key)
        i = (i + 1u) & (map->cap - 1u);
    return i;
}

/* Moves every entry into a table of `cap` slots; 0 (map unchanged) if that cannot be had. */
static int resize(spvbc_layer_map *map, size_t cap)
{
    const void **keys = calloc(cap, sizeof *keys);
    void **values = calloc(cap, sizeof *values);
    if (keys == NULL || values == NULL) {
        free(keys);
        free(values);
        return 0;
    }
    spvbc_layer_map old = *map;
    map->keys = keys;
    map->values = values;
    map->cap = cap;
    for (size_t i = 0; i < old.cap; ++i) {
        if (old.keys[i] == NULL) continue;
        size_t j = find_slot(map, old.keys[i]);
        map->keys[j] = old.keys[i];
        map->values[j] = old.values[i];
    }
    free(old.keys);
    free(old.values);
    return 1;
}

int spvbc_layer_map_put(spvbc_layer_map *map, const void *key, void *value)
{
    if (map == NULL || key == NULL) return 0;
    /* At most three quarters full, so that probes stay short and a free slot always exists. */
    if ((map->count + 1u) * 4u > map->cap * 3u) {
        if (map->cap > SIZE_MAX / 2u / sizeof(void *)) return 0;
        if (!resize(map, map->cap != 0 ? map->cap * 2u : 16u)) return 0;
    }
    size_t i = find_slot(map, key);
    if (map->keys[i] == NULL) {
        map->keys[i] = key;
        ++map->count;
    }
    map->values[i] = value;
    return 1;
}

void *spvbc_layer_map_get(const spvbc_layer_map *map, const void *key)
{
    if (map == NULL || key == NULL || map->cap == 0) return NULL;
    size_t i = find_slot(map, key);
    return map->keys[i] != NULL ? map->values[i] : NULL;
}

void *spvbc_layer_map_take(spvbc_layer_map *map, const void *key)
{
    if (map == NULL || key == NULL || map->cap == 0) return NULL;
    size_t i = find_slot(map, key);
    if (map->keys[i] == NULL) return NULL;
    void *value = map->values[i];
    /* Backward-shift deletion: pull later entries of the same probe run into the hole, so that
     * lookups never need tombstones. */
    size_t mask = map->cap - 1u, hole = i, j = i;
    for (;;) {
        j = (j + 1u) & mask;
        if (map->keys[j] == NULL) break;
        size_t home = slot_of(map->keys[j], map->cap);
        /* Entry j may move to the hole only if its home is not inside (hole, j]. */
        int home_in_between = hole <= j ? (home > hole && home <= j) : (home > hole || home <= j);
        if (home_in_between) continue;
        map->keys[hole] = map->keys[j];
        map->values[hole] = map->values[j];
        hole = j;
    }
    map->keys[hole] = NULL;
    map->values[hole] = NULL;
    --map->count;
    return value;
}

void spvbc_layer_map_clear(spvbc_layer_map *map, void (*free_value)(void *))
{
    if (map == NULL) return;
    for (size_t i = 0; i < map->cap && free_value != NULL; ++i)
        if (map->keys[i] != NULL) free_value(map->values[i]);
    free(map->keys);
    free(map->values);
    map->keys = NULL;
    map->values = NULL;
    map->cap = 0;
    map->count = 0;
}
