#!/usr/bin/env python3
"""Fails when source/sources.txt (the one list of library sources CMake and Meson both read)
and the .c files in source/ differ: a file added without being listed, or a listed file gone."""
import os
import sys

root = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), "..", "..")
with open(os.path.join(root, "source", "sources.txt")) as f:
    listed = [line.strip() for line in f if line.strip()]
disk = {n for n in os.listdir(os.path.join(root, "source")) if n.endswith(".c")}
bad = False
if len(set(listed)) != len(listed):
    print("check_sources: source/sources.txt names a file twice")
    bad = True
for s in sorted(set(listed) ^ disk):
    where = "source/sources.txt" if s in listed else "source/"
    print("check_sources: source/%s is only in %s" % (s, where))
    bad = True
if bad:
    sys.exit(1)
print("check_sources: source/sources.txt lists the %d library sources in source/" % len(listed))
