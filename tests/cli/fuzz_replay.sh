#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Replays what AFL++ found (tests/fuzz/crashers/, make fuzz) and a sample
# of the seeds it starts from: through the fuzz harnesses built with
# -fsanitize=address,undefined, and through the lockhog command.  Every
# input gives exit 0, 1 or 2, never a signal, and an error is one line
# (rules: "FILE:LINE: ...").
set -u
cd "$(dirname "$0")/../.."
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
LOCKHOG=${LOCKHOG:-$PWD/build/lockhog}
SAN=${FUZZ_SANDIR:-build/fuzz/san}	# set: harnesses built elsewhere
. tests/tap.sh
echo "1..9"

{ [ -n "${FUZZ_SANDIR:-}" ] || make -s --no-print-directory $SAN/fuzz_rules $SAN/fuzz_ir; } \
	>"$T/build.log" 2>&1 &&
	tests/fuzz/seeds.sh "$T/seeds" 8 >>"$T/build.log" 2>&1
res $? "sanitized harnesses and seeds build" "$T/build.log"

# A crash or sanitizer report exits > 1 (ASan 1 is turned into 99).
export ASAN_OPTIONS=exitcode=99:detect_leaks=0 UBSAN_OPTIONS=exitcode=99
harness() {	# harness NAME FILE ARG...
	local name=$1 f=$2 rc
	shift 2
	timeout 60 "$SAN/fuzz_$name" "$f" "$@" >/dev/null 2>"$T/err"
	rc=$?
	[ $rc -le 1 ] && return 0
	echo "$f: exit $rc: $(grep -m1 -E 'ERROR|runtime error|bad message' "$T/err")" >>"$T/bad"
}

# one_line FILE RC REGEX: exit 0..2, at most one line on stderr, matching
one_line() {
	local f=$1 rc=$2 re=$3 lines
	lines=$(wc -l <"$T/err")
	if [ "$rc" -gt 2 ]; then
		echo "$f: exit $rc" >>"$T/bad"
	elif [ "$lines" -gt 1 ] || { [ "$rc" != 0 ] && [ "$lines" = 0 ]; }; then
		echo "$f: exit $rc, $lines lines on stderr" >>"$T/bad"
	elif [ "$lines" = 1 ] && ! grep -qE "$re" "$T/err"; then
		echo "$f: $(head -c 200 "$T/err")" >>"$T/bad"
	fi
}

rules_cmd() {
	local f=$1
	timeout 60 "$LOCKHOG" rules --rules "$f" --check >/dev/null 2>"$T/err"
	one_line "$f" $? "^lockhog: $f:[0-9]+: [^ ]"
}

# The payload goes into an object's .note.lockhog, reported next to a
# good object: a bad one is skipped with one warning, the other reported.
echo 'int lockhog_fuzz_empty;' >"$T/empty.c"
gcc -c "$T/empty.c" -o "$T/empty.o"
gcc -O2 -c -Itests/fixtures/include -fplugin="$PWD/build/lockhog.so" \
	-fplugin-arg-lockhog-diag=none tests/fixtures/call-direct.c -o "$T/good.o"
"$LOCKHOG" dump "$T/good.o" >"$T/good.pl"
ir_cmd() {
	local f=$1
	objcopy --add-section .note.lockhog="$f" --set-section-flags .note.lockhog=exclude \
		"$T/empty.o" "$T/x.o" || { echo "$f: objcopy failed" >>"$T/bad"; return; }
	timeout 60 "$LOCKHOG" report "$T/good.o" "$T/x.o" >/dev/null 2>"$T/err"
	one_line "$f" $? "^lockhog: $T/x.o: "
}

# check NAME DESC CMD FILE...: one TAP line for CMD over the files
check() {
	local desc=$1 cmd=$2 f cnt=0
	shift 2
	rm -f "$T/bad"
	for f in "$@"; do
		[ -f "$f" ] || continue
		$cmd "$f"
		cnt=$((cnt + 1))
	done
	if [ ! -s "$T/bad" ] && [ $cnt -gt 0 ]; then
		ok "$desc ($cnt files)"
	elif [ $cnt = 0 ] && [ "${desc#* crashers}" != "$desc" ]; then
		ok "$desc (none committed)"
	else
		notok "$desc ($cnt files)" "$T/bad"
	fi
}
h_rules() { harness rules "$1" "$T/good.pl"; }
h_ir() { harness ir "$1" rules/kernel.rules; }

check "rules crashers: harness" h_rules tests/fuzz/crashers/rules/*
check "rules crashers: lockhog rules --check" rules_cmd tests/fuzz/crashers/rules/*
check "rules seeds: harness" h_rules "$T"/seeds/rules/*
check "rules seeds: lockhog rules --check" rules_cmd "$T"/seeds/rules/*
check "ir crashers: harness" h_ir tests/fuzz/crashers/ir/*
check "ir crashers: lockhog report" ir_cmd tests/fuzz/crashers/ir/*
check "ir seeds: harness" h_ir "$T"/seeds/ir/*
check "ir seeds: lockhog report" ir_cmd "$T"/seeds/ir/*
