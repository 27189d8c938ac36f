#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The LLVM=1 form of the test tree (issue 12): linux-source-6.1 extracted
# again, configured like the GCC tree (KDIR's .config) but by Debian's
# clang 19 (LLVM=-19: clang-19, ld.lld-19, llvm-ar-19 ...), and its mm/
# built, so that `lockhog scan --frontend clang` can run kbuild's checker
# over it.  Does nothing when the tree is there and configured by clang.
#
#   scripts/kernel-tree-llvm.sh [DIR [GCC_KDIR]]
set -e
DIR=${1:-build/linux-6.1-llvm}
GKDIR=${2:-build/linux-6.1}
LLVM=${LOCKHOG_LLVM:--19}
JOBS=${JOBS:-2}
if [ -f "$DIR/.config" ] && grep -q '^CONFIG_CC_IS_CLANG=y' "$DIR/.config" &&
   ls "$DIR"/mm/*.o >/dev/null 2>&1; then
	exit 0
fi
command -v "clang$LLVM" >/dev/null ||
	{ echo "lockhog: clang$LLVM missing (apt-get install clang-19 lld-19 llvm-19)" >&2; exit 1; }
scripts/kernel-tree.sh "$DIR"
if [ -f "$GKDIR/.config" ]; then
	cp "$GKDIR/.config" "$DIR/.config"
else
	make -C "$DIR" LLVM="$LLVM" defconfig >/dev/null
	for o in CGROUPS MEMCG MEMCG_KMEM NUMA SMP; do "$DIR/scripts/config" --file "$DIR/.config" -e $o; done
fi
echo "lockhog: configuring and building $DIR/mm with LLVM=$LLVM" >&2
make -C "$DIR" LLVM="$LLVM" olddefconfig >/dev/null
make -C "$DIR" LLVM="$LLVM" -j"$JOBS" mm/ >"$DIR/.lockhog-llvm-build.log" 2>&1 ||
	{ echo "lockhog: LLVM=$LLVM build of $DIR/mm failed; log in $DIR/.lockhog-llvm-build.log" >&2; exit 1; }
