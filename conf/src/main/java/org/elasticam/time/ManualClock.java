package org.elasticam.time;

import java.time.Duration;

/**
 * A clock that moves only when told to: for unit tests and the simulator. Not thread-safe; it is
 * driven by the one thread that owns the code under test.
 */
public final class ManualClock implements Clock {

  private long nowMs;

  public ManualClock() {
    this(0L);
  }

  public ManualClock(long startMs) {
    this.nowMs = startMs;
  }

  @Override
  public long nowMs() {
    return nowMs;
  }

  /** Moves the clock instead of waiting. */
  @Override
  public void sleep(long ms) {
    advanceMs(Math.max(0, ms));
  }

  public void advance(Duration d) {
    advanceMs(d.toMillis());
  }

  public void advanceMs(long ms) {
    if (ms < 0) {
      throw new IllegalArgumentException("time does not go backwards: " + ms);
    }
    nowMs += ms;
  }

  public void setMs(long ms) {
    if (ms < nowMs) {
      throw new IllegalArgumentException("time does not go backwards: " + ms + " < " + nowMs);
    }
    nowMs = ms;
  }
}
