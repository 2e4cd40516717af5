#!/usr/bin/env bash
# Translates the lowered Kernel-flavour outputs of the matrix test back to LLVM IR with
# `llvm-spirv -r` (PoCL runs SPIR 1.2 bitcode, not SPIR-V).  One translator run covers them all: the outputs (each
# with its entry point renamed k<n>) are joined by spirv-link, the joined module goes through
# spirv-val, then llvm-spirv -r.  Only if that fails is every output translated on its own, to
# list which ones the translator cannot handle and why.
# Fails if the matrix run fails or spirv-val rejects a module; translator limitations are
# listed, not failed.
# Environment: SPVBC_MATRIX, SPVBC_LLVM_SPIRV, SPVBC_SPIRV_VAL, SPVBC_SPIRV_LINK,
#              SPVBC_WORK_DIR, optional SPVBC_LLVM_DIS (counts the translated kernels).
set -u
: "${SPVBC_MATRIX:?}" "${SPVBC_LLVM_SPIRV:?}" "${SPVBC_SPIRV_VAL:?}" "${SPVBC_SPIRV_LINK:?}"
: "${SPVBC_WORK_DIR:?}"
work=$SPVBC_WORK_DIR
rm -rf "$work"
mkdir -p "$work/spv"
if ! "$SPVBC_MATRIX" --dump-kernel "$work/spv" > "$work/matrix.log" 2>&1; then
  cat "$work/matrix.log"
  echo "llvm-spirv-reverse: the matrix run failed"
  exit 1
fi
files=("$work"/spv/*.spv)
total=${#files[@]}
if [ "$total" -eq 0 ] || [ ! -e "${files[0]}" ]; then
  echo "llvm-spirv-reverse: the matrix wrote no outputs"
  exit 1
fi

if ! msg=$("$SPVBC_SPIRV_LINK" --target-env spv1.0 "${files[@]}" -o "$work/linked.spv" 2>&1); then
  echo "FAIL spirv-link cannot join the outputs: $msg"
  exit 1
fi
if ! msg=$("$SPVBC_SPIRV_VAL" --target-env spv1.0 "$work/linked.spv" 2>&1); then
  echo "FAIL spirv-val rejects the joined outputs: $msg"
  exit 1
fi

if msg=$("$SPVBC_LLVM_SPIRV" -r "$work/linked.spv" -o "$work/linked.bc" 2>&1); then
  kernels=unknown
  if [ -n "${SPVBC_LLVM_DIS:-}" ]; then
    kernels=$("$SPVBC_LLVM_DIS" "$work/linked.bc" -o - | grep -c '^define spir_kernel')
    if [ "$kernels" -ne "$total" ]; then
      echo "FAIL llvm-spirv produced $kernels kernels from $total outputs"
      exit 1
    fi
  fi
  echo "llvm-spirv-reverse: $total lowered kernel outputs (joined by spirv-link, spirv-val ok)," \
       "$total translated back by llvm-spirv -r ($kernels spir_kernel functions), 0 not translatable"
  exit 0
fi

echo "NOTE llvm-spirv -r cannot translate the joined module: $(printf '%s' "$msg" | head -n 3)"
echo "NOTE translating each output on its own"
translated=0 untranslated=0
for f in "${files[@]}"; do
  name=$(basename "$f" .spv)
  if msg=$("$SPVBC_LLVM_SPIRV" -r "$f" -o "$work/one.bc" 2>&1); then
    translated=$((translated + 1))
  else
    echo "NOTE $name: llvm-spirv -r cannot translate it: $(printf '%s' "$msg" | head -n 3)"
    untranslated=$((untranslated + 1))
  fi
done
echo "llvm-spirv-reverse: $total lowered kernel outputs, $translated translated back," \
     "$untranslated not translatable (listed above)"
exit 0
