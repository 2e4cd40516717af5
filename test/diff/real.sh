#!/bin/sh
# real.sh - real modules that use what a newer SPIRV-Tools knows and the one before it does not
# (2025.1: cooperative matrices; 2026.4: bfloat16, float8, long vectors), compiled by a compiler
# nobody here wrote: the glslang of the same Debian tree (15 in Debian 13, 16 in unstable;
# cmake/debian-tree.sh unpacked it), run under the tree's own loader.  For each GLSL source:
# glslang makes the module, the tree's spirv-val must accept it, `spirv-bitcast validate` in the
# generation of that SPIRV-Tools must report no error, and `spirv-bitcast lower` must return it
# byte for byte.  A source names the instruction its module must hold ("// expect:
# OpTypeCooperativeMatrixKHR"), so that a compiler that stopped emitting it fails the test
# instead of passing it with nothing new in it.
#
#   real.sh <generation> <tree-dir> <spirv-bitcast> <work-dir> <source.comp...>
# Exits 77 ("SKIP: reason") when the tree could not be fetched.
# SPDX-License-Identifier: Apache-2.0
set -u
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=trixie_tools.sh
gen=$1
shift
. "$here/trixie_tools.sh" # $tree $cli $work, tool(); the rest of "$@" is the inputs
fail=0 n=0
for src in "$@"; do
    name=$(basename "$src" .comp)
    spv=$work/$name.spv
    n=$((n + 1))
    if ! tool glslang -V --target-env vulkan1.3 "$src" -o "$spv" >"$work/$name.glslang.log" 2>&1; then
        echo "FAIL $name: the tree's glslang could not compile it:"; cat "$work/$name.glslang.log"
        fail=1; continue
    fi
    expect=$(sed -n 's|^// expect: *||p' "$src")
    if [ -z "$expect" ] || ! tool spirv-dis "$spv" | grep -q "$expect"; then
        echo "FAIL $name: the module holds no '${expect:-(no // expect: line)}'"; fail=1; continue
    fi
    if ! tool spirv-val --target-env vulkan1.3 "$spv"; then
        echo "FAIL $name: spirv-val $gen rejects glslang's module"; fail=1; continue
    fi
    if ! "$cli" validate --generation "$gen" "$spv"; then
        echo "FAIL $name: spirv-bitcast validate reports an error on a module $gen accepts"
        fail=1; continue
    fi
    if ! "$cli" lower --generation "$gen" "$spv" -o "$work/$name.lowered.spv" || ! cmp "$spv" "$work/$name.lowered.spv"; then
        echo "FAIL $name: lower did not return the module byte for byte"; fail=1; continue
    fi
    echo "ok $name: accepted by spirv-val $gen, no error, lowered byte for byte"
done
echo "real $gen: $n modules from the tree's glslang, $([ $fail = 0 ] && echo 'all passed' || echo 'FAILED')"
exit $fail
