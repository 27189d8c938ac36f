#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# -Wno-lockhog-KIND and -Wno-lockhog on the compiler's command line (as
# KCFLAGS passes them) silence the plugin's diagnostics of that kind, or
# of every kind; -fplugin-arg-lockhog-Wlockhog-KIND (GCC refuses an
# unknown -Wlockhog-KIND) shows them again; the last one given wins,
# whatever the driver's reordering of -W before -f.  The compile still
# succeeds, the warnings stay warnings under -Werror, GCC does not call
# the option unrecognised, and the analysis in the object and in json=
# is the same as without the option.
set -u
cd "$(dirname "$0")/../.."
LOCKHOG=${LOCKHOG:-$PWD/build/lockhog}
. tests/tap.sh
export LC_ALL=C
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
# parent-call.c's loop runs under a lock with IRQs on: as in its lit RUN
# line, "loop irqs-on=warn" keeps it a warning (kernel.rules makes it a note)
cp rules/kernel.rules "$T/rules" && echo 'loop irqs-on=warn' >>"$T/rules"
PFLAGS=(-fplugin="$PWD/build/lockhog.so" -fplugin-arg-lockhog-rules="$T/rules"
	-fno-diagnostics-show-caret -fdiagnostics-color=never)
# parent-call.c: one call and one loop finding; sleep-msleep.c: a sleep;
# atomic-global.c: atomics
echo "1..21"

cc() {	# cc NAME FIXTURE [FLAG...]: stderr in $T/NAME.err, exit status in $T/NAME.rc
	local name=$1 fx=tests/fixtures/$2

	shift 2
	gcc -O2 -c -Itests/fixtures/include "${PFLAGS[@]}" "$@" "$fx" -o "$T/$name.o" \
		>"$T/$name.err" 2>&1
	echo $? >"$T/$name.rc"
}
kinds() { grep -o '\[-Wlockhog-[a-z]*\]' "$T/$1.err" | sort -u | tr -d '[]' | tr '\n' ' '; }
# expect NAME "KINDS": the build succeeded, showing exactly these kinds
expect() {
	local got

	got=$(kinds "$1")
	if [ "$(cat "$T/$1.rc")" = 0 ] && [ "$got" = "$2" ]; then
		ok "$1: ${2:-no findings}"
	else
		notok "$1: want '${2}', got '$got', exit $(cat "$T/$1.rc")" "$T/$1.err"
	fi
}

cc plain parent-call.c
expect plain "-Wlockhog-call -Wlockhog-loop "
cc no-call parent-call.c -Wno-lockhog-call
expect no-call "-Wlockhog-loop "
cc no-loop parent-call.c -Wno-lockhog-loop
expect no-loop "-Wlockhog-call "
cc no-all parent-call.c -Wno-lockhog
expect no-all ""
cc sleep-plain sleep-msleep.c
expect sleep-plain "-Wlockhog-sleep "
cc no-sleep sleep-msleep.c -Wno-lockhog-sleep
expect no-sleep ""
cc atomic-plain atomic-global.c
expect atomic-plain "-Wlockhog-atomic "
cc no-atomic atomic-global.c -Wno-lockhog-atomic
expect no-atomic ""
cc atomic-no-call atomic-global.c -Wno-lockhog-call
expect atomic-no-call "-Wlockhog-atomic "
# last one wins, also across -W and -fplugin-arg- (which the driver reorders)
cc all-then-loop parent-call.c -Wno-lockhog -fplugin-arg-lockhog-Wlockhog-loop
expect all-then-loop "-Wlockhog-loop "
cc loop-then-all parent-call.c -fplugin-arg-lockhog-Wlockhog-loop -Wno-lockhog
expect loop-then-all ""
cc call-on-off parent-call.c -Wno-lockhog-call -fplugin-arg-lockhog-Wlockhog -Wno-lockhog-call
expect call-on-off "-Wlockhog-loop "
cc arg-form parent-call.c -fplugin-arg-lockhog-Wno-lockhog-loop
expect arg-form "-Wlockhog-call "
# an unknown kind: GCC's business on the command line, a bad plugin argument
cc raw-bogus parent-call.c -Wno-lockhog-bogus
expect raw-bogus "-Wlockhog-call -Wlockhog-loop "
cc arg-bogus parent-call.c -fplugin-arg-lockhog-Wno-lockhog-bogus
if [ "$(cat "$T/arg-bogus.rc")" = 0 ] &&
	grep -q "lockhog: unknown option '-fplugin-arg-lockhog-Wno-lockhog-bogus'; plugin disabled" "$T/arg-bogus.err"; then
	ok "arg-bogus: a bad kind as a plugin argument turns the plugin off with a note"
else
	notok "arg-bogus: a bad kind as a plugin argument turns the plugin off with a note" "$T/arg-bogus.err"
fi

# -Werror: what is shown stays a warning and the build succeeds
cc werror parent-call.c -Werror -Wno-lockhog-call
expect werror "-Wlockhog-loop "
if grep -q 'warning: unbounded loop' "$T/werror.err" && ! grep -q 'error:' "$T/werror.err"; then
	ok "werror: still a warning, not an error"
else
	notok "werror: still a warning, not an error" "$T/werror.err"
fi
# GCC does not take the option that worked for a misspelt one
if ! grep -q 'unrecognized command-line option' "$T/no-call.err"; then
	ok "no-call: GCC does not call -Wno-lockhog-call unrecognised"
else
	notok "no-call: GCC does not call -Wno-lockhog-call unrecognised" "$T/no-call.err"
fi

# only the diagnostics: the object's analysis and the json= file are the same
cc json-plain parent-call.c -fplugin-arg-lockhog-json="$T/plain.json"
cc json-no parent-call.c -Wno-lockhog -fplugin-arg-lockhog-json="$T/no.json"
if "$LOCKHOG" dump "$T/plain.o" >"$T/plain.ir" && "$LOCKHOG" dump "$T/no-all.o" >"$T/no.ir" &&
	[ -s "$T/plain.ir" ] && cmp -s "$T/plain.ir" "$T/no.ir"; then
	ok "the object's analysis is the same with -Wno-lockhog"
else
	notok "the object's analysis is the same with -Wno-lockhog"
fi
if [ -s "$T/plain.json" ] && cmp -s "$T/plain.json" "$T/no.json" &&
	[ "$(grep -c '"kind"' "$T/no.json")" -ge 2 ]; then
	ok "json= holds every finding with -Wno-lockhog"
else
	notok "json= holds every finding with -Wno-lockhog" "$T/no.json"
fi
# the diagnostics a kind left are whole: its notes go with it
if ! grep -q 'memcg_events_up' "$T/no-call.err" && grep -q 'note: chain: memcg_events_count -> memcg_events_hint' "$T/no-call.err"; then
	ok "no-call: the call finding's notes are gone, the loop's are there"
else
	notok "no-call: the call finding's notes are gone, the loop's are there" "$T/no-call.err"
fi
exit 0
