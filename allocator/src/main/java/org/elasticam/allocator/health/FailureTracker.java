package org.elasticam.allocator.health;

import java.time.Duration;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.Optional;
import org.elasticam.conf.Durations;

/**
 * Executor failures in a sliding validity window, and the verdict when there are too many. A
 * failure recorded at t counts while {@code now - t < window}.
 */
public final class FailureTracker {

  private static final int CAUSES_KEPT = 3;

  private final int maxFailures;
  private final Duration window;
  private final Deque<Long> failureTimes = new ArrayDeque<>();
  private final Deque<String> lastCauses = new ArrayDeque<>();

  public FailureTracker(int maxFailures, Duration window) {
    if (maxFailures < 1) {
      throw new IllegalArgumentException("maxFailures < 1: " + maxFailures);
    }
    this.maxFailures = maxFailures;
    this.window = window;
  }

  public void record(long nowMs, String cause) {
    failureTimes.addLast(nowMs);
    lastCauses.addLast(cause);
    if (lastCauses.size() > CAUSES_KEPT) {
      lastCauses.removeFirst();
    }
  }

  /** Failures still inside the window at {@code nowMs}. */
  public int count(long nowMs) {
    if (!Durations.isInfinite(window)) {
      long oldestKept = nowMs - window.toMillis();
      while (!failureTimes.isEmpty() && failureTimes.peekFirst() <= oldestKept) {
        failureTimes.removeFirst();
      }
    }
    return failureTimes.size();
  }

  public int maxFailures() {
    return maxFailures;
  }

  /** The diagnostic that fails the application, once failures in the window reach the limit. */
  public Optional<String> verdict(long nowMs) {
    int n = count(nowMs);
    if (n < maxFailures) {
      return Optional.empty();
    }
    String span = Durations.isInfinite(window) ? "since the application started"
        : "within " + Durations.format(window);
    return Optional.of(n + " executor failures " + span + " reached the limit of " + maxFailures
        + " (elasticam.yarn.maxExecutorFailures). Last causes: " + String.join(" / ", lastCauses));
  }
}
