# SPDX-License-Identifier: GPL-2.0
"""What the mm/ suites ask of a `lockhog scan --format json` report: TAP
lines, and lookups of a finding by its site and of a way by its holder.
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
