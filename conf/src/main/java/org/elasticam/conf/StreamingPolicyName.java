package org.elasticam.conf;

/**
 * The names {@code elasticam.streaming.dynamicAllocation.policy} accepts; the policies themselves
 * are {@code allocator.streaming.StreamingPolicy}.
 */
public enum StreamingPolicyName {
  /** The streaming design we follow: greedy scale-up on delay, release in rounds. */
  ROUNDS,
  /** Spark's DStreams rule: processing/duration ratio against two thresholds. */
  RATIO,
  /** Ours: a fitted model of processing time against executors and records. */
  MODEL
}
