#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Runs every lockhog test and ends with "N passed, N failed".
#
#   unit/         cmocka tests of the core (TAP)
#   fixtures/     kernel-style snippets checked with lit and FileCheck
#   cli/          the command's behaviour on bad input (TAP scripts)
#   integration/  scans of the real linux-6.1 tree, and of mm/ of
#                 linux-6.12 (scan_mm_612.sh, KDIR_612) (TAP scripts)
#   review/       lockhog review of patches to that tree (TAP scripts)
#   series/       the linux-6.1 mm series: make kernel-patches, make kernel,
#                 lockhog fix against 0001 (TAP)
#   runtime/      the userspace runtime, its probes called by hand (TAP)
#   report/       lockhog report on run-time data: text, JSON, the HTML page
#                 in headless Chromium (TAP)
#   cocci/        the semantic patches: apply, refuse, run the models, and
#                 make coccicheck on KDIR in every mode (TAP)
#   e2e/          make e2e: the series measured before and after with the
#                 kernel runtime under QEMU (TAP; kernels kept in build/e2e)
#
# KDIR names the kernel tree (make check passes build/linux-6.1), KDIR_612
# the 6.12 one (build/linux-6.12).
#
# Two tiers.  make check runs the quick one, which must stay under an
# hour on a fresh clone of two cores (CI's budget): it skips the suites
# whose script carries the line "# lockhog-test: slow" (the series built
# and compared, the QEMU boots), builds 60 csmith programs instead of
# 300, replays every third unit of mm/ in plugin_nochange and sends six
# of mm/'s units through distcc instead of all of it.  make
# check-full (LOCKHOG_CHECK_FULL=1) runs everything.  Each suite's wall
# time is written to build/tests/log/times; the slowest are printed.
set -u
cd "$(dirname "$0")/.."
export KDIR=${KDIR:-$PWD/build/linux-6.1}
export KDIR_612=${KDIR_612:-$PWD/build/linux-6.12}
export LOCKHOG=$PWD/build/lockhog
FULL=${LOCKHOG_CHECK_FULL:-0}
if [ "$FULL" != 1 ]; then
	export CSMITH_SEEDS=${CSMITH_SEEDS:-60}
	export NOCHANGE_STRIDE=${NOCHANGE_STRIDE:-3}
	# mempolicy.c's queue_folios_pmd() reaches vmscan.c held by an annotation
	export DISTCC_PATHS=${DISTCC_PATHS:-"mm/memcontrol.c mm/page_alloc.c mm/slub.c mm/hugetlb.c mm/mempolicy.c mm/vmscan.c"}
fi
pass=0 fail=0 xfail=0
failed=()
skipped=()
LOG=build/tests/log
mkdir -p "$LOG"
: >"$LOG/times"

. tests/harness.sh

# suite NAME COMMAND...: runs it, counts its TAP, records its wall time
suite() {
	local name=$1 out=$LOG/${1//\//_}.tap t0=$SECONDS

	shift
	"$@" >"$out" 2>&1
	tap "$name" "$out" $?
	echo "$((SECONDS - t0)) $name" >>"$LOG/times"
}

for t in build/tests/test_*; do
	[ -x "$t" ] || continue
	suite "unit/$(basename "$t")" env CMOCKA_MESSAGE_OUTPUT=TAP "$t"
done

if [ -f tests/fixtures/lit.cfg.py ]; then
	/usr/bin/python3 /usr/lib/llvm-14/build/utils/lit/lit.py -v tests/fixtures \
		>"$LOG/fixtures.out" 2>&1
	rc=$?
	p=$(grep -cE '^(PASS|XFAIL): ' "$LOG/fixtures.out")
	f=$(grep -cE '^(FAIL|XPASS|UNRESOLVED|TIMEOUT): ' "$LOG/fixtures.out")
	x=$(grep -cE '^XFAIL: ' "$LOG/fixtures.out")
	planned=$(sed -nE 's/^-- Testing: ([0-9]+) tests?,.*/\1/p' "$LOG/fixtures.out")
	if [ -z "$planned" ] || [ $((p + f)) != "$planned" ]; then
		echo "FAIL fixtures: lit discovered ${planned:-no} tests, reported $((p + f))"
		missing=$((${planned:-0} - p - f))
		[ "$missing" -lt 1 ] && missing=1
		fail=$((fail + missing))
		failed+=(fixtures)
	fi
	pass=$((pass + p))
	fail=$((fail + f))
	xfail=$((xfail + x))
	grep -E '^(FAIL|XPASS|UNRESOLVED|TIMEOUT): ' "$LOG/fixtures.out" | sed 's/^/FAIL fixtures: /'
	[ "$f" != 0 ] && failed+=(fixtures)
	if [ $rc != 0 ] && [ "$f" = 0 ]; then
		echo "FAIL fixtures: lit exited $rc (see $LOG/fixtures.out)"
		fail=$((fail + 1))
	fi
	echo "fixtures: $p passed ($x expected failures), $f failed"
fi

for dir in cli integration review series report clang e2e; do
	for t in tests/$dir/*.sh; do
		[ -f "$t" ] || continue
		n=$dir/$(basename "$t" .sh)
		if [ "$FULL" != 1 ] && grep -q '^# lockhog-test: slow' "$t"; then
			skipped+=("$n")
			continue
		fi
		suite "$n" bash "$t"
	done
done

# the userspace runtime (rt/): its probes by hand, its output
if [ -f tests/runtime/run.sh ]; then
	suite runtime bash tests/runtime/run.sh
fi

# After integration/, which configured and built KDIR: the semantic
# patches also run through the tree's own make coccicheck.
if [ -x tests/cocci/run.sh ]; then
	suite cocci env COCCICHECK_KDIR="$KDIR" tests/cocci/run.sh
fi

echo "slowest suites: $(sort -rn "$LOG/times" | head -6 | awk '{printf "%s%s %ds", (NR > 1 ? ", " : ""), $2, $1}')"
[ ${#skipped[@]} -gt 0 ] && echo "not run in this tier (make check-full runs them): ${skipped[*]}"
[ ${#failed[@]} -gt 0 ] && echo "failing suites: ${failed[*]} (logs in $LOG)"
[ "$xfail" -gt 0 ] && echo "$xfail known false positives/negatives are marked XFAIL"
echo "$pass passed, $fail failed"
[ "$fail" = 0 ]
