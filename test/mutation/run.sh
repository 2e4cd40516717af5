#!/bin/sh
# test/mutation/run.sh [-n N] [-s SEED] [-j JOBS] [-d DIR] [-t REGEX] [-T SECONDS] [-b TARGETS]
#                      [-H DIR] [-S] [-r ROOMS] [--all-tests] [--list]
#
# Mutation testing of the library's rooms: single-point mutants of source/{rules,plan,analysis,
# types,reader,scan,lower,writer,validate}.c made by test/mutation/mutate.py (flipped comparisons,
# off-by-one literals, swapped operands, && for ||, dropped negations, conditions, returns and
# statements), each built and run against a fast subset of the tests.
#
#   -n N        N mutants drawn at random (0: every one; default 40)
#   -s SEED     the draw's seed (default 1)
#   -j JOBS     workers, each with its own copy of the tree and build (default 1)
#   -d DIR      where the copies, builds and results go (default build-mutation)
#   -t REGEX    the ctest -R subset run on each mutant (default: below)
#   -T SECONDS  a mutant's test run is stopped after this (default: 3 x the unmutated run + 60)
#   -b TARGETS  the build targets a mutant rebuilds (default: the CLI and the subset's programs)
#   -H DIR      the copies' SPIRV-Headers: an include directory with spirv/unified1/spirv.h
#               (default: the installed ones; give the parent build's, for example its
#               sid-spirv-headers/root/usr/include, so that code behind newer opcodes is reachable)
#   -S          the copies built with AddressSanitizer and UBSan (SPVBC_SANITIZE), as CI's
#               second build: a mutant that reads or writes out of bounds without changing an
#               output is then killed, as CI would kill it (slower)
#   -r ROOMS    the rooms mutated (default "rules plan analysis types reader scan lower writer validate")
#   --all-tests run every test of the subset on each mutant (default: stop at the first failure),
#               so the results say how many tests catch each mutant
#   --list      print the drawn mutants and stop
#
# The working tree is never changed: each worker copies the tree's files (git ls-files) into
# DIR/wN/src, configures DIR/wN/build once (library, CLI and the unit, lit, fuzz and matrix tests
# only), builds and runs the subset unmutated (it must pass), then for each mutant copies the
# mutated file in, rebuilds incrementally, runs the subset and puts the file back.  Outcomes:
# killed (a test failed), timeout, compile-error (the mutant does not build: not counted),
# survived.  A survivor listed in test/mutation/equivalent.txt (the mutated line's text and why it
# changes nothing observable) is reported as equivalent.  DIR/results.tsv has one line per mutant;
# the summary and each unlisted survivor's diff go to stdout.  Exit 0 when no unlisted mutant
# survived, 1 when one did, 2 on a usage or set-up error, 77 (SKIPPED) without python3, git,
# cmake, ninja, ctest or timeout, or outside a git checkout.
set -eu

usage() {
    sed -n '2,26p' "$0" >&2
    exit 2
}

src=$(cd "$(dirname "$0")/../.." && pwd)
n=40 seed=1 jobs=1 dir=build-mutation timeout_s="" all=0 list=0 headers="" sanitize=OFF
rooms="rules plan analysis types reader scan lower writer validate"
targets="spirv-bitcast test_rules test_api test_notes test_notes_scalar test_notes_sse2 \
spvbc_test_malformed spvbc_test_alloc_fail spvbc_test_threads test_lower_edges test_lower_words spvbc_fuzz_regress \
spvbc_matrix"
tests='^(unit\.(test_lower_edges|test_lower_words|test_rules|test_api|malformed|test_notes|test_notes_scalar|test_notes_sse2|alloc_fail|threads)|lit|fuzz\.regress|matrix\.astype)$'
while [ $# -gt 0 ]; do
    case $1 in
    -n) n=$2; shift 2 ;;
    -s) seed=$2; shift 2 ;;
    -j) jobs=$2; shift 2 ;;
    -d) dir=$2; shift 2 ;;
    -t) tests=$2; shift 2 ;;
    -T) timeout_s=$2; shift 2 ;;
    -r) rooms=$2; shift 2 ;;
    -H) headers=$(cd "$2" && pwd) || usage; shift 2 ;;
    -S) sanitize=ON; shift ;;
    -b) targets=$2; shift 2 ;;
    --all-tests) all=1; shift ;;
    --list) list=1; shift ;;
    *) usage ;;
    esac
done
for tool in python3 git cmake ninja ctest timeout; do
    command -v $tool > /dev/null 2>&1 || { echo "SKIPPED: run.sh needs $tool"; exit 77; }
done
git -C "$src" rev-parse --git-dir > /dev/null 2>&1 ||
    { echo "SKIPPED: $src is not a git checkout (run.sh copies the files git lists)"; exit 77; }
mkdir -p "$dir"
dir=$(cd "$dir" && pwd)
mutate="python3 $src/test/mutation/mutate.py"
files=""
for r in $rooms; do
    [ -f "$src/source/$r.c" ] || { echo "run.sh: no room source/$r.c" >&2; exit 2; }
    files="$files source/$r.c"
done

cd "$src"
# shellcheck disable=SC2086
$mutate sample "$n" "$seed" $files > "$dir/mutants.tsv"
total=$(wc -l < "$dir/mutants.tsv")
if [ $list -eq 1 ]; then
    cat "$dir/mutants.tsv"
    exit 0
fi
echo "run.sh: $total mutant(s) of $($mutate list $files | wc -l) (seed $seed) in$files; $jobs worker(s); tests: $tests"

# One worker's tree and build: copied and configured once, brought up to date on each run.
setup() {
    w=$dir/w$1
    rm -rf "$w/new"
    mkdir -p "$w/src" "$w/new"
    git -C "$src" ls-files -z --cached --others --exclude-standard | (cd "$src" && xargs -0 tar -cf - --) |
        tar -xf - -C "$w/new"
    # only files that differ are copied (with a new time), so the build sees every change, a
    # mutant left behind by an interrupted run included, and rebuilds nothing else
    (cd "$w/new" && find . -type f | while IFS= read -r f; do
        cmp -s "$f" "../src/$f" || { mkdir -p "../src/${f%/*}" && cp "$f" "../src/$f"; }
    done)
    rm -rf "$w/new"
    # an interrupted run may have built a mutant that the copy above already put back with its
    # old time: the rooms are always compiled again
    (cd "$w/src" && touch $files)
    if [ ! -f "$w/build/CMakeCache.txt" ]; then
        cmake -S "$w/src" -B "$w/build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
            -DSPVBC_BUILD_LAYERS=OFF -DSPVBC_BUILD_EXAMPLES=OFF -DSPVBC_BUILD_BENCH=OFF \
            -DSPVBC_TESTS_ONLY="support;unit;lit;fuzz;matrix" \
            ${headers:+-DSPVBC_SPIRV_HEADERS_DIR="$headers"} -DSPVBC_SANITIZE=$sanitize \
            > "$w/configure.log" 2>&1 ||
            { echo "run.sh: configure failed: $w/configure.log" >&2; return 1; }
    fi
    cmake --build "$w/build" -j1 > "$w/build.log" 2>&1 ||
        { echo "run.sh: the unmutated tree does not build: $w/build.log" >&2; return 1; }
}

# Runs the subset in worker $1's build; prints the failing tests (empty: all passed).
run_tests() {
    b=$dir/w$1/build
    stop="--stop-on-failure"
    [ $all -eq 1 ] && stop=""
    rc=0
    timeout "$2" ctest --test-dir "$b" -R "$tests" $stop --timeout "$2" > "$b/../ctest.log" 2>&1 || rc=$?
    [ $rc -eq 124 ] && { echo TIMEOUT; return 0; }
    grep -E '\*\*\*(Failed|Exception|Timeout)|Subprocess aborted|SEGFAULT' "$b/../ctest.log" |
        sed -E 's/.*Test +#[0-9]+: ([^ ]+) .*/\1/' | tr '\n' ' ' || true
}

# Worker $1 takes mutants $1, $1 + jobs, ...
worker() {
    k=$1 w=$dir/w$1
    : > "$w/results.tsv"
    i=0
    while IFS="$(printf '\t')" read -r id file line op change; do
        i=$((i + 1))
        [ $(((i - 1) % jobs + 1)) -eq "$k" ] || continue
        start=$(date +%s)
        $mutate apply "$id" "$w/src/$file" $files
        # shellcheck disable=SC2086
        if ! cmake --build "$w/build" -j1 --target $targets > "$w/mutant-build.log" 2>&1; then
            status=compile-error failing=""
        else
            failing=$(run_tests "$k" "$limit")
            case $failing in
            TIMEOUT) status=timeout failing="" ;;
            "") status=survived ;;
            *) status=killed ;;
            esac
        fi
        cp "$src/$file" "$w/src/$file"
        # never an empty field: `read` with a tab IFS would merge it with the next
        [ -n "$failing" ] || failing=-
        printf '%s\t%s\t%s\t%s\t%s\t%s\n' "$id" "$status" "$(($(date +%s) - start))" "$failing" \
            "$file" "$change" >> "$w/results.tsv"
        echo "[w$k $i/$total] $status: $id ($change)"
    done < "$dir/mutants.tsv"
}

k=1
while [ $k -le "$jobs" ]; do
    (setup $k > "$dir/setup$k.log" 2>&1; echo $? > "$dir/setup$k.rc") &
    k=$((k + 1))
done
wait
k=1
while [ $k -le "$jobs" ]; do
    cat "$dir/setup$k.log"
    [ "$(cat "$dir/setup$k.rc")" = 0 ] || exit 2
    k=$((k + 1))
done
# The unmutated tree passes the subset; its time sets the mutants' limit.
start=$(date +%s)
failing=$(run_tests 1 3600)
if [ -n "$failing" ]; then
    echo "run.sh: the unmutated tree fails: $failing (see $dir/w1/ctest.log)" >&2
    exit 2
fi
base=$(($(date +%s) - start))
limit=${timeout_s:-$((3 * base + 60))}
echo "run.sh: the unmutated tree passes the subset in $base s; a mutant's limit is $limit s"

k=1
while [ $k -le "$jobs" ]; do
    worker $k &
    k=$((k + 1))
done
wait
cat "$dir"/w*/results.tsv | sort > "$dir/results.tsv"

# Survivors listed as equivalent: a line of equivalent.txt is FILE<TAB>CHANGE<TAB>REASON.
equiv="$src/test/mutation/equivalent.txt"
killed=0 timeouts=0 cerr=0 survived=0 equivalent=0
unlisted=""
while IFS="$(printf '\t')" read -r id status secs failing file change; do
    case $status in
    killed) killed=$((killed + 1)) ;;
    timeout) timeouts=$((timeouts + 1)) ;;
    compile-error) cerr=$((cerr + 1)) ;;
    survived)
        if [ -f "$equiv" ] && grep -qF "$(printf '%s\t%s\t' "$file" "$change")" "$equiv"; then
            equivalent=$((equivalent + 1))
        else
            survived=$((survived + 1))
            unlisted="$unlisted $id"
        fi
        ;;
    esac
done < "$dir/results.tsv"
built=$((killed + timeouts + survived + equivalent))
live=$((killed + timeouts + survived))
rate="-"
[ $live -gt 0 ] && rate=$(awk -v a=$((killed + timeouts)) -v b=$live 'BEGIN { printf "%.1f%%", 100 * a / b }')
echo
echo "mutants: $total drawn, $cerr compile errors, $built built: $killed killed, $timeouts timeouts," \
    "$equivalent equivalent (listed), $survived survived"
echo "kill rate (killed + timeouts over the non-equivalent built mutants): $rate"
echo "command: test/mutation/run.sh -n $n -s $seed -j $jobs (results: $dir/results.tsv)"
for id in $unlisted; do
    echo
    echo "survived: $id"
    # shellcheck disable=SC2086
    $mutate diff "$id" $files
done
[ -z "$unlisted" ]
