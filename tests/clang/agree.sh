#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The two frontends on the fixture corpus: every fixture compiled with the
# GCC plugin and checked with lockhog-check, findings compared by
# fingerprint (tests/clang/agree.py; known differences with their reason
# in tests/clang/differences.txt; at least 95% must agree).
set -u
cd "$(dirname "$0")/../.."
T=build/tests/clang_agree
rm -rf $T
mkdir -p $T
exec /usr/bin/python3 tests/clang/agree.py build tests/clang/differences.txt $T
