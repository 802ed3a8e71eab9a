#!/usr/bin/env python3
"""Writes RELIABILITY.md's table of measured figures from what the fault tests wrote.

usage: bench/scripts/reliability-table.py [DIR ...]   (from anywhere; DIR defaults to src-it/target/reliability)

Each fault test writes one JSON file per RELIABILITY.md row it measures (src-it's Figures.java):
the row, the run (`default` for CI's `mvn -B verify`, else the profile), the date, the commit, a
summary sentence and the figures by name. This script puts one line per row between the markers
`<!-- reliability-figures:begin -->` and `<!-- reliability-figures:end -->` in RELIABILITY.md.
Rows the given run did not measure keep their line, with their own date and commit, so a run of
one test (`mvn -B verify -pl src-it -am -Dit.test=NodeLostIT`) updates that row alone.
"""
import glob, json, os, re, sys

root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
doc = os.path.join(root, "RELIABILITY.md")
BEGIN, END = "<!-- reliability-figures:begin -->", "<!-- reliability-figures:end -->"
HEADER = ["| row (test) | runs in | measured | date | commit |", "|---|---|---|---|---|"]
RUNS = {"default": "CI (`mvn -B verify`)"}

dirs = sys.argv[1:] or [os.path.join(root, "src-it", "target", "reliability")]
measured = {}
for d in dirs:
    for f in sorted(glob.glob(os.path.join(d, "*.json"))):
        with open(f, encoding="utf-8") as fh:
            r = json.load(fh)
        run = RUNS.get(r["run"], "profile `-P%s`" % r["run"])
        measured[r["row"]] = "| `%s` | %s | %s | %s | %s |" % (r["row"], run, r["summary"], r["date"], r["commit"])
if not measured:
    sys.exit("no figures in %s: run the fault tests first (src-it, mvn -B verify)" % ", ".join(dirs))

with open(doc, encoding="utf-8") as fh:
    text = fh.read()
if BEGIN not in text or END not in text:
    sys.exit("RELIABILITY.md has no %s ... %s section" % (BEGIN, END))
head, rest = text.split(BEGIN, 1)
old, tail = rest.split(END, 1)
lines = {}
for line in old.strip().splitlines():
    m = re.match(r"\| `([^`]+)` \|", line)
    if m:
        lines[m.group(1)] = line
lines.update(measured)
table = "\n".join(HEADER + [lines[k] for k in sorted(lines)])
with open(doc, "w", encoding="utf-8") as fh:
    fh.write(head + BEGIN + "\n" + table + "\n" + END + tail)
print("RELIABILITY.md: %d row(s) from this run, %d in all" % (len(measured), len(lines)))
