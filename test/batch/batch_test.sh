#!/usr/bin/env bash
# Batch mode: validate and lower a folder of modules in parallel; one broken module never stops
# the batch, the summary counts everything, the exit code says whether any module failed.
set -u
work=$1
rm -rf "$work"; mkdir -p "$work/in/real" "$work/in/gen" "$work/out"
fail=0
check() { # check DESCRIPTION COMMAND... : the command must succeed
  if ! "${@:2}"; then echo "FAIL: $1"; fail=$((fail+1)); else echo "ok: $1"; fi
}
n_real=0
for f in "$LIBCLC_DIR"/*.spv; do
  [ -f "$f" ] || continue
  cp "$f" "$work/in/real/$(basename "$f" | tr -d '-')"; n_real=$((n_real+1))
done
for s in "$INPUTS"/*.spvasm; do
  "$SPIRV_AS" "$s" -o "$work/in/gen/$(basename "$s" .spvasm).spv" || exit 1
done
printf 'NOT A SPIR-V MODULE!' > "$work/in/gen/broken.spv"  # 20 bytes, bad magic
total=$((n_real + 3))

# validate -r: every module is reported, the broken one and the two invalid ones fail the run.
"$SPVBC" validate --jobs 2 -r "$work/in" >"$work/validate.out" 2>"$work/validate.err"
rc=$?
check "validate -r exits 1 when some module fails (rc=$rc)" test $rc -eq 1
check "summary counts all $total modules" grep -q "^summary: $total modules (1 unreadable or invalid, 3 with findings)" "$work/validate.out"
check "summary counts errors by rule" grep -q "by rule: V12=3" "$work/validate.out"
check "the broken module is named" grep -q "broken.spv: word 0: bad magic number" "$work/validate.err"
check "the lowerable error is reported" grep -q "as_float3.spv: word .*lowerable: as_float3(float4)" "$work/validate.err"

# Only the valid real modules: exit 0.
if [ "$n_real" -gt 0 ]; then
  "$SPVBC" validate -q -r "$work/in/real" >"$work/real.out" 2>&1
  check "libclc modules validate clean" test $? -eq 0
  check "libclc bitcasts were checked" grep -qE "^summary: $n_real modules \(0 unreadable or invalid, 0 with findings\), [1-9][0-9]* bitcasts checked, 0 errors" "$work/real.out"
fi

# lower -r --out-dir: outputs for every readable module; the refused size error still fails.
"$SPVBC" lower -q -r "$work/in" --out-dir "$work/out" >"$work/lower.out" 2>"$work/lower.err"
rc=$?
check "lower -r exits 1 (broken input, refused size error) (rc=$rc)" test $rc -eq 1
check "lower summary counts rewrites and refusals" grep -q "2 rewritten, 1 refused" "$work/lower.err"
check "lowered module passes spirv-val" "$SPIRV_VAL" "$work/out/as_float3.spv"
for f in "$work"/in/real/*.spv; do
  [ -f "$f" ] || continue
  check "$(basename "$f") written byte-identical" cmp "$f" "$work/out/$(basename "$f")"
done
check "no output for the unreadable module" test ! -e "$work/out/broken.spv"

# --suffix writes next to each input.
"$SPVBC" lower -q "$work/in/gen/as_float3.spv" "$work/in/gen/size_error.spv" --suffix .low >/dev/null 2>&1
check "--suffix output exists and validates" "$SPIRV_VAL" "$work/in/gen/as_float3.spv.low"
# Several inputs without a destination is a usage error (exit 2), and -o with several inputs too.
"$SPVBC" lower "$work/in/gen/as_float3.spv" "$work/in/gen/size_error.spv" >/dev/null 2>&1
check "several inputs without --suffix/--out-dir: usage error" test $? -eq 2
"$SPVBC" lower -o x.spv "$work/in/gen/as_float3.spv" "$work/in/gen/size_error.spv" >/dev/null 2>&1
check "-o with several inputs: usage error" test $? -eq 2

echo "batch: $((fail == 0 ? 1 : 0)) passed, $((fail > 0 ? 1 : 0)) failed ($fail failed checks)"
[ $fail -eq 0 ]
