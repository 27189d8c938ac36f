#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# lockhog report on run-time data (docs/runtime.md section 3): text,
# normalised JSON and the HTML page, the join with a static scan made
# here from the fixtures, bad input, and the page in headless Chromium.
#
# kernel.json is written by hand to the contract: kernel-like sections
# (refill_stock under memcg_stock.stock_lock with page_counter_uncharge
# and css_put inside, free_pcppages_bulk's loop under zone->lock) placed
# at the fixtures' lines, so that the scan of tests/fixtures/bug-*.c
# predicts them.  user.json has HTML's special characters in its names.
set -u
cd "$(dirname "$0")/../.."
LOCKHOG=${LOCKHOG:-$PWD/build/lockhog}
KDIR=${KDIR:-$PWD/build/linux-6.1}
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
. tests/tap.sh
echo "1..50"
D=tests/report
K=$D/kernel.json
PY=/usr/bin/python3
# the screenshots are kept for people to look at, never in git
SHOTS=build/tests/report
mkdir -p $SHOTS

CC="gcc -O2 -c -fplugin=$PWD/build/lockhog.so -fplugin-arg-lockhog-diag=none -Itests/fixtures/include"
for f in bug-refill-stock bug-free-pcppages-bulk bug-flush-stats; do
	$CC tests/fixtures/$f.c -o $T/$f.o
done
$LOCKHOG report --format json --out $T/scan.json $T/bug-*.o

# ---- text ----

$LOCKHOG report $K >$T/k.txt 2>$T/err
res $? "text: exit 0" $T/err
grep -E '^[^ ].*: [0-9,]+ holds? ' $T/k.txt | sed -E 's/^[^ ]+ ([a-z_]+)\(\).*/\1/' >$T/order
printf '%s\n' free_unref_page free_pcppages_bulk refill_stock folio_batch_move_lru \
	drain_local_stock | cmp -s - $T/order
res $? "text: sections sorted by worst max hold" $T/order
grep -qxF 'tests/fixtures/bug-refill-stock.c:102: refill_stock(): memcg_stock.stock_lock (local): 1,204 holds (1,204 with IRQs off), max 38.0 µs, p99 <= 16.4 µs, total 812 µs' $T/k.txt
res $? "text: a section's holds, max, p99 and total" $T/k.txt
sed -n '/refill_stock(): memcg/,/^[^ ]/p' $T/k.txt | grep -oE 'c:(53|55|60): ' | tr -d '\n' >$T/inner
[ "$(cat $T/inner)" = "c:53: c:55: c:60: " ]
res $? "text: inner sites, most time first" $T/inner
grep -qF 'free_pcppages_bulk(): loop calling __free_one_page: 40,000 iterations in 530 runs, 530 holds (at most 1,003 in one)' $T/k.txt
res $? "text: a loop's iterations and the most in one hold" $T/k.txt
grep -qF 'not measured: 0 stack overflows, 0 inner-site overflows, 0 pair overflows, 0 in NMI, 3 unmatched releases' $T/k.txt &&
	tail -1 $T/k.txt | grep -qxF "lockhog: $K: 5 sections, 6 inner sites, 1 atomic site"
res $? "text: overflows and the summary line" $T/k.txt

# ---- the join ----

$LOCKHOG report --static $T/scan.json $K >$T/j.txt 2>$T/err
res $? "join: exit 0" $T/err
grep -qxF '    predicted: page_counter_uncharge under memcg_stock.stock_lock (cec22c143928c96a); measured: 1,204 holds, 41 with page_counter_uncharge inside, max 38.0 µs' $T/j.txt
res $? "join: by fingerprint, predicted beside measured" $T/j.txt
grep -qF 'c:60: drain_stock(): calls css_put: 41 calls in 41 holds (at most 1 in one), 9.10 µs inside, max 800 ns [726a4114e59f3d3d, joined by site]' $T/j.txt
res $? "join: an inner site without a fingerprint, by (function, file, line)" $T/j.txt
grep -qF 'predicted: loop in free_pcppages_bulk() calling __free_one_page under zone->lock (3dde77116b943149); measured: 530 holds, 530 with the loop run, at most 1,003 iterations in one, max 412 µs' $T/j.txt
res $? "join: the loop finding, measured" $T/j.txt
sed -n '/^[^ ].*free_unref_page()/,/^[^ ]/p' $T/j.txt | grep -qF 'predicted: loop in free_pcppages_bulk() calling __free_one_page under zone->lock (3dde77116b943149); measured: 2,210 holds, none with the loop inside'
res $? "join: a section by a caller's holder and lock" $T/j.txt
grep -qxF '    not predicted: no static finding for folio_batch_move_lru() under lruvec->lru_lock' $T/j.txt
res $? "join: a section no finding predicted is shown as such" $T/j.txt
grep -qF '__mem_cgroup_flush_stats(): not exercised: cgroup_rstat_flush_irqsafe under stats_flush_lock (b13e84b8a06a00bc)' $T/j.txt &&
	tail -1 $T/j.txt | grep -qF "3 of 4 findings of $T/scan.json measured, 1 not exercised"
res $? "join: a prediction never measured is listed" $T/j.txt
[ "$(grep -c '^    c:55' $T/j.txt)" = 0 ] && ! grep -F 'c:55:' $T/j.txt | grep -q joined
res $? "join: an inner site at no step of a chain joins nothing" $T/j.txt

# ---- JSON ----

$LOCKHOG report --format json --static $T/scan.json $K >$T/j.json 2>$T/err
$PY - $T/j.json <<'EOF' >$T/py 2>&1
import json, sys
r = json.load(open(sys.argv[1]))
s = r["sections"]
assert [x["max_ns"] for x in s] == sorted((x["max_ns"] for x in s), reverse=True)
assert all(len(x["hist"]) == 32 for x in s)
rs = next(x for x in s if x["function"] == "refill_stock")
assert [(p["fingerprint"], p["joined_by"]) for p in rs["predicted"]] == \
    [("cec22c143928c96a", "fingerprint"), ("726a4114e59f3d3d", "site")], rs["predicted"]
assert rs["predicted"][0]["holds_with"] == 41
assert [i["line"] for i in rs["inner"]] == [53, 55, 60]
assert "predicted" not in rs["inner"][1]
fu = next(x for x in s if x["function"] == "free_unref_page")
assert fu["predicted"][0]["joined_by"] == "section"
assert next(x for x in s if x["function"] == "folio_batch_move_lru")["predicted"] == []
assert [f["fingerprint"] for f in r["not_exercised"]] == ["b13e84b8a06a00bc"]
assert r["lockhog_runtime"] == 1 and r["overflow"]["unmatched"] == 3
EOF
res $? "json: sorted, joined, predictions and what was not exercised" $T/py
$LOCKHOG report --format json $K >$T/n1.json 2>$T/err
$LOCKHOG report --format json $T/n1.json >$T/n2.json 2>>$T/err
cmp -s $T/n1.json $T/n2.json && ! grep -q '"predicted"\|"not_exercised"' $T/n1.json
res $? "json: normalised output reads back as run-time data, unchanged" $T/err
$LOCKHOG report --static $T/scan.json --format json $T/j.json >$T/j2.json 2>$T/err
cmp -s $T/j.json $T/j2.json
res $? "json: a joined report joins again to the same" $T/err

$LOCKHOG report - <$K >$T/stdin.txt 2>$T/err &&
	head -1 $T/stdin.txt | grep -q '^lockhog: standard input: run-time data from kernel' &&
	diff <(tail -n +2 $T/stdin.txt | sed '$d') <(tail -n +2 $T/k.txt | sed '$d') >/dev/null
res $? "'-' reads run-time data from standard input" $T/err
$LOCKHOG report --format json --out $T/o.json $K >$T/o.out 2>$T/err &&
	[ ! -s $T/o.out ] && cmp -s $T/o.json $T/n1.json
res $? "--out writes the file, nothing on standard output" $T/err
$PY -c 'import json,sys; d=json.load(open(sys.argv[1])); d["sections"]=[]; d["atomics"]=[]; json.dump(d,open(sys.argv[2],"w"))' $K $T/empty.json
$LOCKHOG report $T/empty.json >$T/e.txt 2>$T/err &&
	tail -1 $T/e.txt | grep -qF ': 0 sections, 0 inner sites, 0 atomic sites' &&
	$LOCKHOG report --format html $T/empty.json | grep -qF 'No instrumented section was held.'
res $? "no section held: said, in text and HTML" $T/err

# ---- bad input: one line, exit 2, nothing written ----

bad() {	# bad NAME REGEX FILE [OPTIONS...]
	local name=$1 re=$2 file=$3 rc
	shift 3
	echo old >$T/target
	$LOCKHOG report "$@" --out $T/target "$file" >$T/out 2>$T/err
	rc=$?
	if [ $rc = 2 ] && [ "$(wc -l <$T/err)" = 1 ] && grep -qE -- "$re" $T/err &&
	   [ "$(cat $T/target)" = old ] && [ ! -s $T/out ]; then
		ok "bad input: $name"
	else
		notok "bad input: $name (exit $rc: $(head -c 300 $T/err))"
	fi
}
mutate() {	# mutate OUT PYTHON-STATEMENT (on d, the fixture)
	$PY -c "import json,sys; d=json.load(open('$K')); $2; json.dump(d,open('$1','w'))"
}
printf '{ "lockhog_runtime": 1, nope' >$T/garbage.json
bad "not JSON" "^lockhog: $T/garbage.json: not JSON: .*line 1" $T/garbage.json
mutate $T/v2.json 'd["lockhog_runtime"]=2'
bad "wrong version" '"lockhog_runtime" is not 1' $T/v2.json
mutate $T/nover.json 'del d["lockhog_runtime"]'
bad "not run-time data" 'not run-time data \(no "lockhog_runtime"\)' $T/nover.json
mutate $T/nomax.json 'del d["sections"][3]["max_ns"]'
bad "a section's missing field, named with its place" ': sections\[3\]: missing "max_ns"$' $T/nomax.json
mutate $T/noiter.json 'del d["sections"][1]["inner"][0]["iterations"]'
bad "an inner site's missing field" ': sections\[1\]\.inner\[0\]: missing "iterations"$' $T/noiter.json
mutate $T/hist.json 'd["sections"][0]["hist"].pop()'
bad "a histogram of 31 buckets" '"hist" has 31 buckets, not 32' $T/hist.json
mutate $T/neg.json 'd["sections"][0]["holds"]=-1'
bad "a negative count" '"holds" is not a non-negative integer' $T/neg.json
mutate $T/kind.json 'd["sections"][0]["inner"][0]["kind"]="irq"'
bad "an unknown inner kind" 'unknown "kind" "irq" \(call or loop\)' $T/kind.json
mutate $T/noatom.json 'del d["atomics"]'
bad "no atomics array" ': missing "atomics"$' $T/noatom.json
bad "a static scan given as run-time data" 'a static scan report, not run-time data' $T/scan.json
bad "--static that is not a scan" "^lockhog: $K: not a static scan" $K --static $K
bad "--static that is not JSON" "^lockhog: $T/garbage.json: not JSON" $K --static $T/garbage.json
bad "--static with objects" '--static goes with run-time data' $T/bug-refill-stock.o --static $T/scan.json
bad "sarif for run-time data" 'renders as text, json or html, not sarif' $K --format sarif

# ---- the join with the real mm/ scan (its objects, built by integration/) ----

# mm.json: the pristine 6.1 kernel's shape at mm/'s real lines; mm-patched.json:
# the series applied (no uncharge inside stock_lock, a batch per zone->lock hold)
if $LOCKHOG report --format json --out $T/mm-scan.json $KDIR/mm >/dev/null 2>$T/err; then
	$LOCKHOG report --static $T/mm-scan.json $D/mm.json >$T/mm.txt 2>$T/err
	grep -qF 'c:2259: drain_stock(): calls page_counter_uncharge: 41 calls in 41 holds (at most 1 in one), 20.4 µs inside, max 2.10 µs [ef69dfa3e16b0014, joined by site]' $T/mm.txt &&
		grep -qxF '    predicted: css_put under memcg_stock.stock_lock (dd7c765885f82b57); measured: 1,204 holds, 41 with css_put inside, max 38.0 µs' $T/mm.txt
	res $? "mm: refill_stock's uncharge and css_put joined to the scan's findings" $T/mm.txt
	grep -qF 'predicted: loop in free_pcppages_bulk() calling __free_one_page under zone->lock (fbeee34a2669532c); measured: 530 holds, 530 with the loop run, at most 1,003 iterations in one' $T/mm.txt &&
		grep -qF 'atomic RMWs on stats_flush_threshold: 5,123, 170.8 per second; predicted: atomic_add under lruvec->lru_lock (c5e842e7562d670a)' $T/mm.txt
	res $? "mm: the free_pcppages_bulk loop and the stats_flush_threshold atomic joined" $T/mm.txt
	$LOCKHOG report --static $T/mm-scan.json $D/mm-patched.json >$T/mmp.txt 2>$T/err
	grep -qxF '    predicted: page_counter_uncharge under memcg_stock.stock_lock (ef69dfa3e16b0014); measured: 1,210 holds, none with page_counter_uncharge inside, max 1.90 µs' $T/mmp.txt &&
		grep -qF 'at most 63 iterations in one' $T/mmp.txt &&
		[ "$(grep -c '^    predicted:' $T/mmp.txt)" = 3 ]
	res $? "mm, patched: the predictions stand, nothing costly measured inside" $T/mmp.txt
	$LOCKHOG report --format html --static $T/mm-scan.json --out $SHOTS/mm.html $D/mm.json 2>$T/err &&
		grep -qF 'measured: 1,204 holds, 41 with page_counter_uncharge inside' $SHOTS/mm.html
	res $? "mm: the page, joined with the real scan ($SHOTS/mm.html)" $T/err
else
	for i in 1 2 3 4; do ok "mm join # SKIP no lockhog objects under $KDIR/mm (integration/ builds them)"; done
fi

# ---- HTML ----

$LOCKHOG report --format html --static $T/scan.json --out $SHOTS/kernel.html $K 2>$T/err
res $? "html: exit 0" $T/err
H=$SHOTS/kernel.html
# standalone: nothing fetched (the SVG namespace is a name, not a fetch)
sed 's|xmlns="http://www.w3.org/2000/svg"||g' $H >$T/h
! grep -qiE '<script|<link|<img|<iframe|@import|url\(|src=|https?:|//[a-z]' $T/h &&
	[ -z "$(grep -oE 'href="[^#][^"]*"' $T/h)" ]
res $? "html: standalone, no script, no network" $T/h
[ "$(grep -c '<svg class="hist"' $H)" = 5 ] && [ "$(grep -c '<svg class="bars"' $H)" = 2 ] &&
	[ "$(grep -c '<section class="sec" id="s[0-4]"' $H)" = 5 ]
res $? "html: two bar charts, a histogram and a part per section"
grep -qF '<b>predicted:</b> page_counter_uncharge under memcg_stock.stock_lock (<code>cec22c143928c96a</code>, warning, joined by fingerprint); measured: 1,204 holds, 41 with page_counter_uncharge inside, max 38.0 µs' $H &&
	grep -qF 'not predicted: no static finding for <code>folio_batch_move_lru()</code>' $H &&
	grep -qF 'b13e84b8a06a00bc' $H
res $? "html: predicted beside measured, unpredicted and not exercised" $H
$LOCKHOG report --format html $D/user.json >$T/u.html 2>$T/err &&
	! grep -q '<script' $T/u.html &&
	grep -qF '&lt;script&gt;alert(1)&lt;/script&gt;()' $T/u.html &&
	grep -qF 'q-&gt;lock&lt;&amp;&gt;' $T/u.html && grep -qF 'app/&quot;pool&quot;.c:40' $T/u.html
res $? "html: names from the data are escaped" $T/err
$LOCKHOG report --all --format html --out $SHOTS/scan.html $T/bug-*.o 2>$T/err &&
	grep -c 'class="sev warning"' $SHOTS/scan.html | grep -qx 3 &&
	grep -qF 'drain_local_stock → drain_stock → page_counter_uncharge' $SHOTS/scan.html &&
	grep -q '<svg class="bars"' $SHOTS/scan.html
res $? "html: a static scan on the same page (findings, chain, chart)" $T/err
# css_put() from the uncharge's call is a row under it, not a finding
grep -A1 'drain_stock → page_counter_uncharge' $SHOTS/scan.html |
	grep -q '^<tr class="also"><td><span class="mute">here also</span>.*drain_stock → css_put' &&
	grep -qF '<b>3</b><span>findings shown' $SHOTS/scan.html &&
	grep -qF '<b>1</b><span>more cost at the same spots, shown under them' $SHOTS/scan.html
res $? "html: a cost from the same spot is shown under its finding" $SHOTS/scan.html

# scan renders through the same emit() as report; the kbuild it needs is
# integration/'s business, so only the option is checked here
$LOCKHOG scan --format html --kernel $T/nope mm/ >/dev/null 2>$T/err
[ $? = 2 ] && grep -qx "lockhog: $T/nope: no such directory" $T/err
res $? "scan takes --format html" $T/err

# ---- in a browser ----

CHROME=$(command -v chromium)
chrome() {	# a profile of our own, so parallel runs and HOME are left alone
	timeout 120 $CHROME --headless --no-sandbox --disable-gpu --user-data-dir=$T/chrome \
		--window-size=1280,3000 "$@" 2>>$T/chrome.log
}
if [ -z "$CHROME" ]; then
	for i in 1 2 3 4; do notok "headless Chromium: not installed (make deps)"; done
else
	chrome --dump-dom "file://$PWD/$H" >$T/dom.html
	$PY - $T/dom.html <<'EOF' >$T/py 2>&1
import re, sys
dom = open(sys.argv[1]).read()
charts = re.findall(r'<svg class="bars".*?</svg>', dom, re.S)
assert len(charts) == 2, len(charts)
first = re.findall(r'<text[^>]*text-anchor="end"[^>]*>([^<]*)</text>', charts[0])
assert first[0].startswith("free_unref_page()"), first
assert '<rect class="bar max"' in charts[0]
assert dom.count('<svg class="hist"') == 5
EOF
	res $? "chromium: the DOM has the charts, the worst site first" $T/py
	grep -qF 'measured: 1,204 holds, 41 with page_counter_uncharge inside' $T/dom.html
	res $? "chromium: the DOM has the predicted-vs-measured line" $T/chrome.log
	rm -f $SHOTS/kernel.png
	chrome --screenshot=$PWD/$SHOTS/kernel.png "file://$PWD/$H" >/dev/null
	[ "$(head -c 8 $SHOTS/kernel.png | od -An -tx1 | tr -d ' \n')" = 89504e470d0a1a0a ]
	res $? "chromium: --screenshot writes a PNG ($SHOTS/kernel.png)" $T/chrome.log
	chrome --dump-dom "file://$PWD/$SHOTS/scan.html" | grep -qF 'cec22c143928c96a' &&
		chrome --screenshot=$PWD/$SHOTS/scan.png "file://$PWD/$SHOTS/scan.html" >/dev/null &&
		[ -s $SHOTS/scan.png ]
	res $? "chromium: the static scan's page loads and renders" $T/chrome.log
fi
exit 0
