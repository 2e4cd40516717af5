# Vulkan-Utility-Libraries' layer-settings library (VulkanLayerSettings), through which the
# Vulkan layer reads its settings the Khronos way (VK_EXT_layer_settings, vk_layer_settings.txt,
# VK_SPVBC_BITCAST_<KEY>; layer/vulkan/vk_settings.c).
#
# Where it comes from, first that works:
#   1. the system's (find_package(VulkanUtilityLibraries CONFIG): Debian 13 and later's
#      libvulkan-utility-libraries-dev), with Vulkan headers that know VK_EXT_layer_settings;
#   2. a source tree given with -DSPVBC_VUL_SOURCE_DIR=<Vulkan-Utility-Libraries checkout> (and,
#      where the installed Vulkan headers lack VK_EXT_layer_settings,
#      -DSPVBC_VUL_HEADERS_DIR=<an include directory of Vulkan-Headers that have it>);
#   3. only when asked (SPVBC_FETCH_VUL, default SPVBC_FETCH): Debian 13's source packages
#      vulkan-utility-libraries and vulkan-loader (its bundled Vulkan-Headers), fetched at
#      configure time by cmake/vul-trixie.sh (cmake/debian-tree.sh's functions) into
#      SPVBC_VUL_TREE.  Debian 13's binary package cannot serve on Debian 12: its static
#      library needs glibc 2.38.
# In 2 and 3 the library is built here from its own C++17 sources, static, position-independent
# and with hidden visibility, and linked into the Vulkan layer only (never into the library).
# Without it the layer reads the older SPVBC_LAYER_* names only, and the tests of the Khronos
# channels report SKIPPED with SPVBC_VUL_NOTE.
#
# Sets, for the caller:
#   SPVBC_HAVE_VUL          ON when the layer-settings library is there
#   spvbc_vul_settings      an INTERFACE target: the library, the headers it needs, and
#                           SPVBC_HAVE_VUL=1 (link it into the layer and the tests of the channels)
#   SPVBC_VUL_NOTE          where it comes from, or why it is not there
include_guard(GLOBAL)

option(SPVBC_FETCH_VUL
  "Fetch Debian 13's Vulkan-Utility-Libraries source into the build tree when the system has none (network)"
  ${SPVBC_FETCH})
set(SPVBC_VUL_SOURCE_DIR "" CACHE PATH
  "A Vulkan-Utility-Libraries source tree to build its layer-settings library from")
set(SPVBC_VUL_HEADERS_DIR "" CACHE PATH
  "An include directory of Vulkan-Headers that know VK_EXT_layer_settings, for SPVBC_VUL_SOURCE_DIR")
set(SPVBC_VUL_TREE "${PROJECT_BINARY_DIR}/trixie-vulkan-utility-libraries" CACHE PATH
  "Where cmake/vul-trixie.sh unpacks Debian 13's vulkan-utility-libraries and vulkan-loader sources")

set(SPVBC_HAVE_VUL OFF)
set(SPVBC_VUL_NOTE "")

# True in `out` when the Vulkan headers in include directory `dir` know VK_EXT_layer_settings.
function(_spvbc_vul_headers_ok dir out)
  set(ok OFF)
  if(dir AND EXISTS ${dir}/vulkan/vulkan_core.h)
    file(STRINGS ${dir}/vulkan/vulkan_core.h _hits REGEX "define VK_EXT_layer_settings 1")
    if(_hits)
      set(ok ON)
    endif()
  endif()
  set(${out} ${ok} PARENT_SCOPE)
endfunction()

# Builds the layer-settings library from source tree `src` against the Vulkan headers in `inc`.
function(_spvbc_vul_build src inc)
  file(GLOB _vul_sources ${src}/src/layer/*.cpp)
  add_library(spvbc_vul_layer_settings STATIC ${_vul_sources})
  target_include_directories(spvbc_vul_layer_settings SYSTEM PUBLIC ${src}/include ${inc})
  target_include_directories(spvbc_vul_layer_settings PRIVATE ${src}/src/layer)
  set_target_properties(spvbc_vul_layer_settings PROPERTIES CXX_STANDARD 17
    CXX_STANDARD_REQUIRED ON CXX_EXTENSIONS OFF POSITION_INDEPENDENT_CODE ON
    CXX_VISIBILITY_PRESET hidden VISIBILITY_INLINES_HIDDEN ON)
  # Upstream's own code: its warnings are not ours to fix.
  target_compile_options(spvbc_vul_layer_settings PRIVATE -w)
  target_link_libraries(spvbc_vul_settings INTERFACE spvbc_vul_layer_settings)
endfunction()

add_library(spvbc_vul_settings INTERFACE)
find_package(VulkanUtilityLibraries CONFIG QUIET)
if(TARGET Vulkan::LayerSettings)
  get_target_property(_inc Vulkan::Headers INTERFACE_INCLUDE_DIRECTORIES)
  _spvbc_vul_headers_ok("${_inc}" _ok)
  if(_ok)
    target_link_libraries(spvbc_vul_settings INTERFACE Vulkan::LayerSettings)
    set(SPVBC_HAVE_VUL ON)
    set(SPVBC_VUL_NOTE "the system's (VulkanUtilityLibraries ${VulkanUtilityLibraries_VERSION})")
  else()
    set(SPVBC_VUL_NOTE "the system's VulkanUtilityLibraries has Vulkan headers without VK_EXT_layer_settings; ")
  endif()
endif()
if(NOT SPVBC_HAVE_VUL AND SPVBC_VUL_SOURCE_DIR)
  set(_inc ${SPVBC_VUL_HEADERS_DIR})
  if(NOT _inc)
    find_path(_inc vulkan/vulkan_core.h)
  endif()
  _spvbc_vul_headers_ok("${_inc}" _ok)
  if(NOT EXISTS ${SPVBC_VUL_SOURCE_DIR}/src/layer/vk_layer_settings.cpp)
    message(FATAL_ERROR "SPVBC_VUL_SOURCE_DIR=${SPVBC_VUL_SOURCE_DIR} holds no src/layer/vk_layer_settings.cpp")
  elseif(NOT _ok)
    message(FATAL_ERROR "SPVBC_VUL_SOURCE_DIR needs Vulkan headers with VK_EXT_layer_settings: "
      "-DSPVBC_VUL_HEADERS_DIR=<include directory>")
  endif()
  _spvbc_vul_build(${SPVBC_VUL_SOURCE_DIR} ${_inc})
  set(SPVBC_HAVE_VUL ON)
  set(SPVBC_VUL_NOTE "built from SPVBC_VUL_SOURCE_DIR")
elseif(NOT SPVBC_HAVE_VUL AND NOT SPVBC_FETCH_VUL)
  string(APPEND SPVBC_VUL_NOTE "no Vulkan-Utility-Libraries (Debian 13's "
    "libvulkan-utility-libraries-dev) and fetching is off: -DSPVBC_FETCH=ON fetches its source")
elseif(NOT SPVBC_HAVE_VUL)
  find_program(SPVBC_SH sh REQUIRED)
  execute_process(COMMAND ${SPVBC_SH} ${CMAKE_CURRENT_LIST_DIR}/vul-trixie.sh fetch
      ${SPVBC_VUL_TREE}
    OUTPUT_VARIABLE _out ERROR_VARIABLE _out RESULT_VARIABLE _rc)
  # Whatever the tarballs' top folders are called: the tree with the layer settings' sources,
  # and the loader's bundled Vulkan-Headers.
  file(GLOB _src ${SPVBC_VUL_TREE}/src/*/src/layer/vk_layer_settings.cpp)
  file(GLOB _inc ${SPVBC_VUL_TREE}/src/*/vulkan-headers/include/vulkan/vulkan_core.h)
  list(LENGTH _src _n_src)
  list(LENGTH _inc _n_inc)
  set(_ok OFF)
  if(_n_src EQUAL 1 AND _n_inc EQUAL 1)
    string(REGEX REPLACE "/src/layer/vk_layer_settings.cpp$" "" _src "${_src}")
    string(REGEX REPLACE "/vulkan/vulkan_core.h$" "" _inc "${_inc}")
    _spvbc_vul_headers_ok("${_inc}" _ok)
  endif()
  if(_rc EQUAL 0 AND EXISTS ${SPVBC_VUL_TREE}/ready AND _src AND _ok)
    _spvbc_vul_build(${_src} ${_inc})
    set(SPVBC_HAVE_VUL ON)
    get_filename_component(_name ${_src} NAME)
    set(SPVBC_VUL_NOTE "built from Debian 13's source (${_name}), fetched into the build tree")
  else()
    set(_why "the fetch failed: ${_out}")
    if(EXISTS ${SPVBC_VUL_TREE}/unavailable)
      file(READ ${SPVBC_VUL_TREE}/unavailable _why)
    elseif(EXISTS ${SPVBC_VUL_TREE}/ready)
      set(_why "the fetched sources lack the layer settings or VK_EXT_layer_settings")
    endif()
    string(STRIP "${_why}" _why)
    string(APPEND SPVBC_VUL_NOTE "no Vulkan-Utility-Libraries, and its source could not be "
      "fetched: ${_why}")
  endif()
endif()
if(SPVBC_HAVE_VUL)
  target_compile_definitions(spvbc_vul_settings INTERFACE SPVBC_HAVE_VUL=1)
  message(STATUS "layer: Khronos layer settings through Vulkan-Utility-Libraries: ${SPVBC_VUL_NOTE}")
else()
  message(STATUS "layer: no Khronos layer settings (SPVBC_LAYER_* only): ${SPVBC_VUL_NOTE}")
endif()
