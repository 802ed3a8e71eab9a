package org.elasticam.sim.matrix;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;

/**
 * A policy against a baseline over matrix cases, and the targets the default policy must meet:
 * no case more than {@link #MAKESPAN_WORST} x the baseline's makespan and at least
 * {@link #WITHIN_SHARE} of cases within {@link #MAKESPAN_MOST}; at least {@link #MEDIAN_SAVING} fewer
 * executor-seconds on the median case and no case above {@link #EXECUTOR_WORST} x; executor-seconds
 * at most {@link #BOUND_MEDIAN} x the start-aware bound on the median case.
 *
 * @param medianSaving 1 - policy / baseline executor-seconds, median over the cases
 * @param p95Makespan the 95th percentile (nearest rank) of policy / baseline makespan
 * @param within share of cases whose makespan ratio is at most {@link #MAKESPAN_MOST}
 * @param medianVsBound policy executor-seconds / start-aware bound, median over the cases
 */
public record MatrixSummary(String policy, String baseline, int cases, double medianSaving, double medianMakespan,
    double worstMakespan, String worstMakespanCase, double p95Makespan, double within, int overWorst,
    double worstExecutors, String worstExecutorsCase, double medianVsBound) {

  public static final double MAKESPAN_WORST = 1.05;
  public static final double MAKESPAN_MOST = 1.03;
  public static final double WITHIN_SHARE = 0.95;
  public static final double MEDIAN_SAVING = 0.25;
  public static final double EXECUTOR_WORST = 1.25;
  public static final double BOUND_MEDIAN = 1.15;

  public static MatrixSummary of(List<CaseResult> results, String policy, String baseline) {
    if (results.isEmpty()) {
      throw new IllegalArgumentException("no case to summarise");
    }
    List<Double> saving = new ArrayList<>();
    List<Double> makespan = new ArrayList<>();
    List<Double> vsBound = new ArrayList<>();
    CaseResult slowest = results.get(0);
    CaseResult costliest = results.get(0);
    int over = 0;
    int within = 0;
    for (CaseResult r : results) {
      double m = r.makespanRatio(policy, baseline);
      double e = r.executorRatio(policy, baseline);
      saving.add(1 - e);
      makespan.add(m);
      vsBound.add((double) r.of(policy).executorMs() / Math.max(1, r.of("oracle-start-bound").executorMs()));
      slowest = m > slowest.makespanRatio(policy, baseline) ? r : slowest;
      costliest = e > costliest.executorRatio(policy, baseline) ? r : costliest;
      over += m > MAKESPAN_WORST ? 1 : 0;
      within += m <= MAKESPAN_MOST ? 1 : 0;
    }
    return new MatrixSummary(policy, baseline, results.size(), median(saving), median(makespan),
        slowest.makespanRatio(policy, baseline), slowest.matrixCase().id(), percentile(makespan, 0.95),
        (double) within / results.size(), over, costliest.executorRatio(policy, baseline),
        costliest.matrixCase().id(), median(vsBound));
  }

  /** The targets this summary misses, one line each; empty when it meets them all. */
  public List<String> missedTargets() {
    List<String> out = new ArrayList<>();
    if (worstMakespan > MAKESPAN_WORST) {
      out.add(String.format(Locale.ROOT, "%d case(s) over %.2f x %s's makespan, worst %.3f (%s)", overWorst,
          MAKESPAN_WORST, baseline, worstMakespan, worstMakespanCase));
    }
    if (within < WITHIN_SHARE) {
      out.add(String.format(Locale.ROOT, "%.1f %% of cases within %.2f x %s's makespan (target %.0f %%)",
          100 * within, MAKESPAN_MOST, baseline, 100 * WITHIN_SHARE));
    }
    if (medianSaving < MEDIAN_SAVING) {
      out.add(String.format(Locale.ROOT, "median executor-seconds saving %.1f %% (target %.0f %%)",
          100 * medianSaving, 100 * MEDIAN_SAVING));
    }
    if (worstExecutors > EXECUTOR_WORST) {
      out.add(String.format(Locale.ROOT, "executor-seconds %.3f x %s's on %s (target at most %.2f)", worstExecutors,
          baseline, worstExecutorsCase, EXECUTOR_WORST));
    }
    if (medianVsBound > BOUND_MEDIAN) {
      out.add(String.format(Locale.ROOT, "median executor-seconds %.2f x the start-aware bound (target %.2f)",
          medianVsBound, BOUND_MEDIAN));
    }
    return out;
  }

  /** One line for people. */
  public String describe() {
    return String.format(Locale.ROOT, "%s vs %s over %d cases: median saving %.1f %%; makespan median %.3f, p95 %.3f,"
        + " worst %.3f (%s), %.1f %% within %.2f, %d over %.2f; executor-seconds worst %.3f (%s);"
        + " median %.2f x the start-aware bound", policy, baseline, cases, 100 * medianSaving, medianMakespan,
        p95Makespan, worstMakespan, worstMakespanCase, 100 * within, MAKESPAN_MOST, overWorst, MAKESPAN_WORST,
        worstExecutors, worstExecutorsCase, medianVsBound);
  }

  static double median(List<Double> values) {
    List<Double> v = new ArrayList<>(values);
    v.sort(Comparator.naturalOrder());
    int n = v.size();
    return n % 2 == 1 ? v.get(n / 2) : (v.get(n / 2 - 1) + v.get(n / 2)) / 2;
  }

  /** Nearest rank: the smallest value with at least {@code q} of the values at or below it. */
  static double percentile(List<Double> values, double q) {
    List<Double> v = new ArrayList<>(values);
    v.sort(Comparator.naturalOrder());
    int rank = (int) Math.ceil(q * v.size());
    return v.get(Math.max(0, rank - 1));
  }
}
