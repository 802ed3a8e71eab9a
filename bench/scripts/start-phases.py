#!/usr/bin/env python3
"""Where executors' start-up goes, from event logs: per step, the median time since the step before,
the CPU time spent in it and the classes loaded by its end, over every executor that registered.

  bench/scripts/start-phases.py <event log>... 

Steps: launched (executor_launched, the AM's clock) -> JVM started (the executor's clock) -> main ->
credentials read -> shuffle ready -> register sent (the executor's JVM uptime) -> registered (the
AM's executor_registered). Launched -> JVM start and register sent -> registered compare two clocks:
on one machine (the embedded cluster) they are the same clock.
"""
import json
import statistics
import sys

STEPS = ["main", "credentials_read", "shuffle_ready", "register_sent"]


def executors(path):
    launched, out = {}, []
    with open(path) as f:
        for line in f:
            try:
                e = json.loads(line)
            except ValueError:
                continue
            if e.get("event") == "executor_launched":
                launched[e["executor_id"]] = e["ts"]
            elif e.get("event") == "executor_registered" and not e.get("reattached") and "start" in e:
                s = e["start"]
                if e["executor_id"] not in launched or not all(k in s for k in STEPS):
                    continue
                out.append((launched[e["executor_id"]], e["ts"], s))
    return out


def main(paths):
    rows = {k: [] for k in ["launch -> JVM start"] + ["JVM start -> main"] + [
        f"{a} -> {b}" for a, b in zip(STEPS, STEPS[1:])] + ["register sent -> registered", "launch -> registered"]}
    cpu = {k: [] for k in STEPS}
    classes = {k: [] for k in STEPS}
    n = 0
    for p in paths:
        for launched, registered, s in executors(p):
            n += 1
            jvm = s["jvm_start_ts"]
            rows["launch -> JVM start"].append(jvm - launched)
            rows["JVM start -> main"].append(s["main"]["uptime_ms"])
            for a, b in zip(STEPS, STEPS[1:]):
                rows[f"{a} -> {b}"].append(s[b]["uptime_ms"] - s[a]["uptime_ms"])
            rows["register sent -> registered"].append(registered - (jvm + s["register_sent"]["uptime_ms"]))
            rows["launch -> registered"].append(registered - launched)
            for k in STEPS:
                cpu[k].append(s[k]["cpu_ms"])
                classes[k].append(s[k]["classes"])
    if n == 0:
        sys.exit("start-phases: no registered executor with start steps in " + ", ".join(paths))
    print(f"{n} executors")
    print("| step | median ms | max ms |")
    print("|---|---:|---:|")
    for k, v in rows.items():
        print(f"| {k} | {statistics.median(v):.0f} | {max(v):.0f} |")
    print()
    print("| at | median CPU ms since JVM start | median classes loaded |")
    print("|---|---:|---:|")
    for k in STEPS:
        print(f"| {k.replace('_', ' ')} | {statistics.median(cpu[k]):.0f} | {statistics.median(classes[k]):.0f} |")


if __name__ == "__main__":
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    main(sys.argv[1:])
