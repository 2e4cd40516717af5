#!/bin/sh
# real2025.sh - real modules that use what SPIRV-Tools 2025.1 knows and 2023.1 does not
#, compiled by a compiler nobody here wrote: glslang 15 from Debian 13 (the tree
# cmake/debian-tree.sh unpacked), run under the tree's own loader.  For each GLSL source:
# glslang makes the module, spirv-val 2025.1 must accept it, `spirv-bitcast validate` must
# report no error, and `spirv-bitcast lower` must return it byte for byte.  A source names the
# instruction its module must hold ("// expect: OpTypeCooperativeMatrixKHR"), so that a compiler
# that stopped emitting it fails the test instead of passing it with nothing new in it.
#
#   real2025.sh <tree-dir> <spirv-bitcast> <work-dir> <source.comp...>
# Exits 77 ("SKIP: reason") when the tree could not be fetched.
# SPDX-License-Identifier: Apache-2.0
set -u
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=trixie_tools.sh
. "$here/trixie_tools.sh" # $tree $cli $work, tool(); the rest of "$@" is the inputs
fail=0 n=0
for src in "$@"; do
    name=$(basename "$src" .comp)
    spv=$work/$name.spv
    n=$((n + 1))
    if ! tool glslang -V --target-env vulkan1.3 "$src" -o "$spv" >"$work/$name.glslang.log" 2>&1; then
        echo "FAIL $name: glslang 15 could not compile it:"; cat "$work/$name.glslang.log"
        fail=1; continue
    fi
    expect=$(sed -n 's|^// expect: *||p' "$src")
    if [ -z "$expect" ] || ! tool spirv-dis "$spv" | grep -q "$expect"; then
        echo "FAIL $name: the module holds no '${expect:-(no // expect: line)}'"; fail=1; continue
    fi
    if ! tool spirv-val --target-env vulkan1.3 "$spv"; then
        echo "FAIL $name: spirv-val 2025.1 rejects glslang's module"; fail=1; continue
    fi
    if ! "$cli" validate --generation 2025.1 "$spv"; then
        echo "FAIL $name: spirv-bitcast validate reports an error on a module 2025.1 accepts"
        fail=1; continue
    fi
    if ! "$cli" lower --generation 2025.1 "$spv" -o "$work/$name.lowered.spv" || ! cmp "$spv" "$work/$name.lowered.spv"; then
        echo "FAIL $name: lower did not return the module byte for byte"; fail=1; continue
    fi
    echo "ok $name: accepted by spirv-val 2025.1, no error, lowered byte for byte"
done
echo "real2025: $n modules from glslang 15, $([ $fail = 0 ] && echo 'all passed' || echo 'FAILED')"
exit $fail
