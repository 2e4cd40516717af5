#!/bin/sh
# sid_tool.sh <tree root> <tool> [args...] - runs <tool> of a Debian tree unpacked by
# cmake/debian-tree.sh (Debian unstable's SPIRV-Tools 2026.4) under the tree's own dynamic loader
# and libraries: nothing of it is installed on the host.
# SPDX-License-Identifier: Apache-2.0
root=$1 tool=$2
shift 2
loader=$(ls "$root"/usr/lib/*/ld-linux*.so.2 | head -n 1)
exec "$loader" --library-path "$(dirname "$loader")" "$root/usr/bin/$tool" "$@"
