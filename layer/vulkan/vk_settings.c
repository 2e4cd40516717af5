/*
 * vk_settings.c - VK_LAYER_SPVBC_bitcast's settings for one instance (see vk_settings.h).
 *
 * The Khronos channels are Vulkan-Utility-Libraries' (vkuGetLayerSettingValues), in its order:
 * the environment (VK_SPVBC_BITCAST_<KEY>, the form VUL derives from the layer name
 * VK_LAYER_SPVBC_bitcast; it also accepts VK_BITCAST_<KEY>), then vk_layer_settings.txt
 * (spvbc_bitcast.<key>, the file VK_LAYER_SETTINGS_PATH names, else the current directory's),
 * then the application's VkLayerSettingsCreateInfoEXT.  A setting none of them gives comes from
 * the older SPVBC_LAYER_<KEY>, else its default.
 *
 * SPDX-License-Identifier: Apache-2.0
 */
#include "vk_settings.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "layer_log.h"

#define LAYER_NAME "VK_LAYER_SPVBC_bitcast"

#ifdef SPVBC_HAVE_VUL
#include "vk_settings_vul.h"

/* What the source reads from: the instance's setting set, and room for the names and the
 * value of one setting (vkuGetLayerSettingValues's strings live in the set). */
typedef struct khronos_source {
    VkuLayerSettingSet set;
    char name[SPVBC_LAYER_SETTING_NAME_MAX];
} khronos_source;

/* A spvbc_layer_setting_source's get: the Khronos channels, then the older names. */
static int khronos_get(void *user, const char *key, spvbc_layer_setting_value *out)
{
    khronos_source *s = user;
    const char *text = NULL;
    if (!spvbc_vkl_vul_string(s->set, key, &text))
        return spvbc_layer_setting_from_env(key, out, s->name);
    /* Named for a log line: its variable where the environment gave it, else the layer's
     * setting (from vk_layer_settings.txt or the application). */
    spvbc_layer_setting_env_name("VK_SPVBC_BITCAST_", key, s->name);
    const char *env = getenv(s->name);
    if (env == NULL || *env == '\0')
        (void)snprintf(s->name, sizeof s->name, "%s setting %s", LAYER_NAME, key);
    out->text = text;
    out->name = s->name;
    return 1;
}

/* Vulkan-Utility-Libraries' complaints (a value of the wrong type): one line on standard error,
 * as its own default would say it, with the layer's prefix. */
static VKAPI_ATTR void VKAPI_CALL khronos_complaint(const char *setting, const char *message)
{
    (void)fprintf(stderr, "spvbc-layer: setting %s: %s\n", setting ? setting : "?",
                  message ? message : "?");
}

VkResult spvbc_vkl_settings_read(const VkInstanceCreateInfo *info,
                                 const VkAllocationCallbacks *alloc, spvbc_layer_config *cfg)
{
    khronos_source s = {VK_NULL_HANDLE, ""};
    VkResult r = spvbc_vkl_vul_create(LAYER_NAME, info, alloc, khronos_complaint, &s.set);
    if (r != VK_SUCCESS || s.set == VK_NULL_HANDLE) {
        spvbc_layer_config_from_env(cfg);
        spvbc_layer_log(cfg,
                        "spvbc-layer: the Khronos layer settings could not be read "
                        "(Vulkan-Utility-Libraries: %d): using SPVBC_LAYER_* and the defaults",
                        (int)r);
        return r != VK_SUCCESS ? r : VK_ERROR_INITIALIZATION_FAILED;
    }
    spvbc_layer_setting_source src = {khronos_get, &s};
    spvbc_layer_config_from(cfg, &src);
    spvbc_vkl_vul_destroy(s.set, alloc);
    return VK_SUCCESS;
}

#else /* !SPVBC_HAVE_VUL */

VkResult spvbc_vkl_settings_read(const VkInstanceCreateInfo *info,
                                 const VkAllocationCallbacks *alloc, spvbc_layer_config *cfg)
{
    (void)info;
    (void)alloc;
    spvbc_layer_config_from_env(cfg);
    return VK_SUCCESS;
}

#endif
