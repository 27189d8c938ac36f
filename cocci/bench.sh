#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Times the lockhog Coccinelle scripts in report mode over mm/ of a kernel
# tree beside the kernel's own scripts/coccinelle/locks/*.cocci on the
# same tree, and prints the ratio.
#
#   cocci/bench.sh [KDIR]     (default: $KDIR, else build/linux-6.1)
#
# Both sides run spatch as coccicheck does (--dir mm, the options of each
# script's "Options:" line, -D report, one job per CPU).  Read-only on
# the tree.
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
KDIR=${1:-${KDIR:-$ROOT/build/linux-6.1}}
[ -d "$KDIR/mm" ] || { echo "cocci/bench.sh: no mm/ in $KDIR" >&2; exit 2; }
J=${J:-$(getconf _NPROCESSORS_ONLN)}

run_set() {
	local f opt
	for f in "$@"; do
		opt=$(sed -n 's|^// Options:||p' "$f" | head -1)
		# shellcheck disable=SC2086
		spatch --very-quiet -D report --no-show-diff --cocci-file "$f" $opt \
			--dir "$KDIR/mm" --jobs "$J" --chunksize 1 >/dev/null 2>&1 || true
	done
}

now() { date +%s.%N; }
t0=$(now)
run_set "$ROOT"/cocci/*.cocci
t1=$(now)
run_set "$KDIR"/scripts/coccinelle/locks/*.cocci
t2=$(now)
/usr/bin/python3 - "$t0" "$t1" "$t2" <<'PY'
import sys
t0, t1, t2 = map(float, sys.argv[1:])
ours, theirs = t1 - t0, t2 - t1
print("lockhog cocci report over mm/: %.2f s" % ours)
print("kernel locks/*.cocci report over mm/: %.2f s" % theirs)
print("cocci report time ratio (lockhog/kernel locks): %.2f" % (ours / theirs if theirs > 0 else float("inf")))
PY
