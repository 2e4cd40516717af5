#!/bin/sh
# run_trixie_loader.sh - run a program of this build with Debian 13's ICD loader (ocl-icd 2.3.3)
# from the tree cmake/opencl-trixie.sh fetched: under the tree's own dynamic loader and
# libraries, so no root is needed and the host stays untouched.  On Debian 13, whose own loader
# that is, the program runs as it is.
#
#   run_trixie_loader.sh <tree dir> <program> [args...]
#
# Exits 77 with "SKIP: <reason>" when the tree is not there.
# SPDX-License-Identifier: Apache-2.0
set -u
[ $# -ge 2 ] || { echo "usage: $0 <tree dir> <program> [args...]" >&2; exit 2; }
dir=$1
shift
# Debian 13 itself: no tree, its own ocl-icd 2.3.3 (cmake/opencl-trixie.sh fetch wrote "system").
[ -f "$dir/system" ] && exec "$@"
sh "$(dirname "$0")/../../../cmake/debian-tree.sh" check "$dir" || exit 77
root=$dir/root
exec "$root/lib64/ld-linux-x86-64.so.2" \
    --library-path "$root/usr/lib/x86_64-linux-gnu:$root/usr/lib" "$@"
