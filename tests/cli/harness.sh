#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Self-test of the harness: a suite that reports fewer (or more) results
# than its plan, or none, or dies, must fail, and the tests it lost must
# count as failed in the closing line.
set -u
cd "$(dirname "$0")/../.."
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
. tests/tap.sh
echo "1..6"

# runs tap() on a fake suite output; prints "PASS FAIL NFAILED-SUITES"
count() {
	local rc=$1
	shift
	printf '%s\n' "$@" >$T/suite.tap
	(
		pass=0 fail=0 failed=()
		. tests/harness.sh
		tap fake $T/suite.tap "$rc" >/dev/null
		echo "$pass $fail ${#failed[@]}"
	)
}

[ "$(count 0 1..3 'ok 1 - a' 'ok 2 - b' 'ok 3 - c')" = "3 0 0" ]
res $? "a suite that meets its plan passes"
[ "$(count 0 1..15 'ok 1 - a' 'ok 2 - b')" = "2 13 1" ]
res $? "planned 15, printed 2: 13 count as failed"
[ "$(count 0 1..2 'ok 1 - a' 'ok 2 - b' 'ok 3 - c')" = "3 1 1" ]
res $? "more results than planned fails"
[ "$(count 0 'ok 1 - a')" = "1 1 1" ]
res $? "no plan fails"
[ "$(count 3 1..1 'ok 1 - a')" = "1 1 1" ]
res $? "a suite that exits non-zero with every test passing fails"
[ "$(count 1 1..2 'ok 1 - a' 'not ok 2 - b')" = "1 1 1" ]
res $? "a failing test counts once"
