#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# csmith programs built with and without the plugin: the plugin must not
# break a build, print anything, or change the code.
#
# For each seed of 1..CSMITH_SEEDS (default 300; make fuzz runs 10000),
# csmith writes a program (CSMITH_OPTS: default a third of csmith's own
# size, so that 300 seeds take a few minutes on two cores), built with gcc -O2 without the plugin and with
# it at -fplugin-arg-lockhog-diag=none and =warn.  The three builds must
# all succeed, print the same diagnostics, have the same objdump -d, and
# be byte-identical once the plugin's .note.lockhog is removed; the
# program must print the same checksum and exit status either way, and
# lockhog must read what the plugin wrote.  lockhog-check must check the
# same program without a crash or a word on stderr, and leave a sidecar
# lockhog reads.  A seed whose program csmith
# cannot write, plain gcc cannot build, or that runs past the timeout in
# both builds is skipped.  One TAP line per check per group of
# CSMITH_GROUP seeds (default 50).
set -u
cd "$(dirname "$0")/../.."
N=${CSMITH_SEEDS:-300}
G=${CSMITH_GROUP:-50}
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
export T PLUGIN=${CSMITH_PLUGIN:-$PWD/build/lockhog.so} LOCKHOG=${LOCKHOG:-$PWD/build/lockhog}
export CHECKER=${CSMITH_CHECKER:-$PWD/build/lockhog-check}
export CF="-O2 -I/usr/include/csmith"
export CSMITH_OPTS=${CSMITH_OPTS---max-funcs 5 --max-block-depth 3}
. tests/tap.sh
ngroups=$(((N + G - 1) / G))
checks="build code run read check"
echo "1..$((1 + 5 * ngroups))"

# one SEED: writes T/SEED.res, one "CHECK ok|skip|fail [why]" a line
one() {
	local s=$1 d=$T/$1 m rc1 rc2
	mkdir -p "$d"
	cd "$d" || return
	exec >"$T/$s.res" 2>/dev/null
	if ! timeout 30 csmith $CSMITH_OPTS --seed "$s" -o p.c ||
		! timeout 120 gcc $CF -c p.c -o plain.o 2>plain.err ||
		! gcc plain.o -o plain; then
		echo "build skip"
		return
	fi
	for m in none warn; do
		if ! timeout 240 gcc $CF -fplugin="$PLUGIN" -fplugin-arg-lockhog-diag=$m \
			-c p.c -o $m.o 2>$m.err; then
			echo "build fail diag=$m: $(grep -m1 -E 'error|lockhog' $m.err)"
			return
		fi
		if ! cmp -s plain.err $m.err; then
			echo "build fail diag=$m: $(diff plain.err $m.err | grep -m1 '^>')"
			return
		fi
	done
	echo "build ok"
	objcopy plain.o plain.x.o
	for m in none warn; do
		objcopy -R .note.lockhog $m.o $m.x.o
		if ! readelf -S $m.o | grep -q '\.note\.lockhog'; then
			echo "code fail diag=$m: no .note.lockhog section"
			m=
			break
		elif ! cmp -s <(objdump -d plain.o | tail -n +3) <(objdump -d $m.o | tail -n +3); then
			echo "code fail diag=$m: objdump -d differs"
			m=
			break
		elif ! cmp -s plain.x.o $m.x.o; then
			echo "code fail diag=$m: objects differ outside .note.lockhog"
			m=
			break
		fi
	done
	[ -n "$m" ] && echo "code ok"
	gcc none.o -o none
	timeout 1 ./plain >plain.out
	rc1=$?
	timeout 1 ./none >none.out
	rc2=$?
	# one build past the timeout on a busy machine: give it longer
	if [ $rc1 = 124 ] && [ $rc2 != 124 ]; then
		timeout 60 ./plain >plain.out
		rc1=$?
	elif [ $rc2 = 124 ] && [ $rc1 != 124 ]; then
		timeout 60 ./none >none.out
		rc2=$?
	fi
	if [ $rc1 = 124 ] && [ $rc2 = 124 ]; then
		echo "run skip"
	elif [ $rc1 != $rc2 ] || ! cmp -s plain.out none.out; then
		echo "run fail: exit $rc1 and $rc2, $(head -c 60 plain.out) and $(head -c 60 none.out)"
	else
		echo "run ok"
	fi
	"$LOCKHOG" report none.o >report.out 2>report.err
	rc1=$?
	if [ $rc1 -le 1 ] && [ ! -s report.err ]; then
		echo "read ok"
	else
		echo "read fail: exit $rc1, $(head -1 report.err)"
	fi
	timeout 240 "$CHECKER" --diag=none -I/usr/include/csmith --sidecar=.p.o.lockhog p.c \
		>check.out 2>check.err
	rc1=$?
	"$LOCKHOG" report .p.o.lockhog >/dev/null 2>report2.err
	rc2=$?
	if [ $rc1 = 0 ] && [ ! -s check.err ] && [ $rc2 -le 1 ] && [ ! -s report2.err ]; then
		echo "check ok"
	else
		echo "check fail: exit $rc1, $(head -1 check.err) $(head -1 report2.err)"
	fi
	cd "$T" && rm -rf "$d"
}
export -f one

if ! command -v csmith >/dev/null || [ ! -f /usr/include/csmith/csmith.h ]; then
	notok "csmith and libcsmith-dev are installed (scripts/deps.sh)"
	for i in $(seq $((5 * ngroups))); do notok "csmith not installed"; done
	exit 0
fi
ok "csmith and libcsmith-dev are installed"
seq 1 "$N" | xargs -P 2 -n 1 bash -c 'one "$1"' _
for g in $(seq 0 $((ngroups - 1))); do
	lo=$((g * G + 1)) hi=$(((g + 1) * G))
	[ $hi -gt "$N" ] && hi=$N
	for c in $checks; do
		nok=0 nskip=0 bad=""
		for s in $(seq $lo $hi); do
			l=$(grep -m1 "^$c " "$T/$s.res" 2>/dev/null)
			case "$l" in
			"$c ok") nok=$((nok + 1)) ;;
			"$c fail"*) bad="$bad; seed $s: ${l#$c fail}" ;;
			*) nskip=$((nskip + 1)) ;;
			esac
		done
		if [ -z "$bad" ]; then
			ok "seeds $lo-$hi: $c ($nok ok, $nskip skipped)"
		else
			notok "seeds $lo-$hi: $c${bad:0:300}"
		fi
	done
done
[ "$fails" = 0 ]
