#!/bin/sh
# mingw-deps.sh - the target libraries of the Windows cross build, which Debian does not ship
# for MinGW-w64: cmocka (1.1.5) and SPIRV-Tools' core library (2023.1, no optimizer), built
# from Debian's own source packages (`apt-get source --download-only` with a private state and
# the machine's own mirror; nothing installed) with the MinGW-w64 toolchain file.  SPIRV-Headers
# are architecture-independent: the host's spirv-headers package serves.
#
#   mingw-deps.sh <toolchain file> <dir>
#
# Installs into <dir>/root/usr (cmocka's DLL in bin/, libSPIRV-Tools.a and a CMake package
# file for it in lib/); writes <dir>/ready when done, so a second run costs nothing.  When the
# mirror cannot be reached, writes the reason to <dir>/unavailable and exits 0 (the cross test
# is then SKIPPED with it); a build that fails is a failure (exit 1).
#
# SPDX-License-Identifier: Apache-2.0
set -u
[ $# -eq 2 ] || { echo "usage: $0 <toolchain file> <dir>" >&2; exit 2; }
here=$(cd "$(dirname "$0")" && pwd)
# The fetch helpers (fetch_begin, give_up, apt_init, apt_in, apt_error, host_sources_line).
DEBIAN_TREE_LIB=1 . "$here/../../cmake/debian-tree.sh"
toolchain=$1
want="cmocka (C99 printf) spirv-tools (core) for MinGW-w64"
fetch_begin "$2" "$want" mingw-deps
rm -rf "$dir/src"
jobs=${SPVBC_CROSS_JOBS:-2}

failed() {
    echo "mingw-deps: $1 (log: $2)"
    tail -n 40 "$2"
    exit 1
}

[ -f /usr/include/spirv/unified1/spirv.core.grammar.json ] ||
    give_up "SPIRV-Headers' grammar files not found (Debian package spirv-headers)"
command -v apt-get >/dev/null && command -v dpkg >/dev/null ||
    give_up "apt-get/dpkg not found (not a Debian system)"
# The machine's own Debian archive and keyring (cmake/debian-tree.sh), as a source-package line.
line=$(host_sources_line 2>"$dir/mirror.err") ||
    give_up "no Debian mirror: $(cat "$dir/mirror.err")"
line=$(echo "$line" | sed 's/^deb /deb-src /')

start=$(date +%s)
apt_dir="$dir/apt"
mkdir -p "$dir/src" "$dir/root/usr/include"
# shellcheck disable=SC2154 # apt_reason: set by debian-tree.sh's apt_init
apt_init "$apt_dir" "$line" || give_up "$apt_reason"
apt_in "$apt_dir" apt-get -qq update >"$dir/apt.log" 2>&1 ||
    give_up "apt-get update ($line) failed: $(apt_error "$dir/apt.log")"
(cd "$dir/src" && apt_in "$apt_dir" apt-get -qq source --download-only cmocka spirv-tools) \
    >>"$dir/apt.log" 2>&1 ||
    give_up "apt-get source cmocka spirv-tools failed: $(apt_error "$dir/apt.log")"
rm -rf "$apt_dir"
for t in "$dir"/src/*.orig.tar.gz "$dir"/src/*.orig.tar.xz; do
    [ -f "$t" ] || continue
    tar -xf "$t" -C "$dir/src" || failed "cannot unpack $t" "$dir/apt.log"
done
cmocka_src=$(find "$dir/src" -maxdepth 1 -type d -name 'cmocka-*' | head -n 1)
spvtools_src=$(find "$dir/src" -maxdepth 1 -type d -iname 'SPIRV-Tools-*' | head -n 1)
[ -n "$cmocka_src" ] && [ -n "$spvtools_src" ] ||
    failed "the source packages have an unexpected layout" "$dir/apt.log"

# SPIRV-Headers: only the spirv/ tree of the host's package (the rest of /usr/include is the
# host's C library, which must stay out of a MinGW build).
ln -sfn /usr/include/spirv "$dir/root/usr/include/spirv"

# cmocka: its DLL (the tests find it through WINEPATH) and CMake package.
cmake -S "$cmocka_src" -B "$dir/build-cmocka" -G Ninja -DCMAKE_TOOLCHAIN_FILE="$toolchain" \
    -DCMAKE_BUILD_TYPE=Release -DCMAKE_INSTALL_PREFIX="$dir/root/usr" -DWITH_EXAMPLES=OFF \
    -DCMAKE_C_FLAGS=-D__USE_MINGW_ANSI_STDIO=1 \
    -DCMAKE_SHARED_LINKER_FLAGS=-static-libgcc >"$dir/cmocka.log" 2>&1 &&
    nice cmake --build "$dir/build-cmocka" -j "$jobs" >>"$dir/cmocka.log" 2>&1 &&
    cmake --install "$dir/build-cmocka" >>"$dir/cmocka.log" 2>&1 ||
    failed "cmocka does not build for MinGW-w64" "$dir/cmocka.log"
# cmocka 1.1.5's package file names the import library cmocka.dll.a; it is libcmocka.dll.a.
sed -i 's|/cmocka\.dll\.a|/libcmocka.dll.a|' "$dir/root/usr/lib/cmake/cmocka/cmocka-config.cmake"
# Built with MinGW-w64's C99 printf (as this project is), its messages take %zu: say so to the
# compiler, whose `printf` format means msvcrt's there.
sed -i 's|__format__ (__printf__|__format__ (__gnu_printf__|' "$dir/root/usr/include/cmocka.h"

# SPIRV-Tools: the core library only (validator, disassembler: what the CLI and the tests
# link); the optimizer (SPIRV-Tools-opt, the CLI's `opt` command) would triple the build time.
mkdir -p "$dir/headers/include"
ln -sfn /usr/include/spirv "$dir/headers/include/spirv"
cmake -S "$spvtools_src" -B "$dir/build-spirv-tools" -G Ninja \
    -DCMAKE_TOOLCHAIN_FILE="$toolchain" -DCMAKE_BUILD_TYPE=Release \
    -DSPIRV-Headers_SOURCE_DIR="$dir/headers" -DSPIRV_SKIP_EXECUTABLES=ON -DSPIRV_SKIP_TESTS=ON \
    -DSPIRV_WERROR=OFF -DBUILD_SHARED_LIBS=OFF -DSPIRV_TOOLS_BUILD_STATIC=ON \
    -DSPIRV_TOOLS_LIBRARY_TYPE=STATIC >"$dir/spirv-tools.log" 2>&1 &&
    nice cmake --build "$dir/build-spirv-tools" -j "$jobs" --target SPIRV-Tools-static \
        >>"$dir/spirv-tools.log" 2>&1 ||
    failed "SPIRV-Tools does not build for MinGW-w64" "$dir/spirv-tools.log"
lib=$(find "$dir/build-spirv-tools" -name 'libSPIRV-Tools.a' | head -n 1)
[ -n "$lib" ] || failed "no libSPIRV-Tools.a after the build" "$dir/spirv-tools.log"
mkdir -p "$dir/root/usr/lib/cmake/SPIRV-Tools" "$dir/root/usr/include/spirv-tools"
cp "$lib" "$dir/root/usr/lib/libSPIRV-Tools.a"
cp "$spvtools_src"/include/spirv-tools/*.h "$spvtools_src"/include/spirv-tools/*.hpp \
    "$dir/root/usr/include/spirv-tools/"
cat >"$dir/root/usr/lib/cmake/SPIRV-Tools/SPIRV-ToolsConfig.cmake" <<'CMAKE'
# Written by test/cross/mingw-deps.sh: SPIRV-Tools' core library built for MinGW-w64.
get_filename_component(_spvt_prefix "${CMAKE_CURRENT_LIST_DIR}/../../.." ABSOLUTE)
if(NOT TARGET SPIRV-Tools-static)
  add_library(SPIRV-Tools-static STATIC IMPORTED)
  set_target_properties(SPIRV-Tools-static PROPERTIES
    IMPORTED_LOCATION "${_spvt_prefix}/lib/libSPIRV-Tools.a"
    INTERFACE_INCLUDE_DIRECTORIES "${_spvt_prefix}/include"
    IMPORTED_LINK_INTERFACE_LANGUAGES CXX)
endif()
CMAKE
rm -rf "$dir/build-spirv-tools" "$dir/src"
{
    echo "$want"
    echo "built in $(($(date +%s) - start)) s"
} >"$dir/ready"
echo "mingw-deps: cmocka and SPIRV-Tools built for MinGW-w64 in $(($(date +%s) - start)) s"
