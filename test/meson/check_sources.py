#!/usr/bin/env python3
"""Fails when a library source is in one build and not the other: the .c files listed in
source/CMakeLists.txt (SPVBC_SOURCES), in meson.build (spvbc_sources) and present in source/."""
import os
import re
import sys

root = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), "..", "..")
with open(os.path.join(root, "source", "CMakeLists.txt")) as f:
    m = re.search(r"set\(SPVBC_SOURCES\s+([^)]*)\)", f.read())
cmake = {"source/" + s for s in m.group(1).split()} if m else set()
with open(os.path.join(root, "meson.build")) as f:
    m = re.search(r"spvbc_sources\s*=\s*files\(([^)]*)\)", f.read())
meson = set(re.findall(r"'([^']+\.c)'", m.group(1))) if m else set()
disk = {"source/" + n for n in os.listdir(os.path.join(root, "source")) if n.endswith(".c")}
bad = False
for name, got in (("source/CMakeLists.txt", cmake), ("meson.build", meson)):
    if not got:
        print("check_sources: no library source list found in %s" % name)
        bad = True
for s in sorted((cmake | meson | disk) - (cmake & meson & disk)):
    where = [n for n, g in (("CMake", cmake), ("Meson", meson), ("source/", disk)) if s in g]
    print("check_sources: %s is only in: %s" % (s, ", ".join(where)))
    bad = True
if bad:
    sys.exit(1)
print("check_sources: CMake and Meson build the same %d library sources" % len(cmake))
