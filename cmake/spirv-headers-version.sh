#!/bin/sh
# spirv-headers-version.sh - the SDK version (1.3.239) of a SPIRV-Headers, read from the Debian
# package version (1.6.1+1.3.239.0-1); the one detection both builds use (cmake/spirv-headers.cmake
# and meson.build).  Prints nothing when the version cannot be told (no package owns the file).
#
#   spirv-headers-version.sh file <path of spirv/unified1/spirv.h>   the installed package's
#   spirv-headers-version.sh packages <debian-tree.sh's packages file>   a fetched tree's
#
# SPDX-License-Identifier: Apache-2.0
set -u
v=
case ${1:-} in
file)
    owner=$(dpkg-query -S "$2" 2>/dev/null | sed -n '1s/:.*//p')
    [ -n "$owner" ] && v=$(dpkg-query -W -f='${Version}' "$owner" 2>/dev/null)
    ;;
packages) v=$(sed -n 's/^spirv-headers //p' "$2" 2>/dev/null) ;;
*)
    echo "usage: $0 file <spirv.h> | packages <file>" >&2
    exit 2
    ;;
esac
printf '%s' "${v:-}" | sed -n 's/^[^+]*+\([0-9]*\.[0-9]*\.[0-9]*\).*/\1/p'
