#!/usr/bin/env python3
"""The robustness matrix: spark and elastic (and spark-reference where built) on every shared trace
and the seeded synthetic workloads, under cluster conditions drawn over the ranges real clusters
have and their corners (sim/.../matrix/RobustnessMatrix.java), in the simulator.

usage: bench/scripts/robustness-matrix.py [--slice tuning|heldout|all] [--out DIR] [--parts N]
                                          [--threads N] [--match S] [--no-build]
  (from the repository root)

Builds the simulator (and bench/spark-reference) with Maven, then runs the cases in N parts, each
part one JVM holding the shared machine lock /tmp/elasticam-mvn.lock (so that no single hold is
long), appending one JSON line per case to DIR/matrix.jsonl; a case already there is not run again,
so an interrupted run resumes. Then writes DIR/report.md (the summary per slice, the slowest and
costliest cases, every case) and prints the summary. Deterministic: the same commit gives the same
figures.
"""
import argparse, os, subprocess, sys

root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
LOCK = "/tmp/elasticam-mvn.lock"
ap = argparse.ArgumentParser()
ap.add_argument("--slice", default="all", choices=["tuning", "heldout", "all"])
ap.add_argument("--out", default=os.path.join(root, "target", "robustness-matrix"))
ap.add_argument("--parts", type=int, default=12)
ap.add_argument("--threads", type=int, default=1)
ap.add_argument("--match", default="")
ap.add_argument("--no-build", action="store_true")
ap.add_argument("--policies", default=None, help="default: spark-reference (where built), spark, elastic")
a = ap.parse_args()

if not a.no_build:
    subprocess.run(["flock", LOCK, "mvn", "-B", "-q", "-o", "package", "-DskipTests", "-pl", "sim,bench/spark-reference",
                    "-am"], cwd=root, check=True)
sim_jar = os.path.join(root, "sim/target/elasticam-sim-0.1.0-SNAPSHOT.jar")
cp = sim_jar + ":" + open(os.path.join(root, "sim/target/classpath.txt")).read().strip()
ref_jar = os.path.join(root, "bench/spark-reference/target/elasticam-spark-reference-0.1.0-SNAPSHOT.jar")
ref_cp = os.path.join(root, "bench/spark-reference/target/classpath.txt")
with_ref = os.path.exists(ref_jar) and os.path.exists(ref_cp)
if with_ref:
    cp = sim_jar + ":" + ref_jar + ":" + open(ref_cp).read().strip()
policies = a.policies or (("spark-reference," if with_ref else "") + "spark,elastic")
java = ["java", "-Xmx3g", "--add-opens=java.base/java.lang=ALL-UNNAMED", "--add-opens=java.base/java.nio=ALL-UNNAMED",
        "--add-opens=java.base/sun.nio.ch=ALL-UNNAMED", "--add-opens=java.base/java.util=ALL-UNNAMED", "-cp", cp,
        "org.elasticam.sim.matrix.MatrixMain"]
traces = os.path.normpath(os.path.join(root, "..", "shared", "eventlogs"))
os.makedirs(a.out, exist_ok=True)
results = os.path.join(a.out, "matrix.jsonl")
for i in range(1, a.parts + 1):
    print(f"robustness-matrix: part {i}/{a.parts}", file=sys.stderr, flush=True)
    subprocess.run(["flock", LOCK] + java + ["run", "--traces", traces, "--slice", a.slice, "--policies", policies,
                                             "--part", f"{i}/{a.parts}", "--threads", str(a.threads),
                                             "--match", a.match, "--out", results], check=True)
report = subprocess.run(java + ["report", results, "--cases"], check=True, capture_output=True, text=True).stdout
commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=root, capture_output=True, text=True).stdout.strip()
dirty = subprocess.run(["git", "status", "--porcelain", "--untracked-files=no"], cwd=root, capture_output=True,
                       text=True).stdout.strip()
header = f"Robustness matrix at {commit}{' (with uncommitted changes)' if dirty else ''}: bench/scripts/robustness-matrix.py --slice {a.slice}\n\n"
open(os.path.join(a.out, "report.md"), "w").write(header + report)
print(header + report.split("\nEvery case:")[0])
