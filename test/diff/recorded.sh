#!/bin/sh
# recorded.sh - the recorded cases (the lit fixtures' .spvasm modules) against a newer
# SPIRV-Tools from a Debian tree (cmake/debian-tree.sh unpacked it; run under its own loader):
# 2025.1 from Debian 13, 2026.4 from unstable, as diff.spirv_val does for 2023.1, with
# spirv-bitcast's generation of the same name (--generation).  Each fixture is assembled by the
# tree's spirv-as with the --target-env of its own RUN line; then:
#   - a module the tree's spirv-val accepts gets no error from `spirv-bitcast validate`; at an
#     OpSpecConstantOp Bitcast, which 2023.1 and 2025.1 do not check, generation 2025.1 warns
#     where current SPIRV-Tools rejects (W-SPEC-BITCAST, docs/rules.md, the generation table):
#     counted, and an error under --strict (2026.4 checks it as OpBitcast, and so do we in its
#     generation: the count stays 0);
#   - a module the tree's spirv-val rejects at an OpBitcast gets an error from us too;
#   - every module we lower is accepted by the tree's spirv-val afterwards (when it rejected it
#     only for lowerable bitcasts) or left byte for byte (when we found nothing to lower).
#
#   recorded.sh <generation> <tree-dir> <spirv-bitcast> <work-dir> <fixture.spvasm...>
# Exits 77 ("SKIP: reason") when the tree could not be fetched.
# SPDX-License-Identifier: Apache-2.0
set -u
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=trixie_tools.sh
gen=$1
shift
. "$here/trixie_tools.sh" # $tree $cli $work, tool(); the rest of "$@" is the inputs
n=0 accepted=0 rejected=0 agree=0 other=0 lowered=0 spec=0 raw=0 fail=0
for src in "$@"; do
    # A fixture with raw words (an opcode no SPIRV-Tools knows) is not for spirv-val.
    if grep -q '^!' "$src"; then raw=$((raw + 1)); continue; fi
    name=$(basename "$(dirname "$src")").$(basename "$src" .spvasm)
    env=$(sed -n 's/.*RUN: spirv-as .*--target-env \([^ ]*\).*/\1/p' "$src" | head -n 1)
    env=${env:-spv1.6}
    spv=$work/$name.spv
    n=$((n + 1))
    if ! tool spirv-as --target-env "$env" "$src" -o "$spv" >"$work/$name.as.log" 2>&1; then
        echo "FAIL $name: spirv-as $gen cannot assemble it:"; cat "$work/$name.as.log"
        fail=1; continue
    fi
    tool spirv-val --target-env "$env" "$spv" >"$work/$name.val.log" 2>&1
    val=$?
    "$cli" validate --generation "$gen" --target-env "$env" "$spv" >"$work/$name.ours.log" 2>&1
    ours=$?
    if [ $val = 0 ]; then
        accepted=$((accepted + 1))
        if [ $ours != 0 ]; then
            echo "FAIL $name: spirv-val $gen accepts it, spirv-bitcast validate reports:"
            cat "$work/$name.ours.log"; fail=1; continue
        fi
        if grep -q "^warning:.*\[W-SPEC-BITCAST\]" "$work/$name.ours.log"; then
            spec=$((spec + 1))
            if "$cli" validate --generation "$gen" --strict --target-env "$env" "$spv" >"$work/$name.strict.log" 2>&1 ||
                ! grep -q "^error:.*\[W-SPEC-BITCAST\]" "$work/$name.strict.log"; then
                echo "FAIL $name: W-SPEC-BITCAST is no error under --strict:"
                cat "$work/$name.strict.log"; fail=1; continue
            fi
        fi
    else
        rejected=$((rejected + 1))
        if grep -q "Bitcast" "$work/$name.val.log"; then
            if [ $ours = 0 ] || ! grep -q "^error:" "$work/$name.ours.log"; then
                echo "FAIL $name: spirv-val $gen rejects a bitcast for which we report no error:"
                cat "$work/$name.val.log"; fail=1; continue
            fi
            agree=$((agree + 1))
        else
            other=$((other + 1)) # rejected for something else than a bitcast
        fi
    fi
    out=$work/$name.lowered.spv
    "$cli" lower --generation "$gen" "$spv" -o "$out" >"$work/$name.lower.log" 2>&1
    rewritten=$(sed -n 's/.* \([0-9][0-9]*\) rewritten.*/\1/p' "$work/$name.lower.log" | tail -n 1)
    if [ "${rewritten:-0}" != 0 ]; then
        lowered=$((lowered + 1))
        if [ $val != 0 ] && ! grep -q "not lowerable" "$work/$name.ours.log" &&
            ! tool spirv-val --target-env "$env" "$out" >"$work/$name.lval.log" 2>&1; then
            echo "FAIL $name: spirv-val $gen rejects the lowered module:"; cat "$work/$name.lval.log"
            fail=1; continue
        fi
    elif [ -f "$out" ] && ! cmp -s "$spv" "$out"; then
        echo "FAIL $name: lower changed a module with nothing to lower"; fail=1; continue
    fi
done
echo "recorded $gen: $n fixtures: spirv-val $gen accepts $accepted (we report an error on none;" \
    "$spec with a W-SPEC-BITCAST warning, an error under --strict)," \
    "rejects $rejected ($agree at a bitcast, all errors of ours too; $other for something else);" \
    "$lowered lowered; $raw with opcodes no SPIRV-Tools knows left out;" \
    "$([ $fail = 0 ] && echo 'all passed' || echo 'FAILED')"
exit $fail
