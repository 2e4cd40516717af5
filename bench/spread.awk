# bench/spread.awk - a goals table with each row's spread over rounds (bench/run.sh --rounds N).
#
#   awk -F '\t' -f bench/spread.awk [-v title=TEXT] [-v intro=TEXT] ROUND1.tsv ROUND2.tsv ...
#
# Each file is one round: the rows of one goals table as spvbc_bench --goals-tsv writes them (and
# run.sh for the layer's rows), one line each, tab-separated:
#   figure, at_least (1: the figure must reach the bound, 0: stay under it), bound ("-": an
#   information row), value, cpu_value ("-": not measured / none), fmt, scale (the figure is
#   written printf(fmt, value * scale)), measured (the round's own text), cpu text, goal text;
# and "#<TAB>sentence" lines, notes printed once above the table.  A row is known by its figure
# text, in the order rows first appear.  For each row: the median over the rounds that measured
# it (the middle one; the mean of the two middle ones for an even count), the fastest and the
# slowest (best and worst in the goal's direction: for memory, least and most), the spread
# (slowest - fastest) / median, and the verdict on the median; "measured" is the text of the
# round nearest the median.  POSIX awk (mawk, busybox and gawk alike): no gawk extension.
# SPDX-License-Identifier: Apache-2.0

function isnum(s) { return s != "-" && s != "" }

# the values of row `k` (wall clock, or CPU time when `cpu`) sorted into `a`, best first; their count
function sorted(k, cpu, a,    r, n, i, j, t, v) {
    n = 0
    for (r = 1; r <= rounds; ++r) {
        if (!((k, r) in val)) continue
        v = cpu ? cval[k, r] : val[k, r]
        if (!isnum(v)) continue
        a[++n] = v + 0
    }
    for (i = 2; i <= n; ++i) { # insertion sort, a few rounds
        t = a[i]
        for (j = i - 1; j >= 1 && (least[k] ? a[j] < t : a[j] > t); --j) a[j + 1] = a[j]
        a[j + 1] = t
    }
    return n
}

function median(a, n) {
    return n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2
}

function fmtv(k, v) { return sprintf(fmt[k], v * scale[k]) }

# "best / median / worst; spread P%" of the sorted `a` of row `k` (with how many rounds measured it
# when not all did)
function spread(k, a, n,    m, s, d) {
    if (n == 0) return "-"
    m = median(a, n)
    s = fmtv(k, a[1]) " / " fmtv(k, m) " / " fmtv(k, a[n])
    d = a[n] - a[1]
    if (n > 1 && m != 0) s = s sprintf("; spread %.0f%%", 100 * (d < 0 ? -d : d) / (m < 0 ? -m : m))
    if (n < rounds) s = s sprintf(" (%d of %d rounds measured it)", n, rounds)
    return s
}

function meets(k, v) { return least[k] ? v >= bound[k] : v <= bound[k] }

# the verdict on the median `m` of the `n` sorted values `a` of row `k`; counts into tally[cpu, ...]
function verdict(k, a, n, cpu,    m, i, met, s) {
    if (!isnum(bound[k])) return cpu ? "" : "info"
    if (n == 0) {
        if (!cpu) tally[cpu, "unknown"]++
        return cpu ? "" : "not measured"
    }
    m = median(a, n)
    s = meets(k, m) ? "met" : "MISSED"
    tally[cpu, s]++
    met = 0
    for (i = 1; i <= n; ++i) met += meets(k, a[i])
    if (met != 0 && met != n) {
        s = s sprintf(" (%d of %d rounds met)", met, n)
        tally[cpu, "split"]++
    }
    return s
}

FILENAME != file { file = FILENAME; ++rounds }
$1 == "#" {
    if (!($2 in noted)) { noted[$2] = 1; notes[++nnotes] = $2 }
    next
}
NF >= 10 {
    k = $1
    if (!(k in seen)) { seen[k] = 1; order[++nrows] = k }
    least[k] = $2 + 0; bound[k] = $3; fmt[k] = $6; scale[k] = $7 + 0; goal[k] = $10
    val[k, rounds] = $4; cval[k, rounds] = $5; text[k, rounds] = $8; ctext[k, rounds] = $9
    next
}
NF > 0 { printf "spread.awk: %s:%d: %d fields, not 10: ignored\n", FILENAME, FNR, NF > "/dev/stderr" }

END {
    if (title != "") printf "\n%s\n", title
    for (i = 1; i <= nnotes; ++i) printf "\n%s\n", notes[i]
    if (intro != "") printf "\n%s\n", intro
    printf "\nEach row over %d round%s (separate runs, one after another).  rounds: the figure's fastest / median / slowest round (best to worst for its goal: for memory, least to most) and the spread, (slowest - fastest) / median.  **The verdicts are on the medians** (CPU time: on the median of its own rounds); where the rounds disagree, the verdict says how many met the goal.  measured: the round whose figure is nearest the median.\n\n", rounds, rounds == 1 ? "" : "s"
    print "| figure | measured (wall clock), median round | rounds (fastest / median / slowest) | CPU time (fastest / median / slowest) | goal | verdict (median) | verdict (CPU, median) |"
    print "|---|---|---|---|---|---|---|"
    for (i = 1; i <= nrows; ++i) {
        k = order[i]
        split("", w); split("", c)
        n = sorted(k, 0, w)
        nc = sorted(k, 1, c)
        best = 0; bestd = -1
        if (n > 0) {
            m = median(w, n)
            for (r = 1; r <= rounds; ++r) {
                if (!((k, r) in val) || !isnum(val[k, r])) continue
                d = val[k, r] - m; d = d < 0 ? -d : d
                if (bestd < 0 || d < bestd) { bestd = d; best = r }
            }
        }
        shown = best ? text[k, best] : "-"
        printf "| %s | %s | %s | %s | %s | %s | %s |\n", k, shown, spread(k, w, n), nc ? spread(k, c, nc) : "", goal[k], verdict(k, w, n, 0), verdict(k, c, nc, 1)
    }
    printf "\nGoals (wall clock, medians of %d round%s): %d met, %d MISSED, %d not measured.", rounds, rounds == 1 ? "" : "s", tally[0, "met"], tally[0, "MISSED"], tally[0, "unknown"]
    if (tally[1, "met"] + tally[1, "MISSED"] > 0) printf "  In CPU time: %d met, %d MISSED.", tally[1, "met"], tally[1, "MISSED"]
    printf "  Verdicts that not every round agrees with: %d", tally[0, "split"]
    if (tally[1, "met"] + tally[1, "MISSED"] > 0) printf " (CPU time: %d)", tally[1, "split"]
    print "."
}
