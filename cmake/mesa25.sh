#!/bin/sh
# mesa25.sh - a second Mesa for the Vulkan tests: lavapipe from Mesa 25.0.7 (Debian
# bookworm-backports), fetched into the build tree without touching the system's packages,
# its apt state or its sources.list.
#
#   mesa25.sh fetch <dir>              download and unpack once; a second run costs nothing
#   mesa25.sh run <dir> <cmd> [args]   run <cmd> on that lavapipe, or exit 77 (ctest: skipped)
#                                      with the reason when it could not be fetched
#
# fetch never fails because the mirror cannot be reached: it records the reason in
# <dir>/unavailable and exits 0, so that the tests which need the driver report SKIPPED with
# that reason (they never pass without running).  It uses apt-get with a private state,
# cache and source list (bookworm-backports main only), `apt-get download` (no root needed,
# nothing installed) and `dpkg -x`.  The mirror and keyring are the machine's own Debian
# archive entry in its apt sources (`debian-tree.sh sources`, beside this script; override with
# SPVBC_DEBIAN_MIRROR), so a machine behind a local mirror or proxy fetches from there.  The
# driver is chosen with VK_DRIVER_FILES (a manifest naming the unpacked libvulkan_lvp.so by
# absolute path) and its newer libdrm with LD_LIBRARY_PATH.  SPVBC_EXPECT_DRIVER_INFO makes the tests check at run time that the device
# really is this Mesa (VkPhysicalDeviceDriverProperties.driverInfo).
#
# SPDX-License-Identifier: Apache-2.0
set -u

MESA_VERSION=25.0.7
SUITE=bookworm-backports
HERE=$(cd "$(dirname "$0")" && pwd)
# The fetch helpers (apt_init, apt_update, apt_download, unpack_debs) and the mirror (sources_line).
DEBIAN_TREE_LIB=1 . "$HERE/debian-tree.sh"
# The backported driver needs a newer libdrm than bookworm's 2.4.114; everything else it links
# (libLLVM-15, xcb, wayland, zstd, expat) is already a dependency of bookworm's Mesa.
PACKAGES="mesa-vulkan-drivers libdrm2 libdrm-amdgpu1"

usage() {
    echo "usage: $0 fetch <dir> | run <dir> <command> [args...]" >&2
    exit 2
}

manifest_of() { echo "$1/lvp_icd.json"; }

# bookworm-backports builds against bookworm's libraries: on a later release the system's own
# Mesa is the newer generation these tests exist to add (Debian 13 has 25.0.x).  Prints the
# reason and returns 1 there.
not_bookworm() {
    codename=$(. /etc/os-release 2>/dev/null && echo "${VERSION_CODENAME:-}")
    [ "$codename" = bookworm ] && return 1
    echo "this system is Debian '${codename:-unknown}', not bookworm: bookworm-backports' Mesa does not fit its libraries, and its own Mesa ($(dpkg-query -W -f='${Version}' mesa-vulkan-drivers 2>/dev/null || echo unknown)) runs the Vulkan tests already"
}

fetch() {
    dir=$1
    mkdir -p "$dir" || exit 1
    dir=$(cd "$dir" && pwd)
    if reason=$(not_bookworm); then
        rm -f "$(manifest_of "$dir")"
        unavailable "$dir" "$reason"
        return 0
    fi
    if [ -f "$(manifest_of "$dir")" ]; then
        echo "mesa25: cached in $dir ($(cat "$dir/version"))"
        return 0
    fi
    rm -f "$dir/unavailable"
    start=$(date +%s)
    apt_dir="$dir/apt"
    mkdir -p "$dir/debs" "$dir/root"
    if ! line=$(sources_line "$SUITE" 2>&1); then
        unavailable "$dir" "$line"
        return 0
    fi
    if ! apt_init "$apt_dir" "$line"; then
        # shellcheck disable=SC2154 # apt_reason: set by debian-tree.sh's apt_init
        unavailable "$dir" "$apt_reason"
        return 0
    fi
    if ! command -v apt-get >/dev/null || ! command -v dpkg >/dev/null; then
        unavailable "$dir" "apt-get/dpkg not found (not a Debian system)"
        return 0
    fi
    apt_update "$apt_dir" "$dir/apt.log"
    # 2 (warnings: a source it could not fetch) goes into the reason below when Mesa is missing.
    # shellcheck disable=SC2154 # apt_reason: set by debian-tree.sh's apt_update
    if [ $? -eq 1 ]; then
        unavailable "$dir" "apt-get update ($line) failed: $apt_reason"
        return 0
    fi
    # The exact Mesa version; the libdrm versions the backports suite has.
    mesa=$(apt_in "$apt_dir" apt-cache madison mesa-vulkan-drivers 2>/dev/null |
        awk -v v="$MESA_VERSION" '$3 ~ "^" v "-" { print $3; exit }')
    if [ -z "$mesa" ]; then
        unavailable "$dir" "bookworm-backports has no mesa-vulkan-drivers $MESA_VERSION (it has: $(apt_in "$apt_dir" apt-cache madison mesa-vulkan-drivers 2>/dev/null | awk '{print $3}' | tr '\n' ' ')); apt-get update said: $apt_reason"
        return 0
    fi
    specs="mesa-vulkan-drivers=$mesa"
    for p in $PACKAGES; do
        [ "$p" = mesa-vulkan-drivers ] && continue
        v=$(apt_in "$apt_dir" apt-cache madison "$p" 2>/dev/null | awk 'NR == 1 { print $3 }')
        [ -n "$v" ] && specs="$specs $p=$v"
    done
    if ! apt_download "$apt_dir" "$dir/debs" "$dir/apt.log" "$specs"; then
        unavailable "$dir" "apt-get download $specs failed: $apt_reason"
        return 0
    fi
    if ! unpack_debs "$dir/root" "$dir"/debs/*.deb; then
        unavailable "$dir" "dpkg -x $apt_reason failed"
        return 0
    fi
    lib=$(find "$dir/root" -name libvulkan_lvp.so | head -n 1)
    if [ -z "$lib" ]; then
        unavailable "$dir" "the package has no libvulkan_lvp.so"
        return 0
    fi
    libdir=$(dirname "$lib")
    api=$(sed -n 's/.*"api_version"[^"]*"\([0-9.]*\)".*/\1/p' \
        "$dir/root/usr/share/vulkan/icd.d/lvp_icd.json" 2>/dev/null | head -n 1)
    echo "$libdir" >"$dir/libdir"
    echo "mesa-vulkan-drivers $mesa ($specs)" >"$dir/version"
    # Written last: its presence means "ready".
    cat >"$(manifest_of "$dir").tmp" <<JSON
{
    "file_format_version": "1.0.0",
    "ICD": {
        "library_path": "$lib",
        "api_version": "${api:-1.4.305}"
    }
}
JSON
    mv "$(manifest_of "$dir").tmp" "$(manifest_of "$dir")"
    rm -rf "$apt_dir/cache/archives" "$apt_dir/state/lists" "$dir/debs"
    echo "mesa25: fetched $specs into $dir in $(($(date +%s) - start)) s"
}

unavailable() {
    echo "$2" >"$1/unavailable"
    echo "mesa25: not available: $2"
}

run() {
    dir=$1
    shift
    [ $# -ge 1 ] || usage
    if reason=$(not_bookworm); then
        echo "SKIP: Mesa $MESA_VERSION lavapipe is not available: $reason"
        exit 77
    fi
    if [ ! -f "$(manifest_of "$dir")" ]; then
        reason="not fetched (the mesa25.fetch test sets it up)"
        [ -f "$dir/unavailable" ] && reason=$(cat "$dir/unavailable")
        echo "SKIP: Mesa $MESA_VERSION lavapipe is not available: $reason"
        exit 77
    fi
    VK_DRIVER_FILES=$(manifest_of "$dir")
    VK_ICD_FILENAMES=$VK_DRIVER_FILES
    LD_LIBRARY_PATH="$(cat "$dir/libdir")${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
    SPVBC_EXPECT_DRIVER_INFO="Mesa $MESA_VERSION"
    export VK_DRIVER_FILES VK_ICD_FILENAMES LD_LIBRARY_PATH SPVBC_EXPECT_DRIVER_INFO
    exec "$@"
}

[ $# -ge 2 ] || usage
cmd=$1
shift
case $cmd in
fetch) fetch "$1" ;;
run) run "$@" ;;
*) usage ;;
esac
