#!/usr/bin/env python3
"""Lines of code of Java or Scala files, as docs/writing-jobs.md counts them for the examples:
every line that is not blank, not a comment (//, /* ... */, Javadoc), not `package` and not an
import. Usage: code-lines.py FILE...; prints each file's count and the total."""
import re
import sys


def code_lines(text):
    n = 0
    in_comment = False
    for raw in text.splitlines():
        line = raw.strip()
        if in_comment:
            if "*/" in line:
                in_comment = False
                line = line[line.index("*/") + 2:].strip()
            else:
                continue
        if line.startswith("/*"):
            if "*/" not in line:
                in_comment = True
            continue
        if not line or line.startswith("//") or line.startswith("*"):
            continue
        if re.match(r"(package|import)\s", line):
            continue
        n += 1
    return n


def main(files):
    total = 0
    for f in files:
        with open(f, encoding="utf-8") as fh:
            c = code_lines(fh.read())
        total += c
        print(f"{c:5d} {f}")
    print(f"{total:5d} total")


if __name__ == "__main__":
    main(sys.argv[1:])
