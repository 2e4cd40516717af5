#!/bin/sh
# fetch-debs.sh - Debian packages of another architecture unpacked into the build tree, for a
# cross build: apt-get with a private state, cache and source list (the machine's own mirror and keyring from
# cmake/debian-tree.sh sources, its own release), `apt-get download` (nothing installed, dpkg's database untouched) and
# `dpkg -x`.  The system's packages, architectures and apt sources stay as they are.
#
#   fetch-debs.sh <arch> <dir> <package...>
#
# Unpacks into <dir>/root; writes <dir>/ready (the package versions) when done, so a second run
# costs nothing.  When the mirror cannot be reached, writes the reason to <dir>/unavailable and
# exits 0: the cross test then reports SKIPPED with that reason.
#
# SPDX-License-Identifier: Apache-2.0
set -u
[ $# -ge 3 ] || { echo "usage: $0 <arch> <dir> <package...>" >&2; exit 2; }
here=$(cd "$(dirname "$0")" && pwd)
# The fetch helpers (fetch_begin, give_up, apt_init, apt_update, apt_download, fetch_end,
# host_sources_line).
DEBIAN_TREE_LIB=1 . "$here/../../cmake/debian-tree.sh"
arch=$1 top=$2
shift 2
want="$arch: $*"
fetch_begin "$top" "$want" fetch-debs
rm -rf "$dir/debs"
command -v apt-get >/dev/null && command -v dpkg >/dev/null ||
    give_up "apt-get/dpkg not found (not a Debian system)"
# The machine's own Debian archive and keyring, as cmake/debian-tree.sh finds them in its apt
# sources, for the host's release and the target's architecture.
line=$(host_sources_line 2>"$dir/mirror.err") ||
    give_up "no Debian mirror: $(cat "$dir/mirror.err")"
line=$(echo "$line" | sed -e "s/^deb \[/deb [arch=$arch /" -e t -e "s/^deb /deb [arch=$arch] /")

apt_dir="$dir/apt"
mkdir -p "$dir/debs" "$dir/root"
# shellcheck disable=SC2154 # apt_reason: set by debian-tree.sh's apt_init
apt_init "$apt_dir" "$line" || give_up "$apt_reason"
pkgs="$*"
set -- -o "APT::Architecture=$arch" -o "APT::Architectures=$arch"
apt_update "$apt_dir" "$dir/apt.log" "$@"
# shellcheck disable=SC2154 # apt_reason: set by debian-tree.sh's apt_update
[ $? -eq 1 ] && give_up "apt-get update ($line) failed: $apt_reason"
apt_download "$apt_dir" "$dir/debs" "$dir/apt.log" "$pkgs" "$@" ||
    give_up "apt-get download $pkgs ($arch) failed: $apt_reason"
fetch_end "$want" "$apt_dir"
