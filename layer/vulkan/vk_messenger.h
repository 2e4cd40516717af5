/*
 * vk_messenger.h - the application's VK_EXT_debug_utils messengers, as the Vulkan layer sees
 * them: recorded at vkCreateDebugUtilsMessengerEXT, forgotten at its destroy or the instance's,
 * and handed the layer's outcomes, where Vulkan developers (and RenderDoc) read validation
 * messages.
 *
 * A messenger chained into VkInstanceCreateInfo is not recorded: the specification makes it
 * valid only for the duration of vkCreateInstance and vkDestroyInstance, when no module is made.
 *
 * SPDX-License-Identifier: Apache-2.0
 */
#ifndef SPVBC_VK_MESSENGER_H_
#define SPVBC_VK_MESSENGER_H_

#include <stddef.h>
#include <stdint.h>
#include <vulkan/vulkan.h>

#include "layer_core.h"

/** Records messenger `m` of the instance whose dispatch key is `instance`, made from `ci`;
 *  returns 0 (the messenger then gets nothing from the layer) without memory. */
int spvbc_vkl_messenger_add(const void *instance, VkDebugUtilsMessengerEXT m,
                            const VkDebugUtilsMessengerCreateInfoEXT *ci);
/** Forgets messenger `m` of `instance`. */
void spvbc_vkl_messenger_remove(const void *instance, VkDebugUtilsMessengerEXT m);
/** Forgets every messenger of `instance` (at vkDestroyInstance), or of all instances (NULL). */
void spvbc_vkl_messenger_forget(const void *instance);
/** 1 if `instance` has a messenger. */
int spvbc_vkl_messenger_any(const void *instance);

/**
 * Hands outcome `o` of the module of `code_size` bytes at `code` (through `api`) to the
 * messengers of `instance` whose severities and types take it, when `o->say`: one message for
 * the verdict (message id name "L-LOWERED" for a lowered module, "SPVBC-LAYER" otherwise;
 * severity info for a lowered module, verbose for one passed on valid or unread, warning for
 * one with errors passed on, error for a failure of the layer; type general), then one per
 * finding (the rule id as message id name, its severity, type validation).  The object is
 * (`type`, `handle`) when `handle` is not 0.  Returns how many messengers there were.
 */
size_t spvbc_vkl_messenger_report(const void *instance, const char *api, const void *code,
                                  size_t code_size, const spvbc_layer_outcome *o, VkObjectType type,
                                  uint64_t handle);

#endif /* SPVBC_VK_MESSENGER_H_ */
