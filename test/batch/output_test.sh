#!/usr/bin/env bash
# output_test.sh WORK - output that never destroys (ctest batch.output): what `-o PATH` does with
# each kind of path, for `lower` and, when the build has it, `opt`, and `-r` over a tree whose
# symbolic links point back up.  Everything happens in WORK: its own FIFO, socket, symbolic
# links, and device nodes made there with mknod (never the system's /dev): one with /dev/null's
# numbers (1,3) and one with /dev/full's (1,7), whose write must fail with exit 1.
# Needs root (mknod); exit 77 (SKIPPED) otherwise or where WORK's file system forbids devices.
# Environment: SPVBC (the CLI), SPIRV_AS, INPUTS (test/batch/inputs), PYTHON (for the socket).
# SPDX-License-Identifier: Apache-2.0
set -u
work=${1:?usage: output_test.sh WORK}
if [ "$(id -u)" != 0 ]; then
    echo "SKIP: needs root to make device nodes with mknod (CI runs as root)"
    exit 77
fi
rm -rf "$work" && mkdir -p "$work" || exit 1
cd "$work" || exit 1
umask 022
if ! mknod probe c 1 3 2>/dev/null || ! echo probe >probe 2>/dev/null; then
    echo "SKIP: cannot make or open a device node in $work (file system mounted nodev?)"
    exit 77
fi
rm -f probe
"$SPIRV_AS" "$INPUTS/as_float3.spvasm" -o in.spv || exit 1
"$SPVBC" lower -q in.spv -o expected.spv 2>/dev/null || { echo "FAIL: cannot lower in.spv"; exit 1; }

fail=0
ok() { echo "ok: $1"; }
bad() { echo "FAIL: $1"; fail=$((fail + 1)); }
check() { # check DESCRIPTION COMMAND... : the command must succeed
    if "${@:2}"; then ok "$1"; else bad "$1"; fi
}
mode() { stat -c %a "$1"; }
kind() { stat -c %F "$1"; }
numbers() { stat -c '%t,%T' "$1"; } # major,minor in hex
no_temporary() { ! compgen -G "$1.tmp*" >/dev/null; }

# The writers: `lower` and `opt --lower-astype` (both lower in.spv the same way).
writers=(lower)
if "$SPVBC" opt --help >/dev/null 2>&1; then writers+=(opt); fi
lower_to() { # lower_to WRITER PATH: lowers in.spv to PATH; returns the exit status
    case $1 in
        lower) "$SPVBC" lower -q in.spv -o "$2" ;;
        opt) "$SPVBC" opt --lower-astype in.spv -o "$2" ;;
    esac
}
export SPVBC
export -f lower_to

for w in "${writers[@]}"; do
    d=$w
    mkdir "$d"

    # A new path: created, mode 0666 less the umask.
    lower_to "$w" "$d/new.spv" 2>err.txt
    rc=$?
    check "$w: -o new file: exit 0" test $rc -eq 0
    check "$w: -o new file: the module" cmp -s expected.spv "$d/new.spv"
    check "$w: -o new file: mode 644 under umask 022 (got $(mode "$d/new.spv"))" \
        test "$(mode "$d/new.spv")" = 644

    # An existing file keeps its mode.
    printf 'old' >"$d/kept.spv" && chmod 664 "$d/kept.spv"
    lower_to "$w" "$d/kept.spv" 2>err.txt
    rc=$?
    check "$w: -o existing file: replaced by the module" cmp -s expected.spv "$d/kept.spv"
    check "$w: -o existing file: keeps mode 664 (got $(mode "$d/kept.spv"))" \
        test "$(mode "$d/kept.spv")" = 664

    # A symbolic link: its target is written (and keeps its mode); the link stays a link.
    printf 'old' >"$d/target.spv" && chmod 640 "$d/target.spv"
    ln -s target.spv "$d/link.spv"
    lower_to "$w" "$d/link.spv" 2>err.txt
    rc=$?
    check "$w: -o symlink: exit 0" test $rc -eq 0
    check "$w: -o symlink: still a symbolic link" test -L "$d/link.spv"
    check "$w: -o symlink: the target holds the module" cmp -s expected.spv "$d/target.spv"
    check "$w: -o symlink: the target keeps mode 640 (got $(mode "$d/target.spv"))" \
        test "$(mode "$d/target.spv")" = 640
    # A dangling link: its target is created.
    ln -s made.spv "$d/dangling.spv"
    lower_to "$w" "$d/dangling.spv" 2>err.txt
    rc=$?
    check "$w: -o dangling symlink: still a link" test -L "$d/dangling.spv"
    check "$w: -o dangling symlink: the target is created" cmp -s expected.spv "$d/made.spv"

    # A FIFO: written in place, to the reader.
    mkfifo "$d/fifo"
    timeout 20 cat "$d/fifo" >"$d/from-fifo" &
    reader=$!
    timeout 20 bash -c 'lower_to "$@"' _ "$w" "$d/fifo" 2>err.txt
    rc=$?
    check "$w: -o FIFO: exit 0" test $rc -eq 0
    wait "$reader"
    check "$w: -o FIFO: the reader got the module" cmp -s expected.spv "$d/from-fifo"
    check "$w: -o FIFO: still a FIFO ($(kind "$d/fifo"))" test -p "$d/fifo"

    # A socket: connected to and written, never replaced.
    if [ -n "${PYTHON:-}" ]; then
        "$PYTHON" -c '
import os, socket, sys
s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
s.bind(sys.argv[1]); s.listen(1); s.settimeout(20)
open(sys.argv[1] + ".ready", "w").close()
c, _ = s.accept(); c.settimeout(20); data = b""
while True:
    b = c.recv(65536)
    if not b: break
    data += b
open(sys.argv[2], "wb").write(data)' "$d/sock" "$d/from-sock" &
        server=$!
        for _ in $(seq 100); do [ -e "$d/sock.ready" ] && break; sleep 0.1; done
        lower_to "$w" "$d/sock" 2>err.txt
        rc=$?
        check "$w: -o socket: exit 0 ($(head -c 200 err.txt))" test $rc -eq 0
        wait "$server"
        check "$w: -o socket: the listener got the module" cmp -s expected.spv "$d/from-sock"
        check "$w: -o socket: still a socket ($(kind "$d/sock"))" test -S "$d/sock"
    fi

    # A device node with /dev/null's numbers: written in place, stays a device.
    mknod "$d/null" c 1 3
    lower_to "$w" "$d/null" 2>err.txt
    rc=$?
    check "$w: -o null device: exit 0" test $rc -eq 0
    check "$w: -o null device: still a character device 1,3 ($(kind "$d/null"))" \
        test -c "$d/null" -a "$(numbers "$d/null")" = 1,3
    ln -s null "$d/null-link"
    lower_to "$w" "$d/null-link" 2>err.txt
    rc=$?
    check "$w: -o symlink to a device: exit 0" test $rc -eq 0
    check "$w: -o symlink to a device: link and device stay" \
        test -L "$d/null-link" -a -c "$d/null"

    # A device node with /dev/full's numbers: the write fails, exit 1, reported, nothing left.
    mknod "$d/full" c 1 7
    lower_to "$w" "$d/full" 2>err.txt
    rc=$?
    check "$w: -o full device: exit 1 (got $rc)" test $rc -eq 1
    check "$w: -o full device: 'cannot write to $d/full: No space left on device'" \
        grep -q "cannot write to $d/full: No space left on device" err.txt
    check "$w: -o full device: still a character device 1,7 ($(kind "$d/full"))" \
        test -c "$d/full" -a "$(numbers "$d/full")" = 1,7
    check "$w: -o full device: no temporary file left" no_temporary "$d/full"

    # A file that cannot be written (the file size limit; EFBIG): exit 1, reported, the old
    # file untouched, no temporary file left.
    printf 'old' >"$d/limited.spv"
    # (stderr goes through a pipe: the limit applies to the regular file err.txt too)
    (
        trap '' XFSZ
        ulimit -f 0
        lower_to "$w" "$d/limited.spv"
    ) 2>&1 | cat >err.txt
    rc=${PIPESTATUS[0]}
    check "$w: failed write to a file: exit 1 (got $rc)" test $rc -eq 1
    check "$w: failed write to a file: 'cannot write to $d/limited.spv: File too large'" \
        grep -q "cannot write to $d/limited.spv: File too large" err.txt
    check "$w: failed write to a file: the old file is untouched" \
        test "$(cat "$d/limited.spv")" = old
    check "$w: failed write to a file: no temporary file left" no_temporary "$d/limited.spv"

    # A directory: an error, the directory stays.
    mkdir "$d/adir"
    lower_to "$w" "$d/adir" 2>err.txt
    rc=$?
    check "$w: -o directory: exit 1" test $rc -eq 1
    check "$w: -o directory: still a directory, empty" test -d "$d/adir" -a -z "$(ls -A "$d/adir")"
done

# Standard output on a full device: "cannot write to stdout", exit 1 (kept as it was).
"$SPVBC" lower -q in.spv -o - >lower/full 2>err.txt
check "lower -o - onto a full device: exit 1" test $? -eq 1
check "lower -o - onto a full device: 'cannot write to stdout'" grep -q "cannot write to stdout" err.txt

# -r never enters a directory twice: links to directories are not followed (one points back up).
mkdir -p tree/sub elsewhere
cp in.spv tree/a.spv && cp in.spv tree/sub/b.spv && cp in.spv elsewhere/c.spv
ln -s .. tree/sub/up
ln -s ../elsewhere tree/away
ln -s ../in.spv tree/linked.spv # a link to a file is followed
"$SPVBC" validate -q -r tree >r.out 2>r.err
check "validate -r over a looping tree: 3 modules ($(grep -o '^summary: [0-9]* modules' r.out))" \
    grep -q "^summary: 3 modules" r.out
"$SPVBC" validate -r tree >r.out 2>r.err
check "validate -r: each file reported once (2 errors each)" \
    test "$(grep -c '^error: ' r.err)" = 6
check "validate -r: the directory link is not entered" \
    test "$(grep -c 'tree/away/' r.err)$(grep -c 'tree/sub/up/' r.err)" = 00
# The directory given to -r may itself be a link.
ln -s tree tree-link
"$SPVBC" validate -q -r tree-link >r.out 2>r.err
check "validate -r LINK: the link named on the command line is followed" \
    grep -q "^summary: 3 modules" r.out

# Two -r naming one tree (once through a link): each directory is entered once.
"$SPVBC" validate -q -r tree -r tree-link >r.out 2>r.err
check "validate -r DIR -r LINK-TO-DIR: 3 modules ($(grep -o '^summary: [0-9]* modules' r.out))" \
    grep -q "^summary: 3 modules" r.out

echo "output: $fail failed checks"
[ $fail -eq 0 ]
