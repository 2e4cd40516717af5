#!/usr/bin/env python3
"""json_fields.py < doc.json: checks the shape of `spirv-bitcast validate --json` output and
prints one `key=value` line per field, so FileCheck can assert values.

Shape (fails with a message on stderr otherwise): one JSON object with "file" (string),
"summary" (object with integer counts) and "diagnostics" (array of objects, each with every
field of spvbc_diagnostic, typed as below; pointers that do not apply are null).
"""
import json
import sys

SUMMARY = {"bitcasts_checked": int, "errors": int, "warnings": int, "notes": int,
           "lowerable": int}
DIAG = {"severity": str, "rule": str, "message": str, "word_offset": int,
        "instruction_index": int, "opcode": int, "result_id": int,
        "result_name": (str, type(None)), "source_file": (str, type(None)),
        "source_line": int, "source_column": int, "operand_type": (str, type(None)),
        "result_type": (str, type(None)), "operand_bits": int, "result_bits": int,
        "astype": (str, type(None)), "lowerable": bool}


def check(obj, spec, where):
    if not isinstance(obj, dict):
        sys.exit("%s is not an object" % where)
    missing = [k for k in spec if k not in obj]
    if missing:
        sys.exit("%s lacks %s" % (where, ", ".join(missing)))
    for k, t in spec.items():
        v = obj[k]
        # bool is a subclass of int in Python: do not accept true/false for a count.
        if (t is int and isinstance(v, bool)) or not isinstance(v, t):
            sys.exit("%s.%s has the wrong type: %r" % (where, k, v))


def main():
    doc = json.load(sys.stdin)
    if not isinstance(doc, dict) or not isinstance(doc.get("file"), str):
        sys.exit("top level must be an object with a string \"file\"")
    check(doc.get("summary"), SUMMARY, "summary")
    diags = doc.get("diagnostics")
    if not isinstance(diags, list):
        sys.exit("\"diagnostics\" must be an array")
    print("file=%s" % doc["file"])
    for k in SUMMARY:
        print("summary.%s=%d" % (k, doc["summary"][k]))
    for i, d in enumerate(diags):
        check(d, DIAG, "diagnostics[%d]" % i)
        print("diag %d" % i)
        for k in DIAG:
            v = d[k]
            print("  %s=%s" % (k, "null" if v is None else
                               ("true" if v is True else "false" if v is False else v)))
    if sum(1 for d in diags if d["severity"] == "error") != doc["summary"]["errors"]:
        sys.exit("summary.errors does not count the error diagnostics")
    return 0


if __name__ == "__main__":
    sys.exit(main())
