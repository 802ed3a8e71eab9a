package org.elasticam.time;

import java.time.Duration;

/**
 * The only way ElasticAM code waits: work to run later, or every so often, on the thread that owns
 * the state it touches. The AM's event loop is one; {@link ManualScheduler} is the one tests and
 * the simulator drive, moving its {@link ManualClock} by hand so nothing waits for real.
 */
public interface Scheduler {

  /** Runs {@code task} once {@code delay} has passed (at once for a delay of zero or less). */
  Cancellable schedule(Duration delay, Runnable task);

  /** Runs {@code task} every {@code period}, the first time one period from now. */
  Cancellable every(Duration period, Runnable task);

  /** A scheduled task that has not run yet can be withdrawn. */
  @FunctionalInterface
  interface Cancellable {
    void cancel();
  }
}
