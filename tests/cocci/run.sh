#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Semantics tests of the Coccinelle scripts in cocci/, as TAP.
#
#   <cocci>/apply_*.c   patch mode (spatch, then cocci/tidy.py) must turn
#                       it into apply_*.res exactly,
#                       and report mode must report something
#   <cocci>/refuse_*.c  patch mode must leave it alone, and report mode
#                       must name every line marked EXPECT-REPORT
#   model/model_*.c     compiled and run before and after the patch (with
#                       model/main_*.c): same end state, and the costly
#                       work taken out of the lock
#
# A fixture names extra spatch options on a "// SPATCH-ARGS:" line.
# COCCICHECK_KDIR=DIR also runs "make coccicheck" on DIR (a kernel tree
# that may be written to) for each script and mode.
set -u
cd "$(dirname "$0")/../.."
ROOT=$PWD
OUT=${COCCI_TEST_OUT:-$ROOT/build/tests/cocci}
mkdir -p "$OUT"
. tests/tap.sh
check() { local what=$1; shift; if "$@"; then ok "$what"; else notok "$what"; fi; }
args_of() { sed -n 's|^// SPATCH-ARGS: ||p' "$1"; }
# Patch mode as lockhog uses it: spatch's diff, tidied by cocci/tidy.py,
# applied to a copy written to OUT.  No OUT when spatch changes nothing.
cocci_patch() {
	local sp=$1 f=$2 out=$3
	shift 3
	rm -f "$out" "$out.diff" "$out.tidy"
	spatch --very-quiet --sp-file "$sp" -D patch "$@" "$f" >"$out.diff" || return 1
	[ -s "$out.diff" ] || return 0
	python3 cocci/tidy.py "$out.diff" >"$out.tidy" || return 1
	cp "$f" "$out.tmp" && patch -s --no-backup-if-mismatch "$out.tmp" <"$out.tidy" &&
		mv "$out.tmp" "$out"
}

TESTS=()
for c in cocci/src/*.cocci.in; do TESTS+=("$(basename "$c" .cocci.in)"); done
models=(tests/cocci/model/model_*.c)
total=$((1 + ${#TESTS[@]}))
for t in "${TESTS[@]}"; do
	for f in tests/cocci/$t/apply_*.c; do [ -f "$f" ] && total=$((total + 2)); done
	for f in tests/cocci/$t/refuse_*.c; do [ -f "$f" ] && total=$((total + 2)); done
done
total=$((total + 3 * ${#models[@]}))
[ -n "${COCCICHECK_KDIR:-}" ] && total=$((total + 4 * ${#TESTS[@]}))
echo "1..$total"

# 1. The generated files are what the generator makes of the rules.
if cocci/gen.sh --check >"$OUT/gen.log" 2>&1; then
	ok "cocci/*.cocci are up to date with rules/kernel.rules"
else
	notok "cocci/*.cocci are up to date with rules/kernel.rules (run cocci/gen.sh)" "$OUT/gen.log"
fi

for t in "${TESTS[@]}"; do
	sp=cocci/$t.cocci
	if spatch --parse-cocci "$sp" >"$OUT/$t.parse" 2>&1; then
		ok "$t: parses"
	else
		notok "$t: parses" "$OUT/$t.parse"
	fi
	for f in tests/cocci/$t/apply_*.c; do
		[ -f "$f" ] || continue
		b=$(basename "$f" .c)
		res=${f%.c}.res
		cocci_patch "$sp" "$f" "$OUT/$t.$b.c" $(args_of "$f") >"$OUT/$t.$b.log" 2>&1
		if [ -f "$OUT/$t.$b.c" ] && cmp -s "$OUT/$t.$b.c" "$res"; then
			ok "$t: $b patched as expected"
		else
			[ -f "$OUT/$t.$b.c" ] && diff -u "$res" "$OUT/$t.$b.c" >>"$OUT/$t.$b.log"
			notok "$t: $b patched as expected" "$OUT/$t.$b.log"
		fi
		spatch --very-quiet --sp-file "$sp" -D report $(args_of "$f") "$f" \
			>"$OUT/$t.$b.report" 2>&1
		if grep -q "^$f:[0-9]*:.*WARNING" "$OUT/$t.$b.report"; then
			ok "$t: $b reported"
		else
			notok "$t: $b reported" "$OUT/$t.$b.report"
		fi
	done
	for f in tests/cocci/$t/refuse_*.c; do
		[ -f "$f" ] || continue
		b=$(basename "$f" .c)
		cocci_patch "$sp" "$f" "$OUT/$t.$b.c" $(args_of "$f") >"$OUT/$t.$b.log" 2>&1
		if [ ! -f "$OUT/$t.$b.c" ] || cmp -s "$OUT/$t.$b.c" "$f"; then
			ok "$t: $b left alone by patch mode"
		else
			diff -u "$f" "$OUT/$t.$b.c" >>"$OUT/$t.$b.log"
			notok "$t: $b left alone by patch mode" "$OUT/$t.$b.log"
		fi
		spatch --very-quiet --sp-file "$sp" -D report $(args_of "$f") "$f" \
			>"$OUT/$t.$b.report" 2>&1
		missing=""
		for l in $(grep -n "/\* EXPECT-REPORT \*/" "$f" | cut -d: -f1); do
			grep -q "^$f:$l:" "$OUT/$t.$b.report" || missing="$missing $l"
		done
		if [ -z "$missing" ]; then
			ok "$t: $b still reported"
		else
			echo "lines not reported:$missing" >>"$OUT/$t.$b.report"
			notok "$t: $b still reported" "$OUT/$t.$b.report"
		fi
	done
done

# 3. Userspace models, before and after.
CFLAGS_MODEL="-O1 -Wall -Wno-unused-function -Werror -Itests/cocci/model"
for m in "${models[@]}"; do
	b=$(basename "$m" .c)
	name=${b#model_}
	t=$(sed -n 's|^// SPATCH-COCCI: ||p' "$m")
	main=tests/cocci/model/main_$name.c
	log=$OUT/$b.log
	: >"$log"
	cocci_patch "cocci/$t.cocci" "$m" "$OUT/$b.patched.c" $(args_of "$m") >>"$log" 2>&1
	cp tests/cocci/model/kmodel.h "$OUT/"
	if [ -f "$OUT/$b.patched.c" ] && ! cmp -s "$m" "$OUT/$b.patched.c" &&
	   gcc $CFLAGS_MODEL -DMODEL="\"$ROOT/$m\"" -o "$OUT/$b.before" "$main" >>"$log" 2>&1 &&
	   gcc $CFLAGS_MODEL -DMODEL="\"$OUT/$b.patched.c\"" -o "$OUT/$b.after" "$main" >>"$log" 2>&1; then
		ok "$t: model $name patched and builds before and after"
	else
		notok "$t: model $name patched and builds before and after" "$log"
		notok "$t: model $name keeps its end state"
		notok "$t: model $name takes the work out of the lock"
		continue
	fi
	"$OUT/$b.before" >"$OUT/$b.before.out" 2>>"$log"
	r1=$?
	"$OUT/$b.after" >"$OUT/$b.after.out" 2>>"$log"
	r2=$?
	if [ $r1 = 0 ] && [ $r2 = 0 ] &&
	   diff <(grep -v '^stat:' "$OUT/$b.before.out") <(grep -v '^stat:' "$OUT/$b.after.out") >>"$log"; then
		ok "$t: model $name keeps its end state"
	else
		notok "$t: model $name keeps its end state" "$log"
	fi
	before=$(grep '^stat:' "$OUT/$b.before.out")
	after=$(grep '^stat:' "$OUT/$b.after.out")
	echo "before: $before" >>"$log"
	echo "after:  $after" >>"$log"
	good=false
	case "$before $after" in
	*"under lock"*)
		ub=$(echo "$before" | sed 's/.*under lock \([0-9]*\).*/\1/')
		ua=$(echo "$after" | sed 's/.*under lock \([0-9]*\).*/\1/')
		[ "$ua" -lt "$ub" ] && good=true ;;
	*relocks*)
		ra=$(echo "$after" | sed 's/.*relocks \([0-9]*\).*/\1/')
		ca=$(echo "$after" | sed 's/.*cond_resched \([0-9]*\).*/\1/')
		[ "$ra" -gt 0 ] && [ "$ca" = 0 ] && good=true ;;
	esac
	if $good; then
		ok "$t: model $name takes the work out of the lock ($after)"
	else
		notok "$t: model $name takes the work out of the lock" "$log"
	fi
done

# 4. make coccicheck on a kernel tree, when one is given.
# What each run must find in mm/ of 6.1 (none: it only has to run clean).
expect() {
	case $1.$2 in
	lock_release_helper.report) echo '^mm/memcontrol.c:2284:[0-9-]*: WARNING: drain_stock() releases' ;;
	lock_release_helper.patch) echo '^+static void drain_stock_detach(' ;;
	lock_release_helper.context) echo '^-	drain_stock(stock);' ;;
	lock_release_helper.org) echo 'TODO .*linb=2284.*drain_stock()' ;;
	lock_costly_call.report) echo '^mm/memcontrol.c:[0-9:-]*: WARNING: cgroup_rstat_flush_irqsafe() called with spin_trylock_irqsave' ;;
	lock_loop_break.report-fn) echo '^mm/page_alloc.c:[0-9:-]*: WARNING: __free_one_page() called in a loop with spin_lock_irqsave(&zone->lock) held.*(MODE=patch)' ;;
	esac
}
if [ -n "${COCCICHECK_KDIR:-}" ]; then
	for t in "${TESTS[@]}"; do
		for mode in report patch context org; do
			log=$OUT/coccicheck.$t.$mode
			flags=
			want=$(expect "$t" "$mode")
			if [ "$t.$mode" = lock_loop_break.report ]; then
				flags="-D fn=free_pcppages_bulk"
				want=$(expect "$t" report-fn)
			fi
			if make -s -C "$COCCICHECK_KDIR" coccicheck COCCI="$ROOT/cocci/$t.cocci" \
				MODE=$mode M=mm/ SPFLAGS="$flags" >"$log" 2>&1 &&
			   ! grep -q "^EXN\|Traceback\|^Error\|parse error" "$log" &&
			   { [ -z "$want" ] || grep -q -- "$want" "$log"; }; then
				ok "$t: make coccicheck MODE=$mode M=mm/ $flags${want:+ finds it}"
			else
				notok "$t: make coccicheck MODE=$mode M=mm/ $flags${want:+ finds it}" "$log"
			fi
		done
	done
fi

[ "$n" = "$total" ] || { echo "# planned $total tests, ran $n"; exit 1; }
[ "$fails" = 0 ]
