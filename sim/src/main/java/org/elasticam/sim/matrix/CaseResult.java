package org.elasticam.sim.matrix;

import java.util.Map;

/**
 * What one matrix case came to: per policy (and {@code oracle}, {@code oracle-start-bound}) its
 * figures.
 */
public record CaseResult(MatrixCase matrixCase, Map<String, Figures> byPolicy) {

  /** One policy's figures on the case, in milliseconds. */
  public record Figures(long makespanMs, long executorMs, long idleExecutorMs, int peakExecutors) {}

  public CaseResult {
    byPolicy = Map.copyOf(byPolicy);
  }

  public Figures of(String policy) {
    Figures f = byPolicy.get(policy);
    if (f == null) {
      throw new IllegalArgumentException(matrixCase.id() + " has no run of " + policy);
    }
    return f;
  }

  public boolean has(String policy) {
    return byPolicy.containsKey(policy);
  }

  /** {@code policy}'s makespan over {@code baseline}'s. */
  public double makespanRatio(String policy, String baseline) {
    return (double) of(policy).makespanMs() / Math.max(1, of(baseline).makespanMs());
  }

  /** {@code policy}'s executor-seconds over {@code baseline}'s. */
  public double executorRatio(String policy, String baseline) {
    return (double) of(policy).executorMs() / Math.max(1, of(baseline).executorMs());
  }
}
