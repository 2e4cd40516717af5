#!/bin/sh
# Prints the LLVM major version whose clang, llvm-spirv, libclc and tools (FileCheck, lit) this
# Debian release ships: 15 on Debian 12 (bookworm), 19 on Debian 13 (trixie).  On another
# release: the newest /usr/lib/llvm-N with FileCheck, else 15.  Used by .ci/install-deps.sh and
# by CMake (SPVBC_LLVM_VERSION).
codename=$( (. /etc/os-release 2>/dev/null && echo "${VERSION_CODENAME:-}") )
case $codename in
bookworm) echo 15 ;;
trixie) echo 19 ;;
*)
    for v in 21 20 19 18 17 16 15; do
        if [ -x "/usr/lib/llvm-$v/bin/FileCheck" ]; then
            echo "$v"
            exit 0
        fi
    done
    echo 15
    ;;
esac
