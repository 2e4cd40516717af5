"""doccheck_selftest.py - doccheck.py --selftest: the checker catches what it is for."""

import os
import shutil
import tempfile

from doccheck_parse import Failures
from doccheck_refs import check_references, check_tree


def selftest(check):
    """The checker catches what it is for: each case must fail, the good document must pass."""
    good = """# t
Text `examples/run.sh` and [a link](t.md).

```console
$ printf 'a 1\\nb 22 ms\\nc\\n'
a 1
b ... ms
...
$ echo hi >&2; exit 3        # exit 3
hi
$ export X=7; mkdir sub; cd sub
$ echo $X; basename $PWD
7
sub
$ cat > f.txt <<'EOF'
> two
> EOF
$ cd .. && cat f.txt            # exit 1
cat: f.txt: No such file or directory
$ echo clang-15; exit 2         # exit 2, with SPIRV-Tools 2023.1
clang-15
$ cat sub/f.txt
two
```

<!-- doc-check: skip a synopsis -->
```sh
frob [--x]
```
"""
    toolchain_doc = """```console
$ echo clang-15 llvm-spirv-15 clang-150 x-clang-15
clang-19 llvm-spirv-19 clang-150 x-clang-15
$ echo 2023; exit 1                 # exit 1, with SPIRV-Tools 2023.1
2023
$ echo same
same
```
"""
    bad = {
        "stale output": "```console\n$ echo '1 bitcast checked'\n1 bitcasts checked\n```\n",
        "exit status": "```console\n$ false\n```\n",
        "missing line": "```console\n$ printf 'a\\n'\na\nb\n```\n",
        "extra line": "```console\n$ printf 'a\\nb\\n'\na\n```\n",
        "unmarked block": "```sh\necho hi\n```\n",
        "indented block": "Text:\n\n    $ echo hi\n    hi\n",
        "missing path": "See `.fuzzlead/run_campaign.sh` and `test/nothing_here.sh`.\n",
        "skip without reason": "<!-- doc-check: skip -->\n```sh\necho\n```\n",
        "file differs": "<!-- doc-check: file examples/run.sh -->\n```sh\n#!/bin/sh\n```\n",
        "dead link": "[x](nowhere.md)\n",
        "layout": "<!-- doc-check: folders . -->\n```text\nexamples/  the examples\n```\n",
    }
    src = tempfile.mkdtemp(prefix="doccheck-selftest-")
    try:
        os.makedirs(os.path.join(src, "examples"))
        os.makedirs(os.path.join(src, "test"))
        with open(os.path.join(src, "examples", "run.sh"), "w") as f:
            f.write("#!/bin/sh\necho run\n")
        build = os.path.join(src, "build-x")
        os.makedirs(build)
        ok = True

        def run(name, text, versions=None):
            path = os.path.join(src, "t.md")
            with open(path, "w") as f:
                f.write(text)
            return check(src, build, os.path.join(src, "work"), {}, [path], tree=False,
                         tools_versions=versions or {"LLVM": "15", "SPIRV-Tools": "2023.1"})[0]

        f = run("good", good)
        if f.items:
            ok = False
            print("selftest: the good document failed:\n" + "\n".join(f.items))
        for name, text in bad.items():
            f = run(name, text)
            if not f.items:
                ok = False
                print("selftest: %s was not caught" % name)
            else:
                print("selftest: %s caught: %s" % (name, f.items[0].split("\n")[0]))
        # Another toolchain: LLVM 15's tools run as 19's, a version-bound output is run but
        # not compared, and where the version is the one shown it is compared.
        newer = {"LLVM": "19", "SPIRV-Tools": "2025.1"}
        f = run("toolchain", toolchain_doc, newer)
        if f.items or len(f.notes) != 2:
            ok = False
            print("selftest: another toolchain: %d failures, %d notes instead of 0, 2:\n%s" % (
                len(f.items), len(f.notes), "\n".join(f.items + f.notes)))
        else:
            print("selftest: another toolchain: %s" % "; ".join(f.notes))
        f = run("toolchain bound", "```console\n$ echo 2025   # with SPIRV-Tools 2025.1\n2023\n```\n",
                newer)
        if not f.items:
            ok = False
            print("selftest: a version-bound output on its own version was not compared")
        rf = Failures()
        text = "ctest `unit.rules` and ctest `exec.*` and ctest `unit.gone`\n"
        check_references(os.path.join(src, "t.md"), "t.md", text, [], src, rf,
                         {"unit.rules", "exec.pairs"})
        if len(rf.items) != 1:
            ok = False
            print("selftest: test names: %d failures instead of 1" % len(rf.items))
        else:
            print("selftest: unknown test name caught: %s" % rf.items[0])
        # `build/...` is the build tree given, not a folder `build` of the source.
        os.makedirs(os.path.join(src, "build", "only-in-source"))
        os.makedirs(os.path.join(build, "made"))
        rf = Failures()
        text = "`build/made` and `build/only-in-source` and `build/made/fetch.log`\n"
        check_references(os.path.join(src, "t.md"), "t.md", text, [], src, rf, None, build)
        if len(rf.items) != 2:
            ok = False
            print("selftest: build tree paths: %d failures instead of 2" % len(rf.items))
        else:
            print("selftest: build tree paths caught: %s" % "; ".join(rf.items))
        tf = Failures()
        with open(os.path.join(src, "test", "x.c"), "w") as f:
            f.write("/* as iss" + "ue 7 said */\n/* see " + "shared" + "/docs/rules.md */\n")
        check_tree(src, tf, set())
        if len(tf.items) != 2:
            ok = False
            print("selftest: the tree check found %d of 2 references" % len(tf.items))
        else:
            print("selftest: tree references caught: %d" % len(tf.items))
        print("selftest: %s" % ("ok" if ok else "FAILED"))
        return 0 if ok else 1
    finally:
        shutil.rmtree(src)
