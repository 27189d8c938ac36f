#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Seeds for the fuzz harnesses, from the real inputs:
#
#   seeds.sh OUT [N]
#
# OUT/rules/  rules/kernel.rules cut at its blank lines
# OUT/ir/     the .note.lockhog sections of the fixtures built with the
#             plugin, and one ld -r composite of two of them
# OUT/obj/    the objects they came from
#
# N keeps every Nth fixture only (default 1: all of them).
set -eu
cd "$(dirname "$0")/../.."
out=$1 every=${2:-1}
rm -rf "$out"
mkdir -p "$out/rules" "$out/ir" "$out/obj"
awk -v d="$out/rules" 'BEGIN { n = 0 }
	/^$/ || len == 40 { if (len) n++; len = 0; if (/^$/) next }
	{ f = sprintf("%s/piece-%02d", d, n); print > f; len++ }' rules/kernel.rules
i=0
for c in tests/fixtures/*.c; do
	i=$((i + 1))
	[ $((i % every)) = 0 ] || continue
	b=$(basename "$c" .c)
	gcc -O2 -c -Itests/fixtures/include -fplugin="$PWD/build/lockhog.so" \
		-fplugin-arg-lockhog-diag=none "$c" -o "$out/obj/$b.o"
	build/lockhog dump "$out/obj/$b.o" >"$out/ir/$b"
done
set -- "$out"/obj/*.o
ld -r -o "$out/obj/composite.o" "$1" "${2:-$1}"
build/lockhog dump "$out/obj/composite.o" >"$out/ir/composite"
