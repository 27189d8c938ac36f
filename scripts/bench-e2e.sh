#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The e2e workload's run time under QEMU (part of make bench, not a test):
# one guest run each of the pristine 6.1 tree with the runtime built in
#
#   plain     mm/ not instrumented (the runtime has no sites: inert)
#   lockhog   mm/ instrumented by build/lockhog.so (make e2e's pristine kernel)
#   lock_stat mm/ not instrumented, CONFIG_LOCK_STAT (and so lockdep) on
#
# and both overhead ratios against plain.  The time is the guest's own
# (/proc/uptime around tests/e2e/guest/work.sh), under TCG on a shared machine:
# one run each, so read the ratios as rough.  Kernels are kept in
# build/e2e/out/bench-* and reused.  Environment: JOBS (2), E2E_ROUNDS (40).
set -eu -o pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
fail() {
	echo "bench-e2e: FAILED: $*" >&2
	exit 2
}
step() { echo "bench-e2e: $*"; }
. scripts/e2e-lib.sh

mkdir -p "$E2E/out"
e2e_trees
e2e_plugin
e2e_kernel pristine pristine 1
E2E_SEED=pristine e2e_kernel bench-plain pristine 0
E2E_SEED=prove e2e_kernel bench-lockstat pristine 0 CONFIG_LOCK_STAT=y
e2e_initramfs
for k in bench-plain pristine bench-lockstat; do
	E2E_TAG=bench E2E_TIMEOUT=${E2E_TIMEOUT:-1800} e2e_boot $k >/dev/null
done
ns() { sed -n 's/^LOCKHOG-WORKLOAD-NS \([0-9]*\).*/\1/p' "$E2E/bench-$1.log" | tr -d '\r'; }
python3 - "$(ns bench-plain)" "$(ns pristine)" "$(ns bench-lockstat)" <<'PY'
import sys
plain, lh, ls = (int(x) / 1e9 for x in sys.argv[1:])
print("e2e workload under QEMU (TCG, -smp 2), one run each:")
print("  uninstrumented:        %7.1f s" % plain)
print("  lockhog-instrumented:  %7.1f s" % lh)
print("  CONFIG_LOCK_STAT:      %7.1f s" % ls)
print("lockhog overhead ratio:   %.2f" % (lh / plain))
print("LOCK_STAT overhead ratio: %.2f" % (ls / plain))
PY
