#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""Writes an mbox patch, as git format-patch would, that replaces text in
files of a kernel tree: mkpatch.py KDIR SUBJECT OUT FILE OLD NEW [FILE OLD NEW]...
OLD and NEW are Python string literals; OLD must occur exactly once."""
import ast
import difflib
import os
import sys


def main():
    kdir, subject, out = sys.argv[1:4]
    args = sys.argv[4:]
    edits = {}
    for i in range(0, len(args), 3):
        path, old, new = args[i], ast.literal_eval(args[i + 1]), ast.literal_eval(args[i + 2])
        text = edits.get(path)
        if text is None:
            text = open(os.path.join(kdir, path)).read()
        if text.count(old) != 1:
            sys.exit("mkpatch: %r occurs %d times in %s" % (old[:40], text.count(old), path))
        edits[path] = text.replace(old, new)
    body = []
    for path, new in edits.items():
        old = open(os.path.join(kdir, path)).read()
        body += difflib.unified_diff(old.splitlines(True), new.splitlines(True),
                                     "a/" + path, "b/" + path)
    with open(out, "w") as f:
        f.write("From 0000000000000000000000000000000000000000 Mon Sep 17 00:00:00 2001\n")
        f.write("From: lockhog tests <tests@lockhog>\nSubject: [PATCH] %s\n\n%s\n---\n" %
                (subject, subject))
        f.writelines(body)
        f.write("-- \n2.39.5\n")


if __name__ == "__main__":
    main()
