#!/bin/sh
# One real-input test: build (or take) a SPIR-V module no one here wrote, then check that
#   1. spirv-val accepts it,
#   2. `spirv-bitcast validate` reports no error and checked every bitcast spirv-dis shows,
#   3. `spirv-bitcast lower` returns it byte-identical (nothing valid is ever rewritten).
# Usage (tools come from the environment, see CMakeLists.txt):
#   real_check.sh libclc WORKDIR MODULE.spv
#   real_check.sh opencl WORKDIR SOURCE.cl CLSTD OPTLEVEL
#   real_check.sh glsl   WORKDIR SOURCE.comp TARGET_ENV
# Exit 0 pass, 1 fail, 77 skip (a tool or input this test needs is absent).
set -u

SKIP=77
mode=$1
work=$2
input=$3

fail() { echo "FAIL: $*" >&2; exit 1; }
need() { # need NAME PATH: skip when an optional tool or input is missing
    case $2 in
        ''|*-NOTFOUND) echo "SKIP: $1 not found" >&2; exit $SKIP ;;
    esac
    [ -e "$2" ] || { echo "SKIP: $1 ($2) does not exist" >&2; exit $SKIP; }
}
run() { echo "+ $*" >&2; "$@"; }

need spirv-bitcast "${SPVBC_BIN:-}"
need spirv-val "${SPVBC_SPIRV_VAL:-}"
need spirv-dis "${SPVBC_SPIRV_DIS:-}"
need python3 "${SPVBC_PYTHON:-}"

rm -rf "$work" && mkdir -p "$work" || fail "cannot create $work"
spv=$work/module.spv
val_env=

case $mode in
libclc)
    need "libclc module" "$input"
    cp "$input" "$spv" || fail "copy $input"
    ;;
opencl)
    need clang "${SPVBC_CLANG:-}"
    need llvm-spirv "${SPVBC_LLVM_SPIRV:-}"
    std=$4
    opt=$5
    run "$SPVBC_CLANG" -cl-std="$std" -target spir64 "$opt" -emit-llvm -c -Werror \
        -o "$work/module.bc" "$input" || fail "$(basename "$SPVBC_CLANG") could not compile $input"
    run "$SPVBC_LLVM_SPIRV" "$work/module.bc" -o "$spv" || fail "$(basename "$SPVBC_LLVM_SPIRV") failed on $input"
    ;;
glsl)
    need glslangValidator "${SPVBC_GLSLANG:-}"
    val_env=$4
    run "$SPVBC_GLSLANG" -V --target-env "$val_env" -o "$spv" "$input" >"$work/glslang.log" ||
        { cat "$work/glslang.log" >&2; fail "glslangValidator could not compile $input"; }
    ;;
*)
    echo "usage: $0 libclc|opencl|glsl WORKDIR INPUT [ARGS]" >&2
    exit 2
    ;;
esac

# 1. The module is valid SPIR-V by the reference validator.
if [ -n "$val_env" ]; then
    run "$SPVBC_SPIRV_VAL" --target-env "$val_env" "$spv" || fail "spirv-val rejects the input"
else
    run "$SPVBC_SPIRV_VAL" "$spv" || fail "spirv-val rejects the input"
fi

# The number of bitcasts in the module, counted independently of spirv-bitcast: every
# OpBitcast plus every OpSpecConstantOp Bitcast of the disassembly.
"$SPVBC_SPIRV_DIS" --raw-id "$spv" -o "$work/module.spvasm" || fail "spirv-dis failed"
expected=$(grep -c -E '= OpBitcast |= OpSpecConstantOp [^ ]+ Bitcast ' "$work/module.spvasm")
[ "$expected" -gt 0 ] || fail "the input has no bitcast at all: this test would prove nothing"

# Real modules may exceed the default id bound (4,194,303): pass the header's bound if so.
bound=$(od -A n -t u4 -j 12 -N 4 "$spv" | tr -d ' ')
bound_opt=
[ "$bound" -gt 4194303 ] && bound_opt="--max-id-bound $bound"

# 2. The validator agrees (no error) and saw every bitcast.
# shellcheck disable=SC2086
run "$SPVBC_BIN" validate $bound_opt "$spv" >"$work/validate.out" 2>"$work/validate.err"
rc=$?
cat "$work/validate.out" "$work/validate.err" >&2
[ $rc -eq 0 ] || fail "spirv-bitcast validate exited $rc on a module spirv-val accepts"
grep -q '^error:' "$work/validate.err" && fail "spirv-bitcast validate reported an error"
# shellcheck disable=SC2086
run "$SPVBC_BIN" validate --json $bound_opt "$spv" >"$work/validate.json" ||
    fail "spirv-bitcast validate --json failed"
"$SPVBC_PYTHON" - "$work/validate.json" "$expected" <<'PY' || fail "validate --json disagrees"
import json, sys
doc = json.load(open(sys.argv[1]))
expected = int(sys.argv[2])
summary = doc["summary"]
errors = [d for d in doc["diagnostics"] if d["severity"] == "error"]
if errors:
    sys.exit("errors reported: %r" % errors[:3])
if summary["errors"] != 0:
    sys.exit("summary counts %d errors" % summary["errors"])
if summary["bitcasts_checked"] != expected:
    sys.exit("checked %d bitcasts, spirv-dis shows %d" % (summary["bitcasts_checked"], expected))
print("validate: %d bitcasts checked, %d warnings, 0 errors"
      % (summary["bitcasts_checked"], summary["warnings"]))
PY

# 3. Lowering a valid module changes nothing, byte for byte.
# shellcheck disable=SC2086
run "$SPVBC_BIN" lower $bound_opt "$spv" -o "$work/lowered.spv" 2>"$work/lower.err"
rc=$?
cat "$work/lower.err" >&2
[ $rc -eq 0 ] || fail "spirv-bitcast lower exited $rc"
cmp "$spv" "$work/lowered.spv" || fail "lower changed a module that needed no lowering"

echo "PASS: $mode $input ($expected bitcasts)"
exit 0
