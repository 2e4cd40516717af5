#!/bin/sh
# bench/run.sh BUILD [--quick] [--no-docs] [--check-all] [--rounds N]
#
# The whole benchmark in one command (after `cmake --build BUILD --target bench`):
#   1. generates the inputs into BUILD/bench-data (once; again when the generator changes):
#      valid-{1M,16M,128M}.spv and lowerable-{1M,16M,128M}.spv (10% of the bitcasts 4->3);
#   2. checks them (once per generation): spirv-val accepts valid-1M and valid-16M, and accepts
#      lowerable-1M and lowerable-16M after `spirv-bitcast lower` (--check-all: also the 128M
#      ones; spirv-val takes minutes on those); and spvbc_bench's two small in-memory shaders
#      (--emit-small): spirv-val accepts the clean one, and the one with six 4->3 bitcasts
#      after `spirv-bitcast lower`.  Where spirv-val cannot run, SKIPPED with the reason (the
#      lowering still runs), and again on the next run;
#   3. runs spvbc_bench N rounds (--rounds N, default 3 with --quick, else 5), one after
#      another, on them and on libclc-15's two SPIR-V modules (where installed), plus its small
#      shaders and its pathological module (10 M bitcasts, 2.5 M of them errors): the first
#      round's tables on stdout, numbers in BUILD/bench-results/ (performance.dat, plot.dat,
#      results.md; spirv-val and spirv-opt, in no goal, run in the first round only); then the
#      goals table (figure, measured, goal, met/MISSED) made by bench/spread.awk from every
#      round's rows (BUILD/bench-results/goals-K.tsv): each row's fastest / median / slowest
#      round, the verdict on the median; then, where the Vulkan layer is built
#      (layer/vulkan/test/spvbc_layer_bench), the layer's own time per module beyond the
#      library's calls, log off and on, for the small shaders, N rounds (a second goals table,
#      the same way), and vkCreateShaderModule through the layer / without it on the Vulkan
#      driver (the kit layer/vulkan/test/vkbench: a clean 2 KB compute module and real
#      modules; a third);
#   4. unless --no-docs or --quick: copies the numbers to bench/performance.dat, draws
#      docs/performance.png with gnuplot (installed with apt-get when missing and running as
#      root; skipped otherwise) and replaces the results section of docs/performance.md.
# --quick: 1M and 16M only (the goals then read the 16M inputs, and say so), a pathological
# module of 1 M bitcasts / 250 k errors, fewer repetitions, docs untouched (about 1.5 minutes
# for the first round and 1 for each other on 2 busy cores).
#
# A build carried to another machine (docs/performance.md, "Rounds and spreads"): BUILD may
# have moved since CMake configured it; the programs are found under BUILD wherever it is.
# spirv-val, spirv-opt, libclc's modules and gnuplot are the configuring machine's paths;
# the environment overrides them (SPVBC_SPIRV_VAL, SPVBC_SPIRV_OPT, SPVBC_LIBCLC_DIR,
# SPVBC_GNUPLOT: a path, or empty for none); a tool missing at its path is looked up in PATH;
# what is not there is SKIPPED / not measured, with the reason, never an error.  Nothing
# needs root.
set -eu

usage() {
    echo "usage: bench/run.sh BUILD [--quick] [--no-docs] [--check-all] [--rounds N]" >&2
    exit 2
}
[ $# -ge 1 ] || usage
build=$(cd "$1" && pwd) || usage
shift
quick=0 docs=1 checkall=0 rounds=""
while [ $# -gt 0 ]; do
    case $1 in
    --quick) quick=1 docs=0 ;;
    --no-docs) docs=0 ;;
    --check-all) checkall=1 ;;
    --rounds)
        [ $# -ge 2 ] || usage
        case $2 in '' | *[!0-9]* | 0) usage ;; esac
        rounds=$2
        shift
        ;;
    *) usage ;;
    esac
    shift
done
[ -n "$rounds" ] || { [ $quick -eq 1 ] && rounds=3 || rounds=5; }
src=$(cd "$(dirname "$0")/.." && pwd)
config="$build/bench/bench-config.sh"
if [ ! -f "$config" ]; then
    echo "run.sh: $config missing: configure BUILD with CMake first" >&2
    exit 1
fi
# the environment's tools win over the configuring machine's ("@" : not set)
env_val=${SPVBC_SPIRV_VAL-@} env_opt=${SPVBC_SPIRV_OPT-@}
env_clc=${SPVBC_LIBCLC_DIR-@} env_plot=${SPVBC_GNUPLOT-@}
. "$config"
[ "$env_val" = @ ] || SPVBC_SPIRV_VAL=$env_val
[ "$env_opt" = @ ] || SPVBC_SPIRV_OPT=$env_opt
[ "$env_clc" = @ ] || SPVBC_LIBCLC_DIR=$env_clc
[ "$env_plot" = @ ] || SPVBC_GNUPLOT=$env_plot
# a build directory that moved (carried to another machine): its programs are under BUILD
moved() { # PATH: PATH under BUILD when it was under the configured build directory
    case $1 in
    "${SPVBC_CONFIG_BUILD:-/nonexistent}"/*) echo "$build${1#"$SPVBC_CONFIG_BUILD"}" ;;
    *) echo "$1" ;;
    esac
}
SPVBC_GEN_MODULE=$(moved "$SPVBC_GEN_MODULE")
SPVBC_BENCH=$(moved "$SPVBC_BENCH")
SPVBC_CLI=$(moved "$SPVBC_CLI")
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

# the tools of other projects: usable, or not measured / SKIPPED with the reason (in notes.md)
notes="$results/notes.md"
: >"$notes"
note() { # SENTENCE: on stdout, and under the tables of results.md
    echo "run.sh: $1"
    printf '\n%s\n' "$1" >>"$notes"
}
tool() { # VAR NAME: sets VAR to a usable NAME (its configured path, else NAME in PATH) or ""
    eval "path=\${$1}"
    if [ -n "$path" ] && [ ! -e "$path" ]; then
        path=$(command -v "$2" || echo "$path")
    fi
    if [ -z "$path" ]; then
        tool_why="none configured: the environment's $1 is empty or CMake found none"
    elif [ ! -x "$path" ]; then
        tool_why="$path not found, nor $2 in PATH"
    elif ! "$path" --version >/dev/null 2>&1; then
        tool_why="'$path --version' fails"
    else
        tool_why=""
    fi
    [ -z "$tool_why" ] || path=""
    eval "$1=\$path"
}
tool SPVBC_SPIRV_VAL spirv-val
val_why=$tool_why
[ -n "$SPVBC_SPIRV_VAL" ] ||
    note "spirv-val: SKIPPED ($val_why): the inputs are not checked by spirv-val and its column is not measured."
tool SPVBC_SPIRV_OPT spirv-opt
[ -n "$SPVBC_SPIRV_OPT" ] || note "spirv-opt: not measured ($tool_why)."

# 2. checks; a marker file records each one passed, so that each runs once per generation
spirv_val() { # ARGS...: 0 when spirv-val accepts; SKIPPED (1, no marker) without spirv-val
    if [ -z "$SPVBC_SPIRV_VAL" ]; then
        echo "check: spirv-val SKIPPED ($val_why)"
        return 1
    fi
    "$SPVBC_SPIRV_VAL" "$@" || exit 1
}
check() { # SIZE
    s=$1
    # the lowering check depends on the library too: again when the CLI was rebuilt
    if [ -f "$data/checked-lowerable-$s" ] && [ "$SPVBC_CLI" -nt "$data/checked-lowerable-$s" ]; then
        rm -f "$data/checked-lowerable-$s"
    fi
    if [ ! -f "$data/checked-valid-$s" ]; then
        bound=$(od -A n -t u4 -j 12 -N 4 "$data/valid-$s.spv" | tr -d ' ')
        echo "check: spirv-val valid-$s.spv (id bound $bound)"
        if spirv_val --max-id-bound $((bound * 2 + 4194303)) "$data/valid-$s.spv"; then
            touch "$data/checked-valid-$s"
        fi
    fi
    if [ ! -f "$data/checked-lowerable-$s" ]; then
        bound=$(od -A n -t u4 -j 12 -N 4 "$data/lowerable-$s.spv" | tr -d ' ')
        cap=$((bound * 2 + 4194303))
        echo "check: spirv-bitcast lower lowerable-$s.spv, then spirv-val"
        "$SPVBC_CLI" lower -q --max-id-bound $cap -o "$data/lowered-$s.spv" "$data/lowerable-$s.spv"
        if spirv_val --max-id-bound $cap "$data/lowered-$s.spv"; then
            touch "$data/checked-lowerable-$s"
        fi
        rm -f "$data/lowered-$s.spv"
    fi
}
check 1M
check 16M
if [ ! -f "$data/checked-small" ] || [ "$SPVBC_BENCH" -nt "$data/checked-small" ] ||
    [ "$SPVBC_CLI" -nt "$data/checked-small" ]; then
    echo "check: spirv-val the small shaders (the 6-rewrite one after spirv-bitcast lower)"
    "$SPVBC_BENCH" --emit-small "$data"
    "$SPVBC_CLI" lower -q -o "$data/small-six-4to3-lowered.spv" "$data/small-six-4to3.spv"
    if spirv_val "$data/small-clean-8k.spv" && spirv_val "$data/small-six-4to3-lowered.spv"; then
        touch "$data/checked-small"
    fi
    rm -f "$data/small-six-4to3-lowered.spv"
fi
if [ $checkall -eq 1 ] && [ $quick -eq 0 ]; then
    check 128M
fi

# 3. the benchmark, `rounds` times: spirv-val and spirv-opt (in no goal; minutes on 128 MiB) in
# the first round only, whose tables are the ones printed and kept; the goals table from the rows
# of every round (bench/spread.awk)
set --
for s in $sizes; do
    set -- "$@" "valid/$s=$data/valid-$s.spv"
done
for s in $sizes; do
    set -- "$@" "lowerable/$s=$data/lowerable-$s.spv"
done
for m in spirv-mesa3d- spirv64-mesa3d-; do
    if [ -n "$SPVBC_LIBCLC_DIR" ] && [ -f "$SPVBC_LIBCLC_DIR/$m.spv" ]; then
        set -- "$@" "libclc/$m=$SPVBC_LIBCLC_DIR/$m.spv"
    else
        note "libclc/$m: not measured (no $m.spv in '${SPVBC_LIBCLC_DIR:-}': libclc-15 is not installed there)."
    fi
done
rm -f "$results"/goals-*.tsv "$results"/layer-*.tsv "$results"/round-*.txt "$results"/round-*.md
bench_round() { # R INPUTS...: round R of spvbc_bench, its goals' rows in goals-R.tsv
    r=$1
    shift
    # shellcheck disable=SC2086
    set -- --cli "$SPVBC_CLI" --invalid lowerable --tmp "$data" $benchopts \
        --goals-tsv "$results/goals-$r.tsv" "$@"
    if [ "$r" -eq 1 ]; then
        "$SPVBC_BENCH" --spirv-val "$SPVBC_SPIRV_VAL" --spirv-opt "$SPVBC_SPIRV_OPT" \
            --dat "$results/performance.dat" --plot "$results/plot.dat" \
            --md "$results/results.md" "$@"
    else
        echo "run.sh: round $r of $rounds (its tables in $results/round-$r.txt)"
        "$SPVBC_BENCH" --spirv-val "" --spirv-opt "" --md "$results/round-$r.md" "$@" \
            >"$results/round-$r.txt"
    fi
}
goalfiles=""
r=1
while [ $r -le "$rounds" ]; do
    bench_round $r "$@"
    goalfiles="$goalfiles $results/goals-$r.tsv"
    r=$((r + 1))
done
# shellcheck disable=SC2086
awk -F '\t' -f "$src/bench/spread.awk" -v title="### Goals" -v intro="The figures are wall \
clock; the same figure in CPU time (thread CPU time in process, user + system of the child for \
processes) has its own verdict, which tells the library from a busy machine.  In process: warm \
calls, context reused; each round's figure is the median of its calls." $goalfiles |
    tee -a "$results/results.md"

# the Vulkan layer's own cost per module (spvbc_layer_bench, where the layer is built): the
# whole call on the 8.3 KB clean shader it passes on (the library's scan included), and beyond
# the library's calls on it and on the 2.6 KB one it lowers; `rounds`
# runs, each one's rows (as spvbc_bench --goals-tsv writes them) in layer-R.tsv, then the table
# with their spreads (bench/spread.awk)
layerbench="$build/layer/vulkan/test/spvbc_layer_bench"
layer_round() { # R: 0 when the layer bench ran and gave its rows
    reps=20000
    [ $quick -eq 1 ] && reps=4000
    if ! "$layerbench" $reps "$data/small-clean-8k.spv" "$data/small-six-4to3.spv" \
        >"$results/layer-$1.txt" 2>&1; then
        note "the layer's own time: not measured ($layerbench failed: $(tail -n 1 "$results/layer-$1.txt"))."
        return 1
    fi
    sed -n 's|^.*/\([^/:]*\): min \([0-9.]*\) us log off, .* adds \(-*[0-9.]*\) us with the log off, \(-*[0-9.]*\) us with it on$|\1 \2 \3 \4|p' \
        "$results/layer-$1.txt" | awk '
        {
            g8 = $1 ~ /8k/
            what = g8 ? "8.3 KB clean shader, passed on" : "2.6 KB module with 6 rewrites, lowered"
            if (g8) # the whole call, the library'"'"'s scan included: what a driver pays for the layer
                printf "layer'"'"'s own time per module (the library'"'"'s scan included), %s, log off\t0\t0.5\t%s\t-\t%%.2f us\t1\t%s us (wall, best of the calls)\t\t<= 0.5 us\n", what, $2, $2
            for (on = 0; on <= 1; ++on) {
                printf "layer'"'"'s added time per module (beyond the library'"'"'s calls), %s, log %s\t0\t%s\t%s\t-\t%%.2f us\t1\t%s us (wall, best of the calls)\t\t%s\n", what, on ? "on, to /dev/null" : "off", g8 ? (on ? 3 : 1) : "-", $(3 + on), $(3 + on), g8 ? (on ? "<= 3 us (8-12 KB)" : "<= 1 us (8-12 KB)") : "none: a module the layer lowers"
            }
        }' >"$results/layer-$1.tsv"
}
if [ -x "$layerbench" ]; then
    layerfiles=""
    r=1
    while [ $r -le "$rounds" ] && layer_round $r; do
        layerfiles="$layerfiles $results/layer-$r.tsv"
        r=$((r + 1))
    done
    # shellcheck disable=SC2086
    [ -z "$layerfiles" ] || awk -F '\t' -f "$src/bench/spread.awk" \
        -v title="### The Vulkan layer's own time per module" $layerfiles | tee -a "$results/results.md"
else
    echo "run.sh: $layerbench not built: no layer figures"
fi

# vkCreateShaderModule through the layer / without it, same modules, same process, on the
# driver the loader finds (lavapipe in CI): the kit of layer/vulkan/test (run.sh there), the
# clean 2 KB compute module and the real modules, with the layer's log off, at its default
# level (to standard error) and at level all to a file named by SPVBC_LAYER_LOG
kit="$build/layer/vulkan/test/vkbench"
if [ -x "$kit/spvbc_layer_vkbench" ]; then
    passes=300
    [ $quick -eq 1 ] && passes=60
    if sh "$kit/run.sh" $passes >"$results/vkbench.txt" 2>&1; then
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

cat "$notes" >>"$results/results.md"

cpu=$(grep -m1 'model name' /proc/cpuinfo | sed 's/.*: //')
cores=$(nproc)
mem=$(awk '/MemTotal/ {printf "%.0f GiB", $2 / 1048576}' /proc/meminfo)
when=$(date -u '+%Y-%m-%d %H:%M UTC')
plural=s
[ "$rounds" -ne 1 ] || plural=""
machine="$when, commit $commit, $cpu, $cores cores, $mem, $SPVBC_C_COMPILER $SPVBC_BUILD_TYPE, $rounds round$plural"
echo "run.sh: measured $machine"

# 4. plot and docs
gnuplot=${SPVBC_GNUPLOT:-}
[ -n "$gnuplot" ] && [ -x "$gnuplot" ] || gnuplot=$(command -v gnuplot || true)
if [ -z "$gnuplot" ] && [ $docs -eq 1 ] && [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
    echo "run.sh: installing gnuplot-nox for the plot"
    apt-get install -y -q gnuplot-nox >/dev/null 2>&1 || true
    gnuplot=$(command -v gnuplot || true)
fi
png="$results/performance.png"
if [ -n "$gnuplot" ]; then
    "$gnuplot" -e "datafile='$results/plot.dat'; outfile='$png'; subtitle='$machine'" \
        "$src/bench/performance.gp" 2>/dev/null || { echo "run.sh: gnuplot failed" >&2; png=""; }
else
    echo "run.sh: gnuplot not found (Debian: apt-get install gnuplot-nox): no plot"
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
            echo "Reproduce: \`cmake --build BUILD --target bench && bench/run.sh BUILD --rounds $rounds\`"
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
