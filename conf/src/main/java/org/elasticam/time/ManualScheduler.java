package org.elasticam.time;

import java.time.Duration;
import java.util.PriorityQueue;

/**
 * A {@link Scheduler} on a {@link ManualClock}: tasks run only inside {@link #advance}, in the
 * order of their due times (the order they were scheduled in for equal times), each with the
 * clock set to its due time. Not thread-safe: the test's one thread drives it.
 */
public final class ManualScheduler implements Scheduler {

  private final ManualClock clock;
  private final PriorityQueue<Due> queue = new PriorityQueue<>();
  private long sequence;

  public ManualScheduler(ManualClock clock) {
    this.clock = clock;
  }

  public ManualClock clock() {
    return clock;
  }

  @Override
  public Cancellable schedule(Duration delay, Runnable task) {
    Handle h = new Handle();
    queue.add(new Due(clock.nowMs() + Math.max(0, delay.toMillis()), sequence++, task, 0, h));
    return h;
  }

  @Override
  public Cancellable every(Duration period, Runnable task) {
    long p = period.toMillis();
    if (p <= 0) {
      throw new IllegalArgumentException("a period must be positive: " + period);
    }
    Handle h = new Handle();
    queue.add(new Due(clock.nowMs() + p, sequence++, task, p, h));
    return h;
  }

  /** Moves time forward by {@code d}, running every task that falls due on the way. */
  public void advance(Duration d) {
    advanceTo(clock.nowMs() + d.toMillis());
  }

  /** Moves time forward to {@code untilMs}, running every task due by then. */
  public void advanceTo(long untilMs) {
    while (!queue.isEmpty() && queue.peek().atMs <= untilMs) {
      Due d = queue.poll();
      if (d.handle.cancelled) {
        continue;
      }
      clock.setMs(Math.max(clock.nowMs(), d.atMs));
      if (d.periodMs > 0) {
        queue.add(new Due(d.atMs + d.periodMs, sequence++, d.task, d.periodMs, d.handle));
      }
      d.task.run();
    }
    clock.setMs(Math.max(clock.nowMs(), untilMs));
  }

  /** Runs what is due now without moving time. */
  public void runDue() {
    advanceTo(clock.nowMs());
  }

  /** Tasks waiting, periodic ones counted once. */
  public int pending() {
    int n = 0;
    for (Due d : queue) {
      n += d.handle.cancelled ? 0 : 1;
    }
    return n;
  }

  private static final class Handle implements Cancellable {
    boolean cancelled;

    @Override
    public void cancel() {
      cancelled = true;
    }
  }

  private static final class Due implements Comparable<Due> {
    final long atMs;
    final long seq;
    final Runnable task;
    final long periodMs;
    final Handle handle;

    Due(long atMs, long seq, Runnable task, long periodMs, Handle handle) {
      this.atMs = atMs;
      this.seq = seq;
      this.task = task;
      this.periodMs = periodMs;
      this.handle = handle;
    }

    @Override
    public int compareTo(Due o) {
      return atMs != o.atMs ? Long.compare(atMs, o.atMs) : Long.compare(seq, o.seq);
    }
  }
}
