#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""The three bugs lockhog was started for, in a `lockhog scan --format
json` report of mm/ (the same checks as tests/integration/scan_mm.sh
makes of the GCC plugin's scan), as TAP lines numbered from FIRST.

  three_bugs.py REPORT.json FIRST
"""
import json
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tools"))
import mm_checks  # noqa: E402

d = json.load(open(sys.argv[1]))
mm_checks.three_bugs(mm_checks.Tap(int(sys.argv[2])), d)
