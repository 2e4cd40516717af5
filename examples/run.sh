#!/bin/sh
# examples/run.sh BUILD_DIR - the main job on the bundled examples, as the README's first
# command runs it:  cmake -S . -B build && cmake --build build -j2 && examples/run.sh build
#
#   1. assemble examples/astype_invalid.spvasm (a Kernel module whose as_type bitcasts are
#      invalid SPIR-V, as a naive front end emits them);
#   2. show spirv-bitcast's diagnostics and spirv-val's verdict on it (both reject it);
#   3. lower it and show spirv-val accepting the result (and what changed);
#   4. the valid counterpart examples/astype_valid.spvasm: no finding, lowering is a no-op;
#   5. `explain` for two pairs, and the minimal front end built on spvbc_astype_plan().
# Outputs go to BUILD_DIR/examples/out.  Exit 0 only if every step had the expected outcome.
set -u

build=${1:-build}
here=$(cd "$(dirname "$0")" && pwd)
tool=$build/source/spirv-bitcast
frontend=$build/examples/minimal_frontend
out=$build/examples/out
failures=0
last_ok=0

step() { printf '\n==> %s\n' "$*"; }
show() { printf '$ %s\n' "$*"; }
expect() { # expect WANTED_STATUS CMD...: run CMD, show it, count a failure if its status differs
    want=$1
    shift
    show "$*"
    "$@" 2>&1
    got=$?
    last_ok=0
    [ "$got" -eq "$want" ] && last_ok=1
    if [ "$got" -ne "$want" ]; then
        printf '!! expected exit status %s, got %s\n' "$want" "$got"
        failures=$((failures + 1))
    fi
}

for t in spirv-as spirv-val spirv-dis; do
    command -v "$t" >/dev/null 2>&1 || { echo "run.sh: $t not found (apt-get install spirv-tools)" >&2; exit 2; }
done
[ -x "$tool" ] || { echo "run.sh: $tool not built (cmake --build $build)" >&2; exit 2; }
mkdir -p "$out" || exit 2

step "assemble the bundled example (OpenCL C kernels; as_type emitted as plain OpBitcast)"
expect 0 spirv-as --target-env spv1.0 "$here/astype_invalid.spvasm" -o "$out/astype_invalid.spv"

step "spirv-bitcast validate: every invalid bitcast, with types, bit widths and source line (exit 1)"
expect 1 "$tool" validate "$out/astype_invalid.spv"

step "spirv-val's verdict on the same module (it stops at the first error and names no types)"
expect 1 spirv-val "$out/astype_invalid.spv"

step "spirv-bitcast lower --verify: rewrite them into OpVectorShuffle (+ OpBitcast)"
expect 0 "$tool" lower --verify "$out/astype_invalid.spv" -o "$out/astype_lowered.spv"

step "spirv-val accepts the lowered module"
expect 0 spirv-val "$out/astype_lowered.spv"
[ "$last_ok" -eq 1 ] && echo "spirv-val: no error: the lowered module is valid SPIR-V"

step "what changed (disassembly diff; result ids, names and OpLine are kept)"
spirv-dis "$out/astype_invalid.spv" -o "$out/astype_invalid.dis"
spirv-dis "$out/astype_lowered.spv" -o "$out/astype_lowered.dis"
diff -u "$out/astype_invalid.dis" "$out/astype_lowered.dis" | grep '^[-+] ' || true

step "the valid counterpart: as clang + llvm-spirv emit as_type"
expect 0 spirv-as --target-env spv1.0 "$here/astype_valid.spvasm" -o "$out/astype_valid.spv"
expect 0 "$tool" validate --notes "$out/astype_valid.spv"
expect 0 spirv-val "$out/astype_valid.spv"
[ "$last_ok" -eq 1 ] && echo "spirv-val: no error"
expect 0 "$tool" lower "$out/astype_valid.spv" -o "$out/astype_valid.lowered.spv"
show "cmp astype_valid.spv astype_valid.lowered.spv"
if cmp "$out/astype_valid.spv" "$out/astype_valid.lowered.spv"; then
    echo "byte-identical: nothing to lower"
else
    failures=$((failures + 1))
fi

step "spirv-bitcast explain: how as_type maps onto SPIR-V"
expect 0 "$tool" explain float4 float3
expect 1 "$tool" explain float4 double4

step "a minimal front end that emits as_type through spvbc_astype_plan() (examples/minimal_frontend.c)"
if [ -x "$frontend" ]; then
    expect 0 "$frontend" "$out/frontend.spv"
    expect 0 spirv-val "$out/frontend.spv"
    [ "$last_ok" -eq 1 ] && echo "spirv-val: no error: the front end's module is valid SPIR-V"
else
    echo "(not built: $frontend)"
    failures=$((failures + 1))
fi

echo
if [ "$failures" -eq 0 ]; then
    echo "run.sh: all steps had the expected outcome"
    exit 0
fi
echo "run.sh: $failures step(s) did not have the expected outcome"
exit 1
