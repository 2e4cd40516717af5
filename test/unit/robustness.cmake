# Robustness unit tests: the catalogue of bad input, allocation failure, threads.
# Included from test/unit/CMakeLists.txt (and, as a fallback, from test/fuzz/CMakeLists.txt);
# include_guard makes the second include a no-op.  Paths are relative to this file, so the
# includer's directory does not matter.
#
# Uses: spvbc::testbase (test/support), spvbc::static, spvbc::cmocka, spvbc::spirv_tools,
# spvbc::spirv_headers,
# ${SPVBC_WARNINGS}, ${SPVBC_SANITIZE}, and the library's object target spvbc_objects_static (for the
# list of library sources that the ThreadSanitizer build recompiles).
include_guard(GLOBAL)

set(_spvbc_rb_dir ${CMAKE_CURRENT_LIST_DIR})
find_package(Threads REQUIRED)

function(spvbc_robustness_test name source)
  set(_more ${ARGN})
  list(TRANSFORM _more PREPEND ${_spvbc_rb_dir}/)
  add_executable(${name} ${_spvbc_rb_dir}/${source} ${_more})
  target_link_libraries(${name} PRIVATE spvbc::testbase spvbc::static spvbc::cmocka
                                        spvbc::spirv_tools spvbc::spirv_headers Threads::Threads)
  target_compile_options(${name} PRIVATE ${SPVBC_WARNINGS})
  # SPIRV-Tools is C++: link with the C++ driver.
  set_target_properties(${name} PROPERTIES LINKER_LANGUAGE CXX)
endfunction()

spvbc_robustness_test(spvbc_test_malformed test_malformed.c test_malformed_ids.c
                      test_malformed_types.c test_malformed_null.c unit_expect.c)
add_test(NAME unit.malformed COMMAND spvbc_test_malformed)

spvbc_robustness_test(spvbc_test_alloc_fail test_alloc_fail.c)
add_test(NAME unit.alloc_fail COMMAND spvbc_test_alloc_fail)

spvbc_robustness_test(spvbc_test_threads test_threads.c)
add_test(NAME unit.threads COMMAND spvbc_test_threads)

set_tests_properties(unit.malformed unit.alloc_fail unit.threads PROPERTIES TIMEOUT 300)

# ThreadSanitizer: the threads test against a TSan build of the library sources.  Optional:
# only where the compiler accepts -fsanitize=thread, and not in the ASan build (the two
# sanitizers cannot be combined).
include(CheckCSourceCompiles)
set(CMAKE_REQUIRED_FLAGS -fsanitize=thread)
set(CMAKE_REQUIRED_LINK_OPTIONS -fsanitize=thread)
check_c_source_compiles("int main(void) { return 0; }" SPVBC_HAVE_TSAN)
unset(CMAKE_REQUIRED_FLAGS)
unset(CMAKE_REQUIRED_LINK_OPTIONS)
if(SPVBC_HAVE_TSAN AND NOT SPVBC_SANITIZE AND TARGET spvbc_objects_static)
  get_target_property(_spvbc_srcs spvbc_objects_static SOURCES)
  get_target_property(_spvbc_srcdir spvbc_objects_static SOURCE_DIR)
  list(TRANSFORM _spvbc_srcs PREPEND ${_spvbc_srcdir}/)
  add_library(spvbc_tsan STATIC EXCLUDE_FROM_ALL ${_spvbc_srcs})
  target_include_directories(spvbc_tsan PUBLIC ${PROJECT_SOURCE_DIR}/include
                                        PRIVATE ${_spvbc_srcdir})
  target_link_libraries(spvbc_tsan PUBLIC spvbc::spirv_headers)
  target_compile_definitions(spvbc_tsan PRIVATE SPVBC_BUILDING)
  target_compile_options(spvbc_tsan PRIVATE -fsanitize=thread -fno-omit-frame-pointer -O1 -g)

  add_executable(spvbc_test_threads_tsan ${_spvbc_rb_dir}/test_threads.c)
  target_link_libraries(spvbc_test_threads_tsan PRIVATE spvbc::testbase spvbc_tsan spvbc::cmocka
                                                        spvbc::spirv_tools Threads::Threads)
  target_compile_options(spvbc_test_threads_tsan PRIVATE ${SPVBC_WARNINGS}
                                                         -fsanitize=thread -fno-omit-frame-pointer)
  target_link_options(spvbc_test_threads_tsan PRIVATE -fsanitize=thread)
  set_target_properties(spvbc_test_threads_tsan PROPERTIES LINKER_LANGUAGE CXX)
  add_test(NAME unit.threads.tsan COMMAND spvbc_test_threads_tsan)
  # halt_on_error: any report fails the test.  Some kernels randomise mmap more than older
  # TSan runtimes accept; the test then cannot start, which ctest shows as a failure to run.
  set_tests_properties(unit.threads.tsan PROPERTIES TIMEOUT 600
    ENVIRONMENT "TSAN_OPTIONS=halt_on_error=1:second_deadlock_stack=1")
endif()

# The reader's header diagnostics, its memory and the walk's fast paths (test_reader_walk.c,
# test_reader_head.c).
spvbc_robustness_test(spvbc_test_reader_walk test_reader_walk.c test_reader_head.c)
add_test(NAME unit.reader_walk COMMAND spvbc_test_reader_walk)
