package org.elasticam.time;

/** Wall-clock epoch at start-up plus elapsed monotonic time. */
final class SystemClock implements Clock {

  static final SystemClock INSTANCE = new SystemClock();

  private final long epochAtStartMs = System.currentTimeMillis();
  private final long nanosAtStart = System.nanoTime();

  private SystemClock() {}

  @Override
  public long nowMs() {
    return epochAtStartMs + (System.nanoTime() - nanosAtStart) / 1_000_000L;
  }
}
