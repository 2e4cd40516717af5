#!/bin/sh
# bench/carry.sh BUILD DEST
#
# Copies what bench/run.sh needs of the build BUILD (after `cmake --build BUILD --target bench`)
# into DEST, laid out as in BUILD, to run the benchmark on another machine with the same source
# tree (docs/performance.md, "Rounds and spreads"):
#     bench/run.sh DEST --quick --rounds 5 --no-docs
# bench-config.sh, spvbc_bench, spvbc_gen_module, the spirv-bitcast CLI (SPIRV-Tools linked in)
# and, where built, spvbc_layer_bench (which needs libvulkan.so.1 there; run.sh says when it
# cannot run): about 8 MB, no input (run.sh generates the inputs again, the same bytes).  The
# programs need the glibc and libstdc++ they were built against or newer; run.sh finds them under
# DEST whatever path DEST has.
set -eu
[ $# -eq 2 ] || { echo "usage: bench/carry.sh BUILD DEST" >&2; exit 2; }
build=$1 dest=$2
[ -f "$build/bench/bench-config.sh" ] ||
    { echo "carry.sh: $build/bench/bench-config.sh missing: configure BUILD with CMake" >&2; exit 1; }
. "$build/bench/bench-config.sh"
built=$(cd "$build" && pwd)
rel() { # PATH: PATH relative to the build directory it was configured in (now at BUILD)
    case $1 in
    "$SPVBC_CONFIG_BUILD"/*) echo "${1#"$SPVBC_CONFIG_BUILD"/}" ;;
    *) echo "carry.sh: $1 is outside the build directory $SPVBC_CONFIG_BUILD" >&2; exit 1 ;;
    esac
}
layer=layer/vulkan/test/spvbc_layer_bench
for f in bench/bench-config.sh "$(rel "$SPVBC_BENCH")" "$(rel "$SPVBC_GEN_MODULE")" \
    "$(rel "$SPVBC_CLI")" $layer; do
    if [ -f "$built/$f" ]; then
        mkdir -p "$dest/$(dirname "$f")"
        cp -p "$built/$f" "$dest/$f"
    elif [ "$f" != $layer ]; then
        echo "carry.sh: $built/$f missing: run 'cmake --build $build --target bench'" >&2
        exit 1
    fi
done
echo "carry.sh: $dest holds the benchmark of $build ($(du -sh "$dest" | cut -f1)): bench/run.sh $dest [--quick] [--rounds N] --no-docs"
