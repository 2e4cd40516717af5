#!/usr/bin/env bash
# trixie-root.sh - the test suite on Debian 13 (trixie), as a new user there would run it: a root
# made with `debootstrap --variant=minbase trixie` from this machine's own Debian mirror, the
# source tree copied in, then inside it the README's commands (.ci/install-deps.sh picks the
# release's tool versions: LLVM 19), a build and ctest.
#
#   .ci/trixie-root.sh <work dir> [ctest arguments...]
#
# Needs root (debootstrap, chroot, mounts).  The root is cached in <work dir>/root: a second run
# reuses it (install-deps then finds everything installed) and only copies the tree, builds and
# tests.  Exits 77 with `SKIPPED: <reason>` when not root, without debootstrap, or when the
# mirror cannot be reached; otherwise with ctest's status.  Prints the time of each step.
#
# SPDX-License-Identifier: Apache-2.0
set -uo pipefail
[ $# -ge 1 ] || { echo "usage: $0 <work dir> [ctest arguments...]" >&2; exit 2; }
src=$(cd "$(dirname "$0")/.." && pwd)
mkdir -p "$1" || exit 1
work=$(cd "$1" && pwd)
shift
root=$work/root
skip() {
    echo "SKIPPED: Debian 13 root: $1"
    exit 77
}
step() { echo "trixie-root: $1 ($(($(date +%s) - t0)) s)"; t0=$(date +%s); }
t0=$(date +%s)
start=$t0

[ "$(id -u)" = 0 ] || skip "needs root (debootstrap, chroot)"
command -v debootstrap >/dev/null || skip "debootstrap not found (Debian package debootstrap)"
# The machine's own Debian archive (cmake/debian-tree.sh: "deb [options] <uri> <suite> main").
line=$(sh "$src/cmake/debian-tree.sh" sources trixie 2>&1) || skip "$line"
mirror=$(echo "$line" | awk '{ print ($2 ~ /^\[/) ? $3 : $2 }')

if [ ! -f "$root/.spvbc-ready" ]; then
    rm -rf "$root"
    mkdir -p "$root"
    if ! debootstrap --variant=minbase trixie "$root" "$mirror" >"$work/debootstrap.log" 2>&1; then
        reason=$(grep -E '^(E|W):' "$work/debootstrap.log" | tail -n 2 | tr '\n' ' ')
        rm -rf "$root"
        skip "debootstrap trixie from $mirror failed: ${reason:-see $work/debootstrap.log}"
    fi
    # The release's updates and security suites, as on an installed machine.
    security=$(dirname "$mirror")/debian-security
    printf 'deb %s trixie main\ndeb %s trixie-updates main\ndeb %s trixie-security main\n' \
        "$mirror" "$mirror" "$security" >"$root/etc/apt/sources.list"
    touch "$root/.spvbc-ready"
    step "debootstrap --variant=minbase trixie from $mirror"
fi

mounts=()
cleanup() {
    for ((i = ${#mounts[@]} - 1; i >= 0; i--)); do umount -l "${mounts[$i]}" 2>/dev/null; done
}
trap cleanup EXIT
for m in proc sys dev dev/pts; do
    mkdir -p "$root/$m"
    case $m in
    proc) mount -t proc proc "$root/proc" ;;
    sys) mount -t sysfs sys "$root/sys" ;;
    dev) mount --bind /dev "$root/dev" ;;
    dev/pts) mount -t devpts devpts "$root/dev/pts" ;;
    esac && mounts+=("$root/$m")
done
cp /etc/resolv.conf "$root/etc/resolv.conf" 2>/dev/null

# The tree as it is (committed or not), without build directories.
rm -rf "$root/src"
mkdir -p "$root/src"
(cd "$src" && git ls-files -co --exclude-standard -z | tar --null -T - -cf - 2>/dev/null) |
    tar -xf - -C "$root/src"
step "source tree copied"

# The root trusts what the machine trusts: its local CA certificates (a CI host behind a TLS
# proxy has them; node.js reads the system bundle only through NODE_EXTRA_CA_CERTS).
if ls /usr/local/share/ca-certificates/*.crt >/dev/null 2>&1; then
    mkdir -p "$root/usr/local/share/ca-certificates"
    cp /usr/local/share/ca-certificates/*.crt "$root/usr/local/share/ca-certificates/"
fi
# ... and fetches the way the machine fetches: its apt configuration's proxies and date checks
# (a mirror whose Release files are past their Valid-Until, as unstable's were on a CI machine:
# the tests' private apt states could not read it inside the root, and every spirv-tools-2026
# test said SKIPPED there).
apt-config dump 2>/dev/null |
    grep -E '^Acquire::(Check-Valid-Until|Check-Date|https?::Proxy[^ ]*|Retries) ' \
        >"$root/etc/apt/apt.conf.d/99host-acquire" || rm -f "$root/etc/apt/apt.conf.d/99host-acquire"
in_root() { chroot "$root" /usr/bin/env -i HOME=/root PATH=/usr/sbin:/usr/bin:/sbin:/bin \
    LANG=C.UTF-8 DEBIAN_FRONTEND=noninteractive \
    NODE_EXTRA_CA_CERTS=/etc/ssl/certs/ca-certificates.crt bash -c "$1"; }

# README command 1 (its first part): the dependencies, with the release's versions.
if ! in_root "cd /src && .ci/install-deps.sh" >"$work/install-deps.log" 2>&1; then
    tail -n 20 "$work/install-deps.log"
    if grep -qE 'Temporary failure resolving|Could not connect|Failed to fetch' "$work/install-deps.log"; then
        skip "apt-get in the root cannot reach the mirror"
    fi
    echo "FAIL: .ci/install-deps.sh in the Debian 13 root"
    exit 1
fi
in_root "command -v update-ca-certificates >/dev/null && update-ca-certificates" >/dev/null 2>&1
step ".ci/install-deps.sh (LLVM $(in_root 'sh /src/.ci/llvm-version.sh'))"

if ! in_root "cd /src && cmake -S . -B /build -G Ninja -DSPVBC_FETCH=ON && cmake --build /build && examples/run.sh /build" \
    >"$work/build.log" 2>&1; then
    tail -n 40 "$work/build.log"
    echo "FAIL: build in the Debian 13 root"
    exit 1
fi
grep -E 'C compiler identification|LLVM tools' "$work/build.log"
step "cmake, build, examples/run.sh"

args="--output-on-failure -j2"
[ $# -gt 0 ] && args="$args $(printf '%q ' "$@")"
in_root "cd /src && ctest --test-dir /build $args" 2>&1 | tee "$work/ctest.log"
rc=${PIPESTATUS[0]}
step "ctest $args"
echo "trixie-root: total $(($(date +%s) - start)) s, ctest exit $rc"
exit "$rc"
