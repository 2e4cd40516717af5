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
words with `<`, `$` or `%` are placeholders), and a test named as ctest `NAME` must be a test of
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
import difflib
import fnmatch
import glob
import os
import re
import shutil
import subprocess
import sys
import tempfile

FENCE = re.compile(r"^( {0,3})(`{3,}|~{3,})\s*([^\s`]*)(.*)$")
DIRECTIVE = re.compile(r"^\s*<!--\s*doc-check:\s*(\w+)\s*(.*?)\s*-->\s*$")
LIST_ITEM = re.compile(r"^(\s*)([-*+]|\d+[.)])(\s+)")
EXIT_COMMENT = re.compile(r"#\s*exit\s+(\d+)\s*$")
INLINE_CODE = re.compile(r"(`+)(.+?)\1")
LINK = re.compile(r"\]\(([^)\s]+)\)")
CTEST_NAME = re.compile(r"\bctest `([^`\s]+)`")
PATH_WORD = re.compile(r"^[A-Za-z0-9_.][A-Za-z0-9_.+{},*\-]*(/[A-Za-z0-9_.+{},*\-]*)+$")
# Assembled so that this file does not match itself.
PRIVATE_DOC = re.compile("shared" + r"/docs|\.\./" + "shared" + r"\b|" + "bitcast" + r"-rules\.md")
ISSUE_NUMBER = re.compile(r"\b[Ii]ssues? [0-9]+")
TREE_DIRS = ["source", "include", "layer", "test", "bench", "cmake", "docs", "examples",
             "debian", "external", ".ci"]
TREE_FILES = ["README.md", "CMakeLists.txt", "meson.build"]
COMMAND_TIMEOUT = 300


class Failures:
    def __init__(self):
        self.items = []

    def add(self, where, text):
        self.items.append("%s: %s" % (where, text))


# ---- parsing ---------------------------------------------------------------------------------

class Block:
    def __init__(self, path, line, lang, directive, body, body_line):
        self.path, self.line, self.lang = path, line, lang
        self.directive = directive  # (kind, argument) or None
        self.body = body            # list of lines, without newlines
        self.body_line = body_line  # line number of body[0]


def parse_markdown(path, rel, text, failures):
    """Fenced blocks of `text` (file `rel`); indented code blocks are reported as failures."""
    lines = text.split("\n")
    blocks = []
    i = 0
    prev_blank = True
    list_indent = None  # content indent of the list item we are in, or None
    while i < len(lines):
        line = lines[i]
        m = FENCE.match(line)
        if m:
            fence, lang = m.group(2), m.group(3).lower()
            directive = None
            if i > 0:
                d = DIRECTIVE.match(lines[i - 1])
                if d:
                    directive = (d.group(1), d.group(2))
            j = i + 1
            close = re.compile(r"^ {0,3}" + re.escape(fence[0]) + "{%d,}\\s*$" % len(fence))
            while j < len(lines) and not close.match(lines[j]):
                j += 1
            if j == len(lines):
                failures.add("%s:%d" % (rel, i + 1), "code fence is never closed")
            indent = len(m.group(1))
            body = [l[indent:] if l[:indent].strip() == "" else l for l in lines[i + 1:j]]
            blocks.append(Block(path, i + 1, lang, directive, body, i + 2))
            i = j + 1
            prev_blank = False
            continue
        stripped = line.strip()
        if stripped == "":
            prev_blank = True
            i += 1
            continue
        indent = len(line) - len(line.lstrip(" "))
        item = LIST_ITEM.match(line)
        if item and indent < (list_indent or 0) + 4:
            list_indent = len(item.group(0))
        elif indent == 0:
            list_indent = None
        elif prev_blank and indent >= (list_indent if list_indent is not None else 0) + 4:
            failures.add("%s:%d" % (rel, i + 1),
                         "indented code block: fence it (```console to run it, or a "
                         "<!-- doc-check: skip REASON --> line above a fenced block)")
            while i < len(lines) and (lines[i].strip() == "" or
                                      len(lines[i]) - len(lines[i].lstrip(" ")) >= indent):
                i += 1
            prev_blank = False
            continue
        prev_blank = False
        i += 1
    return blocks


class Command:
    def __init__(self, line, text, status, expected, expected_line):
        self.line, self.text, self.status = line, text, status
        self.expected, self.expected_line = expected, expected_line


def parse_console(block, rel, failures):
    commands = []
    cur = None
    k = 0
    body = block.body
    while k < len(body):
        line = body[k]
        lineno = block.body_line + k
        if line.startswith("$ ") or line == "$":
            text = [line[2:]]
            k += 1
            while k < len(body) and (body[k].startswith("> ") or body[k] == ">"):
                text.append(body[k][2:])
                k += 1
            status = 0
            m = EXIT_COMMENT.search(text[-1])
            if m:
                status = int(m.group(1))
            cur = Command(lineno, "\n".join(text), status, [], block.body_line + k)
            commands.append(cur)
            continue
        if cur is None:
            failures.add("%s:%d" % (rel, lineno),
                         "a ```console block starts with a `$ ` command line")
            return []
        cur.expected.append(line)
        k += 1
    return commands


# ---- matching --------------------------------------------------------------------------------

def line_regex(pattern):
    parts = pattern.split("...")
    return re.compile(".*?".join(re.escape(p) for p in parts) + r"\Z", re.S)


def trim(lines):
    lines = [l.rstrip() for l in lines]
    while lines and lines[-1] == "":
        lines.pop()
    return lines


def match_output(expected, got):
    """None when `got` matches `expected`; else (expected index, got index): the first expected
    line that no match got past, and the output line most like it where a match could reach."""
    pats = [None if e == "..." else line_regex(e) for e in expected]
    reached = {}  # furthest expected index -> output indexes where a match stood there
    memo = {}

    def go(i, j):
        key = (i, j)
        if key in memo:
            return memo[key]
        reached.setdefault(i, set()).add(j)
        if i == len(pats):
            ok = j == len(got)
        elif pats[i] is None:
            ok = any(go(i + 1, jj) for jj in range(j, len(got) + 1))
        else:
            ok = j < len(got) and pats[i].match(got[j]) is not None and go(i + 1, j + 1)
        memo[key] = ok
        return ok

    sys.setrecursionlimit(max(10000, 4 * (len(pats) + len(got)) + 1000))
    if go(0, 0):
        return None
    i = max(reached)
    js = sorted(reached[i])
    while i < len(pats) and pats[i] is None:
        i += 1
    if i == len(pats):
        return (i, js[0])
    cands = [j for j in js if j < len(got)]
    if not cands:
        return (i, len(got))
    text = expected[i]
    return (i, max(cands, key=lambda j: (difflib.SequenceMatcher(None, text, got[j]).ratio(),
                                         -j)))


# ---- running ---------------------------------------------------------------------------------

class Session:
    """A scratch directory standing for the repository root, and the shell state carried from
    one command to the next (working directory and exported variables)."""

    def __init__(self, root, source, build, tools):
        self.root = root
        os.makedirs(root)
        for name in sorted(os.listdir(source)):
            if name in (".git",) or name.startswith("build"):
                continue
            os.symlink(os.path.join(source, name), os.path.join(root, name))
        os.symlink(build, os.path.join(root, "build"))
        self.bin = os.path.join(root, ".doccheck-bin")
        os.makedirs(self.bin)
        for name, target in tools.items():
            os.symlink(target, os.path.join(self.bin, name))
        self.state = os.path.join(root, ".doccheck-state")
        with open(self.state, "w") as f:
            f.write("export PATH=%s\ncd %s\n" % (sh_quote(self.bin + ":" + os.environ.get(
                "PATH", "/usr/bin:/bin")), sh_quote(root)))

    def run(self, command):
        script = ("source %s || exit 125\n%s\n__doccheck_status=$?\n"
                  "{ export -p; echo \"cd $(printf %%q \"$PWD\")\"; } > %s.new && "
                  "mv %s.new %s\nexit $__doccheck_status\n"
                  % (sh_quote(self.state), command, sh_quote(self.state),
                     sh_quote(self.state), sh_quote(self.state)))
        env = dict(os.environ, LC_ALL="C", LANG="C")
        try:
            p = subprocess.run(["bash", "--noprofile", "--norc", "-c", script], cwd=self.root,
                               env=env, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                               stderr=subprocess.STDOUT, timeout=COMMAND_TIMEOUT)
        except subprocess.TimeoutExpired as e:
            out = (e.stdout or b"").decode("utf-8", "replace")
            return None, out
        return p.returncode, p.stdout.decode("utf-8", "replace")


def sh_quote(s):
    return "'" + s.replace("'", "'\\''") + "'"


def check_console(session, block, rel, failures, verbose):
    for cmd in parse_console(block, rel, failures):
        where = "%s:%d" % (rel, cmd.line)
        if verbose:
            print("%s: $ %s" % (where, cmd.text.replace("\n", "\n> ")), flush=True)
        status, out = session.run(cmd.text)
        got = trim(out.split("\n"))
        expected = trim(cmd.expected)
        problems = []
        if status is None:
            problems.append("timed out after %d s" % COMMAND_TIMEOUT)
        elif status != cmd.status:
            problems.append("exit status %d, expected %d%s" % (
                status, cmd.status,
                "" if status == 0 else " (if that is what it does, end the command line "
                "with `# exit %d`)" % status))
        miss = match_output(expected, got)
        if miss is not None:
            i, j = miss
            if i < len(expected):
                want = "%s:%d: %s" % (rel, cmd.expected_line + i, expected[i])
            elif expected:
                want = "%s:%d: the end of the output" % (rel, cmd.expected_line + len(expected))
            else:
                want = "%s:%d: no output" % (rel, cmd.expected_line)
            have = ("output line %d: %s" % (j + 1, got[j])) if j < len(got) else \
                "the end of the output"
            problems.append("output differs\n    expected %s\n    got      %s" % (want, have))
            diff = difflib.unified_diff(expected, got, "expected (%s:%d)" % (
                rel, cmd.expected_line), "got", lineterm="", n=2)
            problems.append("diff (wildcards shown as written):\n      " +
                            "\n      ".join(diff))
        if problems:
            failures.add(where, "$ %s\n  %s\n  whole output:\n      %s" % (
                cmd.text.replace("\n", "\n  > "), "\n  ".join(problems),
                "\n      ".join(got) if got else "(none)"))


def check_folders_block(block, rel, source, arg, failures):
    text = "\n".join(block.body)
    for d in arg.split():
        base = os.path.join(source, d)
        if not os.path.isdir(base):
            failures.add("%s:%d" % (rel, block.line), "doc-check: folders %s: no such folder" % d)
            continue
        for name in sorted(os.listdir(base)):
            if (name.startswith(".") or name.startswith("build") or name == "__pycache__" or
                    not os.path.isdir(os.path.join(base, name))):
                continue
            if not re.search(r"(?<![\w.-])" + re.escape(name) + r"(?![\w.-])", text):
                failures.add("%s:%d" % (rel, block.line), "the layout does not name %s" % (
                    os.path.normpath(os.path.join(d, name)) + "/"))


def check_file_block(block, rel, source, arg, failures):
    path = os.path.join(source, arg)
    where = "%s:%d" % (rel, block.line)
    try:
        with open(path, encoding="utf-8") as f:
            want = f.read()
    except OSError as e:
        failures.add(where, "doc-check: file %s: %s" % (arg, e.strerror))
        return
    have = "\n".join(block.body) + "\n"
    if have != want:
        diff = difflib.unified_diff(want.split("\n"), have.split("\n"), arg,
                                    "%s:%d" % (rel, block.body_line), lineterm="", n=1)
        failures.add(where, "the block differs from %s; copy the file into the document:\n  %s"
                     % (arg, "\n  ".join(list(diff)[:40])))


# ---- references ------------------------------------------------------------------------------

def expand_braces(word):
    m = re.search(r"\{([^{}]*)\}", word)
    if not m:
        return [word]
    out = []
    for alt in m.group(1).split(","):
        out += expand_braces(word[:m.start()] + alt + word[m.end():])
    return out


def check_path_word(word, source, top, where, failures):
    word = word.strip("()[],;:'\"")
    if word.endswith("."):
        word = word[:-1]
    if not PATH_WORD.match(word) or any(c in word for c in "<>$%="):
        return
    first = word.split("/")[0]
    if first in (".", "..", "...") or not (first in top or first.startswith(".")):
        return
    for w in expand_braces(word):
        p = os.path.join(source, w)
        if "*" in w:
            if not glob.glob(p):
                failures.add(where, "`%s` matches nothing in the tree" % w)
        elif not os.path.exists(p) and not glob.glob(p + ".[ch]"):
            failures.add(where, "`%s` does not exist in the tree" % w)


def ctest_names(build):
    """The tests ctest knows in `build`, or None when it has none (no test tree)."""
    if not os.path.exists(os.path.join(build, "CTestTestfile.cmake")):
        return None
    try:
        p = subprocess.run(["ctest", "--test-dir", build, "-N"], stdout=subprocess.PIPE,
                           stderr=subprocess.DEVNULL, timeout=120)
    except (OSError, subprocess.TimeoutExpired):
        return None
    return set(re.findall(r"Test\s+#\d+: (\S+)", p.stdout.decode("utf-8", "replace")))


def check_references(path, rel, text, blocks, source, failures, tests=None):
    top = set(os.listdir(source))
    in_block = set()
    for b in blocks:
        in_block.update(range(b.line, b.body_line + len(b.body) + 1))
        for k, line in enumerate(b.body):
            if b.lang in ("c", "yaml", "console"):
                continue  # a console block is run: its paths are checked by running
            for w in line.split():
                check_path_word(w, source, top, "%s:%d" % (rel, b.body_line + k), failures)
    for n, line in enumerate(text.split("\n"), 1):
        if n in in_block:
            continue
        for m in INLINE_CODE.finditer(line):
            for w in m.group(2).split():
                check_path_word(w, source, top, "%s:%d" % (rel, n), failures)
        for m in CTEST_NAME.finditer(line) if tests is not None else ():
            group = m.group(1).split(".")[0]
            if not any(t.split(".")[0] == group for t in tests):
                continue  # a part this build leaves out (no Vulkan headers, say)
            if not any(fnmatch.fnmatchcase(t, m.group(1)) for t in tests):
                failures.add("%s:%d" % (rel, n), "ctest `%s` is no test of this build" % m.group(1))
        for m in LINK.finditer(line):
            target = m.group(1).split("#")[0]
            if not target or re.match(r"^[a-z][a-z0-9+.-]*:", target):
                continue
            if not os.path.exists(os.path.join(os.path.dirname(path), target)):
                failures.add("%s:%d" % (rel, n), "link target %s does not exist" % target)


def check_tree(source, failures, skip):
    """Every reference resolves inside the tree or to a public specification."""
    paths = [os.path.join(source, f) for f in TREE_FILES]
    for d in TREE_DIRS:
        for dirpath, dirnames, filenames in os.walk(os.path.join(source, d)):
            dirnames[:] = [x for x in dirnames if not x.startswith(".") and x != "__pycache__"]
            paths += [os.path.join(dirpath, f) for f in filenames]
    for p in sorted(paths):
        if os.path.realpath(p) in skip or not os.path.isfile(p):
            continue
        try:
            with open(p, encoding="utf-8") as f:
                text = f.read()
        except (OSError, UnicodeDecodeError):
            continue
        rel = os.path.relpath(p, source)
        for n, line in enumerate(text.split("\n"), 1):
            if PRIVATE_DOC.search(line):
                failures.add("%s:%d" % (rel, n), "cites a document outside the tree; cite "
                             "docs/rules.md or the public specification instead")
            m = ISSUE_NUMBER.search(line)
            if m:
                failures.add("%s:%d" % (rel, n), "'%s' refers to an unpublished tracker: say "
                             "why, not which issue" % m.group(0))


# ---- main ------------------------------------------------------------------------------------

def check(source, build, work, tools, files, verbose=False, tree=True):
    failures = Failures()
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
        check_references(path, rel, text, blocks, source, failures, tests)
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
                                      os.path.abspath(build), tools)
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


def selftest():
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
$ cat sub/f.txt
two
```

<!-- doc-check: skip a synopsis -->
```sh
frob [--x]
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

        def run(name, text):
            path = os.path.join(src, "t.md")
            with open(path, "w") as f:
                f.write(text)
            return check(src, build, os.path.join(src, "work"), {}, [path], tree=False)[0]

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
        rf = Failures()
        text = "ctest `unit.rules` and ctest `exec.*` and ctest `unit.gone`\n"
        check_references(os.path.join(src, "t.md"), "t.md", text, [], src, rf,
                         {"unit.rules", "exec.pairs"})
        if len(rf.items) != 1:
            ok = False
            print("selftest: test names: %d failures instead of 1" % len(rf.items))
        else:
            print("selftest: unknown test name caught: %s" % rf.items[0])
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
    ap.add_argument("-v", "--verbose", action="store_true")
    ap.add_argument("files", nargs="*")
    a = ap.parse_args()
    if a.selftest:
        return selftest()
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
    failures, counts = check(a.source, a.build, a.work, tools, files, a.verbose)
    for item in failures.items:
        print("FAIL " + item)
    print("doccheck: %d file(s), %d block(s) run, %d shown only, %d compared with a file: %s" % (
        len(files), counts["run"], counts["skip"], counts["file"],
        "%d failure(s)" % len(failures.items) if failures.items else "ok"))
    return 1 if failures.items else 0


if __name__ == "__main__":
    sys.exit(main())
