#!/usr/bin/env bash
# Translates every distinct Kernel-flavour output of the matrix test back to LLVM IR with
# `llvm-spirv -r` (issue 5 input).  Fails if the matrix run fails or spirv-val rejects an output;
# modules llvm-spirv cannot translate are listed with its message, not failed.
# Environment: SPVBC_MATRIX, SPVBC_LLVM_SPIRV, SPVBC_SPIRV_VAL, SPVBC_WORK_DIR.
set -u
: "${SPVBC_MATRIX:?}" "${SPVBC_LLVM_SPIRV:?}" "${SPVBC_SPIRV_VAL:?}" "${SPVBC_WORK_DIR:?}"

rm -rf "$SPVBC_WORK_DIR"
mkdir -p "$SPVBC_WORK_DIR/spv" "$SPVBC_WORK_DIR/bc"
if ! "$SPVBC_MATRIX" --dump-kernel "$SPVBC_WORK_DIR/spv" > "$SPVBC_WORK_DIR/matrix.log" 2>&1; then
  cat "$SPVBC_WORK_DIR/matrix.log"
  echo "llvm-spirv-reverse: the matrix run failed"
  exit 1
fi

total=0 translated=0 untranslated=0 val_failed=0
for f in "$SPVBC_WORK_DIR"/spv/*.spv; do
  [ -e "$f" ] || continue
  total=$((total + 1))
  name=$(basename "$f" .spv)
  if ! msg=$("$SPVBC_SPIRV_VAL" --target-env spv1.0 "$f" 2>&1); then
    echo "FAIL $name: spirv-val rejects it: $msg"
    val_failed=$((val_failed + 1))
    continue
  fi
  if msg=$("$SPVBC_LLVM_SPIRV" -r "$f" -o "$SPVBC_WORK_DIR/bc/$name.bc" 2>&1); then
    translated=$((translated + 1))
  else
    echo "NOTE $name: llvm-spirv -r cannot translate it: $(printf '%s' "$msg" | head -n 3)"
    untranslated=$((untranslated + 1))
  fi
done

echo "llvm-spirv-reverse: $total distinct kernel outputs, $translated translated back," \
     "$untranslated not translatable (listed above), $val_failed rejected by spirv-val"
[ "$total" -gt 0 ] && [ "$val_failed" -eq 0 ]
