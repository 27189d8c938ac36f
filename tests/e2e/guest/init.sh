#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# /init of the e2e initramfs (scripts/e2e-lib.sh): mounts what the
# workload needs, runs it in two cgroup v2 groups from both CPUs, prints
# the lockhog runtime's JSON (base64) and dmesg between markers on the
# serial console, and reboots, which with qemu -no-reboot ends QEMU.
export PATH=/bin
/bin/busybox --install -s /bin
mount -t proc proc /proc
mount -t sysfs sys /sys
mount -t devtmpfs dev /dev 2>/dev/null
mount -t tmpfs tmp /tmp
mount -t debugfs debugfs /sys/kernel/debug
mount -t cgroup2 cgroup2 /sys/fs/cgroup

echo "LOCKHOG-CPUS $(nproc)"
rounds=$(sed -n 's/.*lockhog\.rounds=\([0-9]*\).*/\1/p' /proc/cmdline)
[ -n "$rounds" ] && [ "$rounds" -gt 0 ] || rounds=40

# the memory controller for the children, and two groups: a CPU running
# tasks of both charges one memcg, then the other, and memcg_stock
# switches memcg (drain_stock) each time
echo +memory >/sys/fs/cgroup/cgroup.subtree_control
mkdir /sys/fs/cgroup/a /sys/fs/cgroup/b
# the pcp lists may hold 1/8 of the zone: a burst of frees without
# allocations between them then frees up to high - batch pages in one
# free_pcppages_bulk() call
echo 8 >/proc/sys/vm/percpu_pagelist_high_fraction

[ -w /sys/kernel/debug/lockhog/reset ] && echo 1 >/sys/kernel/debug/lockhog/reset
t0=$(cut -d' ' -f1 /proc/uptime)
for cpu in 0 1; do
	for g in a b; do
		sh -c "echo \$\$ >/sys/fs/cgroup/$g/cgroup.procs; exec taskset -c $cpu sh /bin/work.sh $cpu $g $rounds" &
	done
done
wait
echo 3 >/proc/sys/vm/drop_caches
t1=$(cut -d' ' -f1 /proc/uptime)
echo "LOCKHOG-WORKLOAD-NS $(echo "$t0 $t1" | awk '{ printf "%.0f", ($2 - $1) * 1e9 }')"

echo "LOCKHOG-BATCH $(sed -n 's/^ *batch: *//p' /proc/zoneinfo | sort -n | tail -n1)"
echo LOCKHOG-JSON-BEGIN
if [ -r /sys/kernel/debug/lockhog/json ]; then
	base64 /sys/kernel/debug/lockhog/json
else
	echo '{"lockhog_runtime": 0}' | base64
fi
echo LOCKHOG-JSON-END
echo LOCKHOG-REPORT-BEGIN
[ -r /sys/kernel/debug/lockhog/report ] && cat /sys/kernel/debug/lockhog/report
echo LOCKHOG-REPORT-END
echo LOCKHOG-DMESG-BEGIN
dmesg
echo LOCKHOG-DMESG-END
echo LOCKHOG-DONE
sync
reboot -f
