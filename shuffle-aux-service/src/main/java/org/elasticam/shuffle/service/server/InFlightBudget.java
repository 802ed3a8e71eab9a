package org.elasticam.shuffle.service.server;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Executor;

/**
 * The service-wide bound on bytes of accepted responses not yet written. A fetch is admitted when
 * its whole response fits, or when nothing else is in flight (so a response larger than the
 * budget still goes, alone); otherwise it waits, first come first served, and is started on its
 * own event loop as earlier responses' blocks are written. Thread-safe: every event loop uses it.
 */
final class InFlightBudget {

  private static final class Waiter {
    private final long bytes;
    private final Executor loop;
    private final Runnable start;

    private Waiter(long bytes, Executor loop, Runnable start) {
      this.bytes = bytes;
      this.loop = loop;
      this.start = start;
    }

    public long bytes() {
      return bytes;
    }

    public Executor loop() {
      return loop;
    }

    public Runnable start() {
      return start;
    }
  }

  private final long max;
  private final ArrayDeque<Waiter> waiting = new ArrayDeque<>();
  private long used;

  InFlightBudget(long max) {
    this.max = max;
  }

  /** Takes {@code bytes} now and returns true, or queues {@code start} to run on {@code loop} later. */
  synchronized boolean tryAdmit(long bytes, Executor loop, Runnable start) {
    if (waiting.isEmpty() && fits(bytes)) {
      used += bytes;
      return true;
    }
    waiting.add(new Waiter(bytes, loop, start));
    return false;
  }

  void release(long bytes) {
    List<Waiter> admitted = new ArrayList<>();
    synchronized (this) {
      used -= bytes;
      while (!waiting.isEmpty() && fits(waiting.peek().bytes())) {
        Waiter w = waiting.poll();
        used += w.bytes();
        admitted.add(w);
      }
    }
    for (Waiter w : admitted) {
      w.loop().execute(w.start());
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
