#!/usr/bin/env python3
"""expect_exit.py N CMD [ARGS...]: run CMD, pass its stdin/stdout/stderr through, and exit 0
only if CMD exited with status N (exactly; a signal or any other status is a failure)."""
import subprocess
import sys


def main():
    if len(sys.argv) < 3:
        sys.stderr.write("usage: expect_exit.py N CMD [ARGS...]\n")
        return 2
    want = int(sys.argv[1])
    try:
        got = subprocess.call(sys.argv[2:])
    except OSError as e:
        sys.stderr.write("expect_exit.py: cannot run %s: %s\n" % (sys.argv[2], e))
        return 1
    if got != want:
        sys.stderr.write("expect_exit.py: %s exited with %d, expected %d\n"
                         % (sys.argv[2], got, want))
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
