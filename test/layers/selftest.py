#!/usr/bin/env python3
"""The layering check must fail on a tree that breaks the floors: copies of source/ with one
upward call, one call between files of the same floor, and one file on no floor each make
check_layers.py exit 1 naming the call; the untouched copy passes.

  selftest.py CHECK_LAYERS_PY SOURCE_DIR
"""
import os
import shutil
import subprocess
import sys
import tempfile


def run(check, tree):
    p = subprocess.run([sys.executable, check, tree], capture_output=True, text=True)
    return p.returncode, p.stdout


def main(argv):
    check, source = argv[1], argv[2]
    failures = 0
    cases = [
        # (file to change, text to append, expected exit, expected words in the output)
        (None, None, 0, "every call points down"),
        ("rules.c", "\nvoid spvbc__selftest_up(spvbc_context c) { spvbc__alloc(c, 1); }\n", 1,
         "rules.c:"),
        ("validate.c", "\nvoid spvbc__selftest_side(void) { spvbc_module_write(0, 0, 0); }\n", 1,
         "on its own floor"),
        ("context.c", "\nvoid spvbc__selftest_loop(void) { spvbc_module_destroy(0); }\n", 1,
         "above it"),
        ("stray.c", "int stray(void) { return 0; }\n", 1, "stray.c: belongs to no floor"),
    ]
    for name, extra, want_rc, want_text in cases:
        with tempfile.TemporaryDirectory() as tmp:
            tree = os.path.join(tmp, "source")
            shutil.copytree(source, tree, ignore=shutil.ignore_patterns("tools"))
            if name:
                with open(os.path.join(tree, name), "a", encoding="utf-8") as f:
                    f.write(extra)
            rc, out = run(check, tree)
        ok = rc == want_rc and want_text in out
        print(f"{'ok  ' if ok else 'FAIL'} {name or 'untouched copy'}: exit {rc}, "
              f"{'found' if want_text in out else 'missing'} '{want_text}'")
        if not ok:
            print(out)
            failures += 1
    print(f"{len(cases) - failures} passed, {failures} failed")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
