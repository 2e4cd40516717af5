#!/bin/sh
# debian_tree_sources.sh - cmake/debian-tree.sh reads the machine's apt sources right: the
# one-line and the deb822 formats, the Debian archive entry chosen among others (security,
# third-party, disabled, deb-src), its keyring, and a clear failure when there is none.
#
#   debian_tree_sources.sh <path to debian-tree.sh>
#
# SPDX-License-Identifier: Apache-2.0
set -u
script=$1
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
fail=0

# expect <name> <expected line> : debian-tree.sh sources trixie, with $tmp/etc as /etc/apt.
expect() {
    got=$(SPVBC_APT_ETC=$tmp/etc SPVBC_HOST_CODENAME=bookworm SPVBC_DEBIAN_MIRROR='' \
        sh "$script" sources trixie 2>&1)
    rc=$?
    if [ $rc -eq 0 ] && [ "$got" = "$2" ]; then
        echo "ok $1: $got"
    else
        echo "FAIL $1: got \"$got\" (exit $rc), expected \"$2\""
        fail=1
    fi
}
reset() { rm -rf "${tmp:?}/etc" && mkdir -p "$tmp/etc/sources.list.d"; }

# deb822, as Debian 12 installs it: disabled, deb-src and security entries come first.
reset
cat >"$tmp/etc/sources.list.d/debian.sources" <<'S'
# A comment
Types: deb
URIs: http://disabled.invalid/archive
Suites: bookworm
Components: main
Enabled: no

Types: deb-src
URIs: http://source.invalid/archive
Suites: bookworm
Components: main

Types: deb
URIs: http://security.invalid/archive-security
Suites: bookworm-security
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg

Types: deb
# a snapshot, commented out
URIs: http://mirror.invalid/archive
Suites: bookworm bookworm-updates
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg
S
cat >"$tmp/etc/sources.list.d/nodesource.sources" <<'S'
Types: deb
URIs: https://third-party.invalid/node_20.x
Suites: nodistro
Components: main
Signed-By: /usr/share/keyrings/nodesource.gpg
S
expect deb822 "deb [signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] http://mirror.invalid/archive trixie main"

# An inline key block (no file to name): the system's keys are used.
reset
cat >"$tmp/etc/sources.list.d/debian.sources" <<'S'
Types: deb
URIs: http://mirror.invalid/archive
Suites: bookworm
Components: main
Signed-By:
 -----BEGIN PGP PUBLIC KEY BLOCK-----
 .
 mDMEZ...
 -----END PGP PUBLIC KEY BLOCK-----
S
expect deb822-inline-key "deb http://mirror.invalid/archive trixie main"

# One-line format, a local proxy and options; sources.list before sources.list.d.
reset
cat >"$tmp/etc/sources.list" <<'S'
# deb http://commented.invalid/archive bookworm main
deb-src http://source.invalid/archive bookworm main
deb http://security.invalid/archive-security bookworm-security main
deb [arch=amd64 signed-by=/etc/apt/keyrings/local.gpg] http://proxy.invalid:3142/archive bookworm main contrib
S
cat >"$tmp/etc/sources.list.d/other.list" <<'S'
deb http://other.invalid/archive bookworm main
S
expect one-line "deb [signed-by=/etc/apt/keyrings/local.gpg] http://proxy.invalid:3142/archive trixie main"

# A file: mirror without options, in sources.list.d; another release's name as a fallback.
reset
cat >"$tmp/etc/sources.list.d/local.list" <<'S'
deb file:/srv/mirror/debian stable main
S
expect fallback "deb file:/srv/mirror/debian trixie main"

# No Debian entry at all: exit 1 with the reason, and fetch records it for the tests' SKIP.
reset
echo "deb https://third-party.invalid/apt cloud-sdk main" >"$tmp/etc/sources.list"
if SPVBC_APT_ETC=$tmp/etc SPVBC_HOST_CODENAME=bookworm SPVBC_DEBIAN_MIRROR='' \
    sh "$script" sources trixie >"$tmp/out" 2>&1; then
    echo "FAIL none: exit 0: $(cat "$tmp/out")"
    fail=1
elif ! grep -q "no Debian archive entry" "$tmp/out"; then
    echo "FAIL none: $(cat "$tmp/out")"
    fail=1
else
    echo "ok none: $(cat "$tmp/out")"
fi
SPVBC_APT_ETC=$tmp/etc SPVBC_HOST_CODENAME=bookworm SPVBC_DEBIAN_MIRROR='' \
    sh "$script" fetch "$tmp/tree" trixie hello >/dev/null 2>&1
rc=$?
out=$(sh "$script" check "$tmp/tree")
crc=$?
if [ $rc -eq 0 ] && [ $crc -eq 77 ] && echo "$out" | grep -q "^SKIP: .*no Debian archive entry"; then
    echo "ok none-fetch: fetch exit 0, check exit 77: $out"
else
    echo "FAIL none-fetch: fetch exit $rc, check exit $crc: $out"
    fail=1
fi

# SPVBC_DEBIAN_MIRROR wins.
got=$(SPVBC_APT_ETC=$tmp/etc SPVBC_DEBIAN_MIRROR=file:/m SPVBC_DEBIAN_KEYRING=/k.gpg \
    sh "$script" sources trixie)
if [ "$got" = "deb [signed-by=/k.gpg] file:/m trixie main" ]; then
    echo "ok override: $got"
else
    echo "FAIL override: $got"
    fail=1
fi
exit $fail
