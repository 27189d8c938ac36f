#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The plugin only reads the compilation: every fixture (gcc -O2, and
# -O2 -g), and every unit of mm/ of the 6.1 tree compiled again from
# kbuild's own command line (compiler and objtool, into a scratch file),
# gives the same code and data with and without it; only .note.lockhog
# differs.  Nothing is written into KDIR.  NOCHANGE_STRIDE=N replays
# every Nth unit only (make check's quick tier: 3), memcontrol.o and
# page_alloc.o always.
set -u
cd "$(dirname "$0")/../.."
KDIR=${KDIR:-$PWD/build/linux-6.1}
LOCKHOG=${LOCKHOG:-$PWD/build/lockhog}
. tests/tap.sh
. tests/tools/objcmp.sh
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
PLUGIN=$PWD/build/lockhog.so
RULES=$PWD/rules/kernel.rules
PFLAGS=(-fplugin="$PLUGIN" -fplugin-arg-lockhog-rules="$RULES")
JOBS=2

# kbuild's command lines of mm/ are what is replayed: build mm/ once if
# nothing has yet
if ! ls "$KDIR"/mm/.*.o.cmd >/dev/null 2>&1; then
	$LOCKHOG scan --kernel "$KDIR" -j $JOBS --out "$T/scan.txt" mm/ 2>"$T/scan.err" ||
		echo "# scan of mm/ failed: $(tail -1 "$T/scan.err")"
fi
FIXTURES=(tests/fixtures/*.c tests/fixtures/Inputs/*.c)
UNITS=()
for f in "$KDIR"/mm/.*.o.cmd "$KDIR"/mm/*/.*.o.cmd; do
	[ -f "$f" ] && head -1 "$f" | grep -q ' -c -o ' || continue
	u=${f#"$KDIR"/}
	u=${u%.cmd}
	UNITS+=("$(dirname "$u")/$(basename "$u" | sed 's/^\.//')")
done
STRIDE=${NOCHANGE_STRIDE:-1}
ALL_UNITS=${#UNITS[@]}
if [ "$STRIDE" -gt 1 ]; then
	keep=()
	for i in "${!UNITS[@]}"; do
		case ${UNITS[$i]} in
		mm/memcontrol.o | mm/page_alloc.o) keep+=("${UNITS[$i]}") ;;
		*) [ $((i % STRIDE)) = 0 ] && keep+=("${UNITS[$i]}") ;;
		esac
	done
	UNITS=("${keep[@]}")
fi
echo "1..$((2 * ${#FIXTURES[@]} + ${#UNITS[@]} + 1))"
[ "$ALL_UNITS" -gt 50 ] && ok "mm/ has $ALL_UNITS units to replay; ${#UNITS[@]} replayed here" ||
	notok "mm/ has $ALL_UNITS units to replay (no kbuild of mm/ in $KDIR?)"

# one comparison: ID NAME, then how to build "plain" and "plugin"
# objects; writes the TAP verdict to $T/res/ID
mkdir -p "$T/res"
compare() {
	local id=$1 name=$2 d=$T/w/$1 why

	mkdir -p "$d"
	shift 2
	if ! "$@" plain "$d/plain.o" >"$d/plain.log" 2>&1; then
		echo "notok|$name: the build without the plugin fails|$d/plain.log" >"$T/res/$id"
	elif ! "$@" plugin "$d/plugin.o" >"$d/plugin.log" 2>&1; then
		echo "notok|$name: the build with the plugin fails|$d/plugin.log" >"$T/res/$id"
	elif why=$(same_object "$d/plain.o" "$d/plugin.o" "$d/cmp"); then
		echo "ok|$name: same code and data with and without the plugin|" >"$T/res/$id"
	else
		echo "notok|$name: $why|" >"$T/res/$id"
	fi
	rm -rf "$d/cmp" "$d"/*.o
}
fixture() {	# fixture SRC EXTRA-FLAGS plain|plugin OUT
	local src=$1 extra=$2 how=$3 out=$4 p=()

	[ "$how" = plugin ] && p=("${PFLAGS[@]}")
	# shellcheck disable=SC2086
	gcc -O2 $extra -c -Itests/fixtures/include "${p[@]}" "$src" -o "$out"
}
unit() {	# unit mm/x.o plain|plugin OUT
	local p=()

	[ "$2" = plugin ] && p=("${PFLAGS[@]}")
	/usr/bin/python3 tests/tools/replay_unit.py "$KDIR" "$1" "$3" "${p[@]}"
}
pool() {	# runs "$@" in the background, JOBS at a time
	"$@" &
	while [ "$(jobs -rp | wc -l)" -ge $JOBS ]; do
		wait -n
	done
}

i=0
for f in "${FIXTURES[@]}"; do
	pool compare $((i += 1)) "$f (-O2)" fixture "$f" ""
	# -g: the debug info too, less the command line GCC records in it
	pool compare $((i += 1)) "$f (-O2 -g)" fixture "$f" "-g -gno-record-gcc-switches"
done
for u in "${UNITS[@]}"; do
	pool compare $((i += 1)) "$u (kbuild's command line)" unit "$u"
done
wait
for j in $(seq 1 $i); do
	IFS='|' read -r verdict name log <"$T/res/$j" || { notok "comparison $j did not finish"; continue; }
	if [ "$verdict" = ok ]; then ok "$name"; else notok "$name" "$log"; fi
done
exit 0
