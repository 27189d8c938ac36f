#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# lockhog-check as kbuild runs it: the command line of a checker (GCC-only
# options, sparse's CHECKFLAGS), sparse's exit status (0 with findings,
# non-zero only with --fail-on), gcc-style diagnostics, a sidecar beside
# the object, one diagnostic and exit 0 for a file clang cannot parse.
set -u
cd "$(dirname "$0")/../.."
T=$PWD/build/tests/clang_cli
CHK=$PWD/build/lockhog-check
LOCKHOG=${LOCKHOG:-$PWD/build/lockhog}
rm -rf $T
mkdir -p $T/mm
echo "1..18"
. tests/tap.sh
FIX=tests/fixtures
# what kbuild's c_flags hold on a GCC tree, and sparse's CHECKFLAGS
GCCONLY="-fconserve-stack -fno-allow-store-data-races -fplugin=/nonexistent/lockhog.so
	-fplugin-arg-lockhog-rules=/x -mindirect-branch=thunk-extern -mindirect-branch-register
	-mfunction-return=thunk-extern -Wp,-MMD,x.d -fno-var-tracking-assignments -mrecord-mcount
	-Wimplicit-fallthrough=5 -fmin-function-alignment=16 -falign-jumps=1 -O2"
SPARSE="-D__linux__ -Dlinux -D__STDC__ -Dunix -D__unix__ -Wbitwise -Wno-return-void
	-Wno-unknown-attribute -D__x86_64__ --arch=x86 -mlittle-endian -m64"

cp $FIX/bug-refill-stock.c $T/mm/stock.c
(cd $T && $CHK $SPARSE $GCCONLY -I$OLDPWD/$FIX/include mm/stock.c) >$T/out 2>$T/err
res $? "exit 0 with findings, GCC-only options and CHECKFLAGS taken" $T/err
check_err() { grep -qE "$1" $T/err; }
if check_err '^mm/stock.c:[0-9]+:9: warning: page_counter_uncharge\(\) reached with memcg_stock.stock_lock held and IRQs off \[-Wlockhog-call\]$'; then
	ok "findings on stderr, gcc style"
else
	notok "findings on stderr, gcc style" $T/err
fi
check_err '^mm/stock.c:[0-9]+:[0-9]+: note: chain: drain_local_stock -> drain_stock -> page_counter_uncharge$' &&
	ok "notes follow the warning" || notok "notes follow the warning" $T/err
[ -s $T/out ] && notok "nothing on stdout" $T/out || ok "nothing on stdout"
head -1 $T/mm/.stock.o.lockhog 2>/dev/null | grep -qx 'lockhog-ir 3' &&
	ok "sidecar mm/.stock.o.lockhog beside the object, a lockhog-ir 3 payload" ||
	notok "sidecar mm/.stock.o.lockhog beside the object"
$LOCKHOG report --all $T/mm/.stock.o.lockhog >$T/report 2>&1 && grep -q 'page_counter_uncharge' $T/report &&
	ok "lockhog report reads the sidecar as a section" || notok "lockhog report reads the sidecar" $T/report
(cd $T && $CHK --fail-on=warning -I$OLDPWD/$FIX/include mm/stock.c) >/dev/null 2>&1
[ $? = 1 ] && ok "--fail-on=warning: exit 1 with a warning" || notok "--fail-on=warning: exit 1 with a warning"
(cd $T && $CHK -I$OLDPWD/$FIX/include -o mm/other.o mm/stock.c) >/dev/null 2>&1
[ -f $T/mm/.other.o.lockhog ] && ok "-o names the object: mm/.other.o.lockhog" ||
	notok "-o names the object: mm/.other.o.lockhog"

# a file clang cannot parse: one diagnostic, exit 0, the build goes on
printf 'void f(void) { this is not C; }\n' >$T/mm/bad.c
(cd $T && $CHK mm/bad.c) >/dev/null 2>$T/bad.err
res $? "a file that does not parse: exit 0" $T/bad.err
[ "$(wc -l <$T/bad.err)" = 1 ] && grep -q '^mm/bad.c: warning: lockhog-check: ' $T/bad.err &&
	ok "a file that does not parse: one diagnostic" || notok "a file that does not parse: one diagnostic" $T/bad.err
(cd $T && $CHK mm/missing.c) >/dev/null 2>$T/missing.err
rc=$?
[ $rc = 0 ] && [ "$(wc -l <$T/missing.err)" = 1 ] && ok "a missing file: one diagnostic, exit 0" ||
	notok "a missing file: one diagnostic, exit 0 (exit $rc)" $T/missing.err

# never over a non-regular file
mkfifo $T/mm/.fifo.o.lockhog
(cd $T && $CHK -I$OLDPWD/$FIX/include -o mm/fifo.o mm/stock.c) >/dev/null 2>$T/fifo.err
[ -p $T/mm/.fifo.o.lockhog ] && grep -q 'not a regular file' $T/fifo.err &&
	ok "a sidecar path that is a FIFO is left alone" || notok "a sidecar path that is a FIFO is left alone" $T/fifo.err
# sparse defines __CHECKER__ itself; a CF=-D__CHECKER__ must not reach clang
printf '#ifdef __CHECKER__\n#error __CHECKER__ defined\n#endif\nint f(void) { return 0; }\n' >$T/mm/chk.c
(cd $T && $CHK -D__CHECKER__ -D __CHECKER__ mm/chk.c) >/dev/null 2>$T/chk.err
[ ! -s $T/chk.err ] && ok "-D__CHECKER__ is not passed to clang" || notok "-D__CHECKER__ is not passed to clang" $T/chk.err
$CHK >/dev/null 2>$T/usage.err
[ $? = 2 ] && ok "no file: usage, exit 2" || notok "no file: usage, exit 2" $T/usage.err
# --kversion=, as kbuild passes it (lockhog scan): the catalogue read for
# that version, like the plugin's -fplugin-arg-lockhog-kversion=
cp $FIX/kversion-kvrealloc-61.c $T/mm/kvr.c
(cd $T && $CHK --kversion=6.1.192 -I$OLDPWD/$FIX/include mm/kvr.c) >/dev/null 2>$T/kv61.err
[ $? = 0 ] && [ ! -s $T/kv61.err ] && ok "--kversion=6.1.192: 6.1's kvrealloc() rule, no sleep" ||
	notok "--kversion=6.1.192: 6.1's kvrealloc() rule, no sleep" $T/kv61.err
(cd $T && $CHK --kversion=6.12.117 -I$OLDPWD/$FIX/include mm/kvr.c) >/dev/null 2>$T/kv612.err
grep -q 'warning: kvrealloc() may sleep' $T/kv612.err && ok "--kversion=6.12.117: 6.12's rule tests the third argument" ||
	notok "--kversion=6.12.117: 6.12's rule tests the third argument" $T/kv612.err
# a function of thousands of branches in a row: reading a local back
# through every join recurses once per join, more than a 1 MiB stack
{
	printf 'extern int g(int);\nint big(int a, int b)\n{\n\tint x = a;\n'
	seq 1 8000 | sed 's/.*/\tif (g(&))\n\t\tb++;/'
	printf '\treturn x + b;\n}\n'
} >$T/mm/big.c
(ulimit -s 1024; cd $T && $CHK mm/big.c) >/dev/null 2>$T/big.err
[ $? = 0 ] && [ ! -s $T/big.err ] && [ -s $T/mm/.big.o.lockhog ] &&
	ok "8000 branches in a row under a 1 MiB stack limit: checked, a sidecar" ||
	notok "8000 branches in a row under a 1 MiB stack limit: checked, a sidecar" $T/big.err
$CHK --kversion=six mm/kvr.c >/dev/null 2>$T/kvbad.err
[ $? = 2 ] && grep -qx "lockhog-check: --kversion: bad kernel version 'six'" $T/kvbad.err &&
	ok "a bad --kversion: one line, exit 2" || notok "a bad --kversion: one line, exit 2" $T/kvbad.err
