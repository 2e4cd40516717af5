# A second Mesa for the Vulkan tests: lavapipe from Mesa 25.0.7 (Debian bookworm-backports),
# fetched at test time by cmake/mesa25.sh into the build tree (once: a second run costs nothing)
# and selected per test with VK_DRIVER_FILES.  The system's Mesa and apt sources stay untouched.
#
#   spvbc_add_mesa25_test(<name> LABELS <labels...> [TIMEOUT <s>] [ENVIRONMENT <vars...>]
#                         COMMAND <command...>)
# adds test <name> that runs <command> on that driver, with label mesa25; it needs the fixture
# mesa25.fetch, and reports SKIPPED (77, with the reason) where the download was impossible.
# Not in the sanitizer build (the driver would run twice for no new finding).
include_guard(GLOBAL)
include(${CMAKE_CURRENT_LIST_DIR}/runner-test.cmake)

option(SPVBC_MESA25 "Also run the Vulkan tests on lavapipe from Mesa 25.0.7 (bookworm-backports)"
  ON)
set(SPVBC_MESA25_DIR "${PROJECT_BINARY_DIR}/mesa25" CACHE PATH
  "Where cmake/mesa25.sh unpacks Mesa 25.0.7 (kept between runs)")
set(SPVBC_MESA25_SH "${CMAKE_CURRENT_LIST_DIR}/mesa25.sh" CACHE INTERNAL "")

if(SPVBC_MESA25 AND NOT SPVBC_SANITIZE)
  find_program(SPVBC_SH sh REQUIRED)
  add_test(NAME mesa25.fetch COMMAND ${SPVBC_SH} ${SPVBC_MESA25_SH} fetch ${SPVBC_MESA25_DIR})
  set_tests_properties(mesa25.fetch PROPERTIES FIXTURES_SETUP mesa25 LABELS "mesa25"
    TIMEOUT 600)
  spvbc_fetch_test(mesa25.fetch)
endif()

function(spvbc_add_mesa25_test name)
  if(SPVBC_MESA25 AND NOT SPVBC_SANITIZE)
    spvbc_add_runner_test(${name} ${ARGN} FIXTURE mesa25 DEFAULT_TIMEOUT 300 BASE_LABELS mesa25
      RUNNER ${SPVBC_SH} ${SPVBC_MESA25_SH} run ${SPVBC_MESA25_DIR})
  endif()
endfunction()
