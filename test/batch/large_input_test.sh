#!/bin/sh
# large_input_test.sh GEN SPIRV_VAL SPIRV_BITCAST WORK (ctest cli.large_input)
# A lowerable module of 6 MiB (bench/gen_module.c): larger than the steps in which the CLI lets
# go of a mapped input's pages behind the parse (4 MiB) and maps them again ahead of the
# output's write (1 MiB).  Every way of reading it (mapped file, standard input) and of writing
# the output (file, standard output to a file and to a pipe, the input file itself), quiet or
# printing each rewrite, must give the same bytes, which spirv-val accepts and `validate` finds
# clean.
# SPDX-License-Identifier: Apache-2.0
set -u
gen=$1 val=$2 cli=$3 dir=$4
if [ -z "$val" ] || ! "$val" --version >/dev/null 2>&1; then
    echo "SKIP: no spirv-val to check the lowered module with (SPVBC_SPIRV_VAL)"
    exit 77
fi
rm -rf "$dir" && mkdir -p "$dir" && cd "$dir" || exit 1
fail=0
bad() { echo "FAIL: $1"; fail=1; }
"$gen" -q -s 6M --seed 3 --lowerable -o in.spv || { echo "FAIL: gen_module"; exit 1; }
size=$(wc -c <in.spv)
[ "$size" -gt $((5 << 20)) ] || bad "the generated module has $size bytes, not over 5 MiB"

"$cli" lower -q -o quiet.spv in.spv 2>quiet.err || bad "lower -q -o FILE fails: $(cat quiet.err)"
"$cli" lower -o printing.spv in.spv 2>printing.err || bad "lower -o FILE fails"
"$cli" lower -q -o - in.spv >stdout.spv 2>/dev/null || bad "lower -q -o - fails"
"$cli" lower -q -o - - <in.spv >stdin.spv 2>/dev/null || bad "lower -q -o - - fails"
cat in.spv | "$cli" lower -o - - 2>/dev/null | cat >pipe.spv || bad "lower through pipes fails"
# onto the input itself: the pages let go are read again from the input, never from the output
cp in.spv inplace.spv && cp in.spv inplace-q.spv || exit 1
"$cli" lower -o inplace.spv inplace.spv 2>/dev/null || bad "lower -o INPUT INPUT fails"
"$cli" lower -q -o inplace-q.spv inplace-q.spv 2>/dev/null || bad "lower -q -o INPUT INPUT fails"

for f in printing stdout stdin pipe inplace inplace-q; do
    cmp -s quiet.spv "$f.spv" || bad "$f.spv differs from quiet.spv"
done
cmp -s in.spv quiet.spv && bad "the lowering changed nothing"
# the summary line: the same counts quiet and printing, and rewrites made
summary() { grep 'bitcasts checked' "$1" | sed 's/^[^:]*: //'; }
[ -n "$(summary quiet.err)" ] || bad "lower -q printed no summary"
[ "$(summary quiet.err)" = "$(summary printing.err)" ] ||
    bad "the summaries differ: '$(summary quiet.err)' against '$(summary printing.err)'"
case $(summary quiet.err) in
*" 0 rewritten"*) bad "no rewrite: $(summary quiet.err)" ;;
esac
rewritten=$(summary quiet.err | sed -n 's/.*checked: \([0-9]*\) rewritten.*/\1/p')
[ "$(grep -c '^lowered: ' printing.err)" = "$rewritten" ] ||
    bad "lower printed $(grep -c '^lowered: ' printing.err) rewrites, not the summary's $rewritten"

"$val" quiet.spv || bad "spirv-val rejects the lowered module"
"$cli" validate -q quiet.spv 2>/dev/null || bad "validate finds errors in the lowered module"
"$cli" validate -q in.spv 2>/dev/null && bad "validate finds the input clean"
[ $fail -eq 0 ] && echo "PASS: a 6 MiB module lowered the same way on every path"
exit $fail
