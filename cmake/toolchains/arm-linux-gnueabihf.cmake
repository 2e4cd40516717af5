# Cross build for armhf (32-bit ARM, hard float) with Debian's gcc-arm-linux-gnueabihf and
# g++-arm-linux-gnueabihf, run under qemu-user (qemu-arm) with libc6-armhf-cross.
set(SPVBC_CROSS_TRIPLE arm-linux-gnueabihf)
set(CMAKE_SYSTEM_PROCESSOR arm)
set(SPVBC_CROSS_QEMU qemu-arm)
include(${CMAKE_CURRENT_LIST_DIR}/linux-qemu.cmake)
