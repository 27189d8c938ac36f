#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""The two frontends on the fixture corpus, compared by fingerprint and severity.

Each tests/fixtures/NAME.c is compiled with the GCC plugin (its
.note.lockhog section) and checked with lockhog-check (its sidecar),
from inside tests/fixtures so that paths agree; `lockhog report
--format json --all` on each gives the findings.  A fixture agrees when
both give the same set of fingerprints, each at the same severity (a
loop one frontend bounds below note-bound and the other does not is
the same finding, but a note against a warning).  Prints TAP: one line per
fixture, a fixture listed in the expectation file (NAME: reason) is a
known difference (TAP TODO, counted apart), then the agreement figure,
which must reach MIN_AGREEMENT.

  agree.py BUILD_DIR EXPECT_FILE [WORKDIR]
"""
import json
import os
import subprocess
import sys
import tempfile

MIN_AGREEMENT = 0.95


def fingerprints(lockhog, path):
    r = subprocess.run([lockhog, 'report', '--format', 'json', '--all', path],
                       capture_output=True, text=True)
    if r.returncode not in (0, 1):
        return None, r.stderr.strip().splitlines()[-1:] or ['exit %d' % r.returncode]
    items = json.loads(r.stdout or '[]')
    if isinstance(items, dict):
        items = items.get('findings', [])
    return sorted(set((f['fingerprint'], f.get('severity', '')) for f in items)), None


def expectations(path):
    known = {}
    if os.path.exists(path):
        for line in open(path):
            line = line.strip()
            if line and not line.startswith('#') and ':' in line:
                name, why = line.split(':', 1)
                known[name.strip()] = why.strip()
    return known


def one(build, fixtures, work, name):
    lockhog = os.path.join(build, 'lockhog')
    rules = os.path.join(os.path.dirname(build), 'rules', 'kernel.rules')
    obj = os.path.join(work, name + '.o')
    side = os.path.join(work, '.' + name + '.o.lockhog')
    gcc = ['gcc', '-O2', '-c', '-Iinclude', '-fplugin=' + os.path.join(build, 'lockhog.so'),
           '-fplugin-arg-lockhog-rules=' + rules, '-fplugin-arg-lockhog-diag=none',
           name + '.c', '-o', obj]
    chk = [os.path.join(build, 'lockhog-check'), '--rules=' + rules, '--diag=none',
           '--sidecar=' + side, '-Iinclude', name + '.c']
    for cmd in (gcc, chk):
        r = subprocess.run(cmd, cwd=fixtures, capture_output=True, text=True)
        if r.returncode:
            last = (r.stderr.strip().splitlines() or [''])[-1]
            return None, None, '%s exited %d: %s' % (os.path.basename(cmd[0]), r.returncode, last)
    g, err = fingerprints(lockhog, obj)
    if err:
        return None, None, 'gcc: ' + err[0]
    c, err = fingerprints(lockhog, side)
    if err:
        return None, None, 'clang: ' + err[0]
    return g, c, None


def main():
    build = os.path.abspath(sys.argv[1])
    known = expectations(sys.argv[2])
    work = os.path.abspath(sys.argv[3] if len(sys.argv) > 3 else
                           tempfile.mkdtemp(prefix='lockhog-agree.'))
    os.makedirs(work, exist_ok=True)
    fixtures = os.path.join(os.path.dirname(build), 'tests', 'fixtures')
    names = sorted(f[:-2] for f in os.listdir(fixtures) if f.endswith('.c'))
    print('1..%d' % (len(names) + 2))
    agree = 0
    n = 0
    for name in names:
        n += 1
        g, c, err = one(build, fixtures, work, name)
        same = err is None and g == c
        agree += same
        if same:
            ok = 'ok %d - %s' % (n, name)
            if name in known:
                ok += ' (listed as different but agrees: drop it from the list)'
                ok = 'not ' + ok
            print(ok)
        elif name in known:
            print('ok %d - %s # TODO known difference: %s' % (n, name, known[name]))
        else:
            print('not ok %d - %s' % (n, name))
            print('#   %s' % (err or 'gcc %s, clang %s' % (g, c)))
    ratio = agree / len(names) if names else 0
    n += 1
    print('%s %d - agreement %d/%d = %.1f%% (at least %d%%)' %
          ('ok' if ratio >= MIN_AGREEMENT else 'not ok', n, agree, len(names),
           100 * ratio, 100 * MIN_AGREEMENT))
    n += 1
    stale = [k for k in known if k not in names]
    print('%s %d - every listed difference names a fixture%s' %
          ('not ok' if stale else 'ok', n, (': ' + ' '.join(stale)) if stale else ''))


if __name__ == '__main__':
    main()
