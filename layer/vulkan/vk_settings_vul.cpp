/*
 * vk_settings_vul.cpp - Vulkan-Utility-Libraries' layer-settings calls with their exceptions
 * caught (see vk_settings_vul.h).  The library is C++ and allocates with std::string and
 * friends; an exception leaving it through the layer's C frames would end the application.
 *
 * SPDX-License-Identifier: Apache-2.0
 */
#include "vk_settings_vul.h"

/* The type of vkuGetLayerSettingValues' setting type: VkLayerSettingTypeEXT in older
 * Vulkan-Utility-Libraries, VkuLayerSettingType (the same values) in newer ones. */
template <typename R, typename A, typename B, typename T, typename D, typename E>
static T third_parameter(R (*)(A, B, T, D, E));
using setting_type = decltype(third_parameter(vkuGetLayerSettingValues));

extern "C" VkResult spvbc_vkl_vul_create(const char *layer, const VkInstanceCreateInfo *info,
                                         const VkAllocationCallbacks *alloc,
                                         VkuLayerSettingLogCallback complaint,
                                         VkuLayerSettingSet *out)
{
    *out = VK_NULL_HANDLE;
    try {
        const VkLayerSettingsCreateInfoEXT *api =
            info != nullptr ? vkuFindLayerSettingsCreateInfo(info) : nullptr;
        VkResult r = vkuCreateLayerSettingSet(layer, api, alloc, complaint, out);
        if (r != VK_SUCCESS) *out = VK_NULL_HANDLE;
        return r;
    } catch (...) {
        *out = VK_NULL_HANDLE;
        return VK_ERROR_OUT_OF_HOST_MEMORY;
    }
}

extern "C" int spvbc_vkl_vul_string(VkuLayerSettingSet set, const char *key, const char **text)
{
    try {
        if (!vkuHasLayerSetting(set, key)) return 0;
        uint32_t count = 1;
        const char *value = nullptr;
        VkResult r = vkuGetLayerSettingValues(
            set, key, static_cast<setting_type>(VK_LAYER_SETTING_TYPE_STRING_EXT), &count, &value);
        if ((r != VK_SUCCESS && r != VK_INCOMPLETE) || count < 1 || value == nullptr) return 0;
        *text = value;
        return 1;
    } catch (...) {
        return 0;
    }
}

extern "C" void spvbc_vkl_vul_destroy(VkuLayerSettingSet set, const VkAllocationCallbacks *alloc)
{
    if (set == VK_NULL_HANDLE) return;
    try {
        vkuDestroyLayerSettingSet(set, alloc);
    } catch (...) {
        /* a destructor that throws: nothing left to do */
    }
}
