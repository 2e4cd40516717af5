# Fails when docs/architecture.dot differs from what check_layers.py --dot makes of source/.
execute_process(COMMAND ${PYTHON} ${CHECK} --dot ${SOURCE} OUTPUT_VARIABLE fresh RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "check_layers.py --dot failed (${rc})")
endif()
file(READ ${DOT} kept)
if(NOT fresh STREQUAL kept)
  message(FATAL_ERROR "docs/architecture.dot is stale: run\n"
    "  python3 test/layers/check_layers.py --dot source > docs/architecture.dot\n"
    "  dot -Tsvg docs/architecture.dot -o docs/architecture.svg")
endif()
message(STATUS "docs/architecture.dot matches the code")
