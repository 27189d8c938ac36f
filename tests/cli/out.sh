#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# --out writes a regular file whole or not at all, and never replaces
# what is not a regular file: as root, a rename onto /dev/null destroys
# the device for the whole machine.  Devices here are made with mknod in
# a temporary directory, so a regression cannot hurt the machine.
set -u
cd "$(dirname "$0")/../.."
T=$(mktemp -d)
MNT=""
cleanup() {
	for m in $MNT; do umount "$m" 2>/dev/null; done
	rm -rf "$T"
}
trap cleanup EXIT
. tests/tap.sh
echo "1..12"
CC="gcc -O2 -c -fplugin=$PWD/build/lockhog.so -fplugin-arg-lockhog-diag=none -Itests/fixtures/include"
$CC tests/fixtures/call-direct.c -o $T/good.o
$LOCKHOG report $T/good.o >$T/want.txt 2>/dev/null

# one error line on stderr, exit 2
fails_cleanly() {
	local rc
	$LOCKHOG report --out "$1" $T/good.o >/dev/null 2>$T/err
	rc=$?
	[ $rc = 2 ] && [ "$(wc -l <$T/err)" = 1 ]
}
no_temp() { [ -z "$(find "$1" -name '.*.??????' 2>/dev/null)" ]; }

mknod $T/null c 1 3
$LOCKHOG report --out $T/null $T/good.o 2>$T/err
res $? "--out to a character device succeeds" $T/err
[ -c $T/null ]
res $? "the character device is still a device"

rc=0
$LOCKHOG report --out /dev/full $T/good.o 2>$T/err || rc=$?
if [ $rc = 2 ] && [ "$(wc -l <$T/err)" = 1 ] && grep -q "No space left" $T/err && [ -c /dev/full ]; then
	ok "/dev/full: one-line error, exit 2, device intact"
else
	notok "/dev/full: one-line error, exit 2, device intact (exit $rc)" $T/err
fi

mkfifo $T/fifo
timeout 30 cat $T/fifo >$T/fifo.out &
reader=$!
$LOCKHOG report --out $T/fifo $T/good.o 2>$T/err
rc=$?
wait $reader
if [ $rc = 0 ] && [ -p $T/fifo ] && cmp -s $T/fifo.out $T/want.txt; then
	ok "--out to a FIFO writes through it and leaves it a FIFO"
else
	notok "--out to a FIFO writes through it and leaves it a FIFO (exit $rc)" $T/err
fi

echo old >$T/target.txt
ln -s target.txt $T/link
$LOCKHOG report --out $T/link $T/good.o 2>$T/err
if [ -L $T/link ] && cmp -s $T/target.txt $T/want.txt && no_temp $T; then
	ok "--out through a symlink writes its target, keeps the link"
else
	notok "--out through a symlink writes its target, keeps the link" $T/err
fi
ln -s $T/sub/new.txt $T/dangling
mkdir $T/sub
$LOCKHOG report --out $T/dangling $T/good.o 2>$T/err
[ -L $T/dangling ] && cmp -s $T/sub/new.txt $T/want.txt
res $? "--out through a dangling symlink creates its target" $T/err

echo old >$T/keep.txt
chmod 640 $T/keep.txt
$LOCKHOG report --out $T/keep.txt $T/good.o 2>$T/err
if cmp -s $T/keep.txt $T/want.txt && [ "$(stat -c %a $T/keep.txt)" = 640 ] && no_temp $T; then
	ok "--out replaces a regular file, keeps its mode, leaves no temporary"
else
	notok "--out replaces a regular file, keeps its mode, leaves no temporary" $T/err
fi

$LOCKHOG report --out - $T/good.o >$T/dash.txt 2>$T/err
cmp -s $T/dash.txt $T/want.txt
res $? "--out - is standard output" $T/err
$LOCKHOG report --out /dev/stdout $T/good.o >$T/stdout.txt 2>$T/err
cmp -s $T/stdout.txt $T/want.txt && [ ! -L $T/stdout.txt ]
res $? "--out /dev/stdout redirected to a file" $T/err

mkdir -p $T/dir
fails_cleanly $T/dir && [ -d $T/dir ]
res $? "--out naming a directory: one-line error, exit 2" $T/err

# a read-only directory and a full disk, on small tmpfs mounts of our own
mkdir -p $T/ro $T/full
if mount -t tmpfs -o size=64k,mode=755 tmpfs $T/ro 2>/dev/null; then
	MNT="$MNT $T/ro"
	echo old >$T/ro/r.txt
	mount -o remount,ro $T/ro
	if fails_cleanly $T/ro/r.txt && [ "$(cat $T/ro/r.txt)" = old ] && no_temp $T/ro; then
		ok "read-only directory: one-line error, exit 2, old file intact"
	else
		notok "read-only directory: one-line error, exit 2, old file intact" $T/err
	fi
else
	ok "read-only directory # SKIP cannot mount tmpfs here"
fi
if mount -t tmpfs -o size=16k tmpfs $T/full 2>/dev/null; then
	MNT="$MNT $T/full"
	echo old >$T/full/r.txt
	dd if=/dev/zero of=$T/full/fill bs=4k 2>/dev/null	# fill what is left
	if fails_cleanly $T/full/r.txt &&
	   [ "$(cat $T/full/r.txt)" = old ] && no_temp $T/full; then
		ok "full disk: one-line error, exit 2, old file intact, no temporary"
	else
		notok "full disk: one-line error, exit 2, old file intact, no temporary" $T/err
	fi
else
	ok "full disk # SKIP cannot mount tmpfs here"
fi
exit 0
