#!/usr/bin/env python3
"""Runs the simulator on every trace and checks issue 4's and issue 8's targets.

usage: bench/scripts/compare-policies.py [--conf k=v ...]   (from the repository root, after a build)
Prints a markdown table per trace and the targets: elastic's executor-seconds saving against
spark on the median trace (goal >= 25%), its worst makespan ratio (goal <= 1.03), and its
executor-seconds against the oracle's on the median trace (goal <= 1.5). Where bench/spark-reference
is built (mvn -B install -DskipTests -pl bench/spark-reference -am), Spark's own manager runs too,
and the figures of our spark policy are checked against it.
"""
import glob, json, os, statistics, subprocess, sys

root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
cp = os.path.join(root, "sim/target/elasticam-sim-0.1.0-SNAPSHOT.jar") + ":" + open(
    os.path.join(root, "sim/target/classpath.txt")).read().strip()
ref_jar = os.path.join(root, "bench/spark-reference/target/elasticam-spark-reference-0.1.0-SNAPSHOT.jar")
ref_cp = os.path.join(root, "bench/spark-reference/target/classpath.txt")
with_ref = os.path.exists(ref_jar) and os.path.exists(ref_cp)
if with_ref:
    cp = os.path.join(root, "sim/target/elasticam-sim-0.1.0-SNAPSHOT.jar") + ":" + ref_jar + ":" + open(ref_cp).read().strip()
policies = (["spark-reference"] if with_ref else []) + ["spark", "elastic", "oracle"]
extra = sys.argv[1:]
rows = []
for trace in sorted(glob.glob(os.path.join(root, "../shared/eventlogs/*.trace.jsonl"))):
    out = subprocess.run(["java", "--add-opens=java.base/java.lang=ALL-UNNAMED", "--add-opens=java.base/java.nio=ALL-UNNAMED",
                          "--add-opens=java.base/sun.nio.ch=ALL-UNNAMED", "--add-opens=java.base/java.util=ALL-UNNAMED", "-cp", cp, "org.elasticam.sim.SimulateMain", "--trace", trace, "--policy", "all",
                          "--grant-ms", "200", "--start-ms", "1000", "--capacity", "500", "--json"] + extra,
                         capture_output=True, text=True, check=True).stdout
    res = {j["policy"]: j for j in map(json.loads, out.strip().splitlines())}
    rows.append((os.path.basename(trace).replace(".trace.jsonl", ""), res))

print("| trace | policy | makespan s | executor-s | idle executor-s | time to full parallelism s | peak |")
print("|---|---|---:|---:|---:|---:|---:|")
for name, res in rows:
    for p in policies:
        r = res[p]
        print(f"| {name} | {p} | {r['makespan_ms']/1000:.1f} | {r['executor_seconds']:.0f} | "
              f"{r['idle_executor_seconds']:.0f} | {r['time_to_full_parallelism_ms']/1000:.1f} | {r['peak_executors']} |")

saving = [1 - res["elastic"]["executor_seconds"] / res["spark"]["executor_seconds"] for _, res in rows]
makespan = [res["elastic"]["makespan_ms"] / res["spark"]["makespan_ms"] for _, res in rows]
vs_oracle = [res["elastic"]["executor_seconds"] / res["oracle"]["executor_seconds"] for _, res in rows]
print()
print(f"elastic vs spark executor-seconds saving: median {statistics.median(saving):.1%} "
      f"(per trace: {', '.join(f'{s:.0%}' for s in saving)})")
worst = max(range(len(rows)), key=lambda i: makespan[i])
print(f"elastic / spark makespan: worst {makespan[worst]:.3f} ({rows[worst][0]}), median {statistics.median(makespan):.3f}")
print(f"elastic / oracle executor-seconds: median {statistics.median(vs_oracle):.2f}")
if with_ref:
    same = [name for name, res in rows if all(res["spark"][k] == res["spark-reference"][k] for k in
            ("makespan_ms", "executor_seconds", "idle_executor_seconds", "peak_executors", "requests_added",
             "requests_cancelled", "executors_killed"))]
    print(f"spark = spark-reference on every figure: {len(same)} of {len(rows)} traces")
    ref_saving = [1 - res["elastic"]["executor_seconds"] / res["spark-reference"]["executor_seconds"] for _, res in rows]
    ref_makespan = [res["elastic"]["makespan_ms"] / res["spark-reference"]["makespan_ms"] for _, res in rows]
    print(f"elastic vs spark-reference executor-seconds saving: median {statistics.median(ref_saving):.1%}; "
          f"makespan worst {max(ref_makespan):.3f}, median {statistics.median(ref_makespan):.3f}")
