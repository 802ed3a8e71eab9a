package org.elasticam.sim;

import java.util.function.BooleanSupplier;

/**
 * The AM's heartbeat schedule, as its Heartbeater keeps it: while requests are pending or the
 * target lacks executors, the initial allocation interval doubling up to the heartbeat interval;
 * otherwise the heartbeat interval; a target change heartbeats at once and restarts the doubling.
 */
final class SimHeartbeater {

  private final EventQueue time;
  private final Runnable heartbeat;
  private final BooleanSupplier requestsPending;
  private final long initialMs;
  private final long intervalMs;
  private long nextMs;
  /** Bumped by a wake-up, so the beat scheduled before it is dropped instead of doubling up. */
  private long generation;

  /**
   * @param heartbeat one heartbeat: reconcile, allocate, handle the response
   * @param requestsPending whether requests are pending after it, or the next heartbeat will make some
   */
  SimHeartbeater(EventQueue time, Runnable heartbeat, BooleanSupplier requestsPending, long initialMs,
      long intervalMs) {
    this.time = time;
    this.heartbeat = heartbeat;
    this.requestsPending = requestsPending;
    this.initialMs = initialMs;
    this.intervalMs = intervalMs;
    this.nextMs = initialMs;
  }

  /** The AM registered: the first heartbeat goes out at once. */
  void start() {
    long g = generation;
    time.after(0, () -> beat(g));
  }

  /** The target changed: heartbeat now, and restart the fast schedule. */
  void wakeUp() {
    long g = ++generation;
    nextMs = initialMs;
    time.after(0, () -> beat(g));
  }

  private void beat(long g) {
    if (g != generation) {
      return;
    }
    heartbeat.run();
    boolean pending = requestsPending.getAsBoolean();
    long sleep = pending ? Math.min(nextMs, intervalMs) : intervalMs;
    nextMs = pending ? Math.min(nextMs * 2, intervalMs) : initialMs;
    time.after(sleep, () -> beat(g));
  }
}
