#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# lockhog-test: slow (make check-full; tests/run.sh)
# make e2e as TAP: scripts/e2e.sh builds (or reuses) the three kernels
# under build/e2e, boots them under QEMU and writes the before/after table;
# these tests assert what the table must show (issue 10, section 5):
#
#   pristine  page_counter_uncharge and css_put run inside stock_lock
#             sections, free_pcppages_bulk frees more than a batch in one
#             zone->lock hold, stats_flush_threshold takes atomic RMWs:
#             each non-zero, or the workload does not exercise the bug;
#   patched   none of them: zero calls, at most a batch per hold (and the
#             loop measured at all), no RMWs;
#   prove     PROVE_LOCKING + DEBUG_ATOMIC_SLEEP: lockdep on, no lockdep
#             splat, no WARNING or BUG in dmesg.
#
# And first, that the runtime patch's include/linux/lockhog.h declares
# what rt/lockhog_rt.h does (tests/e2e/header_agree.py).
#
# Conditions, never timings.  tests/e2e/guest/ holds the guest's /init
# and workload: not suites (tests/run.sh runs tests/e2e/*.sh only).
set -u
cd "$(dirname "$0")/../.."
E2E=build/e2e
OUT=build/tests/e2e
mkdir -p "$OUT"
echo "1..17"
. tests/tap.sh

python3 tests/e2e/header_agree.py rt/lockhog_rt.h \
	kernel-patches/linux-6.1/runtime/0001-lockhog-kernel-runtime.patch >"$OUT/header.log" 2>&1
res $? "include/linux/lockhog.h of the runtime patch agrees with rt/lockhog_rt.h" "$OUT/header.log"

scripts/e2e.sh >"$OUT/e2e.log" 2>&1
rc=$?
res $rc "make e2e: three kernels built, booted, the table written" "$OUT/e2e.log"

# val KERNEL FIELD: a number from result.json, empty when there is none
val() {
	python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))[sys.argv[2]][sys.argv[3]])' \
		"$E2E/result.json" "$1" "$2" 2>/dev/null
}
batch() {
	python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["batch"][sys.argv[2]] or "")' \
		"$E2E/result.json" "$1" 2>/dev/null
}
# check DESCRIPTION EXPR: EXPR an arithmetic test on the values
check() {
	if [ -n "$3" ] && [ "$3" -eq "$3" ] 2>/dev/null && eval "[ $2 ]"; then
		ok "$1"
	else
		notok "$1: ${3:-no value} (see $E2E/result.json)" "$OUT/e2e.log"
	fi
}

v=$(val pristine sites_total)
check "pristine: mm/ is instrumented (sites_total > 0)" '"$v" -gt 0' "$v"
v=$(val pristine uncharge_in_stock_lock)
check "pristine: page_counter_uncharge inside stock_lock sections" '"$v" -gt 0' "$v"
v=$(val pristine css_put_in_stock_lock)
check "pristine: css_put inside stock_lock sections" '"$v" -gt 0' "$v"
v=$(val pristine bulk_free_max_per_hold) b=$(batch pristine)
check "pristine: free_pcppages_bulk frees more than a batch ($b) in one zone->lock hold" \
	'"$v" -gt "${b:-0}" -a -n "$b"' "$v"
v=$(val pristine stats_flush_threshold_rmw)
check "pristine: atomic RMWs on stats_flush_threshold" '"$v" -gt 0' "$v"

v=$(val patched sites_total)
check "patched: mm/ is instrumented (sites_total > 0)" '"$v" -gt 0' "$v"
v=$(val patched uncharge_in_stock_lock)
check "patched: no page_counter_uncharge inside stock_lock sections" '"$v" -eq 0' "$v"
v=$(val patched css_put_in_stock_lock)
check "patched: no css_put inside stock_lock sections" '"$v" -eq 0' "$v"
v=$(val patched bulk_free_max_per_hold) b=$(batch patched)
check "patched: free_pcppages_bulk frees at most a batch ($b) per zone->lock hold, and was measured" \
	'"$v" -gt 0 -a -n "$b" -a "$v" -le "${b:-0}"' "$v"
v=$(val patched stats_flush_threshold_rmw)
check "patched: no atomic RMWs on stats_flush_threshold" '"$v" -eq 0' "$v"

D=$E2E/prove.dmesg
if [ -s "$D" ] && grep -q 'Lock dependency validator' "$D"; then
	ok "prove: the kernel runs with lockdep (PROVE_LOCKING) on"
else
	notok "prove: no lockdep banner in $D" "$OUT/e2e.log"
fi
LOCKDEP='possible recursive locking|possible circular locking|inconsistent lock state|possible irq lock inversion|suspicious RCU usage|bad unlock balance|lock held when returning|INFO: lockdep is turned off|BUG: sleeping function called from invalid context|Invalid wait context'
if [ -s "$D" ] && ! grep -E -q "$LOCKDEP" "$D"; then
	ok "prove: no lockdep splat"
else
	notok "prove: a lockdep splat, or no dmesg: $(grep -E -m1 "$LOCKDEP" "$D" 2>/dev/null)" "$D"
fi
if [ -s "$D" ] && ! grep -E -q 'WARNING:|BUG:|Oops|Call Trace' "$D"; then
	ok "prove: no WARNING, BUG or Oops in dmesg"
else
	notok "prove: $(grep -E -m1 'WARNING:|BUG:|Oops|Call Trace' "$D" 2>/dev/null || echo no dmesg)" "$D"
fi

if [ -f "$E2E/report.html" ]; then
	grep -q '<svg' "$E2E/report.html"
	res $? "report.html rendered by lockhog report, with its chart"
else
	notok "report.html missing" "$OUT/e2e.log"
fi
# the static finding beside what was measured, on the pristine kernel's page
python3 - "$E2E/report.html" <<'PY' >"$OUT/join.txt" 2>&1
import html, re, sys
text = html.unescape(re.sub(r"<[^>]+>", "", open(sys.argv[1]).read()))
m = re.search(r"predicted: page_counter_uncharge under memcg_stock\.stock_lock[^\n]*?"
              r"measured: [\d,]+ holds, [\d,]+ with page_counter_uncharge inside[^\n]*", text)
print(m.group(0) if m else "no line measuring the predicted page_counter_uncharge under memcg_stock.stock_lock")
sys.exit(0 if m else 1)
PY
res $? "report.html: the uncharge under memcg_stock.stock_lock, predicted and measured: $(head -c 160 "$OUT/join.txt")" "$OUT/join.txt"
echo "# $fails of $n failed"
