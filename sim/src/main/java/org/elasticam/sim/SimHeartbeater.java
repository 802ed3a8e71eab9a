package org.elasticam.sim;

import java.util.function.BooleanSupplier;
import org.elasticam.allocator.HeartbeatSchedule;

/**
 * The AM's heartbeats on simulated time, as its Heartbeater makes them: when, from {@link
 * HeartbeatSchedule}; a target change heartbeats at once and restarts the schedule.
 */
final class SimHeartbeater {

  private final EventQueue time;
  private final Runnable heartbeat;
  private final BooleanSupplier requestsPending;
  private final HeartbeatSchedule schedule;
  /** Bumped by a wake-up, so the beat scheduled before it is dropped instead of doubling up. */
  private long generation;

  /**
   * @param heartbeat one heartbeat: reconcile, allocate, handle the response
   * @param requestsPending whether requests are pending after it, or the next heartbeat will make some
   */
  SimHeartbeater(EventQueue time, Runnable heartbeat, BooleanSupplier requestsPending,
      HeartbeatSchedule.Intervals intervals) {
    this.time = time;
    this.heartbeat = heartbeat;
    this.requestsPending = requestsPending;
    this.schedule = new HeartbeatSchedule(intervals);
  }

  /** The AM registered: the first heartbeat goes out at once. */
  void start() {
    long g = generation;
    time.after(0, () -> beat(g));
  }

  /** The target changed: heartbeat now, and restart the fast schedule. */
  void wakeUp() {
    long g = ++generation;
    schedule.restart();
    time.after(0, () -> beat(g));
  }

  private void beat(long g) {
    if (g != generation) {
      return;
    }
    heartbeat.run();
    long sleep = schedule.sleepAfterHeartbeat(requestsPending.getAsBoolean());
    time.after(sleep, () -> beat(g));
  }
}
