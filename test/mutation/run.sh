#!/bin/sh
# test/mutation/run.sh [-n N] [-s SEED] [-j JOBS] [-d DIR] [-t REGEX] [-T SECONDS] [-b TARGETS]
#                      [-H DIR] [-k KIT] [-x FILE] [-m FILE] [-W SECONDS] [-J N] [-S] [-r ROOMS]
#                      [--all-tests | --two-tests] [--list]
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
#               (default: the kit's with -k, else the installed ones; give the parent build's,
#               for example its sid-spirv-headers/root/usr/include, so that code behind newer
#               opcodes is reachable)
#   -k KIT      the subset's tools from a kit that test/mutation/kit.sh made (SPIRV-Tools'
#               programs, library and headers, FileCheck, not, lit, cmocka, SPIR-V headers),
#               for a machine without them: KIT/env.sh is sourced and KIT/cmake-settings.txt
#               passed to configure
#   -x FILE     resume: FILE is DIR/results.tsv of an earlier run of the same draw (-n, -s, -r,
#               tree); its mutants are not run again and its lines are merged into this run's
#               results.tsv and summary
#   -m FILE     only those of the drawn mutants whose IDs FILE lists (its lines' first
#               tab-separated field; '#' lines ignored): an earlier run's survivors
#               (test/mutation/survivors.tsv), or mutants whose line a change moved
#   -W SECONDS  a wall-clock budget from run.sh's start, set-up included: no worker takes a new
#               mutant after it (one under way finishes); the summary counts those not run
#   -J N        lit's workers in each test run (default: the cores over JOBS, at least 1, as
#               many as each worker's builds use)
#   -S          the copies built with AddressSanitizer and UBSan (SPVBC_SANITIZE), as CI's
#               second build: a mutant that reads or writes out of bounds without changing an
#               output is then killed, as CI would kill it (slower)
#   -r ROOMS    the rooms mutated (default "rules plan analysis types reader scan lower writer validate")
#   --all-tests run every test of the subset on each mutant (default: stop at the first failure),
#               so the results say how many tests catch each mutant
#   --two-tests as --all-tests, but lit (the slowest) only when fewer than two of the other
#               tests failed: enough to tell a mutant caught by one test from one caught by two
#               or more, in about half the time (the summary counts those caught by one only)
#   --list      print the drawn mutants and stop
#
# The working tree is never changed: each worker copies the tree's files (git ls-files; without
# git or outside a checkout, every file but .git, build*, the kit and DIR) into DIR/wN/src,
# configures DIR/wN/build (library, CLI and the unit, lit, fuzz and matrix tests only; again
# from scratch when the settings change), builds the subset's programs and runs the subset
# unmutated (it must pass), then for each mutant copies the mutated file in, rebuilds
# incrementally, runs the subset and puts the file back.  The subset runs in two ctest calls:
# the tests but lit first, then lit (label lit, the slowest) only when they passed (with
# --all-tests always, with --two-tests unless two failed), so a mutant that a unit test kills
# does not wait for lit.  Outcomes:
# killed (a test failed), timeout, compile-error (the mutant does not build: not counted),
# survived.  A survivor listed in test/mutation/equivalent.txt (the mutated line's text and why it
# changes nothing observable) is reported as equivalent.  DIR/results.tsv has one line per mutant,
# written as each mutant ends (an interrupted run keeps what it did; -x FILE resumes it) and
# sorted at the end; the summary and each unlisted survivor's diff go to stdout (with
# --all-tests or --two-tests also the mutants only one test caught, by room and by test, listed
# in DIR/single.tsv).  Exit 0 when every mutant ran and no unlisted mutant survived, 1 when one
# survived, 3 when none survived but some were not run (-W), 2 on a usage or set-up error, 77
# (SKIPPED) without python3, cmake, ninja, ctest or timeout.
set -eu

t0=$(date +%s)
usage() {
    sed -n '2,64p' "$0" >&2
    exit 2
}
number() {
    case $2 in '' | *[!0-9]*) echo "run.sh: $1 takes a number, not '$2'" >&2; exit 2 ;; esac
}

src=$(cd "$(dirname "$0")/../.." && pwd)
n=40 seed=1 jobs=1 dir=build-mutation timeout_s="" all=0 list=0 headers="" sanitize=OFF
kit="" prev="" budget="" litj="" only=""
rooms="rules plan analysis types reader scan lower writer validate"
targets="spirv-bitcast test_rules test_api test_notes test_notes_scalar test_notes_sse2 test_notes_avx2 \
test_lower_api test_types_more test_witness spvbc_test_malformed spvbc_test_alloc_fail spvbc_test_threads test_lower_edges \
test_lower_words spvbc_fuzz_regress test_reader_positions test_reader_records test_reader_nulls \
test_reader_foreign spvbc_matrix test_analysis test_analysis_alloc test_plan_fields \
spvbc_test_reader_walk test_scan test_scan_scalar test_scan_sse2 test_scan_avx2"
tests='^(unit\.(test_lower_edges|test_lower_words|test_rules|test_api|malformed|test_notes|test_notes_scalar|test_notes_sse2|test_notes_avx2|alloc_fail|threads|test_reader_positions|test_reader_records|test_reader_nulls|test_reader_foreign|test_analysis|test_analysis_alloc|test_lower_api|test_types_more|test_witness|test_plan_fields|reader_walk|test_scan|test_scan_scalar|test_scan_sse2|test_scan_avx2)|lit|fuzz\.regress|matrix\.astype)$'
# the tests of this label run after the others, and only when those passed
last='^lit$'
while [ $# -gt 0 ]; do
    case $1 in
    -n) n=$2; shift 2 ;;
    -s) seed=$2; shift 2 ;;
    -j) number -j "$2"; jobs=$2; shift 2 ;;
    -d) dir=$2; shift 2 ;;
    -t) tests=$2; shift 2 ;;
    -T) timeout_s=$2; shift 2 ;;
    -r) rooms=$2; shift 2 ;;
    -H) headers=$(cd "$2" && pwd) || usage; shift 2 ;;
    -k) kit=$(cd "$2" && pwd) || usage; shift 2 ;;
    -x) prev=$2; shift 2 ;;
    -m) only=$2; shift 2 ;;
    -W) number -W "$2"; budget=$2; shift 2 ;;
    -J) number -J "$2"; litj=$2; shift 2 ;;
    -S) sanitize=ON; shift ;;
    -b) targets=$2; shift 2 ;;
    --all-tests) all=1; shift ;;
    --two-tests) all=2; shift ;;
    --list) list=1; shift ;;
    *) usage ;;
    esac
done
[ "$jobs" -ge 1 ] || usage
if [ -n "$kit" ]; then
    if [ ! -f "$kit/env.sh" ] || [ ! -f "$kit/cmake-settings.txt" ]; then
        echo "run.sh: $kit is no kit (test/mutation/kit.sh makes one)" >&2
        exit 2
    fi
    export SPVBC_KIT="$kit"
    # shellcheck source=/dev/null
    . "$kit/env.sh"
fi
if [ -n "$prev" ]; then
    [ -f "$prev" ] || { echo "run.sh: -x $prev: no such file" >&2; exit 2; }
    prev=$(cd "$(dirname "$prev")" && pwd)/$(basename "$prev")
fi
for tool in python3 cmake ninja ctest timeout; do
    command -v $tool > /dev/null 2>&1 || { echo "SKIPPED: run.sh needs $tool"; exit 77; }
done
lister="find"
if command -v git > /dev/null 2>&1 && git -C "$src" rev-parse --git-dir > /dev/null 2>&1; then
    lister=git
fi
mkdir -p "$dir"
dir=$(cd "$dir" && pwd)
tab=$(printf '\t')
cores=$(nproc 2> /dev/null || getconf _NPROCESSORS_ONLN 2> /dev/null || echo 1)
share=$((cores / jobs))
[ $share -ge 1 ] || share=1
litj=${litj:-$share}
mutate="python3 $src/test/mutation/mutate.py"
files=""
for r in $rooms; do
    [ -f "$src/source/$r.c" ] || { echo "run.sh: no room source/$r.c" >&2; exit 2; }
    files="$files source/$r.c"
done

cd "$src"
# shellcheck disable=SC2086
$mutate sample "$n" "$seed" $files > "$dir/mutants.tsv"
if [ -n "$only" ]; then
    [ -f "$only" ] || { echo "run.sh: -m $only: no such file" >&2; exit 2; }
    awk -F "$tab" 'FILENAME == ARGV[1] { if ($1 !~ /^#/) keep[$1] = 1; next } $1 in keep' \
        "$only" "$dir/mutants.tsv" > "$dir/mutants.tsv.new"
    mv "$dir/mutants.tsv.new" "$dir/mutants.tsv"
fi
total=$(wc -l < "$dir/mutants.tsv")
if [ $list -eq 1 ]; then
    cat "$dir/mutants.tsv"
    exit 0
fi

# The results so far: FILE's lines (-x), each of a mutant of this draw; the mutants left to run.
if [ -n "$prev" ]; then
    cp "$prev" "$dir/previous.tsv.new"
    mv "$dir/previous.tsv.new" "$dir/previous.tsv"
    if ! awk -F "$tab" 'FILENAME == ARGV[1] { m[$1] = 1; next } !($1 in m) { bad++ } END { exit bad > 0 }' \
        "$dir/mutants.tsv" "$dir/previous.tsv"; then
        echo "run.sh: -x $prev holds mutants that this draw has not (another -n, -s, -r or tree?)" >&2
        exit 2
    fi
else
    : > "$dir/previous.tsv"
fi
awk -F "$tab" 'FILENAME == ARGV[1] { done[$1] = 1; next } !($1 in done)' "$dir/previous.tsv" \
    "$dir/mutants.tsv" > "$dir/todo.tsv"
todo=$(wc -l < "$dir/todo.tsv")
cp "$dir/previous.tsv" "$dir/results.tsv"
rm -rf "$dir/claims"
mkdir "$dir/claims"
# shellcheck disable=SC2086
echo "run.sh: $total mutant(s) of $($mutate list $files | wc -l) (seed $seed) in$files," \
    "$todo to run; $jobs worker(s), lit -j$litj; tests: $tests"

# The tree's files, NUL-separated, relative to $src: what git lists, else every file but .git,
# build*, the kit and DIR.
list_files() {
    kx=${kit#"$src"/} dx=${dir#"$src"/}
    [ "$kx" != "$kit" ] || kx=.git
    [ "$dx" != "$dir" ] || dx=.git
    if [ $lister = git ]; then
        git -C "$src" ls-files -z --cached --others --exclude-standard -- . ":(exclude)$kx" \
            ":(exclude)$dx"
    else
        (cd "$src" && find . \( -name .git -o -path './build*' -o -path "./$kx" -o -path "./$dx" \) \
            -prune -o -type f -print0)
    fi
}

# One worker's tree and build: copied and configured once, brought up to date on each run.
setup() {
    w=$dir/w$1
    rm -rf "$w/new"
    mkdir -p "$w/src" "$w/new"
    list_files | (cd "$src" && tar -cf - --null -T -) | tar -xf - -C "$w/new"
    # only files that differ are copied (with a new time), so the build sees every change, a
    # mutant left behind by an interrupted run included, and rebuilds nothing else
    (cd "$w/new" && find . -type f | while IFS= read -r f; do
        cmp -s "$f" "../src/$f" || { mkdir -p "../src/${f%/*}" && cp "$f" "../src/$f"; }
    done)
    rm -rf "$w/new"
    # an interrupted run may have built a mutant that the copy above already put back with its
    # old time: the rooms are always compiled again
    # shellcheck disable=SC2086
    (cd "$w/src" && touch $files)
    set -- -S "$w/src" -B "$w/build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
        -DSPVBC_BUILD_LAYERS=OFF -DSPVBC_BUILD_EXAMPLES=OFF -DSPVBC_BUILD_BENCH=OFF \
        "-DSPVBC_TESTS_ONLY=support;unit;lit;fuzz;matrix" -DSPVBC_SANITIZE=$sanitize
    if [ -n "$kit" ]; then
        while IFS= read -r s; do
            case $s in
            '' | '#'*) continue ;;
            *:FILEPATH=* | *:PATH=*) s=${s%%=*}=$kit/${s#*=} ;;
            esac
            set -- "$@" "-D$s"
        done < "$kit/cmake-settings.txt"
    fi
    [ -z "$headers" ] || set -- "$@" "-DSPVBC_SPIRV_HEADERS_DIR=$headers"
    printf '%s\n' "$@" > "$w/configure.args.new"
    if [ ! -f "$w/build/CMakeCache.txt" ] || ! cmp -s "$w/configure.args.new" "$w/configure.args"; then
        rm -rf "$w/build"
        cmake "$@" > "$w/configure.log" 2>&1 ||
            { echo "run.sh: configure failed: $w/configure.log" >&2; return 1; }
    fi
    mv "$w/configure.args.new" "$w/configure.args"
    # shellcheck disable=SC2086
    cmake --build "$w/build" -j$share --target $targets > "$w/build.log" 2>&1 ||
        { echo "run.sh: the unmutated tree does not build: $w/build.log" >&2; return 1; }
}

# The tests that failed, from ctest's output in file $1 (empty: all passed): its progress lines
# only (the summary's "N - name (SEGFAULT)" lines repeat them, tab first, which ended up as a
# field of results.tsv), every kind of failure being an "***" there.
failed() {
    grep -E 'Test +#[0-9]+: .*\*\*\*(Failed|Exception|Timeout|Not Run)' "$1" |
        sed -E 's/.*Test +#[0-9]+: ([^ ]+) .*/\1/' | tr '\n\t' '  ' || true
}

# Runs the subset in worker $1's build within $2 seconds: the tests but lit, then lit when they
# passed (or --all-tests); prints the failing tests (empty: all passed) or TIMEOUT, and writes
# the two parts' seconds to DIR/wN/ctest.times.
run_tests() {
    b=$dir/w$1/build log=$dir/w$1/ctest.log
    stop="--stop-on-failure"
    [ $all -eq 0 ] || stop=""
    export LIT_OPTS="-j$litj"
    t=$(date +%s)
    rc=0
    # shellcheck disable=SC2086
    timeout "$2" ctest --test-dir "$b" -R "$tests" -LE "$last" $stop --timeout "$2" > "$log" 2>&1 ||
        rc=$?
    [ $rc -ne 124 ] || { echo TIMEOUT; return 0; }
    fail=$(failed "$log")
    t1=$(date +%s)
    nfail=$(echo "$fail" | wc -w)
    if [ -z "$fail" ] || [ $all -eq 1 ] || { [ $all -eq 2 ] && [ "$nfail" -lt 2 ]; }; then
        left=$(($2 - (t1 - t)))
        [ $left -gt 0 ] || { echo TIMEOUT; return 0; }
        # shellcheck disable=SC2086
        timeout "$left" ctest --test-dir "$b" -R "$tests" -L "$last" $stop --timeout "$left" \
            >> "$log" 2>&1 || rc=$?
        [ $rc -ne 124 ] || { echo TIMEOUT; return 0; }
        fail=$(failed "$log")
    fi
    echo "$((t1 - t)) $(($(date +%s) - t1))" > "$dir/w$1/ctest.times"
    echo "$fail"
}

# Worker $1 takes the next mutant no other worker has claimed, until none is left or the budget
# is spent; each result is appended to DIR/results.tsv as it comes.
worker() {
    k=$1 w=$dir/w$1
    i=0
    while IFS="$tab" read -r id file _ _ change; do
        i=$((i + 1))
        if [ -n "$budget" ] && [ $(($(date +%s) - t0)) -ge "$budget" ]; then
            break
        fi
        mkdir "$dir/claims/$i" 2> /dev/null || continue
        start=$(date +%s)
        # shellcheck disable=SC2086
        $mutate apply "$id" "$w/src/$file" $files
        # shellcheck disable=SC2086
        if ! cmake --build "$w/build" -j$share --target $targets > "$w/mutant-build.log" 2>&1; then
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
            "$file" "$change" >> "$dir/results.tsv"
        echo "[w$k $i/$todo] $status: $id ($change)"
    done < "$dir/todo.tsv"
}

if [ "$todo" -gt 0 ]; then
    # a set-up that fails stops its subshell (set -e) before it writes its .rc
    k=1
    while [ $k -le "$jobs" ]; do
        rm -f "$dir/setup$k.rc"
        (setup $k > "$dir/setup$k.log" 2>&1; echo 0 > "$dir/setup$k.rc") &
        k=$((k + 1))
    done
    wait
    k=1
    while [ $k -le "$jobs" ]; do
        cat "$dir/setup$k.log"
        [ -f "$dir/setup$k.rc" ] || exit 2
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
    read -r base_a base_b < "$dir/w1/ctest.times"
    echo "run.sh: the unmutated tree passes the subset in $base s ($base_a s without lit, lit" \
        "$base_b s); a mutant's limit is $limit s; set-up and this: $(($(date +%s) - t0)) s"

    # On a signal the workers stop, with every process under them (found in /proc: ps may be
    # missing), so that none writes or runs on; the results they wrote stay.
    stop_workers() {
        # shellcheck disable=SC2046
        kill $(grep -s '^PPid:' /proc/[0-9]*/status | awk -F '[/:\t ]+' -v roots="$pids" '
            { parent[$3] = $NF }
            END {
                n = split(roots, r, " ")
                for (i = 1; i <= n; i++) keep[r[i]] = 1
                do {
                    more = 0
                    for (c in parent)
                        if (!(c in keep) && (parent[c] in keep)) { keep[c] = 1; more = 1 }
                } while (more)
                for (k in keep) printf "%s ", k
            }') 2> /dev/null || true
    }
    pids=""
    trap 'stop_workers; exit 130' INT
    trap 'stop_workers; exit 143' TERM
    k=1
    while [ $k -le "$jobs" ]; do
        worker $k &
        pids="$pids $!"
        k=$((k + 1))
    done
    wait
    trap - INT TERM
fi
sort -t "$tab" -k1,1 -u "$dir/results.tsv" > "$dir/results.tsv.new"
mv "$dir/results.tsv.new" "$dir/results.tsv"

# Survivors listed as equivalent: a line of equivalent.txt is FILE<TAB>CHANGE<TAB>REASON.
equiv="$src/test/mutation/equivalent.txt"
killed=0 timeouts=0 cerr=0 survived=0 equivalent=0
unlisted=""
while IFS="$tab" read -r id status _ _ file change; do
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
earlier=$(wc -l < "$dir/previous.tsv")
notrun=$((total - $(wc -l < "$dir/results.tsv")))
built=$((killed + timeouts + survived + equivalent))
live=$((killed + timeouts + survived))
rate="-"
[ $live -gt 0 ] && rate=$(awk -v a=$((killed + timeouts)) -v b=$live 'BEGIN { printf "%.1f%%", 100 * a / b }')
echo
echo "mutants: $total drawn, $cerr compile errors, $built built: $killed killed, $timeouts timeouts," \
    "$equivalent equivalent (listed), $survived survived"
[ -z "$prev" ] || echo "of those, from the earlier run (-x $prev): $earlier; from this run: $((total - notrun - earlier))"
[ $notrun -eq 0 ] || echo "not run: $notrun (the -W budget was spent, or a worker stopped);" \
    "run.sh again with -x $dir/results.tsv runs them"
echo "kill rate (killed + timeouts over the non-equivalent built mutants): $rate"
if [ $all -ge 1 ]; then
    # The killed mutants whose failing tests are one (a timeout names none: not counted).
    awk -F "$tab" -v OFS="$tab" '$2 == "killed" && split($4, t, " ") == 1 { print $1, t[1] }' \
        "$dir/results.tsv" > "$dir/single.tsv"
    single=$(wc -l < "$dir/single.tsv")
    echo "caught by one test only: $single of $killed killed (listed in $dir/single.tsv)"
    if [ "$single" -gt 0 ]; then
        printf 'by room:'
        awk -F "$tab" '{ split($1, a, ":"); sub(/.*\//, "", a[1]); sub(/\.c$/, "", a[1]); n[a[1]]++ }
            END { for (r in n) printf " %s %d", r, n[r]; print "" }' "$dir/single.tsv"
        printf 'by test:'
        awk -F "$tab" '{ n[$2]++ } END { for (t in n) printf " %s %d", t, n[t]; print "" }' \
            "$dir/single.tsv"
    fi
fi
mode=""
[ $all -ne 1 ] || mode=" --all-tests"
[ $all -ne 2 ] || mode=" --two-tests"
echo "command: test/mutation/run.sh -n $n -s $seed -j $jobs${budget:+ -W $budget}${only:+ -m $only}${prev:+ -x $prev}$mode" \
    "(results: $dir/results.tsv)"
for id in $unlisted; do
    echo
    echo "survived: $id"
    # shellcheck disable=SC2086
    $mutate diff "$id" $files
done
[ -z "$unlisted" ] || exit 1
[ $notrun -eq 0 ] || exit 3
