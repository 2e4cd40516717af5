#!/usr/bin/env python3
"""Single-point mutants of the library's C rooms, for test/mutation/run.sh.

  mutate.py list FILE...            every mutant, one per line: ID<TAB>FILE<TAB>LINE<TAB>OPERATOR<TAB>WAS -> NOW
  mutate.py sample N SEED FILE...   N of them drawn at random (seeded; all when N is 0 or more
                                    than there are), in the order of the full list
  mutate.py apply ID OUT FILE...    writes the mutated file of mutant ID to OUT
  mutate.py diff ID FILE...         the mutant as a unified diff

A mutant changes one token or one statement of one line of code, the way a developer's slip
would: a comparison flipped or loosened, an off-by-one literal, && for ||, + for -, a negation
dropped, the operands of a comparison or subtraction swapped, an if's condition made always
true or always false, a return of true/false inverted, an early return or statement dropped.
Comments, string and character literals and preprocessor lines are never touched.  IDs are
FILE:LINE:COLUMN:OPERATOR: stable while the line does not move.  Python 3 standard library only.
"""
import difflib
import os
import random
import re
import sys

IDENT = r"[A-Za-z_][A-Za-z0-9_]*"
# an operand simple enough to swap: a name with member accesses and indices, or a literal
OPERAND = r"(?:%s(?:(?:->|\.)%s|\[[^\[\]]*\])*|0x[0-9A-Fa-f]+u?|[0-9]+u?)" % (IDENT, IDENT)


def code_mask(text):
    """A copy of `text` with comments, string and character literals and preprocessor lines
    blanked out (same length and line breaks), so that operators are only found in code."""
    out = list(text)
    i, n = 0, len(text)
    line_start = True
    while i < n:
        c = text[i]
        if line_start and c in " \t":
            i += 1
            continue
        if line_start and c == "#":  # a preprocessor line, with its continuations
            j = i
            while j < n and not (text[j] == "\n" and text[j - 1] != "\\"):
                j += 1
            for k in range(i, j):
                if out[k] != "\n":
                    out[k] = " "
            i = j
            continue
        line_start = c == "\n"
        if text.startswith("/*", i):
            j = text.find("*/", i + 2)
            j = n if j < 0 else j + 2
            for k in range(i, j):
                if out[k] != "\n":
                    out[k] = " "
            i = j
            continue
        if text.startswith("//", i):
            j = text.find("\n", i)
            j = n if j < 0 else j
            for k in range(i, j):
                out[k] = " "
            i = j
            continue
        if c in "\"'":
            j = i + 1
            while j < n and text[j] != c:
                j += 2 if text[j] == "\\" else 1
            for k in range(i + 1, min(j, n)):
                out[k] = " "
            i = j + 1
            continue
        i += 1
    return "".join(out)


def _sub(kind, start, end, new):
    return (kind, start, end, new)


def line_mutants(code, line):
    """Candidate mutants of one line: (operator, start column, end column, replacement)
    over `code` (the masked line); `line` is the original text."""
    found = []
    # comparisons: flipped and loosened / tightened
    for m in re.finditer(r"(?<![<>=!&|+\-*/%^])(==|!=|<=|>=|<|>)(?![<>=])", code):
        op = m.group(1)
        if op in ("<", ">") and (code[m.start() - 1:m.start()] == "-" or code[m.end():m.end() + 1] == ">"):
            continue
        if op in ("<", ">") and re.search(r"(#include|\w+\s*<\s*\w+\s*>)", code[max(0, m.start() - 30):m.end() + 30]) and "(" not in code:
            continue
        alt = {"==": ["!="], "!=": ["=="], "<": ["<=", ">="], "<=": ["<", ">"],
               ">": [">=", "<="], ">=": [">", "<"]}[op]
        for a in alt:
            found.append(_sub("cmp", m.start(1), m.end(1), a))
    # logical operators
    for m in re.finditer(r"&&|\|\|", code):
        found.append(_sub("logic", m.start(), m.end(), "||" if m.group() == "&&" else "&&"))
    # arithmetic + and - (binary, not ++ / -- / += / -> / unary)
    for m in re.finditer(r"(?<=[\w)\]]) ([+\-]) (?=[\w(])", code):
        found.append(_sub("arith", m.start(1), m.end(1), "-" if m.group(1) == "+" else "+"))
    # integer literals off by one (not inside identifiers; not array sizes in declarations)
    for m in re.finditer(r"(?<![\w.])(0x[0-9A-Fa-f]+|[0-9]+)([uU]?[lL]{0,2})(?![\w.])", code):
        text = m.group(1)
        v = int(text, 16) if text.lower().startswith("0x") else int(text)
        suffix = m.group(2)
        for d in (1, -1):
            nv = v + d
            if nv < 0:
                continue
            new = (hex(nv) if text.lower().startswith("0x") else str(nv)) + suffix
            found.append(_sub("const%+d" % d, m.start(), m.end(), new))
    # a negation dropped: !x -> x (not !=)
    for m in re.finditer(r"!(?!=)", code):
        found.append(_sub("not", m.start(), m.end(), ""))
    # swapped operands of a comparison or a subtraction: a OP b -> b OP a
    for m in re.finditer(r"(?<![\w.>\]])(%s) (<=|>=|<|>|-) (%s)(?![\w(\[.]|->)" % (OPERAND, OPERAND), code):
        a, op, b = m.group(1), m.group(2), m.group(3)
        if a != b:
            found.append(_sub("swap", m.start(), m.end(), "%s %s %s" % (b, op, a)))
    # an if's condition always true / always false (when it closes on its line)
    for m in re.finditer(r"\bif \(", code):
        depth, j = 1, m.end()
        while j < len(code) and depth:
            depth += {"(": 1, ")": -1}.get(code[j], 0)
            j += 1
        if depth:
            continue
        cond = line[m.end():j - 1]
        found.append(_sub("if-true", m.end(), j - 1, "1 || (%s)" % cond))
        found.append(_sub("if-false", m.end(), j - 1, "0 && (%s)" % cond))
    # return true <-> false
    for m in re.finditer(r"\breturn (true|false);", code):
        found.append(_sub("ret-bool", m.start(1), m.end(1), "false" if m.group(1) == "true" else "true"))
    # an early return or a statement dropped: `if (...) return X;` -> `if (...) ;`,
    # and a lone `x = y;` / `x += y;` / `f(...);` statement line -> `;`
    m = re.search(r"\bif \(.*\) (return[^;]*;|continue;|break;)\s*$", code)
    if m:
        found.append(_sub("drop-return", m.start(1), m.end(1), ";"))
    # the left side: names joined by ->, . or an index, and one of those after the last name
    # allowed (the strings of a repeated group `name sep?`, which backtracks exponentially on a
    # long name: 7 s on one line of lower.c)
    sep = r"(?:->|\.|\[[^\]]*\])"
    lhs = r"%s(?:%s%s)*%s?" % (IDENT, sep, IDENT, sep)
    m = re.match(r"^(\s*)(%s *(?:[+\-|&]?=) [^;]*;|%s\([^;]*\);|\+\+%s;|%s(?:\+\+|--);)\s*$"
                 % (lhs, IDENT, IDENT, IDENT), code)
    if m and not re.match(r"^\s*(return|static|const|uint|int|size_t|bool|spvbc|struct|typedef)\b", code):
        found.append(_sub("drop-stmt", m.start(2), m.end(2), ";"))
    return found


def mutants(paths):
    out = []
    for path in paths:
        with open(path) as f:
            text = f.read()
        masked = code_mask(text).split("\n")
        lines = text.split("\n")
        for no, (code, line) in enumerate(zip(masked, lines), 1):
            if not code.strip():
                continue
            for kind, s, e, new in line_mutants(code, line):
                mutated = line[:s] + new + line[e:]
                if mutated == line:
                    continue
                mid = "%s:%d:%d:%s" % (path, no, s + 1, kind)
                out.append((mid, path, no, kind, line.strip(), mutated.strip(), s, e, new))
    seen = set()
    unique = []
    ids = {}
    for m in out:  # the same text reached twice (two operators) is one mutant
        key = (m[1], m[2], m[5])
        if key not in seen:
            seen.add(key)
            # two alternatives at one place (`>=` to `>` and to `<`) get their own IDs
            n = ids.get(m[0], 0)
            ids[m[0]] = n + 1
            unique.append(((m[0] + "." + str(n + 1)) if n else m[0],) + m[1:])
    return unique


def find(mid, paths):
    for m in mutants(paths):
        if m[0] == mid:
            return m
    sys.exit("mutate.py: no mutant %s" % mid)


def mutated_text(m):
    with open(m[1]) as f:
        lines = f.read().split("\n")
    line = lines[m[2] - 1]
    lines[m[2] - 1] = line[:m[6]] + m[8] + line[m[7]:]
    return "\n".join(lines)


def main(argv):
    if len(argv) < 2:
        sys.exit(__doc__)
    cmd = argv[1]
    if cmd in ("list", "sample"):
        if cmd == "sample":
            n, seed, paths = int(argv[2]), int(argv[3]), argv[4:]
        else:
            n, seed, paths = 0, 0, argv[2:]
        ms = mutants(paths)
        if 0 < n < len(ms):
            keep = set(random.Random(seed).sample(range(len(ms)), n))
            ms = [m for i, m in enumerate(ms) if i in keep]
        for m in ms:
            print("%s\t%s\t%d\t%s\t%s -> %s" % (m[0], m[1], m[2], m[3], m[4], m[5]))
    elif cmd == "apply":
        m = find(argv[2], argv[4:])
        with open(argv[3], "w") as f:
            f.write(mutated_text(m))
    elif cmd == "diff":
        m = find(argv[2], argv[3:])
        with open(m[1]) as f:
            before = f.read().split("\n")
        after = mutated_text(m).split("\n")
        sys.stdout.writelines(l + "\n" for l in difflib.unified_diff(
            before, after, "a/" + m[1], "b/" + m[1], n=1, lineterm=""))
    else:
        sys.exit(__doc__)


if __name__ == "__main__":
    main(sys.argv)
