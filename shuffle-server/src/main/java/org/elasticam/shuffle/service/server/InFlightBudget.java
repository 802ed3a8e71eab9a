package org.elasticam.shuffle.service.server;

import java.util.ArrayList;
import java.util.List;
import java.util.PriorityQueue;
import java.util.concurrent.Executor;

/**
 * The service-wide bound on bytes of accepted responses not yet written. A fetch is admitted when
 * its whole response fits, or when nothing else is in flight (so a response larger than the
 * budget still goes, alone); otherwise it waits. Waiting fetches are admitted in the order their
 * requests arrived — not the order their files were resolved, which the disk threads finish out
 * of order — and none overtakes an earlier one, even when it would fit: a large response is not
 * starved by smaller ones arriving behind it. Each is started on its own event loop as earlier
 * responses' blocks are written. Thread-safe: every event loop uses it.
 */
final class InFlightBudget {

  private static final class Waiter implements Comparable<Waiter> {
    private final long bytes;
    private final long arrivedNanos;
    private final long sequence;
    private final Executor loop;
    private final Runnable start;

    private Waiter(long bytes, long arrivedNanos, long sequence, Executor loop, Runnable start) {
      this.bytes = bytes;
      this.arrivedNanos = arrivedNanos;
      this.sequence = sequence;
      this.loop = loop;
      this.start = start;
    }

    /** Earlier arrival first; among equal arrival times, the one queued first. */
    @Override
    public int compareTo(Waiter o) {
      int c = Long.compare(arrivedNanos - o.arrivedNanos, 0);
      return c != 0 ? c : Long.compare(sequence, o.sequence);
    }
  }

  private final long max;
  private final PriorityQueue<Waiter> waiting = new PriorityQueue<>();
  private long used;
  private long sequence;

  InFlightBudget(long max) {
    this.max = max;
  }

  /**
   * Takes {@code bytes} now and returns true, or queues {@code start} to run on {@code loop} later.
   *
   * @param arrivedNanos when the request arrived ({@code System.nanoTime()} scale): the waiting order
   */
  synchronized boolean tryAdmit(long bytes, long arrivedNanos, Executor loop, Runnable start) {
    Waiter w = new Waiter(bytes, arrivedNanos, sequence++, loop, start);
    Waiter first = waiting.peek();
    if ((first == null || w.compareTo(first) < 0) && fits(bytes)) {
      used += bytes;
      return true;
    }
    waiting.add(w);
    return false;
  }

  void release(long bytes) {
    List<Waiter> admitted = new ArrayList<>();
    synchronized (this) {
      used -= bytes;
      while (!waiting.isEmpty() && fits(waiting.peek().bytes)) {
        Waiter w = waiting.poll();
        used += w.bytes;
        admitted.add(w);
      }
    }
    for (Waiter w : admitted) {
      w.loop.execute(w.start);
    }
  }

  private boolean fits(long bytes) {
    return used == 0 || used + bytes <= max;
  }

  synchronized long used() {
    return used;
  }

  synchronized int waiting() {
    return waiting.size();
  }
}
