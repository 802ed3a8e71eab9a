package org.elasticam.conf;

/** The batch dynamic-allocation policies ({@code elasticam.dynamicAllocation.policy}). */
public enum BatchPolicy {
  /** Spark's ExecutorAllocationManager, decision for decision. */
  SPARK,
  /** Ours: estimates what the backlog needs from what it observes. */
  ELASTIC
}
