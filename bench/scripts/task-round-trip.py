#!/usr/bin/env python3
"""A short task's round trip, from event logs of `sleep` jobs: for the stage named (the last by
default, whose executors are warm), how long it took from submission to completion, and the
median and mean of its tasks' task_end duration_ms (the AM's clock: launch sent -> end heard).

  bench/scripts/task-round-trip.py [--stage N] <event log>...

One line per event log, in the order given, then the median of the stage times.
"""
import json
import statistics
import sys


def stage_figures(path, stage):
    submitted, completed, durations = {}, {}, {}
    with open(path) as f:
        for line in f:
            try:
                e = json.loads(line)
            except ValueError:
                continue
            kind = e.get("event")
            if kind == "stage_submitted":
                submitted[e["stage_id"]] = e["ts"]
            elif kind == "stage_completed":
                completed[e["stage_id"]] = e["ts"]
            elif kind == "task_end" and e.get("status") == "SUCCESS":
                durations.setdefault(e["stage_id"], []).append(e["duration_ms"])
    done = sorted(s for s in completed if s in submitted)
    if not done:
        return None
    s = done[-1] if stage is None else stage
    if s not in completed or s not in submitted or not durations.get(s):
        return None
    d = durations[s]
    return s, completed[s] - submitted[s], len(d), statistics.median(d), statistics.mean(d)


def main(argv):
    stage = None
    if len(argv) >= 2 and argv[0] == "--stage":
        try:
            stage = int(argv[1])
        except ValueError:
            print("task-round-trip: --stage takes a stage id, not " + repr(argv[1]), file=sys.stderr)
            return 2
        argv = argv[2:]
    if not argv:
        print("usage: task-round-trip.py [--stage N] <event log>...", file=sys.stderr)
        return 2
    times = []
    for path in argv:
        try:
            f = stage_figures(path, stage)
        except OSError as e:
            print("task-round-trip: cannot read " + path + ": " + e.strerror, file=sys.stderr)
            return 1
        if f is None:
            print(path + ": no completed stage" + ("" if stage is None else " " + str(stage)) + " with tasks")
            continue
        s, ms, n, med, mean = f
        times.append(ms)
        print("%s: stage %d, %d tasks in %d ms; task round trip median %.1f ms, mean %.2f ms" % (path, s, n, ms, med, mean))
    if times:
        print("median stage time over %d log(s): %d ms" % (len(times), statistics.median(times)))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
