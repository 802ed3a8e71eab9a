package org.elasticam.sim;

import java.time.Duration;
import java.util.PriorityQueue;
import org.elasticam.time.Clock;
import org.elasticam.time.ManualClock;
import org.elasticam.time.Scheduler;

/**
 * Simulated time and what happens when: actions ordered by time, and by the order they were
 * scheduled among those due at the same millisecond, so a run never depends on anything but its
 * inputs. Time jumps from one action to the next; nothing here reads the wall clock. The job engine
 * schedules its work here as it does on the AM's event loop.
 */
final class EventQueue implements Scheduler {

  private record Entry(long atMs, long seq, Runnable action) {}

  private final ManualClock clock = new ManualClock(0);
  private final PriorityQueue<Entry> queue = new PriorityQueue<>((a, b) -> a.atMs != b.atMs
      ? Long.compare(a.atMs, b.atMs) : Long.compare(a.seq, b.seq));
  private long nextSeq;
  private long executed;
  private boolean stopped;

  /** Milliseconds since the simulated application started. */
  long now() {
    return clock.nowMs();
  }

  /** Simulated time, for what takes a {@link Clock}. */
  Clock clock() {
    return clock;
  }

  /** Runs {@code action} at {@code atMs}; a time already past means now, after what is already due. */
  void at(long atMs, Runnable action) {
    if (!stopped) {
      queue.add(new Entry(Math.max(atMs, now()), nextSeq++, action));
    }
  }

  void after(long delayMs, Runnable action) {
    at(now() + Math.max(0, delayMs), action);
  }

  @Override
  public Cancellable schedule(Duration delay, Runnable task) {
    boolean[] cancelled = {false};
    after(delay.toMillis(), () -> {
      if (!cancelled[0]) {
        task.run();
      }
    });
    return () -> cancelled[0] = true;
  }

  @Override
  public Cancellable every(Duration period, Runnable task) {
    long periodMs = Math.max(1, period.toMillis());
    boolean[] cancelled = {false};
    Runnable[] next = new Runnable[1];
    next[0] = () -> {
      if (!cancelled[0]) {
        task.run();
        after(periodMs, next[0]);
      }
    };
    after(periodMs, next[0]);
    return () -> cancelled[0] = true;
  }

  /** Runs the next action; false once nothing is left or the run was stopped. */
  boolean runNext() {
    Entry e = queue.poll();
    if (e == null || stopped) {
      return false;
    }
    clock.setMs(e.atMs);
    e.action.run();
    executed++;
    return true;
  }

  /** Drops everything still scheduled: the simulated application has ended. */
  void stop() {
    stopped = true;
    queue.clear();
  }

  /** Actions run so far: the simulator's speed is these per wall-clock second. */
  long executed() {
    return executed;
  }

  boolean stopped() {
    return stopped;
  }
}
