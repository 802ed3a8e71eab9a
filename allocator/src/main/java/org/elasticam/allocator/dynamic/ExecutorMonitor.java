package org.elasticam.allocator.dynamic;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.elasticam.conf.Durations;

/**
 * Which executors are idle, since when, and when each may be removed: its idle start plus the
 * largest timeout that applies — the idle timeout; the cached-data timeout while it holds cached
 * data; the shuffle timeout while it holds shuffle output no shuffle service serves. Saturates
 * instead of overflowing, so infinite timeouts never fire. Events may arrive out of order: a task
 * start before its executor's registration creates the executor; events for removed executors are
 * ignored.
 */
public final class ExecutorMonitor {

  /** One executor's state. */
  private static final class Tracked {
    int runningTasks;
    long idleSinceMs;
    boolean cached;
    final Set<Integer> shuffles = new HashSet<>();
    boolean pendingRemoval;
  }

  private Duration idleTimeout;
  private final Duration cachedTimeout;
  private final Duration shuffleTimeout;
  private final boolean shuffleTracking;
  private final Map<String, Tracked> executors = new HashMap<>();
  private final Set<String> removed = new HashSet<>();
  /**
   * The last scan's answer, valid until the earliest deadline it saw passes or anything changes:
   * at 10,000 executors a scan every 100 ms tick would cost a millisecond each (Spark keeps the
   * same kind of next-timeout mark).
   */
  private List<String> lastTimedOut = List.of();
  private long rescanAtMs = Long.MIN_VALUE;
  private long lastScanAtMs = Long.MIN_VALUE;

  private void changed() {
    rescanAtMs = Long.MIN_VALUE;
  }

  public ExecutorMonitor(Duration idleTimeout, Duration cachedTimeout, Duration shuffleTimeout,
      boolean shuffleTracking) {
    this.idleTimeout = idleTimeout;
    this.cachedTimeout = cachedTimeout;
    this.shuffleTimeout = shuffleTimeout;
    this.shuffleTracking = shuffleTracking;
  }

  /** A policy that adapts its idle timeout changes it here; deadlines follow at once. */
  public void setIdleTimeout(Duration timeout) {
    changed();
    this.idleTimeout = timeout;
  }

  public Duration idleTimeout() {
    return idleTimeout;
  }

  public void executorAdded(String id, long nowMs) {
    changed();
    removed.remove(id);
    Tracked t = executors.computeIfAbsent(id, k -> new Tracked());
    if (t.runningTasks == 0) {
      t.idleSinceMs = nowMs;
    }
  }

  public void executorRemoved(String id) {
    changed();
    executors.remove(id);
    removed.add(id);
  }

  public void taskStarted(String id) {
    changed();
    if (removed.contains(id)) {
      return;
    }
    Tracked t = executors.computeIfAbsent(id, k -> new Tracked());
    t.runningTasks++;
  }

  public void taskEnded(String id, long nowMs) {
    changed();
    Tracked t = executors.get(id);
    if (t == null) {
      return;
    }
    t.runningTasks = Math.max(0, t.runningTasks - 1);
    if (t.runningTasks == 0) {
      t.idleSinceMs = nowMs;
    }
  }

  public void cachedData(String id, boolean holds) {
    changed();
    Tracked t = executors.get(id);
    if (t != null) {
      t.cached = holds;
    }
  }

  public void shuffleOutput(String id, int shuffleId) {
    changed();
    Tracked t = executors.get(id);
    if (t != null && shuffleTracking) {
      t.shuffles.add(shuffleId);
    }
  }

  public void shuffleCleaned(int shuffleId) {
    changed();
    executors.values().forEach(t -> t.shuffles.remove(shuffleId));
  }

  /** The executor is being removed; it is no longer offered as timed out. */
  public void markPendingRemoval(String id) {
    changed();
    Tracked t = executors.get(id);
    if (t != null) {
      t.pendingRemoval = true;
    }
  }

  /** When the executor may be removed; Long.MAX_VALUE when never (busy, or an infinite timeout). */
  public long deadlineMs(String id) {
    return deadlineMs(executors.get(id));
  }

  private long deadlineMs(Tracked t) {
    if (t == null || t.runningTasks > 0) {
      return Long.MAX_VALUE;
    }
    Duration timeout = idleTimeout;
    if (t.cached && cachedTimeout.compareTo(timeout) > 0) {
      timeout = cachedTimeout;
    }
    if (!t.shuffles.isEmpty() && shuffleTimeout.compareTo(timeout) > 0) {
      timeout = shuffleTimeout;
    }
    return Durations.deadline(t.idleSinceMs, timeout);
  }

  /**
   * Executors past their deadline and not already being removed, in the order Spark removes them
   * when a bound stops it part way: their ids as strings ("10" before "9"), which is how Spark's
   * monitor sorts them since SPARK-38019; the conformance check against Spark's own manager holds
   * us to it.
   */
  public List<String> timedOut(long nowMs) {
    if (nowMs < rescanAtMs && nowMs >= lastScanAtMs) {
      return lastTimedOut;
    }
    lastScanAtMs = nowMs;
    List<String> out = new ArrayList<>();
    long next = Long.MAX_VALUE;
    for (Map.Entry<String, Tracked> e : executors.entrySet()) {
      if (e.getValue().pendingRemoval) {
        continue;
      }
      long deadline = deadlineMs(e.getValue());
      if (deadline <= nowMs) {
        out.add(e.getKey());
      } else {
        next = Math.min(next, deadline);
      }
    }
    out.sort(Comparator.naturalOrder());
    lastTimedOut = List.copyOf(out);
    rescanAtMs = next;
    return lastTimedOut;
  }

  /** Numeric ids in numeric order, others after them by name: a stable order for ranking. */
  static final Comparator<String> EXECUTOR_ORDER = Comparator
      .comparing((String s) -> !s.chars().allMatch(Character::isDigit) || s.isEmpty())
      .thenComparingLong(s -> s.chars().allMatch(Character::isDigit) && !s.isEmpty() && s.length() < 19
          ? Long.parseLong(s) : Long.MAX_VALUE)
      .thenComparing(Comparator.naturalOrder());

  /** Since when the executor has run no task, or -1 when it is busy or unknown. */
  public long idleSinceMs(String id) {
    Tracked t = executors.get(id);
    return t == null || t.runningTasks > 0 ? -1 : t.idleSinceMs;
  }

  public boolean isIdle(String id) {
    Tracked t = executors.get(id);
    return t != null && t.runningTasks == 0;
  }

  public int executorCount() {
    return executors.size();
  }

  public int pendingRemovalCount() {
    int n = 0;
    for (Tracked t : executors.values()) {
      n += t.pendingRemoval ? 1 : 0;
    }
    return n;
  }

  public boolean knows(String id) {
    return executors.containsKey(id);
  }

  /** Executors that hold no running task, for a policy that ranks removal candidates. */
  public List<String> idleExecutors() {
    List<String> out = new ArrayList<>();
    executors.forEach((id, t) -> {
      if (t.runningTasks == 0 && !t.pendingRemoval) {
        out.add(id);
      }
    });
    out.sort(EXECUTOR_ORDER);
    return out;
  }

  public void clear() {
    changed();
    executors.clear();
    removed.clear();
  }
}
