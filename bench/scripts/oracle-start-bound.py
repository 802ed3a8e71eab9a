#!/usr/bin/env python3
"""What the oracle's executor-seconds become once every new executor takes a start latency.

usage: bench/scripts/oracle-start-bound.py [--start-ms N]   (from the repository root, after a build)

The oracle (issue 4) holds exactly running + runnable executors and starts them in zero time. This
replays its executor curve, per trace, with the cheapest executor life a clairvoyant policy could
have at the same schedule: each rise of the curve is either an executor kept idle since the curve
last fell to that level (cost: the gap) or a new one (cost: the start latency), whichever is less.
Levels are matched last-freed-first, which is optimal for a single curve. It is a bound for
policies that keep the oracle's schedule; a policy allowed to run later can do better.
"""
import csv, glob, os, statistics, subprocess, sys, tempfile

root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
start_ms = int(sys.argv[sys.argv.index("--start-ms") + 1]) if "--start-ms" in sys.argv else 1000
out = tempfile.mkdtemp(prefix="oracle-bound-")
ratios = []
print("| trace | oracle executor-s | with a start per new executor | ratio |")
print("|---|---:|---:|---:|")
for trace in sorted(glob.glob(os.path.join(root, "../shared/eventlogs/*.trace.jsonl"))):
    subprocess.run([os.path.join(root, "bin/elasticam"), "simulate", "--trace", trace, "--policy", "oracle",
                    "--grant-ms", "200", "--start-ms", str(start_ms), "--capacity", "500", "--out", out],
                   check=True, capture_output=True)
    name = os.path.basename(trace).replace(".trace.jsonl", "")
    freed = {}
    level, last_ms, area, starts = 0, 0, 0.0, 0.0
    for row in csv.DictReader(open(os.path.join(out, name + ".oracle.csv"))):
        t, e = int(row["time_ms"]), int(row["executors"])
        area += level * (t - last_ms)
        for k in range(level + 1, e + 1):
            starts += start_ms if k not in freed else min(start_ms, t - freed[k])
        for k in range(e + 1, level + 1):
            freed[k] = t
        level, last_ms = e, t
    ratio = (area + starts) / area if area else 1.0
    ratios.append(ratio)
    print(f"| {name} | {area / 1000:.0f} | {(area + starts) / 1000:.0f} | {ratio:.2f} |")
print()
print(f"median ratio: {statistics.median(ratios):.2f}")
