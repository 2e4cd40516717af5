#!/usr/bin/env python3
"""One source of truth for the CLI's options (ctest cli.options).

For the top level (commands and general options), validate, lower, explain and opt, four lists
of spellings, aliases included, must be equal, each against each, in both directions:

  help        `spirv-bitcast --help` (`opt --help` for opt), section by section
  man         docs/man/spirv-bitcast.1.scd (for opt: what it names must be in `opt --help`,
              which the man page defers to)
  completion  what the bash completion offers (run through bash-completion)
  parser      the spellings the parser compares arguments with, read from source/tools/*.c
              (is_opt(), is_flag(), strcmp() and the command and flag tables)

Then every documented spelling is run: none may be a usage error (exit 2), and every long
option that takes a value must take it both as the next argument and after '='.  An unknown
option must still be a usage error (so the probes can fail).

  options_sync.py --cli CLI --man PAGE.scd --completion SCRIPT --source source/tools --work DIR

Exit status: 0 pass, 1 a mismatch, 77 bash-completion is missing (SKIPPED).
SPDX-License-Identifier: Apache-2.0
"""
import argparse
import os
import re
import shutil
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "support"))
from cli_sections import help_sections, man_sections, run  # noqa: E402

BASH_COMPLETION = "/usr/share/bash-completion/bash_completion"

problems = []


def problem(text):
    problems.append(text)
    print("FAIL: " + text)


def norm(tokens):
    """'--lower-astype=' and '--lower-astype' are one spelling."""
    return {t.rstrip("=") for t in tokens}


# ---- --help ------------------------------------------------------------------------------

def opt_pass_flags(text):
    """The spirv-opt pass flags `opt --help` names in its 'SPIRV-Tools passes' paragraph."""
    m = re.search(r"^SPIRV-Tools passes:.*?(?=^$)", text, flags=re.M | re.S)
    found = norm(re.findall(r"(?<![\w-])(-{1,2}[A-Za-z][\w-]*)", m.group(0))) if m else set()
    return found - {"--help"}  # "see `spirv-opt --help`"


def opt_help_options(text):
    """The spellings in the 'Our passes' and 'Options' blocks of `opt --help`."""
    found, block = set(), False
    for line in text.splitlines():
        if line.startswith("Our passes") or line.startswith("Options"):
            block = True
            continue
        if line and not line.startswith(" "):
            block = False
        if block:
            head = line.strip().split("  ")[0] if line.startswith("  -") else ""
            found |= set(re.findall(r"(?<![\w-])(-{1,2}[A-Za-z][\w-]*=?)", head))
    return norm(found)


# ---- the man page -------------------------------------------------------------------------

def man_opt_mentions(text):
    """The options the man page names in its `opt` entry."""
    m = re.search(r"^\*opt\*.*?(?=^\S)", text, flags=re.M | re.S)
    return norm(re.findall(r"\*(-{1,2}[A-Za-z][\w-]*)", m.group(0))) if m else set()


# ---- the completion -----------------------------------------------------------------------

def completion_words(script, line):
    """COMPREPLY of the completion for command `line` (ending where the cursor is)."""
    prog = r'''
. "$1"; . "$2"
compopt() { return 0; }
read -ra COMP_WORDS <<<"$3"
[[ $3 == *" " ]] && COMP_WORDS+=("")
COMP_CWORD=$((${#COMP_WORDS[@]} - 1)); COMP_LINE=$3; COMP_POINT=${#3}
_spirv_bitcast spirv-bitcast "${COMP_WORDS[COMP_CWORD]}" "${COMP_WORDS[COMP_CWORD - 1]}"
printf '%s\n' "${COMPREPLY[@]}"
'''
    p = run(["bash", "-c", prog, "complete", BASH_COMPLETION, script, line])
    return {w for w in p.stdout.split() if w}


# ---- the parser ---------------------------------------------------------------------------

def function_body(src, name):
    m = re.search(r"\b%s\([^)]*\)\s*\{" % re.escape(name), src)
    if not m:
        return ""
    depth, i = 1, m.end()
    while depth and i < len(src):
        depth += {"{": 1, "}": -1}.get(src[i], 0)
        i += 1
    return src[m.end():i]


def literals(code, pattern):
    return norm(re.findall(pattern, code))


def parser_spellings(source):
    def read(name):
        path = os.path.join(source, name)
        if not os.path.exists(path):
            problem("the parser: %s is missing" % path)
            return ""
        with open(path, encoding="utf-8") as f:
            return f.read()

    def table(src, name):
        m = re.search(r"%s\[\] = \{(.*?)\n\};" % name, src, flags=re.S)
        return m.group(1) if m else ""
    options, explain, main, opt = read("options.c"), read("explain.c"), read("main.c"), read(
        "opt_args.c")
    is_opt = r'is_opt\(p, "(-[^"]+)"'
    common = literals(function_body(options, "parse_common"), is_opt)
    opt_code = function_body(opt, "parse_word") + table(opt, "k_flags")
    return {
        "top": set(re.findall(r'^\s*\{"([^"]+)",', table(main, "k_commands"), flags=re.M)),
        "validate": common | literals(function_body(options, "parse_validate_option"), is_opt),
        "lower": common | literals(function_body(options, "parse_lower_option"), is_opt),
        "explain": literals(function_body(explain, "cli_cmd_explain"),
                            r'strn?cmp\(argv\[i\], "(-[^"]+)"'),
        "opt": literals(opt_code, r'(?:is_flag\(w, |strn?cmp\(w, |\{)"(-[^"]+)"') |
        literals(function_body(opt, "cli_opt_parse"), r'strncmp\(argv\[i\], "(-[^"]+)"'),
    }


# ---- the checks ---------------------------------------------------------------------------

def compare(scope, lists):
    """Every list of `lists` ({source: set}) equals every other."""
    names = list(lists)
    for a in names:
        for b in names:
            if a < b:
                for s in sorted(lists[a] - lists[b]):
                    problem("%s: %s is in the %s but not in the %s" % (scope, s, a, b))
                for s in sorted(lists[b] - lists[a]):
                    problem("%s: %s is in the %s but not in the %s" % (scope, s, b, a))
    print("%s: %s" % (scope, ", ".join("%s %d" % (n, len(lists[n])) for n in names)))


def probe(cli, work, scope, spellings, valued):
    """Runs each spelling of `scope`; none may be a usage error."""
    empty = os.path.join(work, "empty.spv")
    out = os.path.join(work, "out.spv")
    values = {"--target-env": "spv1.5", "--max-id-bound": "100000", "--generation": "2025.1",
              "-r": work, "--jobs": "2", "-j": "2", "--format": "json", "--pad": "zero", "--only": "4to3", "-o": out,
              "--suffix": ".x", "--out-dir": work}
    for s in sorted(spellings):
        forms = [[s]]
        if s in valued:
            forms = [[s, values[s]]] + ([[s + "=" + values[s]]] if s.startswith("--") else [])
        for form in forms:
            if scope == "explain":
                argv = [cli, "explain"] + form + ["float4", "float3"]
            else:
                argv = [cli, scope] + form + ([empty] if s != "-r" else [])
                if scope == "lower" and s not in ("-o", "--suffix", "--out-dir"):
                    argv += ["-o", out]
            p = run(argv, stdin=subprocess.DEVNULL)
            if p.returncode == 2:
                problem("'%s' is a usage error: %s" % (" ".join(argv[1:]),
                                                       p.stderr.strip().splitlines()[0]))
    p = run([cli, scope if scope != "top" else "validate", "--no-such-option", empty])
    if p.returncode != 2:
        problem("%s --no-such-option exited %d, not 2" % (scope, p.returncode))


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    for a in ("cli", "man", "completion", "source", "work"):
        ap.add_argument("--" + a, required=True)
    a = ap.parse_args()
    if shutil.which("bash") is None or not os.path.exists(BASH_COMPLETION):
        print("SKIP: %s not found (apt-get install bash-completion)" % BASH_COMPLETION)
        sys.exit(77)
    os.makedirs(a.work, exist_ok=True)
    open(os.path.join(a.work, "empty.spv"), "wb").close()

    p = run([a.cli, "--help"])
    helps, valued = help_sections(p.stdout)
    with open(a.man, encoding="utf-8") as f:
        man_text = f.read()
    man = man_sections(man_text)
    parser = parser_spellings(a.source)
    general = {"-h", "--help"}  # every command's help; --version is the top level's only

    doc_help = {
        "top": helps.get("Commands:", set()) | helps.get("General options:", set()),
        "validate": helps.get("Common options:", set()) | helps.get("validate options:", set()),
        "lower": helps.get("Common options:", set()) | helps.get("lower options:", set()),
        "explain": helps.get("explain options:", set()),
    }
    doc_man = {
        "top": man.get("COMMANDS", set()) | man.get("GENERAL OPTIONS", set()),
        "validate": man.get("COMMON OPTIONS", set()) | man.get("VALIDATE OPTIONS", set()),
        "lower": man.get("COMMON OPTIONS", set()) | man.get("LOWER OPTIONS", set()),
        "explain": man.get("EXPLAIN OPTIONS", set()),
    }
    for scope in ("top", "validate", "lower", "explain"):
        extra = general if scope != "top" else set()
        line = "spirv-bitcast " if scope == "top" else "spirv-bitcast %s -" % scope
        compare(scope, {"--help": doc_help[scope] | extra, "man page": doc_man[scope] | extra,
                        "completion": norm(completion_words(a.completion, line)),
                        "parser": parser[scope]})

    # opt: `opt --help` is its reference; the man page's mentions must be in it.
    # Its parser also looks at a few spirv-opt pass flags (--legalize-hlsl relaxes the
    # validator), and its completion offers -O and -Os: those must be in the paragraph of
    # spirv-opt's flags.
    opt_help = run([a.cli, "opt", "--help"]).stdout
    opt_doc, pass_flags = opt_help_options(opt_help), opt_pass_flags(opt_help)
    opt_completion = norm(completion_words(a.completion, "spirv-bitcast opt -"))
    if not {"-O", "-Os"} <= opt_completion & pass_flags:
        problem("opt: the completion does not offer -O and -Os, or opt --help does not name them")
    compare("opt", {"opt --help": opt_doc, "completion": opt_completion - pass_flags,
                    "parser": parser["opt"] - pass_flags})
    for s in sorted(man_opt_mentions(man_text) - opt_doc):
        problem("opt: the man page names %s, which opt --help does not list" % s)

    for scope in ("validate", "lower", "explain"):
        probe(a.cli, a.work, scope, doc_help[scope] | general, valued)
    for name in sorted(doc_help["top"]):
        argv = [a.cli, name] + (["--help"] if name in ("validate", "lower", "explain", "opt")
                                else [])
        if run(argv).returncode != 0:
            problem("'%s' does not exit 0" % " ".join(argv[1:]))
    if problems:
        sys.exit(1)
    print("man page, --help, completion and parser agree; every spelling is accepted")


if __name__ == "__main__":
    main()
