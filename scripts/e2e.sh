#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# make e2e: the linux-6.1 mm series measured before and after under QEMU.
#
#   1. trees (scripts/e2e-lib.sh): pristine + the runtime patch
#      (kernel-patches/linux-6.1/runtime), and the mm series + the runtime;
#   2. kernels, tinyconfig + scripts/e2e-kernel.config, mm/ instrumented
#      by build/lockhog.so through LOCKHOG_CFLAGS: pristine, patched, and
#      patched with CONFIG_PROVE_LOCKING and CONFIG_DEBUG_ATOMIC_SLEEP
#      (prove); kept under build/e2e/out and rebuilt by kbuild only where
#      something changed (the plugin's hash is in -fplugin-arg-lockhog-tag=);
#   3. each boots under QEMU (TCG, -smp 2), runs tests/e2e/guest/work.sh in two
#      cgroups from both CPUs, prints the runtime's JSON on the serial
#      console and reboots (QEMU -no-reboot exits; a hung guest is killed);
#   4. build/e2e/{pristine,patched}.json, the before/after table
#      (scripts/e2e-table.py) printed and in build/e2e/result.json, the
#      prove boot's dmesg checked into build/e2e/prove.dmesg, and
#      build/e2e/report.html from `lockhog report` when it renders HTML.
#
# Exits 1 with "e2e: FAILED: reason" when a step fails; the table's
# conditions are asserted by tests/e2e/e2e.sh, not here.
# Environment: JOBS (2), E2E_TIMEOUT (900 s a boot), E2E_ROUNDS (40).
set -eu -o pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
fail() {
	echo "e2e: FAILED: $*"
	exit 1
}
step() { echo "e2e: $*"; }
. scripts/e2e-lib.sh

for t in qemu-system-x86_64 busybox cpio gzip patch make gcc python3 timeout base64 file; do
	command -v $t >/dev/null || fail "$t not installed (make deps)"
done
[ -x build/lockhog ] || fail "build/lockhog missing (make all)"
t0=$(date +%s)
mkdir -p "$E2E/out"
e2e_trees
e2e_plugin
e2e_kernel pristine pristine 1
E2E_SEED=pristine e2e_kernel patched patched 1
E2E_SEED=patched e2e_kernel prove patched 1 CONFIG_PROVE_LOCKING=y CONFIG_DEBUG_ATOMIC_SLEEP=y
e2e_initramfs
for k in pristine patched prove; do
	e2e_boot $k
done
sed -n '/^LOCKHOG-DMESG-BEGIN/,/^LOCKHOG-DMESG-END/p' "$E2E/prove.log" | sed '1d;$d' | tr -d '\r' >"$E2E/prove.dmesg"
python3 scripts/e2e-table.py "$E2E" || fail "the before/after table could not be made"

if build/lockhog report --help 2>&1 | grep -q html; then
	# each run joined to the static scan of the kernel it ran
	build/lockhog report --format html --static "$E2E/pristine.scan.json" \
		--out "$E2E/report.html" "$E2E/pristine.json" ||
		fail "lockhog report --format html failed"
	build/lockhog report --format html --static "$E2E/patched.scan.json" \
		--out "$E2E/report-patched.html" "$E2E/patched.json" ||
		fail "lockhog report --format html failed"
	step "report: $E2E/report.html (pristine), $E2E/report-patched.html"
else
	rm -f "$E2E/report.html"
	step "report: skipped: this lockhog report renders no HTML yet"
fi
step "done in $(($(date +%s) - t0)) s"
