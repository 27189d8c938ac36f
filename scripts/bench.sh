#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# make bench: what lockhog costs on top of a build.
#
#   KDIR=DIR [BENCH_PAIRS=5] [JOBS=N] [BENCH_PARTS="..."] scripts/bench.sh
#
# BENCH_PARTS picks what to measure, by default all of: plugin check
# review analysis cocci rt e2e (the last takes QEMU boots, about 10 min).
#
# A shared machine is noisier than the 5% the plugin is held to, so each
# comparison alternates its two sides for BENCH_PAIRS pairs, the first
# side first in odd pairs and second in even ones so that a drift in the
# load favours neither, and reports the median of the pairwise ratios
# with its min and max.  mm/'s objects are removed before every build so
# that kbuild really compiles.  Then the analysis step's time and peak
# memory, the Coccinelle scripts beside the kernel's (cocci/bench.sh), and
# the userspace runtime's probes under callgrind (scripts/bench-rt.sh).
set -euo pipefail
shopt -s inherit_errexit
cd "$(dirname "$0")/.."
KDIR=${KDIR:-$PWD/build/linux-6.1}
PAIRS=${BENCH_PAIRS:-5}
JOBS=${JOBS:-$(nproc)}
PARTS=" ${BENCH_PARTS:-plugin check review analysis cocci rt e2e} "
LOCKHOG=$PWD/build/lockhog
PY=/usr/bin/python3

die() { echo "bench: $*" >&2; exit 2; }
[[ $PAIRS =~ ^[1-9][0-9]*$ ]] || die "BENCH_PAIRS must be a positive number, not '$PAIRS'"
[[ $JOBS =~ ^[1-9][0-9]*$ ]] || die "JOBS must be a positive number, not '$JOBS'"
for p in $PARTS; do
	case $p in
	plugin | check | review | analysis | cocci | rt | e2e) ;;
	*) die "BENCH_PARTS: unknown part '$p' (plugin check review analysis cocci rt e2e)" ;;
	esac
done
[ -d "$KDIR/mm" ] || die "$KDIR: no kernel tree here (scripts/kernel-tree.sh DIR)"
[ -x "$LOCKHOG" ] || die "$LOCKHOG missing (make all)"
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
[ -f "$KDIR/.config" ] || "$LOCKHOG" scan --kernel "$KDIR" mm/mmzone.c >/dev/null
TAG=$(sha1sum build/lockhog.so rules/kernel.rules | sha1sum | cut -c1-12)
PLUGIN_FLAGS="-fplugin=$PWD/build/lockhog.so -fplugin-arg-lockhog-rules=$PWD/rules/kernel.rules -fplugin-arg-lockhog-diag=none -fplugin-arg-lockhog-tag=$TAG"

# want PART: true when BENCH_PARTS asks for PART
want() { [[ $PARTS == *" $1 "* ]]; }

# timed CMD...: runs CMD, its output discarded, and prints its seconds, the
# peak RSS (kB) of its biggest process and its CPU seconds (which others'
# load on the machine disturbs less than the time); on failure, its stderr.
timed() {
	$PY - "$TMP/stderr" "$@" <<'PY'
import resource, subprocess, sys, time
err, cmd = sys.argv[1], sys.argv[2:]
t = time.monotonic()
with open(err, "w") as e:
    rc = subprocess.run(cmd, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                        stderr=e).returncode
el = time.monotonic() - t
if rc:
    sys.stderr.write(open(err).read()[-3000:])
    sys.exit("bench: %s: exit %d" % (" ".join(cmd), rc))
ru = resource.getrusage(resource.RUSAGE_CHILDREN)
print("%.2f %d %.2f" % (el, ru.ru_maxrss, ru.ru_utime + ru.ru_stime))
PY
}

clean_mm() {
	find "$KDIR/mm" \( -name '*.o' -o -name '.*.o.cmd' -o -name '*.a' \) -delete
}

# build_mm FLAGS: a cold kbuild of mm/ with KCFLAGS=FLAGS.  What prepare
# builds (asm-offsets, modpost) records KCFLAGS too and is rebuilt when
# it changes: that is done first, untimed, so that only mm/ is measured.
build_mm() {
	timed make -C "$KDIR" -j"$JOBS" "KCFLAGS=$1" prepare >/dev/null
	clean_mm
	timed make -C "$KDIR" -j"$JOBS" "KCFLAGS=$1" mm/
}
build_plain() { build_mm ""; }
build_plugin() { build_mm "$PLUGIN_FLAGS"; }
# lockhog-check as kbuild's checker over the built mm/: C=2 checks every
# unit and compiles nothing (the objects are built with the same flags)
check_mm() {
	make -C "$KDIR" -j"$JOBS" KCFLAGS= mm/ >/dev/null
	timed make -C "$KDIR" -j"$JOBS" KCFLAGS= C=2 \
		"CHECK=$PWD/build/lockhog-check --rules=$PWD/rules/kernel.rules --diag=none" mm/
}

scan_cold() {
	clean_mm
	timed "$LOCKHOG" scan --kernel "$KDIR" -j "$JOBS" mm/
}
review_one() {
	timed "$LOCKHOG" review --kernel "$KDIR" -j "$JOBS" --fail-on none "$TMP/one.patch"
}
# the analysis step of a scan alone, over the objects the last scan built
analysis() {
	timed "$LOCKHOG" report --format json "$KDIR/mm"
}

# pairs A B: runs the functions A and B alternately, PAIRS times each;
# prints a line per pair: A's timed figures, then B's.
pairs() {
	local i a b
	for ((i = 1; i <= PAIRS; i++)); do
		if ((i % 2)); then
			a=$($1)
			b=$($2)
		else
			b=$($2)
			a=$($1)
		fi
		echo "bench: pair $i/$PAIRS: $1 ${a%% *}s, $2 ${b%% *}s" >&2
		echo "$a $b"
	done
}

# medians FILE A_LABEL B_LABEL RATIO_LABEL CPU_LABEL: each side's median
# seconds, and the median, min and max of the pairwise B/A ratios of the
# time and of the CPU time, from the output of pairs
medians() {
	$PY - "$@" <<'PY'
import statistics, sys
path, la, lb, lr, lc = sys.argv[1:]
rows = [[float(x) for x in line.split()] for line in open(path)]
n = len(rows)


def ratio(label, col):
    r = [row[col + 3] / row[col] for row in rows]
    print("%s%.2f (median of %d pairs, min %.2f, max %.2f)" %
          (label, statistics.median(r), n, min(r), max(r)))


print("%s%.2fs (median of %d)" % (la, statistics.median(r[0] for r in rows), n))
print("%s%.2fs (median of %d)" % (lb, statistics.median(r[3] for r in rows), n))
ratio(lr, 0)
ratio(lc, 2)
PY
}

# peak_mib FILE COLUMN: the largest peak memory of a column, in MiB
peak_mib() {
	awk -v c="$2" '$c > m { m = $c } END { printf "%d", m / 1024 }' "$1"
}

# warm the tree (headers in the page cache) so that the first pair
# compiles the same work as the others
timed make -C "$KDIR" -j"$JOBS" mm/ >/dev/null
if want plugin; then
	pairs build_plain build_plugin >"$TMP/builds"
	medians "$TMP/builds" "kbuild of mm/ without plugin: " "kbuild of mm/ with plugin:    " \
		"plugin overhead ratio: " "plugin overhead ratio in CPU time: "
	echo "compiler peak memory: $(peak_mib "$TMP/builds" 5) MiB with the plugin loaded," \
		"$(peak_mib "$TMP/builds" 2) MiB without (-j$JOBS)"
fi
if want check && [ -x build/lockhog-check ]; then
	pairs build_plain check_mm >"$TMP/check"
	medians "$TMP/check" "kbuild of mm/ without plugin: " \
		"C=2 CHECK=lockhog-check over mm/ (nothing compiled): " \
		"lockhog-check/compile ratio (plugin's overhead ratio above): " \
		"lockhog-check/compile CPU time ratio: "
fi

# review of a one-file patch against a cold scan of mm/ (issue 4: <= 0.2)
if want review; then
	$PY tests/review/mkpatch.py "$KDIR" "bench" "$TMP/one.patch" mm/page_alloc.c \
		"'\t/* Ensure requested pindex is drained first. */'" \
		"'\t/* Ensure the requested pindex is drained first. */'"
	# prepare with the scan's own flags, untimed, as for the builds
	timed "$LOCKHOG" scan --kernel "$KDIR" -j "$JOBS" mm/mmzone.c >/dev/null
	pairs scan_cold review_one >"$TMP/review"
	medians "$TMP/review" "lockhog scan of mm/ (cold): " \
		"lockhog review of a one-file patch (mm/page_alloc.c): " \
		"review/scan time ratio: " "review/scan CPU time ratio: "
fi

if want analysis; then
	r=$(analysis)
	read -r t rss _ <<<"$r"
	printf 'scan analysis of mm/ (cross-file composition, report): %ss, peak memory %d MiB\n' \
		"$t" $((rss / 1024))
fi

# the Coccinelle side (issue 3): lockhog's scripts beside the kernel's locks/*.cocci
! want cocci || cocci/bench.sh "$KDIR"

# the userspace runtime (issue 10): instructions a probe pair adds, under callgrind
! want rt || scripts/bench-rt.sh

# the run-time half (issue 10): the e2e workload under QEMU, uninstrumented,
# with lockhog's runtime and with CONFIG_LOCK_STAT
! want e2e || JOBS=$JOBS scripts/bench-e2e.sh
[ -c /dev/null ] || die "/dev/null is no longer a character device"
