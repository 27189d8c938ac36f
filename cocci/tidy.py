#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""Kernel-style whitespace for the code spatch adds.

Reads a unified diff (spatch's output) from FILE or standard input and
writes it to standard output with its '+' lines in kernel style, fixing what spatch 1.1's pretty
printer gets wrong in added code and nothing else:

  for(a;b;c)        -> for (a; b; c)        (also if/while/switch)
  ...){  at the end of a function definition's header
                    -> ')' and '{' on a line of its own
  leading spaces    -> tabs, then fewer than 8 spaces
  trailing blanks, whitespace-only lines, a blank line next to another
  blank line        -> removed

Hunk headers are recounted.  With --paths, the file names of '---' and
'+++' lines become a/PATH and b/PATH (PATH as spatch names the input
file), and so do those of spatch's "diff -u -p" lines, so that the
output does not name spatch's temporary files.

Lines that are not added ('-' and context lines) are never changed, so
the output applies wherever the input did.
"""
import re
import itertools
import sys

CTRL = ("for", "if", "while", "switch")


def retab(line):
    """Leading whitespace as tabs then at most 7 spaces."""
    m = re.match(r"[ \t]*", line)
    ws = m.group(0)
    col = 0
    for ch in ws:
        col = (col // 8 + 1) * 8 if ch == "\t" else col + 1
    return "\t" * (col // 8) + " " * (col % 8) + line[len(ws):]


def close_paren(s, i):
    """Index of the ')' matching the '(' at s[i], or -1."""
    depth = 0
    for j in range(i, len(s)):
        if s[j] == "(":
            depth += 1
        elif s[j] == ")":
            depth -= 1
            if depth == 0:
                return j
    return -1


def space_ctrl(line):
    """A space after the keyword, and after each ';' of a for header."""
    for kw in CTRL:
        m = re.search(r"\b%s\(" % kw, line)
        if m is None:
            continue
        line = line[:m.start()] + kw + " " + line[m.start() + len(kw):]
    m = re.search(r"\bfor \(", line)
    if m:
        i = m.end() - 1
        j = close_paren(line, i)
        if j > 0:
            head = line[i + 1:j]
            parts = [p.strip() for p in head.split(";")]
            if len(parts) == 3:
                head = "; ".join(parts).rstrip()
                line = line[:i + 1] + head + line[j:]
    return line


def header_starts_at_col0(body, k):
    """Whether the statement that line body[k] ends began at column 0: the
    header of a function definition, not a control statement."""
    while k >= 0:
        text = body[k]
        if text[:1] not in ("\t", " "):
            return not text.startswith(("}", "#")) and text.strip() != ""
        k -= 1
    return False


def tidy_added(lines):
    """lines: the '+' texts of one run of added lines, without the '+'."""
    out = []
    for text in lines:
        text = text.rstrip()
        if text:
            text = space_ctrl(retab(text))
        if text.endswith("){") and header_starts_at_col0(out + [text], len(out)):
            out.append(text[:-1])
            out.append("{")
            continue
        out.append(text)
    return out


def tidy_hunk(body):
    """body: the lines of one hunk, each with its ' ', '-' or '+'."""
    res = []
    for added, run in itertools.groupby(body, key=lambda b: b.startswith("+")):
        if added:
            res.extend("+" + t for t in tidy_added([b[1:] for b in run]))
        else:
            res.extend(run)
    # A blank added line next to another blank line, old or new, goes.
    out = []
    for k, line in enumerate(res):
        if line == "+":
            prev = next((x for x in reversed(out) if not x.startswith("-")), None)
            nxt = next((x for x in res[k + 1:] if not x.startswith("-")), None)
            if prev in ("+", " ", "") or nxt in (" ", ""):
                continue
        out.append(line)
    return out


HUNK = re.compile(r"^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@(.*)$")


def main(argv):
    paths = "--paths" in argv[1:]
    files = [a for a in argv[1:] if a != "--paths"]
    if len(files) > 1 or any(f.startswith("-") for f in files):
        sys.stderr.write("usage: tidy.py [--paths] [FILE]\n")
        return 2
    try:
        text = open(files[0]).read() if files else sys.stdin.read()
    except OSError as e:
        sys.stderr.write("tidy.py: %s: %s\n" % (files[0], e.strerror))
        return 2
    lines = text.split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    out = []
    shift = 0
    i = 0
    name = None
    while i < len(lines):
        line = lines[i]
        m = HUNK.match(line)
        if m is None:
            if paths and line.startswith("diff -u -p "):
                i += 1
                continue
            if line.startswith("--- "):
                shift = 0
                name = line[4:].split("\t")[0]
                if paths:
                    name = name.lstrip("./").removeprefix("a/")
                    out.append("diff -u -p a/%s b/%s" % (name, name))
                    line = "--- a/" + name
            elif line.startswith("+++ ") and paths and name is not None:
                line = "+++ b/" + name
            out.append(line)
            i += 1
            continue
        old_start, old_n = int(m.group(1)), int(m.group(2) or 1)
        new_start, new_n = int(m.group(3)), int(m.group(4) or 1)
        i += 1
        body = []
        seen_old = seen_new = 0
        while i < len(lines) and (seen_old < old_n or seen_new < new_n):
            b = lines[i]
            if b.startswith("\\"):
                body.append(b)
                i += 1
                continue
            tag = b[:1]
            if tag in (" ", ""):
                seen_old += 1
                seen_new += 1
            elif tag == "-":
                seen_old += 1
            elif tag == "+":
                seen_new += 1
            else:
                break
            body.append(b)
            i += 1
        while i < len(lines) and lines[i].startswith("\\"):
            body.append(lines[i])
            i += 1
        body = tidy_hunk(body)
        n = sum(1 for b in body if b[:1] in (" ", "+", ""))
        out.append("@@ -%d,%d +%d,%d @@%s" % (old_start, old_n, new_start + shift, n, m.group(5)))
        shift += n - new_n
        out.extend(body)
    sys.stdout.write("".join(l + "\n" for l in out))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
