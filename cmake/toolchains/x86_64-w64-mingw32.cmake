# Cross build for 64-bit Windows with Debian's MinGW-w64 (gcc-mingw-w64-x86-64,
# g++-mingw-w64-x86-64), run under Wine (wine64).  Debian has no SPIRV-Tools for this target:
# the build has SPVBC_SPIRV_TOOLS off (see external/CMakeLists.txt); cmocka is built from
# Debian's source package by test/cross/run.sh into a root passed as -DCMAKE_FIND_ROOT_PATH.
set(CMAKE_SYSTEM_NAME Windows)
set(CMAKE_SYSTEM_PROCESSOR x86_64)
set(CMAKE_C_COMPILER x86_64-w64-mingw32-gcc)
set(CMAKE_CXX_COMPILER x86_64-w64-mingw32-g++)
set(CMAKE_RC_COMPILER x86_64-w64-mingw32-windres)
find_program(SPVBC_WINE NAMES wine64 wine HINTS /usr/lib/wine)
if(SPVBC_WINE)
  set(CMAKE_CROSSCOMPILING_EMULATOR ${SPVBC_WINE})
endif()
# Programs built here need no MinGW DLL beside them under Wine.
set(CMAKE_EXE_LINKER_FLAGS_INIT "-static")
set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
set(CMAKE_FIND_ROOT_PATH_MODE_LIBRARY ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_PACKAGE ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_INCLUDE BOTH)
