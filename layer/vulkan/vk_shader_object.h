/*
 * vk_shader_object.h - the parts of VK_EXT_shader_object the layer and its tests use, for
 * Vulkan headers older than 1.3.246 (Debian 12 ships 1.3.239, which lacks the extension).
 *
 * Declarations only, written from the Vulkan registry (vk.xml, extension number 483,
 * "VK_EXT_shader_object"): enum values are 1000000000 + (483 - 1) * 1000 + offset.  Where the
 * system headers already declare the extension, they are used instead.
 *
 * SPDX-License-Identifier: Apache-2.0
 */
#ifndef SPVBC_VK_SHADER_OBJECT_H_
#define SPVBC_VK_SHADER_OBJECT_H_

#include <vulkan/vulkan.h>

#ifndef VK_EXT_shader_object
#define VK_EXT_shader_object 1
#define VK_EXT_SHADER_OBJECT_SPEC_VERSION 1
#define VK_EXT_SHADER_OBJECT_EXTENSION_NAME "VK_EXT_shader_object"

VK_DEFINE_NON_DISPATCHABLE_HANDLE(VkShaderEXT)

#define VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_OBJECT_FEATURES_EXT ((VkStructureType)1000482000)
#define VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_OBJECT_PROPERTIES_EXT ((VkStructureType)1000482001)
#define VK_STRUCTURE_TYPE_SHADER_CREATE_INFO_EXT ((VkStructureType)1000482002)
#define VK_OBJECT_TYPE_SHADER_EXT ((VkObjectType)1000482000)
/* A success code in the registry since 1.3.259 (an error code before: same value). */
#define VK_INCOMPATIBLE_SHADER_BINARY_EXT ((VkResult)1000482000)

typedef enum VkShaderCodeTypeEXT {
    VK_SHADER_CODE_TYPE_BINARY_EXT = 0,
    VK_SHADER_CODE_TYPE_SPIRV_EXT = 1,
    VK_SHADER_CODE_TYPE_MAX_ENUM_EXT = 0x7FFFFFFF
} VkShaderCodeTypeEXT;

typedef VkFlags VkShaderCreateFlagsEXT;
#define VK_SHADER_CREATE_LINK_STAGE_BIT_EXT ((VkShaderCreateFlagsEXT)0x00000001)

typedef struct VkPhysicalDeviceShaderObjectFeaturesEXT {
    VkStructureType sType;
    void *pNext;
    VkBool32 shaderObject;
} VkPhysicalDeviceShaderObjectFeaturesEXT;

typedef struct VkShaderCreateInfoEXT {
    VkStructureType sType;
    const void *pNext;
    VkShaderCreateFlagsEXT flags;
    VkShaderStageFlagBits stage;
    VkShaderStageFlags nextStage;
    VkShaderCodeTypeEXT codeType;
    size_t codeSize;
    const void *pCode;
    const char *pName;
    uint32_t setLayoutCount;
    const VkDescriptorSetLayout *pSetLayouts;
    uint32_t pushConstantRangeCount;
    const VkPushConstantRange *pPushConstantRanges;
    const VkSpecializationInfo *pSpecializationInfo;
} VkShaderCreateInfoEXT;

typedef VkResult(VKAPI_PTR *PFN_vkCreateShadersEXT)(VkDevice device, uint32_t createInfoCount,
                                                    const VkShaderCreateInfoEXT *pCreateInfos,
                                                    const VkAllocationCallbacks *pAllocator,
                                                    VkShaderEXT *pShaders);
typedef void(VKAPI_PTR *PFN_vkDestroyShaderEXT)(VkDevice device, VkShaderEXT shader,
                                                const VkAllocationCallbacks *pAllocator);
typedef VkResult(VKAPI_PTR *PFN_vkGetShaderBinaryDataEXT)(VkDevice device, VkShaderEXT shader,
                                                          size_t *pDataSize, void *pData);
typedef void(VKAPI_PTR *PFN_vkCmdBindShadersEXT)(VkCommandBuffer commandBuffer, uint32_t stageCount,
                                                 const VkShaderStageFlagBits *pStages,
                                                 const VkShaderEXT *pShaders);
#endif /* VK_EXT_shader_object */

#endif /* SPVBC_VK_SHADER_OBJECT_H_ */
