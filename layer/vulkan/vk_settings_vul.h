/*
 * vk_settings_vul.h - the calls of Vulkan-Utility-Libraries' layer settings that vk_settings.c
 * makes, through vk_settings_vul.cpp, so that no C++ exception of the library (an allocation
 * that fails inside it) crosses into the layer's C code: each returns a result instead.  Built
 * only with Vulkan-Utility-Libraries (SPVBC_HAVE_VUL).
 *
 * SPDX-License-Identifier: Apache-2.0
 */
#ifndef SPVBC_VK_SETTINGS_VUL_H_
#define SPVBC_VK_SETTINGS_VUL_H_

#include <vulkan/layer/vk_layer_settings.h>

#ifdef __cplusplus
extern "C" {
#endif

/** The setting set of layer `layer` for the instance `info` creates (its
 *  VkLayerSettingsCreateInfoEXT, vk_layer_settings.txt and the environment), into `*out`;
 *  `complaint` gets the library's messages.  VK_SUCCESS, the library's error, or
 *  VK_ERROR_OUT_OF_HOST_MEMORY when it threw; `*out` is VK_NULL_HANDLE on failure. */
VkResult spvbc_vkl_vul_create(const char *layer, const VkInstanceCreateInfo *info,
                              const VkAllocationCallbacks *alloc,
                              VkuLayerSettingLogCallback complaint, VkuLayerSettingSet *out);

/** Setting `key` of `set` as a string, into `*text` (valid until the set is destroyed): returns
 *  1 when a channel gives it, 0 when none does or its value cannot be read as a string (or the
 *  library threw). */
int spvbc_vkl_vul_string(VkuLayerSettingSet set, const char *key, const char **text);

/** Destroys `set` (VK_NULL_HANDLE: nothing). */
void spvbc_vkl_vul_destroy(VkuLayerSettingSet set, const VkAllocationCallbacks *alloc);

#ifdef __cplusplus
}
#endif

#endif /* SPVBC_VK_SETTINGS_VUL_H_ */
