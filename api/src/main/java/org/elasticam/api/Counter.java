package org.elasticam.api;

/**
 * A named count of one task attempt, from {@link TaskContext#counter(String)}: what the attempt adds
 * is reported with its end, and a stage's counters are the sums over its tasks (see {@link Counters}).
 * Safe to add to from any of the attempt's threads.
 */
public interface Counter {

  /** Adds {@code n} (which may be negative) to this counter. */
  void add(long n);

  /** Adds one. */
  default void increment() {
    add(1);
  }

  /** What this attempt has added so far. */
  long value();
}
