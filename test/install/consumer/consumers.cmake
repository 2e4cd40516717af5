# The two executables both consumer projects build from consumer.c (test/install/consumer, found
# through find_package, and test/install/subdir, through add_subdirectory): one linked with the
# shared and one with the static SPIRV-Bitcast:: target, as strict C11 with warnings as errors.
# install_tests.py runs both and compares what they hand on.
foreach(kind shared static)
  add_executable(consumer_${kind} ${CMAKE_CURRENT_LIST_DIR}/consumer.c)
  set_target_properties(consumer_${kind} PROPERTIES C_STANDARD 11 C_STANDARD_REQUIRED ON
                                                    C_EXTENSIONS OFF)
  target_compile_options(consumer_${kind} PRIVATE -Wall -Wextra -Wpedantic -Werror)
endforeach()
target_link_libraries(consumer_shared PRIVATE SPIRV-Bitcast::spirv-bitcast)
target_link_libraries(consumer_static PRIVATE SPIRV-Bitcast::spirv-bitcast-static)
