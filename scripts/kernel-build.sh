#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# make kernel: builds mm/ of Debian's linux-source-6.1 with the series in
# kernel-patches/linux-6.1 applied and checks it against the same build
# of the pristine tree:
#
#   1. the series applies in order with patch -p1, no fuzz, no offset;
#   2. both trees are configured alike (defconfig + CGROUPS, MEMCG,
#      MEMCG_KMEM, and WERROR off: x86_64_defconfig turns it on, and new
#      warnings are to be listed, not to stop the build) and build the
#      objects the series touches, then all of
#      mm/ (that build is lockhog's scan, the plugin riding along);
#   3. no compiler warning is new (warnings compared without line and
#      column numbers, as a multiset);
#   4. sparse (C=2 on the objects the series touches) reports nothing new;
#   5. lockhog reports none of the findings the patches declare fixed
#      (their Lockhog-fixes: lines) and nothing new: findings compared by
#      fingerprint, see kernel-patches/linux-6.1/README.md for the rules.
#
# Prints a before/after table and a closing summary line; exits 1 with a
# one-line reason ("kernel: FAILED: ...") when a check fails.
#
# Environment: JOBS (2), LOCKHOG (build/lockhog), LOCKHOG_PLUGIN
# (build/lockhog.so), LOCKHOG_RULES (rules/kernel.rules), KVER (6.1: the
# linux-source-KVER tarball the trees come from, scripts/kernel-tree.sh),
# SERIES_DIR (kernel-patches/linux-KVER), PATCHED
# (build/linux-KVER-patched), PRISTINE (build/linux-KVER-pristine-check),
# OUT (build/kernel-check: logs and scan results).
set -eu -o pipefail

cd "$(dirname "$0")/.."
ROOT=$PWD
JOBS=${JOBS:-2}
LOCKHOG=${LOCKHOG:-$ROOT/build/lockhog}
LOCKHOG_PLUGIN=${LOCKHOG_PLUGIN:-$ROOT/build/lockhog.so}
LOCKHOG_RULES=${LOCKHOG_RULES:-$ROOT/rules/kernel.rules}
KVER=${KVER:-6.1}
SERIES_DIR=${SERIES_DIR:-$ROOT/kernel-patches/linux-$KVER}
PATCHED=${PATCHED:-$ROOT/build/linux-$KVER-patched}
PRISTINE=${PRISTINE:-$ROOT/build/linux-$KVER-pristine-check}
OUT=${OUT:-$ROOT/build/kernel-check}
KCONFIG_OPTS="CGROUPS MEMCG MEMCG_KMEM"

fail() {
	echo "kernel: FAILED: $*"
	exit 1
}
step() { echo "kernel: $*"; }

abspath() { case $1 in /*) echo "$1" ;; *) echo "$ROOT/$1" ;; esac; }
PATCHED=$(abspath "$PATCHED")
PRISTINE=$(abspath "$PRISTINE")
OUT=$(abspath "$OUT")
SERIES_DIR=$(abspath "$SERIES_DIR")

# ---- preconditions ----
[ -x "$LOCKHOG" ] || fail "$LOCKHOG missing (make all)"
[ -f "$LOCKHOG_PLUGIN" ] || fail "$LOCKHOG_PLUGIN missing (make all)"
[ -f "$LOCKHOG_RULES" ] || fail "$LOCKHOG_RULES missing"
for t in python3 patch sparse make gcc; do
	command -v $t >/dev/null || fail "$t not installed (make deps)"
done
. "$ROOT/scripts/series.sh"

# objects of the .c files the series touches: these get sparse
OBJS=$(cat "${PATCHES[@]/#/$SERIES_DIR/}" |
	sed -n 's|^+++ [ab]/\([^ \t]*\.c\)\([ \t].*\)\?$|\1|p' | sort -u | sed 's/\.c$/.o/')
[ -n "$OBJS" ] || fail "the series touches no .c file"

rm -rf "$OUT"
mkdir -p "$OUT/lockhog"
# both scans with the same lockhog, even if build/ is rebuilt meanwhile
cp "$LOCKHOG" "$OUT/lockhog/lockhog"
cp "$LOCKHOG_PLUGIN" "$OUT/lockhog/lockhog.so"
cp "$LOCKHOG_RULES" "$OUT/lockhog/kernel.rules"

# ---- trees ----
fresh_tree() {
	rm -rf "$1"
	scripts/kernel-tree.sh "$1" "$KVER" || fail "could not extract the pristine linux-source-$KVER tree into $1"
}

apply_series() {
	local dir=$1 p out
	for p in "${PATCHES[@]}"; do
		if ! out=$(patch -d "$dir" -p1 -N --fuzz=0 --dry-run <"$SERIES_DIR/$p" 2>&1); then
			echo "$out" | sed 's/^/    /'
			fail "$p does not apply to the tree with the patches before it (patch -p1 --fuzz=0)"
		fi
		if echo "$out" | grep -q -E 'offset|fuzz'; then
			echo "$out" | sed 's/^/    /'
			fail "$p applies only with an offset or fuzz: regenerate it"
		fi
		patch -d "$dir" -p1 -N --fuzz=0 -s --no-backup-if-mismatch <"$SERIES_DIR/$p" ||
			fail "$p failed to apply"
		step "applied $p"
	done
}

configure() {
	local dir=$1 log=$2 o
	make -C "$dir" defconfig >"$log" 2>&1 || fail "make defconfig failed in $dir (see $log)"
	for o in $KCONFIG_OPTS; do
		"$dir/scripts/config" --file "$dir/.config" -e "$o" >>"$log" 2>&1
	done
	# x86_64_defconfig sets WERROR: warnings are compared here, not fatal
	"$dir/scripts/config" --file "$dir/.config" -d WERROR >>"$log" 2>&1
	make -C "$dir" olddefconfig >>"$log" 2>&1 || fail "make olddefconfig failed in $dir (see $log)"
	for o in $KCONFIG_OPTS; do
		grep -q "^CONFIG_$o=y" "$dir/.config" || fail "CONFIG_$o did not stick in $dir/.config"
	done
	grep -q "^CONFIG_WERROR=y" "$dir/.config" && fail "CONFIG_WERROR stayed on in $dir/.config"
	return 0
}

# build_tree NAME DIR: objects, sparse on them, then mm/ through lockhog scan
build_tree() {
	local name=$1 dir=$2
	configure "$dir" "$OUT/$name-config.log"
	# shellcheck disable=SC2086
	make -C "$dir" -j"$JOBS" $OBJS >"$OUT/$name-objs.log" 2>&1 ||
		fail "$name: building $(echo $OBJS) failed: $(grep -m1 -E ': error:|\*\*\*' "$OUT/$name-objs.log" || echo "see $OUT/$name-objs.log")"
	# objects are up to date: C=2 runs sparse on them and nothing else
	# shellcheck disable=SC2086
	make -C "$dir" -j"$JOBS" C=2 $OBJS >"$OUT/$name-sparse.log" 2>&1 ||
		fail "$name: sparse run failed (see $OUT/$name-sparse.log)"
	grep -q '^  CHECK ' "$OUT/$name-sparse.log" || fail "$name: sparse did not run (see $OUT/$name-sparse.log)"
	"$OUT/lockhog/lockhog" scan --kernel "$dir" --format json --jobs "$JOBS" --verbose \
		--plugin "$OUT/lockhog/lockhog.so" --rules "$OUT/lockhog/kernel.rules" \
		--out "$OUT/$name.json" mm/ \
		>"$OUT/$name-mm.log" 2>&1 ||
		fail "$name: lockhog scan of mm/ failed: $(tail -n1 "$OUT/$name-mm.log")"
	grep -q -E '^  CC .*mm/memcontrol\.o' "$OUT/$name-mm.log" ||
		fail "$name: the mm/ build log does not show mm/memcontrol.o compiled (see $OUT/$name-mm.log)"
	step "$name: built $(echo $OBJS) and mm/, sparse on $(echo $OBJS), lockhog scan: $(python3 -c 'import json,sys; print(len(json.load(open(sys.argv[1]))))' "$OUT/$name.json") findings"
}

step "series: ${PATCHES[*]}"
fresh_tree "$PRISTINE"
fresh_tree "$PATCHED"
apply_series "$PATCHED"
build_tree pristine "$PRISTINE"
build_tree patched "$PATCHED"

# ---- compare ----
python3 - "$OUT" "$SERIES_DIR" "${PATCHES[@]}" <<'PY'
import collections, json, re, sys

out, sdir, patches = sys.argv[1], sys.argv[2], sys.argv[3:]
failures = []

# --- compiler warnings and sparse: "file:line:col: warning|error: text",
# continuation lines (same location, no severity) joined to the entry,
# then compared without line and column as a multiset.
LOC = re.compile(r'^(\S+?):(\d+):(\d+): (.*)$')
SEV = re.compile(r'^(warning|error): ')

def diagnostics(path, sparse):
    entries, last = [], None
    for line in open(path, errors='replace'):
        line = line.rstrip('\n')
        m = LOC.match(line)
        if not m:
            last = None
            continue
        f, l, c, rest = m.groups()
        if f.startswith('./'):
            f = f[2:]
        if SEV.match(rest):
            entries.append([f, rest])
            last = (f, l, c)
        elif sparse and last == (f, l, c):
            entries[-1][1] += ' | ' + rest.strip()
        else:
            last = None
    return collections.Counter('%s: %s' % (f, t) for f, t in entries)

def compare_diags(what, before, after):
    new = after - before
    gone = before - after
    print('%s: %d before, %d after, %d new, %d gone' %
          (what, sum(before.values()), sum(after.values()),
           sum(new.values()), sum(gone.values())))
    for k, n in sorted(new.items()):
        print('  new    %s%s' % (k, ' (x%d)' % n if n > 1 else ''))
    for k, n in sorted(gone.items()):
        print('  gone   %s%s' % (k, ' (x%d)' % n if n > 1 else ''))
    if new:
        failures.append('%d new %s' % (sum(new.values()), what))
    return sum(new.values())

print()
# all of mm/ is compiled again by the scan (the plugin changes the command
# line), so its log has every warning of mm/
compare_diags('compiler warnings (mm/)', diagnostics('%s/pristine-mm.log' % out, False),
              diagnostics('%s/patched-mm.log' % out, False))
compare_diags('sparse diagnostics', diagnostics('%s/pristine-sparse.log' % out, True),
              diagnostics('%s/patched-sparse.log' % out, True))

# --- lockhog
before = json.load(open('%s/pristine.json' % out))
after = json.load(open('%s/patched.json' % out))

def cost(f):
    if f['kind'] == 'loop':
        return ('loop', f['site']['function'])
    return (f['kind'], f['callee'])

# cut: a function on the way dropped costs from its summary (a limit),
# so whether the other side had the way cannot be told
def ways(f):
    def way(p):
        return dict(h=p['function'], l=p['lock'], irqs=bool(p['irqs_off']), chain=p['chain'],
                    cut='costs beyond' in p.get('incomplete', ''))
    return [way(f)] + [way(c) for c in f.get('callers', [])]

def between(f, chain):
    # the functions a way passes through after its holder, up to the
    # costly site (a loop's site is the last element of its chain)
    return chain[1:] if f['kind'] == 'loop' else chain[1:-1]

B_way, B_thru, B_reach = {}, {}, set()
for f in before:
    c = cost(f)
    for w in ways(f):
        k = (w['h'], w['l'], c)
        B_way[k] = B_way.get(k, False) or w['irqs']
        for g in w['chain'][1:]:
            k = (w['h'], w['l'], g)
            B_thru[k] = B_thru.get(k, False) or w['irqs']
        for g in (w['chain'] if f['kind'] == 'loop' else w['chain'][:-1]):
            B_reach.add((g, c))

def accounted(f, w):
    """The pristine tree already reported this holder, under this lock
    (with IRQs off if they are now), reaching this cost: directly, or
    through a function it reached before and that reached the cost."""
    c = cost(f)
    k = (w['h'], w['l'], c)
    if w['cut']:
        return True
    if k in B_way and (B_way[k] or not w['irqs']):
        return True
    for g in between(f, w['chain']):
        k = (w['h'], w['l'], g)
        if k in B_thru and (B_thru[k] or not w['irqs']) and (g, c) in B_reach:
            return True
    return False

# declarations in the patch descriptions
FIX = re.compile(r'^Lockhog-fixes:\s*(\S+)\s+(\S+)\s+(\S+)\s+under\s+(.+?)\s*$')
EXP = re.compile(r'^Lockhog-expected:\s*(\S+)\s+(\S+)\s+(\S+)\s*$')
fixes, expects = [], []
for p in patches:
    for line in open('%s/%s' % (sdir, p), errors='replace'):
        if line.startswith(('diff ', '--- a/', 'Index: ')):
            break
        m = FIX.match(line)
        if m:
            fixes.append((p[:4], m.groups()))
        m = EXP.match(line)
        if m:
            expects.append((p[:4], m.groups()))

def matches(f, kind, site, callee):
    return (f['kind'] == kind and f['site']['function'] == site and
            (callee == '*' or f['callee'] == callee))

bfp = {f['fingerprint']: f for f in before}
afp = {f['fingerprint']: f for f in after}
gone = [f for f in before if f['fingerprint'] not in afp]
fresh = [f for f in after if f['fingerprint'] not in bfp]

# A loop's fingerprint names its heaviest call, which lockhog picks by
# the weight of callee summaries: a change elsewhere can rename it.  Loops
# gone and loops new in the same function, as many on each side, are the
# same loops.
relabel = []
for site in sorted({f['site']['function'] for f in gone if f['kind'] == 'loop'}):
    g = sorted([f for f in gone if f['kind'] == 'loop' and f['site']['function'] == site],
               key=lambda f: f['site']['line'])
    n = sorted([f for f in fresh if f['kind'] == 'loop' and f['site']['function'] == site],
               key=lambda f: f['site']['line'])
    if len(g) == len(n):
        relabel += list(zip(g, n))
rel_b = {a['fingerprint'] for a, b in relabel}
rel_a = {b['fingerprint'] for a, b in relabel}

rows = []			# (tag, fingerprint, severity, text, origin)
newcount = 0

# findings the patches declare fixed
claimed = set()
for p, (kind, site, callee, lock) in fixes:
    what = '%s %s() -> %s under %s' % (kind, site, callee, lock)
    bf = [f for f in before if matches(f, kind, site, callee) and
          any(w['l'] == lock for w in ways(f))]
    if not bf:
        failures.append('%s declares it fixes %s, which the pristine scan does not report' % (p, what))
        rows.append(('STALE', '-', '-', what, p))
        continue
    still = [f for f in after if matches(f, kind, site, callee) and
             any(w['l'] == lock for w in ways(f))]
    # the same cost moved to a new helper but still under the lock
    still += [f for f in fresh if f['fingerprint'] not in rel_a and
              cost(f) == cost(bf[0]) and any(w['l'] == lock for w in ways(f))]
    for f in bf:
        claimed.add(f['fingerprint'])
        if still:
            rows.append(('NOTFIXED', f['fingerprint'], f['severity'], f['message'], p))
        elif f['fingerprint'] in afp:
            a = afp[f['fingerprint']]
            rows.append(('fixed', f['fingerprint'], f['severity'], f['message'], p))
            rows.append(('', '', '', 'ways under %s gone; %d other ways remain: %s' %
                         (lock, len(ways(a)), a['message']), ''))
        else:
            rows.append(('fixed', f['fingerprint'], f['severity'], f['message'], p))
    if still:
        failures.append('%s: %s is still reported' % (p, what))

for f in gone:
    if f['fingerprint'] not in claimed and f['fingerprint'] not in rel_b:
        rows.append(('gone', f['fingerprint'], f['severity'], f['message'], 'undeclared'))

for a, b in relabel:
    rows.append(('relabel', '%s>%s' % (a['fingerprint'], b['fingerprint']), b['severity'],
                 'loop in %s(): heaviest call %s() now %s()' %
                 (b['site']['function'], a['callee'], b['callee']), ''))

def expected(f):
    for p, (kind, site, callee) in expects:
        if matches(f, kind, site, callee):
            return p
    return None

seen_exp = set()
for f in fresh:
    if f['fingerprint'] in rel_a:
        continue
    loose = [w for w in ways(f) if not accounted(f, w)]
    p = expected(f)
    if not loose:
        rows.append(('moved', f['fingerprint'], f['severity'], f['message'],
                     'all %d ways reported before' % len(ways(f))))
    elif p:
        seen_exp.add(p)
        rows.append(('expected', f['fingerprint'], f['severity'], f['message'], p))
    else:
        newcount += 1
        rows.append(('NEW', f['fingerprint'], f['severity'], f['message'],
                     '%d of %d ways new' % (len(loose), len(ways(f)))))
        for w in loose[:3]:
            rows.append(('', '', '', 'new way: %s' % ' -> '.join(w['chain']), ''))

unchanged = 0
for f in after:
    if f['fingerprint'] not in bfp and f['fingerprint'] not in rel_a:
        continue
    unchanged += 1
    loose = [w for w in ways(f) if not accounted(f, w)]
    if loose and not expected(f):
        newcount += 1
        rows.append(('NEW', f['fingerprint'], f['severity'], f['message'],
                     '%d new ways into a known finding' % len(loose)))
        for w in loose[:3]:
            rows.append(('', '', '', 'new way: %s' % ' -> '.join(w['chain']), ''))
if newcount:
    failures.append('%d new lockhog findings' % newcount)
for p, spec in expects:
    if p not in seen_exp:
        rows.append(('unseen', '-', '-', 'Lockhog-expected: %s (not reported: drop the line?)' %
                     ' '.join(spec), p))

print()
print('lockhog mm/: %d findings before, %d after' % (len(before), len(after)))
order = {'NOTFIXED': 0, 'STALE': 0, 'NEW': 1, 'fixed': 2, 'gone': 3, 'expected': 4,
         'moved': 5, 'relabel': 6, 'unseen': 7}
blocks, cur = [], None
for r in rows:
    if r[0]:
        cur = [r]
        blocks.append(cur)
    else:
        cur.append(r)
blocks.sort(key=lambda b: order.get(b[0][0], 9))
print('  %-9s %-16s %-8s %s' % ('status', 'fingerprint', 'severity', 'finding [patch or note]'))
for b in blocks:
    for tag, fp, sev, text, orig in b:
        if tag:
            print('  %-9s %-16s %-8s %s%s' % (tag, fp, sev, text, ' [%s]' % orig if orig else ''))
        else:
            print('  %-9s %-16s %-8s   %s' % ('', '', '', text))
nfixed = sum(1 for b in blocks if b[0][0] == 'fixed')
print('  new findings: %d; fixed: %d; unchanged: %d; moved: %d; expected: %d; relabelled: %d' %
      (newcount, nfixed, unchanged - len(relabel),
       sum(1 for b in blocks if b[0][0] == 'moved'),
       sum(1 for b in blocks if b[0][0] == 'expected'), len(relabel)))

with open('%s/summary' % out, 'w') as s:
    s.write('%d fixed, %d new, %d unchanged\n' % (nfixed, newcount, unchanged - len(relabel)))
if failures:
    with open('%s/failure' % out, 'w') as s:
        s.write('; '.join(failures) + '\n')
PY

echo
if [ -f "$OUT/failure" ]; then
	fail "$(cat "$OUT/failure")"
fi
echo "kernel: OK: ${#PATCHES[@]} patches apply; no new compiler warnings or sparse diagnostics; lockhog: $(cat "$OUT/summary")"
