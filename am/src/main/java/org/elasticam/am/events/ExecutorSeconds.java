package org.elasticam.am.events;

import java.util.HashMap;
import java.util.Map;

/**
 * Executor-seconds as DESIGN §3 defines them: for every executor container, from its allocation to
 * its release (when we released it) or its completion — resources held, busy or not. The simulator
 * computes the same sum.
 */
public final class ExecutorSeconds {

  private final Map<String, Long> allocatedAt = new HashMap<>();
  private final Map<String, Long> releasedAt = new HashMap<>();
  private long totalMs;

  /** Executor time spent by earlier attempts of the AM on containers that completed then. */
  public void carryOver(long completedMs) {
    totalMs += completedMs;
  }

  /** Executor-milliseconds of the containers that completed so far (and those carried over). */
  public long completedMs() {
    return totalMs;
  }

  public void allocated(String container, long nowMs) {
    allocatedAt.putIfAbsent(container, nowMs);
  }

  public void released(String container, long nowMs) {
    if (allocatedAt.containsKey(container)) {
      releasedAt.putIfAbsent(container, nowMs);
    }
  }

  public void completed(String container, long nowMs) {
    Long start = allocatedAt.remove(container);
    Long released = releasedAt.remove(container);
    if (start != null) {
      totalMs += Math.max(0, (released != null ? released : nowMs) - start);
    }
  }

  /** The total, counting containers still held as ending now. */
  public double seconds(long nowMs) {
    long open = 0;
    for (Map.Entry<String, Long> e : allocatedAt.entrySet()) {
      long end = releasedAt.getOrDefault(e.getKey(), nowMs);
      open += Math.max(0, end - e.getValue());
    }
    return (totalMs + open) / 1000.0;
  }
}
