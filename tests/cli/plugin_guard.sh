#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The crash guard.  A fault injected into the plugin (fault=FUNC: a real
# SIGSEGV; fault-ice=FUNC: a failed GCC assertion) while it lowers a
# function with loops (done in a forked copy of the compiler), a
# function without (done in the compiler itself), or analyses the unit
# (FUNC "@analysis", in a forked copy) never fails the build, prints one
# note and no ICE, and leaves the object's code and data exactly as a
# build without the plugin makes them.  On a fixture and on mm/memcontrol.o
# compiled from kbuild's own command line into a scratch file.
set -u
cd "$(dirname "$0")/../.."
KDIR=${KDIR:-$PWD/build/linux-6.1}
LOCKHOG=${LOCKHOG:-$PWD/build/lockhog}
. tests/tap.sh
. tests/tools/objcmp.sh
export LC_ALL=C
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
PFLAGS=(-fplugin="$PWD/build/lockhog.so" -fplugin-arg-lockhog-rules="$PWD/rules/kernel.rules")
FIXTURE=tests/fixtures/bug-free-pcppages-bulk.c
UNIT=mm/memcontrol.o
# the unit is compiled from kbuild's command line: build mm/ once if nothing has yet
[ -f "$KDIR/mm/.memcontrol.o.cmd" ] ||
	$LOCKHOG scan --kernel "$KDIR" -j 2 --out "$T/scan.txt" mm/ >/dev/null 2>&1
echo "1..33"

fixture() {	# fixture OUT [FLAG...]
	local out=$1

	shift
	gcc -O2 -c -Itests/fixtures/include "$@" "$FIXTURE" -o "$out"
}
unit() {	# unit OUT [FLAG...]
	local out=$1

	shift
	/usr/bin/python3 tests/tools/replay_unit.py "$KDIR" "$UNIT" "$out" "$@"
}
# "NAME LOOPS" for each function of the unit's own file, from its IR
funcs() {
	$LOCKHOG dump "$1" | awk '/^T /{tu=$2} /^F /{f=$2; own[f]=$4==tu; o[n++]=f; l[f]=0}
		/^L /{l[f]=1} END{for (i = 0; i < n; i++) if (own[o[i]]) print o[i], l[o[i]]}'
}
nfuncs() { $LOCKHOG dump "$1" | grep -c "^F ${2:-}"; }

# one injected fault: TARGET NAME FLAG WHERE NOTE-REGEX SECTION(yes|no)
fault() {
	local target=$1 name=$2 flag=$3 where=$4 re=$5 section=$6 d=$T/$1.$2 why rc notes

	mkdir -p "$d"
	"$target" "$d/x.o" "${PFLAGS[@]}" "-fplugin-arg-lockhog-$flag=$where" >"$d/out" 2>&1
	rc=$?
	notes=$(grep -c 'lockhog: internal error' "$d/out")
	if [ "$rc" = 0 ] && [ "$notes" = 1 ] && grep -qE "$re" "$d/out" &&
		! grep -q 'internal compiler error' "$d/out"; then
		ok "$target, $name: the build succeeds with one note"
	else
		notok "$target, $name: exit $rc, $notes notes" "$d/out"
	fi
	if [ "$section" = no ]; then
		# the plugin stopped for the unit: no section at all, the rest the same
		if readelf -S -W "$d/x.o" | grep -q ' \.note\.lockhog '; then
			notok "$target, $name: no section, same code (a section is there)"
		elif why=$(same_object "$T/$target.plain.o" "$d/x.o" "$d/cmp" absent); then
			ok "$target, $name: no section, the same code and data as without the plugin"
		else
			notok "$target, $name: no section, same code ($why)"
		fi
	elif why=$(same_object "$T/$target.plain.o" "$d/x.o" "$d/cmp"); then
		ok "$target, $name: the same code and data as without the plugin"
	else
		notok "$target, $name: $why"
	fi
}

for target in fixture unit; do
	if "$target" "$T/$target.plain.o" >"$T/$target.plain.log" 2>&1 &&
		"$target" "$T/$target.plugin.o" "${PFLAGS[@]}" >"$T/$target.plugin.log" 2>&1; then
		ok "$target builds with and without the plugin"
	else
		notok "$target builds with and without the plugin" "$T/$target.plain.log"
	fi
	loopf=$(funcs "$T/$target.plugin.o" | awk '$2 == 1 {print $1; exit}')
	flatf=$(funcs "$T/$target.plugin.o" | awk '$2 == 0 {print $1; exit}')
	all=$(nfuncs "$T/$target.plugin.o")
	one=$(nfuncs "$T/$target.plugin.o" "$loopf ")
	if [ -n "$loopf" ] && [ -n "$flatf" ]; then
		ok "$target has a function with loops ($loopf) and one without ($flatf)"
	else
		notok "$target has a function with loops ($loopf) and one without ($flatf)"
	fi

	q="'$loopf'"
	fault "$target" "SIGSEGV lowering $loopf" fault "$loopf" \
		"internal error \(Segmentation fault\) while lowering $q; function skipped" yes
	left=$(nfuncs "$T/$target.SIGSEGV lowering $loopf/x.o")
	[ "$left" = $((all - one)) ] && [ "$(nfuncs "$T/$target.SIGSEGV lowering $loopf/x.o" "$loopf ")" = 0 ] &&
		ok "$target, SIGSEGV lowering $loopf: every other function is in the section" ||
		notok "$target, SIGSEGV lowering $loopf: $left functions in the section, want $((all - one))"
	fault "$target" "assertion lowering $loopf" fault-ice "$loopf" \
		"internal error \(compiler assertion\) while lowering $q; function skipped" yes

	q="'$flatf'"
	fault "$target" "SIGSEGV lowering $flatf" fault "$flatf" \
		"internal error \(Segmentation fault\) while lowering $q; no analysis for this unit" no
	fault "$target" "assertion lowering $flatf" fault-ice "$flatf" \
		"internal error \(compiler assertion\) while lowering $q; no analysis for this unit" no

	fault "$target" "SIGSEGV in the analysis" fault @analysis \
		"internal error \(Segmentation fault\) during analysis; no findings for this unit" yes
	fault "$target" "assertion in the analysis" fault-ice @analysis \
		"internal error \(compiler assertion\) during analysis; no findings for this unit" yes
	# all or nothing: the findings the unit has without a fault are not half printed
	if grep -q 'warning: .*\[-Wlockhog-' "$T/$target.plugin.log" &&
		! grep -q 'Wlockhog-' "$T/$target.SIGSEGV in the analysis/out"; then
		ok "$target: a fault in the analysis prints none of its findings"
	else
		notok "$target: a fault in the analysis prints none of its findings" \
			"$T/$target.SIGSEGV in the analysis/out"
	fi
done

# a crash in a forked copy leaves no core file where the compilers ran
if [ -z "$(find . "$KDIR" -maxdepth 1 -type f -name 'core*' -newer "$T/fixture.plain.o")" ]; then
	ok "no core file left behind"
else
	notok "no core file left behind"
fi
exit 0
