#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Extracts Debian's pristine linux-source-6.1 into DIR (default
# build/linux-6.1) unless it is there already.  Never modifies an
# existing tree; a half-extracted one is not left behind.
set -e
DIR=${1:-build/linux-6.1}
TAR=${LINUX_TARBALL:-/usr/src/linux-source-6.1.tar.xz}
[ -f "$DIR/Makefile" ] && [ -d "$DIR/mm" ] && exit 0
[ -f "$TAR" ] || { echo "lockhog: $TAR missing (apt-get install linux-source-6.1)" >&2; exit 1; }
mkdir -p "$(dirname "$DIR")"
TMP=$(mktemp -d "$(dirname "$DIR")/.extract.XXXXXX")
trap 'rm -rf "$TMP"' EXIT
echo "lockhog: extracting $TAR into $DIR" >&2
tar -C "$TMP" -xf "$TAR"
rm -rf "$DIR"
mv "$TMP"/linux-source-6.1 "$DIR"
