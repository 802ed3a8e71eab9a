package org.elasticam.sim.streaming;

import java.util.PriorityQueue;

/**
 * Simulated time and what happens when, ordered by time and then by scheduling order, so a run
 * depends on nothing but its inputs. The batch simulator's {@code EventQueue} is private to its
 * package; this is the same rule in the few lines a streaming run needs.
 */
final class Events {

  private record Entry(long atMs, long seq, Runnable action) {}

  private final PriorityQueue<Entry> queue = new PriorityQueue<>((a, b) -> a.atMs != b.atMs
      ? Long.compare(a.atMs, b.atMs) : Long.compare(a.seq, b.seq));
  private long nowMs;
  private long nextSeq;

  long now() {
    return nowMs;
  }

  /** Runs {@code action} at {@code atMs}; a time already past means now, after what is already due. */
  void at(long atMs, Runnable action) {
    queue.add(new Entry(Math.max(atMs, nowMs), nextSeq++, action));
  }

  void after(long delayMs, Runnable action) {
    at(nowMs + Math.max(0, delayMs), action);
  }

  /** Runs the next action; false once nothing is left. */
  boolean runNext() {
    Entry e = queue.poll();
    if (e == null) {
      return false;
    }
    nowMs = e.atMs;
    e.action.run();
    return true;
  }
}
