/*
 * vk_messenger.c - the application's debug messengers and the messages the layer sends them
 * (see vk_messenger.h).
 *
 * SPDX-License-Identifier: Apache-2.0
 */
#include "vk_messenger.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "layer_map.h"

/* One messenger: what its create info asked for. */
typedef struct messenger {
    VkDebugUtilsMessengerEXT handle;
    VkDebugUtilsMessageSeverityFlagsEXT severities;
    VkDebugUtilsMessageTypeFlagsEXT types;
    PFN_vkDebugUtilsMessengerCallbackEXT callback;
    void *user;
} messenger;

/* The messengers of one instance. */
typedef struct messengers {
    size_t count, cap;
    messenger *list;
} messengers;

/* The most messengers one report calls (an application has one or two). */
#define MAX_CALLED 16

static pthread_mutex_t g_lock = PTHREAD_MUTEX_INITIALIZER;
static spvbc_layer_map g_instances = SPVBC_LAYER_MAP_INIT; /* dispatch key -> messengers */

static void free_messengers(void *p)
{
    messengers *ms = p;
    if (ms != NULL) free(ms->list);
    free(ms);
}

/* The messengers of `instance`, made if `make` (NULL without memory); the caller holds g_lock. */
static messengers *of_instance(const void *instance, int make)
{
    messengers *ms = spvbc_layer_map_get(&g_instances, instance);
    if (ms != NULL || !make) return ms;
    ms = calloc(1, sizeof *ms);
    if (ms != NULL && !spvbc_layer_map_put(&g_instances, instance, ms)) {
        free(ms);
        ms = NULL;
    }
    return ms;
}

int spvbc_vkl_messenger_add(const void *instance, VkDebugUtilsMessengerEXT m,
                            const VkDebugUtilsMessengerCreateInfoEXT *ci)
{
    if (instance == NULL || ci == NULL || ci->pfnUserCallback == NULL) return 0;
    int added = 0;
    (void)pthread_mutex_lock(&g_lock);
    messengers *ms = of_instance(instance, 1);
    if (ms != NULL && ms->count == ms->cap) {
        size_t cap = ms->cap ? ms->cap * 2u : 4u;
        messenger *l = realloc(ms->list, cap * sizeof *l);
        if (l != NULL) {
            ms->list = l;
            ms->cap = cap;
        }
    }
    if (ms != NULL && ms->count < ms->cap) {
        ms->list[ms->count++] = (messenger){m, ci->messageSeverity, ci->messageType,
                                            ci->pfnUserCallback, ci->pUserData};
        added = 1;
    }
    (void)pthread_mutex_unlock(&g_lock);
    return added;
}

void spvbc_vkl_messenger_remove(const void *instance, VkDebugUtilsMessengerEXT m)
{
    (void)pthread_mutex_lock(&g_lock);
    messengers *ms = instance != NULL ? of_instance(instance, 0) : NULL;
    for (size_t i = 0; ms != NULL && i < ms->count; ++i) {
        if (ms->list[i].handle != m) continue;
        ms->list[i] = ms->list[--ms->count];
        break;
    }
    (void)pthread_mutex_unlock(&g_lock);
}

void spvbc_vkl_messenger_forget(const void *instance)
{
    (void)pthread_mutex_lock(&g_lock);
    if (instance == NULL)
        spvbc_layer_map_clear(&g_instances, free_messengers);
    else
        free_messengers(spvbc_layer_map_take(&g_instances, instance));
    (void)pthread_mutex_unlock(&g_lock);
}

int spvbc_vkl_messenger_any(const void *instance)
{
    (void)pthread_mutex_lock(&g_lock);
    const messengers *ms = instance != NULL ? of_instance(instance, 0) : NULL;
    int any = ms != NULL && ms->count > 0;
    (void)pthread_mutex_unlock(&g_lock);
    return any;
}

/* The severity of the verdict message of `o`. */
static VkDebugUtilsMessageSeverityFlagBitsEXT verdict_severity(const spvbc_layer_outcome *o)
{
    switch (o->verdict) {
    case SPVBC_LAYER_LOWERED: return VK_DEBUG_UTILS_MESSAGE_SEVERITY_INFO_BIT_EXT;
    case SPVBC_LAYER_UNFIXED:
    case SPVBC_LAYER_VALIDATE_ONLY: return VK_DEBUG_UTILS_MESSAGE_SEVERITY_WARNING_BIT_EXT;
    case SPVBC_LAYER_LIBRARY_ERROR: return VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT;
    default: return VK_DEBUG_UTILS_MESSAGE_SEVERITY_VERBOSE_BIT_EXT;
    }
}

static VkDebugUtilsMessageSeverityFlagBitsEXT finding_severity(spvbc_severity s)
{
    switch (s) {
    case SPVBC_SEVERITY_ERROR: return VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT;
    case SPVBC_SEVERITY_WARNING: return VK_DEBUG_UTILS_MESSAGE_SEVERITY_WARNING_BIT_EXT;
    default: return VK_DEBUG_UTILS_MESSAGE_SEVERITY_INFO_BIT_EXT;
    }
}

/* Calls each of the `n` messengers in `to` that takes `severity` and `type` with `data`. */
static void send(const messenger *to, size_t n, VkDebugUtilsMessageSeverityFlagBitsEXT severity,
                 VkDebugUtilsMessageTypeFlagsEXT type,
                 const VkDebugUtilsMessengerCallbackDataEXT *data)
{
    for (size_t i = 0; i < n; ++i)
        if ((to[i].severities & severity) != 0 && (to[i].types & type) != 0)
            (void)to[i].callback(severity, type, data, to[i].user);
}

size_t spvbc_vkl_messenger_report(const void *instance, const char *api, const void *code,
                                  size_t code_size, const spvbc_layer_outcome *o, VkObjectType type,
                                  uint64_t handle)
{
    messenger to[MAX_CALLED];
    size_t n = 0;
    (void)pthread_mutex_lock(&g_lock);
    const messengers *ms = instance != NULL ? of_instance(instance, 0) : NULL;
    for (size_t i = 0; ms != NULL && i < ms->count && n < MAX_CALLED; ++i)
        to[n++] = ms->list[i];
    (void)pthread_mutex_unlock(&g_lock);
    if (n == 0 || o == NULL || !o->say) return n;
    /* Called outside the lock: a callback may call into Vulkan, destroying a messenger say. */
    VkDebugUtilsObjectNameInfoEXT object = {VK_STRUCTURE_TYPE_DEBUG_UTILS_OBJECT_NAME_INFO_EXT,
                                            NULL, type, handle, NULL};
    char text[1024];
    (void)spvbc_layer_outcome_text(text, sizeof text, api, code, code_size, o);
    VkDebugUtilsMessengerCallbackDataEXT data = {
        VK_STRUCTURE_TYPE_DEBUG_UTILS_MESSENGER_CALLBACK_DATA_EXT,
        NULL,
        0,
        o->verdict == SPVBC_LAYER_LOWERED ? "L-LOWERED" : "SPVBC-LAYER",
        0,
        text,
        0,
        NULL,
        0,
        NULL,
        handle != 0 ? 1u : 0u,
        &object};
    send(to, n, verdict_severity(o), VK_DEBUG_UTILS_MESSAGE_TYPE_GENERAL_BIT_EXT, &data);
    for (size_t i = 0; i < o->finding_count; ++i) {
        (void)spvbc_layer_finding_text(text, sizeof text, &o->findings[i]);
        data.pMessageIdName = o->findings[i].rule;
        send(to, n, finding_severity(o->findings[i].severity),
             VK_DEBUG_UTILS_MESSAGE_TYPE_VALIDATION_BIT_EXT, &data);
    }
    return n;
}
