#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# make fuzz: AFL++ on the rules parser and on the section reader.
#
#   run.sh AFLDIR SANDIR
#
# AFLDIR holds fuzz_rules and fuzz_ir built with afl-cc, SANDIR the same
# built with gcc -fsanitize=address,undefined.  Each runs FUZZ_SECONDS
# (default 300) from seeds made of the real inputs (seeds.sh); then the
# queue it grew is replayed through the sanitized build, which sees the
# memory errors that do not crash.  What crashes, hangs or trips a
# sanitizer is copied, named by its hash, into tests/fuzz/crashers/NAME/,
# which make check replays (tests/cli/fuzz_replay.sh).  Exits 1 if
# anything did.
set -eu
cd "$(dirname "$0")/../.."
bin=$1 san=$2
secs=${FUZZ_SECONDS:-300}
work=build/fuzz/run
tests/fuzz/seeds.sh build/fuzz/seeds >/dev/null
export AFL_NO_UI=1 AFL_SKIP_CPUFREQ=1 AFL_NO_AFFINITY=1 AFL_QUIET=1
export AFL_I_DONT_CARE_ABOUT_MISSING_CRASHES=1
found=0
# fuzz NAME ARGS...: ARGS are the harness's, @@ the input
fuzz() {
	local name=$1 out=$work/$1 f h rc n=0
	shift
	rm -rf "$out"
	echo "fuzz: $name for ${secs}s" >&2
	afl-fuzz -i "build/fuzz/seeds/$name" -o "$out" -x "tests/fuzz/$name.dict" \
		-V "$secs" -t 2000 -m none -- "$bin/fuzz_$name" "$@" \
		>"$work/$name.log" 2>&1 || {
		tail -20 "$work/$name.log" >&2
		return 1
	}
	mkdir -p "tests/fuzz/crashers/$name"
	for f in "$out"/default/crashes/id:* "$out"/default/hangs/id:*; do
		[ -f "$f" ] || continue
		h=$(sha1sum "$f" | cut -c1-16)
		cp "$f" "tests/fuzz/crashers/$name/$h"
		n=$((n + 1))
	done
	awk -F' *: *' '$1 ~ /^(execs_done|execs_per_sec|corpus_count|saved_crashes|saved_hangs|stability|bitmap_cvg)$/ {
		printf "%s=%s ", $1, $2 } END { print "" }' "$out/default/fuzzer_stats" |
		sed "s/^/fuzz: $name: /" >&2
	for f in "$out"/default/queue/id:*; do
		rc=0
		timeout 20 "$san/fuzz_$name" "${@/@@/$f}" >/dev/null 2>"$work/san.err" || rc=$?
		[ "$rc" -le 1 ] && continue
		h=$(sha1sum "$f" | cut -c1-16)
		cp "$f" "tests/fuzz/crashers/$name/$h"
		echo "fuzz: $name: sanitizer: $(grep -m1 -E 'ERROR|runtime error' "$work/san.err")" >&2
		n=$((n + 1))
	done
	echo "fuzz: $name: $n crashes, hangs or sanitizer reports" >&2
	[ "$n" = 0 ] || found=1
}
mkdir -p "$work"
fuzz rules @@ build/fuzz/seeds/ir/bug-refill-stock
fuzz ir @@ rules/kernel.rules
[ "$found" = 0 ] || echo "fuzz: crashes or hangs copied to tests/fuzz/crashers/" >&2
exit "$found"
