#!/bin/sh
# expect_exit.sh N CMD [ARGS...]: run CMD with this script's stdin, stdout and stderr, and exit
# 0 only if CMD exited with status N exactly (lit's `not` only tells zero from non-zero, and the
# CLI's exit codes 1 and 2 mean different things).
if [ $# -lt 2 ]; then
    echo "usage: expect_exit.sh N CMD [ARGS...]" >&2
    exit 2
fi
want=$1
shift
"$@"
got=$?
if [ "$got" -ne "$want" ]; then
    echo "expect_exit.sh: $1 exited with $got, expected $want" >&2
    exit 1
fi
exit 0
