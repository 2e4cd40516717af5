"""doccheck_run.py - doccheck.py's running: the scratch session a document's ```console
blocks run in, the comparison of each command's output, and the file and layout blocks."""

import difflib
import os
import re
import subprocess

from doccheck_parse import match_output, parse_console, trim

COMMAND_TIMEOUT = 300
# The toolchain the sessions were recorded with: Debian 12's.
RECORDED = {"LLVM": "15", "SPIRV-Tools": "2023.1"}
# A command's LLVM tool of the recorded version: clang-15, clang++-15, llvm-spirv-15, llvm-dis-15.
LLVM_TOOL = re.compile(r"(?<![\w.+-])(clang\+\+|clang|llvm(?:-[a-z]+)+)-%s(?![\w.])"
                       % RECORDED["LLVM"])


def spirv_tools_version():
    """The version of the SPIRV-Tools on PATH (`spirv-val --version`: "SPIRV-Tools v2025.1 ..."),
    or None."""
    try:
        p = subprocess.run(["spirv-val", "--version"], stdout=subprocess.PIPE,
                           stderr=subprocess.DEVNULL, timeout=60)
    except (OSError, subprocess.TimeoutExpired):
        return None
    m = re.search(r"SPIRV-Tools v([0-9][0-9.]*)", p.stdout.decode("utf-8", "replace"))
    return m.group(1) if m else None


def toolchain(llvm=None):
    """The toolchain of this check: LLVM `llvm` (the build's; default the recorded one) and the
    SPIRV-Tools on PATH."""
    return {"LLVM": str(llvm or RECORDED["LLVM"]), "SPIRV-Tools": spirv_tools_version()}


def same_version(have, want):
    """`have` (15, 19.1, 2025.1) is version `want` (15, 2023.1) or one of its point releases."""
    return have is not None and (have == want or have.startswith(want + "."))


class Session:
    """A scratch directory standing for the repository root, and the shell state carried from
    one command to the next (working directory and exported variables)."""

    def __init__(self, root, source, build, tools, tools_versions):
        self.root = root
        self.toolchain = tools_versions
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
        text = cmd.text
        llvm = session.toolchain["LLVM"]
        if not same_version(llvm, RECORDED["LLVM"]):
            # The same step with the release's own LLVM tools, its output compared as written.
            text = LLVM_TOOL.sub(r"\1-" + llvm.split(".")[0], text)
            if text != cmd.text:
                failures.note(where, "runs as `%s` (LLVM %s)" % (text.split("\n")[0], llvm))
        status, out = session.run(text)
        got = trim(out.split("\n"))
        other = ["%s %s, this toolchain has %s" % (t, v, session.toolchain.get(t) or "none")
                 for t, v in sorted(cmd.recorded.items())
                 if not same_version(session.toolchain.get(t), v)]
        if other:
            # Run (later commands may need what it writes), not compared.
            failures.note(where, "not compared: `%s` is shown with %s; here it exits %s%s" % (
                cmd.text.split("\n")[0], "; ".join(other), status,
                ", printing: " + " / ".join(got[:3]) if got else ", printing nothing"))
            continue
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
