package org.elasticam.conf;

/** The streaming dynamic-allocation policies ({@code elasticam.streaming.dynamicAllocation.policy}). */
public enum StreamingPolicy {
  /** The streaming design we follow: greedy scale-up on delay, release in rounds. */
  ROUNDS,
  /** Spark's DStreams rule: processing/duration ratio against two thresholds. */
  RATIO,
  /** Ours: a fitted model of processing time against executors and records. */
  MODEL
}
