#!/usr/bin/env bash
# valgrind (memcheck) on the CLI over the fixtures: validate (text, --json, --notes), lower under
# each padding policy, explain, and malformed input.  Any memcheck error or definite leak fails.
set -u
work=$1; shift
rm -rf "$work"; mkdir -p "$work"
if ! command -v valgrind >/dev/null; then echo "valgrind not found: skipped"; exit 77; fi
fail=0 runs=0
vg() { # vg DESCRIPTION ARGS... : the CLI under memcheck; its own exit status may be 0 or 1
  runs=$((runs+1))
  valgrind -q --error-exitcode=99 --leak-check=full --errors-for-leak-kinds=definite \
    --show-leak-kinds=definite "$SPVBC" "${@:2}" >"$work/out.txt" 2>"$work/err.txt"
  local rc=$?
  if [ $rc -eq 99 ] || [ $rc -gt 2 ]; then
    echo "FAIL: $1 (exit $rc)"; sed -n 1,40p "$work/err.txt"; fail=$((fail+1))
  else
    echo "ok: $1 (exit $rc)"
  fi
}
n=0
for s in "$@"; do
  n=$((n+1)); f="$work/in$n.spv"
  "$SPIRV_AS" --target-env spv1.0 "$s" -o "$f" || exit 1
  b=$(basename "$s")
  vg "validate $b" validate "$f"
  vg "validate --json --notes $b" validate --json --notes "$f"
  for pad in undef zero error; do
    vg "lower --pad $pad $b" lower --pad "$pad" --verify "$f" -o "$work/low$n.spv"
  done
  vg "lower from stdin to stdout $b" lower -q - -o "$work/stdout$n.spv" < "$f"
done
head -c 40 "$work/in1.spv" > "$work/trunc.spv"
vg "validate of a truncated module" validate "$work/trunc.spv"
printf 'NOT A SPIR-V MODULE!' > "$work/bad.spv"
vg "lower of a non-module" lower "$work/bad.spv" -o "$work/bad.out"
vg "batch validate of the work folder" validate --jobs 2 -r "$work"
vg "explain float4 int3" explain float4 int3
vg "explain char3 long --pad zero" explain char3 long --pad zero
echo "valgrind: $((runs - fail)) passed, $fail failed"
[ $fail -eq 0 ]
