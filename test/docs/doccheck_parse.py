"""doccheck_parse.py - doccheck.py's reading of a Markdown file: its fenced blocks, the
commands of a ```console block, and the matching of an output against the expected lines."""

import difflib
import re
import sys

FENCE = re.compile(r"^( {0,3})(`{3,}|~{3,})\s*([^\s`]*)(.*)$")
DIRECTIVE = re.compile(r"^\s*<!--\s*doc-check:\s*(\w+)\s*(.*?)\s*-->\s*$")
LIST_ITEM = re.compile(r"^(\s*)([-*+]|\d+[.)])(\s+)")
# The shell comment that may end a command line: `# exit N` (its exit status), `# with LLVM 15`
# or `# with SPIRV-Tools 2023.1` (its output holds for that version), comma-separated.
_REMARK = r"(?:exit\s+\d+|with\s+(?:LLVM|SPIRV-Tools)\s+[0-9][0-9.]*)"
TRAILER = re.compile(r"#\s*(" + _REMARK + r"(?:\s*,\s*" + _REMARK + r")*)\s*$")


class Failures:
    def __init__(self):
        self.items = []
        self.notes = []  # what was not compared, and why

    def note(self, where, text):
        self.notes.append("%s: %s" % (where, text))

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
    def __init__(self, line, text, status, expected, expected_line, recorded):
        self.line, self.text, self.status = line, text, status
        self.expected, self.expected_line = expected, expected_line
        self.recorded = recorded  # {"LLVM" or "SPIRV-Tools": the version its output holds for}


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
            recorded = {}
            m = TRAILER.search(text[-1])
            for remark in re.split(r"\s*,\s*", m.group(1)) if m else ():
                w = remark.split()
                if w[0] == "exit":
                    status = int(w[1])
                else:
                    recorded[w[1]] = w[2]
            cur = Command(lineno, "\n".join(text), status, [], block.body_line + k, recorded)
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
