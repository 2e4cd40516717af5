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
arch=$1
dir=$2
shift 2
mkdir -p "$dir" || exit 1
dir=$(cd "$dir" && pwd)
want="$arch: $*"
if [ -f "$dir/ready" ] && [ "$(head -n 1 "$dir/ready")" = "$want" ]; then
    exit 0
fi
rm -rf "$dir/ready" "$dir/unavailable" "$dir/root" "$dir/debs"

# apt's own reason: its first error lines (else its last lines).
apt_error() {
    { grep -m 2 '^E:' "$dir/apt.log" || tail -n 2 "$dir/apt.log"; } | tr '\n' ' '
}
unavailable() {
    echo "$1" >"$dir/unavailable"
    echo "fetch-debs: not available: $1"
    exit 0
}

command -v apt-get >/dev/null && command -v dpkg >/dev/null ||
    unavailable "apt-get/dpkg not found (not a Debian system)"
here=$(cd "$(dirname "$0")" && pwd)
codename=$(. /etc/os-release && echo "${VERSION_CODENAME:-}")
[ -n "$codename" ] || unavailable "no VERSION_CODENAME in /etc/os-release (not Debian?)"
# The machine's own Debian archive and keyring, as cmake/debian-tree.sh finds them in its apt
# sources, for the host's release and the target's architecture.
line=$(sh "$here/../../cmake/debian-tree.sh" sources "$codename" 2>"$dir/mirror.err") ||
    unavailable "no Debian mirror: $(cat "$dir/mirror.err")"
line=$(echo "$line" | sed -e "s/^deb \[/deb [arch=$arch /" -e t -e "s/^deb /deb [arch=$arch] /")

apt_dir="$dir/apt"
mkdir -p "$apt_dir/state/lists/partial" "$apt_dir/cache/archives/partial" "$apt_dir/etc" \
    "$dir/debs" "$dir/root"
: >"$apt_dir/state/status"
echo "$line" >"$apt_dir/etc/sources.list"
pkgs="$*"
set -- -o "Dir::State=$apt_dir/state" -o "Dir::State::status=$apt_dir/state/status" \
    -o "Dir::Cache=$apt_dir/cache" -o "Dir::Etc::SourceList=$apt_dir/etc/sources.list" \
    -o "Dir::Etc::SourceParts=/dev/null" -o "Dir::Etc::Preferences=/dev/null" \
    -o "Dir::Etc::PreferencesParts=/dev/null" -o "APT::Architecture=$arch" \
    -o "APT::Architectures=$arch" -o "APT::Sandbox::User=$(id -un)" \
    -o "Acquire::Retries=2" -o "Acquire::http::Timeout=30" -o "Debug::NoLocking=1"
apt-get "$@" -qq update >"$dir/apt.log" 2>&1 ||
    unavailable "apt-get update ($line) failed: $(apt_error)"
# shellcheck disable=SC2086 # the package names are words
(cd "$dir/debs" && apt-get "$@" -qq download $pkgs) >>"$dir/apt.log" 2>&1 ||
    unavailable "apt-get download $pkgs ($arch) failed: $(apt_error)"
for deb in "$dir"/debs/*.deb; do
    dpkg -x "$deb" "$dir/root" || unavailable "dpkg -x $deb failed"
done
{
    echo "$want"
    for deb in "$dir"/debs/*.deb; do basename "$deb"; done
} >"$dir/ready"
rm -rf "$apt_dir/cache/archives" "$apt_dir/state/lists" "$dir/debs"
echo "fetch-debs: $(tail -n +2 "$dir/ready" | tr '\n' ' ')into $dir/root"
