package org.elasticam.sim.matrix;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;

/** The matrix's results as markdown: the summary per slice, the cases that miss, and optionally every case. */
final class MatrixReport {

  static final String BOUND = "oracle-start-bound";
  /** How many of the worst cases the report lists by name. */
  static final int WORST_LISTED = 15;

  private MatrixReport() {}

  static String markdown(List<CaseResult> results, String policy, String baseline, boolean everyCase) {
    StringBuilder b = new StringBuilder();
    b.append("| slice | cases | median saving | makespan median | p95 | worst | within 1.03 | over 1.05 |"
        + " executor-s worst | median / start-aware bound |\n");
    b.append("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n");
    List<String> slices = new ArrayList<>(RobustnessMatrix.SLICES);
    slices.add("all");
    for (String slice : slices) {
      List<CaseResult> in = results.stream()
          .filter(r -> slice.equals("all") || r.matrixCase().slice().equals(slice)).toList();
      if (in.isEmpty()) {
        continue;
      }
      MatrixSummary s = MatrixSummary.of(in, policy, baseline);
      b.append(String.format(Locale.ROOT, "| %s | %d | %.1f %% | %.3f | %.3f | %.3f | %.1f %% | %d | %.3f | %.2f |\n",
          slice, s.cases(), 100 * s.medianSaving(), s.medianMakespan(), s.p95Makespan(), s.worstMakespan(),
          100 * s.within(), s.overWorst(), s.worstExecutors(), s.medianVsBound()));
    }
    b.append('\n');
    for (String slice : slices) {
      List<CaseResult> in = results.stream()
          .filter(r -> slice.equals("all") || r.matrixCase().slice().equals(slice)).toList();
      if (!in.isEmpty()) {
        MatrixSummary s = MatrixSummary.of(in, policy, baseline);
        List<String> missed = s.missedTargets();
        b.append("- ").append(slice).append(": ").append(missed.isEmpty() ? "every target met"
            : "missed: " + String.join("; ", missed)).append('\n');
      }
    }
    conformance(results, b);
    b.append("\nSlowest cases (").append(policy).append(" / ").append(baseline).append(" makespan):\n\n");
    table(worst(results, Comparator.comparingDouble(r -> -r.makespanRatio(policy, baseline))), policy, baseline, b);
    b.append("\nCostliest cases (").append(policy).append(" / ").append(baseline).append(" executor-seconds):\n\n");
    table(worst(results, Comparator.comparingDouble(r -> -r.executorRatio(policy, baseline))), policy, baseline, b);
    if (everyCase) {
      b.append("\nEvery case:\n\n");
      table(results, policy, baseline, b);
    }
    return b.toString();
  }

  private static void conformance(List<CaseResult> results, StringBuilder b) {
    List<CaseResult> withRef = results.stream().filter(r -> r.has("spark-reference") && r.has("spark")).toList();
    if (withRef.isEmpty()) {
      return;
    }
    long same = withRef.stream().filter(r -> r.of("spark").equals(r.of("spark-reference"))).count();
    b.append(String.format(Locale.ROOT, "- spark = spark-reference (makespan, executor-seconds, idle, peak) on %d of %d"
        + " cases\n", same, withRef.size()));
  }

  private static List<CaseResult> worst(List<CaseResult> results, Comparator<CaseResult> order) {
    return results.stream().sorted(order.thenComparing(r -> r.matrixCase().id())).limit(WORST_LISTED).toList();
  }

  private static void table(List<CaseResult> rows, String policy, String baseline, StringBuilder b) {
    b.append("| case | conditions | ").append(baseline).append(" makespan s | ").append(policy)
        .append(" makespan s | ratio | ").append(baseline).append(" executor-s | ").append(policy)
        .append(" executor-s | ratio | start-aware bound executor-s | ").append(policy).append(" / bound |\n");
    b.append("|---|---|---:|---:|---:|---:|---:|---:|---:|---:|\n");
    for (CaseResult r : rows) {
      CaseResult.Figures p = r.of(policy);
      CaseResult.Figures q = r.of(baseline);
      CaseResult.Figures bound = r.of(BOUND);
      b.append(String.format(Locale.ROOT, "| %s | %s | %.1f | %.1f | %.3f | %.0f | %.0f | %.3f | %.0f | %.2f |\n",
          r.matrixCase().id(), r.matrixCase().conditions().describe(), q.makespanMs() / 1000.0,
          p.makespanMs() / 1000.0, r.makespanRatio(policy, baseline), q.executorMs() / 1000.0,
          p.executorMs() / 1000.0, r.executorRatio(policy, baseline), bound.executorMs() / 1000.0,
          (double) p.executorMs() / Math.max(1, bound.executorMs())));
    }
  }
}
