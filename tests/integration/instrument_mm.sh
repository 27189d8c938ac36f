#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# instrument=all on mm/ of the real 6.1 tree: every unit, compiled from
# kbuild's own command line and checked by objtool as kbuild runs it,
# builds with no diagnostic at all; and the probes the e2e run reads are
# where they must be: the stock_lock section in refill_stock(), the
# uncharges and css_put in drain_stock(), the page-freeing loop in
# free_pcppages_bulk(), the atomic on stats_flush_threshold.
set -u
cd "$(dirname "$0")/../.."
. tests/tap.sh
export LC_ALL=C
: "${KDIR:?KDIR names a configured linux-6.1 tree}"
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
PFLAGS=(-fplugin="$PWD/build/lockhog.so" -fplugin-arg-lockhog-rules="$PWD/rules/kernel.rules"
	-fplugin-arg-lockhog-diag=none -fplugin-arg-lockhog-section=0
	-fplugin-arg-lockhog-instrument=all)
UNITS=()
for f in "$KDIR"/mm/.*.o.cmd; do
	[ -f "$f" ] && head -1 "$f" | grep -q ' -c -o ' || continue
	u=$(basename "$f" .cmd)
	UNITS+=("mm/${u#.}")
done
echo "1..$((${#UNITS[@]} + 8))"
[ ${#UNITS[@]} -gt 50 ] && ok "mm/ has ${#UNITS[@]} units" ||
	notok "mm/ has ${#UNITS[@]} units (no kbuild of mm/ in $KDIR?)"

build() {	# build mm/x.o: the instrumented object in $T, its messages beside it
	local o=$T/$(basename "$1")

	/usr/bin/python3 tests/tools/replay_unit.py "$KDIR" "$1" "$o" "${PFLAGS[@]}" \
		>"$o.log" 2>&1
	echo $? >"$o.rc"
}
for u in "${UNITS[@]}"; do
	build "$u" &
	[ "$(jobs -rp | wc -l)" -ge 2 ] && wait -n
done
wait
for u in "${UNITS[@]}"; do
	o=$T/$(basename "$u")
	if [ "$(cat "$o.rc")" = 0 ] && [ ! -s "$o.log" ]; then
		ok "$u: builds instrumented, objtool silent, no diagnostics"
	else
		notok "$u: builds instrumented, objtool silent, no diagnostics" "$o.log"
	fi
done

# calls from FUNC to the probe HOOK, by relocation
calls() {	# calls OBJ FUNC HOOK
	objdump -dr "$T/$1" | awk -v f="<$2>:" '$2 == f {p=1; next} /^[0-9a-f]+ <.*>:$/ {p=0} p' |
		grep -c "R_X86_64_PLT32.$3-"
}
[ "$(calls memcontrol.o drain_stock __lockhog_call_begin)" -ge 3 ]
res $? "drain_stock(): its uncharges and css_put are probed"
[ "$(calls memcontrol.o refill_stock __lockhog_acquire)" -ge 1 ] &&
	[ "$(calls memcontrol.o refill_stock __lockhog_release)" -ge 1 ]
res $? "refill_stock(): its section is opened and closed"
strings "$T/memcontrol.o" | grep -qx 'memcg_stock.stock_lock'
res $? "the section is named memcg_stock.stock_lock, as the report names it"
[ "$(calls page_alloc.o free_pcppages_bulk __lockhog_loop)" -ge 1 ]
res $? "free_pcppages_bulk(): its loops hand over their trip counts"
# memcg_rstat_updated() is a static inline: its probe is where it is inlined
[ "$(calls memcontrol.o __mod_memcg_state __lockhog_atomic)" -ge 1 ] &&
	strings "$T/memcontrol.o" | grep -qx 'stats_flush_threshold'
res $? "memcg_rstat_updated(): the atomic on stats_flush_threshold is probed"
size=$(readelf -SW "$T/memcontrol.o" | awk '$2 == "lockhog_sites" {print $6}')
[ -n "$size" ] && [ $((0x$size % 48)) = 0 ] && [ $((0x$size)) -gt 0 ]
res $? "lockhog_sites is an array of 48-byte descriptors ($((0x${size:-0}))) bytes"
readelf -SW "$T/memcontrol.o" | awk '$2 == "lockhog_sites"' | grep -q ' WA '
res $? "lockhog_sites is allocated writable data"
exit 0
