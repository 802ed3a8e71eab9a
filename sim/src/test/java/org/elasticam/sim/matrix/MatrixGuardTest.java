package org.elasticam.sim.matrix;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.junit.jupiter.api.Test;

/**
 * The regression guard of the robustness matrix: the default policy against {@code spark} on a
 * fixed slice of the matrix ({@link RobustnessMatrix#guard}, every 17th tuning case), in the
 * simulator, which is deterministic. It fails when any case breaks a per-case target of issue 25 —
 * makespan at most {@link MatrixSummary#MAKESPAN_WORST} x Spark's, executor-seconds at most
 * {@link MatrixSummary#EXECUTOR_WORST} x — beyond the known misses below, or when a known miss gets
 * worse than it is. It asserts simulated figures only, never wall time.
 *
 * <p>Recorded traces come from {@code ../shared/eventlogs}; without them only the synthetic
 * workloads' cases run.
 */
class MatrixGuardTest {

  static final Path EVENTLOGS = Path.of("../../shared/eventlogs");

  @Test
  void theDefaultPolicyKeepsItsTargetsOnTheGuardSlice() {
    List<String> traces = MatrixRunner.traceNames(EVENTLOGS);
    MatrixRunner runner = new MatrixRunner(EVENTLOGS, List.of("spark", "elastic"));
    List<String> broken = new ArrayList<>();
    List<String> lines = new ArrayList<>();
    for (MatrixCase c : RobustnessMatrix.guard(traces)) {
      CaseResult r = runner.runPolicies(c);
      double makespan = r.makespanRatio("elastic", "spark");
      double executors = r.executorRatio("elastic", "spark");
      String line = String.format(Locale.ROOT, "%s (%s): makespan %.3f x spark's, executor-seconds %.3f x", c.id(),
          c.conditions().describe(), makespan, executors);
      lines.add(line);
      KnownMiss known = KnownMiss.of(c.id());
      if (makespan > Math.max(MatrixSummary.MAKESPAN_WORST, known.makespan())
          || executors > Math.max(MatrixSummary.EXECUTOR_WORST, known.executors())) {
        broken.add(line);
      }
    }
    assertTrue(broken.isEmpty(), "cases past the targets:\n" + String.join("\n", broken) + "\n\nevery case:\n"
        + String.join("\n", lines));
  }

  /**
   * Cases of the slice the policy misses a target on today (BENCHMARKS.md, "Robustness matrix"),
   * with the figures they may not exceed: the guard holds them where they are until a rule brings
   * them within the targets.
   */
  record KnownMiss(String id, double makespan, double executors) {
    static final List<KnownMiss> ALL = List.of(
        // Executor-seconds: elastic asks for executors Spark's slow ramp never does, and is faster for it.
        new KnownMiss("tuning/rapids_emr_join_agg_da/d5", 0, 1.408),
        new KnownMiss("tuning/rapids_nds_q66_gpu_yarn/slow-small-ts0.1", 0, 1.362),
        new KnownMiss("tuning/rapids_yarn_exec_failures/fast", 0, 1.320),
        new KnownMiss("tuning/etl-chain#3/d5", 0, 1.486),
        // Makespan: 6-core executors, stages of short tasks one after another.
        new KnownMiss("tuning/wide-short#1/d2", 1.094, 0));

    static KnownMiss of(String id) {
      return ALL.stream().filter(k -> k.id.equals(id)).findFirst().orElse(new KnownMiss(id, 0, 0));
    }
  }
}
