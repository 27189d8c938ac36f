#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# make bench-kernel: the plugin on a whole kernel (issue 8, item 6).
#
# Extracts a tree of its own (build/linux-6.1-full), configures it as
# "lockhog scan" does (defconfig + CGROUPS MEMCG MEMCG_KMEM NUMA SMP),
# builds the complete kernel (vmlinux, bzImage, modules) without the
# plugin, cleans, builds it again with the plugin's KCFLAGS exactly as
# cmd/kbuild.c passes them, and compares the two builds: time, internal
# compiler errors, failed units, crash-guard notes, and the warnings the
# plugin build prints that the plain one does not.  Then scans the whole
# tree (no rebuild: the tag is the scan's own) and reads it again with
# "lockhog report".  Every object of the plain build is kept (hard
# links) and compared with the plugin build's, .note.lockhog removed
# (and a module's build ID); vmlinux and bzImage are compared whole.  Too long for make check (about 40 minutes on 2
# cores).  Logs are kept in build/bench-kernel/.
#
# Exit status: 0 when the plugin build is as clean as the plain one.
set -e -o pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
KDIR=${KDIR_FULL:-$ROOT/build/linux-6.1-full}
OUT=${BENCH_OUT:-$ROOT/build/bench-kernel}
JOBS=${JOBS:-2}
LOCKHOG=$ROOT/build/lockhog
# both builds the same, but for the plugin: no timestamp, build number, host
export KBUILD_BUILD_TIMESTAMP="Thu Jan  1 00:00:00 UTC 2015" KBUILD_BUILD_VERSION=1 \
	KBUILD_BUILD_USER=lockhog KBUILD_BUILD_HOST=bench

scripts/kernel-tree.sh "$KDIR"
mkdir -p "$OUT"

now() { date +%s.%N; }
secs() { /usr/bin/python3 -c "print('%.1f' % ($2 - $1))"; }

scripts/kernel-config.sh "$KDIR" "$OUT/config.log"

# build NAME KCFLAGS: prepare untimed, then the whole kernel timed with -k
# so that every failing unit shows; prints the seconds, and the CPU
# seconds of all its processes (user + system: what the load of other
# work on the machine changes least)
build() {
	local log=$OUT/$1.log rc=0

	make -C "$KDIR" -j"$JOBS" KCFLAGS="$2" prepare >"$log" 2>&1 || rc=$?
	/usr/bin/time -f "%e %U %S" -o "$OUT/$1.times" \
		make -C "$KDIR" -j"$JOBS" -k KCFLAGS="$2" all >>"$log" 2>&1 || rc=$?
	echo "$rc" >"$OUT/$1.rc"
	awk '{printf "%.1f %.1f\n", $1, $2 + $3}' "$OUT/$1.times"
}

# the lines of a log that are diagnostics, whatever their order
warnings() {
	grep -E '(^|[^a-z])(warning|WARNING|error|Error)[: ]' "$1" |
		grep -vE '^make\[[0-9]*\]: \*\*\*|^  [A-Z0-9_]+ +(\[M\] +)?[^ ]+$' | sed 's/^[[:space:]]*//' | LC_ALL=C sort -u || true
}
failed_units() {
	grep -oE '^make\[[0-9]+\]: \*\*\* \[[^]]*: [^]]*\] Error [0-9]+' "$1" |
		sed -E 's/.*: ([^]]*)\] Error.*/\1/' | LC_ALL=C sort -u || true
}
count() { grep -c -- "$1" "$2" || true; }

# BENCH_REUSE_PLAIN=1 keeps the plain build of an earlier run (log, time)
if [ "${BENCH_REUSE_PLAIN:-0}" = 1 ] && [ -s "$OUT/plain.time" ]; then
	read -r t_plain c_plain <"$OUT/plain.time"
else
	echo "lockhog: bench-kernel: plain build of $KDIR (-j$JOBS)" >&2
	make -C "$KDIR" clean >/dev/null 2>&1
	build plain "" >"$OUT/plain.time"
	read -r t_plain c_plain <"$OUT/plain.time"
	rm -rf "$OUT/plain-objs"
	mkdir -p "$OUT/plain-objs"
	(cd "$KDIR" && find . \( -name '*.o' -o -name '*.ko' -o -name vmlinux -o -name bzImage \) \
		-type f -exec cp -l --parents -t "$OUT/plain-objs" {} +)
fi

# private copies, taken now: a "make all" during the build must not
# change the plugin under a running GCC, nor the tag halfway through
cp "$ROOT/build/lockhog.so" "$OUT/lockhog.so"
cp "$ROOT/rules/kernel.rules" "$OUT/kernel.rules"
cp "$LOCKHOG" "$OUT/lockhog"
LOCKHOG=$OUT/lockhog
SCAN=("$LOCKHOG" scan --kernel "$KDIR" -j "$JOBS" --plugin "$OUT/lockhog.so" --rules "$OUT/kernel.rules")

# the scan's own KCFLAGS (its tag included), from what it gives one unit,
# so that the final scan rebuilds nothing
echo "lockhog: bench-kernel: plugin build" >&2
make -C "$KDIR" clean >/dev/null 2>&1
"${SCAN[@]}" --out "$OUT/probe.txt" mm/mmzone.c >"$OUT/probe.log" 2>&1 ||
	{ echo "lockhog: probe scan failed, see $OUT/probe.log" >&2; exit 2; }
FLAGS=$(sed -n 's/.*\(-fplugin=[^ ]*lockhog\.so .*-fplugin-arg-lockhog-tag=[0-9a-f]*\).*/\1/p' \
	"$KDIR/mm/.mmzone.o.cmd" | head -1)
[ -n "$FLAGS" ] || { echo "lockhog: no plugin flags in mm/.mmzone.o.cmd" >&2; exit 2; }
build plugin "$FLAGS" >"$OUT/plugin.time"
read -r t_plugin c_plugin <"$OUT/plugin.time"

echo "lockhog: bench-kernel: whole-tree scan and report" >&2
t0=$(now)
scan_rc=0
"${SCAN[@]}" --out "$OUT/scan.txt" >"$OUT/scan.log" 2>&1 || scan_rc=$?
t1=$(now)
report_rc=0
"$LOCKHOG" report --rules "$OUT/kernel.rules" --out "$OUT/report.txt" "$KDIR" \
	>"$OUT/report.log" 2>&1 || report_rc=$?
t2=$(now)

# the plugin's build, its section removed, against the plain one
: >"$OUT/differ"
nsame=0
while IFS= read -r -d '' o; do
	p=$OUT/plain-objs/$o
	if [ ! -f "$KDIR/$o" ]; then
		echo "$o: missing" >>"$OUT/differ"
	elif [ "${o##*/}" = vmlinux ] || [ "${o##*/}" = bzImage ]; then
		cmp -s "$p" "$KDIR/$o" && nsame=$((nsame + 1)) || echo "$o" >>"$OUT/differ"
	else
		# a module's build ID is a hash over its sections, ours included
		strip=(-R .note.lockhog)
		[ "${o%.ko}" != "$o" ] && strip+=(-R .note.gnu.build-id)
		objcopy "${strip[@]}" "$p" "$OUT/a.o" && objcopy "${strip[@]}" "$KDIR/$o" "$OUT/b.o" &&
			cmp -s "$OUT/a.o" "$OUT/b.o" && nsame=$((nsame + 1)) || echo "$o" >>"$OUT/differ"
	fi
done < <(cd "$OUT/plain-objs" && find . -type f -printf '%P\0')
rm -f "$OUT/a.o" "$OUT/b.o"

warnings "$OUT/plain.log" >"$OUT/plain.warnings"
warnings "$OUT/plugin.log" >"$OUT/plugin.warnings"
LC_ALL=C comm -13 "$OUT/plain.warnings" "$OUT/plugin.warnings" >"$OUT/new.warnings"
failed_units "$OUT/plain.log" >"$OUT/plain.failed"
failed_units "$OUT/plugin.log" >"$OUT/plugin.failed"
nobj=$(find "$KDIR" -name '*.o' | wc -l)
nsec=$(find "$KDIR" -name '*.o' -print0 | xargs -0 -n 200 readelf -S -W 2>/dev/null |
	grep -c ' \.note\.lockhog ' || true)

echo "flags: $FLAGS"
echo "plain build:  ${t_plain}s, CPU ${c_plain:-?}s (make -j$JOBS all, exit $(cat "$OUT/plain.rc"))"
echo "plugin build: ${t_plugin}s, CPU ${c_plugin:-?}s (make -j$JOBS all, exit $(cat "$OUT/plugin.rc"))"
/usr/bin/python3 -c "print('plugin/plain time ratio: %.3f' % ($t_plugin / $t_plain))"
[ -n "${c_plain:-}" ] && [ -n "${c_plugin:-}" ] &&
	/usr/bin/python3 -c "print('plugin/plain CPU time ratio: %.3f' % ($c_plugin / $c_plain))"
echo "internal compiler errors: plain $(count 'internal compiler error' "$OUT/plain.log"), plugin $(count 'internal compiler error' "$OUT/plugin.log")"
echo "failed units: plain $(wc -l <"$OUT/plain.failed"), plugin $(wc -l <"$OUT/plugin.failed")"
sed 's/^/  failed: /' "$OUT/plugin.failed"
echo "crash-guard notes: $(count 'lockhog: internal error' "$OUT/plugin.log")"
echo "other lockhog messages in the build: $(grep 'lockhog' "$OUT/plugin.log" | grep -vc 'internal error' || true)"
echo "warnings: plain $(wc -l <"$OUT/plain.warnings") distinct, plugin $(wc -l <"$OUT/plugin.warnings"), new with the plugin $(wc -l <"$OUT/new.warnings")"
sed 's/^/  new: /' "$OUT/new.warnings"
echo "objects: $nobj, with .note.lockhog: $nsec"
echo "same as the plain build (.note.lockhog removed; vmlinux, bzImage whole): $nsame, differ: $(wc -l <"$OUT/differ")"
sed 's/^/  differs: /' "$OUT/differ" | head -n 20
echo "vmlinux: $([ -f "$KDIR/vmlinux" ] && echo built || echo MISSING), modules: $(find "$KDIR" -name '*.ko' | wc -l)"
echo "scan of the whole tree: $(secs "$t0" "$t1")s, exit $scan_rc: $(tail -n 1 "$OUT/scan.txt" 2>/dev/null)"
sed 's/^/  scan: /' "$OUT/scan.log" | tail -n 5
echo "report of the whole tree: $(secs "$t1" "$t2")s, exit $report_rc: $(tail -n 1 "$OUT/report.txt" 2>/dev/null)"
sed 's/^/  report: /' "$OUT/report.log" | tail -n 5
[ "$(cat "$OUT/plugin.rc")" = 0 ] && [ ! -s "$OUT/new.warnings" ] && [ ! -s "$OUT/plugin.failed" ] &&
	[ "$(count 'lockhog: internal error' "$OUT/plugin.log")" = 0 ] &&
	[ "$(count 'internal compiler error' "$OUT/plugin.log")" = 0 ] && [ "$scan_rc" = 0 ] &&
	[ ! -s "$OUT/differ" ]
