#!/bin/sh
# multitool.sh - SARIF output checked by the format's own validator, the SARIF Multitool
# (npm package @microsoft/sarif-multitool, which ships a Linux binary).
#
#   multitool.sh fetch <dir>
#       npm install into <dir> (the build tree, never globally); once: a second run costs
#       nothing.  When npm is missing or the registry cannot be reached, writes the reason to
#       <dir>/unavailable and exits 0.
#   multitool.sh check <dir> <spirv-bitcast> <spirv-as> <work> <input.spvasm:target-env>...
#       assembles the inputs, writes SARIF from validate and lower, one input and all of them
#       (a batch), and fails on any error or warning of `Sarif.Multitool validate`; 77
#       (SKIPPED) with the reason when fetch could not install it.
#
# SPDX-License-Identifier: Apache-2.0
set -u
VERSION=5.7.0
cmd=${1:-}
dir=${2:-}
[ -n "$cmd" ] && [ -n "$dir" ] || { echo "usage: $0 fetch|check <dir> ..." >&2; exit 2; }
mkdir -p "$dir" || exit 1
dir=$(cd "$dir" && pwd)

tool() { find "$dir/node_modules" -name Sarif.Multitool -type f 2>/dev/null | head -n 1; }

if [ "$cmd" = fetch ]; then
    if [ -n "$(tool)" ] && [ ! -f "$dir/unavailable" ]; then
        echo "multitool: cached in $dir"
        exit 0
    fi
    rm -f "$dir/unavailable"
    if [ "${SPVBC_FETCH:-}" = OFF ]; then
        echo "fetching is off: this build was configured with SPVBC_FETCH=OFF (-DSPVBC_FETCH=ON lets the tests install the SARIF Multitool into the build tree)" >"$dir/unavailable"
        cat "$dir/unavailable"
        exit 0
    fi
    if ! command -v npm >/dev/null; then
        echo "npm not found (Debian package npm)" >"$dir/unavailable"
        cat "$dir/unavailable"
        exit 0
    fi
    start=$(date +%s)
    if ! npm install --prefix "$dir" --no-audit --no-fund --no-save \
        "@microsoft/sarif-multitool@$VERSION" >"$dir/npm.log" 2>&1; then
        echo "npm install @microsoft/sarif-multitool@$VERSION failed: $(tail -n 3 "$dir/npm.log" | tr '\n' ' ')" \
            >"$dir/unavailable"
        cat "$dir/unavailable"
        exit 0
    fi
    t=$(tool)
    if [ -z "$t" ]; then
        echo "the package has no Linux Sarif.Multitool binary" >"$dir/unavailable"
        cat "$dir/unavailable"
        exit 0
    fi
    chmod u+x "$t" # its postinstall script does this; newer npm may not run it
    echo "multitool: installed $VERSION into $dir in $(($(date +%s) - start)) s"
    exit 0
fi

[ "$cmd" = check ] && [ $# -ge 6 ] || { echo "usage: $0 check <dir> <cli> <spirv-as> <work> <in:env>..." >&2; exit 2; }
cli=$3
as=$4
work=$5
shift 5
if [ -f "$dir/unavailable" ]; then
    echo "SKIP: SARIF Multitool not installed: $(cat "$dir/unavailable")"
    exit 77
fi
t=$(tool)
[ -n "$t" ] || { echo "SKIP: SARIF Multitool not installed (the fetch test did not run)"; exit 77; }
rm -rf "$work"
mkdir -p "$work/in" "$work/out"
set -e
inputs=""
for spec in "$@"; do
    src=${spec%:*}
    env=${spec##*:}
    out="$work/in/$(basename "$src" .spvasm).spv"
    "$as" --target-env "$env" "$src" -o "$out"
    inputs="$inputs $out"
done
set +e
first=$(echo $inputs | cut -d' ' -f1)
# Findings exit 1; the SARIF log is what is checked.
# shellcheck disable=SC2086 # lists of paths without spaces
"$cli" validate --format sarif "$first" >"$work/validate-one.sarif"
"$cli" validate --format sarif $inputs >"$work/validate-batch.sarif"
"$cli" validate --format sarif --notes --strict - <"$first" >"$work/validate-stdin.sarif"
"$cli" lower --format sarif "$first" -o "$work/out/one.spv" >"$work/lower-one.sarif"
"$cli" lower --format sarif --out-dir "$work/out" $inputs >"$work/lower-batch.sarif"
status=0
export DOTNET_SYSTEM_GLOBALIZATION_INVARIANT=1 DOTNET_CLI_TELEMETRY_OPTOUT=1 HOME="$work"
for log in "$work"/*.sarif; do
    [ -s "$log" ] || { echo "FAIL: $log is empty"; status=1; }
done
# One run for all logs (the tool takes seconds to start).
"$t" validate "$work"/*.sarif >"$work/multitool.txt" 2>&1
rc=$?
cat "$work/multitool.txt"
issues=$(grep -E ': (error|warning) [A-Z]+[0-9]+' "$work/multitool.txt")
n=$(ls "$work"/*.sarif | wc -l)
if [ $rc -ne 0 ] || [ -n "$issues" ] ||
    ! grep -q "Done. $n files scanned" "$work/multitool.txt" ||
    ! grep -q 'Analysis completed successfully' "$work/multitool.txt"; then
    echo "FAIL: Sarif.Multitool validate (exit $rc) reports errors or warnings on $n logs"
    status=1
else
    echo "ok: $n SARIF logs (validate and lower; one input, a batch, stdin): no error, no warning"
fi
exit $status
