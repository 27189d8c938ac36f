#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Scans mm/ of the real linux-source-6.1 tree and checks that the three
# bugs lockhog was started for are reported with the right lock and
# chain, and that the JSON and SARIF outputs are well formed.
set -u
cd "$(dirname "$0")/../.."
T=build/tests/scan_mm
mkdir -p $T
echo "1..24"
. tests/tap.sh
check() { if eval "$2"; then ok "$1"; else notok "$1"; fi; }

if $LOCKHOG scan --kernel "$KDIR" -j "$(nproc)" --format json --out $T/mm.json mm/ 2>$T/scan.err; then
	ok "scan of mm/ runs"
else
	notok "scan of mm/ runs: $(tail -1 $T/scan.err)"
fi
# the objects are built now: the other formats come from the same build
$LOCKHOG scan --kernel "$KDIR" --format sarif --out $T/mm.sarif mm/ 2>>$T/scan.err
$LOCKHOG scan --kernel "$KDIR" --all --out $T/mm.txt mm/ 2>>$T/scan.err

/usr/bin/python3 - $T/mm.json <<'PY' >$T/json.tap
import json, sys
sys.path.insert(0, "tests/tools")
import mm_checks
d = json.load(open(sys.argv[1]))
n = 1
tap = mm_checks.Tap(n + 1)
check, paths, path_of = tap.check, mm_checks.paths, mm_checks.path_of

def find(site, callee=None, kind=None):
    return mm_checks.find(d, site, callee, kind)

mm_checks.three_bugs(tap, d)
# and what the plugin's scan says beyond them
f = find("free_pcppages_bulk", kind="loop")
p = path_of(f, "free_unref_page")
check("free_unref_page holds the pcp lock around that loop",
      p is not None and p["lock_class"] == "per_cpu_pages.lock"
      and p["chain"] == ["free_unref_page", "free_unref_page_commit", "free_pcppages_bulk"])
f = find("__mem_cgroup_flush_stats", "cgroup_rstat_flush_irqsafe", "call")
check("the flush is a tree-flush cost", f is not None and f["class"] == "tree-flush")
f = find("memcg_rstat_updated", "atomic_add", "atomic")
check("memcg_rstat_updated's atomic_add on the global threshold is reported",
      f is not None and "stats_flush_threshold" in f["reason"]
      and any(x["chain"][-2:] == ["memcg_rstat_updated", "atomic_add"] for x in paths(f)))

# precision: the bugs lead the scan, and the scan stays short enough to read
# one finding a spot: the costs reached from the same call with the same
# lock held are shown under the first (same_spot_as), and counted once
top = [x for x in d if x["severity"] in ("error", "warning") and "same_spot_as" not in x]
under = {x["fingerprint"]: x for x in d}
f = find("drain_stock", "css_put", "call")
check("css_put under stock_lock is shown under the uncharge from the same call",
      f is not None and f.get("same_spot_as") in under and
      under[f["same_spot_as"]]["callee"] == "page_counter_uncharge" and
      under[f["same_spot_as"]]["line"] == f["line"])
head = [(x["function"], x["kind"], x["callee"]) for x in top[:5]]
check("the three bugs are in the top 5 warnings",
      any(k == "call" and c == "page_counter_uncharge" and fn in ("drain_local_stock", "refill_stock")
          for fn, k, c in head)
      and ("free_pcppages_bulk", "loop", "__free_one_page") in head
      and ("__mem_cgroup_flush_stats", "call", "cgroup_rstat_flush_irqsafe") in head)
f = find("drain_stock", "css_put", "call")
check("css_put under stock_lock is still a warning", f is not None and f["severity"] == "warning")
# cgroup v1's kmem counter (rules: static-key): a note that says which key
f = next((x for x in d if x["function"] == "drain_local_stock" and
          x["chain"][-2:] == ["memcg_account_kmem", "page_counter_uncharge"]), None)
check("the v1-only kmem uncharge is a note naming its static key",
      f is not None and f["severity"] == "note" and
      "memory_cgrp_subsys_on_dfl_key" in f.get("demoted", ""))
# split_free_page()'s only caller is mm/page_isolation.c, which defconfig
# (no MEMORY_ISOLATION) does not build (core/unbuilt.c)
f = find("split_free_page", kind="loop")
check("split_free_page(), which nothing in this build calls, is a note that says so",
      f is not None and f["severity"] == "note" and
      "no caller in this build" in f.get("demoted", "") and
      all(x.get("unbuilt") for x in paths(f)))
# issue 11's bound (34 spots, 41 costs on 2026-12-05)
MAX_WARNINGS = 40
check("at most %d warning-level findings (%d)" % (MAX_WARNINGS, len(top)), len(top) <= MAX_WARNINGS)

# shape of the JSON
keys = {"file", "line", "function", "lock", "kind", "callee", "chain", "irqs_off",
        "severity", "fingerprint"}
check("every finding has the documented fields", all(keys <= set(x) for x in d))
fps = [x["fingerprint"] for x in d]
check("fingerprints are unique", len(fps) == len(set(fps)))
check("ranked: IRQs-off listed costs come before notes",
      [x["score"] for x in d] == sorted((x["score"] for x in d), reverse=True))
PY
cat $T/json.tap
# a Python check that dies short of its list leaves the plan unmet: run.sh fails it
n=$((n + $(grep -cE '^(not )?ok ' $T/json.tap)))
check "SARIF validates against the OASIS 2.1.0 schema" \
	"scripts/sarif-schema.sh build/schemas/sarif-2.1.0.json && /usr/bin/python3 tests/tools/sarif_validate.py build/schemas/sarif-2.1.0.json $T/mm.sarif >$T/sarif.err"
check "text report is gcc style with a closing count" \
	"grep -qE '^mm/memcontrol.c:[0-9]+:[0-9]+: warning: .*\[-Wlockhog-call\]' $T/mm.txt && tail -1 $T/mm.txt | grep -qE '^lockhog: mm/: [0-9]+ findings'"
check "--all says why split_free_page() is a note" \
	"grep -q 'note: a note because its holder split_free_page() has no caller in this build: the tree calls it only from mm/page_isolation.c, which this configuration does not build' $T/mm.txt"
# A recorded run: the findings, fingerprints, severities and chains of
# the default scan, as they were before the core was reshaped.  A change
# that means to alter them regenerates the record with
#   python3 tests/tools/scan_digest.py build/tests/scan_mm/mm.json > tests/expect/mm-scan.digest
# and says why in its commit.
/usr/bin/python3 tests/tools/scan_digest.py $T/mm.json >$T/mm.digest 2>&1
diff -u tests/expect/mm-scan.digest $T/mm.digest >$T/digest.diff
res $? "the scan matches the recorded run (tests/expect/mm-scan.digest)" $T/digest.diff
