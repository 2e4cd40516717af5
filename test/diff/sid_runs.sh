#!/bin/sh
# sid_runs.sh <tree-dir> - Debian unstable's spirv-val and glslang, unpacked by
# cmake/debian-tree.sh, run under the tree's own loader and libraries on this host, and are the
# generations the tests expect: SPIRV-Tools 2026.x and glslang 16.  Exit 77 (SKIP with the
# reason) when the tree could not be fetched.
# SPDX-License-Identifier: Apache-2.0
set -u
here=$(cd "$(dirname "$0")" && pwd)
tree=$1
sh "$here/../../cmake/debian-tree.sh" check "$tree" || exit $?
loader=$(ls "$tree"/root/usr/lib/*/ld-linux*.so.2 | head -n 1)
libdir=$(dirname "$loader")
tool() { t=$1; shift; "$loader" --library-path "$libdir" "$tree/root/usr/bin/$t" "$@"; }
v=$(tool spirv-val --version 2>&1 | head -n 1)
case $v in
"SPIRV-Tools v2026."*) echo "spirv-val: $v" ;;
*)
    echo "FAIL: the tree's spirv-val is not SPIRV-Tools 2026.x: $v"
    exit 1
    ;;
esac
g=$(tool glslangValidator --version 2>&1 | sed -n 's/^Glslang Version: //p')
case $g in
*:16.*) echo "glslang: $g" ;;
*)
    echo "FAIL: the tree's glslang is not 16.x: '$g'"
    exit 1
    ;;
esac
