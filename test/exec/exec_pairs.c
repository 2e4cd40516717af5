/*
 * exec_pairs.c - what the execution suite (exec_astype.c) and the Mesa cost benchmark
 * (bench/mesa_cost.c) share: the Vulkan types, the device's features they need, the naive
 * module of a pair, the device, and the walk over the pairs.
 *
 * SPDX-License-Identifier: Apache-2.0
 */
#include <stdio.h>
#include <stdlib.h>

#include "exec_pairs.h"

/* The 44 types of at most 4 lanes, in the generator's order. */
size_t exec_vulkan_types(spvbc_type_desc *out)
{
    spvbc_type_desc all[SPVBC_GEN_OPENCL_TYPE_COUNT];
    size_t n = spvbc_gen_opencl_types(all), k = 0;
    for (size_t i = 0; i < n && k < MAX_TYPES; ++i)
        if (all[i].count <= 4) out[k++] = all[i];
    return k;
}

/* Why the device cannot run a module using `t`, or NULL if it can. */
const char *exec_missing_feature(const vkr_features *f, const spvbc_type_desc *t)
{
    if (t->kind == SPVBC_SCALAR_FLOAT) {
        if (t->width == 16 && !f->shader_float16) return "half: no shaderFloat16";
        if (t->width == 16 && !f->storage_buffer16) return "half: no storageBuffer16BitAccess";
        if (t->width == 64 && !f->shader_float64) return "double: no shaderFloat64";
        return NULL;
    }
    if (t->width == 8 && !f->shader_int8) return "8-bit: no shaderInt8";
    if (t->width == 8 && !f->storage_buffer8) return "8-bit: no storageBuffer8BitAccess";
    if (t->width == 16 && !f->shader_int16) return "16-bit int: no shaderInt16";
    if (t->width == 16 && !f->storage_buffer16) return "16-bit int: no storageBuffer16BitAccess";
    if (t->width == 64 && !f->shader_int64) return "64-bit int: no shaderInt64";
    return NULL;
}

/* The naive Vulkan module of as_<d>(<s>), assembled; NULL when it could not be made. */
uint32_t *exec_assemble_pair(const spvbc_type_desc *s, const spvbc_type_desc *d, size_t *n)
{
    char *text = spvbc_gen_astype_text(s, d, SPVBC_GEN_VULKAN);
    if (text == NULL) return NULL;
    uint32_t *words = NULL;
    int rc = spvbc_gen_assemble(text, spvbc_gen_target_env(SPVBC_GEN_VULKAN), &words, n);
    free(text);
    return rc == 0 ? words : NULL;
}

/* Opens the Vulkan device and prints what it is; 0, 77 (no device) or 1. */
int exec_open_device(vkr_context **vk, char *desc, size_t desc_size)
{
    char msg[512];
    vkr_status st = vkr_create(NULL, vk, msg, sizeof msg);
    if (st == VKR_NO_DEVICE) {
        printf("exec: SKIP: no Vulkan device: %s\n", msg);
        return 77;
    }
    if (st != VKR_OK) {
        printf("exec: FAIL: cannot set up the Vulkan device: %s\n", msg);
        return 1;
    }
    vkr_describe(*vk, desc, desc_size);
    const vkr_device_info *info = vkr_info(*vk);
    const vkr_features *f = vkr_get_features(*vk);
    printf("exec: device %u of %u: %s\n", info->device_index, info->device_count, desc);
    printf("exec: features: shaderInt8=%d shaderInt16=%d shaderInt64=%d shaderFloat16=%d "
           "shaderFloat64=%d storageBuffer8BitAccess=%d storageBuffer16BitAccess=%d "
           "shaderDenormPreserveFloat32=%d chainedModule=%d\n",
           f->shader_int8, f->shader_int16, f->shader_int64, f->shader_float16, f->shader_float64,
           f->storage_buffer8, f->storage_buffer16, f->float_controls_preserve32,
           f->chained_module);
    return 0;
}

/* Steps `*k` (0 to start) through the `nt` x `nt` ordered pairs of `types`, source-major, to
 * the next such pair, which it writes to `p`; returns 0 when there is none. */
int exec_next_pair(const spvbc_type_desc *types, size_t nt, size_t *k, exec_type_pair *p)
{
    while (*k < nt * nt) {
        p->i = *k / nt;
        p->j = *k % nt;
        ++*k;
        p->s = &types[p->i];
        p->d = &types[p->j];
        if (ref_same_spirv_type(p->s, p->d) || ref_opencl_bytes(p->s) != ref_opencl_bytes(p->d))
            continue;
        p->pc = ref_classify(p->s, p->d);
        spvbc_gen_type_name(p->s, p->sn, sizeof p->sn);
        spvbc_gen_type_name(p->d, p->dn, sizeof p->dn);
        return 1;
    }
    return 0;
}
