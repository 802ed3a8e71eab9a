package org.elasticam.allocator.health;

/**
 * Executors that failed to start one after another — the launch failed, the process died before
 * registering, or it did not register in time — hold back new container requests for a while that
 * doubles with each such failure (1 s, 2 s, 4 s, … at most {@value #MAX_HOLD_MS} ms), so that a
 * broken executor (a bad JVM option, a missing class, a full disk) is not relaunched as fast as
 * YARN grants containers. The first executor that registers ends the streak. Failures still count
 * towards maxExecutorFailures as before: the hold slows a hopeless application down, the failure
 * limit ends it.
 */
public final class StartFailures {

  static final long FIRST_HOLD_MS = 1_000;
  static final long MAX_HOLD_MS = 60_000;

  private int streak;
  private long holdUntilMs;

  /** An executor failed to start; @return how long new requests are now held back, in ms */
  public long failed(long nowMs) {
    streak++;
    long hold = streak >= 7 ? MAX_HOLD_MS : Math.min(MAX_HOLD_MS, FIRST_HOLD_MS << (streak - 1));
    holdUntilMs = nowMs + hold;
    return hold;
  }

  /** An executor registered: starting works. */
  public void started() {
    streak = 0;
    holdUntilMs = 0;
  }

  public boolean holding(long nowMs) {
    return nowMs < holdUntilMs;
  }

  public long holdUntilMs() {
    return holdUntilMs;
  }

  /** Failed starts in a row. */
  public int streak() {
    return streak;
  }
}
