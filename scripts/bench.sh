#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# make bench: what lockhog costs on top of a build.
#
# Builds mm/ of the configured 6.1 tree with and without the plugin
# (alternating, best of two each, objects removed before every run so
# that kbuild really compiles), prints the ratio, and the peak memory of
# the scan's analysis step and of the compiler with the plugin loaded.
set -e
cd "$(dirname "$0")/.."
KDIR=${KDIR:-$PWD/build/linux-6.1}
LOCKHOG=$PWD/build/lockhog
JOBS=${JOBS:-$(nproc)}
[ -f "$KDIR/.config" ] || $LOCKHOG scan --kernel "$KDIR" mm/mmzone.c >/dev/null
TAG=$(sha1sum build/lockhog.so rules/kernel.rules | sha1sum | cut -c1-12)
PLUGIN_FLAGS="-fplugin=$PWD/build/lockhog.so -fplugin-arg-lockhog-rules=$PWD/rules/kernel.rules -fplugin-arg-lockhog-diag=none -fplugin-arg-lockhog-tag=$TAG"

clean_mm() {
	find "$KDIR/mm" \( -name '*.o' -o -name '.*.o.cmd' -o -name '*.a' \) -delete
}
# build "flags": prints seconds and the peak RSS of the biggest child (kB)
build() {
	clean_mm
	/usr/bin/python3 - "$KDIR" "$JOBS" "$1" <<'PY'
import resource, subprocess, sys, time
kdir, jobs, flags = sys.argv[1:]
t = time.monotonic()
subprocess.run(["make", "-C", kdir, "-j" + jobs, "KCFLAGS=" + flags, "mm/"],
               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True)
print("%.2f %d" % (time.monotonic() - t, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss))
PY
}
# warm the tree (prepare, headers) so that both runs compile the same work
make -C "$KDIR" -j"$JOBS" mm/ >/dev/null 2>&1
best_plain=999999 best_plugin=999999 cc_rss=0
for i in 1 2; do
	read -r t _ < <(build "")
	best_plain=$(/usr/bin/python3 -c "print(min($best_plain, $t))")
	read -r t rss < <(build "$PLUGIN_FLAGS")
	best_plugin=$(/usr/bin/python3 -c "print(min($best_plugin, $t))")
	[ "$rss" -gt "$cc_rss" ] && cc_rss=$rss
done
echo "kbuild of mm/ without plugin: ${best_plain}s (best of 2, -j$JOBS)"
echo "kbuild of mm/ with plugin:    ${best_plugin}s (best of 2, -j$JOBS)"
/usr/bin/python3 -c "print('plugin overhead ratio: %.2f' % ($best_plugin / $best_plain))"
# the analysis step of a scan, over the objects just built
/usr/bin/python3 - "$LOCKHOG" "$KDIR" <<'PY'
import resource, subprocess, sys, time
lockhog, kdir = sys.argv[1:]
t = time.monotonic()
subprocess.run([lockhog, "report", "--format", "json", "--out", "/dev/null", kdir + "/mm"],
               check=True)
el = time.monotonic() - t
rss = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
print("scan analysis of mm/ (cross-file composition, report): %.2fs, peak memory %.1f MiB" % (el, rss / 1024))
PY
echo "compiler peak memory with the plugin loaded: $((cc_rss / 1024)) MiB"

# review of a one-file patch against a cold scan of mm/ (issue 4: <= 0.2)
clean_mm
t0=$(date +%s.%N)
$LOCKHOG scan --kernel "$KDIR" -j "$JOBS" --out /dev/null mm/
t1=$(date +%s.%N)
TMP=$(mktemp -d)
/usr/bin/python3 tests/review/mkpatch.py "$KDIR" "bench" "$TMP/one.patch" mm/page_alloc.c \
	"'\t/* Ensure requested pindex is drained first. */'" \
	"'\t/* Ensure the requested pindex is drained first. */'"
$LOCKHOG review --kernel "$KDIR" -j "$JOBS" "$TMP/one.patch" >/dev/null
t2=$(date +%s.%N)
rm -rf "$TMP"
/usr/bin/python3 -c "
scan, review = $t1 - $t0, $t2 - $t1
print('lockhog scan of mm/ (cold): %.2fs' % scan)
print('lockhog review of a one-file patch (mm/page_alloc.c): %.2fs' % review)
print('review/scan time ratio: %.2f' % (review / scan))"

# the Coccinelle side (issue 3): lockhog's scripts beside the kernel's locks/*.cocci
cocci/bench.sh "$KDIR"
