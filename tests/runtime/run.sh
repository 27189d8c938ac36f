#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The userspace runtime (rt/, docs/runtime.md), in two layers.  Its
# probes called by hand on descriptors the test programs put in
# lockhog_sites themselves: the exact counts each scenario must leave in
# $LOCKHOG_OUT (tests/runtime/expect.py), the archive and the shared
# library, no malloc after a thread's first probe, and $LOCKHOG_OUT
# written whole or not at all, never over what is not a regular file.
# Then tests/runtime/fixtures/, instrumented by the plugin with
# rules/userspace.rules, run, and their reports checked exactly.  Devices are made
# with mknod in a temporary directory, so a regression cannot hurt the
# machine's /dev/null.
set -u
cd "$(dirname "$0")/../.."
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
. tests/tap.sh
SCENARIOS="basic nesting order unmatched trylock stack hold_inner pairs recursive
	atomics call_releases open_at_exit threads forked nothing"
echo "1..44"

RT_A=build/liblockhog-rt.a
RT_SO=build/liblockhog-rt.so
CC="gcc -O2 -Wall -Werror -Irt"
build() {
	$CC -o "$T/$1" "tests/runtime/$2" "${@:3}" >>$T/build.log 2>&1
}
build probes probes.c $RT_A -ljansson -lpthread &&
	build probes-so probes.c -L build -llockhog-rt -Wl,-rpath,$PWD/build &&
	build nosites-a nosites.c -Wl,--whole-archive $RT_A -Wl,--no-whole-archive -ljansson -lpthread &&
	build nosites-so nosites.c -Wl,--no-as-needed -L build -llockhog-rt -Wl,-rpath,$PWD/build &&
	build nomalloc nomalloc.c $RT_A -ljansson -lpthread &&
	build reentry reentry.c $RT_A -ljansson -lpthread
res $? "the test programs build against $RT_A and $RT_SO" $T/build.log

# scenario BIN NAME: runs BIN NAME with the report in $T/BIN-NAME.json
# and checks it; the run must print nothing and exit 0
scenario() {
	local out=$T/$1-$2.json
	LOCKHOG_OUT=$out "$T/$1" $2 >$T/run.log 2>&1 &&
		[ ! -s $T/run.log ] &&
		/usr/bin/python3 tests/runtime/expect.py $2 $out >>$T/run.log 2>&1
}
for s in $SCENARIOS; do
	scenario probes $s
	res $? "probes: $s" $T/run.log
done
for s in basic threads hold_inner; do
	scenario probes-so $s
	res $? "probes through liblockhog-rt.so: $s" $T/run.log
done
scenario nosites-a nosites
res $? "a program with no sites, the archive linked whole: an empty report" $T/run.log
scenario nosites-so nosites
res $? "a program with no sites, the shared library linked: an empty report" $T/run.log

read -r sig_n sig_h < <(LOCKHOG_OUT=$T/signals.json $T/probes signals 2>$T/run.log)
/usr/bin/python3 tests/runtime/expect.py signals $T/signals.json "${sig_n:-0}" "${sig_h:-0}" \
	>>$T/run.log 2>&1
res $? "a signal handler's sections nest on the thread's stack: every hold counted ($sig_n + $sig_h)" $T/run.log

read -r first after < <(LOCKHOG_OUT=$T/nomalloc.json $T/nomalloc)
[ "${first:-0}" -gt 0 ] && [ "${after:-x}" = 0 ]
res $? "no malloc after a thread's first probe (first ${first:-?}, after ${after:-?})"

LOCKHOG_OUT=$T/reentry.json timeout 60 $T/reentry >$T/run.log 2>&1 &&
	/usr/bin/python3 tests/runtime/expect.py reentry $T/reentry.json >>$T/run.log 2>&1
res $? "an instrumented malloc: no deadlock, the probes dropped meanwhile counted" $T/run.log

# memcheck: no invalid access, threads exiting and an instrumented malloc
# freeing after a thread's counters went
for p in "probes threads" "probes hold_inner" reentry; do
	# shellcheck disable=SC2086
	LOCKHOG_OUT=$T/vg.json valgrind -q --error-exitcode=9 $T/$p >>$T/vg.log 2>&1 ||
		echo "exit $? for $p" >>$T/vg.log
done
! grep -q . $T/vg.log
res $? "valgrind memcheck: no error in the threads, hold_inner and reentry runs" $T/vg.log

mkdir $T/cwd
(cd $T/cwd && env -u LOCKHOG_OUT ../probes basic >../run.log 2>&1)
[ $? = 0 ] && [ ! -s $T/run.log ] && [ -z "$(ls -A $T/cwd)" ]
res $? "without LOCKHOG_OUT nothing is written, nothing said" $T/run.log

# fails_cleanly PATH: the program exits 0 (its status is its own) and
# the runtime says one line on stderr, naming PATH
fails_cleanly() {
	LOCKHOG_OUT=$1 $T/probes basic >$T/out 2>$T/err
	[ $? = 0 ] && [ ! -s $T/out ] && [ "$(wc -l <$T/err)" = 1 ] &&
		grep -qF "LOCKHOG_OUT=$1:" $T/err
}
no_temp() { [ -z "$(find "$1" -name '.*.??????' 2>/dev/null)" ]; }

mkdir $T/dir
fails_cleanly $T/dir && [ -d $T/dir ] && [ -z "$(ls -A $T/dir)" ] && no_temp $T
res $? "LOCKHOG_OUT a directory: one line, the directory untouched" $T/err

mknod $T/null c 1 3
fails_cleanly $T/null && [ -c $T/null ] && no_temp $T
res $? "LOCKHOG_OUT a character device: one line, still the device" $T/err

mkfifo $T/fifo
timeout 30 env LOCKHOG_OUT=$T/fifo $T/probes basic 2>$T/err
[ $? = 0 ] && [ -p $T/fifo ] && [ "$(wc -l <$T/err)" = 1 ] && no_temp $T
res $? "LOCKHOG_OUT a FIFO: one line, never opened, still a FIFO" $T/err

fails_cleanly $T/none/r.json && [ ! -e $T/none ]
res $? "LOCKHOG_OUT in a directory that does not exist: one line" $T/err

ln -s $T/gone.json $T/dangling
fails_cleanly $T/dangling && [ -L $T/dangling ] && [ ! -e $T/gone.json ]
res $? "LOCKHOG_OUT a dangling symlink: one line, the link kept" $T/err

echo old >$T/keep.json
chmod 640 $T/keep.json
LOCKHOG_OUT=$T/keep.json $T/probes basic 2>$T/err
/usr/bin/python3 tests/runtime/expect.py basic $T/keep.json >>$T/err 2>&1 &&
	[ "$(stat -c %a $T/keep.json)" = 640 ] && no_temp $T
res $? "LOCKHOG_OUT a regular file: replaced whole, its mode kept, no temporary" $T/err

echo old >$T/target.json
ln -s target.json $T/link
LOCKHOG_OUT=$T/link $T/probes basic 2>$T/err
[ -L $T/link ] && /usr/bin/python3 tests/runtime/expect.py basic $T/target.json >>$T/err 2>&1
res $? "LOCKHOG_OUT a symlink: its target written, the link kept" $T/err

(umask 027 && LOCKHOG_OUT=$T/new.json $T/probes basic 2>$T/err)
[ "$(stat -c %a $T/new.json 2>/dev/null)" = 640 ] && [ ! -s $T/err ]
res $? "a new report gets 0666 less the umask" $T/err

! objdump -h $RT_SO build/rt/a/*.o | grep -q lockhog_sites &&
	! objdump -d $RT_SO | grep -E 'call.*<__lockhog_' >$T/calls
res $? "the runtime has no site and calls no probe: never instrumented" $T/calls

build/lockhog rules --check --rules rules/userspace.rules >$T/rules.log 2>&1
res $? "rules/userspace.rules passes lockhog rules --check" $T/rules.log

# the static side with the same catalogue: a sleep under a spin lock is
# found, a condition wait in its loop gives the mutex up
cat >$T/static.c <<'EOF'
#include <pthread.h>
#include <unistd.h>
static pthread_spinlock_t sl;
static pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t cv = PTHREAD_COND_INITIALIZER;
int ready;
void spin_sleep(void) { pthread_spin_lock(&sl); usleep(1); pthread_spin_unlock(&sl); }
void waits(void) { pthread_mutex_lock(&m); while (!ready) pthread_cond_wait(&cv, &m); pthread_mutex_unlock(&m); }
EOF
gcc -O2 -c -fplugin=$PWD/build/lockhog.so -fplugin-arg-lockhog-rules=$PWD/rules/userspace.rules \
	-o $T/static.o $T/static.c >$T/static.log 2>&1
[ "$(grep -c 'warning:' $T/static.log)" = 1 ] &&
	grep -q 'static.c:7:.*warning: usleep() called with sl held' $T/static.log &&
	! grep -q 'pthread_cond_wait' $T/static.log
res $? "the plugin with rules/userspace.rules: usleep() under a spin lock, no condition wait" $T/static.log

# the plugin's probes (instrument=all) on fixtures of pthread code
INSTR="-fplugin=$PWD/build/lockhog.so -fplugin-arg-lockhog-rules=$PWD/rules/userspace.rules
	-fplugin-arg-lockhog-instrument=all"
# fixture NAME LINK...: built instrumented, linked, run; its report checked
fixture() {
	local f=$1 out=$T/fx-$1.json
	shift
	# shellcheck disable=SC2086
	gcc -O2 $INSTR -c -o $T/fx-$f.o tests/runtime/fixtures/$f.c >$T/fx.log 2>&1 &&
		nm $T/fx-$f.o | grep -q ' U __lockhog_acquire' &&
		gcc -o $T/fx-$f $T/fx-$f.o "$@" >>$T/fx.log 2>&1 &&
		LOCKHOG_OUT=$out $T/fx-$f >>$T/fx.log 2>&1 &&
		/usr/bin/python3 tests/runtime/expect.py fx_$f $out >>$T/fx.log 2>&1
}
fixture calls $RT_A -ljansson -lpthread
res $? "instrumented: a costly call 3 times in a section reports 3 (one site, three sites)" $T/fx.log
fixture loop $RT_A -ljansson -lpthread
res $? "instrumented: a loop of 1000 iterations under a spin lock reports 1000" $T/fx.log
fixture trylock $RT_A -ljansson -lpthread
res $? "instrumented: a trylock that fails opens no section" $T/fx.log
fixture threads $RT_A -ljansson -lpthread
res $? "instrumented: two threads' holds and calls add up" $T/fx.log
fixture atomics $RT_A -ljansson -lpthread
res $? "instrumented: C11 atomic RMWs on a global counted, in a section or not; a local's not" $T/fx.log
fixture threads -L build -llockhog-rt -Wl,-rpath,$PWD/build
res $? "instrumented, liblockhog-rt.so: two threads' holds and calls add up" $T/fx.log

[ -c /dev/null ]
res $? "/dev/null is still a character device"
exit 0
