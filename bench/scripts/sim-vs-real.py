#!/usr/bin/env python3
"""The simulator's verdicts checked against real runs on the embedded cluster.

usage: bench/scripts/sim-vs-real.py [--out DIR]     (from the repository root, after `mvn -B install -DskipTests`)

1. Calibrates on the embedded cluster with sleep jobs of static executors: one executor alone,
   three times, then four at once. Their event logs give the grant latency (request to grant, per container) and
   the executor start latency (launch to registration). All NodeManagers share this machine's two
   cores, so the simulator runs with --one-machine (starts anywhere slow each other), and its model
   start_ms * (1 + contention * already_starting) is fitted: start_ms the lone executors' median, the
   contention so that the four-at-once batch has its measured mean. A warm-up job first makes the
   nodes' start-up archives, and a calibration job whose executors did not all start from their
   node's archive is run again, so that the calibration's executors start as the replays' do.
2. Replays each chosen trace on the embedded cluster (`bin/elasticam run trace`) under `spark` and
   `elastic`, and in the simulator with the calibrated latencies, the same settings and two hosts.
3. Prints, per trace and policy, makespan (first stage submitted to last task end) and
   executor-seconds, real and simulated, and the simulator's error; then the same with the start
   model fitted to the `spark` replays' own executor starts instead of the calibration jobs'.
"""
import glob, json, os, re, statistics, subprocess, sys, tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
TRACES = [("spark_yarn_bisectingkmeans_da", 1.0), ("spark_yarn_shell_da", 1.0), ("spark_linkedin_yarn_da", 1.0),
          ("rapids_yarn_rp_sql_da", 1.0)]
POLICIES = ["spark", "elastic"]
# Two NodeManagers on two cores: four executors at most keeps start-up CPU from swamping the tasks.
CONF = {"elasticam.dynamicAllocation.enabled": "true", "elasticam.dynamicAllocation.maxExecutors": "4",
        "elasticam.executor.memory": "384m", "elasticam.shuffle.service.enabled": "true"}
out_dir = sys.argv[sys.argv.index("--out") + 1] if "--out" in sys.argv else tempfile.mkdtemp(prefix="sim-vs-real-")
os.makedirs(out_dir, exist_ok=True)


def conf_args(extra):
    args = []
    for k, v in {**CONF, **extra}.items():
        args += ["--conf", f"{k}={v}"]
    return args


def events(path):
    with open(path) as f:
        return [json.loads(line) for line in f if line.strip()]


def real_run(job, extra):
    r = subprocess.run([os.path.join(ROOT, "bin/elasticam"), "run"] + job + conf_args(extra),
                       capture_output=True, text=True, cwd=ROOT)
    m = re.search(r"event log\s+(\S+)", r.stdout)
    if r.returncode != 0 or not m:
        sys.exit(f"the run failed ({r.returncode}):\n{r.stdout}\n{r.stderr[-3000:]}")
    return events(m.group(1).replace("file:", "", 1))


def figures(ev):
    submitted = min(e["ts"] for e in ev if e["event"] == "stage_submitted")
    last_end = max(e["ts"] for e in ev if e["event"] == "task_end")
    end = [e for e in ev if e["event"] == "app_end"][0]
    return last_end - submitted, float(end["executor_seconds"])


def latencies(ev):
    """Grant latencies, and (already starting on the host, start latency) pairs, from one event log."""
    asks, grants, starts = [], [], []
    for e in ev:
        if e["event"] == "containers_requested":
            asks += [e["ts"]] * int(e["count"])
        elif e["event"] == "container_allocated" and asks:
            grants.append(e["ts"] - asks.pop(0))
    launched = {}
    for e in ev:
        if e["event"] == "executor_launched":
            launched[e["executor_id"]] = (e["ts"], len(launched))
        elif e["event"] == "executor_registered" and e["executor_id"] in launched:
            t, k = launched.pop(e["executor_id"])
            starts.append((k, e["ts"] - t))
    return grants, starts


def fit(alone, batch):
    """start_ms from the lone starts; contention so that the batch's mean latency is matched."""
    a = statistics.median(y for _, y in alone)
    mean_k = statistics.mean(k for k, _ in batch)
    mean_y = statistics.mean(y for _, y in batch)
    return a, max(0.0, (mean_y / a - 1) / mean_k) if mean_k > 0 else 0.0


def simulate(trace, scale, policy, grant, start, contention):
    sim_out = os.path.join(out_dir, "sim")
    cp = os.path.join(ROOT, "sim/target/elasticam-sim-0.1.0-SNAPSHOT.jar") + ":" + open(
        os.path.join(ROOT, "sim/target/classpath.txt")).read().strip()
    subprocess.run(["java", "-cp", cp, "org.elasticam.sim.SimulateMain", "--trace", trace, "--policy", policy,
                    "--time-scale", str(scale), "--grant-ms", str(round(grant)), "--start-ms", str(round(start)),
                    "--start-contention", f"{contention:.3f}", "--one-machine", "--hosts", "2", "--capacity", "7", "--out", sim_out]
                   + conf_args({}), check=True, capture_output=True, text=True)
    name = os.path.basename(trace).replace(".trace.jsonl", "")
    return figures(events(os.path.join(sim_out, f"{name}.{policy}.jsonl")))


static = {"elasticam.dynamicAllocation.enabled": "false"}


def from_archive(ev):
    """Whether every executor of the run started from its node's start-up archive."""
    return all(e.get("start", {}).get("archive") == "used" for e in ev if e["event"] == "executor_registered")


def calibration_run(job, extra, tries=6):
    """A calibration job whose executors all started from their node's archive, as the replays' do.
    Each NodeManager has an archive of its own, made by the first executor there that lives long
    enough; a job whose executors landed on a node without one yet is run again."""
    for _ in range(tries):
        ev = real_run(job, extra)
        if from_archive(ev):
            return ev
    sys.exit(f"no run of {job} in {tries} had all its executors start from the nodes' start-up archives")


# A long-lived cluster's nodes have their start-up archives for the build; a first job after a build
# has not, and its starts would calibrate the simulator slower than every run after it. One job that
# lives long enough to make them comes first; calibration_run makes sure of every node it uses.
print("making the nodes' start-up archives ...", file=sys.stderr)
real_run(["sleep", "--stages", "1", "--tasks", "8", "--task-ms", "5000"], {**static, "elasticam.executor.instances": "4"})
print("calibrating on the embedded cluster ...", file=sys.stderr)
# One lone start is one sample of a machine shared with the NodeManagers and the AM: three, and
# their median.
grants1, alone = [], []
for _ in range(3):
    g, a = latencies(calibration_run(["sleep", "--stages", "1", "--tasks", "2", "--task-ms", "2000"],
                                     {**static, "elasticam.executor.instances": "1"}))
    grants1 += g
    alone += a
grants4, batch = latencies(calibration_run(["sleep", "--stages", "1", "--tasks", "8", "--task-ms", "2000"],
                                           {**static, "elasticam.executor.instances": "4"}))
grant = statistics.median(grants1 + grants4)
start, contention = fit(alone, batch)
print(f"calibration: grant median {grant:.0f} ms over {len(grants1 + grants4)} containers; start {start:.0f} ms "
      f"alone, +{contention:.0%} per executor already starting (starts, as (already starting, ms): alone "
      f"{alone}, four at once {batch})")
print()
print("| trace | time scale | policy | makespan real s | sim s | error | executor-s real | sim | error |")
print("|---|---:|---|---:|---:|---:|---:|---:|---:|")


def trace_file(name):
    return os.path.join(ROOT, "../shared/eventlogs", name + ".trace.jsonl")


def compare(name, scale, policy, ev, start, contention, errors):
    trace = trace_file(name)
    real_ms, real_es = figures(ev)
    sim_ms, sim_es = simulate(trace, scale, policy, grant, start, contention)
    e_ms, e_es = sim_ms / real_ms - 1, sim_es / real_es - 1
    errors.append((abs(e_ms), abs(e_es)))
    print(f"| {name} | {scale} | {policy} | {real_ms / 1000:.1f} | {sim_ms / 1000:.1f} | {e_ms:+.1%} | "
          f"{real_es:.0f} | {sim_es:.0f} | {e_es:+.1%} |", flush=True)


def summary(errors):
    print()
    print(f"worst error: makespan {max(e for e, _ in errors):.1%}, executor-seconds {max(e for _, e in errors):.1%}; "
          f"median: makespan {statistics.median(e for e, _ in errors):.1%}, "
          f"executor-seconds {statistics.median(e for _, e in errors):.1%}")


errors = []
replays = {}
for name, scale in TRACES:
    trace = trace_file(name)
    for policy in POLICIES:
        print(f"{name} {policy} ...", file=sys.stderr)
        replays[(name, scale, policy)] = real_run(["trace", "--file", trace, "--time-scale", str(scale)],
                                                  {"elasticam.dynamicAllocation.policy": policy})
        compare(name, scale, policy, replays[(name, scale, policy)], start, contention, errors)
summary(errors)

# The calibration jobs' executors start while their AM is starting too (its own JVM, registration and
# first allocations on the same two cores); the replays' executors mostly start once the AM has
# settled. The same comparison with the start model fitted to the starts of the `spark` replays
# themselves (the policy whose asks do not depend on the start latency it sees), grants as above:
replay_starts = [s for (_, _, policy), ev in replays.items() if policy == "spark" for s in latencies(ev)[1]]
alone_r = [s for s in replay_starts if s[0] == 0]
batch_r = [s for s in replay_starts if s[0] > 0]
if alone_r and batch_r:
    start_r, contention_r = fit(alone_r, batch_r)
    print()
    print(f"start model from the spark replays' {len(replay_starts)} starts: {start_r:.0f} ms alone (median of "
          f"{len(alone_r)}), +{contention_r:.0%} per executor already starting")
    print()
    print("| trace | time scale | policy | makespan real s | sim s | error | executor-s real | sim | error |")
    print("|---|---:|---|---:|---:|---:|---:|---:|---:|")
    errors_r = []
    for (name, scale, policy), ev in replays.items():
        compare(name, scale, policy, ev, start_r, contention_r, errors_r)
    summary(errors_r)
