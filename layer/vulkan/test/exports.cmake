# layer.exports: the layer library LIB (nm NM) exports exactly the loader's entry points,
# whatever it links in (the library, the core, Vulkan-Utility-Libraries' layer settings and the
# C++ they pull in are all hidden).
set(_want vkGetDeviceProcAddr vkGetInstanceProcAddr vkNegotiateLoaderLayerInterfaceVersion)
execute_process(COMMAND ${NM} -D --defined-only ${LIB} OUTPUT_VARIABLE syms RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "nm -D --defined-only ${LIB} failed (${rc})")
endif()
string(REGEX MATCHALL "[^\n]+" lines "${syms}")
set(_got "")
foreach(line IN LISTS lines)
  string(REGEX REPLACE "^.* " "" name "${line}")
  list(APPEND _got ${name})
endforeach()
list(SORT _got)
if(NOT _got STREQUAL _want)
  message(FATAL_ERROR "${LIB} exports:\n${syms}\nwanted exactly: ${_want}")
endif()
message(STATUS "${LIB} exports exactly ${_want}")
