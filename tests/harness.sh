# SPDX-License-Identifier: GPL-2.0
# The test harness's bookkeeping, sourced by tests/run.sh (and by its
# self-test, tests/cli/harness.sh).  The caller sets pass=0 fail=0 and
# failed=() and prints "$pass passed, $fail failed" at the end.

# Counts TAP lines from a suite's output.  The plan (1..N) must be met:
# tests the suite planned and never reported count as failed, and a
# suite that dies without a plan fails as a whole.
tap() {
	local name=$1 out=$2 rc=$3 p f plan missing
	p=$(grep -cE '^ok [0-9]+' "$out")
	f=$(grep -cE '^not ok [0-9]+' "$out")
	plan=$(sed -nE 's/^1\.\.([0-9]+).*/\1/p' "$out" | head -1)
	pass=$((pass + p))
	fail=$((fail + f))
	grep -E '^not ok [0-9]+' "$out" | sed "s|^|FAIL $name: |"
	grep -E '^not ok [0-9]+' "$out" >/dev/null && failed+=("$name")
	if [ -z "$plan" ]; then
		echo "FAIL $name: no TAP plan (see $out)"
		fail=$((fail + 1))
		failed+=("$name")
	elif [ $((p + f)) != "$plan" ]; then
		missing=$((plan - p - f))
		[ "$missing" -lt 1 ] && missing=1
		echo "FAIL $name: planned $plan tests, reported $((p + f)) (see $out)"
		fail=$((fail + missing))
		failed+=("$name")
	elif [ "$rc" != 0 ] && [ "$f" = 0 ]; then
		echo "FAIL $name: exited $rc without a failing test (see $out)"
		fail=$((fail + 1))
		failed+=("$name")
	fi
	echo "$name: $p passed, $f failed"
}

