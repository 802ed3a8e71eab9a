#!/usr/bin/env python3
"""The path of an application's first executor, from the AM's registration to the executor's,
read from one `bin/elasticam run` directory per argument (its cluster.log, the AM's log, and the
event log the AM's log names).

    ELASTICAM_NODES=1 bin/elasticam run sleep --stages 1 --tasks 4 --task-ms 200 \
        --conf elasticam.executor.instances=1
    bench/scripts/launch-path.py target/elasticam-run/run-*

Prints, per run, the milliseconds of each step and the medians over the runs:
  setup     AM registered -> its first container request (the AM's own set-up of the job)
  grant     request -> the ResourceManager allocated the container
  heard     allocated -> the AM received it
  to NM     the AM launching the executor -> the NodeManager's start request
  NM start  start request -> the container's launch script runs
  JVM       launch script -> the executor's JVM started
  register  JVM start -> the executor registered
  total     AM registered -> executor registered (the event log's)
"""
import datetime
import glob
import json
import re
import statistics
import sys

STAMP = re.compile(r'(\d{4}-\d\d-\d\d \d\d:\d\d:\d\d),(\d{3})')
STEPS = ['setup', 'grant', 'heard', 'to NM', 'NM start', 'JVM', 'register', 'total']


def ms(line):
    m = STAMP.match(line)
    if not m:
        return None
    return datetime.datetime.strptime(m.group(1), '%Y-%m-%d %H:%M:%S').timestamp() * 1000 + int(m.group(2))


def first(lines, *needles):
    for line in lines:
        if all(n in line for n in needles):
            t = ms(line)
            if t is not None:
                return t, line
    raise LookupError('no line with ' + ' and '.join(needles))


def path(run_dir):
    am_logs = sorted(glob.glob(run_dir + '/nm-*/logs/*/container_*_01_000001/am.log'))
    if not am_logs:
        raise LookupError('no AM log under ' + run_dir)
    am = open(am_logs[0], encoding='utf-8', errors='replace').read().splitlines()
    cluster = open(run_dir + '/cluster.log', encoding='utf-8', errors='replace').read().splitlines()
    registered, _ = first(am, 'Registered with the ResourceManager')
    asked, _ = first(am, 'Requesting ')
    received, _ = first(am, 'Received ', 'container(s) from YARN')
    launching, line = first(am, 'Launching executor 1 in ')
    container = re.search(r'(container_\S+)', line).group(1)
    allocated, _ = first(cluster, container, 'from NEW to ALLOCATED')
    nm_start, _ = first(cluster, 'Start request for ' + container)
    script, _ = first(cluster, 'launchContainer: [bash', container)
    _, log_line = first(am, 'Event log: ')
    event_log = re.search(r'Event log: (?:file:)?(\S+)', log_line).group(1)
    events = [json.loads(l) for l in open(event_log, encoding='utf-8') if l.strip().startswith('{')]
    am_registered = next(e for e in events if e['event'] == 'am_registered')
    executor = next(e for e in events if e['event'] == 'executor_registered')
    jvm = executor['start']['jvm_start_ts']
    return {
        'setup': asked - registered, 'grant': allocated - asked, 'heard': received - allocated,
        'to NM': nm_start - launching, 'NM start': script - nm_start, 'JVM': jvm - script,
        'register': executor['ts'] - jvm, 'total': executor['ts'] - am_registered['ts'],
        'archives': '%s/%s' % (am_registered.get('start', {}).get('archive', '?'),
                               executor.get('start', {}).get('archive', '?')),
    }


def main(dirs):
    if not dirs:
        print(__doc__.strip(), file=sys.stderr)
        return 2
    rows = []
    print('run | archives (AM/executor) | ' + ' | '.join(STEPS))
    for d in dirs:
        try:
            p = path(d.rstrip('/'))
        except (LookupError, OSError, ValueError, KeyError, StopIteration) as e:
            print('%s: skipped: %s' % (d, e), file=sys.stderr)
            continue
        rows.append(p)
        print('%s | %s | %s' % (d.rstrip('/').split('/')[-1], p['archives'],
                                ' | '.join('%d' % p[s] for s in STEPS)))
    if rows:
        print('median of %d | | %s' % (len(rows), ' | '.join('%d' % statistics.median(r[s] for r in rows)
                                                            for s in STEPS)))
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
