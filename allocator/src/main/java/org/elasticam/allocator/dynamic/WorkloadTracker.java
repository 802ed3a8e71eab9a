package org.elasticam.allocator.dynamic;

import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;

/**
 * What the job asks of executors, kept as Spark's allocation listener keeps it: per stage attempt,
 * its tasks, the distinct indices that have started, its running attempts (which outlive the stage's
 * completion: zombie attempts), the speculative copies waiting to start, and its locality hints.
 */
public final class WorkloadTracker {

  /** One stage attempt's bookkeeping. */
  private static final class Attempt {
    final StageInfo info;
    final Set<Integer> started = new HashSet<>();
    final Set<Integer> pendingSpeculative = new HashSet<>();
    int running;
    boolean completed;
    boolean unschedulable;

    Attempt(StageInfo info) {
      this.info = info;
    }

    int pending() {
      return completed ? 0 : Math.max(0, info.numTasks() - started.size());
    }
  }

  private final Map<Long, Attempt> attempts = new LinkedHashMap<>();
  private Map<String, Integer> hints;

  private static long key(int stageId, int attempt) {
    return ((long) stageId << 32) | (attempt & 0xffffffffL);
  }

  public void stageSubmitted(StageInfo s) {
    attempts.put(key(s.stageId(), s.attempt()), new Attempt(s));
    hints = null;
  }

  public void stageCompleted(int stageId, int attempt) {
    long k = key(stageId, attempt);
    Attempt a = attempts.get(k);
    if (a == null) {
      return;
    }
    a.completed = true;
    hints = null;
    a.pendingSpeculative.clear();
    a.unschedulable = false;
    if (a.running <= 0) {
      attempts.remove(k);
    }
  }

  public void speculativeTaskSubmitted(int stageId, int attempt, int index) {
    Attempt a = attempts.get(key(stageId, attempt));
    if (a != null && !a.completed) {
      a.pendingSpeculative.add(index);
    }
  }

  public void unschedulable(int stageId, int attempt, boolean added) {
    Attempt a = attempts.get(key(stageId, attempt));
    if (a != null) {
      a.unschedulable = added && !a.completed;
    }
  }

  public void taskStarted(TaskInfo t) {
    Attempt a = attempts.get(key(t.stageId(), t.attempt()));
    if (a == null) {
      return;
    }
    a.running++;
    if (t.speculative()) {
      a.pendingSpeculative.remove(t.index());
    } else {
      a.started.add(t.index());
    }
  }

  public void taskEnded(TaskInfo t, TaskOutcome outcome) {
    long k = key(t.stageId(), t.attempt());
    Attempt a = attempts.get(k);
    if (a == null) {
      return;
    }
    a.running = Math.max(0, a.running - 1);
    if (outcome == TaskOutcome.SUCCESS && !t.speculative()) {
      // The original finished first: its speculative copy is no longer needed (SPARK-41192).
      a.pendingSpeculative.remove(t.index());
    } else if (outcome == TaskOutcome.FAILED && !t.speculative()) {
      a.started.remove(t.index());
    }
    if (a.completed && a.running == 0) {
      attempts.remove(k);
    }
  }

  // ---- what the policies count -----------------------------------------------------------------

  /** Tasks not yet started, over active stage attempts (distinct indices). */
  public int pendingTasks() {
    int n = 0;
    for (Attempt a : attempts.values()) {
      n += a.pending();
    }
    return n;
  }

  public int pendingSpeculativeTasks() {
    int n = 0;
    for (Attempt a : attempts.values()) {
      n += a.pendingSpeculative.size();
    }
    return n;
  }

  /** Running task attempts, zombie stage attempts included. */
  public int runningTasks() {
    int n = 0;
    for (Attempt a : attempts.values()) {
      n += a.running;
    }
    return n;
  }

  public int unschedulableTaskSets() {
    int n = 0;
    for (Attempt a : attempts.values()) {
      n += a.unschedulable ? 1 : 0;
    }
    return n;
  }

  public boolean hasPendingTasks() {
    return pendingTasks() + pendingSpeculativeTasks() > 0;
  }

  /** No active stage attempt and no speculative copy waiting: Spark's "queue empty" at stage end. */
  public boolean noActiveStages() {
    for (Attempt a : attempts.values()) {
      if (!a.completed) {
        return false;
      }
    }
    return true;
  }

  /** Locality hints summed over active stage attempts, as Spark sends them with every target. */
  public int localityAwareTasks() {
    int n = 0;
    for (Attempt a : attempts.values()) {
      n += a.completed ? 0 : a.info.localityAwareTasks();
    }
    return n;
  }

  /**
   * Summed per host; kept between stage submissions and completions, which alone change it, so a
   * tick at 1,000 hosts does not rebuild it every 100 ms.
   */
  public Map<String, Integer> hostToLocalTaskCount() {
    if (hints == null) {
      Map<String, Integer> m = new LinkedHashMap<>();
      for (Attempt a : attempts.values()) {
        if (!a.completed) {
          a.info.hostToLocalTaskCount().forEach((h, c) -> m.merge(h, c, Integer::sum));
        }
      }
      hints = Map.copyOf(m);
    }
    return hints;
  }

  /** Whether the stage attempt was submitted and has not completed. */
  public boolean isActive(int stageId, int attempt) {
    Attempt a = attempts.get(key(stageId, attempt));
    return a != null && !a.completed;
  }

  /** One active stage attempt's load. */
  public record StageLoad(int stageId, int attempt, int pending, int running) {}

  /** The load of every stage attempt still running or pending tasks. */
  public java.util.List<StageLoad> loads() {
    java.util.List<StageLoad> out = new java.util.ArrayList<>();
    for (Attempt a : attempts.values()) {
      if (a.pending() > 0 || a.running > 0) {
        out.add(new StageLoad(a.info.stageId(), a.info.attempt(), a.pending(), a.running));
      }
    }
    return out;
  }

  public void clear() {
    attempts.clear();
  }
}
