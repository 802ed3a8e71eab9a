package org.elasticam.time;

/**
 * The only way ElasticAM code reads time. Production uses {@link #system()}; tests and the
 * simulator use {@link ManualClock}, so every decision is a deterministic function of the time it
 * was given.
 */
@FunctionalInterface
public interface Clock {

  /**
   * Milliseconds since the epoch. Never goes backwards: the system clock reads a monotonic source
   * anchored at the wall-clock time the JVM started, so deadlines survive wall-clock steps.
   */
  long nowMs();

  static Clock system() {
    return SystemClock.INSTANCE;
  }
}
