#!/usr/bin/env python3
"""doccheck.py - re-runs the commands that README.md and docs/*.md show, and compares outputs.

    doccheck.py --source DIR --build DIR --work DIR [--tool NAME=PATH ...] [FILE.md ...]
    doccheck.py --selftest

Documentation that shows a command and what it prints is only true while a test keeps it true.
This checker is that test (ctest `docs.check`, label `docs`); `docs.selftest` checks the checker.
The convention, for everybody who edits README.md or docs/*.md:

Every code block is fenced (``` or ~~~).  An indented code block is an error: nothing could say
whether it runs.  A fenced block is one of four kinds:

1. ```console - a shell session, run and compared, in the style of Python's doctest:

       $ spirv-bitcast validate kernel.spv         # exit 1
       error: kernel.spv: word 335 (instruction 73): ... [V12]
       ...
       kernel.spv: 7 bitcasts checked: 6 errors (6 lowerable), 0 warnings, 0 notes

   - `$ CMD` is a command, run by bash; `> MORE` lines continue it (a heredoc, or a line
     ending in `\\`).
   - The lines up to the next `$ ` are what the command prints, stdout and stderr together
     (stderr as written, stdout when it flushes: at exit when it is a pipe), line by line.
     Trailing blanks and trailing empty lines do not count.  To show one stream only, say so
     in the command (`2>/dev/null`, `2>&1 >/dev/null`).
   - Volatile parts are wildcards: a line that is exactly `...` matches any number of lines
     (none too), and `...` inside a line matches any text within that one line.  Use them for
     timings, absolute paths and lines that are not the point; never for the figure the text
     is about.
   - The command must exit 0, or N when its line ends with the shell comment `# exit N`.
   - The blocks of one file form one session, top to bottom, in a scratch directory that
     stands for the repository root: every top-level entry of the source tree is a link in it
     (`examples/`, `test/`, ...), `build` is the build tree, and `spirv-bitcast` is on PATH
     (the build's).  Files written by one block are there for the next; `cd` and `export`
     carry over to the next command.  Write outputs into the scratch directory (relative
     paths), never into a linked source folder.
   - The sessions were recorded on Debian 12: LLVM 15 and SPIRV-Tools 2023.1.  On another
     release (--llvm N, the build's LLVM: 19 on Debian 13, with SPIRV-Tools 2025.1) a command
     naming an LLVM tool of version 15 (`clang-15`, `llvm-spirv-15`, ...) runs that tool of
     version N, the release's own, and its output is compared as written.  Output that holds
     for one version only says so at the end of its command line: `# with SPIRV-Tools 2023.1`
     or `# with LLVM 15` (after `# exit N`, comma-separated, where both are there).  Such a
     command runs on every toolchain (a later command may need its files), but where the
     version differs it is not compared: the checker names it, with what it printed there.

2. A block that is shown but not run says so, visibly, on the line right above its fence:

       <!-- doc-check: skip REASON -->

   REASON says why it is not run (installs packages, needs root or a GPU, a C fragment that
   does not compile alone, a synopsis, a job for another CI system) and, where one exists,
   which test runs it instead.

3. A block that is a file of the tree, byte for byte:

       <!-- doc-check: file PATH -->

   (PATH from the repository root; the checker compares the two.)

4. A map of the tree (a layout), not run, that must name every folder of the folders given
   (`.` is the repository root; hidden folders and build trees do not count):

       <!-- doc-check: folders . test -->

Besides the blocks, every reference must resolve: a relative link target must exist, and an
inline-code or code-block word that looks like a path whose first part is a top-level entry
of the tree (`test/...`, `.ci/...`, a hidden folder) must name an existing file or folder
(`{a,b}` is expanded, `*` must match something, a C module may be named without `.c`/`.h`;
words with `<`, `$` or `%` are placeholders; `build/...` is looked up in the build tree given,
wherever it lies, so name there only what every release's build and fixtures make: not a file
that one release's fetch writes), and a test named as ctest `NAME` must be a test of
the build (`*` matches any part of a name; a group the build leaves out, such as `layer.` without
the Vulkan headers, is not checked).
Throughout the tree, comments and documents cite public specifications or files of the tree,
never a private document or a numbered issue of an unpublished tracker: say why, not which
issue.

A figure that a test or the benchmark produces names that test or command next to it; where
the command is quick, show it as a console block so this checker keeps the figure true.

Failure messages name the file and line of the command and of the first expected line that
did not match, with what was expected and what came instead, then the whole output.  To check
one document by hand (-v prints each command as it runs):

    python3 test/docs/doccheck.py --source . --build build --work /tmp/doccheck \\
        --tool spirv-bitcast=build/source/spirv-bitcast -v docs/rules.md
"""

import argparse
import glob
import os
import shutil
import sys

from doccheck_parse import Failures, parse_markdown
from doccheck_refs import check_references, check_tree, ctest_names
from doccheck_run import (RECORDED, Session, check_console, check_file_block,
                          check_folders_block, toolchain)


def check(source, build, work, tools, files, verbose=False, tree=True, tools_versions=None):
    failures = Failures()
    tools_versions = tools_versions or toolchain()
    source = os.path.abspath(source)
    marker = os.path.join(work, ".doccheck-work")
    if os.path.exists(work) and os.listdir(work) and not os.path.exists(marker):
        failures.add(work, "--work names a folder that is not empty and not the doc-check's own")
        return failures, {"run": 0, "skip": 0, "file": 0}
    if os.path.exists(work):
        shutil.rmtree(work)
    os.makedirs(work)
    open(marker, "w").close()
    counts = {"run": 0, "skip": 0, "file": 0}
    tests = ctest_names(os.path.abspath(build))
    for path in files:
        rel = os.path.relpath(path, source)
        with open(path, encoding="utf-8") as f:
            text = f.read()
        blocks = parse_markdown(path, rel, text, failures)
        check_references(path, rel, text, blocks, source, failures, tests,
                         os.path.abspath(build))
        session = None
        for b in blocks:
            kind, arg = b.directive or (None, None)
            where = "%s:%d" % (rel, b.line)
            if kind == "skip":
                if not arg:
                    failures.add(where, "doc-check: skip needs a reason")
                counts["skip"] += 1
            elif kind == "file":
                check_file_block(b, rel, source, arg, failures)
                counts["file"] += 1
            elif kind == "folders":
                check_folders_block(b, rel, source, arg, failures)
                counts["skip"] += 1
            elif kind is not None:
                failures.add(where, "unknown directive doc-check: %s (skip, file, folders)" % kind)
            elif b.lang == "console":
                if session is None:
                    session = Session(os.path.join(work, rel.replace("/", "_")), source,
                                      os.path.abspath(build), tools, tools_versions)
                check_console(session, b, rel, failures, verbose)
                counts["run"] += 1
            else:
                failures.add(where, "```%s block: mark it ```console to run it, or put "
                             "<!-- doc-check: skip REASON --> or <!-- doc-check: file PATH --> "
                             "on the line above its fence" % b.lang)
    if tree:
        check_tree(source, failures, {os.path.realpath(__file__)})
    return failures, counts


def default_files(source):
    return [os.path.join(source, "README.md")] + sorted(glob.glob(os.path.join(source, "docs",
                                                                               "*.md")))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--source")
    ap.add_argument("--build")
    ap.add_argument("--work")
    ap.add_argument("--tool", action="append", default=[], metavar="NAME=PATH")
    ap.add_argument("--selftest", action="store_true")
    ap.add_argument("--skip", metavar="REASON", help="exit 77 with SKIP: REASON (for builds "
                    "configured unlike the documents)")
    ap.add_argument("--requires", action="append", default=[], metavar="WHAT=1|0",
                    help="a part of the build the documents show; 0: exit 77, SKIP")
    ap.add_argument("--llvm", metavar="N", help="the LLVM major version of the build's tools "
                    "(default %s, that of the recordings)" % RECORDED["LLVM"])
    ap.add_argument("-v", "--verbose", action="store_true")
    ap.add_argument("files", nargs="*")
    a = ap.parse_args()
    if a.selftest:
        from doccheck_selftest import selftest
        return selftest(check)
    if a.skip:
        print("SKIP: " + a.skip)
        return 77
    missing = [w for w, _, v in (r.rpartition("=") for r in a.requires) if v != "1"]
    if missing:
        print("SKIP: the documents show a build with %s; this build has none" % ", ".join(missing))
        return 77
    if not (a.source and a.build and a.work):
        ap.error("--source, --build and --work are needed")
    tools = {}
    for t in a.tool:
        name, _, target = t.partition("=")
        if not os.path.exists(target):
            print("doccheck: --tool %s: %s does not exist" % (name, target))
            return 1
        tools[name] = os.path.abspath(target)
    files = [os.path.abspath(f) for f in a.files] or default_files(os.path.abspath(a.source))
    versions = toolchain(a.llvm)
    failures, counts = check(a.source, a.build, a.work, tools, files, a.verbose,
                             tools_versions=versions)
    print("doccheck: toolchain LLVM %s, SPIRV-Tools %s (the sessions show LLVM %s, SPIRV-Tools %s)"
          % (versions["LLVM"], versions["SPIRV-Tools"] or "not found", RECORDED["LLVM"],
             RECORDED["SPIRV-Tools"]))
    for item in failures.notes:
        print("NOTE " + item)
    for item in failures.items:
        print("FAIL " + item)
    print("doccheck: %d file(s), %d block(s) run, %d shown only, %d compared with a file: %s" % (
        len(files), counts["run"], counts["skip"], counts["file"],
        "%d failure(s)" % len(failures.items) if failures.items else "ok"))
    return 1 if failures.items else 0


if __name__ == "__main__":
    sys.exit(main())
