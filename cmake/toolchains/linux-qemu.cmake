# What the Linux cross toolchain files (arm-linux-gnueabihf.cmake, s390x-linux-gnu.cmake) share;
# each sets SPVBC_CROSS_TRIPLE, CMAKE_SYSTEM_PROCESSOR and SPVBC_CROSS_QEMU, then includes this.
# Debian's cross compiler (gcc-<triple>, g++-<triple>); the program runs under qemu-user with the
# target's C library from libc6-<arch>-cross (/usr/<triple>).  Target libraries (SPIRV-Tools,
# cmocka) come from Debian's packages of that architecture unpacked by test/cross/fetch-debs.sh
# into a root passed as -DCMAKE_FIND_ROOT_PATH=<root>; host programs (spirv-as, FileCheck, lit)
# are the host's own.
set(CMAKE_SYSTEM_NAME Linux)
set(CMAKE_C_COMPILER ${SPVBC_CROSS_TRIPLE}-gcc)
set(CMAKE_CXX_COMPILER ${SPVBC_CROSS_TRIPLE}-g++)
set(CMAKE_LIBRARY_ARCHITECTURE ${SPVBC_CROSS_TRIPLE})
find_program(SPVBC_QEMU ${SPVBC_CROSS_QEMU})
if(SPVBC_QEMU)
  set(CMAKE_CROSSCOMPILING_EMULATOR ${SPVBC_QEMU} -L /usr/${SPVBC_CROSS_TRIPLE})
endif()
set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
set(CMAKE_FIND_ROOT_PATH_MODE_LIBRARY ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_PACKAGE ONLY)
# SPIRV-Headers are architecture-independent: the host's /usr/include serves.
set(CMAKE_FIND_ROOT_PATH_MODE_INCLUDE BOTH)
