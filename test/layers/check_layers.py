#!/usr/bin/env python3
"""Checks that the library's floors only point down (docs/architecture.md).

Every C file and header of source/ (not source/tools/, the CLI over the public API) belongs to
one floor of FLOORS.  A function defined in one file may be called from another only when the
caller's floor is higher: no file calls a function defined in a file on its own floor or above
it, so no two files call each other.  Exit 0 when the tree follows that, 1 with one line per
offending call (or per file that belongs to no floor), 2 on a usage error.

  check_layers.py SOURCE_DIR           check
  check_layers.py --dot SOURCE_DIR     print the floors and their calls as Graphviz dot
                                       (docs/architecture.dot is this output)
"""
import os
import re
import sys

# Bottom first.  A file's floor is its position in this list.
FLOORS = [
    ("data", ["base.h", "abi.h", "module.h", "decimal.h"]),  # set-up, public structs, module data, digits
    ("rules", ["rules.h", "rules.c", "plan.c", "opcode.c"]),  # pure: no I/O, no allocation, no context
    ("context", ["context.h", "context.c"]),  # allocator, spares, live list, finding store
    ("modmem", ["modmem.h", "modmem.c"]),  # a module's memory: made, output reset, released
    ("types", ["types.h", "types.c"]),  # id and type table
    ("reader", ["reader.c", "scan.c"]),  # words to instructions, ids, types and sites; the pre-parse scan
    ("analysis", ["analysis.h", "analysis.c"]),  # the facts of one site
    ("sentence", ["sentence.h", "sentence.c"]),  # a diagnostic's texts from a record and a site
    ("report", ["report.h", "report.c"]),  # records in, diagnostics out
    ("passes", ["validate.c", "lower.c", "writer.c"]),  # side by side: never call each other
    ("lifetime", ["lifetime.c"]),  # public lifetime: destroy makes the diagnostics, then frees
]
# Headers with no .c of their own (drawn dashed).
DATA = set(FLOORS[0][1])

KEYWORDS = {"if", "for", "while", "switch", "return", "sizeof", "do", "else", "case",
            "_Alignof", "_Static_assert", "defined", "__attribute__", "va_arg", "offsetof"}


def strip(text):
    """Blanks comments, string and character literals and preprocessor lines, keeping lines."""
    out, i, n = [], 0, len(text)
    while i < n:
        c = text[i]
        if text.startswith("/*", i):
            j = text.find("*/", i + 2)
            j = n if j < 0 else j + 2
            out.append(re.sub(r"[^\n]", " ", text[i:j]))
            i = j
        elif text.startswith("//", i):
            j = text.find("\n", i)
            j = n if j < 0 else j
            out.append(" " * (j - i))
            i = j
        elif c in "\"'":
            j = i + 1
            while j < n and text[j] != c:
                j += 2 if text[j] == "\\" else 1
            out.append(c + " " * (min(j, n) - i - 1) + c)
            i = j + 1
        elif c == "#" and (i == 0 or text[i - 1] == "\n"):
            j = i
            while True:  # a directive with its continuation lines
                k = text.find("\n", j)
                if k < 0:
                    k = n
                    break
                if text[k - 1] != "\\":
                    break
                j = k + 1
            out.append(re.sub(r"[^\n]", " ", text[i:k]))
            i = k
        else:
            out.append(c)
            i += 1
    return "".join(out)


def scan(path):
    """Returns (definitions, calls): the non-static functions a file defines (static inline ones
    of headers count), and (line, name) for every call inside a function body."""
    text = strip(open(path, encoding="utf-8").read())
    is_header = path.endswith(".h")
    defs, calls = set(), []
    depth = 0
    for m in re.finditer(r"[{}]|\b([A-Za-z_]\w*)\s*\(", text):
        tok = m.group(0)
        if tok == "{":
            depth += 1
            continue
        if tok == "}":
            depth -= 1
            continue
        name = m.group(1)
        if name in KEYWORDS:
            continue
        line = text.count("\n", 0, m.start()) + 1
        if depth > 0:
            calls.append((line, name))
            continue
        # At file level: a definition when the parameter list is followed by a body.
        close = matching_paren(text, m.end() - 1)
        if close < 0:
            continue
        rest = text[close + 1:close + 200].lstrip()
        if not rest.startswith("{"):
            continue
        start = text.rfind("\n", 0, m.start()) + 1
        head = text[start:m.start()]
        if re.search(r"\bstatic\b", head) and not (is_header and "inline" in head):
            continue
        defs.add(name)
    return defs, calls


def matching_paren(text, open_at):
    depth = 0
    for i in range(open_at, len(text)):
        if text[i] == "(":
            depth += 1
        elif text[i] == ")":
            depth -= 1
            if depth == 0:
                return i
    return -1


def calls_between(source_dir):
    """{(caller file, callee file): number of call sites} over the files on the floors."""
    scanned = {}
    for _, files in FLOORS:
        for f in files:
            path = os.path.join(source_dir, f)
            if os.path.exists(path):
                scanned[f] = scan(path)
    where = {}
    for f, (defs, _) in scanned.items():
        for d in defs:
            where.setdefault(d, f)
    edges = {}
    for f, (_, calls) in scanned.items():
        for _, name in calls:
            g = where.get(name)
            if g and g != f:
                edges[(f, g)] = edges.get((f, g), 0) + 1
    return edges


def dot(source_dir):
    """The floors, bottom last, with one arrow per pair of files that call each other down."""
    edges = calls_between(source_dir)
    out = ["// Generated by test/layers/check_layers.py --dot source; do not edit.",
           "// Render: dot -Tsvg docs/architecture.dot -o docs/architecture.svg",
           "digraph floors {",
           "  rankdir=TB; newrank=true; node [shape=box, fontname=\"Helvetica\", fontsize=10];",
           "  edge [color=gray40, arrowsize=0.6];"]
    for level in range(len(FLOORS) - 1, -1, -1):
        name, files = FLOORS[level]
        out.append(f"  subgraph cluster_{level} {{ label=\"{level}: {name}\"; "
                   "fontname=\"Helvetica\"; fontsize=10; style=rounded; rank=same;")
        for f in files:
            if os.path.exists(os.path.join(source_dir, f)) and not f.endswith(".h"):
                out.append(f"    \"{f}\";")
            elif f in DATA:
                out.append(f"    \"{f}\" [style=dashed];")
        out.append("  }")
    # invisible edges stack the floors in order, top to bottom
    firsts = [next(f for f in files if not f.endswith(".h") or f == "module.h")
              for _, files in FLOORS]
    for level in range(len(firsts) - 1, 0, -1):
        out.append(f"  \"{firsts[level]}\" -> \"{firsts[level - 1]}\" [style=invis];")
    shown = set()
    for (f, g), n in sorted(edges.items()):
        f2 = f[:-2] + ".c" if f.endswith(".h") and f not in DATA else f
        g2 = g[:-2] + ".c" if g.endswith(".h") and g not in DATA else g
        if (f2, g2) in shown or f2 == g2:
            continue
        shown.add((f2, g2))
        out.append(f"  \"{f2}\" -> \"{g2}\";")
    out.append("}")
    return "\n".join(out) + "\n"


def check(source_dir):
    floor_of = {}
    for level, (_, files) in enumerate(FLOORS):
        for f in files:
            floor_of[f] = level
    problems = []
    files = sorted(f for f in os.listdir(source_dir) if f.endswith((".c", ".h")))
    scanned = {}
    for f in files:
        if f not in floor_of:
            problems.append(f"{f}: belongs to no floor (add it to FLOORS in {sys.argv[0]})")
            continue
        scanned[f] = scan(os.path.join(source_dir, f))
    where = {}
    for f, (defs, _) in scanned.items():
        for d in defs:
            where.setdefault(d, f)
    for f, (_, calls) in scanned.items():
        for line, name in calls:
            g = where.get(name)
            if g is None or g == f:
                continue
            if floor_of[g] >= floor_of[f]:
                fl, gl = FLOORS[floor_of[f]][0], FLOORS[floor_of[g]][0]
                how = "on its own floor" if fl == gl else "above it"
                problems.append(f"{f}:{line}: calls {name}() of {g}, {how} ({fl} -> {gl})")
    return problems


def main(argv):
    if len(argv) == 3 and argv[1] == "--dot" and os.path.isdir(argv[2]):
        sys.stdout.write(dot(argv[2]))
        return 0
    if len(argv) != 2 or not os.path.isdir(argv[1]):
        sys.stderr.write(__doc__)
        return 2
    problems = check(argv[1])
    for p in problems:
        print(p)
    if problems:
        print(f"check_layers: {len(problems)} problem(s): the floors must only point down")
        return 1
    print(f"check_layers: {sum(len(f) for _, f in FLOORS)} files on {len(FLOORS)} floors, "
          "every call points down")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
