#!/bin/sh
# run.sh - the Meson build of the library: builds meson.build on its own (shared,
# -Werror, the CMake build's warnings), then a consumer project that pulls it in as a
# subproject with dependency(..., fallback:), runs the consumer and checks the module it hands
# on with spirv-val.  Exit 77 (SKIPPED) with the reason when meson or ninja is missing.
#
#   run.sh <source dir> <work dir> <spirv-val>
#
# SPDX-License-Identifier: Apache-2.0
set -eu
src=$(cd "$1" && pwd)
mkdir -p "$2"
work=$(cd "$2" && pwd)
val=$3
command -v meson >/dev/null || { echo "SKIP: meson not found (Debian package meson)"; exit 77; }
command -v ninja >/dev/null || { echo "SKIP: ninja not found (Debian package ninja-build)"; exit 77; }
start=$(date +%s)

# The library on its own, as a top-level project.
rm -rf "$work/lib"
meson setup "$work/lib" "$src" --buildtype=debugoptimized >"$work/lib.log" 2>&1 ||
    { cat "$work/lib.log"; exit 1; }
ninja -C "$work/lib" >>"$work/lib.log" 2>&1 || { cat "$work/lib.log"; exit 1; }
grep -q -- '-Wconversion' "$work/lib/build.ninja" || { echo "FAIL: no -Wconversion"; exit 1; }
grep -q -- '-Werror' "$work/lib/build.ninja" || { echo "FAIL: no -Werror"; exit 1; }

# The consumer, with the checkout as its subproject.
rm -rf "$work/consumer"
mkdir -p "$work/consumer/subprojects"
cp "$src/test/meson/consumer/meson.build" "$src/test/install/consumer/consumer.c" \
    "$work/consumer/"
ln -s "$src" "$work/consumer/subprojects/spirv-bitcast"
# --force-fallback-for: the subproject even where an installed spirv-bitcast.pc would do
# (package.debian installs one for a while, in parallel).
meson setup --force-fallback-for=spirv-bitcast "$work/consumer/build" "$work/consumer" \
    >"$work/consumer.log" 2>&1 ||
    { cat "$work/consumer.log"; exit 1; }
grep -q 'Executing subproject spirv-bitcast' "$work/consumer.log" ||
    { cat "$work/consumer.log"; echo "FAIL: not built as a subproject"; exit 1; }
ninja -C "$work/consumer/build" >>"$work/consumer.log" 2>&1 || { cat "$work/consumer.log"; exit 1; }
"$work/consumer/build/consumer" "$work/consumer/out.spv"
"$val" "$work/consumer/out.spv"
echo "meson: library and subproject consumer built and run in $(($(date +%s) - start)) s"
