#!/bin/sh
# vul-trixie.sh - the sources the Vulkan layer's Khronos settings are built from where the
# system has no Vulkan-Utility-Libraries (Debian 12): Debian 13 (trixie)'s source packages
# vulkan-utility-libraries (its layer-settings library, a few C++17 files) and vulkan-loader
# (for the Vulkan-Headers it bundles, which know VK_EXT_layer_settings; Debian 12's 1.3.239 do
# not), fetched with debian-tree.sh's functions (beside this script: a private apt state, the
# machine's own mirror) and unpacked into the build tree.  Nothing is installed or built here:
# cmake/vulkan-utility-libraries.cmake builds the library from <dir>/src.
#
#   vul-trixie.sh fetch <dir>
#       `apt-get source --download-only` of both packages (deb-src of the suite, default trixie:
#       SPVBC_VUL_SUITE), then their .orig tarballs unpacked into <dir>/src (Debian's patches
#       are not applied: the layer-settings files are upstream's).  Once: a second run costs
#       nothing.  Exits 0 even when it could not fetch: the reason goes to <dir>/unavailable
#       (and stdout), so that configure says why and the tests needing it report SKIPPED with
#       it.  Exit 2 only for bad usage.
#
# Files under <dir>: src/vulkan-utility-libraries-<v>/, src/vulkan-loader-<v>/ (its
# vulkan-headers/include), ready (written last), unavailable (why not), apt.log.
#
# SPDX-License-Identifier: Apache-2.0
set -u

# shellcheck source=cmake/debian-tree.sh
DEBIAN_TREE_LIB=1 . "$(dirname "$0")/debian-tree.sh"

SUITE=${SPVBC_VUL_SUITE:-trixie}
PACKAGES="vulkan-utility-libraries vulkan-loader"

if [ $# -ne 2 ] || [ "$1" != fetch ]; then
    echo "usage: $0 fetch <dir>" >&2
    exit 2
fi

fetch_begin "$2" "$SUITE $PACKAGES" vul-trixie
if ! command -v apt-get >/dev/null || ! command -v tar >/dev/null; then
    give_up "apt-get/tar not found (not a Debian system)"
fi
line=$(sources_line "$SUITE" 2>&1) || give_up "$line"
src_line=$(echo "$line" | sed 's/^deb /deb-src /')
apt_dir=$dir/apt
rm -rf "$apt_dir" "$dir/debs" "$dir/src"
apt_init "$apt_dir" "$src_line" || give_up "cannot create $apt_dir"
set -- -o "Acquire::Languages=none"
apt_update "$apt_dir" "$dir/apt.log" "$@"
case $? in
1) give_up "apt-get update ($src_line) failed: $apt_reason" ;;
2) give_up "apt-get update ($src_line): $apt_reason" ;;
esac
for pkg in $PACKAGES; do
    apt_source "$apt_dir" "$dir/debs" "$dir/apt.log" "$pkg" "$@" ||
        give_up "apt-get source --download-only $pkg ($SUITE) failed: $apt_reason"
done
mkdir -p "$dir/src" || give_up "cannot create $dir/src"
for orig in "$dir"/debs/*.orig.tar.*; do
    [ -f "$orig" ] || give_up "apt-get source downloaded no .orig tarball"
    tar -xf "$orig" -C "$dir/src" || give_up "tar -xf $(basename "$orig") failed"
done
rm -rf "$apt_dir" "$dir/debs"
echo "$SUITE $PACKAGES" >"$dir/ready"
echo "vul-trixie: fetched $PACKAGES ($SUITE) into $dir/src"
