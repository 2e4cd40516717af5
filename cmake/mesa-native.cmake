# Mesa with spirv-bitcast inside its SPIR-V front end: the patch series in external/mesa/
# applied to Debian 13's source package of Mesa and built by cmake/mesa-native.sh in a Debian 13
# root in the build tree (its build dependencies and, beside them, Debian's own build of the
# same Mesa, the control), once: a second run reuses it.  Needs root and the network, so it is
# asked for: SPVBC_MESA_NATIVE (default SPVBC_FETCH, which the README's commands and CI turn on).
# The target `mesa-native` builds it by hand; the test mesa-native.build (a fixture) does in
# ctest.  Tests of label mesa-native load no layer anywhere.
#
#   spvbc_add_mesa_native_test(<name> DRIVER patched|debian API vulkan|opencl
#                              [LABELS <labels...>] [TIMEOUT <s>] [ENVIRONMENT <vars...>]
#                              COMMAND <program> [args...])
# adds test <name> that runs <program> (an ELF executable of this build) in a chroot of the
# root on the patched lavapipe or rusticl, or on Debian's (the control); SKIPPED (77, with the
# reason) where the build could not be made.  Paths under the source and build trees stay valid
# inside the chroot.  Not in the sanitizer build (the drivers would run twice for no new finding).
include_guard(GLOBAL)
include(${CMAKE_CURRENT_LIST_DIR}/runner-test.cmake)

option(SPVBC_MESA_NATIVE
  "Build Mesa with spirv-bitcast in its SPIR-V front end in a Debian 13 root and test it (network, root)"
  ${SPVBC_FETCH})
set(SPVBC_MESA_NATIVE_DIR "${PROJECT_BINARY_DIR}/mesa-native" CACHE PATH
  "Where cmake/mesa-native.sh makes the Debian 13 root and builds the patched Mesa (kept between runs)")
set(SPVBC_MESA_NATIVE_SH "${CMAKE_CURRENT_LIST_DIR}/mesa-native.sh" CACHE INTERNAL "")
find_program(SPVBC_SH sh REQUIRED)

add_custom_target(mesa-native
  COMMAND ${SPVBC_SH} ${SPVBC_MESA_NATIVE_SH} build ${SPVBC_MESA_NATIVE_DIR} ${PROJECT_SOURCE_DIR}
  USES_TERMINAL
  COMMENT "Mesa with spirv-bitcast, in a Debian 13 root (cmake/mesa-native.sh)")

if(SPVBC_MESA_NATIVE AND NOT SPVBC_SANITIZE)
  add_test(NAME mesa-native.build COMMAND ${SPVBC_SH} ${SPVBC_MESA_NATIVE_SH} build
    ${SPVBC_MESA_NATIVE_DIR} ${PROJECT_SOURCE_DIR})
  set_tests_properties(mesa-native.build PROPERTIES FIXTURES_SETUP mesa-native
    LABELS "mesa-native" TIMEOUT 3600 RUN_SERIAL ON)
  # Mesa's own suites of the SPIR-V front end and NIR, on the patched build.
  add_test(NAME mesa-native.mesa-tests COMMAND ${SPVBC_SH} ${SPVBC_MESA_NATIVE_SH} mesa-test
    ${SPVBC_MESA_NATIVE_DIR} spirv_tests nir_tests)
  set_tests_properties(mesa-native.mesa-tests PROPERTIES FIXTURES_REQUIRED mesa-native
    LABELS "mesa-native" SKIP_RETURN_CODE 77 TIMEOUT 900)
endif()

function(spvbc_add_mesa_native_test name)
  if(NOT SPVBC_MESA_NATIVE OR SPVBC_SANITIZE)
    return()
  endif()
  cmake_parse_arguments(PARSE_ARGV 1 M "" "DRIVER;API" "")
  if(NOT M_DRIVER MATCHES "^(patched|debian)$" OR NOT M_API MATCHES "^(vulkan|opencl)$")
    message(FATAL_ERROR "spvbc_add_mesa_native_test(${name}): DRIVER patched|debian API vulkan|opencl")
  endif()
  spvbc_add_runner_test(${name} ${M_UNPARSED_ARGUMENTS} FIXTURE mesa-native
    DEFAULT_TIMEOUT 900 BASE_LABELS mesa-native ${M_API}
    BASE_ENVIRONMENT "SPVBC_CHROOT_BINDS=${PROJECT_SOURCE_DIR}:${PROJECT_BINARY_DIR}"
    RUNNER ${SPVBC_SH} ${SPVBC_MESA_NATIVE_SH} run ${SPVBC_MESA_NATIVE_DIR} ${M_DRIVER} ${M_API})
endfunction()
