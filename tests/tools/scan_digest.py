#!/usr/bin/python3
# One line per finding and per caller way of a `lockhog scan --format json`
# report, sorted: what a behaviour-preserving change must leave alone.
# Columns: fingerprint severity kind function lock callee chain.
import json, sys

def rows(findings):
    for f in findings:
        yield (f["fingerprint"], f["severity"], f["kind"], f["function"],
               f["lock"], f.get("callee") or "-", ">".join(f["chain"]))
        for c in f.get("callers", []):
            yield (c["fingerprint"], "caller", f["kind"], c["function"],
                   c["lock"], f.get("callee") or "-", ">".join(c["chain"]))

with open(sys.argv[1]) as fp:
    out = sorted(set("\t".join(r) for r in rows(json.load(fp))))
sys.stdout.write("".join(l + "\n" for l in out))
