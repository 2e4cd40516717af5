"""What the CLI's documentation checks share (ctest cli.options, man.help_sync): the option
lists of `spirv-bitcast --help` and of the man page's scdoc source, section by section, and
running a command with its output captured as text.

Imported by test/batch/options_sync.py and test/package/man_tests.py, which put this folder on
sys.path.
SPDX-License-Identifier: Apache-2.0
"""
import re
import subprocess


def run(argv, **kw):
    """Runs `argv` with stdout and stderr captured as text; `kw` goes to subprocess.run."""
    return subprocess.run(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                          errors="replace", **kw)


def help_sections(text):
    """{'Commands:': {names}, 'Common options:': {spellings}, ...} of `--help` output, and the
    spellings that take a value ('--pad undef|zero|error': '--pad')."""
    sections, current, valued = {}, None, set()
    for line in text.splitlines():
        if line and not line.startswith(" "):
            current = line.strip() if line.strip().endswith(":") else None
            if current:
                sections.setdefault(current, set())
            continue
        if current is None or not re.match(r"^  \S", line):
            continue  # a continuation line (deeper indent) or outside a listed section
        head = re.split(r"\s{2,}", line.strip(), maxsplit=1)[0]
        if current == "Commands:":
            sections[current].add(head.split()[0])
            continue
        words = head.replace(",", " ").split()
        for i, w in enumerate(words):
            if w.startswith("-"):
                sections[current].add(w.split("=")[0])
                if i + 1 < len(words) and not words[i + 1].startswith("-"):
                    valued.add(w)
    return sections, valued


def man_sections(text):
    """{'COMMANDS': {...}, 'COMMON OPTIONS': {...}, ...} from the scdoc source: a definition
    line starts with *-option* (or *command* under COMMANDS); descriptions are indented."""
    sections, current = {}, None
    for line in text.splitlines():
        m = re.match(r"^# (.+)$", line)
        if m:
            current = m.group(1).strip()
            sections.setdefault(current, set())
            continue
        if current == "COMMANDS":
            m = re.match(r"^\*([a-z][a-z-]*)\*", line)
            if m:
                sections[current].add(m.group(1))
        elif current and line.startswith("*-"):
            sections[current] |= set(re.findall(r"\*(-[^*=\s]+)", line.split("\t")[0]))
    return sections
