#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# lockhog review on the real 6.1 tree (scanned by tests/integration):
# what must be flagged, what must not, what shows as fixed, and errors.
set -u
cd "$(dirname "$0")/../.."
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
MK="/usr/bin/python3 tests/review/mkpatch.py $KDIR"
echo "1..28"
. tests/tap.sh
# review NAME WANT-EXIT REGEX PATCH...
review() {
	local name=$1 want=$2 re=$3 rc
	shift 3
	$LOCKHOG review --kernel "$KDIR" "$@" >$T/out 2>$T/err
	rc=$?
	if [ $rc = "$want" ] && grep -qE "$re" $T/out $T/err; then
		res 0 "$name"
	else
		res 1 "$name (exit $rc: $(head -c 300 $T/out $T/err | tr '\n' ' '))"
	fi
}

# --- must be flagged ---
$MK "memcg: wait for readers under the idr lock" $T/direct.patch mm/memcontrol.c \
	"'\tspin_lock(&memcg_idr_lock);\n\tret = idr_alloc(&mem_cgroup_idr'" \
	"'\tspin_lock(&memcg_idr_lock);\n\tsynchronize_rcu();\n\tret = idr_alloc(&mem_cgroup_idr'"
review "costly call added under a lock directly" 1 \
	"NEW ERROR: synchronize_rcu\(\) may sleep, called with memcg_idr_lock held" $T/direct.patch

$MK "memcg: uncharge stale ids" $T/helper.patch mm/memcontrol.c \
	"'static int mem_cgroup_alloc_id(void)\n{'" \
	"'static void mem_cgroup_id_uncharge(struct mem_cgroup *memcg)\n{\n\tpage_counter_uncharge(&memcg->memory, 1);\n}\n\nstatic int mem_cgroup_alloc_id(void)\n{'" \
	mm/memcontrol.c "'\tspin_lock(&memcg_idr_lock);\n\tret = idr_alloc(&mem_cgroup_idr'" \
	"'\tspin_lock(&memcg_idr_lock);\n\tmem_cgroup_id_uncharge(root_mem_cgroup);\n\tret = idr_alloc(&mem_cgroup_idr'"
review "costly call added through a new helper" 1 \
	"NEW WARNING: page_counter_uncharge\(\) reached with memcg_idr_lock held" $T/helper.patch
grep -q "chain: mem_cgroup_alloc_id -> mem_cgroup_id_uncharge -> page_counter_uncharge" $T/out
res $? "the chain goes through the new helper"

# two costs reached from one new call are one finding, the other under it
$MK "memcg: flush and uncharge stale ids" $T/spot.patch mm/memcontrol.c \
	"'static int mem_cgroup_alloc_id(void)\n{'" \
	"'static void mem_cgroup_id_drop(struct mem_cgroup *memcg)\n{\n\tcgroup_rstat_flush_irqsafe(memcg->css.cgroup);\n\tpage_counter_uncharge(&memcg->memory, 1);\n}\n\nstatic int mem_cgroup_alloc_id(void)\n{'" \
	mm/memcontrol.c "'\tspin_lock(&memcg_idr_lock);\n\tret = idr_alloc(&mem_cgroup_idr'" \
	"'\tspin_lock(&memcg_idr_lock);\n\tmem_cgroup_id_drop(root_mem_cgroup);\n\tret = idr_alloc(&mem_cgroup_idr'"
review "two new costs from one call: one finding" 1 \
	"^total: 0 errors, 1 warnings, [0-9]+ notes new; 0 fixed; [0-9]+ unchanged; 1 more new cost at the same spots shown under them \\(" \
	$T/spot.patch
grep -A12 "^NEW WARNING: cgroup_rstat_flush_irqsafe() reached with memcg_idr_lock held" $T/out |
	grep -qE "^mm/memcontrol.c:[0-9]+:[0-9]+: note: here also: page_counter_uncharge\(\) reached with memcg_idr_lock held" &&
	! grep -q "^NEW WARNING: page_counter_uncharge" $T/out
res $? "the other is shown under it" $T/out

$MK "memcg: lock the idr through a helper" $T/wrapper.patch mm/memcontrol.c \
	"'static int mem_cgroup_alloc_id(void)\n{'" \
	"'static void memcg_idr_lock_flush(void)\n{\n\tspin_lock(&memcg_idr_lock);\n}\n\nstatic int mem_cgroup_alloc_id(void)\n{'" \
	mm/memcontrol.c "'\tspin_lock(&memcg_idr_lock);\n\tret = idr_alloc(&mem_cgroup_idr'" \
	"'\tmemcg_idr_lock_flush();\n\tcgroup_rstat_flush_irqsafe(root_mem_cgroup->css.cgroup);\n\tret = idr_alloc(&mem_cgroup_idr'"
review "costly call after a new lock wrapper" 1 \
	"NEW WARNING: cgroup_rstat_flush_irqsafe\(\) called with memcg_idr_lock held" $T/wrapper.patch

$MK "memcg: release every cached id" $T/loop.patch mm/memcontrol.c \
	"'static int mem_cgroup_alloc_id(void)\n{'" \
	"'static void mem_cgroup_release_ids(int n)\n{\n\tint i;\n\n\tspin_lock_irq(&memcg_idr_lock);\n\tfor (i = 0; i < n; i++)\n\t\tidr_remove(&mem_cgroup_idr, i);\n\tspin_unlock_irq(&memcg_idr_lock);\n}\n\nstatic int mem_cgroup_alloc_id(void)\n{'" \
	mm/memcontrol.c "'\tidr_preload_end();\n\treturn ret;'" "'\tidr_preload_end();\n\tmem_cgroup_release_ids(ret);\n\treturn ret;'"
review "new unbounded loop under a lock" 1 \
	"NEW WARNING: unbounded loop in mem_cgroup_release_ids\(\) calling idr_remove\(\) runs with memcg_idr_lock held and IRQs off" \
	$T/loop.patch

# --- must not be flagged ---
$MK "memcg: name the stock's old memcg" $T/refactor.patch mm/memcontrol.c \
	"'\tstruct mem_cgroup *old = stock->cached;\n\n\tif (!old)\n\t\treturn;\n\n\tif (stock->nr_pages) {\n\t\tpage_counter_uncharge(&old->memory, stock->nr_pages);\n\t\tif (do_memsw_account())\n\t\t\tpage_counter_uncharge(&old->memsw, stock->nr_pages);'" \
	"'\tstruct mem_cgroup *cached = stock->cached;\n\n\tif (!cached)\n\t\treturn;\n\n\tif (stock->nr_pages) {\n\t\tpage_counter_uncharge(&cached->memory,\n\t\t\t\t      stock->nr_pages);\n\t\tif (do_memsw_account())\n\t\t\tpage_counter_uncharge(&cached->memsw, stock->nr_pages);'" \
	mm/memcontrol.c "'\tcss_put(&old->css);\n\tstock->cached = NULL;'" "'\tcss_put(&cached->css);\n\tstock->cached = NULL;'"
review "pure refactor in a function with findings" 0 "0 errors, 0 warnings, 0 notes new; 0 fixed" $T/refactor.patch
$MK "mm: comment on draining" $T/comment.patch mm/page_alloc.c \
	"'\t/* Ensure requested pindex is drained first. */'" \
	"'\t/*\n\t * Ensure requested pindex is drained first: the caller asked for it.\n\t */'"
review "comment change" 0 "0 errors, 0 warnings, 0 notes new; 0 fixed" $T/comment.patch
# move drain_stock() after drain_local_stock()'s user: same function, new place
body=$(/usr/bin/python3 - "$KDIR" <<'PY'
import sys
src = open(sys.argv[1] + "/mm/memcontrol.c").read()
start = src.index("static void drain_stock(struct memcg_stock_pcp *stock)\n{")
end = src.index("\n}\n", start) + 3
print(repr(src[start:end]))
PY
)
$MK "memcg: move drain_stock() down" $T/move.patch mm/memcontrol.c \
	"$body" "''" mm/memcontrol.c \
	"'static void drain_local_stock(struct work_struct *dummy)\n{'" \
	"$(/usr/bin/python3 -c "import ast,sys; print(repr('static void drain_stock(struct memcg_stock_pcp *stock);\n' + ast.literal_eval(sys.argv[1]) + '\nstatic void drain_local_stock(struct work_struct *dummy)\n{'))" "$body")"
review "moved function" 0 "0 errors, 0 warnings, 0 notes new; 0 fixed" $T/move.patch

# --- fixes ---
# not a correct change, only one that takes a costly call away from the lock
$MK "memcg: keep the css reference of a drained stock" $T/fix.patch mm/memcontrol.c \
	"'\tcss_put(&old->css);\n\tstock->cached = NULL;'" "'\tstock->cached = NULL;'"
review "removing a costly call shows as fixed" 0 \
	"^FIXED: css_put\\(\\) reached with memcg_stock.stock_lock held" $T/fix.patch
if [ -f kernel-patches/linux-6.1/series ]; then
	set --
	while read -r p; do
		case "$p" in ''|'#'*) continue ;; esac
		set -- "$@" kernel-patches/linux-6.1/$p
	done <kernel-patches/linux-6.1/series
	review "the kernel-patches series shows as fixes" 0 "^FIXED: " "$@"
	grep -qE "^total: 0 errors, 0 warnings, [0-9]+ notes new; [1-9][0-9]* fixed" $T/out
	res $? "the series introduces no warning"
else
	res 1 "the kernel-patches series shows as fixes (no series)"
	res 1 "the series introduces no warning (no series)"
fi

# --- formats ---
$LOCKHOG review --kernel "$KDIR" --format sarif --out $T/r.sarif $T/helper.patch $T/fix.patch 2>/dev/null
scripts/sarif-schema.sh build/schemas/sarif-2.1.0.json &&
	/usr/bin/python3 tests/tools/sarif_validate.py build/schemas/sarif-2.1.0.json $T/r.sarif &&
	/usr/bin/python3 -c "
import json,sys
r = json.load(open(sys.argv[1]))['runs'][0]['results']
states = {x['baselineState'] for x in r}
assert {'new', 'absent', 'unchanged'} <= states, states
assert all('lockhogFingerprint/v1' in x['partialFingerprints'] for x in r)" $T/r.sarif
res $? "SARIF with baselineState validates"

# --- errors ---
printf 'this is not a patch\n' >$T/garbage.patch
review "not a patch" 2 "garbage.patch: not a patch" $T/garbage.patch
: >$T/empty.patch
review "empty input" 2 "empty.patch: empty patch" $T/empty.patch
sed 's/spin_lock(&memcg_idr_lock);/spin_lock(\&memcg_idr_lock); \/* no such line *\//' $T/direct.patch >$T/stale.patch
review "a patch that does not apply" 2 "stale.patch does not apply to" $T/stale.patch
printf 'diff --git a/x.bin b/x.bin\nindex 0..1 100644\nGIT binary patch\nliteral 1\nIcmZpc\n\n' >$T/bin.patch
review "binary diff" 2 "binary diff" $T/bin.patch

# --- baselines ---
$LOCKHOG scan --kernel "$KDIR" --write-baseline $T/base.json --out - mm/ >/dev/null 2>/dev/null
$LOCKHOG scan --kernel "$KDIR" --baseline $T/base.json --all mm/ >$T/out 2>/dev/null
tail -1 $T/out | grep -qE "^lockhog: mm/: 0 findings"
res $? "a baseline written by scan hides every accepted finding"
review "a baseline does not hide what a patch adds" 1 "NEW WARNING: page_counter_uncharge" \
	--baseline $T/base.json $T/helper.patch

# --- a tree without the analysis: review prepares it, never passes on nothing ---
# (reviewed as they would be in KDIR: the patches are made against the same pristine source)
printf 'diff --git a/Documentation/mm/x.rst b/Documentation/mm/x.rst\nnew file mode 100644\n--- /dev/null\n+++ b/Documentation/mm/x.rst\n@@ -0,0 +1 @@\n+words\n' >$T/doc.patch
review "a series with no C in it: nothing to review, exit 0" 0 "touches no C source or header: nothing to review" \
	$T/doc.patch
$MK "mm: a file this configuration does not build" $T/nommu.patch mm/nommu.c \
	"'#include <linux/export.h>'" "'#include <linux/export.h>\n#include <linux/types.h>'"
review "C that this configuration does not build: exit 2, nothing compared" 2 \
	"mm/nommu.c is not built in this configuration.*nothing was compared" $T/nommu.patch
FRESH=$PWD/build/tests/review-fresh
rm -rf "$FRESH"
if scripts/kernel-tree.sh "$FRESH" 2>/dev/null; then
	$MK "memcg: a header comment" $T/hdr.patch include/linux/memcontrol.h \
		"'struct mem_cgroup_reclaim_cookie {'" "'/* reclaim walks */\nstruct mem_cgroup_reclaim_cookie {'"
	KDIR=$FRESH review "a header on a tree never built: exit 2, nothing compared" 2 \
		"no unit built in $FRESH \(for a header, run lockhog scan on the tree first\): nothing was compared" \
		$T/hdr.patch
	grep -q "has no .config: configuring" $T/err
	res $? "the unconfigured tree is configured first, and that is said on stderr"
	KDIR=$FRESH review "an unconfigured, unscanned tree is prepared: the new warning is found" 1 \
		"NEW WARNING: page_counter_uncharge\(\) reached with memcg_idr_lock held" $T/helper.patch
	grep -q "mm/ has no current analysis in $FRESH: building it" $T/err
	res $? "building the base is said on stderr"
	# another catalogue is another analysis: the base is rebuilt, not used stale
	{ cat rules/kernel.rules; echo "# another version"; } >$T/other.rules
	KDIR=$FRESH review "a stale base (other rules) is rebuilt, the warning still found" 1 \
		"NEW WARNING: page_counter_uncharge\(\) reached with memcg_idr_lock held" \
		--rules $T/other.rules $T/helper.patch
	grep -q "mm/ has no current analysis in $FRESH: building it" $T/err
	res $? "the stale base is said on stderr"
else
	for i in 1 2 3 4 5 6; do notok "fresh tree for review (scripts/kernel-tree.sh failed)"; done
fi
rm -rf "$FRESH"
