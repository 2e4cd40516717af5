#!/bin/sh
# debian-tree.sh - fetch a tree of Debian packages (another suite than the host's: trixie,
# bookworm-backports) into a directory of the build tree, without installing anything, without
# touching the system's apt state or sources, and without writing a mirror host name anywhere in
# the source tree: the mirror and its keyring are the machine's own (its apt sources).
#
#   debian-tree.sh fetch <dir> <suite> <package...>
#       Resolve the dependency closure of <package...> (name or name=version) in <suite> (main)
#       with apt-get under a private state whose dpkg status is EMPTY (so the closure is complete:
#       libc6 and all, as a chroot needs it), download it, and `dpkg -x` every package into
#       <dir>/root.  The usr-merge links (bin, sbin, lib, lib64 -> usr/...) are made as Debian's
#       base-files would.  No recommends.  Cached: when <dir>/ready names the same suite and
#       packages, a second run costs nothing (prints "cached").  Exits 0 even when it could not
#       fetch: the reason goes to <dir>/unavailable (and stdout) so that the tests needing the
#       tree report SKIPPED with it, never pass without running.  Exit 2 only for bad usage.
#   debian-tree.sh check <dir>
#       Exit 0 when <dir>/root is ready; otherwise print "SKIP: <reason>" and exit 77 (ctest's
#       SKIP_RETURN_CODE in this project).
#   debian-tree.sh sources <suite>
#       Print the one-line apt source ("deb [signed-by=...] <uri> <suite> main") that fetch
#       uses: <uri> and the keyring are those of the machine's own Debian archive entry, read
#       from /etc/apt/sources.list and /etc/apt/sources.list.d/*.list (one-line format) and
#       /etc/apt/sources.list.d/*.sources (deb822).  The entry chosen is the first "deb" entry
#       whose suites include the host's own codename (/etc/os-release), else the first whose
#       suites are Debian's and not -security.  Exit 1 (message on stderr) when there is none.
#       SPVBC_DEBIAN_MIRROR (and optionally SPVBC_DEBIAN_KEYRING) override it; SPVBC_APT_ETC
#       and SPVBC_HOST_CODENAME stand for /etc/apt and the host's codename (the parser's test).  Other scripts
#       (cmake/mesa25.sh) use this to build their own private source list.
#
# Sourced with DEBIAN_TREE_LIB=1 (cmake/mesa25.sh, cmake/mesa-native.sh, cmake/opencl-trixie.sh,
# test/cross/*.sh, test/diff/sid_modules.sh, cmake/vul-trixie.sh), it runs nothing and gives
# them its functions: the mirror (sources_line, host_sources_line), a private apt state
# (apt_init, apt_in, apt_error), the one fetch sequence that fetch below uses too (apt_update,
# then apt_download of exact packages or apt_download_closure of a dependency closure, then
# unpack_debs and usr_merge; apt_source for a source package), the bookkeeping of a fetch
# directory (abs_dir, is_ready, fetch_begin, give_up, fetch_end) and running programs in a tree
# (tree_copy_host_libs, tree_chroot_exec).
#
# Files under <dir>: root/ (the tree), ready (suite and packages, written last), packages (what
# was unpacked, "name version" per line), unavailable (why not), apt.log, and fetch.log (the size
# downloaded and the time taken).  The downloaded .deb files and the package lists are deleted
# once unpacked.  The tree's contents belong to root where fetch ran as root.
#
# SPDX-License-Identifier: Apache-2.0
set -u

# Where the machine's apt sources are (a test points it elsewhere).
APT_ETC=${SPVBC_APT_ETC:-/etc/apt}

usage() {
    echo "usage: $0 fetch <dir> <suite> <package...> | check <dir> | sources <suite>" >&2
    exit 2
}

# The host's codename (bookworm), from /etc/os-release.
host_codename() {
    (
        # shellcheck disable=SC1091 # the host's file
        if [ -n "${SPVBC_HOST_CODENAME:-}" ]; then
            echo "$SPVBC_HOST_CODENAME"
        elif [ -r /etc/os-release ]; then
            . /etc/os-release && echo "${VERSION_CODENAME:-}"
        fi
    )
}

# Print every "deb" entry of the machine's apt sources, one per line, as
#   <uri> <keyring-or-empty> <suite> <suite>...
# One-line files first (sources.list, then sources.list.d/*.list), then deb822 *.sources files.
apt_entries() {
    for f in "$APT_ETC/sources.list" "$APT_ETC"/sources.list.d/*.list; do
        [ -r "$f" ] || continue
        # deb [opt=val ...] uri suite comp...   (one entry, one suite)
        sed -e 's/#.*//' "$f" | awk '
            $1 != "deb" { next }
            {
                key = ""; i = 2
                if ($2 ~ /^\[/) {
                    opts = ""
                    for (; i <= NF; i++) { opts = opts " " $i; if ($i ~ /\]$/) { i++; break } }
                    gsub(/[][]/, "", opts)
                    n = split(opts, o, " ")
                    for (j = 1; j <= n; j++)
                        if (tolower(o[j]) ~ /^signed-by=/) { sub(/^[^=]*=/, "", o[j]); key = o[j] }
                }
                if (i + 1 <= NF) print $i, (key == "" ? "-" : key), $(i + 1)
            }'
    done
    for f in "$APT_ETC"/sources.list.d/*.sources; do
        [ -r "$f" ] || continue
        # Stanzas separated by blank lines; continuation lines (a leading space) belong to the
        # field above (an inline Signed-By key block: no file to name, so use the system keys).
        awk '
            function flush() {
                if (types ~ /(^| )deb( |$)/ && uris != "" && suites != "" && tolower(enabled) != "no") {
                    n = split(uris, u, " ")
                    for (j = 1; j <= n; j++) print u[j], (key == "" ? "-" : key), suites
                }
                types = ""; uris = ""; suites = ""; key = ""; enabled = ""; field = ""
            }
            /^[ \t]*#/ { next }
            /^[ \t]*$/ { flush(); next }
            /^[ \t]/ { if (field == "signed-by") key = ""; next }
            {
                field = tolower($1); sub(/:$/, "", field)
                val = $0; sub(/^[^:]*:[ \t]*/, "", val); sub(/[ \t]+$/, "", val)
                if (field == "types") types = val
                else if (field == "uris") uris = val
                else if (field == "suites") suites = val
                else if (field == "enabled") enabled = val
                else if (field == "signed-by") key = (val ~ /^\// || val ~ /^[0-9A-Fa-f!, ]+$/) ? val : ""
            }
            END { flush() }' "$f"
    done
}

# Print "<uri> <keyring-or-->" of the machine's Debian archive entry, or fail.
debian_mirror() {
    if [ -n "${SPVBC_DEBIAN_MIRROR:-}" ]; then
        echo "$SPVBC_DEBIAN_MIRROR ${SPVBC_DEBIAN_KEYRING:--}"
        return 0
    fi
    entries=$(apt_entries)
    host=$(host_codename)
    picked=$(printf '%s\n' "$entries" | awk -v host="$host" '
        NF >= 3 && host != "" { for (i = 3; i <= NF; i++) if ($i == host) { print $1, $2; exit } }')
    if [ -z "$picked" ]; then
        picked=$(printf '%s\n' "$entries" | awk '
            NF >= 3 {
                for (i = 3; i <= NF; i++)
                    if ($i ~ /^(buster|bullseye|bookworm|trixie|forky|sid|stable|testing|unstable|oldstable)(-updates|-backports)?$/) {
                        print $1, $2; exit
                    }
            }')
    fi
    if [ -z "$picked" ]; then
        echo "no Debian archive entry (a \"deb\" source for ${host:-this release}) in /etc/apt/sources.list or /etc/apt/sources.list.d/ (set SPVBC_DEBIAN_MIRROR)" >&2
        return 1
    fi
    echo "$picked"
}

# Print the one-line source for suite $1 (main).
sources_line() {
    m=$(debian_mirror) || return 1
    uri=${m% *}
    key=${m##* }
    if [ "$key" = - ]; then
        echo "deb $uri $1 main"
    else
        echo "deb [signed-by=$key] $uri $1 main"
    fi
}

unavailable() {
    echo "$2" >"$1/unavailable"
    echo "debian-tree: not available: $2"
}

# ---- shared with the other fetch scripts (mesa25.sh, test/cross/*.sh source this file) -------

# Creates directory $1 and prints its absolute path.
abs_dir() {
    mkdir -p "$1" && (cd "$1" && pwd)
}

# True when directory $1 holds a completed fetch of $2 (the first line of $1/ready).
is_ready() {
    [ -f "$1/ready" ] && [ "$(head -n 1 "$1/ready")" = "$2" ]
}

# For a script that fetches into one directory and exits (test/cross/fetch-debs.sh):
# fetch_begin <dir> <want> <name> sets $dir to <dir>'s absolute path and exits 0 when it holds
# <want> already; else it removes what an earlier run left (ready, unavailable, root).
fetch_begin() {
    dir=$(abs_dir "$1") || exit 1
    is_ready "$dir" "$2" && exit 0
    _fetch_name=$3
    rm -rf "$dir/ready" "$dir/unavailable" "$dir/root"
}

# give_up <reason>: after fetch_begin, records the reason in $dir/unavailable (the tests report
# SKIPPED with it) and exits 0.
give_up() {
    echo "$1" >"$dir/unavailable"
    echo "$_fetch_name: not available: $1"
    exit 0
}

# The reason no fetch may start, when SPVBC_FETCH=OFF: CMake sets it in every test's environment
# when the build was configured without -DSPVBC_FETCH=ON, so that nothing reaches the network
# unless asked; a tree fetched before is still used (each script looks for it first).
FETCH_OFF_REASON="fetching is off: this build was configured with SPVBC_FETCH=OFF (-DSPVBC_FETCH=ON lets the tests fetch Debian packages into the build tree)"

# fetch_end <want> <apt dir>: after fetch_begin and apt_download into $dir/debs, unpacks every
# .deb there into $dir/root (give_up when dpkg -x fails), writes $dir/ready (<want>, then the
# packages' file names), deletes the downloads and the package lists, and says what it did.
fetch_end() {
    mkdir -p "$dir/root"
    unpack_debs "$dir/root" "$dir"/debs/*.deb || give_up "dpkg -x $apt_reason failed"
    {
        echo "$1"
        for _deb in "$dir"/debs/*.deb; do basename "$_deb"; done
    } >"$dir/ready"
    rm -rf "$2/cache/archives" "$2/state/lists" "$dir/debs"
    echo "$_fetch_name: $(tail -n +2 "$dir/ready" | tr '\n' ' ')into $dir/root"
}

# apt_init <apt dir> <source line>: a private apt state whose dpkg status is empty, a private
# cache and a source list of that one line.  Every fetch begins here: returns 1, with
# $apt_reason, when SPVBC_FETCH=OFF (or the state cannot be made).
apt_init() {
    if [ "${SPVBC_FETCH:-}" = OFF ]; then
        apt_reason=$FETCH_OFF_REASON
        return 1
    fi
    apt_reason="cannot make a private apt state in $1"
    mkdir -p "$1/state/lists/partial" "$1/cache/archives/partial" "$1/etc" &&
        : >"$1/state/status" && echo "$2" >"$1/etc/sources.list"
}

# apt_in <apt dir> apt-get|apt-cache [args...]: runs it on that private state.  The machine's
# apt.conf (proxies) still applies; its sources, preferences and state do not.
apt_in() {
    _apt_dir=$1 _apt_tool=$2
    shift 2
    "$_apt_tool" -o "Dir::State=$_apt_dir/state" -o "Dir::State::status=$_apt_dir/state/status" \
        -o "Dir::Cache=$_apt_dir/cache" -o "Dir::Etc::SourceList=$_apt_dir/etc/sources.list" \
        -o "Dir::Etc::SourceParts=/dev/null" -o "Dir::Etc::Preferences=/dev/null" \
        -o "Dir::Etc::PreferencesParts=/dev/null" -o "APT::Sandbox::User=$(id -un)" \
        -o "Acquire::Retries=2" -o "Acquire::http::Timeout=30" -o "Debug::NoLocking=1" "$@"
}

# apt's reason in log $1: its first error lines, else its last lines, on one line.
apt_error() {
    { grep -m 2 '^E:' "$1" || tail -n 2 "$1"; } | tr '\n' ' '
}

# The fetch itself, in three steps that each return non-zero with apt's (or dpkg's) words in
# $apt_reason, so that every caller gives up its own way (unavailable, give_up) with its own
# message.  [options] are apt-get's (-o APT::Architecture=armhf ...), the same for every step.
#
# apt_update <apt dir> <log> [options]: `apt-get update` into <log> (overwritten).  Returns 1
# when apt-get failed, 2 when it succeeded but logged warnings or errors (W:/E: lines: a source
# it could not fetch), which a caller may ignore; $apt_reason has the lines (empty on 0).
apt_update() {
    _apt_dir=$1 _apt_log=$2
    shift 2
    apt_reason=
    if ! apt_in "$_apt_dir" apt-get "$@" -q update >"$_apt_log" 2>&1; then
        apt_reason=$(apt_error "$_apt_log")
        return 1
    fi
    if grep -q '^[WE]:' "$_apt_log"; then
        apt_reason=$(grep '^[WE]:' "$_apt_log" | head -n 2 | tr '\n' ' ')
        return 2
    fi
}

# apt_download <apt dir> <debs dir> <log> <specs> [options]: `apt-get download` of <specs>
# (one argument: words, each name or name=version) into <debs dir>, exactly those packages,
# without their dependencies; apt's output is added to <log>.
apt_download() {
    _apt_dir=$1 _apt_debs=$2 _apt_log=$3 _apt_specs=$4
    shift 4
    mkdir -p "$_apt_debs" || { apt_reason="cannot create $_apt_debs"; return 1; }
    # shellcheck disable=SC2086 # the specs are words
    if ! (cd "$_apt_debs" && apt_in "$_apt_dir" apt-get "$@" -qq download $_apt_specs) >>"$_apt_log" 2>&1; then
        apt_reason=$(apt_error "$_apt_log")
        return 1
    fi
}

# apt_download_closure <apt dir> <log> <specs> [options]: the dependency closure of <specs> as
# `apt-get install --download-only` resolves it on the private state (empty dpkg status: all of
# it), into <apt dir>/cache/archives; apt's output is added to <log>.
apt_download_closure() {
    _apt_dir=$1 _apt_log=$2 _apt_specs=$3
    shift 3
    # shellcheck disable=SC2086 # the specs are words
    if ! apt_in "$_apt_dir" apt-get "$@" -q -y --download-only install $_apt_specs >>"$_apt_log" 2>&1; then
        apt_reason=$(apt_error "$_apt_log")
        return 1
    fi
}

# apt_source <apt dir> <dest dir> <log> <package> [options]: `apt-get source --download-only`
# of source package <package> (name or name=version) into <dest dir> (its .dsc, .orig and
# .debian files, unpacked by nobody: the caller unpacks what it needs); apt's output is added to
# <log>.  The private source list must hold a "deb-src" line (sources_line's, with deb-src).
apt_source() {
    _apt_dir=$1 _apt_dest=$2 _apt_log=$3 _apt_pkg=$4
    shift 4
    mkdir -p "$_apt_dest" || { apt_reason="cannot create $_apt_dest"; return 1; }
    if ! (cd "$_apt_dest" && apt_in "$_apt_dir" apt-get "$@" -q --download-only source "$_apt_pkg") >>"$_apt_log" 2>&1; then
        apt_reason=$(apt_error "$_apt_log")
        return 1
    fi
}

# unpack_debs [--usr-merge] <root> <deb...>: `dpkg -x` of every <deb> into <root> (dpkg's
# complaints on stderr), with --usr-merge the usr-merge links (usr_merge) after each.  Returns 1
# at the first that fails, its path in $apt_reason.
unpack_debs() {
    _apt_merge=
    [ "$1" = --usr-merge ] && _apt_merge=1 && shift
    _apt_root=$1
    shift
    for _apt_deb in "$@"; do
        if ! dpkg -x "$_apt_deb" "$_apt_root"; then
            apt_reason=$_apt_deb
            return 1
        fi
        [ -z "$_apt_merge" ] || usr_merge "$_apt_root"
    done
}

# The source line of the host's own release (sources_line), or the reason on stderr.
host_sources_line() {
    _codename=$(host_codename)
    if [ -z "$_codename" ]; then
        echo "no VERSION_CODENAME in /etc/os-release (not Debian?)" >&2
        return 1
    fi
    sources_line "$_codename"
}

# Make the usr-merge links base-files makes (bin -> usr/bin, ...), moving anything a package put
# in the unmerged place (dpkg -x replaced a link by a directory) into /usr first.
usr_merge() {
    r=$1
    for d in bin sbin lib lib64; do
        if [ -d "$r/$d" ] && [ ! -L "$r/$d" ]; then
            mkdir -p "$r/usr/$d"
            cp -a "$r/$d/." "$r/usr/$d/" && rm -rf "${r:?}/$d"
        fi
        [ -e "$r/$d" ] || [ -L "$r/$d" ] || ln -s "usr/$d" "$r/$d"
    done
}

# tree_copy_host_libs <root> <lib dir> <program>: copies the libraries <program> (built on this
# machine) needs that the tree <root> lacks into <lib dir>, which the caller puts on
# LD_LIBRARY_PATH after the tree's own.
tree_copy_host_libs() {
    mkdir -p "$2"
    ldd "$3" 2>/dev/null | awk '$2 == "=>" && $3 ~ /^\// { print $1, $3 }' |
        while read -r soname path; do
            for d in usr/lib/x86_64-linux-gnu usr/lib lib/x86_64-linux-gnu; do
                [ -e "$1/$d/$soname" ] && continue 2
            done
            cp -L "$path" "$2/$soname"
        done
}

# tree_chroot_exec <root> <binds> <libs> <program> [args...]: runs <program> (a path inside the
# tree, or one under a bound directory) in a chroot of <root>, in a private mount namespace (so
# nothing stays mounted when it ends, even when it is killed) with /dev, /proc and /sys bound
# in, a fresh /tmp (HOME and TMPDIR), the directories <binds> (colon-separated) bound at the same
# paths, the working directory kept when the tree has it, and LD_LIBRARY_PATH=<libs>.  Needs
# root; the caller checks.  Does not return.
tree_chroot_exec() {
    # shellcheck disable=SC2016 # the inner script expands its own arguments
    exec unshare --mount --propagation private sh -c '
        set -e
        root=$1 binds=$2 libs=$3
        shift 3
        for d in dev proc sys tmp; do mkdir -p "$root/$d"; done
        mount --rbind /dev "$root/dev"
        mount -t proc proc "$root/proc" 2>/dev/null || mount --rbind /proc "$root/proc"
        mount --rbind /sys "$root/sys"
        mount -t tmpfs -o mode=1777 tmpfs "$root/tmp"
        IFS=:
        for b in $binds; do
            [ -n "$b" ] && [ -d "$b" ] || continue
            mkdir -p "$root$b"
            mount --bind "$b" "$root$b"
        done
        unset IFS
        cwd=$(pwd)
        [ -d "$root$cwd" ] || cwd=/
        unset LD_PRELOAD
        export HOME=/tmp TMPDIR=/tmp
        exec chroot "$root" /bin/sh -c "cd \"\$1\" && PATH=/usr/bin:/bin && LD_LIBRARY_PATH=\"\$2\" && export PATH LD_LIBRARY_PATH && shift 2 && exec \"\$@\"" \
            sh "$cwd" "$libs" "$@"
    ' sh "$@"
}

fetch() {
    dir=$1
    suite=$2
    shift 2
    dir=$(abs_dir "$dir") || exit 1
    want="$suite $*"
    # One fetch at a time per directory (two build trees may share one); the lock goes with
    # the process.
    if command -v flock >/dev/null; then
        exec 9>"$dir/.lock"
        flock 9
    fi
    if is_ready "$dir" "$want"; then
        echo "debian-tree: cached in $dir ($want)"
        return 0
    fi
    rm -f "$dir/unavailable" "$dir/ready"
    start=$(date +%s)
    if ! command -v apt-get >/dev/null || ! command -v dpkg >/dev/null; then
        unavailable "$dir" "apt-get/dpkg not found (not a Debian system)"
        return 0
    fi
    if ! line=$(sources_line "$suite" 2>&1); then
        unavailable "$dir" "$line"
        return 0
    fi
    apt_dir="$dir/apt"
    rm -rf "$apt_dir" "$dir/root"
    mkdir -p "$dir/root"
    if ! apt_init "$apt_dir" "$line"; then
        unavailable "$dir" "$apt_reason"
        return 0
    fi
    arch=$(dpkg --print-architecture)
    # Not the machine's foreign architectures either.
    pkgs=" $*"
    set -- -o "APT::Architecture=$arch" -o "APT::Architectures=$arch" \
        -o "APT::Install-Recommends=false" -o "APT::Install-Suggests=false" \
        -o "Acquire::Languages=none"
    apt_update "$apt_dir" "$dir/apt.log" "$@"
    case $? in
    1)
        unavailable "$dir" "apt-get update ($line) failed: $apt_reason"
        return 0
        ;;
    2)
        unavailable "$dir" "apt-get update ($line): $apt_reason"
        return 0
        ;;
    esac
    if ! apt_download_closure "$apt_dir" "$dir/apt.log" "$pkgs" "$@"; then
        unavailable "$dir" "apt-get install --download-only$pkgs from $suite failed: $apt_reason"
        return 0
    fi
    set -- "$apt_dir"/cache/archives/*.deb
    if [ ! -f "$1" ]; then
        unavailable "$dir" "apt-get downloaded nothing for$pkgs from $suite"
        return 0
    fi
    if ! unpack_debs --usr-merge "$dir/root" "$@" 2>>"$dir/apt.log"; then
        unavailable "$dir" "dpkg -x $(basename "$apt_reason") failed"
        return 0
    fi
    bytes=0
    : >"$dir/packages"
    for deb in "$@"; do
        dpkg-deb -f "$deb" Package Version | awk '{ printf "%s%s", (NR > 1 ? " " : ""), $2 } END { print "" }' >>"$dir/packages"
        bytes=$((bytes + $(wc -c <"$deb")))
    done
    rm -rf "$apt_dir"
    secs=$(($(date +%s) - start))
    n=$(wc -l <"$dir/packages")
    mib=$(((bytes + 524288) / 1048576))
    echo "$n packages, $mib MiB downloaded, $(du -sm "$dir/root" | cut -f1) MiB unpacked, $secs s ($line)" >"$dir/fetch.log"
    # Written last: its presence means "ready".
    echo "$want" >"$dir/ready"
    echo "debian-tree: fetched$pkgs from $suite into $dir: $(cat "$dir/fetch.log")"
}

check() {
    dir=$1
    if [ -f "$dir/ready" ] && [ -d "$dir/root" ]; then
        return 0
    fi
    reason="not fetched (run: $0 fetch $dir ...)"
    [ -f "$dir/unavailable" ] && reason=$(cat "$dir/unavailable")
    echo "SKIP: the Debian tree in $dir is not available: $reason"
    exit 77
}

# Run as a program, not when another script sources this one for its functions
# (DEBIAN_TREE_LIB=1 . debian-tree.sh).
if [ -z "${DEBIAN_TREE_LIB:-}" ]; then
    [ $# -ge 2 ] || usage
    cmd=$1
    shift
    case $cmd in
    fetch)
        [ $# -ge 3 ] || usage
        fetch "$@"
        ;;
    check) check "$1" ;;
    sources)
        sources_line "$1" || exit 1
        ;;
    *) usage ;;
    esac
fi
