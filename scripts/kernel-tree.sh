#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Extracts one of Debian's pristine linux-source-X.Y tarballs into DIR
# unless it is there already.  Never modifies an existing tree; a
# half-extracted one is not left behind.
#
#   kernel-tree.sh [DIR [VERSION]]
#
# VERSION is the Debian source package's version (6.1, the default, or
# 6.12); DIR defaults to build/linux-VERSION.  LINUX_TARBALL overrides the
# tarball (/usr/src/linux-source-VERSION.tar.xz); its top directory must
# be linux-source-VERSION, as Debian packs it.
set -e
VER=${2:-6.1}
case $VER in
[0-9]*.[0-9]*) ;;
*) echo "lockhog: bad kernel version '$VER' (want e.g. 6.1 or 6.12)" >&2; exit 1 ;;
esac
DIR=${1:-build/linux-$VER}
TAR=${LINUX_TARBALL:-/usr/src/linux-source-$VER.tar.xz}
[ -f "$DIR/Makefile" ] && [ -d "$DIR/mm" ] && exit 0
[ -f "$TAR" ] || { echo "lockhog: $TAR missing (apt-get install linux-source-$VER)" >&2; exit 1; }
mkdir -p "$(dirname "$DIR")"
TMP=$(mktemp -d "$(dirname "$DIR")/.extract.XXXXXX")
trap 'rm -rf "$TMP"' EXIT
echo "lockhog: extracting $TAR into $DIR" >&2
tar -C "$TMP" -xf "$TAR"
[ -d "$TMP/linux-source-$VER" ] ||
	{ echo "lockhog: $TAR has no linux-source-$VER/ directory" >&2; exit 1; }
rm -rf "$DIR"
mv "$TMP/linux-source-$VER" "$DIR"
