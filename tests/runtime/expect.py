#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""Checks a userspace runtime report against what a scenario must leave.

    expect.py SCENARIO REPORT.json [ARG...]

Every report is checked against the shape docs/runtime.md section 3
gives (the keys, integers, 32 buckets summing to the holds); then the
scenario's exact counts.  Prints what differs and exits 1, or exits 0.
Scenarios: tests/runtime/probes.c (probes by hand), tests/runtime/fixtures/
(instrumented by the plugin), nosites.
"""
import json
import sys

TOP = ["lockhog_runtime", "source", "clock", "duration_ns", "cpus", "sites_total",
       "overflow", "sections", "atomics"]
OVERFLOW = ["stack", "hold_inner", "pairs", "nmi", "unmatched"]
SECTION = ["file", "line", "function", "lock", "lock_kind", "fingerprint", "holds",
           "irqs_off_holds", "total_ns", "max_ns", "p99_ns", "hist", "inner"]
CALL = ["kind", "file", "line", "function", "name", "fingerprint", "calls",
        "holds_with", "calls_max", "total_ns", "max_ns"]
LOOP = ["kind", "file", "line", "function", "name", "fingerprint", "runs",
        "iterations", "iters_max", "holds_with"]
ATOMIC = ["file", "line", "function", "name", "fingerprint", "count", "per_sec"]

# rt/user.h: a thread's pair table
PAIRS_PER_SITE, PAIRS_MIN = 2, 64

errors = []


def want(what, got, exp):
    if got != exp:
        errors.append("%s: got %r, want %r" % (what, got, exp))


def keys(what, obj, names):
    want(what + " keys", list(obj), names)


def ints(what, obj, names):
    for k in names:
        if not isinstance(obj.get(k), int) or isinstance(obj.get(k), bool):
            errors.append("%s.%s: not an integer: %r" % (what, k, obj.get(k)))


def shape(r):
    keys("report", r, TOP)
    want("lockhog_runtime", r.get("lockhog_runtime"), 1)
    want("source", r.get("source"), "user")
    want("clock", r.get("clock"), "tsc")
    ints("report", r, ["duration_ns", "cpus", "sites_total"])
    keys("overflow", r["overflow"], OVERFLOW)
    ints("overflow", r["overflow"], OVERFLOW)
    maxes = [s["max_ns"] for s in r["sections"]]
    want("sections sorted by max_ns", maxes, sorted(maxes, reverse=True))
    for s in r["sections"]:
        w = "section %s" % s.get("function")
        keys(w, s, SECTION)
        ints(w, s, SECTION[6:11] + ["line"])
        want(w + " hist buckets", len(s["hist"]), 32)
        want(w + " hist sum", sum(s["hist"]), s["holds"])
        want(w + " irqs_off_holds", s["irqs_off_holds"], 0)
        used = [b for b, n in enumerate(s["hist"]) if n]
        top = min(31, max(0, s["max_ns"].bit_length() - 1))
        want(w + " highest bucket is max_ns's", used[-1:], [top])
        if s["max_ns"] > s["total_ns"]:
            errors.append(w + ": max_ns above total_ns")
        for i in s["inner"]:
            keys(w + " inner " + i["kind"], i, CALL if i["kind"] == "call" else LOOP)
    for a in r["atomics"]:
        keys("atomic", a, ATOMIC)
        if not isinstance(a["per_sec"], float):
            errors.append("atomic per_sec: not a real: %r" % a["per_sec"])


def sec(r, function):
    found = [s for s in r["sections"] if s["function"] == function]
    if len(found) != 1:
        errors.append("sections of %s: %d, want 1" % (function, len(found)))
        return {"holds": None, "inner": []}
    return found[0]


def holds(r):
    return {s["function"]: s["holds"] for s in r["sections"]}


def inner(s, name, kind="call"):
    """(calls, holds_with, calls_max) of a call, (runs, iterations, iters_max,
    holds_with) of a loop, by callee name"""
    out = []
    for i in s["inner"]:
        if i["name"] != name or i["kind"] != kind:
            continue
        if i["kind"] == "call":
            out.append((i["calls"], i["holds_with"], i["calls_max"]))
        else:
            out.append((i["runs"], i["iterations"], i["iters_max"], i["holds_with"]))
    return out


def ovf(r, **exp):
    """every overflow counter 0 but those given"""
    got = r["overflow"]
    for k in OVERFLOW:
        want("overflow." + k, got[k], exp.get(k, 0))


def basic(r):
    want("holds", holds(r), {"sec_a": 3})
    a = sec(r, "sec_a")
    want("costly", inner(a, "costly"), [(3, 1, 3)])
    want("loop", inner(a, "body_call", "loop"), [(2, 1500, 1000, 2)])
    want("cpus", r["cpus"], 1)
    ovf(r)


def nesting(r):
    want("holds", holds(r), {"sec_a": 1, "sec_b": 1})
    want("a's inner", inner(sec(r, "sec_a"), "costly2"), [(1, 1, 1)])
    want("a has no costly", inner(sec(r, "sec_a"), "costly"), [])
    want("b's inner", inner(sec(r, "sec_b"), "costly"), [(1, 1, 1)])
    ovf(r)


def order(r):
    want("holds", holds(r), {"sec_a": 1, "sec_b": 1})
    want("a's inner", sec(r, "sec_a")["inner"], [])
    want("b's inner", inner(sec(r, "sec_b"), "costly"), [(1, 1, 1)])
    ovf(r)


def unmatched(r):
    want("holds", holds(r), {"sec_a": 1})
    want("a's inner", sec(r, "sec_a")["inner"], [])
    ovf(r, unmatched=3)


def trylock(r):
    want("holds", holds(r), {"try_nonzero": 1, "try_zero": 1})
    ovf(r)


def stack(r):
    want("holds", holds(r), {"sec_a": 16})
    ovf(r, stack=1)


def hold_inner(r):
    want("holds", holds(r), {"sec_a": 2})
    want("c5", sorted(inner(sec(r, "sec_a"), "c5")),
         [(1, 1, 1)] * 4 + [(3, 1, 1)])
    ovf(r, hold_inner=2)


def pairs(r):
    n = r["sites_total"]
    cap = 1
    while cap < max(PAIRS_MIN, n * PAIRS_PER_SITE):
        cap *= 2
    room = cap * 3 // 4
    nsec, ninner, used = 32, 64, 0
    ok_pairs = lost = over = 0
    for _ in range(nsec):
        slots = 0
        for _ in range(ninner):
            if used == room:
                lost += 1
                continue
            used += 1
            ok_pairs += 1
            if slots == 4:
                over += 1
            else:
                slots += 1
    want("sites_total", n, 110)
    want("sections", [(x["function"], x["holds"]) for x in r["sections"]],
         [("many", 1)] * nsec)
    got = sum(len(s["inner"]) for s in r["sections"])
    want("pairs reported", got, ok_pairs)
    ovf(r, pairs=lost, hold_inner=over)


def recursive(r):
    want("holds", holds(r), {"sec_a": 1, "sec_b": 1})
    ovf(r)


def atomics(r):
    want("holds", holds(r), {"sec_a": 1})
    want("atomics", [(a["name"], a["count"]) for a in r["atomics"]],
         [("global_counter", 7)])
    ovf(r)


def call_releases(r):
    want("holds", holds(r), {"sec_a": 1})
    want("a's inner", sec(r, "sec_a")["inner"], [])
    ovf(r)


def open_at_exit(r):
    want("holds", holds(r), {"sec_a": 1})
    ovf(r)


def threads(r):
    want("holds", holds(r), {"sec_a": 2000, "sec_b": 10})
    want("costly", inner(sec(r, "sec_a"), "costly"), [(2000, 2000, 1)])
    want("cpus", r["cpus"], 3)
    ovf(r)


def forked(r):
    want("holds", holds(r), {"sec_a": 1})
    ovf(r)


def signals(r, n, handled):
    """n holds of a with a call each; handled runs of a SIGALRM handler
    with its own hold of b and call, nested on the same stack"""
    n, handled = int(n), int(handled)
    want("holds", holds(r), {"sec_a": n, "sec_b": handled})
    want("a's inner", [(i["name"], i["calls"]) for i in sec(r, "sec_a")["inner"]],
         [("costly", n)])
    want("b's inner", [(i["name"], i["calls"]) for i in sec(r, "sec_b")["inner"]],
         [("costly2", handled)])
    ovf(r)


def reentry(r):
    """tests/runtime/reentry.c: what glibc allocates is its own business;
    the two holds of work, the two threads and the drops are not"""
    want("work's holds", sec(r, "work")["holds"], 2)
    want("cpus", r["cpus"], 2)
    want("unmatched", r["overflow"]["unmatched"], 0)
    if r["overflow"]["nmi"] < 1:
        errors.append("overflow.nmi: no probe dropped while the runtime ran")


def nothing(r):
    want("sites_total", r["sites_total"], 110)
    want("cpus", r["cpus"], 0)
    want("sections", r["sections"], [])
    ovf(r)


def nosites(r):
    want("sites_total", r["sites_total"], 0)
    want("sections", r["sections"], [])
    want("atomics", r["atomics"], [])
    ovf(r)


# --- instrumented fixtures (tests/runtime/fixtures/, tests/runtime/instrumented.sh)

def fx_calls(r):
    want("holds", holds(r), {"one_site": 1, "three_sites": 1})
    s = sec(r, "one_site")
    want("one_site's usleep", inner(s, "usleep"), [(3, 1, 3)])
    want("one_site's loop", [(i["runs"], i["iterations"], i["iters_max"], i["holds_with"])
                             for i in s["inner"] if i["kind"] == "loop"], [(1, 3, 3, 1)])
    s = sec(r, "three_sites")
    want("three_sites' usleep sites", inner(s, "usleep"), [(1, 1, 1)] * 3)
    want("three_sites' inner", [i["kind"] for i in s["inner"]], ["call"] * 3)
    want("three_sites' calls", sum(i["calls"] for i in s["inner"]), 3)
    lines = sorted(i["line"] for i in s["inner"])
    want("three_sites' call lines", lines, [lines[0], lines[0] + 1, lines[0] + 2])
    want("file", s["file"], "tests/runtime/fixtures/calls.c")
    want("lock", (s["lock"], s["lock_kind"]), ("m", "mutex"))
    ovf(r)


def fx_loop(r):
    want("holds", holds(r), {"thousand": 1})
    s = sec(r, "thousand")
    want("loop", [(i["name"], i["runs"], i["iterations"], i["iters_max"], i["holds_with"])
                  for i in s["inner"]], [("work", 1, 1000, 1000, 1)])
    want("lock", (s["lock"], s["lock_kind"]), ("sl", "spin"))
    ovf(r)


def fx_trylock(r):
    want("holds", holds(r), {"hold_it": 1, "try_once": 1})
    ovf(r)


def fx_threads(r):
    want("holds", holds(r), {"worker": 2000})
    want("sched_yield", inner(sec(r, "worker"), "sched_yield"), [(2000, 2000, 1)])
    want("cpus", r["cpus"], 2)
    ovf(r)


def fx_atomics(r):
    want("atomics", [(a["name"], a["function"], a["count"]) for a in r["atomics"]],
         [("hits", "bump", 7), ("hits", "bump", 1)])
    want("holds", holds(r), {"bump": 1})
    ovf(r)


def main():
    scenario, path, args = sys.argv[1], sys.argv[2], sys.argv[3:]
    check = globals().get(scenario)
    if not callable(check):
        sys.exit("expect.py: no scenario '%s'" % scenario)
    with open(path) as f:
        r = json.load(f)
    shape(r)
    if not errors:
        check(r, *args)
    for e in errors:
        print("%s: %s" % (scenario, e))
    sys.exit(1 if errors else 0)


if __name__ == "__main__":
    main()
