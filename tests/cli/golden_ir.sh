#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Every fixture lowers to its golden IR, tests/golden/NAME.ir: the
# conformance suite of docs/ir.md.  A difference is a change of the
# lowering; when it is meant, tests/golden/update.sh (make golden).
#
#   LOCKHOG_IR_FRONTEND=CMD   check another frontend: CMD FIXTURE, run in
#                             tests/fixtures, prints the IR
#   GOLDEN_COMPARE=project    compare only what two frontends can share
#                             (golden_project in tests/golden/ir.sh)
set -u
cd "$(dirname "$0")/../.."
. tests/tap.sh
. tests/golden/ir.sh
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
mode=${GOLDEN_COMPARE:-exact}
mapfile -t fixtures < <(golden_fixtures)
echo "1..${#fixtures[@]}"
for f in "${fixtures[@]}"; do
	g=$(golden_file "$f")
	if [ ! -f "$g" ]; then
		notok "$f: no golden file (tests/golden/update.sh)"
		continue
	fi
	if ! golden_ir "$f" >"$T/ir" 2>"$T/err"; then
		notok "$f: the frontend failed" "$T/err"
		continue
	fi
	if [ "$mode" = project ]; then
		golden_project <"$g" >"$T/want"
		golden_project <"$T/ir" >"$T/got"
	else
		cp "$g" "$T/want"
		cp "$T/ir" "$T/got"
	fi
	if diff -u --label "golden/${f%.c}.ir" --label "now" "$T/want" "$T/got" >"$T/diff"; then
		ok "$f"
	else
		notok "$f: IR differs from tests/golden/${f%.c}.ir ($mode)"
		head -n 24 "$T/diff" | sed 's/^/# /'
	fi
done
