#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Bad input gives a one-line error and a non-zero exit, and the plugin
# never breaks a build.
set -u
cd "$(dirname "$0")/../.."
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
PLUGIN=$PWD/build/lockhog.so
RULES=$PWD/rules/kernel.rules
CC="gcc -O2 -c -fplugin=$PLUGIN -fplugin-arg-lockhog-rules=$RULES -Itests/fixtures/include"
. tests/tap.sh
echo "1..25"
t() {	# t NAME EXPECTED-EXIT REGEX COMMAND...: ends with one error line, matching
	local name=$1 want=$2 re=$3 rc lines
	shift 3
	"$@" >"$T/out" 2>"$T/err"
	rc=$?
	# progress lines ("configuring ...") may come first; one error ends it
	lines=$(grep -vc ': configuring (' "$T/err")
	if [ "$rc" = "$want" ] && [ "$lines" = 1 ] && tail -1 "$T/err" | grep -qE "$re"; then
		ok "$name"
	else
		notok "$name (exit $rc, $lines lines: $(head -c 200 "$T/err"))"
	fi
}

t "missing tree" 2 "^lockhog: $T/nope: no such directory$" $LOCKHOG scan --kernel $T/nope mm/
mkdir -p $T/notkernel
t "not a kernel tree" 2 "not a kernel tree" $LOCKHOG scan --kernel $T/notkernel mm/
# looks like a kernel tree, but defconfig cannot work in it
mkdir -p $T/broken/scripts/kconfig $T/broken/arch $T/broken/include/linux $T/broken/mm
printf 'defconfig:\n\t@echo "*** broken tree" >&2; exit 1\n' >$T/broken/Makefile
touch $T/broken/Kconfig
t "tree that does not configure" 2 "make defconfig failed: \*\*\* broken tree" $LOCKHOG scan --kernel $T/broken mm/
t "summary: an unknown option is named" 2 "unknown option '--bogus'" \
	$LOCKHOG summary --bogus --function f $T
# every --function counts, however many (a fixed table once cut them at 64)
fargs=(); for i in $(seq 1 100); do fargs+=(--function "f$i"); done
$LOCKHOG summary "${fargs[@]}" "$PWD/tests/fixtures" >$T/sum.out 2>$T/sum.err
res $([ "$(grep -c ': no summary$' $T/sum.out)" = 100 ] && echo 0 || echo 1) \
	"summary takes a hundred functions" $T/sum.err
printf 'lock spin_lock op=grab arg=0 kind=spin\n' >$T/bad.rules
t "a bad --kversion: one line" 2 "^lockhog: bad kernel version 'six' \\(want e.g. 6.1 or 6.12.3\\)$" \
	$LOCKHOG rules --kversion six
t "malformed rules: file and line" 2 "^lockhog: $T/bad.rules:1: unknown lock op 'grab'$" \
	$LOCKHOG rules --rules $T/bad.rules
t "malformed rules stop a scan before it builds" 2 "$T/bad.rules:1:" \
	$LOCKHOG scan --kernel $T/notkernel --rules $T/bad.rules mm/
t "unknown format" 2 "unknown format 'xml'" $LOCKHOG report --format xml $T
echo 'not an object' >$T/x.o
t "objects without lockhog's section" 2 "no object carries lockhog's analysis" $LOCKHOG report $T/x.o
t "unknown command" 2 "unknown command 'scna'" $LOCKHOG scna

# a corrupt section is skipped with a warning, the rest still reported
$CC tests/fixtures/call-direct.c -o $T/good.o 2>/dev/null
objcopy --dump-section .note.lockhog=$T/sec $T/good.o $T/tmp.o
sed 's/^B 2 /B 9 /' $T/sec >$T/sec.bad
objcopy --update-section .note.lockhog=$T/sec.bad $T/good.o $T/bad.o
$LOCKHOG report $T/good.o $T/bad.o >$T/out 2>$T/err
rc=$?
if [ $rc = 0 ] && grep -q "bad.o: bad .note.lockhog section (payload at byte 0): line" $T/err && grep -q "warning:" $T/out; then
	ok "corrupt section skipped with a warning"
else
	notok "corrupt section skipped with a warning (exit $rc)"
fi

# --out never leaves a half-written file
if ! $LOCKHOG report --out $T/no/such/dir/r.txt $T/good.o 2>$T/err && [ ! -e $T/no ]; then
	ok "unwritable --out fails cleanly"
else
	notok "unwritable --out fails cleanly"
fi
$LOCKHOG report --format json --out $T/r.json $T/good.o 2>/dev/null
if /usr/bin/python3 -c "import json,sys; json.load(open(sys.argv[1]))" $T/r.json && \
   [ -z "$(ls $T | grep '\.tmp\.')" ]; then
	ok "--out writes whole JSON and no temporary file"
else
	notok "--out writes whole JSON and no temporary file"
fi

# the plugin: bad options and rules turn it off with a note, the build goes on
if gcc -O2 -c -fplugin=$PLUGIN -fplugin-arg-lockhog-rules=$T/bad.rules \
	-Itests/fixtures/include tests/fixtures/call-direct.c -o $T/p1.o 2>$T/err &&
   grep -q "note: lockhog: $T/bad.rules:1: unknown lock op 'grab'; plugin disabled" $T/err && [ -s $T/p1.o ]; then
	ok "plugin with a bad rules file: note, object built"
else
	notok "plugin with a bad rules file: note, object built"
fi
if $CC -fplugin-arg-lockhog-colour=red tests/fixtures/call-direct.c -o $T/p2.o 2>$T/err &&
   grep -q "unknown option" $T/err && [ -s $T/p2.o ]; then
	ok "plugin with an unknown option: note, object built"
else
	notok "plugin with an unknown option: note, object built"
fi
if $CC -Werror tests/fixtures/call-direct.c -o $T/p3.o 2>$T/err &&
   grep -q "warning: .*\[-Wlockhog-call\]" $T/err && [ -s $T/p3.o ]; then
	ok "findings stay warnings under -Werror"
else
	notok "findings stay warnings under -Werror"
fi
if $CC -fplugin-arg-lockhog-diag=none tests/fixtures/call-direct.c -o $T/p4.o 2>$T/err &&
   [ ! -s $T/err ] && $LOCKHOG dump $T/p4.o | head -1 | grep -q "^lockhog-ir 3$"; then
	ok "diag=none is silent and still stores the IR"
else
	notok "diag=none is silent and still stores the IR"
fi

# the section is kept by ld -r (built-in.a, vmlinux.o) and dropped from
# final links without orphan warnings (vmlinux links with --orphan-handling)
printf 'int f(int x) { return x + 1; }\nint main(void) { return f(0); }\n' >$T/m.c
if $CC $T/m.c -o $T/m.o 2>/dev/null && ld -r $T/m.o -o $T/mr.o &&
   readelf -S $T/mr.o | grep -q '\.lockhog' &&
   gcc $T/m.o -o $T/m -Wl,--orphan-handling=warn 2>$T/err && ! grep -q lockhog $T/err &&
   ! readelf -S $T/m | grep -q '\.lockhog'; then
	ok "section survives ld -r, leaves final links quietly"
else
	notok "section survives ld -r, leaves final links quietly"
fi
# ld -r (modules, vmlinux.o) concatenates the payloads of its inputs: a
# composite is read whole, and a unit read from its own object and from
# a composite counts once
fps() { /usr/bin/python3 -c "import json,sys; print(' '.join(sorted(f['fingerprint'] for f in json.load(open(sys.argv[1])))))" "$1"; }
$CC -fplugin-arg-lockhog-diag=none tests/fixtures/loop-unbounded.c -o $T/lu.o 2>/dev/null
$CC -fplugin-arg-lockhog-diag=none tests/fixtures/bug-refill-stock.c -o $T/rs.o 2>/dev/null
ld -r $T/good.o $T/lu.o $T/rs.o -o $T/comb.o
$LOCKHOG report --format json --out $T/parts.json $T/good.o $T/lu.o $T/rs.o 2>$T/err
$LOCKHOG report --format json --out $T/comb.json $T/comb.o 2>>$T/err
mkdir -p $T/tree/sub && cp $T/comb.o $T/tree/ && cp $T/good.o $T/lu.o $T/rs.o $T/tree/sub/
$LOCKHOG report --format json --out $T/both.json $T/tree 2>>$T/err
if [ -n "$(fps $T/parts.json)" ] && [ "$(fps $T/parts.json)" = "$(fps $T/comb.json)" ] &&
   [ "$(fps $T/both.json)" = "$(fps $T/parts.json)" ] && [ ! -s $T/err ]; then
	ok "ld -r of three units: all read from the composite, each once beside its parts"
else
	notok "ld -r of three units: all read from the composite, each once beside its parts" $T/err
fi
# a section added by objcopy is a NOTE: ld -r keeps it apart from the
# plugin's PROGBITS one, and both are read
$LOCKHOG dump $T/lu.o >$T/lu.sec && printf '\0' >>$T/lu.sec
echo 'int zz;' | gcc -x c -c - -o $T/plain.o
objcopy --add-section .note.lockhog=$T/lu.sec --set-section-flags .note.lockhog=exclude \
	$T/plain.o $T/added.o
ld -r $T/good.o $T/added.o -o $T/mix.o
$LOCKHOG report --format json --out $T/mix.json $T/mix.o 2>$T/err
$LOCKHOG report --format json --out $T/two.json $T/good.o $T/lu.o 2>>$T/err
[ "$(readelf -S $T/mix.o | grep -c 'note.lockhog')" = 2 ] && [ "$(fps $T/mix.json)" = "$(fps $T/two.json)" ]
res $? "two same-named sections of different types after ld -r: both read" $T/err
# a few hundred KB of crafted payload must not cost gigabytes: each F
# record claims a million variables and names one of them
{ echo "lockhog-ir 3"; echo "T x.c"
  for i in $(seq 1000); do printf 'F f%d 0 x.c 1 1000000 0\nV 999999 x\nB 0 -\n' $i; done
  printf '\0'; } >$T/huge.sec
objcopy --add-section .note.lockhog=$T/huge.sec --set-section-flags .note.lockhog=exclude \
	$T/plain.o $T/huge.o
t "a payload naming more variables than its size allows: refused, memory bounded" 2 \
	"huge.o: bad .note.lockhog section .*more variables named than a payload of this size can hold" \
	bash -c "ulimit -v 1000000; exec $LOCKHOG report $T/huge.o"
# an object of the first format says what to do
printf 'lockhog-ir 1\nT a.c\n' >$T/old.sec
objcopy --remove-section .note.lockhog --add-section .lockhog=$T/old.sec \
	--set-section-flags .lockhog=exclude $T/good.o $T/old.o
t "an object of an older format: rebuild it" 2 "old.o: built by an older lockhog \(lockhog-ir 1\); rebuild it$" \
	$LOCKHOG report $T/old.o
$LOCKHOG report $T/old.o $T/good.o >/dev/null 2>$T/err
if [ $? = 0 ] && grep -q "old.o: built by an older lockhog (lockhog-ir 1); rebuild it" $T/err; then
	ok "beside good objects, the older one is named with the remedy"
else
	notok "beside good objects, the older one is named with the remedy" $T/err
fi
if $CC -fplugin-arg-lockhog-diag=none -fplugin-arg-lockhog-json=$T/u.json \
	tests/fixtures/call-direct.c -o $T/p5.o 2>/dev/null &&
   /usr/bin/python3 -c "import json,sys; d=json.load(open(sys.argv[1])); assert d[0]['callee'] == 'css_put'" $T/u.json; then
	ok "the plugin writes the unit's findings as JSON"
else
	notok "the plugin writes the unit's findings as JSON"
fi
