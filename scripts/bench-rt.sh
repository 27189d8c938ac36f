#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# make bench, the userspace runtime: instructions a probe adds to an
# uncontended critical section, counted by callgrind (issue 10 section 7:
# at most 40 an acquire/release pair).
#
#   [RT_BENCH_N=100000] scripts/bench-rt.sh
#
# scripts/bench-rt.c's loop of pthread_mutex_lock/unlock pairs, built
# without probes and with them, each run for N0 and N0 + N pairs: the
# difference over N is a pair's instructions, free of start-up, of the
# thread's first probe and of the report written at exit.  The probes
# are the plugin's (-fplugin-arg-lockhog-instrument=all) when it has the
# instrumentation pass, else placed by hand where docs/runtime.md puts
# them.  Instruction counts are exact; this is a bench, not a test.
set -euo pipefail
shopt -s inherit_errexit
cd "$(dirname "$0")/.."
N=${RT_BENCH_N:-100000}
N0=1000
TARGET=40
die() { echo "bench-rt: $*" >&2; exit 2; }
[[ $N =~ ^[1-9][0-9]*$ ]] || die "RT_BENCH_N must be a positive number, not '$N'"
command -v valgrind >/dev/null || die "valgrind missing (scripts/deps.sh)"
for f in build/lockhog.so build/liblockhog-rt.a build/liblockhog-rt.so; do
	[ -f "$f" ] || die "$f missing (make all)"
done
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
SRC=scripts/bench-rt.c
# free() is a GCC builtin, and the plugin probes no builtin call: made
# an ordinary one, in every build alike
CC="gcc -O2 -Irt -fno-builtin-free"
PLUGIN="-fplugin=$PWD/build/lockhog.so -fplugin-arg-lockhog-rules=$PWD/rules/userspace.rules
	-fplugin-arg-lockhog-diag=none -fplugin-arg-lockhog-instrument=all"
RT_A="build/liblockhog-rt.a -ljansson -lpthread"
RT_SO="-Lbuild -llockhog-rt -Wl,-rpath,$PWD/build"

$CC -o "$TMP/plain" $SRC -lpthread
# shellcheck disable=SC2086
$CC $PLUGIN -c -o "$TMP/instr.o" $SRC 2>"$TMP/plugin.err" || true
if nm "$TMP/instr.o" 2>/dev/null | grep -q ' U __lockhog_acquire'; then
	how="placed by the plugin (instrument=all)"
else
	how="placed by hand (this plugin has no instrument= pass)"
	$CC -DBY_HAND -c -o "$TMP/instr.o" $SRC
fi
# shellcheck disable=SC2086
$CC -o "$TMP/instr-a" "$TMP/instr.o" $RT_A
# shellcheck disable=SC2086
$CC -o "$TMP/instr-so" "$TMP/instr.o" $RT_SO

# ir BIN MODE PAIRS: the instructions callgrind counts in the whole run
ir() {
	local out=$TMP/cg.out
	valgrind --tool=callgrind --callgrind-out-file="$out" "$TMP/$1" "$2" "$3" \
		>/dev/null 2>"$TMP/valgrind.err" || {
		cat "$TMP/valgrind.err" >&2
		die "valgrind $1 $2 $3 failed"
	}
	sed -n 's/^summary: *//p' "$out"
}

# per_pair BIN MODE: a pair's instructions (two runs' difference over N)
per_pair() {
	local a b
	a=$(ir "$1" "$2" $N0)
	b=$(ir "$1" "$2" $((N0 + N)))
	echo "$a $b" | awk -v n=$N '{ printf "%.2f", ($2 - $1) / n }'
}

# added MODE BIN: the instructions the probes add to a pair
added() {
	awk -v a="$(per_pair "$2" "$1")" -v p="$(per_pair plain "$1")" 'BEGIN { printf "%.2f", a - p }'
}

echo "userspace runtime under callgrind: $N uncontended pthread mutex sections, probes $how"
plain=$(per_pair plain empty)
for lib in a so; do
	e=$(added empty instr-$lib)
	c=$(added call instr-$lib)
	name=liblockhog-rt.$lib
	verdict=$(awk -v x="$e" -v t=$TARGET 'BEGIN { print (x <= t) ? "within" : "OVER" }')
	printf '%s: %s instructions added per acquire/release pair, nothing inside (%s the %d target; the section itself %s)\n' \
		"$name" "$e" "$verdict" $TARGET "$plain"
	printf '%s: %s instructions added per pair with one costly call inside (free(NULL), its begin/end probes)\n' \
		"$name" "$c"
done
