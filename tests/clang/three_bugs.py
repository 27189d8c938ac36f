#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""The three bugs lockhog was started for, in a `lockhog scan --format
json` report of mm/ (the same checks as tests/integration/scan_mm.sh
makes of the GCC plugin's scan), as TAP lines numbered from FIRST.

  three_bugs.py REPORT.json FIRST
"""
import json
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tools"))
import mm_checks  # noqa: E402

d = json.load(open(sys.argv[1]))
n = int(sys.argv[2]) - 1


tap = mm_checks.Tap(n + 1)
check, paths, path_of = tap.check, mm_checks.paths, mm_checks.path_of


def find(site, callee=None, kind=None):
    return mm_checks.find(d, site, callee, kind)


# 1: refill_stock -> __refill_stock -> drain_stock -> page_counter_uncharge / css_put
for callee in ("page_counter_uncharge", "css_put"):
    f = find("drain_stock", callee, "call")
    p = path_of(f, "refill_stock")
    check("refill_stock reaches %s under memcg_stock.stock_lock with IRQs off" % callee,
          p is not None and p["lock"] == "memcg_stock.stock_lock" and p["irqs_off"]
          and p["chain"] == ["refill_stock", "__refill_stock", "drain_stock", callee])
    p = path_of(f, "drain_local_stock")
    check("drain_local_stock reaches %s too" % callee,
          p is not None and p["chain"] == ["drain_local_stock", "drain_stock", callee])

# 2: free_pcppages_bulk loop under zone->lock
f = find("free_pcppages_bulk", kind="loop")
p = path_of(f, "free_pcppages_bulk")
check("free_pcppages_bulk loops under zone->lock with IRQs off",
      p is not None and p["lock"] == "zone->lock" and p["irqs_off"]
      and p["chain"] == ["free_pcppages_bulk"])
check("the loop names __free_one_page", f is not None and f["callee"] == "__free_one_page")

# 3: the rstat flush under stats_flush_lock
f = find("__mem_cgroup_flush_stats", "cgroup_rstat_flush_irqsafe", "call")
p = path_of(f, "__mem_cgroup_flush_stats")
check("__mem_cgroup_flush_stats flushes under stats_flush_lock with IRQs off",
      p is not None and p["lock"] == "stats_flush_lock" and p["irqs_off"])
