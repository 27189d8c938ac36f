#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# lockhog-check on mm/ of the real linux-6.1 tree, both ways issue 12
# asks for: run by kbuild as C=2 CHECK= on the GCC-configured tree
# (lockhog scan --frontend clang), and on the same source configured and
# built with LLVM=1 by Debian's clang 19 (KDIR_LLVM, made by
# scripts/kernel-tree-llvm.sh).  Each must report the three bugs; on the
# GCC tree the findings are also compared with the plugin's by
# fingerprint (at least MIN_MM_AGREEMENT percent of the plugin's).
set -u
cd "$(dirname "$0")/../.."
T=build/tests/clang_mm
KDIR=${KDIR:-$PWD/build/linux-6.1}
KDIR_LLVM=${KDIR_LLVM:-$PWD/build/linux-6.1-llvm}
KDIR_612=${KDIR_612:-$PWD/build/linux-6.12}
LOCKHOG=${LOCKHOG:-$PWD/build/lockhog}
MIN_MM_AGREEMENT=85
mkdir -p $T
echo "1..29"
. tests/tap.sh

if $LOCKHOG scan --frontend clang --kernel "$KDIR" -j 2 --format json --out $T/mm.json mm/ \
	2>$T/scan.err; then
	ok "scan --frontend clang of mm/ runs (C=2 CHECK=lockhog-check)"
else
	notok "scan --frontend clang of mm/ runs: $(tail -1 $T/scan.err)"
fi
# sidecars DIR WHAT: every object of DIR has the sidecar lockhog-check leaves beside it
sidecars() {
	local objs sides
	objs=$(cd "$1" && ls *.o 2>/dev/null | grep -vc '\.mod\.o$')
	sides=$(cd "$1" && ls .*.o.lockhog 2>/dev/null | wc -l)
	if [ "$objs" -gt 0 ] && [ "$objs" = "$sides" ]; then
		ok "every object of $2 has its sidecar ($sides)"
	else
		notok "every object of $2 has its sidecar: $objs objects, $sides sidecars"
	fi
}
sidecars "$KDIR/mm" "mm/"
/usr/bin/python3 tests/clang/three_bugs.py $T/mm.json 3 2>$T/bugs.err || echo "# $(tail -1 $T/bugs.err)"
n=9

# the plugin's findings on the same tree: the objects are built, this only reads
$LOCKHOG scan --kernel "$KDIR" -j 2 --format json --out $T/gcc.json mm/ 2>>$T/scan.err
/usr/bin/python3 - $T/gcc.json $T/mm.json $MIN_MM_AGREEMENT <<'PY'
import json, sys
g = {f["fingerprint"] for f in json.load(open(sys.argv[1]))}
c = {f["fingerprint"] for f in json.load(open(sys.argv[2]))}
pct = 100.0 * len(g & c) / len(g) if g else 0
print("# mm/: plugin %d findings, lockhog-check %d, both %d (%.1f%% of the plugin's), "
      "lockhog-check only %d" % (len(g), len(c), len(g & c), pct, len(c - g)))
print("%s 10 - lockhog-check finds at least %s%% of the plugin's mm/ findings (%.1f%%)" %
      ("ok" if pct >= float(sys.argv[3]) else "not ok", sys.argv[3], pct))
PY
n=10

# LLVM=1: the tree clang 19 configured and built; kbuild runs the checker
if [ -f "$KDIR_LLVM/.config" ] && grep -q '^CONFIG_CC_IS_CLANG=y' "$KDIR_LLVM/.config"; then
	if $LOCKHOG scan --frontend clang --kernel "$KDIR_LLVM" -j 2 --format json \
		--out $T/llvm.json mm/ 2>$T/llvm.err; then
		ok "scan --frontend clang of the LLVM=1 tree's mm/ runs"
	else
		notok "scan --frontend clang of the LLVM=1 tree's mm/ runs: $(tail -1 $T/llvm.err)"
	fi
	/usr/bin/python3 tests/clang/three_bugs.py $T/llvm.json 12 2>$T/llvm-bugs.err ||
		echo "# $(tail -1 $T/llvm-bugs.err)"
	n=18
else
	for i in $(seq 11 18); do
		notok "LLVM=1 tree: $KDIR_LLVM is not configured by clang (scripts/kernel-tree-llvm.sh)"
	done
fi

# the plugin's scan must refuse a clang tree with a one-line error
if [ -f "$KDIR_LLVM/.config" ] &&
   ! $LOCKHOG scan --kernel "$KDIR_LLVM" mm/ >/dev/null 2>$T/refuse.err &&
   [ "$(wc -l <$T/refuse.err)" = 1 ] && grep -q 'frontend clang' $T/refuse.err; then
	ok "scan without --frontend clang refuses the LLVM=1 tree in one line"
else
	notok "scan without --frontend clang refuses the LLVM=1 tree in one line"
fi
# and report reads the sidecars of one unit as it reads a section
if $LOCKHOG report --frontend clang --all "$KDIR/mm/.memcontrol.o.lockhog" >$T/one.txt 2>&1 &&
   grep -q 'stats_flush_lock' $T/one.txt; then
	ok "report reads one sidecar (mm/.memcontrol.o.lockhog)"
else
	notok "report reads one sidecar (mm/.memcontrol.o.lockhog)"
fi

# 6.12's mm/ (make kernel-tree-612): every unit checked (page_alloc.c once
# crashed lockhog-check: a loop in a branch a constant rules out) and the
# 6.12 forms of the two bugs it still has, their local lock named (6.12's
# this_cpu_ptr() is "+=" on this CPU's offset, not asm)
if $LOCKHOG scan --frontend clang --kernel "$KDIR_612" -j 2 --format json --out $T/mm612.json mm/ \
	2>$T/scan612.err && ! grep -q 'lockhog-check failed' $T/scan612.err; then
	ok "scan --frontend clang of 6.12's mm/ runs, no internal error"
else
	notok "scan --frontend clang of 6.12's mm/ runs, no internal error" $T/scan612.err
fi
sidecars "$KDIR_612/mm" "6.12's mm/"
/usr/bin/python3 - $T/mm612.json $((n + 1)) <<'PY'
import json, sys
sys.path.insert(0, "tests/tools")
import mm_checks
d = json.load(open(sys.argv[1]))
tap = mm_checks.Tap(int(sys.argv[2]))
mm_checks.three_bugs(tap, d, flush=False)
tap.check("no finding of 6.12's mm/ names an unknown lock",
          not [f for f in d if f.get("lock") == "?"])
PY
