#!/usr/bin/env python3
"""disasm_lines.py DIS REPORT MIN: checks the disassembly the CLI prints under each finding.

DIS is SPIRV-Tools' disassembly of the module (spirv-dis --no-header, one line per instruction,
with or without --raw-id), REPORT the CLI's text report.  Every finding line that names an
instruction ("(instruction N)") must be followed (after an optional "  at FILE:LINE:COL" line)
by "  " or "  was: " and line N of DIS without its indentation; at least MIN such lines must be
there.  Fails with the first line that differs.
"""
import re
import sys


def main():
    if len(sys.argv) != 4:
        sys.stderr.write(__doc__)
        return 2
    dis = [l.strip() for l in open(sys.argv[1]).read().splitlines()]
    report = open(sys.argv[2]).read().splitlines()
    checked = 0
    for i, line in enumerate(report):
        m = re.search(r"\(instruction (\d+)\)", line)
        if not m or line.startswith(" "):
            continue
        j = i + 1
        if j < len(report) and report[j].startswith("  at "):
            j += 1
        shown = report[j] if j < len(report) else ""
        want = dis[int(m.group(1))]
        prefix = "  was: " if "[L-LOWERED]" in line else "  "
        if shown != prefix + want:
            sys.stderr.write("finding: %s\n  printed: %r\n  spirv-dis: %r\n" %
                             (line, shown, prefix + want))
            return 1
        checked += 1
    if checked < int(sys.argv[3]):
        sys.stderr.write("only %d disassembled findings, expected at least %s\n" %
                         (checked, sys.argv[3]))
        return 1
    print("%d disassembled findings agree with spirv-dis" % checked)
    return 0


if __name__ == "__main__":
    sys.exit(main())
