#!/bin/sh
# mesa.sh BUILD [ROUNDS] - what spirv-bitcast inside Mesa's SPIR-V front end costs: the
# benchmark of docs/mesa.md.  Runs spvbc_bench_mesa_cost (bench/mesa_cost.c) on the patched
# lavapipe and on Debian's own lavapipe of the same version, both in the Debian 13 root that
# cmake/mesa-native.sh made for BUILD (`cmake --build BUILD --target mesa-native`, or ctest -L
# mesa-native), over the execution suite's modules and the real modules of the Vulkan layer's
# benchmark kit (BUILD/layer/vulkan/test/vkbench/modules/real), patched and Debian alternating;
# then Mesa's spirv2nir, unpatched and patched, over the same-NIR test's modules.
# Needs root (the chroot).  Exit status: the program's (77: no build or no root).
# SPDX-License-Identifier: Apache-2.0
set -u
[ $# -ge 1 ] || { echo "usage: $0 BUILD [ROUNDS]" >&2; exit 2; }
build=$(cd "$1" && pwd) || exit 1
rounds=${2:-5}
here=$(cd "$(dirname "$0")/.." && pwd)
prog=$build/bench/spvbc_bench_mesa_cost
[ -x "$prog" ] || { echo "no $prog (cmake --build $build --target spvbc_bench_mesa_cost)" >&2; exit 2; }
real=$build/layer/vulkan/test/vkbench/modules/real
[ -d "$real" ] || real=
uname -srm
for pass in 1 2; do
    for which in patched debian; do
        echo "== pass $pass: $which lavapipe"
        SPVBC_CHROOT_BINDS=$build sh "$here/cmake/mesa-native.sh" run "$build/mesa-native" \
            "$which" vulkan "$prog" --rounds "$rounds" $real || exit $?
    done
done
# spirv_to_nir() itself, through Mesa's spirv2nir, unpatched and patched, over the modules the
# same-NIR test (ctest -R mesa-native.same-nir) left in the root.
if [ -f "$build/mesa-native/root/mesa/nir/list" ]; then
    echo "== spirv2nir over the same-NIR test's $(wc -l <"$build/mesa-native/root/mesa/nir/list") entry points"
    sh "$here/cmake/mesa-native.sh" nir "$build/mesa-native" --time "$rounds"
else
    echo "== spirv2nir: SKIPPED (no module list: run ctest -R mesa-native.same-nir first)"
fi
