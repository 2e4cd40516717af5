#!/bin/bash
# run_campaign.sh - run the four libFuzzer targets at once, each in fork mode.
#
#   test/fuzz/run_campaign.sh BIN_DIR OUT_DIR SECONDS [JOBS_PER_TARGET]
#
# BIN_DIR holds spvbc_fuzz_{parse,validate,lower,plan} (build-fuzz/test/fuzz of a -DSPVBC_FUZZ=ON
# build), the generated seed corpus in BIN_DIR/corpus and, optionally, corpora of earlier runs
# in BIN_DIR/extra/<target>.  Each target runs with -fork=JOBS (default 4) for SECONDS of wall
# time, so it gets about JOBS x SECONDS CPU seconds; crashes do not stop a campaign
# (-ignore_crashes etc.), every artifact lands in the work directory.  OUT_DIR receives
# <target>.log (libFuzzer's output and the CPU time bash measured), summary.txt (one line a
# target: executions, exec/s, cov, ft, corpus, findings, CPU seconds), artifacts.tar.gz (crash-,
# timeout-, oom- files, if any) and corpora.tar.gz (the final corpora).
set -u
BIN=$(cd "$1" && pwd)
OUT=$2
SECS=$3
JOBS=${4:-4}
WORK=${TMPDIR:-/tmp}/spvbc-fuzz-work
rm -rf "$WORK"
mkdir -p "$OUT" "$WORK"
echo "host: $(uname -srm), $(nproc) CPUs; $SECS s x $JOBS jobs per target" > "$OUT/summary.txt"

for t in parse validate lower plan; do
  mkdir -p "$WORK/$t/corpus" "$WORK/$t/artifacts"
  extra=()
  [ -d "$BIN/extra/$t" ] && extra=("$BIN/extra/$t")
  maxlen=(-max_len=16384)
  [ "$t" = plan ] && maxlen=(-max_len=64)
  (
    cd "$WORK/$t" || exit 1
    TIMEFORMAT="cpu: user %U s, sys %S s, wall %R s"
    time timeout -s INT -k 10 $((SECS + 30)) "$BIN/spvbc_fuzz_$t" -fork="$JOBS" -ignore_crashes=1 -ignore_timeouts=1 -ignore_ooms=1 \
      -max_total_time="$SECS" -timeout=10 -rss_limit_mb=2048 "${maxlen[@]}" \
      -artifact_prefix="$WORK/$t/artifacts/" -print_final_stats=1 \
      "$WORK/$t/corpus" "$BIN/corpus" "${extra[@]}"
  ) > "$OUT/$t.log" 2>&1 &
done
wait

for t in parse validate lower plan; do
  last=$(grep -E '^#[0-9]+: cov:' "$OUT/$t.log" | tail -1)
  cpu=$(grep -E '^cpu:' "$OUT/$t.log" | tail -1)
  found=$(ls "$WORK/$t/artifacts" | wc -l)
  echo "$t: $last | artifacts: $found | $cpu" >> "$OUT/summary.txt"
done
(cd "$WORK" && tar czf "$OUT/artifacts.tar.gz" */artifacts)
(cd "$WORK" && tar czf "$OUT/corpora.tar.gz" */corpus)
cat "$OUT/summary.txt"
