#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Generates cocci/*.cocci from cocci/src/*.cocci.in and the rules
# catalogue, so that the lists of lock primitives and costly callees are
# written once, in rules/kernel.rules.
#
#   cocci/gen.sh            regenerate cocci/*.cocci in place (atomically)
#   cocci/gen.sh --check    regenerate into a temporary directory and
#                           compare with cocci/*.cocci byte for byte
#   cocci/gen.sh --out DIR  write the generated files into DIR
#
# LOCKHOG (default build/lockhog) and RULES (default rules/kernel.rules)
# may be overridden from the environment.
#
# Placeholders (@NAME@ in a template) expand to comma-separated names for
# SmPL identifier sets (identifier f = {@NAME@};) or to Python literals
# (@NAME_PY@) for the script rules:
#
#   @LOCK_ACQUIRE@   lock op=acquire, non-sleeping kind, lock in argument 0
#   @LOCK_TRYLOCK@   lock op=trylock, non-sleeping kind, lock in argument 0
#   @LOCK_RELEASE@   lock op=release, non-sleeping kind, lock in argument 0
#   @COSTLY_CALLEES@ cost class hier-atomic, refcount-release or tree-flush
#   @LOOP_COSTLY@    cost of any class but sleep and fault
#   @LOCKBREAK@      every lockbreak rule (break and test)
#   @LOCKS_PY@       {name: (op, kind, irq)} for the three lock lists
#   @COSTS_PY@       {name: (class, reason)} for every cost rule
#   @CHEAP_PY@       [names] of the cheap rules
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
LOCKHOG=${LOCKHOG:-$ROOT/build/lockhog}
RULES=${RULES:-$ROOT/rules/kernel.rules}
mode=write
out=$ROOT/cocci
case "${1:-}" in
--check) mode=check ;;
--out) out=${2:?--out needs a directory}; mkdir -p "$out" ;;
"") ;;
*) echo "usage: $0 [--check | --out DIR]" >&2; exit 2 ;;
esac
if [ ! -x "$LOCKHOG" ]; then
	echo "cocci/gen.sh: $LOCKHOG missing (run 'make all' first)" >&2
	exit 2
fi
tmp=$(mktemp -d "${TMPDIR:-/tmp}/cocci-gen.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
"$LOCKHOG" rules --rules "$RULES" --json >"$tmp/rules.json"
# A cross-check that --list and --json agree on what the lists hold.
"$LOCKHOG" rules --rules "$RULES" --list lock --op acquire >"$tmp/acquire.list"

for in in "$ROOT"/cocci/src/*.cocci.in; do
	name=$(basename "$in" .in)
	/usr/bin/python3 - "$tmp/rules.json" "$tmp/acquire.list" "$in" "$tmp/$name" <<'PY'
import json, re, sys, os
rules_json, acquire_list, template, output = sys.argv[1:5]
rules = json.load(open(rules_json))
listed = set(open(acquire_list).read().split())
SPIN_KINDS = ("spin", "raw_spin", "local", "read", "write")
COSTLY = ("hier-atomic", "refcount-release", "tree-flush")

def locks(op):
    out = []
    for r in rules:
        if r["kind"] != "lock" or r.get("op") != op:
            continue
        if r.get("lock_kind") not in SPIN_KINDS or r.get("arg", 0) != 0:
            continue
        out.append(r)
    return out

acq = locks("acquire")
missing = [r["name"] for r in acq if r["name"] not in listed]
if missing:
    sys.exit("gen.sh: --json and --list disagree on %s" % missing)
lists = {
    "LOCK_ACQUIRE": [r["name"] for r in acq],
    "LOCK_TRYLOCK": [r["name"] for r in locks("trylock")],
    "LOCK_RELEASE": [r["name"] for r in locks("release")],
    "COSTLY_CALLEES": [r["name"] for r in rules
                       if r["kind"] == "cost" and r.get("class") in COSTLY],
    "LOOP_COSTLY": [r["name"] for r in rules if r["kind"] == "cost"
                    and r.get("class") not in ("sleep", "fault")],
    "LOCKBREAK": [r["name"] for r in rules if r["kind"] == "lockbreak"],
}
for k, v in lists.items():
    if not v:
        sys.exit("gen.sh: the rules give no name for @%s@" % k)
    if len(set(v)) != len(v):
        sys.exit("gen.sh: duplicate names for @%s@" % k)

def smpl_list(names, indent):
    # Wrap at 72 columns; continuation lines get the placeholder's indent.
    lines, cur = [], ""
    for n in names:
        piece = n if not cur else cur + ", " + n
        if len(indent) + len(piece) > 72 and cur:
            lines.append(cur + ",")
            cur = n
        else:
            cur = piece
    lines.append(cur)
    return ("\n" + indent).join(lines)

def py_dict(d):
    return "{\n" + "".join("    %r: %r,\n" % (k, v) for k, v in d.items()) + "}"

py = {
    "LOCKS_PY": py_dict({r["name"]: (r["op"], r["lock_kind"], r.get("irq", "none"))
                         for op in ("acquire", "trylock", "release")
                         for r in locks(op)}),
    "COSTS_PY": py_dict({r["name"]: (r["class"], r.get("reason", ""))
                         for r in rules if r["kind"] == "cost"}),
    "CHEAP_PY": "[\n" + "".join("    %r,\n" % r["name"] for r in rules
                                if r["kind"] == "cheap") + "]",
}

src = open(template).read()

# "// FOREACH_ARG N" ... "// END_FOREACH_ARG" repeats the lines between
# for argument indices 0 to N-1: $I is the index, $BEFORE the patterns
# for the arguments before it ("B0, B1, " or nothing) and $BDECL their
# declaration ("expression B0, B1;" or nothing).
def foreach(m):
    n, body = int(m.group(1)), m.group(2)
    out = []
    for i in range(n):
        names = ["B%d" % j for j in range(i)]
        b = body.replace("$I", str(i))
        b = b.replace("$BEFORE", "".join(x + ", " for x in names))
        b = b.replace("$BDECL\n", ("expression %s;\n" % ", ".join(names)) if names else "")
        out.append(b)
    return "\n".join(out)
src = re.sub(r"^// FOREACH_ARG (\d+)\n(.*?)^// END_FOREACH_ARG\n", foreach, src,
             flags=re.S | re.M)
out = []
for line in src.splitlines(keepends=True):
    def sub(m):
        key = m.group(1)
        if key in lists:
            indent = re.match(r"\s*", line).group(0) + "\t"
            return smpl_list(lists[key], indent)
        if key in py:
            return py[key]
        sys.exit("%s: unknown placeholder @%s@" % (template, key))
    out.append(re.sub(r"@([A-Z][A-Z_]*[A-Z])@", sub, line))
text = "".join(out)
base = os.path.basename(template)
banner = ("// Generated by cocci/gen.sh from cocci/src/%s and\n"
          "// rules/kernel.rules: edit those, not this file.\n" % base)
# The banner goes after the SPDX line.
first, rest = text.split("\n", 1)
text = first + "\n" + banner + rest
open(output, "w").write(text)
PY
	if [ "$mode" = check ]; then
		if ! cmp -s "$tmp/$name" "$ROOT/cocci/$name"; then
			echo "cocci/$name is stale: run cocci/gen.sh" >&2
			diff -u "$ROOT/cocci/$name" "$tmp/$name" | head -20 >&2 || true
			stale=1
		fi
	else
		cp "$tmp/$name" "$out/.$name.tmp"
		mv -f "$out/.$name.tmp" "$out/$name"
	fi
done
[ -z "${stale:-}" ]
