#!/bin/sh
# run.sh - one cross target of ctest label `cross`: configures, builds and tests the library,
# the CLI, the unit tests and the lit/FileCheck fixtures for <target> with Debian's cross
# compiler, running every test program under the target's emulator (CMAKE_CROSSCOMPILING_EMULATOR:
# qemu-user or Wine); the fixtures' inputs are assembled by the host's spirv-as.
#
#   run.sh <target> <source dir> <work dir>
#   <target>: s390x-linux-gnu | arm-linux-gnueabihf | x86_64-w64-mingw32
#
# Exit 0: every test of the cross build passed or was skipped with its reason; 1: a failure;
# 77 (ctest: SKIPPED) with `SKIP: <reason>` when the toolchain, the emulator or the target's
# packages are missing.  The target's libraries come from Debian packages of that architecture
# (fetch-debs.sh) or, where Debian has none for the target, from Debian's source package
# (cmocka and SPIRV-Tools for MinGW: mingw-deps.sh); the last line gives the counts.
#
# SPDX-License-Identifier: Apache-2.0
set -u
[ $# -eq 3 ] || { echo "usage: $0 <target> <source dir> <work dir>" >&2; exit 2; }
target=$1
src=$(cd "$2" && pwd)
mkdir -p "$3" || exit 1
work=$(cd "$3" && pwd)
here=$(cd "$(dirname "$0")" && pwd)
jobs=${SPVBC_CROSS_JOBS:-2}

skip() {
    echo "SKIP: $target: $1"
    exit 77
}

need() { # need <program> <Debian package>
    command -v "$1" >/dev/null 2>&1 || [ -x "$1" ] || skip "$1 not found (Debian package $2)"
}

case $target in
s390x-linux-gnu) arch=s390x emu=qemu-s390x emupkg=qemu-user ;;
arm-linux-gnueabihf) arch=armhf emu=qemu-arm emupkg=qemu-user ;;
x86_64-w64-mingw32) arch=win64 emu=/usr/lib/wine/wine64 emupkg=wine64 ;;
*) echo "run.sh: unknown target $target" >&2; exit 2 ;;
esac
need "$target-gcc" "gcc-$(echo "$target" | tr _ -)"
need "$target-g++" "g++-$(echo "$target" | tr _ -)"
[ "$arch" = win64 ] && ! [ -x "$emu" ] && command -v wine64 >/dev/null && emu=wine64
need "$emu" "$emupkg"

deps=$work/deps
if [ "$arch" = win64 ]; then
    sh "$here/mingw-deps.sh" "$src/cmake/toolchains/$target.cmake" "$deps" || exit 1
else
    sh "$here/fetch-debs.sh" "$arch" "$deps" spirv-tools libcmocka0 libcmocka-dev || exit 1
fi
[ -f "$deps/unavailable" ] && skip "the target's libraries: $(cat "$deps/unavailable")"

build=$work/build
start=$(date +%s)
# The library, the CLI and the tests that run a target program: support, unit, lit.  No
# examples/bench/layer (they need Vulkan, OpenCL or the host's drivers).
cmake -S "$src" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
    -DCMAKE_TOOLCHAIN_FILE="$src/cmake/toolchains/$target.cmake" \
    -DCMAKE_FIND_ROOT_PATH="$deps/root" -DSPVBC_EXTRA_DIRS= \
    -DSPVBC_TESTS_ONLY="support;unit;lit" >"$work/configure.log" 2>&1 ||
    { cat "$work/configure.log"; echo "FAIL: $target: configure"; exit 1; }
nice cmake --build "$build" -j "$jobs" >"$work/build.log" 2>&1 ||
    { tail -n 60 "$work/build.log"; echo "FAIL: $target: build"; exit 1; }
built=$(date +%s)

# Wine: the tests find cmocka's DLL through WINEPATH.  Each run has its own private prefix, a new
# directory below the work tree (never $HOME): wineserver's socket is keyed by the prefix's
# directory, so no server of an earlier, killed or concurrent run can be found half-gone ("a
# wine server seems to be running, but I cannot connect to it").  One persistent server serves
# every program of the run (no program starts its own under load): started and checked here,
# killed and waited for at the end, and the prefix removed.
export WINEDEBUG=-all WINEPATH="Z:$deps/root/usr/bin"
if [ "$arch" = win64 ]; then
    server=$(dirname "$(command -v "$emu")")/wineserver
    [ -x "$server" ] || server=wineserver
    for old in "$work"/wineprefix.*; do # a killed run's leftovers
        [ -d "$old" ] || continue
        WINEPREFIX=$old "$server" -k 2>/dev/null
        WINEPREFIX=$old "$server" -w 2>/dev/null
        rm -rf "$old"
    done
    rm -rf "$work/wineprefix" # the shared prefix of earlier versions of this script
    WINEPREFIX=$(mktemp -d "$work/wineprefix.XXXXXX") || exit 1
    export WINEPREFIX
    stop_wine() {
        "$server" -k 2>/dev/null
        "$server" -w 2>/dev/null
        rm -rf "$WINEPREFIX"
    }
    trap stop_wine EXIT
    trap 'exit 1' INT TERM HUP
    # wineserver -p returns once its socket accepts; the first program makes the prefix (its
    # first-run messages stay out of the tests' output).  Retried: a loaded machine can be slow.
    ok=0
    : >"$work/wineboot.log"
    for try in 1 2 3; do
        if "$server" -p 2>>"$work/wineboot.log" &&
            "$emu" "$build/source/spirv-bitcast.exe" --version >>"$work/wineboot.log" 2>&1; then
            ok=1
            break
        fi
        echo "wine start, try $try failed" >>"$work/wineboot.log"
        "$server" -k 2>/dev/null
        "$server" -w 2>/dev/null
        sleep 2
    done
    [ $ok = 1 ] || { tail -n 20 "$work/wineboot.log"; echo "FAIL: $target: wine does not start"; exit 1; }
fi
ctest --test-dir "$build" -j "$jobs" -V --timeout 900 >"$work/ctest.log" 2>&1
rc=$?
# Wine itself can fail a program under load: "wine client error:0: recvmsg: Connection reset by
# peer" (the server dropped the client; seen about once in five runs on 2 busy cores).  That is
# no verdict on the program: the failed tests run once more, with the server started again, and
# their second run decides.  A test that fails without that message is not run again.
if [ $rc -ne 0 ] && [ "$arch" = win64 ] && grep -q 'wine client error' "$work/ctest.log"; then
    echo "note: $target: Wine lost a program's server connection (wine client error); the failed" \
        "tests run once more"
    grep -E '^ *[0-9]+/[0-9]+ Test +#.*Failed' "$work/ctest.log"
    "$server" -p 2>/dev/null
    ctest --test-dir "$build" --rerun-failed -V --timeout 900 >"$work/ctest-rerun.log" 2>&1
    rc=$?
    cat "$work/ctest-rerun.log" >>"$work/ctest.log"
fi
end=$(date +%s)
# ctest's verdicts, the failures' output, then the counts: cmocka's per program, lit's.
grep -E '^ *[0-9]+/[0-9]+ Test +#|tests passed|SKIP' "$work/ctest.log"
if [ $rc -ne 0 ]; then
    grep -E '(FAIL|Failed|error|\[  FAILED  \])' "$work/ctest.log" | head -n 60
    echo "FAIL: $target: ctest failed (log: $work/ctest.log)"
    exit 1
fi
cmocka=$(sed -n 's/^[0-9]*: \[  PASSED  \] \([0-9]*\) test.*/\1/p' "$work/ctest.log" |
    awk '{ n += $1 } END { print n + 0 }')
cskip=$(sed -n 's/^[0-9]*: \[  SKIPPED \] \([0-9]*\) test.*/\1/p' "$work/ctest.log" |
    awk '{ n += $1 } END { print n + 0 }')
lit=$(sed -n 's/^[0-9]*: *\(Passed\|Unsupported\|Failed\|Skipped\) *: *\([0-9]*\).*/\1 \2/p' \
    "$work/ctest.log" | tr '\n' ' ')
echo "$target: built in $((built - start)) s, tests ran in $((end - built)) s;" \
    "cmocka tests passed: $cmocka (skipped: $cskip); lit fixtures: ${lit:-none}"
exit 0
