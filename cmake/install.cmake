# Install rules and package files for spirv-bitcast.
#
# Included at the end of source/CMakeLists.txt, after the targets spirv-bitcast-static,
# spirv-bitcast-shared and spirv-bitcast exist.  `cmake --install <build> [--prefix P]` puts
#   include/spirv_bitcast.h
#   <libdir>/libspirv-bitcast.a, libspirv-bitcast.so.<version> (+ .so.<soversion>, .so links)
#   bin/spirv-bitcast
#   <libdir>/cmake/SPIRV-Bitcast/  find_package(SPIRV-Bitcast) config, version and targets:
#       SPIRV-Bitcast::spirv-bitcast         the shared library
#       SPIRV-Bitcast::spirv-bitcast-static  the static library
#       SPIRV-Bitcast::spirv-bitcast-cli     the command-line tool (for add_custom_command)
#   <libdir>/pkgconfig/spirv-bitcast.pc
#   share/man/man1/spirv-bitcast.1          the manual page (rendered by scdoc when found)
#   share/bash-completion/completions/spirv-bitcast   bash completion
# Every file is relocatable: the package config and the pkg-config file find the prefix from
# their own location, so --prefix at install time (or moving the tree) works.

include(CMakePackageConfigHelpers)

set(SPVBC_CMAKE_PACKAGE_DIR ${CMAKE_INSTALL_LIBDIR}/cmake/SPIRV-Bitcast)
set(SPVBC_PKGCONFIG_DIR ${CMAKE_INSTALL_LIBDIR}/pkgconfig)

# Imported names: the shared library is the default SPIRV-Bitcast::spirv-bitcast.
set_target_properties(spirv-bitcast-shared PROPERTIES EXPORT_NAME spirv-bitcast)
set_target_properties(spirv-bitcast-static PROPERTIES EXPORT_NAME spirv-bitcast-static)
if(TARGET spirv-bitcast)
  set_target_properties(spirv-bitcast PROPERTIES EXPORT_NAME spirv-bitcast-cli)
  set(_spvbc_cli spirv-bitcast)
else()
  set(_spvbc_cli "") # a library-only build (SPVBC_BUILD_CLI=OFF) installs no tool
endif()
# A consumer of the static archive must not see dllimport declarations (Windows); elsewhere
# SPVBC_STATIC changes nothing.  The build tree's users (the CLI, the tests) are consumers too:
# without it a MinGW-w64 build of the CLI fails to link (__imp_spvbc_* undefined).
target_compile_definitions(spirv-bitcast-static INTERFACE SPVBC_STATIC)

# Two components, as a distribution splits them: spvbc_runtime (the shared library and the
# CLI) and spvbc_dev (everything a build against the library needs).  A plain
# `cmake --install` installs both.
install(FILES ${PROJECT_SOURCE_DIR}/include/spirv_bitcast.h
  DESTINATION ${CMAKE_INSTALL_INCLUDEDIR} COMPONENT spvbc_dev)

install(TARGETS spirv-bitcast-shared spirv-bitcast-static ${_spvbc_cli}
  EXPORT SPIRV-BitcastTargets
  ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR} COMPONENT spvbc_dev
  LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR} COMPONENT spvbc_runtime
          NAMELINK_COMPONENT spvbc_dev
  RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR} COMPONENT spvbc_runtime
  INCLUDES DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})

install(EXPORT SPIRV-BitcastTargets
  NAMESPACE SPIRV-Bitcast::
  FILE SPIRV-BitcastTargets.cmake
  DESTINATION ${SPVBC_CMAKE_PACKAGE_DIR}
  COMPONENT spvbc_dev)

configure_package_config_file(
  ${PROJECT_SOURCE_DIR}/cmake/SPIRV-BitcastConfig.cmake.in
  ${PROJECT_BINARY_DIR}/cmake/SPIRV-BitcastConfig.cmake
  INSTALL_DESTINATION ${SPVBC_CMAKE_PACKAGE_DIR})

# Before 1.0 a minor release may break the API, so 0.3 satisfies only 0.3.x requests.
if(PROJECT_VERSION_MAJOR EQUAL 0)
  set(_spvbc_compat SameMinorVersion)
else()
  set(_spvbc_compat SameMajorVersion)
endif()
write_basic_package_version_file(
  ${PROJECT_BINARY_DIR}/cmake/SPIRV-BitcastConfigVersion.cmake
  VERSION ${PROJECT_VERSION}
  COMPATIBILITY ${_spvbc_compat})
unset(_spvbc_compat)

install(FILES
  ${PROJECT_BINARY_DIR}/cmake/SPIRV-BitcastConfig.cmake
  ${PROJECT_BINARY_DIR}/cmake/SPIRV-BitcastConfigVersion.cmake
  DESTINATION ${SPVBC_CMAKE_PACKAGE_DIR} COMPONENT spvbc_dev)

# pkg-config: paths relative to ${pcfiledir} keep the file relocatable; an absolute
# CMAKE_INSTALL_LIBDIR / INCLUDEDIR (a distribution's choice) is written as given.
if(IS_ABSOLUTE "${CMAKE_INSTALL_LIBDIR}")
  set(SPVBC_PC_PREFIX "${CMAKE_INSTALL_PREFIX}")
  set(SPVBC_PC_LIBDIR "${CMAKE_INSTALL_LIBDIR}")
else()
  file(RELATIVE_PATH _spvbc_up "/root/${SPVBC_PKGCONFIG_DIR}" "/root")
  string(REGEX REPLACE "/$" "" _spvbc_up "${_spvbc_up}")
  set(SPVBC_PC_PREFIX "\${pcfiledir}/${_spvbc_up}")
  set(SPVBC_PC_LIBDIR "\${prefix}/${CMAKE_INSTALL_LIBDIR}")
  unset(_spvbc_up)
endif()
if(IS_ABSOLUTE "${CMAKE_INSTALL_INCLUDEDIR}")
  set(SPVBC_PC_INCLUDEDIR "${CMAKE_INSTALL_INCLUDEDIR}")
else()
  set(SPVBC_PC_INCLUDEDIR "\${prefix}/${CMAKE_INSTALL_INCLUDEDIR}")
endif()
configure_file(${PROJECT_SOURCE_DIR}/cmake/spirv-bitcast.pc.in
  ${PROJECT_BINARY_DIR}/cmake/spirv-bitcast.pc @ONLY)
install(FILES ${PROJECT_BINARY_DIR}/cmake/spirv-bitcast.pc
  DESTINATION ${SPVBC_PKGCONFIG_DIR} COMPONENT spvbc_dev)

# The manual page: docs/man/spirv-bitcast.1.scd rendered by scdoc (Debian package scdoc) at build
# time.  SPVBC_MAN=AUTO (default) renders and installs it when scdoc is found; ON requires scdoc;
# OFF skips it.  SOURCE_DATE_EPOCH (set by dpkg-buildpackage) fixes the date scdoc writes.
if(NOT SPVBC_BUILD_CLI)
  return() # the manual page and the completion are the tool's
endif()
set(SPVBC_MAN AUTO CACHE STRING "Build and install the manual page (AUTO, ON or OFF)")
set_property(CACHE SPVBC_MAN PROPERTY STRINGS AUTO ON OFF)
if(NOT SPVBC_MAN STREQUAL "OFF")
  find_program(SPVBC_SCDOC scdoc)
  if(NOT SPVBC_SCDOC AND SPVBC_MAN STREQUAL "ON")
    message(FATAL_ERROR "SPVBC_MAN=ON but scdoc was not found (apt-get install scdoc)")
  elseif(NOT SPVBC_SCDOC)
    message(STATUS "scdoc not found: the manual page spirv-bitcast(1) is not built")
  endif()
endif()
set(SPVBC_MAN_SOURCE ${PROJECT_SOURCE_DIR}/docs/man/spirv-bitcast.1.scd)
if(NOT SPVBC_MAN STREQUAL "OFF" AND SPVBC_SCDOC)
  set(SPVBC_MAN_PAGE ${PROJECT_BINARY_DIR}/docs/man/spirv-bitcast.1)
  add_custom_command(OUTPUT ${SPVBC_MAN_PAGE}
    COMMAND ${CMAKE_COMMAND} -E make_directory ${PROJECT_BINARY_DIR}/docs/man
    COMMAND sh -c "\"$1\" < \"$2\" > \"$3\"" sh ${SPVBC_SCDOC} ${SPVBC_MAN_SOURCE}
            ${SPVBC_MAN_PAGE}
    DEPENDS ${SPVBC_MAN_SOURCE}
    COMMENT "Rendering spirv-bitcast(1) with scdoc" VERBATIM)
  add_custom_target(spvbc_man ALL DEPENDS ${SPVBC_MAN_PAGE})
  install(FILES ${SPVBC_MAN_PAGE} DESTINATION ${CMAKE_INSTALL_MANDIR}/man1
    COMPONENT spvbc_runtime)
endif()

# bash completion: bash-completion loads completions/<command> on demand from every
# $XDG_DATA_DIRS/bash-completion/completions (for /usr that is its own completionsdir,
# `pkg-config --variable=completionsdir bash-completion`), so DATADIR keeps the tree relocatable.
set(SPVBC_COMPLETION_SCRIPT ${PROJECT_SOURCE_DIR}/source/tools/completion/spirv-bitcast)
install(FILES ${SPVBC_COMPLETION_SCRIPT}
  DESTINATION ${CMAKE_INSTALL_DATADIR}/bash-completion/completions COMPONENT spvbc_runtime)
