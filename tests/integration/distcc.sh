#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The analysis travels inside the objects, so a distributed build brings
# it back.  Two distccd servers on 127.0.0.1 build mm/ of a copy of the
# tree through lockhog scan, and the findings must be those of a local
# scan of the same tree.  distccd refuses any compile with -fplugin= on
# its command line (checked first), so the servers run
# scripts/lockhog-gcc, which loads the plugin there; nothing may
# compile on the client (DISTCC_FALLBACK=0, no local host in the list).
# Compiling preprocessed source, GCC 12 warns about -Waddress in this
# tree's trace event macros, which CONFIG_WERROR makes an error: the
# distributed build adds -Wno-error=address, as any distcc build must.
# DISTCC_PATHS names what is scanned (default mm/; make check's quick
# tier: six of mm/'s units, among them a way held by a lock annotation).
set -u
cd "$(dirname "$0")/../.."
. tests/tap.sh
echo "1..12"
PORTS=(36320 36321)
WRAP=$PWD/scripts/lockhog-gcc
PLUGIN=$PWD/build/lockhog.so
RULES=$PWD/rules/kernel.rules
mkdir -p build/tests
T=$(mktemp -d "$PWD/build/tests/distcc.XXXXXX")
plugin_sum=$(md5sum <"$PLUGIN")
pids=()
cleanup() {
	local p

	for p in "${pids[@]}"; do
		kill "$p" 2>/dev/null
	done
	for p in "${pids[@]}"; do
		wait "$p" 2>/dev/null
	done
	rm -rf "$T"
}
trap cleanup EXIT
trap 'exit 1' INT TERM HUP

# distccd drops root to nobody: it must reach its log and pid files, and
# the wrapper, plugin and rules, which are readable by all already
chmod 711 "$T"
mkdir -m 777 "$T/srv"
# distccd runs only the compilers listed here; gcc for the refusal check
printf '%s\n' "$WRAP" "$(command -v x86_64-linux-gnu-gcc)" >"$T/cmdlist"
started=0
for i in 0 1; do
	DISTCC_CMDLIST=$T/cmdlist distccd --no-detach --daemon --listen 127.0.0.1 \
		--allow 127.0.0.1 --port "${PORTS[$i]}" --jobs 2 --user nobody \
		--lifetime 2400 --log-level info --log-file "$T/srv/s$i.log" \
		--pid-file "$T/srv/s$i.pid" 2>"$T/srv/s$i.err" &
	pids+=($!)
done
# the pid file is written once the daemon listens
for _ in $(seq 100); do
	[ -s "$T/srv/s0.pid" ] && [ -s "$T/srv/s1.pid" ] && started=1 && break
	sleep 0.1
done
res $((1 - started)) "two distccd servers listen on 127.0.0.1:${PORTS[0]} and :${PORTS[1]}" \
	"$T/srv/s0.err"
PATHS=${DISTCC_PATHS:-mm/}
HOSTS="127.0.0.1:${PORTS[0]}/1 127.0.0.1:${PORTS[1]}/1"

# what a plain CC="distcc gcc" with the plugin in KCFLAGS meets
mkdir -p "$T/refuse"
if ! DISTCC_HOSTS="127.0.0.1:${PORTS[0]}/1" DISTCC_FALLBACK=0 DISTCC_DIR="$T/refuse" \
	distcc gcc -O2 -c -fplugin="$PLUGIN" -fplugin-arg-lockhog-rules="$RULES" \
	-Itests/fixtures/include tests/fixtures/call-direct.c -o "$T/refuse/x.o" \
	2>"$T/refuse/err" && [ ! -e "$T/refuse/x.o" ] &&
   grep -q -- "-fplugin=.*not supported" "$T/srv/s0.log"; then
	ok "distccd refuses -fplugin=, and DISTCC_FALLBACK=0 makes that an error"
else
	notok "distccd refuses -fplugin=, and DISTCC_FALLBACK=0 makes that an error" "$T/srv/s0.log"
fi

# a tree of our own: KDIR's objects are read by other suites
SECONDS=0
if cp -a "$KDIR" "$T/linux"; then
	ok "copy of the tree"
else
	notok "copy of the tree"
fi
K=$T/linux
echo "# copy: ${SECONDS}s"

SECONDS=0
# shellcheck disable=SC2086
timeout 900 $LOCKHOG scan --kernel "$K" -j 2 --format json --out "$T/local.json" $PATHS \
	2>"$T/local.err"
res $? "local scan of $PATHS" "$T/local.err"
echo "# local scan: ${SECONDS}s"

touch "$T/stamp"
sleep 1
mkdir -p "$T/dcc"
SECONDS=0
KCFLAGS=-Wno-error=address DISTCC_HOSTS=$HOSTS DISTCC_FALLBACK=0 DISTCC_DIR=$T/dcc \
	DISTCC_LOG=$T/client.log timeout 900 $LOCKHOG scan --kernel "$K" -j 2 \
	--cc "distcc $WRAP" --cc-loads-plugin --format json --out "$T/distcc.json" $PATHS \
	2>"$T/distcc.err"
res $? "scan of $PATHS through distcc" "$K/.lockhog-build.log"
echo "# scan through distcc: ${SECONDS}s"
# another engineer's make all in this work tree would spoil the comparison
changed=
[ "$(md5sum <"$PLUGIN")" = "$plugin_sum" ] || changed=" (build/lockhog.so changed meanwhile)"

# A server compiles preprocessed text: no macro uses, so no lock
# annotations (README, "Lock annotations").  The local scan's ways held
# only by an annotation, and findings whose primary way is one, are what
# distcc cannot give; the rest must be the same.
/usr/bin/python3 - "$T/local.json" "$T/distcc.json" "$T/local.noann.json" \
	"$T/distcc.noann.json" >"$T/ann" 2>&1 <<'PY'
import json, sys

local, remote = (json.load(open(f)) for f in sys.argv[1:3])
gone = {f["fingerprint"] for f in local if f.get("held_on_entry")}
ways = sum(1 for f in local for c in f.get("callers", []) if c.get("held_on_entry"))
keep = [f for f in local if f["fingerprint"] not in gone]
for f in keep:
    f["callers"] = [c for c in f.get("callers", []) if not c.get("held_on_entry")]
json.dump(keep, open(sys.argv[3], "w"))
json.dump([f for f in remote if f["fingerprint"] not in gone], open(sys.argv[4], "w"))
remote_ann = sum(1 for f in remote for c in [f] + f.get("callers", []) if c.get("held_on_entry"))
print("%d %d %d" % (len(gone), ways, remote_ann))
PY
read -r ann_findings ann_ways remote_ann <"$T/ann"
if [ "${ann_ways:-0}" -gt 0 ] && [ "${remote_ann:-1}" = 0 ]; then
	ok "annotations: the local scan has $ann_findings findings and $ann_ways ways held by them, distcc none (no macro uses on a server)"
else
	notok "annotations: the local scan has ways held by them, distcc none" "$T/ann"
fi

fps() {
	/usr/bin/python3 -c 'import json, sys
for f in json.load(open(sys.argv[1])):
	print(f["fingerprint"])' "$1" 2>/dev/null | sort
}
fps "$T/local.noann.json" >"$T/local.fp"
fps "$T/distcc.noann.json" >"$T/distcc.fp"
nl=$(wc -l <"$T/local.fp")
nd=$(wc -l <"$T/distcc.fp")
if [ "$nl" -gt 0 ] && [ "$nl" = "$nd" ]; then
	ok "same number of findings: $nl"
else
	notok "same number of findings: $nl local, $nd through distcc$changed"
fi
if [ "$nl" -gt 0 ] && diff "$T/local.fp" "$T/distcc.fp" >"$T/fp.diff"; then
	ok "same fingerprints"
else
	notok "same fingerprints$changed" "$T/fp.diff"
fi
# columns differ: with no source on the server GCC counts a tab as one
# column, where it counts to the next tab stop here
/usr/bin/python3 - "$T/local.noann.json" "$T/distcc.noann.json" >"$T/same" 2>&1 <<'PY'
import json, sys

def nocol(x):
    if isinstance(x, dict):
        return {k: nocol(v) for k, v in x.items() if k != "col"}
    if isinstance(x, list):
        return [nocol(v) for v in x]
    return x

a, b = (json.load(open(f)) for f in sys.argv[1:3])
cols = sum(x["col"] != y["col"] for x, y in zip(a, b))
print("%d of %d" % (cols, len(a)) if nocol(a) == nocol(b) and a else "differ")
PY
if [ "$(head -c 6 "$T/same")" != differ ] && grep -q " of " "$T/same"; then
	ok "same findings, chains and lines, in the same order (columns differ in $(cat "$T/same"))"
else
	notok "same findings, chains and lines, in the same order$changed" "$T/same"
fi

# every unit of mm/ was built again, and each on a server
for i in 0 1; do
	sed -n 's/.* COMPILE_OK .* \(mm\/[^ ]*\.c\)$/\1/p' "$T/srv/s$i.log" | sort >"$T/s$i.units"
done
j0=$(wc -l <"$T/s0.units")
j1=$(wc -l <"$T/s1.units")
if [ "$j0" -gt 0 ] && [ "$j1" -gt 0 ]; then
	ok "both servers compiled units of mm/: $j0 and $j1"
else
	notok "both servers compiled units of mm/: $j0 and $j1" "$T/srv/s0.log"
fi
(cd "$K" && find mm -name '*.o' -newer "$T/stamp" | sed 's/\.o$/.c/' | sort) >"$T/rebuilt"
# what was asked for: a directory's objects, or the file itself
for p in $PATHS; do
	if [ -d "$K/$p" ]; then
		(cd "$K" && find "${p%/}" -name '*.o' | sed 's/\.o$/.c/')
	else
		echo "$p"
	fi
done | sort >"$T/all"
sort -u "$T/s0.units" "$T/s1.units" >"$T/remote"
if [ -s "$T/all" ] && cmp -s "$T/all" "$T/rebuilt" && cmp -s "$T/rebuilt" "$T/remote" &&
   [ $((j0 + j1)) = "$(wc -l <"$T/remote")" ]; then
	ok "all $(wc -l <"$T/all") units of mm/ rebuilt, each once, on a server"
else
	diff "$T/all" "$T/remote" >"$T/units.diff"
	notok "all units of mm/ rebuilt, each once, on a server ($(wc -l <"$T/rebuilt") rebuilt, $((j0 + j1)) remote jobs)" \
		"$T/units.diff"
fi
# distcc logs "compile X on localhost" for what it runs here: only
# kbuild's probes (no input file) and --version may
if [ -s "$T/client.log" ] &&
   ! grep -E "compile [^ ]+\.c on localhost|running locally instead|failed to distribute" \
	"$T/client.log" >"$T/local.runs"; then
	ok "nothing compiled on the client"
else
	notok "nothing compiled on the client" "$T/local.runs"
fi
