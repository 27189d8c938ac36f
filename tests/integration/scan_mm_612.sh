#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Scans mm/ of Debian's linux-source-6.12 (KDIR_612, make kernel-tree-612)
# with the same lockhog scan as 6.1: the tree is configured and built as
# 6.1's is, kbuild tells both frontends the tree's version, and the 6.12
# forms of the bugs are reported: drain_stock()'s uncharge and css_put
# under memcg_stock.stock_lock through refill_stock() and
# drain_local_stock(), and the free_pcppages_bulk() loop under zone->lock.
# The third bug of 6.1, the rstat flush from charge_memcg's threshold
# events with IRQs off, is fixed upstream by 6.12 (mem_cgroup_usage() no
# longer flushes; cgroup_rstat_flush_irqsafe() is gone): nothing of the
# kind may be reported.  The catalogue is read for 6.12: the allocators'
# alloc_hooks names (__alloc_pages_noprof(), kmalloc_noprof(), ...) keep
# their gfp conditions.
set -u
cd "$(dirname "$0")/../.."
T=build/tests/scan_mm_612
mkdir -p $T
echo "1..19"
. tests/tap.sh
check() { if eval "$2"; then ok "$1"; else notok "$1"; fi; }
KDIR_612=${KDIR_612:-$PWD/build/linux-6.12}

if $LOCKHOG scan --kernel "$KDIR_612" -j "$(nproc)" --format json --out $T/mm.json mm/ 2>$T/scan.err; then
	ok "scan of 6.12's mm/ runs"
else
	notok "scan of 6.12's mm/ runs: $(tail -1 $T/scan.err)"
fi
# the tree's version, as make -s kernelversion prints it, reached the plugin
ver=$(make -s -C "$KDIR_612" kernelversion 2>/dev/null)
check "the tree is a 6.12 one (make -s kernelversion: ${ver:-none})" "[[ '$ver' == 6.12.* ]]"
check "kbuild passed -fplugin-arg-lockhog-kversion=$ver to the plugin" \
	"grep -q -- '-fplugin-arg-lockhog-kversion=$ver ' '$KDIR_612/mm/.memcontrol.o.cmd'"
# the plugin met 6.12's GIMPLE (guard() cleanups, new builtins): no ICE, no note
check "the build shows no compiler crash and no plugin note" \
	"! grep -E 'internal compiler error|lockhog:' '$KDIR_612/.lockhog-build.log' >$T/notes.txt"

/usr/bin/python3 - $T/mm.json <<'PY' >$T/json.tap
import json, sys
sys.path.insert(0, "tests/tools")
import mm_checks
d = json.load(open(sys.argv[1]))
tap = mm_checks.Tap(5)
check, paths, path_of = tap.check, mm_checks.paths, mm_checks.path_of

def find(site, callee=None, kind=None):
    return mm_checks.find(d, site, callee, kind)

# 6 checks: the stock uncharge and css_put, the pcp loop, in their 6.12 forms
mm_checks.three_bugs(tap, d, flush=False)
f = find("free_pcppages_bulk", kind="loop")
p = path_of(f, "free_unref_page")
check("free_unref_page holds the pcp lock around that loop",
      p is not None and p["lock_class"] == "per_cpu_pages.lock"
      and p["chain"] == ["free_unref_page", "free_unref_page_commit", "free_pcppages_bulk"])
f = find("drain_stock", "css_put", "call")
check("css_put under stock_lock is a warning", f is not None and f["severity"] == "warning")
warn = [x for x in d if x["severity"] != "note"]
top5 = [(x["site"]["function"], x["kind"], x["callee"]) for x in warn[:5]]
check("the stock uncharge and the pcp loop are in the top 5",
      ("drain_stock", "call", "page_counter_uncharge") in top5
      and any(s == "free_pcppages_bulk" and k == "loop" for s, k, c in top5))
# the rstat flush of 6.1 is fixed upstream: no flush with IRQs off, no irqsafe flush
check("no tree flush is reported with IRQs off (fixed upstream by 6.12)",
      not any(x["class"] == "tree-flush" and any(w["irqs_off"] for w in paths(x)) for x in d)
      and not any(x["callee"] == "cgroup_rstat_flush_irqsafe" for x in d))
# the _noprof allocators keep their gfp conditions: alloc_loc_track()'s
# GFP_ATOMIC under n->list_lock, through get_free_pages_noprof(), is no sleep
check("GFP_ATOMIC through get_free_pages_noprof() is not a sleep",
      not any(x["kind"] == "sleep" and any("alloc_loc_track" in w["chain"] for w in paths(x))
              for x in d))
check("a sleep reached through a _noprof allocator keeps its gfp rule's reason",
      any(x["kind"] == "sleep" and x["callee"].endswith("_noprof")
          and "direct reclaim" in x["reason"] for x in d))
PY
cat $T/json.tap
n=$((n + $(grep -cE '^(not )?ok ' $T/json.tap)))
# its recursive groups reach their fixed points (the 173 allocation,
# reclaim and swap functions were cut short at 16 rounds of every member)
$LOCKHOG report --format sarif --out $T/mm.sarif "$KDIR_612/mm" 2>/dev/null
rounds=$(grep -c 'recursion did not reach a fixed point' $T/mm.sarif)
check "no recursive group of 6.12's mm/ is cut short ($rounds functions)" "[ '$rounds' = 0 ]"
# the catalogue read for each version: the rules of the other are left out
$LOCKHOG rules --kversion "$ver" --list cost >$T/cost-612.txt 2>&1
$LOCKHOG rules --kversion 6.1.192 --list cost >$T/cost-61.txt 2>&1
check "read for 6.12, the catalogue has __alloc_pages_noprof and not kmalloc_trace" \
	"grep -qx __alloc_pages_noprof $T/cost-612.txt && ! grep -qx kmalloc_trace $T/cost-612.txt"
check "read for 6.1, it has kmalloc_trace and not __alloc_pages_noprof" \
	"grep -qx kmalloc_trace $T/cost-61.txt && ! grep -qx __alloc_pages_noprof $T/cost-61.txt"
