#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""Compiles one kbuild unit again from its .cmd file, into OUT.

    replay_unit.py KDIR UNIT.o OUT.o [FLAG...]

Replays kbuild's own command line (the compiler, then objtool on the
object, as kbuild runs them) from KDIR/DIR/.UNIT.o.cmd with the output
redirected to OUT.o, without the dependency file and without any
-fplugin flags the tree was built with; FLAGs are added after the
tree's own flags (e.g. the plugin's).  Nothing is written into KDIR.
Exits with the command's status; the compiler's messages go to stderr.
"""
import os
import re
import shlex
import subprocess
import sys


def unit_cmd(kdir, unit):
    d, b = os.path.split(unit)
    with open(os.path.join(kdir, d, "." + b + ".cmd")) as f:
        first = f.readline()
    m = re.match(r"cmd_(\S+) := (.*)$", first)
    if not m or m.group(1) != unit:
        raise SystemExit("%s: no kbuild command for %s" % (kdir, unit))
    return m.group(2)


def rewrite(cmd, unit, out, extra):
    """kbuild's 'cc ... -c -o UNIT SRC ; objtool ... UNIT' with OUT for UNIT."""
    parts = []
    for part in cmd.split(";"):
        words = shlex.split(part)
        if not words:
            continue
        words = [w for w in words
                 if not w.startswith(("-Wp,-MMD,", "-Wp,-MD,", "-fplugin"))]
        words = [out if w == unit else w for w in words]
        if "-c" in words and not parts:
            words[words.index("-c"):words.index("-c")] = extra
        parts.append(words)
    if not parts or out not in parts[0]:
        raise SystemExit("%s: not a compile command" % unit)
    return " ; ".join(" ".join(shlex.quote(w) for w in p) for p in parts)


def main():
    if len(sys.argv) < 4:
        raise SystemExit("usage: replay_unit.py KDIR UNIT.o OUT.o [FLAG...]")
    kdir, unit, out = sys.argv[1], sys.argv[2], os.path.abspath(sys.argv[3])
    cmd = rewrite(unit_cmd(kdir, unit), unit, out, sys.argv[4:])
    # "set -e": objtool must not run over a failed compile's leftovers
    sys.exit(subprocess.run(["/bin/sh", "-ec", cmd.replace(" ; ", "\n")],
                            cwd=kdir).returncode)


if __name__ == "__main__":
    main()
