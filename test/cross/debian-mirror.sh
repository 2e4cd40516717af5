#!/bin/sh
# debian-mirror.sh - prints the URI of the Debian archive this machine's apt uses: the first
# source (one-line /etc/apt/sources.list* or deb822 *.sources) that serves the release's own
# suite (VERSION_CODENAME of /etc/os-release, e.g. bookworm) with component main.  Exit 1 with
# a message on stderr when there is none.  No host name is written in the tree: the mirror is
# always the machine's own.
#
# SPDX-License-Identifier: Apache-2.0
set -u
codename=${SPVBC_HOST_CODENAME:-}
if [ -z "$codename" ] && [ -r /etc/os-release ]; then
    codename=$(. /etc/os-release && echo "${VERSION_CODENAME:-}")
fi
if [ -z "$codename" ]; then
    echo "debian-mirror: no VERSION_CODENAME in /etc/os-release (not Debian?)" >&2
    exit 1
fi
files=""
for f in /etc/apt/sources.list /etc/apt/sources.list.d/*.list /etc/apt/sources.list.d/*.sources; do
    [ -r "$f" ] && files="$files $f"
done
if [ -z "$files" ]; then
    echo "debian-mirror: no apt sources found" >&2
    exit 1
fi
# shellcheck disable=SC2086 # a list of files
uri=$(awk -v want="$codename" '
    function check(uris, suites, comps, types,   n, i, s, c, ok) {
        if (types !~ /(^| )deb( |$)/) return ""
        ok = 0; n = split(comps, c, " ")
        for (i = 1; i <= n; i++) if (c[i] == "main") ok = 1
        if (!ok) return ""
        n = split(suites, s, " ")
        for (i = 1; i <= n; i++) if (s[i] == want) { split(uris, c, " "); return c[1] }
        return ""
    }
    FNR == 1 {
        if (deb822) { r = check(u, su, co, t); if (r != "") { print r; done = 1; exit } }
        deb822 = (FILENAME ~ /\.sources$/); t = u = su = co = ""
    }
    deb822 {
        if ($0 ~ /^[ \t]*$/) { r = check(u, su, co, t); if (r != "") { print r; done = 1; exit } t = u = su = co = ""; next }
        if ($0 ~ /^#/) next
        if (tolower($1) == "types:") { $1 = ""; t = $0 }
        else if (tolower($1) == "uris:") { $1 = ""; u = $0 }
        else if (tolower($1) == "suites:") { $1 = ""; su = $0 }
        else if (tolower($1) == "components:") { $1 = ""; co = $0 }
        next
    }
    !deb822 && $1 == "deb" {
        i = 2
        if ($2 ~ /^\[/) { while (i <= NF && $i !~ /\]$/) i++; i++ }
        rest = ""; for (j = i + 2; j <= NF; j++) rest = rest " " $j
        r = check($i, $(i + 1), rest, "deb"); if (r != "") { print r; done = 1; exit }
    }
    END { if (!done && deb822) { r = check(u, su, co, t); if (r != "") print r } }
' $files 2>/dev/null)
if [ -z "$uri" ]; then
    echo "debian-mirror: no apt source serves suite $codename with component main" >&2
    exit 1
fi
echo "${uri%/}"
