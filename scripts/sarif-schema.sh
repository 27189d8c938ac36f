#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Puts the OASIS SARIF 2.1.0 JSON schema in build/schemas/ for the tests.
# It comes from the npm registry (Microsoft's jest-sarif package ships
# the final 2.1.0 schema) rather than being copied into this repository.
set -e
OUT=${1:-build/schemas/sarif-2.1.0.json}
[ -s "$OUT" ] && exit 0
mkdir -p "$(dirname "$OUT")"
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
(cd "$TMP" && npm pack --silent @microsoft/jest-sarif@1.0.0-beta.0 >/dev/null)
tar -C "$TMP" -xzf "$TMP"/microsoft-jest-sarif-1.0.0-beta.0.tgz \
	package/lib/schemas/sarif-2.1.0-rtm.5.json
mv "$TMP"/package/lib/schemas/sarif-2.1.0-rtm.5.json "$OUT.tmp"
mv "$OUT.tmp" "$OUT"
