# spvbc::testbase (test/support/CMakeLists.txt says what it holds).  Included from there, and
# from bench/CMakeLists.txt when SPVBC_BUILD_TESTS is off: the benchmark builds its modules and
# counts its memory with the same code as the tests.
add_library(spvbc_testbase STATIC ${CMAKE_CURRENT_LIST_DIR}/modbuild.c
                                  ${CMAKE_CURRENT_LIST_DIR}/test_alloc.c
                                  ${CMAKE_CURRENT_LIST_DIR}/test_time.c)
target_include_directories(spvbc_testbase PUBLIC ${CMAKE_CURRENT_LIST_DIR}
                                                 ${PROJECT_SOURCE_DIR}/include)
target_link_libraries(spvbc_testbase PUBLIC spvbc::spirv_headers)
target_compile_options(spvbc_testbase PRIVATE ${SPVBC_WARNINGS})
add_library(spvbc::testbase ALIAS spvbc_testbase)
