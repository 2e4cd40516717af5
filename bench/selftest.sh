#!/bin/sh
# bench/selftest.sh GEN SPIRV_VAL SPIRV_BITCAST WORKDIR
# The benchmark generator's self-check (ctest bench.gen_module): small modules of both variants,
# two seeds; spirv-val must accept the valid ones, reject the lowerable ones with the OpBitcast
# size message, and accept them after `spirv-bitcast lower`.
set -u
gen=$1 val=$2 cli=$3 dir=$4
mkdir -p "$dir" || exit 1
fail=0
for seed in 1 7; do
    v="$dir/valid-$seed.spv" l="$dir/lowerable-$seed.spv" o="$dir/lowered-$seed.spv"
    "$gen" -q -s 96K --seed "$seed" -o "$v" || { echo "FAIL: gen_module (valid, seed $seed)"; fail=1; continue; }
    "$gen" -q -s 96K --seed "$seed" --lowerable -o "$l" || { echo "FAIL: gen_module (lowerable, seed $seed)"; fail=1; continue; }
    if ! "$val" "$v"; then
        echo "FAIL: spirv-val rejects the valid module (seed $seed)"; fail=1
    fi
    msg=$("$val" "$l" 2>&1)
    if [ $? -eq 0 ]; then
        echo "FAIL: spirv-val accepts the lowerable module (seed $seed)"; fail=1
    elif ! printf '%s\n' "$msg" | grep -q 'Expected input to have the same total bit width as Result Type: Bitcast'; then
        echo "FAIL: spirv-val rejects the lowerable module for another reason (seed $seed):"
        printf '%s\n' "$msg"; fail=1
    fi
    rm -f "$o"
    if ! "$cli" lower -q -o "$o" "$l"; then
        echo "FAIL: spirv-bitcast lower fails on the lowerable module (seed $seed)"; fail=1
    elif ! "$val" "$o"; then
        echo "FAIL: spirv-val rejects the lowered module (seed $seed)"; fail=1
    fi
done
[ $fail -eq 0 ] && echo "PASS: gen_module self-check"
exit $fail
