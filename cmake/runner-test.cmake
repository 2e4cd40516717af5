# What the driver test functions share (spvbc_add_mesa25_test in mesa25.cmake,
# spvbc_add_opencl_trixie_test in opencl-trixie.cmake): a test whose command goes through the
# script that runs it on a fetched driver and exits 77 (SKIPPED, with the reason) when the
# driver is not there.
#
#   spvbc_add_runner_test(<name> RUNNER <runner command...> FIXTURE <fixture>
#                         DEFAULT_TIMEOUT <s> BASE_LABELS <labels...> [BASE_ENVIRONMENT <vars...>]
#                         [LABELS <labels...>] [TIMEOUT <s>] [ENVIRONMENT <vars...>]
#                         COMMAND <command...>)
# adds test <name> running `<runner command...> <command...>`, needing <fixture>, with the base
# labels and environment and the caller's.
include_guard(GLOBAL)

function(spvbc_add_runner_test name)
  cmake_parse_arguments(PARSE_ARGV 1 A "" "FIXTURE;DEFAULT_TIMEOUT;TIMEOUT"
    "RUNNER;BASE_LABELS;BASE_ENVIRONMENT;LABELS;ENVIRONMENT;COMMAND")
  if(NOT A_TIMEOUT)
    set(A_TIMEOUT ${A_DEFAULT_TIMEOUT})
  endif()
  add_test(NAME ${name} COMMAND ${A_RUNNER} ${A_COMMAND})
  set_tests_properties(${name} PROPERTIES FIXTURES_REQUIRED ${A_FIXTURE} SKIP_RETURN_CODE 77
    LABELS "${A_BASE_LABELS};${A_LABELS}" TIMEOUT ${A_TIMEOUT})
  set(_env ${A_BASE_ENVIRONMENT} ${A_ENVIRONMENT})
  if(_env)
    set_tests_properties(${name} PROPERTIES ENVIRONMENT "${_env}")
  endif()
endfunction()
