#!/bin/sh
# vkbench.sh [ROUNDS] - the kit's run.sh: vkCreateShaderModule through VK_LAYER_SPVBC_bitcast
# against the same call without it (spvbc_layer_vkbench, in this folder with the layer and its
# manifest), on the clean 2 KB compute module and on the real modules of modules/ (SOURCES.txt
# says where each came from), three times: the layer's log off; on, to standard error, at its
# default level (a line only for a module it changes or refuses: none of these); at level all,
# to a file named by SPVBC_LAYER_LOG, which must then hold a line for every call made through
# the layer.  Needs only the Vulkan loader (libvulkan1) and a driver;
# SPVBC_BENCH_DEVICE=<index> picks the physical device.
# Exit status: the program's (77: no device or no layer), or 1 when a log lacks lines.
# SPDX-License-Identifier: Apache-2.0
set -u
here=$(cd "$(dirname "$0")" && pwd)
rounds=${1:-300}
work=$(mktemp -d "${TMPDIR:-/tmp}/spvbc-vkbench.XXXXXX") || exit 1
trap 'rm -rf "$work"' EXIT
uname -srm
for log in off stderr "$work/layer.log"; do
    level=changes
    case $log in /*) level=all ;; esac
    echo "== layer log: $log, level $level"
    SPVBC_LAYER_LOG=$log SPVBC_LAYER_LOG_LEVEL=$level SPVBC_LAYER_MODE=lower \
        "$here/spvbc_layer_vkbench" --rounds "$rounds" \
        --layer-dir "$here" compute2k="$here/modules/compute2k" real="$here/modules/real" \
        >"$work/out" 2>"$work/err"
    rc=$?
    grep -v 'spvbc-layer: ' "$work/err" >&2
    cat "$work/out"
    [ $rc -eq 0 ] || exit $rc
    if [ "$log" = stderr ]; then
        lines=$(grep -c 'spvbc-layer: ' "$work/err")
        echo "layer log (standard error, level changes): $lines lines"
        [ "$lines" = 0 ] || { echo "FAIL: the layer logged modules it did not change"; exit 1; }
    fi
done
