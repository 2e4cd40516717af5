/*
 * vk_rewrite.c - create infos with lowered modules, and the report of each module's outcome
 * (see vk_rewrite.h).
 *
 * SPDX-License-Identifier: Apache-2.0
 */
#include "vk_rewrite.h"

#include <stdlib.h>
#include <string.h>

#include "vk_messenger.h"
#include "vk_shader_object.h"

struct spvbc_vkl_pending {
    spvbc_layer_outcome *o;
    const char *api;
    const void *code; /* the caller's, alive until the driver call returns */
    size_t code_size;
    uint32_t index;
};

void spvbc_vkl_report(const spvbc_layer_config *cfg, const void *instance, const char *api,
                      const void *code, size_t code_size, const spvbc_layer_outcome *o,
                      VkObjectType type, uint64_t handle)
{
    size_t told = 0;
    if (o == NULL || !o->say) return;
    if (instance != NULL)
        told = spvbc_vkl_messenger_report(instance, api, code, code_size, o, type, handle);
    if (told == 0 || !cfg->log_to_stderr) spvbc_layer_log_outcome(cfg, api, code, code_size, o);
}

/* Keeps outcome `o` in `s` until the driver's answer (a copy: it is large); reports it at once
 * where the instance has no messenger to name the object to, or without memory. */
static void later(spvbc_vkl_scratch *s, const char *api, const void *code, size_t code_size,
                  const spvbc_layer_outcome *o)
{
    if (s->instance != NULL && spvbc_vkl_messenger_any(s->instance)) {
        spvbc_layer_outcome *copy = malloc(sizeof *copy);
        if (copy != NULL && s->pending_count == s->pending_cap) {
            size_t cap = s->pending_cap ? s->pending_cap * 2u : 4u;
            spvbc_vkl_pending *p = realloc(s->pending, cap * sizeof *p);
            if (p != NULL) {
                s->pending = p;
                s->pending_cap = cap;
            }
        }
        if (copy != NULL && s->pending_count < s->pending_cap) {
            *copy = *o;
            /* The findings point into the outcome's own text: moved with it. */
            for (size_t i = 0; i < copy->finding_count; ++i) {
                copy->findings[i].rule = copy->text + (o->findings[i].rule - o->text);
                copy->findings[i].message = copy->text + (o->findings[i].message - o->text);
            }
            s->pending[s->pending_count++] =
                (spvbc_vkl_pending){copy, api, code, code_size, s->index};
            return;
        }
        free(copy);
    }
    spvbc_vkl_report(s->cfg, s->instance, api, code, code_size, o, VK_OBJECT_TYPE_UNKNOWN, 0);
}

/* spvbc_layer_decide() for a module of a create info in `s`; its outcome reported later. */
static int decide(spvbc_vkl_scratch *s, const char *api, const void *code, size_t code_size,
                  uint32_t **out_code, size_t *out_size)
{
    spvbc_layer_outcome o;
    int replaced = spvbc_layer_decide(s->cfg, code, code_size, &o, out_code, out_size);
    if (o.say) later(s, api, code, code_size, &o);
    return replaced;
}

void spvbc_vkl_scratch_finish(spvbc_vkl_scratch *s, VkObjectType type, const void *handles,
                              uint32_t count)
{
    for (size_t i = 0; i < s->pending_count; ++i) {
        const spvbc_vkl_pending *p = &s->pending[i];
        uint64_t handle = 0;
        if (handles != NULL && p->index < count)
            memcpy(&handle, (const unsigned char *)handles + (size_t)p->index * sizeof(VkPipeline),
                   sizeof(VkPipeline));
        spvbc_vkl_report(s->cfg, s->instance, p->api, p->code, p->code_size, p->o,
                         handle != 0 ? type : VK_OBJECT_TYPE_UNKNOWN, handle);
        free(p->o);
    }
    free(s->pending);
    for (size_t i = 0; i < s->count; ++i)
        free(s->blocks[i]);
    free(s->blocks);
}

/* Memory the rewritten create infos point into; freed after the driver call. */

/* Makes `s` own `p` (freed by scratch_free); frees `p` and returns NULL if that fails. */
static void *scratch_adopt(spvbc_vkl_scratch *s, void *p)
{
    if (p == NULL || s->failed) {
        free(p);
        s->failed = 1;
        return NULL;
    }
    if (s->count == s->cap) {
        size_t cap = s->cap ? s->cap * 2u : 16u;
        void **b = realloc(s->blocks, cap * sizeof *b);
        if (b == NULL) {
            free(p);
            s->failed = 1;
            return NULL;
        }
        s->blocks = b;
        s->cap = cap;
    }
    s->blocks[s->count++] = p;
    return p;
}

static void *scratch_alloc(spvbc_vkl_scratch *s, size_t size)
{
    return scratch_adopt(s, calloc(1, size != 0 ? size : 1));
}

/* The caller's array of `bytes` at `src`, copied into `s` the first time (`*copy` is NULL) so
 * that elements can be rewritten; returns the copy, or NULL if allocation failed. */
static void *copy_once(spvbc_vkl_scratch *s, void *copy, const void *src, size_t bytes)
{
    if (copy != NULL) return copy;
    copy = scratch_alloc(s, bytes);
    if (copy != NULL) memcpy(copy, src, bytes);
    return copy;
}

/* The size of a structure that may stand in front of a chained VkShaderModuleCreateInfo in a
 * stage's pNext chain, or 0 if this layer does not know it (then the stage is left alone). */
static size_t known_stage_struct_size(VkStructureType t)
{
    switch (t) {
    case VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_REQUIRED_SUBGROUP_SIZE_CREATE_INFO:
        return sizeof(VkPipelineShaderStageRequiredSubgroupSizeCreateInfo);
    case VK_STRUCTURE_TYPE_DEBUG_UTILS_OBJECT_NAME_INFO_EXT:
        return sizeof(VkDebugUtilsObjectNameInfoEXT);
    case VK_STRUCTURE_TYPE_PIPELINE_ROBUSTNESS_CREATE_INFO_EXT:
        return sizeof(VkPipelineRobustnessCreateInfoEXT);
    case VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_MODULE_IDENTIFIER_CREATE_INFO_EXT:
        return sizeof(VkPipelineShaderStageModuleIdentifierCreateInfoEXT);
    default: return 0;
    }
}

/* If `stage` chains a VkShaderModuleCreateInfo that the layer replaces, writes a rewritten copy
 * of the stage to `*out` (its chain partly copied into `s`) and returns 1; else returns 0. */
static int rewrite_stage(const VkPipelineShaderStageCreateInfo *stage, const char *api,
                         spvbc_vkl_scratch *s, VkPipelineShaderStageCreateInfo *out)
{
    const VkBaseInStructure *smci_node = NULL;
    size_t before = 0;
    for (const VkBaseInStructure *n = stage->pNext; n != NULL; n = n->pNext) {
        if (n->sType == VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO) {
            smci_node = n;
            break;
        }
        ++before;
    }
    if (smci_node == NULL) return 0;
    const VkShaderModuleCreateInfo *smci =
        (const VkShaderModuleCreateInfo *)(const void *)smci_node;
    for (const VkBaseInStructure *n = stage->pNext; n != smci_node; n = n->pNext) {
        if (known_stage_struct_size(n->sType) == 0) {
            spvbc_layer_log(s->cfg,
                            "spvbc-layer: %s: a chained VkShaderModuleCreateInfo follows structure "
                            "type %d, which this layer cannot copy: module passed on unchecked",
                            api, (int)n->sType);
            return 0;
        }
    }
    uint32_t *code = NULL;
    size_t size = 0;
    if (!decide(s, api, smci->pCode, smci->codeSize, &code, &size)) return 0;
    if (scratch_adopt(s, code) == NULL) return 0;
    VkShaderModuleCreateInfo *new_smci = scratch_alloc(s, sizeof *new_smci);
    if (new_smci == NULL) return 0;
    *new_smci = *smci;
    new_smci->pCode = code;
    new_smci->codeSize = size;
    /* Copy the structures in front of it so that the last one points at the copy. */
    const void *head = new_smci;
    if (before > 0) {
        VkBaseOutStructure **copies = scratch_alloc(s, before * sizeof *copies);
        if (copies == NULL) return 0;
        size_t i = 0;
        for (const VkBaseInStructure *n = stage->pNext; n != smci_node; n = n->pNext, ++i) {
            size_t sz = known_stage_struct_size(n->sType);
            copies[i] = scratch_alloc(s, sz);
            if (copies[i] == NULL) return 0;
            memcpy(copies[i], n, sz);
        }
        for (i = 0; i + 1 < before; ++i)
            copies[i]->pNext = copies[i + 1];
        copies[before - 1]->pNext = (VkBaseOutStructure *)(void *)new_smci;
        head = copies[0];
    }
    *out = *stage;
    out->pNext = head;
    return 1;
}

/* A create info the layer may rewrite, on the stack until the caller's array is copied. */
typedef union any_info {
    VkComputePipelineCreateInfo compute;
    VkRayTracingPipelineCreateInfoKHR ray_tracing;
    VkRayTracingPipelineCreateInfoNV ray_tracing_nv;
    VkGraphicsPipelineCreateInfo graphics; /* a stage is part of a compute create info */
    VkShaderCreateInfoEXT shader;
} any_info;

/* What to pass on for the `count` elements of `size` bytes at `infos`: a copy in `s` with the
 * elements `rewrite` changed, or where none was (or anything failed: s->failed) `infos`. */
const void *spvbc_vkl_rewrite_infos(spvbc_vkl_scratch *s, const void *infos, uint32_t count,
                                    size_t size, spvbc_vkl_rewrite_fn rewrite)
{
    if (s->cfg->mode == SPVBC_LAYER_MODE_OFF || infos == NULL || count == 0 ||
        size > sizeof(any_info))
        return infos;
    unsigned char *copy = NULL;
    any_info one;
    const int top = s->depth++ == 0; /* the call's own array, not a pipeline's stages */
    for (uint32_t i = 0; i < count && !s->failed; ++i) {
        const unsigned char *in = (const unsigned char *)infos + (size_t)i * size;
        if (top) s->index = i;
        memcpy(&one, in, size);
        if (!rewrite(in, &one, s)) continue;
        copy = copy_once(s, copy, infos, (size_t)count * size);
        if (copy == NULL) break;
        memcpy(copy + (size_t)i * size, &one, size);
    }
    --s->depth;
    return (copy != NULL && !s->failed) ? copy : infos;
}

int spvbc_vkl_rewrite_compute(const void *in, void *out, spvbc_vkl_scratch *s)
{
    return rewrite_stage(&((const VkComputePipelineCreateInfo *)in)->stage,
                         "vkCreateComputePipelines", s,
                         &((VkComputePipelineCreateInfo *)out)->stage);
}

static int rewrite_graphics_stage(const void *in, void *out, spvbc_vkl_scratch *s)
{
    return rewrite_stage(in, "vkCreateGraphicsPipelines", s, out);
}

int spvbc_vkl_rewrite_graphics(const void *in, void *out, spvbc_vkl_scratch *s)
{
    const VkGraphicsPipelineCreateInfo *ci = in;
    const VkPipelineShaderStageCreateInfo *stages = spvbc_vkl_rewrite_infos(
        s, ci->pStages, ci->stageCount, sizeof *ci->pStages, rewrite_graphics_stage);
    ((VkGraphicsPipelineCreateInfo *)out)->pStages = stages;
    return stages != ci->pStages;
}

static int rewrite_ray_tracing_stage(const void *in, void *out, spvbc_vkl_scratch *s)
{
    return rewrite_stage(in, "vkCreateRayTracingPipelinesKHR", s, out);
}

int spvbc_vkl_rewrite_ray_tracing(const void *in, void *out, spvbc_vkl_scratch *s)
{
    const VkRayTracingPipelineCreateInfoKHR *ci = in;
    const VkPipelineShaderStageCreateInfo *stages = spvbc_vkl_rewrite_infos(
        s, ci->pStages, ci->stageCount, sizeof *ci->pStages, rewrite_ray_tracing_stage);
    ((VkRayTracingPipelineCreateInfoKHR *)out)->pStages = stages;
    return stages != ci->pStages;
}

static int rewrite_ray_tracing_nv_stage(const void *in, void *out, spvbc_vkl_scratch *s)
{
    return rewrite_stage(in, "vkCreateRayTracingPipelinesNV", s, out);
}

int spvbc_vkl_rewrite_ray_tracing_nv(const void *in, void *out, spvbc_vkl_scratch *s)
{
    const VkRayTracingPipelineCreateInfoNV *ci = in;
    const VkPipelineShaderStageCreateInfo *stages = spvbc_vkl_rewrite_infos(
        s, ci->pStages, ci->stageCount, sizeof *ci->pStages, rewrite_ray_tracing_nv_stage);
    ((VkRayTracingPipelineCreateInfoNV *)out)->pStages = stages;
    return stages != ci->pStages;
}

/* Each SPIR-V create info is lowered on its own, as vkCreateShaderModule would: a set of linked
 * stages (VK_SHADER_CREATE_LINK_STAGE_BIT_EXT) stays linked, since only pCode and codeSize of
 * a copy change.  Binary code is passed on untouched. */
int spvbc_vkl_rewrite_shader(const void *in, void *out, spvbc_vkl_scratch *s)
{
    const VkShaderCreateInfoEXT *ci = in;
    uint32_t *code = NULL;
    size_t size = 0;
    if (ci->codeType != VK_SHADER_CODE_TYPE_SPIRV_EXT ||
        !decide(s, "vkCreateShadersEXT", ci->pCode, ci->codeSize, &code, &size) ||
        scratch_adopt(s, code) == NULL)
        return 0;
    ((VkShaderCreateInfoEXT *)out)->pCode = code;
    ((VkShaderCreateInfoEXT *)out)->codeSize = size;
    return 1;
}
