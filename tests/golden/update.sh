#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Regenerates tests/golden/ (make golden): the IR the GCC frontend gives
# every fixture, tests/fixtures/NAME.c -> tests/golden/NAME.ir.  Run it
# when the lowering changes on purpose, read "git diff tests/golden", and
# commit the golden files with the change (docs/ir.md, "Conformance").
set -u
cd "$(dirname "$0")/../.."
. tests/golden/ir.sh
if [ ! -x build/lockhog ] || [ ! -f "$GOLDEN_PLUGIN" ]; then
	echo "update.sh: build lockhog first (make all)" >&2
	exit 2
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
n=0 changed=0 removed=0 failed=0
while IFS= read -r f; do
	g=$(golden_file "$f")
	n=$((n + 1))
	if [ -e "$g" ] && [ ! -f "$g" ]; then
		echo "update.sh: $g: not a regular file, left alone" >&2
		failed=$((failed + 1))
		continue
	fi
	if ! golden_gcc "$f" >"$tmp/ir" 2>"$tmp/err"; then
		echo "update.sh: $f: the GCC frontend failed: $(head -c 300 "$tmp/err")" >&2
		failed=$((failed + 1))
		continue
	fi
	cmp -s "$tmp/ir" "$g" && continue
	mkdir -p "$(dirname "$g")"
	new=$(mktemp "$g.XXXXXX") && cp "$tmp/ir" "$new" && chmod 644 "$new" &&
		mv -f "$new" "$g"
	changed=$((changed + 1))
done < <(golden_fixtures)
# golden files whose fixture is gone
while IFS= read -r g; do
	rel=${g#"$GOLDEN_DIR"/}
	[ -f "tests/fixtures/${rel%.ir}.c" ] && continue
	rm -f "$g"
	removed=$((removed + 1))
done < <(find "$GOLDEN_DIR" -name '*.ir' -type f)
echo "tests/golden: $n fixtures, $changed written, $removed removed, $failed failed"
[ "$failed" = 0 ]
