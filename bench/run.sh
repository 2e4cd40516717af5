#!/bin/sh
# bench/run.sh BUILD [--quick] [--no-docs] [--check-all]
#
# The whole benchmark in one command (after `cmake --build BUILD --target bench`):
#   1. generates the inputs into BUILD/bench-data (once; again when the generator changes):
#      valid-{1M,16M,128M}.spv and lowerable-{1M,16M,128M}.spv (10% of the bitcasts 4->3);
#   2. checks them (once per generation): spirv-val accepts valid-1M and valid-16M, and accepts
#      lowerable-1M and lowerable-16M after `spirv-bitcast lower` (--check-all: also the 128M
#      ones; spirv-val takes minutes on those); and spvbc_bench's two small in-memory shaders
#      (--emit-small): spirv-val accepts the clean one, and the one with six 4->3 bitcasts
#      after `spirv-bitcast lower`;
#   3. runs spvbc_bench on them and on libclc-15's two SPIR-V modules, plus its small shaders and
#      its pathological module (10 M bitcasts, 2.5 M of them errors): tables and the goals table
#      (figure, measured, goal, met/MISSED) on stdout, numbers in BUILD/bench-results/
#      (performance.dat, plot.dat, results.md); then, where the Vulkan layer is built
#      (layer/vulkan/test/spvbc_layer_bench), the layer's own time per module beyond the
#      library's calls, log off and on, for the small shaders (a second goals table), and
#      vkCreateShaderModule through the layer / without it on the Vulkan driver (the kit
#      layer/vulkan/test/vkbench: a clean 2 KB compute module and real modules; a third);
#   4. unless --no-docs or --quick: copies the numbers to bench/performance.dat, draws
#      docs/performance.png with gnuplot (installed with apt-get when missing and running as
#      root; skipped otherwise) and replaces the results section of docs/performance.md.
# --quick: 1M and 16M only (the goals then read the 16M inputs, and say so), a pathological
# module of 1 M bitcasts / 250 k errors, fewer repetitions, docs untouched (a few minutes).
set -eu

usage() {
    echo "usage: bench/run.sh BUILD [--quick] [--no-docs] [--check-all]" >&2
    exit 2
}
[ $# -ge 1 ] || usage
build=$(cd "$1" && pwd) || usage
shift
quick=0 docs=1 checkall=0
for a in "$@"; do
    case $a in
    --quick) quick=1 docs=0 ;;
    --no-docs) docs=0 ;;
    --check-all) checkall=1 ;;
    *) usage ;;
    esac
done
src=$(cd "$(dirname "$0")/.." && pwd)
config="$build/bench/bench-config.sh"
if [ ! -f "$config" ]; then
    echo "run.sh: $config missing: configure BUILD with CMake first" >&2
    exit 1
fi
. "$config"
for exe in "$SPVBC_GEN_MODULE" "$SPVBC_BENCH" "$SPVBC_CLI"; do
    if [ ! -x "$exe" ]; then
        echo "run.sh: $exe missing: run 'cmake --build $build --target bench' first" >&2
        exit 1
    fi
done
if [ "$SPVBC_BUILD_TYPE" != Release ]; then
    echo "run.sh: warning: BUILD is a '$SPVBC_BUILD_TYPE' build; the figures are meant for Release" >&2
fi

# the tree the binaries were (presumably) built from: HEAD, marked when the tree differs from it
commit=$(git -C "$src" describe --always --dirty 2>/dev/null || echo unknown)
data="$build/bench-data"
results="$build/bench-results"
mkdir -p "$data" "$results"

if [ $quick -eq 1 ]; then
    sizes="1M 16M"
    benchopts="--min-time 0.5 --proc-reps 3 --patho 1000000"
else
    sizes="1M 16M 128M"
    benchopts="--patho 10000000"
fi

# 1. inputs (deterministic: same generator, same bytes)
for s in $sizes; do
    for v in valid lowerable; do
        f="$data/$v-$s.spv"
        if [ ! -f "$f" ] || [ "$SPVBC_GEN_MODULE" -nt "$f" ]; then
            flag=""
            [ $v = lowerable ] && flag="--lowerable"
            "$SPVBC_GEN_MODULE" -s "$s" $flag -o "$f"
            rm -f "$data/checked-$v-$s"
        fi
    done
done

# 2. checks
check() { # SIZE
    s=$1
    # the lowering check depends on the library too: again when the CLI was rebuilt
    if [ -f "$data/checked-lowerable-$s" ] && [ "$SPVBC_CLI" -nt "$data/checked-lowerable-$s" ]; then
        rm -f "$data/checked-lowerable-$s"
    fi
    if [ ! -f "$data/checked-valid-$s" ]; then
        bound=$(od -A n -t u4 -j 12 -N 4 "$data/valid-$s.spv" | tr -d ' ')
        echo "check: spirv-val valid-$s.spv (id bound $bound)"
        "$SPVBC_SPIRV_VAL" --max-id-bound $((bound * 2 + 4194303)) "$data/valid-$s.spv"
        touch "$data/checked-valid-$s"
    fi
    if [ ! -f "$data/checked-lowerable-$s" ]; then
        bound=$(od -A n -t u4 -j 12 -N 4 "$data/lowerable-$s.spv" | tr -d ' ')
        cap=$((bound * 2 + 4194303))
        echo "check: spirv-bitcast lower lowerable-$s.spv, then spirv-val"
        "$SPVBC_CLI" lower -q --max-id-bound $cap -o "$data/lowered-$s.spv" "$data/lowerable-$s.spv"
        "$SPVBC_SPIRV_VAL" --max-id-bound $cap "$data/lowered-$s.spv"
        rm -f "$data/lowered-$s.spv"
        touch "$data/checked-lowerable-$s"
    fi
}
check 1M
check 16M
if [ ! -f "$data/checked-small" ] || [ "$SPVBC_BENCH" -nt "$data/checked-small" ] ||
    [ "$SPVBC_CLI" -nt "$data/checked-small" ]; then
    echo "check: spirv-val the small shaders (the 6-rewrite one after spirv-bitcast lower)"
    "$SPVBC_BENCH" --emit-small "$data"
    "$SPVBC_SPIRV_VAL" "$data/small-clean-8k.spv"
    "$SPVBC_CLI" lower -q -o "$data/small-six-4to3-lowered.spv" "$data/small-six-4to3.spv"
    "$SPVBC_SPIRV_VAL" "$data/small-six-4to3-lowered.spv"
    rm -f "$data/small-six-4to3-lowered.spv"
    touch "$data/checked-small"
fi
if [ $checkall -eq 1 ] && [ $quick -eq 0 ]; then
    check 128M
fi

# 3. the benchmark
set --
for s in $sizes; do
    set -- "$@" "valid/$s=$data/valid-$s.spv"
done
for s in $sizes; do
    set -- "$@" "lowerable/$s=$data/lowerable-$s.spv"
done
if [ -n "$SPVBC_LIBCLC_DIR" ]; then
    for m in spirv-mesa3d- spirv64-mesa3d-; do
        [ -f "$SPVBC_LIBCLC_DIR/$m.spv" ] && set -- "$@" "libclc/$m=$SPVBC_LIBCLC_DIR/$m.spv"
    done
fi
optional=""
[ -n "$SPVBC_SPIRV_OPT" ] && optional="--spirv-opt $SPVBC_SPIRV_OPT"
# shellcheck disable=SC2086
"$SPVBC_BENCH" --cli "$SPVBC_CLI" --spirv-val "$SPVBC_SPIRV_VAL" $optional \
    --invalid lowerable --tmp "$data" $benchopts \
    --dat "$results/performance.dat" --plot "$results/plot.dat" --md "$results/results.md" "$@"

# the Vulkan layer's own cost per module, beyond the library's (spvbc_layer_bench, where the
# layer is built): the 8.3 KB clean shader it passes on, and the 2.6 KB one it lowers
layerbench="$build/layer/vulkan/test/spvbc_layer_bench"
if [ -x "$layerbench" ]; then
    reps=20000
    [ $quick -eq 1 ] && reps=4000
    "$layerbench" $reps "$data/small-clean-8k.spv" "$data/small-six-4to3.spv" |
        sed -n 's|^.*/\([^/:]*\): min .* adds \(-*[0-9.]*\) us with the log off, \(-*[0-9.]*\) us with it on$|\1 \2 \3|p' |
        awk -v md="$results/results.md" '
        {
            g8 = $1 ~ /8k/
            what = g8 ? "8.3 KB clean shader, passed on" : "2.6 KB module with 6 rewrites, lowered"
            v1 = g8 ? ($2 <= 1 ? "met" : "MISSED") : "-"
            v2 = g8 ? ($3 <= 3 ? "met" : "MISSED") : "-"
            row[++n] = sprintf("| layer'"'"'s added time per module (beyond the library'"'"'s calls), %s | %s us | %s us | <= 1 us off, <= 3 us on (8-12 KB) | %s | %s |", what, $2, $3, v1, v2)
        }
        END {
            if (n == 0) exit
            hdr = "\n| figure | log off (wall, best of the calls) | log on, to /dev/null | goal | verdict, log off | verdict, log on |\n|---|---|---|---|---|---|"
            print hdr; print hdr >> md
            for (i = 1; i <= n; ++i) { print row[i]; print row[i] >> md }
        }'
else
    echo "run.sh: $layerbench not built: no layer figures"
fi

# vkCreateShaderModule through the layer / without it, same modules, same process, on the
# driver the loader finds (lavapipe in CI): the kit of layer/vulkan/test (run.sh there), the
# clean 2 KB compute module and the real modules, with the layer's log off, at its default
# level (to standard error) and at level all to a file named by SPVBC_LAYER_LOG
kit="$build/layer/vulkan/test/vkbench"
if [ -x "$kit/spvbc_layer_vkbench" ]; then
    rounds=300
    [ $quick -eq 1 ] && rounds=60
    if sh "$kit/run.sh" $rounds >"$results/vkbench.txt" 2>&1; then
        device=$(sed -n 's/^device [0-9]*: \(.*\); layer log.*/\1/p' "$results/vkbench.txt" | head -n 1)
        awk -v md="$results/results.md" -v device="$device" '
        $1 == "RESULT" {
            what = $2 == "compute2k" ? "the clean 2 KB compute module" : sprintf("%d real modules (%d bytes)", $4, $5)
            how = $3 == "off" ? "log off" : $3 == "stderr" ? "log on at its default level (a line only for a module changed or refused), to standard error (the default)" : "log at level all (a line for every module, on request), to a file"
            goal = $3 == "file" ? "none: the verbose log" : "<= 1.3x"
            wall = $3 == "file" ? "info" : ($8 <= 1.3 ? "met" : "MISSED")
            cpu = $3 == "file" ? "info" : ($11 <= 1.3 ? "met" : "MISSED")
            row[++n] = sprintf("| vkCreateShaderModule through the layer / without it, %s, %s | %.2fx (%.2f us / %.2f us per call) | %.2fx | %s | %s | %s |", what, how, $8, $7, $6, $11, goal, wall, cpu)
        }
        END {
            if (n == 0) exit
            hdr = "\nOn " device " (layer/vulkan/test/vkbench/run.sh, medians of the passes):\n\n| figure | measured (wall clock) | CPU time | goal | verdict | verdict (CPU) |\n|---|---|---|---|---|---|"
            print hdr; print hdr >> md
            for (i = 1; i <= n; ++i) { print row[i]; print row[i] >> md }
        }' "$results/vkbench.txt"
    else
        echo "run.sh: the vkCreateShaderModule kit did not run: $(tail -n 2 "$results/vkbench.txt")"
    fi
else
    echo "run.sh: $kit not built: no vkCreateShaderModule figures"
fi

cpu=$(grep -m1 'model name' /proc/cpuinfo | sed 's/.*: //')
cores=$(nproc)
mem=$(awk '/MemTotal/ {printf "%.0f GiB", $2 / 1048576}' /proc/meminfo)
when=$(date -u '+%Y-%m-%d %H:%M UTC')
machine="$when, commit $commit, $cpu, $cores cores, $mem, $SPVBC_C_COMPILER $SPVBC_BUILD_TYPE"
echo "run.sh: measured $machine"

# 4. plot and docs
gnuplot=${SPVBC_GNUPLOT:-}
[ -n "$gnuplot" ] || gnuplot=$(command -v gnuplot || true)
if [ -z "$gnuplot" ] && [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
    echo "run.sh: installing gnuplot-nox for the plot"
    apt-get install -y -q gnuplot-nox >/dev/null 2>&1 || true
    gnuplot=$(command -v gnuplot || true)
fi
png="$results/performance.png"
if [ -n "$gnuplot" ]; then
    "$gnuplot" -e "datafile='$results/plot.dat'; outfile='$png'; subtitle='$machine'" \
        "$src/bench/performance.gp" 2>/dev/null || { echo "run.sh: gnuplot failed" >&2; png=""; }
else
    echo "run.sh: gnuplot not found (Debian: apt-get install gnuplot-nox): no plot" >&2
    png=""
fi

if [ $docs -eq 1 ]; then
    cp "$results/performance.dat" "$src/bench/performance.dat"
    [ -n "$png" ] && cp "$png" "$src/docs/performance.png"
    md="$src/docs/performance.md"
    if grep -q '<!-- bench:begin -->' "$md" 2>/dev/null; then
        {
            echo "Measured $machine."
            echo
            echo "Reproduce: \`cmake --build BUILD --target bench && bench/run.sh BUILD\`"
            echo "(BUILD configured with \`-DCMAKE_BUILD_TYPE=Release\`)."
            cat "$results/results.md"
        } > "$results/section.md"
        awk -v sec="$results/section.md" '
            /<!-- bench:begin -->/ { print; while ((getline l < sec) > 0) print l; skip = 1; next }
            /<!-- bench:end -->/ { skip = 0 }
            !skip { print }' "$md" > "$results/performance.md.new"
        mv "$results/performance.md.new" "$md"
        echo "run.sh: updated docs/performance.md, docs/performance.png, bench/performance.dat"
    else
        echo "run.sh: docs/performance.md has no '<!-- bench:begin -->' marker: not updated" >&2
    fi
else
    echo "run.sh: results in $results (docs untouched)"
fi
