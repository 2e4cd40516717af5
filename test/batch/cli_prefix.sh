#!/usr/bin/env bash
# cli_prefix.sh NM ARCHIVE - every function or object the CLI's C rooms share (a global symbol
# defined in the static library spvbc_cli) is named cli_* (ctest cli.prefix).  libspirv.h's
# kDefaultMaxIdBound, defined weak in each room that includes it, is SPIRV-Tools' name; names
# starting with __ are the compiler's (AddressSanitizer's __odr_asan.*).
# SPDX-License-Identifier: Apache-2.0
set -u
nm=${1:?usage: cli_prefix.sh NM ARCHIVE}
archive=${2:?usage: cli_prefix.sh NM ARCHIVE}
symbols=$("$nm" -g --defined-only "$archive" | awk 'NF == 3 { print $3 }') || exit 1
[ -n "$symbols" ] || { echo "FAIL: no symbol defined in $archive"; exit 1; }
bad=$(printf '%s\n' "$symbols" | grep -v -e '^cli_' -e '^kDefaultMaxIdBound$' -e '^__')
echo "$(printf '%s\n' "$symbols" | grep -c '^cli_') shared names start with cli_"
if [ -n "$bad" ]; then
    echo "FAIL: shared names without the cli_ prefix:"
    printf '  %s\n' $bad
    exit 1
fi
