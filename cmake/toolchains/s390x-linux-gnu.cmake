# Cross build for s390x (s390x-linux-gnu) with Debian's cross compiler (gcc-s390x-linux-gnu,
# g++-s390x-linux-gnu), run under qemu-user (qemu-s390x), the target's C library from
# libc6-s390x-cross (/usr/s390x-linux-gnu).  Target libraries (SPIRV-Tools, cmocka) come from
# Debian's s390x packages unpacked by test/cross/fetch-debs.sh into a root passed as
# -DCMAKE_FIND_ROOT_PATH=<root>; host programs (spirv-as, FileCheck, lit) are the host's own.
set(CMAKE_SYSTEM_NAME Linux)
set(CMAKE_SYSTEM_PROCESSOR s390x)
set(CMAKE_C_COMPILER s390x-linux-gnu-gcc)
set(CMAKE_CXX_COMPILER s390x-linux-gnu-g++)
set(CMAKE_LIBRARY_ARCHITECTURE s390x-linux-gnu)
find_program(SPVBC_QEMU qemu-s390x)
if(SPVBC_QEMU)
  set(CMAKE_CROSSCOMPILING_EMULATOR ${SPVBC_QEMU} -L /usr/s390x-linux-gnu)
endif()
set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
set(CMAKE_FIND_ROOT_PATH_MODE_LIBRARY ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_PACKAGE ONLY)
# SPIRV-Headers are architecture-independent: the host's /usr/include serves.
set(CMAKE_FIND_ROOT_PATH_MODE_INCLUDE BOTH)
