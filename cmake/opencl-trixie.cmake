# Debian 13 (trixie)'s OpenCL drivers that ingest SPIR-V, for the OpenCL tests: rusticl (Mesa
# 25.0.7, on llvmpipe) and PoCL 6.0, with trixie's ICD loader, fetched at test time by
# cmake/opencl-trixie.sh (cmake/debian-tree.sh: a private apt state, the machine's own mirror,
# dpkg -x) into SPVBC_OPENCL_TRIXIE_DIR (once: a second run costs nothing).  Nothing is installed.
# On Debian 13 itself the drivers are the system's own packages: the fetch test only records
# their versions there, and the programs run directly on them.
#
#   spvbc_add_opencl_trixie_test(<name> DRIVER rusticl|pocl [LABELS <labels...>] [TIMEOUT <s>]
#                                [ENVIRONMENT <vars...>] COMMAND <program> [args...])
# adds test <name> that runs <program> (an ELF executable: a target's $<TARGET_FILE:...>) on
# that driver, with labels opencl and <driver>; it needs the fixture opencl.trixie, and reports
# SKIPPED (77, with the reason) where the download was impossible or (PoCL from the fetched
# tree) this is not root.  Paths under the source and build trees stay valid inside the
# driver's chroot.
#
# Not in the sanitizer build: the drivers would run twice for no new finding on the library,
# and the tree is fetched once.  Another build tree can share one fetched tree:
# -DSPVBC_OPENCL_TRIXIE_DIR=<the first tree's directory> (fetches are serialised by a lock).
include_guard(GLOBAL)
include(${CMAKE_CURRENT_LIST_DIR}/runner-test.cmake)

option(SPVBC_OPENCL_TRIXIE
  "Run the OpenCL tests on Debian 13's rusticl and PoCL 6.0 (fetched into the build tree)" ON)
set(SPVBC_OPENCL_TRIXIE_DIR "${PROJECT_BINARY_DIR}/opencl-trixie" CACHE PATH
  "Where cmake/opencl-trixie.sh unpacks trixie's OpenCL drivers (kept between runs)")
set(SPVBC_OPENCL_TRIXIE_SH "${CMAKE_CURRENT_LIST_DIR}/opencl-trixie.sh" CACHE INTERNAL "")
find_program(SPVBC_SH sh REQUIRED)

if(SPVBC_OPENCL_TRIXIE AND NOT SPVBC_SANITIZE)
  add_test(NAME opencl.trixie.fetch
    COMMAND ${SPVBC_SH} ${SPVBC_OPENCL_TRIXIE_SH} fetch ${SPVBC_OPENCL_TRIXIE_DIR})
  set_tests_properties(opencl.trixie.fetch PROPERTIES FIXTURES_SETUP opencl.trixie
    LABELS "opencl;rusticl;pocl" TIMEOUT 900)
  spvbc_fetch_test(opencl.trixie.fetch)
endif()

function(spvbc_add_opencl_trixie_test name)
  if(NOT SPVBC_OPENCL_TRIXIE OR SPVBC_SANITIZE)
    return()
  endif()
  cmake_parse_arguments(PARSE_ARGV 1 D "" "DRIVER" "")
  if(NOT D_DRIVER MATCHES "^(rusticl|pocl)$")
    message(FATAL_ERROR "spvbc_add_opencl_trixie_test(${name}): DRIVER rusticl or pocl")
  endif()
  spvbc_add_runner_test(${name} ${D_UNPARSED_ARGUMENTS} FIXTURE opencl.trixie
    DEFAULT_TIMEOUT 600 BASE_LABELS opencl ${D_DRIVER}
    BASE_ENVIRONMENT "SPVBC_CHROOT_BINDS=${PROJECT_SOURCE_DIR}:${PROJECT_BINARY_DIR}"
    RUNNER ${SPVBC_SH} ${SPVBC_OPENCL_TRIXIE_SH} run ${SPVBC_OPENCL_TRIXIE_DIR} ${D_DRIVER})
endfunction()
