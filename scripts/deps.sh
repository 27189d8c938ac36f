#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Installs the Debian packages lockhog's build, scan and tests need, if
# any are missing.  Needs root (CI runs as root) only when it installs.
set -e
PKGS="gcc g++ make gcc-12-plugin-dev libjansson-dev libelf-dev libcmocka-dev
      llvm-14-tools python3 python3-jsonschema linux-source-6.1 linux-source-6.12 xz-utils distcc
      flex bison bc libssl-dev coccinelle sparse quilt patch perl
      afl++ csmith libcsmith-dev time valgrind chromium fonts-dejavu-core
      libclang-19-dev llvm-19-dev clang-19 lld-19
      qemu-system-x86 busybox-static cpio file"
missing=""
for p in $PKGS; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" ||
		missing="$missing $p"
done
[ -z "$missing" ] && exit 0
echo "lockhog: installing:$missing" >&2
if [ "$(id -u)" != 0 ]; then
	if command -v sudo >/dev/null; then SUDO=sudo; else
		echo "lockhog: need root to install:$missing" >&2
		exit 1
	fi
fi
export DEBIAN_FRONTEND=noninteractive
${SUDO:-} apt-get update -q >/dev/null
${SUDO:-} apt-get install -y -q --no-install-recommends $missing >/dev/null
