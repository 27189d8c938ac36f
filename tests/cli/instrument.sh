#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# instrument=: the probes the plugin places, run against a runtime that
# prints them (tests/instrument/trace.c): every acquire, release, costly
# call, loop trip count and atomic on a global of probe.c with
# instrument=all, exactly (a loop that breaks its lock: per hold); only what a report's findings name, with
# their fingerprints, with instrument=REPORT; listed functions only with
# a list; notrace never; a bad instrument= file turns the plugin off
# with a note and the build goes on; and the kernel-style fixture of the
# refill_stock bug gets its probes where the runtime needs them.
set -u
cd "$(dirname "$0")/../.."
. tests/tap.sh
export LC_ALL=C
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
D=tests/instrument
PF=(-fplugin="$PWD/build/lockhog.so" -fplugin-arg-lockhog-rules="$PWD/$D/user.rules"
    -fplugin-arg-lockhog-diag=none)
echo "1..18"

# run NAME INSTRUMENT-ARG: build probe.c so, link it with trace.c, run it
run() {
	gcc -O2 -c "${PF[@]}" ${2:+-fplugin-arg-lockhog-instrument="$2"} $D/probe.c \
		-o "$T/$1.o" >"$T/$1.err" 2>&1 &&
	gcc -O2 $D/trace.c "$T/$1.o" -o "$T/$1" -lpthread >>"$T/$1.err" 2>&1 &&
	timeout 20 "$T/$1" >"$T/$1.out" 2>>"$T/$1.err"
}

run all all
res $? "instrument=all: probe.c builds silently and runs" "$T/all.err"
[ ! -s "$T/all.err" ] && ok "instrument=all: no diagnostics" || notok "instrument=all: no diagnostics" "$T/all.err"
diff -u $D/all.expect "$T/all.out" >"$T/all.diff"
res $? "instrument=all: every probe, in order, with its trip count" "$T/all.diff"
grep -q '^18 sites of 48 bytes$' "$T/all.out"
res $? "instrument=all: 18 descriptors of 48 bytes in lockhog_sites" "$T/all.out"
[ "$(grep '^loop loop breaker:' "$T/all.out" | awk '{print $NF}' | tr '\n' ' ')" = "4 4 2 " ]
res $? "instrument=all: a loop that breaks its lock hands each hold its own rounds (4 4 2)" "$T/all.out"
! grep -q ' quiet:' "$T/all.out"
res $? "instrument=all: a notrace function is not probed" "$T/all.out"

# a report: the unit's own findings (json=)
gcc -O2 -c "${PF[@]}" -fplugin-arg-lockhog-json="$T/report.json" $D/probe.c -o "$T/plain.o" 2>"$T/report.err"
fp=$(/usr/bin/python3 -c 'import json,sys; print(" ".join(f["fingerprint"] for f in json.load(open(sys.argv[1])) if f["function"] == "work"))' "$T/report.json" 2>>"$T/report.err")
[ -n "$fp" ] && ok "the unit's report has a finding in work()" || notok "the unit's report has a finding in work()" "$T/report.err"
run rep "$T/report.json"
res $? "instrument=REPORT: builds and runs" "$T/rep.err"
[ "$(grep -c "^begin call work:.*\[$fp\]" "$T/rep.out")" = 6 ]
res $? "instrument=REPORT: the finding's 3 calls, twice, with its fingerprint" "$T/rep.out"
! grep -qE '^(loop|atomic) |shapes:' "$T/rep.out"
res $? "instrument=REPORT: nothing the report does not name" "$T/rep.out"
[ "$(grep -c '^acq acquire work:' "$T/rep.out")" = 2 ] && grep -q '^try acquire work:' "$T/rep.out"
res $? "instrument=REPORT: the holder's acquires and trylock" "$T/rep.out"

printf '# only this one\nshapes\n' >"$T/list"
run list "$T/list"
res $? "instrument=LIST: builds and runs" "$T/list.err"
! grep -q ' work:' "$T/list.out" && grep -q '^loop loop shapes:.* 7$' "$T/list.out"
res $? "instrument=LIST: the listed function only" "$T/list.out"

# bad instrument= files: a note, no probes, the object is built
for bad in missing notjson; do
	case $bad in
	missing) f=$T/nonexistent.json ;;
	notjson) f=$T/bad.json; echo '[{"kind": ' >"$f" ;;
	esac
	gcc -O2 -c "${PF[@]}" -fplugin-arg-lockhog-instrument="$f" $D/probe.c -o "$T/$bad.o" 2>"$T/$bad.err"
	rc=$?
	if [ $rc = 0 ] && grep -q "lockhog: instrument=.*plugin disabled" "$T/$bad.err" &&
	   ! objdump -h "$T/$bad.o" | grep -q lockhog_sites; then
		ok "instrument=$bad file: a note, no probes, the build goes on"
	else
		notok "instrument=$bad file: a note, no probes, the build goes on" "$T/$bad.err"
	fi
done

# the kernel-style fixture of the refill_stock bug
gcc -O2 -S -Itests/fixtures/include -fplugin="$PWD/build/lockhog.so" \
	-fplugin-arg-lockhog-rules="$PWD/rules/kernel.rules" -fplugin-arg-lockhog-diag=none \
	-fplugin-arg-lockhog-instrument=all tests/fixtures/bug-refill-stock.c -o "$T/rs.s" 2>"$T/rs.err"
awk '/^drain_stock:/{p=1} /^\t\.size\tdrain_stock/{p=0} p' "$T/rs.s" >"$T/ds.s"
[ "$(grep -c 'call.__lockhog_call_begin' "$T/ds.s")" = 3 ]
res $? "refill_stock fixture: drain_stock's two uncharges and its css_put are probed" "$T/rs.err"
grep -q '"memcg_stock.stock_lock"' "$T/rs.s" && grep -q '"local"' "$T/rs.s"
res $? "refill_stock fixture: the section is named as the report names it" "$T/rs.err"

# a loop finding names the loop's own line: instrument=REPORT probes that loop
KF=(-Itests/fixtures/include -fplugin="$PWD/build/lockhog.so"
    -fplugin-arg-lockhog-rules="$PWD/rules/kernel.rules" -fplugin-arg-lockhog-diag=none)
gcc -O2 -c "${KF[@]}" -fplugin-arg-lockhog-json="$T/fp.json" tests/fixtures/bug-free-pcppages-bulk.c \
	-o "$T/fp0.o" 2>"$T/fp.err"
gcc -O2 -S "${KF[@]}" -fplugin-arg-lockhog-instrument="$T/fp.json" tests/fixtures/bug-free-pcppages-bulk.c \
	-o "$T/fp.s" 2>>"$T/fp.err"
[ "$(grep -c 'call.__lockhog_loop' "$T/fp.s")" -ge 1 ] && grep -q '"__free_one_page"' "$T/fp.s"
res $? "free_pcppages_bulk fixture: the reported loop hands over its trip count" "$T/fp.err"
exit 0
