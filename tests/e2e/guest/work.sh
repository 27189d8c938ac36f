#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# One e2e worker (tests/e2e/guest/init.sh starts four: CPUs 0 and 1, cgroups
# a and b), pinned to CPU $1 and charged to cgroup $2, $3 rounds of:
#   - a 1 MiB tmpfs file written and removed: page cache charged to the
#     memcg and uncharged, while the other group's worker on this CPU
#     does the same, so memcg_stock changes memcg and drains;
#   - 8 MiB of anonymous memory (dd's buffer) touched and freed at exit:
#     a burst of frees that free_pcppages_bulk() takes in large calls.
cpu=$1 g=$2 n=$3 i=0 f=/tmp/f.$2.$1
while [ $i -lt "$n" ]; do
	dd if=/dev/zero of=$f bs=4k count=256 2>/dev/null
	rm -f $f
	dd if=/dev/zero of=/dev/null bs=8M count=1 2>/dev/null
	i=$((i + 1))
done
# one large region freed at once
dd if=/dev/zero of=/dev/null bs=64M count=1 2>/dev/null
