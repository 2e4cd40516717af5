# Cross build for s390x (64-bit, big-endian) with Debian's gcc-s390x-linux-gnu and
# g++-s390x-linux-gnu, run under qemu-user (qemu-s390x) with libc6-s390x-cross.
set(SPVBC_CROSS_TRIPLE s390x-linux-gnu)
set(CMAKE_SYSTEM_PROCESSOR s390x)
set(SPVBC_CROSS_QEMU qemu-s390x)
include(${CMAKE_CURRENT_LIST_DIR}/linux-qemu.cmake)
