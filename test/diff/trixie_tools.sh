# trixie_tools.sh - sourced (". trixie_tools.sh") by the scripts that run a Debian tree's tools
# (13's or unstable's) from the tree cmake/debian-tree.sh unpacked (real.sh, recorded.sh), whose
# next three arguments are <tree-dir> <spirv-bitcast> <work-dir>: takes those three off the
# positional parameters into $tree, $cli and $work, exits 77 ("SKIP: reason") when the tree is not
# ready,
# makes $work and defines tool(): `tool spirv-val args...` runs the tree's /usr/bin/spirv-val
# under the tree's own dynamic loader and libraries.  Expects $here, the sourcing script's folder.
# SPDX-License-Identifier: Apache-2.0
# shellcheck shell=sh disable=SC2034,SC2154 # $cli is the caller's; $here comes from the caller
tree=$1 cli=$2 work=$3
shift 3
sh "$here/../../cmake/debian-tree.sh" check "$tree" || exit $?
loader=$(ls "$tree"/root/usr/lib/*/ld-linux*.so.2 | head -n 1)
libdir=$(dirname "$loader")
tool() { t=$1; shift; "$loader" --library-path "$libdir" "$tree/root/usr/bin/$t" "$@"; }
mkdir -p "$work"
