#!/bin/sh
# bench/spread_selftest.sh SOURCE_DIR WORKDIR
# ctest bench.spread: bench/spread.awk, the goals table of bench/run.sh --rounds, on three canned
# rounds whose figures differ, so that every value checked is computed: fastest / median /
# slowest in each goal's direction, the spread, the verdict on the median and how many rounds
# met it, the CPU figures on their own median, a row missing from a round, an even count, a row
# never measured, an information row, the note, and the count of verdicts.  No timing.
set -u
src=$1 dir=$2
mkdir -p "$dir" || exit 1
t=$(printf '\t')
# figure, at_least, bound, value, cpu_value, fmt, scale, measured, cpu text, goal
row() { printf '%s\n' "$1$t$2$t$3$t$4$t$5$t$6$t$7$t$8$t$9$t${10}"; }
{
    printf '#\tA note, once.\n'
    row up 1 100 90 80 '%.0f MB/s' 1 'up round 1' '80 MB/s' '>= 100 MB/s'
    row down 0 2 1.5 - '%.2fx' 1 'down round 1' '' '<= 2x'
    row share 1 0.9 0.80 0.95 '%.0f%%' 100 'share round 1' '95%' '>= 90%'
    row missed 1 100 80 - '%.0f MB/s' 1 'missed round 1' '' '>= 100 MB/s'
    row never 0 4 - - '%.2f us' 1 'never round 1' '' '<= 4 us'
    row info 0 - 5 - '%.1f MiB' 1 'info round 1' '' 'none'
} >"$dir/r1.tsv"
{
    printf '#\tA note, once.\n'
    row up 1 100 120 110 '%.0f MB/s' 1 'up round 2' '110 MB/s' '>= 100 MB/s'
    row down 0 2 2.5 - '%.2fx' 1 'down round 2' '' '<= 2x'
    row share 1 0.9 0.70 0.85 '%.0f%%' 100 'share round 2' '85%' '>= 90%'
    row missed 1 100 99 - '%.0f MB/s' 1 'missed round 2' '' '>= 100 MB/s'
    row twice 0 10 8 - '%.1f ms' 1 'twice round 2' '' '<= 10 ms'
    row never 0 4 - - '%.2f us' 1 'never round 2' '' '<= 4 us'
    row info 0 - 7 - '%.1f MiB' 1 'info round 2' '' 'none'
} >"$dir/r2.tsv"
{
    row up 1 100 105 70 '%.0f MB/s' 1 'up round 3' '70 MB/s' '>= 100 MB/s'
    row down 0 2 1.9 - '%.2fx' 1 'down round 3' '' '<= 2x'
    row share 1 0.9 0.95 0.90 '%.0f%%' 100 'share round 3' '90%' '>= 90%'
    row missed 1 100 130 - '%.0f MB/s' 1 'missed round 3' '' '>= 100 MB/s'
    row twice 0 10 13 - '%.1f ms' 1 'twice round 3' '' '<= 10 ms'
    row never 0 4 - - '%.2f us' 1 'never round 3' '' '<= 4 us'
    row info 0 - 6 - '%.1f MiB' 1 'info round 3' '' 'none'
} >"$dir/r3.tsv"

awk -F '\t' -f "$src/bench/spread.awk" -v title='### T' "$dir/r1.tsv" "$dir/r2.tsv" \
    "$dir/r3.tsv" >"$dir/table.md" 2>"$dir/stderr.txt"
cat >"$dir/expected.md" <<'EOF'
| up | up round 3 | 120 MB/s / 105 MB/s / 90 MB/s; spread 29% | 110 MB/s / 80 MB/s / 70 MB/s; spread 50% | >= 100 MB/s | met (2 of 3 rounds met) | MISSED (1 of 3 rounds met) |
| down | down round 3 | 1.50x / 1.90x / 2.50x; spread 53% |  | <= 2x | met (2 of 3 rounds met) |  |
| share | share round 1 | 95% / 80% / 70%; spread 31% | 95% / 90% / 85%; spread 11% | >= 90% | MISSED (1 of 3 rounds met) | met (2 of 3 rounds met) |
| missed | missed round 2 | 130 MB/s / 99 MB/s / 80 MB/s; spread 51% |  | >= 100 MB/s | MISSED (1 of 3 rounds met) |  |
| never | - | - |  | <= 4 us | not measured |  |
| info | info round 3 | 5.0 MiB / 6.0 MiB / 7.0 MiB; spread 33% |  | none | info |  |
| twice | twice round 2 | 8.0 ms / 10.5 ms / 13.0 ms; spread 48% (2 of 3 rounds measured it) |  | <= 10 ms | MISSED (1 of 2 rounds met) |  |
EOF
fail=0
grep '^| [a-z]* |' "$dir/table.md" | grep -v '^| figure |' >"$dir/rows.md"
if ! diff -u "$dir/expected.md" "$dir/rows.md"; then
    echo "FAIL: the rows differ from the expected ones (above: - expected, + made)"
    fail=1
fi
expect() { # WHAT TEXT: TEXT appears COUNT times in the table
    n=$(grep -c -F -- "$2" "$dir/table.md")
    if [ "$n" != "$3" ]; then
        echo "FAIL: $1: '$2' appears $n times, not $3"
        fail=1
    fi
}
expect "the title" "### T" 1
expect "the note, once over two rounds" "A note, once." 1
expect "the caption's round count" "Each row over 3 rounds" 1
expect "the count of verdicts" "Goals (wall clock, medians of 3 rounds): 2 met, 3 MISSED, 1 not measured.  In CPU time: 1 met, 1 MISSED.  Verdicts that not every round agrees with: 5 (CPU time: 2)." 1
if [ -s "$dir/stderr.txt" ]; then
    echo "FAIL: spread.awk wrote to standard error:"
    cat "$dir/stderr.txt"
    fail=1
fi
# a malformed line is ignored, and said so
printf 'short\tline\n' >"$dir/bad.tsv"
awk -F '\t' -f "$src/bench/spread.awk" "$dir/r1.tsv" "$dir/bad.tsv" >/dev/null 2>"$dir/stderr.txt"
expect_err=$(grep -c 'bad.tsv:1: 2 fields, not 10: ignored' "$dir/stderr.txt")
if [ "$expect_err" != 1 ]; then
    echo "FAIL: a line of 2 fields is not reported"
    fail=1
fi
# run.sh refuses a round count that is not a positive number before reading BUILD's files
for bad in 0 x ''; do
    if sh "$src/bench/run.sh" "$dir" --rounds "$bad" 2>/dev/null; then
        echo "FAIL: run.sh accepts --rounds '$bad'"
        fail=1
    fi
done
[ $fail -eq 0 ] && echo "PASS: spread.awk: fastest / median / slowest and the verdict on the median"
exit $fail
