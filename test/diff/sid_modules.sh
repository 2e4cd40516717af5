#!/bin/sh
# sid_modules.sh - the SPIR-V that Debian unstable's own packages carry, unpacked into the build
# tree for test/diff/embedded.py: Mesa's Vulkan drivers and layers (mesa-vulkan-drivers), the
# Khronos validation layer (vulkan-validationlayers), vkcube (vulkan-tools), and the libclc
# that unstable's Mesa OpenCL driver depends on (whose .spv files are Kernel modules), as
# `apt-get download` gives them, without their dependencies (nothing here runs them), through
# cmake/debian-tree.sh's fetch sequence (a private apt state, the machine's own mirror).
#
#   sid_modules.sh <dir>
#
# Unpacks into <dir>/root and writes <dir>/ready (what was unpacked); a second run costs
# nothing.  Where the packages cannot be had (no mirror, fetching off), writes the reason to
# <dir>/unavailable and exits 0, so that the test that needs them reports SKIPPED with it.
#
# SPDX-License-Identifier: Apache-2.0
# shellcheck disable=SC2154 # $dir and $apt_reason: set by debian-tree.sh's fetch_begin, apt_*
set -u
[ $# -eq 1 ] || { echo "usage: $0 <dir>" >&2; exit 2; }
here=$(cd "$(dirname "$0")" && pwd)
# The fetch helpers (fetch_begin, give_up, sources_line, apt_init, apt_update, apt_in,
# apt_download, fetch_end).
# shellcheck source=../../cmake/debian-tree.sh
DEBIAN_TREE_LIB=1 . "$here/../../cmake/debian-tree.sh"
SUITE=sid
PACKAGES="mesa-vulkan-drivers vulkan-validationlayers vulkan-tools"
# The package whose libclc dependency names the libclc to take.
CLC_OF=mesa-opencl-icd
want="$SUITE: $PACKAGES + the libclc of $CLC_OF"
fetch_begin "$1" "$want" sid-modules
if ! command -v apt-get >/dev/null || ! command -v dpkg >/dev/null; then
    give_up "apt-get/dpkg not found (not a Debian system)"
fi
line=$(sources_line $SUITE 2>&1) || give_up "$line"
apt_dir="$dir/apt"
rm -rf "$dir/debs"
apt_init "$apt_dir" "$line" || give_up "$apt_reason"
apt_update "$apt_dir" "$dir/apt.log"
[ $? -eq 1 ] && give_up "apt-get update ($line) failed: $apt_reason"
clc=$(apt_in "$apt_dir" apt-cache depends "$CLC_OF" 2>/dev/null |
    sed -n 's/^ *Depends: \(libclc-[0-9][0-9]*\)$/\1/p' | head -n 1)
[ -n "$clc" ] || give_up "$SUITE's $CLC_OF depends on no libclc-N package"
apt_download "$apt_dir" "$dir/debs" "$dir/apt.log" "$PACKAGES $clc" ||
    give_up "apt-get download $PACKAGES $clc failed: $apt_reason"
fetch_end "$want" "$apt_dir"
