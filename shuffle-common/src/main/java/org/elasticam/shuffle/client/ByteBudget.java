package org.elasticam.shuffle.client;

/**
 * Bytes held at once, bounded. A request larger than the whole budget is let through when nothing
 * else is held, so no single response can wait forever.
 */
final class ByteBudget {

  private final long max;
  private long used;

  ByteBudget(long max) {
    this.max = max;
  }

  synchronized void acquire(long n) throws InterruptedException {
    while (used > 0 && used + n > max) {
      wait();
    }
    used += n;
  }

  synchronized void release(long n) {
    used -= n;
    notifyAll();
  }

  synchronized long used() {
    return used;
  }
}
