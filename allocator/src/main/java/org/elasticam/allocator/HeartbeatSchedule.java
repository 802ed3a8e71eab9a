package org.elasticam.allocator;

import org.elasticam.conf.ElasticConf;
import org.elasticam.conf.YarnKeys;

/**
 * When the AM heartbeats to the ResourceManager. YARN delivers grants only in allocate responses,
 * so the schedule decides how soon a grant the scheduler has made reaches the AM.
 *
 * <p>While requests are pending (or the target lacks executors), Spark's schedule: heartbeats
 * {@code initial} apart, the gap doubling up to {@code interval}; a target change restarts it.
 * Ours adds heartbeats {@code firstPolls} apart inside the schedule's first gap: a cluster whose
 * NodeManagers heartbeat often grants within tens of milliseconds, and waiting out Spark's first
 * 200 ms made that latency up to 200 ms. The heartbeats after the first gap are Spark's, so every
 * heartbeat of Spark's schedule is also one of ours and no grant reaches us later than under it;
 * the cost is at most {@code initial / firstPolls - 1} more allocate calls per target change. With
 * nothing pending, one heartbeat per {@code interval}.
 *
 * <p>The AM's heartbeat thread and the simulator both keep their schedule here, so the simulated
 * grants arrive when the AM's would.
 */
public final class HeartbeatSchedule {

  /**
   * @param firstPollsMs the gap between heartbeats within the first gap after a restart; at or above
   *     {@code initialMs}, Spark's schedule exactly
   * @param initialMs Spark's first gap while requests are pending
   * @param intervalMs the gap with nothing pending, and the cap of the doubling
   */
  public record Intervals(long firstPollsMs, long initialMs, long intervalMs) {
    public Intervals {
      if (firstPollsMs < 1 || initialMs < 1 || intervalMs < 1) {
        throw new IllegalArgumentException("heartbeat intervals must be >= 1 ms: " + firstPollsMs + ", " + initialMs
            + ", " + intervalMs);
      }
      initialMs = Math.min(initialMs, intervalMs);
      firstPollsMs = Math.min(firstPollsMs, initialMs);
    }

    /** The configuration's schedule: {@code elasticam.yarn.heartbeat.interval} and the initial allocation's keys. */
    public static Intervals of(ElasticConf conf) {
      return of(conf, conf.get(YarnKeys.HEARTBEAT_INTERVAL).toMillis());
    }

    /** The configuration's schedule with another heartbeat interval (the simulators' flag). */
    public static Intervals of(ElasticConf conf, long heartbeatMs) {
      return new Intervals(conf.get(YarnKeys.INITIAL_ALLOCATION_FIRST_POLLS).toMillis(),
          conf.get(YarnKeys.INITIAL_ALLOCATION_INTERVAL).toMillis(), heartbeatMs);
    }

    /** Spark's schedule alone: no heartbeats inside the first gap. */
    public static Intervals spark(long initialMs, long intervalMs) {
      return new Intervals(initialMs, initialMs, intervalMs);
    }
  }

  private final Intervals intervals;
  /** Time slept since the last restart while requests were pending. */
  private long sinceRestartMs;
  /** The next gap of the doubling phase. */
  private long gapMs;

  public HeartbeatSchedule(Intervals intervals) {
    this.intervals = intervals;
    restart();
  }

  /** The target changed: the caller heartbeats now, and the fast part of the schedule starts again. */
  public void restart() {
    sinceRestartMs = 0;
    // The first gap is covered by the first polls (one poll when they are as long as it), so the
    // doubling goes on from its second gap.
    gapMs = Math.min(2 * intervals.initialMs(), intervals.intervalMs());
  }

  /**
   * How long to wait after a heartbeat.
   *
   * @param pending whether requests are pending after it, or the target lacks executors
   */
  public long sleepAfterHeartbeat(boolean pending) {
    if (!pending) {
      restart();
      return intervals.intervalMs();
    }
    long sleep;
    if (sinceRestartMs < intervals.initialMs()) {
      sleep = Math.min(intervals.firstPollsMs(), intervals.initialMs() - sinceRestartMs);
    } else {
      sleep = gapMs;
      gapMs = Math.min(gapMs * 2, intervals.intervalMs());
    }
    sinceRestartMs += sleep;
    return sleep;
  }

  /**
   * From a restart, with requests pending throughout, the first heartbeat at or after {@code delayMs}:
   * when a grant the ResourceManager can make {@code delayMs} after the ask reaches the AM.
   */
  public static long firstHeartbeatAtOrAfter(Intervals intervals, long delayMs) {
    HeartbeatSchedule s = new HeartbeatSchedule(intervals);
    long beat = 0;
    while (beat < delayMs) {
      beat += s.sleepAfterHeartbeat(true);
    }
    return beat;
  }
}
