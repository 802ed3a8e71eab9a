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

  /**
   * Waits {@code ms} milliseconds, for code that must block its own thread between tries (a manual
   * clock moves instead of waiting). Work on the AM's event loop never blocks: it schedules.
   */
  default void sleep(long ms) throws InterruptedException {
    Thread.sleep(ms);
  }

  static Clock system() {
    return SystemClock.INSTANCE;
  }
}
