#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Configures the kernel tree DIR as "lockhog scan" does (cmd/kbuild.c,
# kbuild_configure): defconfig plus CGROUPS, MEMCG, MEMCG_KMEM, NUMA and
# SMP.  A tree that has a .config is left alone.  make's output is
# appended to LOG if given, else discarded.  The same for every kernel
# version lockhog is tested on (6.1, 6.12): defconfig and these options
# mean the same there.
set -e
DIR=$1
LOG=${2:-}
[ -f "$DIR/.config" ] && exit 0
run() { if [ -n "$LOG" ]; then "$@" >>"$LOG" 2>&1; else "$@" >/dev/null 2>&1; fi; }
run make -C "$DIR" defconfig
for o in CGROUPS MEMCG MEMCG_KMEM NUMA SMP; do
	"$DIR/scripts/config" --file "$DIR/.config" -e "$o"
done
run make -C "$DIR" olddefconfig
