#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# make kernel-patches: checks that the series in kernel-patches/linux-6.1
# is what it says it is.
#
# Walks the series in order over a fresh copy of Debian's pristine
# linux-source-6.1.  A patch whose description (the text before the diff)
# has a line
#
#	Generated-by: COMMAND
#
# is generated: COMMAND runs with bash in a fresh copy of the tree as it
# is before that patch (the pristine tree with the earlier patches of the
# series applied) and writes the patch's diff to its standard output; the
# diff part of the committed patch must be that output, byte for byte
# (timestamps on ---/+++ lines aside).  Every other patch is written by
# hand and only has to apply there with patch -p1, without fuzz or
# offset.  Every patch is then applied, for the next ones.
#
# COMMAND sees LOCKHOG_ROOT (this repository) and KTREE (the tree it runs
# in) in its environment, and must not need a network.
#
#   scripts/kernel-patches.sh            check
#   scripts/kernel-patches.sh --update   rewrite the diff part of generated
#                                        patches with their regeneration
#                                        (descriptions are kept)
#
# Environment: SERIES_DIR (kernel-patches/linux-6.1), WORK
# (build/kernel-patches: the trees and the regenerated diffs).
set -eu -o pipefail

cd "$(dirname "$0")/.."
ROOT=$PWD
SERIES_DIR=${SERIES_DIR:-$ROOT/kernel-patches/linux-6.1}
WORK=${WORK:-$ROOT/build/kernel-patches}
case $SERIES_DIR in /*) ;; *) SERIES_DIR=$ROOT/$SERIES_DIR ;; esac
case $WORK in /*) ;; *) WORK=$ROOT/$WORK ;; esac

update=0
case "${1:-}" in
--update) update=1 ;;
"") ;;
*) echo "usage: $0 [--update]" >&2; exit 2 ;;
esac

fail() {
	echo "kernel-patches: FAILED: $*"
	exit 1
}

command -v patch >/dev/null || fail "patch not installed (make deps)"
[ -f "$SERIES_DIR/series" ] || fail "$SERIES_DIR/series missing"

PATCHES=()
while read -r p _; do
	case $p in '' | '#'*) continue ;; esac
	[ -f "$SERIES_DIR/$p" ] || fail "series names $p, which is not in $SERIES_DIR"
	PATCHES+=("$p")
done <"$SERIES_DIR/series"
[ ${#PATCHES[@]} -gt 0 ] || fail "the series is empty"

# The description ends where the diff begins.
diff_start() {
	grep -n -m1 -E '^(diff |Index: |--- [^ ]|\+\+\+ )' "$1" | cut -d: -f1
}
description() {
	local n
	n=$(diff_start "$1")
	[ -n "$n" ] || return 0
	head -n $((n - 1)) "$1"
}
diff_part() {
	local n
	n=$(diff_start "$1")
	[ -n "$n" ] || return 0
	tail -n +"$n" "$1"
}
# what is compared: no timestamps after the file names
normalise() {
	sed -E 's/^((---|\+\+\+) [^\t]*)\t.*$/\1/'
}

rm -rf "$WORK"
mkdir -p "$WORK"
TREE=$WORK/tree
scripts/kernel-tree.sh "$TREE" || fail "could not extract the pristine tree"

generated=0 hand=0 updated=0
for p in "${PATCHES[@]}"; do
	f=$SERIES_DIR/$p
	[ -n "$(diff_start "$f")" ] || fail "$p has no diff"
	cmd=$(description "$f" | sed -n 's/^Generated-by:[[:space:]]*//p' | head -n1)
	if [ -n "$cmd" ]; then
		# a fresh copy: the command may write in its tree
		gen=$WORK/gen
		rm -rf "$gen"
		cp -a "$TREE" "$gen"
		if ! (cd "$gen" && LOCKHOG_ROOT=$ROOT KTREE=$gen bash -o pipefail -c "$cmd") \
			>"$WORK/$p.regen" 2>"$WORK/$p.regen.err"; then
			sed 's/^/    /' "$WORK/$p.regen.err" | tail -n 20
			fail "$p: Generated-by command failed: $cmd"
		fi
		rm -rf "$gen"
		[ -s "$WORK/$p.regen" ] || fail "$p: Generated-by command wrote no diff: $cmd"
		# the regenerated diff, from its first header on
		n=$(diff_start "$WORK/$p.regen")
		[ -n "$n" ] || fail "$p: Generated-by command wrote no diff: $cmd"
		tail -n +"$n" "$WORK/$p.regen" >"$WORK/$p.new"
		if ! diff -u <(diff_part "$f" | normalise) <(normalise <"$WORK/$p.new") \
			>"$WORK/$p.delta"; then
			if [ $update = 1 ]; then
				{ description "$f"; cat "$WORK/$p.new"; } >"$f.tmp"
				mv "$f.tmp" "$f"
				echo "kernel-patches: $p: updated from: $cmd"
				updated=$((updated + 1))
			else
				head -n 40 "$WORK/$p.delta" | sed 's/^/    /'
				fail "$p differs from what its Generated-by command produces ($WORK/$p.delta; --update rewrites it)"
			fi
		else
			echo "kernel-patches: $p: generated, matches: $cmd"
		fi
		generated=$((generated + 1))
	else
		hand=$((hand + 1))
	fi
	if ! out=$(patch -d "$TREE" -p1 -N --fuzz=0 --dry-run <"$f" 2>&1); then
		echo "$out" | sed 's/^/    /'
		fail "$p does not apply to the pristine tree with the patches before it"
	fi
	if echo "$out" | grep -q -E 'offset|fuzz'; then
		echo "$out" | sed 's/^/    /'
		fail "$p applies only with an offset or fuzz"
	fi
	patch -d "$TREE" -p1 -N --fuzz=0 -s --no-backup-if-mismatch <"$f" || fail "$p failed to apply"
	[ -n "$cmd" ] || echo "kernel-patches: $p: written by hand, applies"
done
rm -rf "$TREE"
echo "kernel-patches: OK: ${#PATCHES[@]} patches apply in order ($generated generated and matching their command, $hand by hand)$([ $updated -gt 0 ] && echo "; $updated updated")"
