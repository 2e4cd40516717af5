# Cross build for armhf (arm-linux-gnueabihf) with Debian's cross compiler (gcc-arm-linux-gnueabihf,
# g++-arm-linux-gnueabihf), run under qemu-user (qemu-arm), the target's C library from
# libc6-armhf-cross (/usr/arm-linux-gnueabihf).  Target libraries (SPIRV-Tools, cmocka) come from
# Debian's armhf packages unpacked by test/cross/fetch-debs.sh into a root passed as
# -DCMAKE_FIND_ROOT_PATH=<root>; host programs (spirv-as, FileCheck, lit) are the host's own.
set(CMAKE_SYSTEM_NAME Linux)
set(CMAKE_SYSTEM_PROCESSOR arm)
set(CMAKE_C_COMPILER arm-linux-gnueabihf-gcc)
set(CMAKE_CXX_COMPILER arm-linux-gnueabihf-g++)
set(CMAKE_LIBRARY_ARCHITECTURE arm-linux-gnueabihf)
find_program(SPVBC_QEMU qemu-arm)
if(SPVBC_QEMU)
  set(CMAKE_CROSSCOMPILING_EMULATOR ${SPVBC_QEMU} -L /usr/arm-linux-gnueabihf)
endif()
set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
set(CMAKE_FIND_ROOT_PATH_MODE_LIBRARY ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_PACKAGE ONLY)
# SPIRV-Headers are architecture-independent: the host's /usr/include serves.
set(CMAKE_FIND_ROOT_PATH_MODE_INCLUDE BOTH)
