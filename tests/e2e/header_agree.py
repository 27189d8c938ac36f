#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""The kernel runtime's include/linux/lockhog.h (in the runtime patch)
and rt/lockhog_rt.h declare the same contract: the same LOCKHOG_*
constants, the same struct lockhog_site fields in the same order, the
same probe prototypes (comments and whitespace aside).

    header_agree.py RT_HEADER RUNTIME_PATCH
"""
import re
import sys


def strip(text):
    text = re.sub(r'/\*.*?\*/', ' ', text, flags=re.S)
    return re.sub(r'//[^\n]*', ' ', text)


def contract(text):
    text = strip(text)
    defines = sorted(re.findall(r'^#define[ \t]+(LOCKHOG_\w+)[ \t]+(\S+)', text, re.M))
    m = re.search(r'struct lockhog_site\s*\{(.*?)\};', text, re.S)
    fields = [' '.join(f.split()) for f in m.group(1).split(';') if f.strip()] if m else None
    protos = sorted(' '.join(p.split()) for p in
                    re.findall(r'^[a-z][^\n;#]*__lockhog_\w+\([^)]*\);', text, re.M))
    return defines, fields, protos


def main():
    rt = open(sys.argv[1]).read()
    patch = open(sys.argv[2]).read()
    m = re.search(r'^\+\+\+ b/include/linux/lockhog\.h\n@@[^\n]*\n((?:\+[^\n]*\n)+)', patch, re.M)
    if not m:
        sys.exit('header_agree: %s adds no include/linux/lockhog.h' % sys.argv[2])
    kern = ''.join(l[1:] + '\n' for l in m.group(1).splitlines())
    a, b = contract(rt), contract(kern)
    for what, x, y in zip(('constants', 'struct lockhog_site', 'probes'), a, b):
        if x != y:
            sys.exit('header_agree: %s differ:\n  rt:     %s\n  kernel: %s' % (what, x, y))
        if not x:
            sys.exit('header_agree: no %s found' % what)
    print('header_agree: %d constants, %d fields, %d probes agree' % (len(a[0]), len(a[1]), len(a[2])))


if __name__ == '__main__':
    main()
