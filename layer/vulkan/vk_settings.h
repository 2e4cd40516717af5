/*
 * vk_settings.h - VK_LAYER_SPVBC_bitcast's settings for one instance, the Khronos way: through
 * Vulkan-Utility-Libraries' layer settings (VK_EXT_layer_settings, vk_layer_settings.txt,
 * VK_SPVBC_BITCAST_<KEY>), then the older SPVBC_LAYER_* names, then the defaults (see
 * layer_settings.h for the settings themselves).  Built without Vulkan-Utility-Libraries
 * (SPVBC_HAVE_VUL undefined), only the older names are read.
 *
 * SPDX-License-Identifier: Apache-2.0
 */
#ifndef SPVBC_VK_SETTINGS_H_
#define SPVBC_VK_SETTINGS_H_

#include <vulkan/vulkan.h>

#include "layer_settings.h"

/** Fills `cfg` with the settings of the instance `info` creates (`alloc`: the application's
 *  allocator, passed to Vulkan-Utility-Libraries).  Returns VK_SUCCESS, or the error with which
 *  the Khronos channels could not be read (logged; `cfg` then holds the older names' values and
 *  the defaults, and the instance goes on with them). */
VkResult spvbc_vkl_settings_read(const VkInstanceCreateInfo *info,
                                 const VkAllocationCallbacks *alloc, spvbc_layer_config *cfg);

#endif /* SPVBC_VK_SETTINGS_H_ */
