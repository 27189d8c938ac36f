#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# A real module of the 6.1 tree built with the plugin: efivarfs
# (CONFIG_EFIVAR_FS=m under the test configuration), made of four units
# that ld -r links into fs/efivarfs/efivarfs.o and then efivarfs.ko.
# The build prints the same warnings with the plugin as without it (no
# modpost "unexpected non-allocatable section": the section is a .note),
# and lockhog reads the composite object and the .ko, every unit once.
# Builds in a tree of its own, KDIR_MOD (default build/linux-6.1-mod),
# extracted and configured like the scan's the first time.
set -u
cd "$(dirname "$0")/../.."
. tests/tap.sh
LOCKHOG=${LOCKHOG:-$PWD/build/lockhog}
MDIR=${KDIR_MOD:-$PWD/build/linux-6.1-mod}
M=fs/efivarfs
UNITS="inode file super vars"
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
# what cmd/kbuild.c passes, diag=none: a scan's build
PLUGIN="-fplugin=$PWD/build/lockhog.so -fplugin-arg-lockhog-rules=$PWD/rules/kernel.rules -fplugin-arg-lockhog-diag=none -fplugin-arg-lockhog-tag=test"
echo "1..13"

if scripts/kernel-tree.sh "$MDIR" 2>"$T/prep.log" && scripts/kernel-config.sh "$MDIR" "$T/prep.log" &&
	grep -q '^CONFIG_EFIVAR_FS=m$' "$MDIR/.config" &&
	make -C "$MDIR" -j2 modules_prepare >>"$T/prep.log" 2>&1; then
	ok "a tree of its own, configured, modules prepared ($MDIR)"
else
	notok "a tree of its own, configured, modules prepared ($MDIR)" "$T/prep.log"
fi

# build NAME KCFLAGS: the module from clean, its log in $T/NAME.log
build() {
	make -C "$MDIR" M=$M clean >/dev/null 2>&1
	make -C "$MDIR" -j2 M=$M KCFLAGS="$2" modules >"$T/$1.log" 2>&1
}
# the diagnostics of a build, whatever their order
diags() {
	grep -iE 'warning|error' "$1" | sed 's/^[[:space:]]*//' | LC_ALL=C sort -u
}

build plain ""
res $? "$M builds without the plugin" "$T/plain.log"
diags "$T/plain.log" >"$T/plain.diags"
mkdir -p "$T/plain"
for u in $UNITS efivarfs; do cp "$MDIR/$M/$u.o" "$T/plain/"; done
cp "$MDIR/$M/efivarfs.ko" "$T/plain/"

build plugin "$PLUGIN"
res $? "$M builds with the plugin" "$T/plugin.log"
diags "$T/plugin.log" >"$T/plugin.diags"
if cmp -s "$T/plain.diags" "$T/plugin.diags"; then
	ok "the same warnings with the plugin as without ($(wc -l <"$T/plain.diags") distinct lines)"
else
	notok "the same warnings with the plugin as without"
	diff "$T/plain.diags" "$T/plugin.diags" | sed 's/^/# /' | head -n 20
fi
grep -q 'unexpected non-allocatable section' "$T/plugin.log" &&
	notok "modpost says nothing of the section" || ok "modpost says nothing of the section"
# the check can fail: modpost warns about the same section under the old name
mkdir -p "$T/old/$M"
printf '\t.pushsection .lockhog,"e",@progbits\n\t.ascii "x"\n\t.popsection\n\t.section .note.GNU-stack,"",@progbits\n' |
	as -o "$T/old.o" -
ld -r -o "$T/old/$M/efivarfs.o" "$MDIR/$M/efivarfs.o" "$T/old.o"
(cd "$T/old" && echo "$M/efivarfs.o" | "$MDIR/scripts/mod/modpost" -o "$T/old.symvers" -e -w -T - 2>&1) |
	grep -q "efivarfs.o (.lockhog): unexpected non-allocatable section"
res $? "modpost would warn about a section called .lockhog"

# every unit's payload is in the composite and in the .ko, once
payloads() { $LOCKHOG dump "$1" 2>&1 | grep -ac '^lockhog-ir '; }
np=0
for u in $UNITS; do np=$((np + $(payloads "$MDIR/$M/$u.o"))); done
[ "$np" = 4 ] && [ "$(payloads "$MDIR/$M/efivarfs.o")" = 4 ] && [ "$(payloads "$MDIR/$M/efivarfs.ko")" = 4 ]
res $? "each unit has a payload; efivarfs.o and efivarfs.ko hold the four ($np, $(payloads "$MDIR/$M/efivarfs.o"), $(payloads "$MDIR/$M/efivarfs.ko"))"

# one report, however the units are handed over
report() {	# NAME OBJ|DIR...
	local name=$1

	shift
	$LOCKHOG report --all --format json --out "$T/$name.json" "$@" 2>"$T/$name.err"
}
units=()
for u in $UNITS; do units+=("$MDIR/$M/$u.o"); done
report units "${units[@]}"
res $? "lockhog report reads the four units"
for what in efivarfs.o efivarfs.ko; do
	if report "$what" "$MDIR/$M/$what" && [ ! -s "$T/$what.err" ] &&
		cmp -s "$T/units.json" "$T/$what.json"; then
		ok "lockhog report reads $what: the four units, once"
	else
		notok "lockhog report reads $what: $(head -c 200 "$T/$what.err")"
	fi
done
# the directory: units, composite, module and the .mod.o, each unit once
if report dir "$MDIR/$M" && cmp -s "$T/units.json" "$T/dir.json"; then
	ok "lockhog report of $M/ counts every unit once"
else
	notok "lockhog report of $M/ counts every unit once: $(head -c 200 "$T/dir.err")"
fi
# the summaries of every function of the module's own files, every way
funcs=()
while read -r f; do funcs+=(--function "$f"); done < <($LOCKHOG dump "$MDIR/$M/efivarfs.o" |
	tr -d '\0' | awk '/^F / && $4 ~ /^fs\/efivarfs\// {print $2}' | sort -u)
$LOCKHOG summary "${funcs[@]}" "${units[@]}" >"$T/units.sum" 2>&1
$LOCKHOG summary "${funcs[@]}" "$MDIR/$M" >"$T/dir.sum" 2>&1
$LOCKHOG summary "${funcs[@]}" "$MDIR/$M/efivarfs.ko" >"$T/ko.sum" 2>&1
[ ${#funcs[@]} -gt 20 ] && cmp -s "$T/units.sum" "$T/dir.sum" && cmp -s "$T/units.sum" "$T/ko.sum"
res $? "the same summaries of the module's $((${#funcs[@]} / 2)) functions from the units, $M/ and the .ko"

# the module is the plain build's but for the section (and the build ID,
# a hash that covers it)
for b in plain plugin; do
	ko=$MDIR/$M/efivarfs.ko
	[ $b = plain ] && ko=$T/plain/efivarfs.ko
	objcopy -R .note.lockhog -R .note.gnu.build-id "$ko" "$T/$b.ko"
done
cmp -s "$T/plain.ko" "$T/plugin.ko"
res $? "efivarfs.ko, .note.lockhog and the build ID removed, is the plain build's"
exit 0
