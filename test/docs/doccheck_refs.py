"""doccheck_refs.py - doccheck.py's references: paths, links and ctest names in the documents
must resolve, and no file of the tree cites a private document or a numbered issue."""

import fnmatch
import glob
import os
import re
import subprocess

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


def expand_braces(word):
    m = re.search(r"\{([^{}]*)\}", word)
    if not m:
        return [word]
    out = []
    for alt in m.group(1).split(","):
        out += expand_braces(word[:m.start()] + alt + word[m.end():])
    return out


def check_path_word(word, source, top, where, failures, build=None):
    """`word`, when it looks like a path of the tree, must exist there; `build/...` names the
    build tree (`build`, the same wherever that tree lies: `./build` as the README makes it or
    elsewhere as CI does), and what the build makes must exist in it."""
    word = word.strip("()[],;:'\"")
    if word.endswith("."):
        word = word[:-1]
    if not PATH_WORD.match(word) or any(c in word for c in "<>$%="):
        return
    first = word.split("/")[0]
    base = source
    if first == "build" and build is not None:
        base, word = build, word[len("build/"):] or "."
    elif first in (".", "..", "...") or not (first in top or first.startswith(".")):
        return
    for w in expand_braces(word):
        p = os.path.join(base, w)
        w = "build/" + w if base is not source else w
        if "*" in w:
            if not glob.glob(p):
                failures.add(where, "`%s` matches nothing in the tree" % w)
        elif not os.path.exists(p) and not glob.glob(p + ".[ch]"):
            failures.add(where, "`%s` does not exist in the %s" % (
                w, "tree" if base is source else "build tree (%s)" % base))


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


def check_references(path, rel, text, blocks, source, failures, tests=None, build=None):
    top = set(os.listdir(source))
    in_block = set()
    for b in blocks:
        in_block.update(range(b.line, b.body_line + len(b.body) + 1))
        for k, line in enumerate(b.body):
            if b.lang in ("c", "yaml", "console"):
                continue  # a console block is run: its paths are checked by running
            for w in line.split():
                check_path_word(w, source, top, "%s:%d" % (rel, b.body_line + k), failures,
                                build)
    for n, line in enumerate(text.split("\n"), 1):
        if n in in_block:
            continue
        for m in INLINE_CODE.finditer(line):
            for w in m.group(2).split():
                check_path_word(w, source, top, "%s:%d" % (rel, n), failures, build)
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
