#!/bin/sh
# run.sh - the Meson build of the library: builds meson.build on its own (shared, with
# --werror and the CMake build's warnings), then a consumer project that pulls it in as a
# subproject with dependency(..., fallback:), runs the consumer and checks the module it hands
# on with spirv-val, and checks that a shared object linking the static subproject exports no
# spvbc_ symbol and that the subproject leaves warnings-as-errors to its parent.  Exit 77
# (SKIPPED) with the reason when meson or ninja is missing.
# Both builds must use the SPIRV-Headers the CMake build uses (<headers version>, what
# cmake/spirv-headers.cmake chose: on Debian 12 with -DSPVBC_FETCH_SPIRV_HEADERS=ON Debian
# unstable's 1.4.363 (else Debian 13's 1.4.309, fetched once into <work dir>/trixie-spirv-headers)
# by the same cmake/debian-tree.sh, which the Meson build then fetches too with
# -Dfetch_spirv_headers=true): the Meson message,
# the compile lines and the version the library names (N-UNKNOWN-OPCODE's sentence) say so.
#
#   run.sh <source dir> <work dir> <spirv-val> [<headers version>]
#
# SPDX-License-Identifier: Apache-2.0
set -eu
src=$(cd "$1" && pwd)
mkdir -p "$2"
work=$(cd "$2" && pwd)
val=$3
want=${4:-}
command -v meson >/dev/null || { echo "SKIP: meson not found (Debian package meson)"; exit 77; }
command -v ninja >/dev/null || { echo "SKIP: ninja not found (Debian package ninja-build)"; exit 77; }
start=$(date +%s)

# The library on its own, as a top-level project.
rm -rf "$work/lib"
tree=$work/trixie-spirv-headers
# Fetch only where the CMake build did (its headers are newer than the installed ones).
fetch=false
installed=$(sh "$src/cmake/spirv-headers-version.sh" file /usr/include/spirv/unified1/spirv.h)
[ -n "$want" ] && [ "$want" != "$installed" ] && fetch=true
meson setup "$work/lib" "$src" --buildtype=debugoptimized --werror -Dspirv_headers_tree="$tree" \
    -Dfetch_spirv_headers=$fetch \
    >"$work/lib.log" 2>&1 || { cat "$work/lib.log"; exit 1; }
ninja -C "$work/lib" >>"$work/lib.log" 2>&1 || { cat "$work/lib.log"; exit 1; }
grep -q -- '-Wconversion' "$work/lib/build.ninja" || { echo "FAIL: no -Wconversion"; exit 1; }
grep -q -- '-Werror' "$work/lib/build.ninja" || { echo "FAIL: no -Werror"; exit 1; }
headers=$(sed -n 's/.*spirv-bitcast: .*SPIRV-Headers \([^ ]*\) (.*/\1/p' "$work/lib.log" | head -n 1)
echo "meson: $(grep -o 'spirv-bitcast: .*SPIRV-Headers [^)]*)' "$work/lib.log" | head -n 1)"
if [ -n "$want" ]; then
    [ "$headers" = "$want" ] ||
        { cat "$work/lib.log"; echo "FAIL: Meson used SPIRV-Headers '$headers', CMake $want"; exit 1; }
    grep -aq "SPIRV-Headers $want)" "$work"/lib/libspirv-bitcast.so ||
        { echo "FAIL: the library does not name SPIRV-Headers $want"; exit 1; }
    if [ -d "$tree/root" ] && grep -q "^spirv-headers .*+$want" "$tree/packages" 2>/dev/null; then
        grep -q -- "-isystem $tree/root/usr/include" "$work/lib/build.ninja" ||
            { echo "FAIL: not compiled against $tree/root/usr/include"; exit 1; }
    fi
fi

# The consumer, with the checkout as its subproject.
rm -rf "$work/consumer"
mkdir -p "$work/consumer/subprojects"
cp "$src/test/meson/consumer/meson.build" "$src/test/meson/consumer/driver.c" \
    "$src/test/install/consumer/consumer.c" \
    "$work/consumer/"
ln -s "$src" "$work/consumer/subprojects/spirv-bitcast"
# --force-fallback-for: the subproject even where an installed spirv-bitcast.pc would do
# (package.debian installs one for a while, in parallel).
meson setup --force-fallback-for=spirv-bitcast -Dspirv-bitcast:spirv_headers_tree="$tree" \
    -Dspirv-bitcast:fetch_spirv_headers=$fetch \
    "$work/consumer/build" "$work/consumer" >"$work/consumer.log" 2>&1 ||
    { cat "$work/consumer.log"; exit 1; }
grep -q 'Executing subproject spirv-bitcast' "$work/consumer.log" ||
    { cat "$work/consumer.log"; echo "FAIL: not built as a subproject"; exit 1; }
ninja -C "$work/consumer/build" >>"$work/consumer.log" 2>&1 || { cat "$work/consumer.log"; exit 1; }
if [ -n "$want" ] && ! grep -q "spirv-bitcast: .*SPIRV-Headers $want (" "$work/consumer.log"; then
    cat "$work/consumer.log"; echo "FAIL: the subproject did not use SPIRV-Headers $want"; exit 1
fi
"$work/consumer/build/consumer" "$work/consumer/out.spv"
# Warnings as errors are the parent's: the subproject's own compile lines do not have -Werror.
if grep -E 'subprojects/spirv-bitcast/source/[a-z]+\.c' "$work/consumer/build/compile_commands.json" |
    grep -q -- '-Werror'; then
    echo "FAIL: the subproject compiles with -Werror of its own"; exit 1
fi
# A driver's shared object that links the static subproject exports none of its symbols.
so=$(find "$work/consumer/build" -maxdepth 1 -name 'libconsumer_driver.so*' -type f | head -n 1)
[ -n "$so" ] || { echo "FAIL: no libconsumer_driver.so"; exit 1; }
nm -D --defined-only "$so" | grep -q ' consumer_driver_entry$' ||
    { echo "FAIL: $so does not export its own entry point"; exit 1; }
leaked=$(nm -D --defined-only "$so" | grep -c ' spvbc_' || true)
[ "$leaked" = 0 ] || { nm -D --defined-only "$so" | grep ' spvbc_'; echo "FAIL: $so exports $leaked spvbc_ symbols"; exit 1; }
echo "meson: the static subproject adds no exported symbol to a shared object"
"$val" "$work/consumer/out.spv"
echo "meson: library and subproject consumer built and run in $(($(date +%s) - start)) s"
