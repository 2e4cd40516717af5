#!/usr/bin/env python3
"""sarif_check.py [--rules-doc RULES_MD] [--exact-rules] < log.sarif

Checks the structure of a `spirv-bitcast ... --format sarif` log against SARIF 2.1.0 (the parts
the CLI writes) and prints one `key=value` line per fact, so FileCheck can assert the values:

  artifact <i> uri=<uri or "-"> length=<bytes>
  result <n>
    ruleId=... level=... message=... artifact=<index> uri=...
    byteOffset=... byteLength=...           (or "region=none" for module-level findings)
    logical.name=... logical.fullyQualifiedName=...   (when the finding has a result id)
    related=<uri>:<line>[:<column>]          (when the module carries OpLine / DebugLine)
  notification <n> level=... message=...

Fails with a message on stderr when a required property is missing or mistyped, a result's
ruleId is not in tool.driver.rules, ruleIndex does not point at it, an artifact index is out
of range, or a region is malformed.  With --rules-doc, also fails unless driver.rules and the
rule tables of docs/rules.md name the same ids with the same descriptions and default levels
(in either direction).  Python 3 standard library only.
"""
import json
import re
import sys

LEVELS = ("none", "note", "warning", "error")


def fail(msg):
    sys.exit("sarif_check: " + msg)


def need(obj, key, typ, where):
    if not isinstance(obj, dict):
        fail("%s is not an object" % where)
    if key not in obj:
        fail("%s lacks \"%s\"" % (where, key))
    v = obj[key]
    if (typ is int and isinstance(v, bool)) or not isinstance(v, typ):
        fail("%s.%s has the wrong type: %r" % (where, key, v))
    return v


def opt(obj, key, typ, where):
    return need(obj, key, typ, where) if key in obj else None


def message_text(obj, where):
    return need(need(obj, "message", dict, where), "text", str, where + ".message")


def nonneg(v, where):
    if v < 0:
        fail("%s is negative" % where)
    return v


def check_artifact_location(loc, where, n_artifacts):
    if "uri" not in loc and "index" not in loc:
        fail("%s has neither uri nor index" % where)
    uri = opt(loc, "uri", str, where)
    idx = opt(loc, "index", int, where)
    if idx is not None and not 0 <= idx < n_artifacts:
        fail("%s.index %d is out of range" % (where, idx))
    return uri, idx


def rules_from_doc(path):
    """{id: (level, description)} from the tables of docs/rules.md whose first column is
    'rule'; the description column is 'fires when', 'meaning' or 'input'."""
    rules = {}
    section = ""
    header = None
    for line in open(path, encoding="utf-8"):
        line = line.rstrip("\n")
        if line.startswith("## "):
            section = line[3:].lower()
            header = None
            continue
        if not line.startswith("|"):
            header = None
            continue
        cells = [c.strip() for c in line.strip("|").split("|")]
        if header is None:
            header = cells if cells and cells[0] == "rule" else []
            continue
        if not header or set(line) <= set("|- "):
            continue
        col = next((header.index(h) for h in ("fires when", "meaning", "input") if h in header),
                   None)
        if col is None:
            fail("%s: a rule table without a description column" % path)
        text = cells[col].replace("`", "").replace("**", "")
        m = re.match(r"\(severity (\w+)\) ", text)
        if m:
            level, text = m.group(1), text[m.end():]
        elif section.startswith("errors") or section.startswith("input errors"):
            level = "error"
        elif section.startswith("warnings"):
            level = "warning"
        elif section.startswith("notes"):
            level = "note"
        else:
            fail("%s: no level for rule %s in section '%s'" % (path, cells[0], section))
        if cells[0] in rules:
            fail("%s: rule %s listed twice" % (path, cells[0]))
        rules[cells[0]] = (level, text)
    return rules


def main():
    args = sys.argv[1:]
    doc_path = None
    if args[:1] == ["--rules-doc"] and len(args) == 2:
        doc_path = args[1]
    elif args:
        fail("usage: sarif_check.py [--rules-doc RULES_MD] < log.sarif")
    log = json.load(sys.stdin)
    if need(log, "version", str, "log") != "2.1.0":
        fail("version is not 2.1.0")
    schema = need(log, "$schema", str, "log")
    if "sarif" not in schema or "2.1.0" not in schema:
        fail("$schema %r is not a SARIF 2.1.0 schema" % schema)
    runs = need(log, "runs", list, "log")
    if len(runs) != 1:
        fail("expected exactly one run, found %d" % len(runs))
    run = runs[0]
    driver = need(need(run, "tool", dict, "run"), "driver", dict, "run.tool")
    print("driver.name=%s" % need(driver, "name", str, "driver"))
    print("driver.version=%s" % need(driver, "version", str, "driver"))
    rules = need(driver, "rules", list, "driver")
    ids = []
    for i, r in enumerate(rules):
        w = "driver.rules[%d]" % i
        rid = need(r, "id", str, w)
        need(need(r, "shortDescription", dict, w), "text", str, w + ".shortDescription")
        lvl = need(need(r, "defaultConfiguration", dict, w), "level", str,
                   w + ".defaultConfiguration")
        if lvl not in LEVELS:
            fail("%s has level %r" % (w, lvl))
        ids.append(rid)
    if len(set(ids)) != len(ids):
        fail("driver.rules has duplicate ids")
    print("driver.rules=%d" % len(ids))

    artifacts = need(run, "artifacts", list, "run")
    for i, a in enumerate(artifacts):
        w = "artifacts[%d]" % i
        loc = need(a, "location", dict, w)
        uri = opt(loc, "uri", str, w + ".location")
        if uri is None:  # standard input: no URI, a description instead
            desc = need(loc, "description", dict, w + ".location")
            need(desc, "text", str, w + ".location.description")
        length = opt(a, "length", int, w)
        print("artifact %d uri=%s length=%s" % (i, "-" if uri is None else uri,
                                                "none" if length is None else length))

    for i, inv in enumerate(need(run, "invocations", list, "run")):
        w = "invocations[%d]" % i
        print("executionSuccessful=%s" % str(need(inv, "executionSuccessful", bool, w)).lower())
        for k, n in enumerate(opt(inv, "toolExecutionNotifications", list, w) or []):
            wn = "%s.toolExecutionNotifications[%d]" % (w, k)
            lvl = need(n, "level", str, wn)
            if lvl not in LEVELS:
                fail("%s has level %r" % (wn, lvl))
            for j, l in enumerate(opt(n, "locations", list, wn) or []):
                pl = need(l, "physicalLocation", dict, "%s.locations[%d]" % (wn, j))
                check_artifact_location(need(pl, "artifactLocation", dict, wn), wn,
                                        len(artifacts))
            print("notification %d level=%s message=%s" % (k, lvl, message_text(n, wn)))

    for i, res in enumerate(need(run, "results", list, "run")):
        w = "results[%d]" % i
        rid = need(res, "ruleId", str, w)
        if rid not in ids:
            fail("%s.ruleId %s is not in driver.rules" % (w, rid))
        if need(res, "ruleIndex", int, w) != ids.index(rid):
            fail("%s.ruleIndex does not point at %s" % (w, rid))
        lvl = need(res, "level", str, w)
        if lvl not in LEVELS:
            fail("%s has level %r" % (w, lvl))
        print("result %d" % i)
        print("  ruleId=%s" % rid)
        print("  level=%s" % lvl)
        print("  message=%s" % message_text(res, w))
        locs = need(res, "locations", list, w)
        if len(locs) != 1:
            fail("%s must have one location" % w)
        pl = need(locs[0], "physicalLocation", dict, w + ".locations[0]")
        uri, idx = check_artifact_location(need(pl, "artifactLocation", dict, w), w,
                                           len(artifacts))
        if idx is None:
            fail("%s: the artifactLocation has no index" % w)
        art_loc = artifacts[idx]["location"]
        if art_loc.get("uri") != uri:
            fail("%s: uri %r is not that of artifact %d" % (w, uri, idx))
        print("  artifact=%d uri=%s" % (idx, "-" if uri is None else uri))
        if "region" in pl:
            reg = pl["region"]
            off = nonneg(need(reg, "byteOffset", int, w + ".region"), w + ".byteOffset")
            length = nonneg(need(reg, "byteLength", int, w + ".region"), w + ".byteLength")
            size = artifacts[idx].get("length")
            if size is not None and off + length > size:
                fail("%s: the region runs past the end of the artifact" % w)
            print("  byteOffset=%d byteLength=%d" % (off, length))
        else:
            print("  region=none")
        for j, ll in enumerate(opt(locs[0], "logicalLocations", list, w) or []):
            wl = "%s.logicalLocations[%d]" % (w, j)
            name = need(ll, "name", str, wl)
            fqn = need(ll, "fullyQualifiedName", str, wl)
            if not re.fullmatch(r"%[0-9]+", fqn):
                fail("%s.fullyQualifiedName %r is not a result id" % (wl, fqn))
            print("  logical.name=%s logical.fullyQualifiedName=%s kind=%s"
                  % (name, fqn, need(ll, "kind", str, wl)))
        for j, rl in enumerate(opt(res, "relatedLocations", list, w) or []):
            wr = "%s.relatedLocations[%d]" % (w, j)
            rpl = need(rl, "physicalLocation", dict, wr)
            ruri = need(need(rpl, "artifactLocation", dict, wr), "uri", str, wr)
            reg = opt(rpl, "region", dict, wr)
            if reg is None:
                print("  related=%s" % ruri)
                continue
            line = need(reg, "startLine", int, wr + ".region")
            if line < 1:
                fail("%s.startLine must be at least 1" % wr)
            col = opt(reg, "startColumn", int, wr + ".region")
            if col is not None and col < 1:
                fail("%s.startColumn must be at least 1" % wr)
            print("  related=%s:%d%s" % (ruri, line, "" if col is None else ":%d" % col))

    if doc_path:
        doc = rules_from_doc(doc_path)
        table = {r["id"]: (r["defaultConfiguration"]["level"], r["shortDescription"]["text"])
                 for r in rules}
        for rid in sorted(set(doc) - set(table)):
            fail("rule %s is in %s but not in the CLI's SARIF rules" % (rid, doc_path))
        for rid in sorted(set(table) - set(doc)):
            fail("rule %s is in the CLI's SARIF rules but not in %s" % (rid, doc_path))
        for rid in ids:
            if table[rid] != doc[rid]:
                fail("rule %s differs:\n  CLI:  %r\n  docs: %r" % (rid, table[rid], doc[rid]))
        print("rules agree with the docs: %d" % len(ids))
    return 0


if __name__ == "__main__":
    sys.exit(main())
