# SPDX-License-Identifier: GPL-2.0
"""What the mm/ suites ask of a `lockhog scan --format json` report: TAP
lines, lookups of a finding by its site and of a way by its holder, and
the checks of the three bugs.
Used by tests/integration/scan_mm.sh (the plugin's scan) and
tests/clang/three_bugs.py (lockhog-check's)."""


class Tap:
    def __init__(self, first=1):
        self.n = first - 1

    def check(self, name, cond):
        self.n += 1
        print(("ok %d - %s" if cond else "not ok %d - %s") % (self.n, name))


def paths(f):
    """The finding's own way, then its callers' ways."""
    yield f
    for c in f["callers"]:
        yield c


def find(d, site, callee=None, kind=None):
    for f in d:
        if f["site"]["function"] == site and (callee is None or f["callee"] == callee) \
           and (kind is None or f["kind"] == kind):
            return f
    return None


def path_of(f, holder):
    for p in paths(f) if f else []:
        if p["function"] == holder:
            return p
    return None


def three_bugs(tap, d, flush=True):
    """The three bugs lockhog was started for, with their locks and chains.
    flush=False: a tree where the third is fixed upstream (6.12: the
    threshold events no longer flush, cgroup_rstat_flush_irqsafe() is
    gone), checked apart by the caller."""
    # 1: refill_stock -> __refill_stock -> drain_stock -> page_counter_uncharge / css_put
    for callee in ("page_counter_uncharge", "css_put"):
        f = find(d, "drain_stock", callee, "call")
        p = path_of(f, "refill_stock")
        tap.check("refill_stock reaches %s under memcg_stock.stock_lock with IRQs off" % callee,
                  p is not None and p["lock"] == "memcg_stock.stock_lock" and p["irqs_off"]
                  and p["chain"] == ["refill_stock", "__refill_stock", "drain_stock", callee])
        p = path_of(f, "drain_local_stock")
        tap.check("drain_local_stock reaches %s too" % callee,
                  p is not None and p["chain"] == ["drain_local_stock", "drain_stock", callee])

    # 2: free_pcppages_bulk loop under zone->lock
    f = find(d, "free_pcppages_bulk", kind="loop")
    p = path_of(f, "free_pcppages_bulk")
    tap.check("free_pcppages_bulk loops under zone->lock with IRQs off",
              p is not None and p["lock"] == "zone->lock" and p["irqs_off"]
              and p["chain"] == ["free_pcppages_bulk"])
    tap.check("the loop names __free_one_page", f is not None and f["callee"] == "__free_one_page")

    if not flush:
        return
    # 3: the rstat flush under stats_flush_lock
    f = find(d, "__mem_cgroup_flush_stats", "cgroup_rstat_flush_irqsafe", "call")
    p = path_of(f, "__mem_cgroup_flush_stats")
    tap.check("__mem_cgroup_flush_stats flushes under stats_flush_lock with IRQs off",
              p is not None and p["lock"] == "stats_flush_lock" and p["irqs_off"])
