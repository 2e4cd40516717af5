#!/usr/bin/env python3
"""embedded.py - the SPIR-V in a Debian tree's own binaries, judged by that tree's spirv-val.

  embedded.py MODULES_DIR TOOLS_DIR SPIRV_BITCAST GENERATION WORK_DIR

MODULES_DIR is a fetch of test/diff/sid_modules.sh (Debian unstable's Mesa Vulkan drivers and
layers, validation layer, vkcube, and libclc), TOOLS_DIR one of cmake/debian-tree.sh with the
same release's spirv-tools (run under that tree's own loader).  Every module is cut out of the
binaries (as layer/vulkan/test/vkbench_modules.py cuts them; the same words once) or read from
libclc's .spv files.  For each module the tree's spirv-val accepts (its default environment),
`spirv-bitcast validate --generation GENERATION` must report no error and `spirv-bitcast lower`
must give the module back byte for byte: no false error on what that SPIRV-Tools accepts.  A
module it rejects is listed and not judged.  So that the test cannot pass on nothing, at least
one module must be accepted and the accepted ones must hold bitcasts.  Exit 0, 1 on a false
error, a changed module or nothing to judge, 77 (SKIPPED, with the reason) when either tree
could not be fetched.
SPDX-License-Identifier: Apache-2.0
"""
import glob
import hashlib
import os
import re
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "../../layer/vulkan/test"))
from vkbench_modules import embedded_modules  # noqa: E402

# Where the packages keep what carries SPIR-V: executables, shared objects, libclc's modules.
BINARIES = ("usr/bin/*", "usr/lib/*-linux-gnu/*.so*", "usr/lib/*-linux-gnu/*/*.so*")
SPV_FILES = ("usr/lib/clc/*.spv", "usr/share/clc/*.spv")
TREE_SH = os.path.join(HERE, "../../cmake/debian-tree.sh")


def ready(tree):
    """Exits 77 with debian-tree.sh's reason when `tree` is not there."""
    check = subprocess.run(["sh", TREE_SH, "check", tree], stdout=subprocess.PIPE,
                           universal_newlines=True)
    if check.returncode != 0:
        print(check.stdout.strip())
        sys.exit(77)


def collect(root):
    """{sha256: (bytes, origin)} of every module under `root`, the same words once."""
    modules = {}
    for pattern in BINARIES:
        for path in sorted(glob.glob(os.path.join(root, pattern))):
            if os.path.islink(path) or not os.path.isfile(path):
                continue
            with open(path, "rb") as f:
                data = f.read()
            for offset, size in embedded_modules(data):
                words = data[offset:offset + size]
                modules.setdefault(hashlib.sha256(words).hexdigest(), (
                    words, "/%s at byte %d" % (os.path.relpath(path, root), offset)))
    for pattern in SPV_FILES:
        for path in sorted(glob.glob(os.path.join(root, pattern))):
            with open(path, "rb") as f:
                words = f.read()
            modules.setdefault(hashlib.sha256(words).hexdigest(),
                               (words, "/" + os.path.relpath(path, root)))
    return modules


def spirv_val(tools, path):
    """The tools tree's spirv-val on `path`: (accepted, first line of what it said)."""
    loader = sorted(glob.glob(os.path.join(tools, "root/usr/lib/*/ld-linux*.so.2")))[0]
    run = subprocess.run([loader, "--library-path", os.path.dirname(loader),
                          os.path.join(tools, "root/usr/bin/spirv-val"), path],
                         stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                         universal_newlines=True)
    return run.returncode == 0, (run.stdout.strip().splitlines() or [""])[0]


def judge(cli, generation, path, work):
    """The library's verdict on a module spirv-val accepts: (problem or None, bitcasts)."""
    run = subprocess.run([cli, "validate", "--generation", generation, path],
                         stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                         universal_newlines=True)
    summary = re.search(r"(\d+) bitcasts? checked: (\d+) errors?", run.stdout)
    if summary is None:
        return "validate printed no summary (exit %d): %s" % (run.returncode, run.stdout), 0
    bitcasts, errors = int(summary.group(1)), int(summary.group(2))
    if errors:
        return "a false error on a module spirv-val accepts:\n" + run.stdout, bitcasts
    out = os.path.join(work, "lowered.spv")
    run = subprocess.run([cli, "lower", "--generation", generation, "-o", out, path],
                         stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                         universal_newlines=True)
    with open(path, "rb") as a, open(out, "rb") as b:
        if run.returncode != 0 or a.read() != b.read():
            return "lower did not give it back byte for byte (exit %d): %s" % (
                run.returncode, run.stdout), bitcasts
    return None, bitcasts


def main():
    if len(sys.argv) != 6:
        sys.exit(__doc__.split("\n\n")[1])
    modules_dir, tools, cli, generation, work = sys.argv[1:]
    ready(modules_dir)
    ready(tools)
    os.makedirs(work, exist_ok=True)
    with open(os.path.join(modules_dir, "ready")) as f:
        print("packages: " + " ".join(f.read().split("\n")[1:]).strip())
    modules = collect(os.path.join(modules_dir, "root"))
    accepted = rejected = bitcasts = failures = 0
    for digest, (words, origin) in sorted(modules.items(), key=lambda m: m[1][1]):
        path = os.path.join(work, digest[:16] + ".spv")
        with open(path, "wb") as f:
            f.write(words)
        ok, said = spirv_val(tools, path)
        if not ok:
            rejected += 1
            print("not judged (spirv-val rejects it: %s): %s" % (said, origin))
            continue
        accepted += 1
        problem, n = judge(cli, generation, path, work)
        bitcasts += n
        if problem:
            failures += 1
            print("FAIL %s (%s): %s" % (origin, path, problem))
        else:
            print("ok   %s: %d bytes, %d bitcasts" % (origin, len(words), n))
    print("%d modules: %d accepted by spirv-val (%d bitcasts), %d rejected; %d failed" % (
        len(modules), accepted, bitcasts, rejected, failures))
    if accepted == 0 or bitcasts == 0:
        print("FAIL: nothing to judge (no module accepted, or no bitcast in them)")
        return 1
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
