package org.elasticam.allocator.dynamic;

import java.util.List;

/**
 * Spark's ExecutorAllocationManager, decision for decision: the target starts at the initial
 * executors and is held there until the first stage (or the first idle timeout); it falls to the
 * need at once when the need falls; it rises in rounds of 1, 2, 4, … once tasks have been
 * backlogged for the backlog timeout, then every sustained timeout, capped by the need and the
 * bounds; idle executors past their deadline are removed, never below the minimum or the target.
 */
public final class SparkPolicy extends TrackingPolicy {

  private static final long NOT_SET = Long.MAX_VALUE;

  private int numToAdd = 1;
  private long addTimeMs = NOT_SET;

  public SparkPolicy(PolicySettings settings) {
    super(settings);
  }

  @Override
  public String name() {
    return "spark";
  }

  // ---- events --------------------------------------------------------------------------------

  @Override
  public void stageSubmitted(StageInfo stage, long nowMs) {
    initializing = false;
    work.stageSubmitted(stage);
    backlogged(nowMs);
  }

  @Override
  public void stageCompleted(int stageId, int attempt, long nowMs) {
    work.stageCompleted(stageId, attempt);
    if (work.noActiveStages() && work.pendingSpeculativeTasks() == 0) {
      queueEmpty();
    }
  }

  @Override
  public void speculativeTaskSubmitted(int stageId, int attempt, int index, long nowMs) {
    work.speculativeTaskSubmitted(stageId, attempt, index);
    backlogged(nowMs);
  }

  @Override
  public void unschedulableTaskSet(int stageId, int attempt, boolean added, long nowMs) {
    work.unschedulable(stageId, attempt, added);
    if (added) {
      backlogged(nowMs);
    }
  }

  @Override
  public void taskStarted(TaskInfo task, long nowMs) {
    work.taskStarted(task);
    monitor.taskStarted(task.executorId());
    if (!work.hasPendingTasks()) {
      queueEmpty();
    }
  }

  @Override
  public void taskEnded(TaskInfo task, TaskOutcome outcome, long durationMs, long nowMs) {
    boolean hadPending = work.hasPendingTasks();
    work.taskEnded(task, outcome);
    monitor.taskEnded(task.executorId(), nowMs);
    if (outcome == TaskOutcome.FAILED && !hadPending) {
      // The failed task will be retried: make sure there is an executor for it (SPARK-8366).
      backlogged(nowMs);
    }
  }

  @Override
  public void executorAdded(String executorId, long startLatencyMs, long nowMs) {
    monitor.executorAdded(executorId, nowMs);
  }

  /** Set once, not moved by later calls: the backlog must last the whole timeout. */
  private void backlogged(long nowMs) {
    if (addTimeMs == NOT_SET) {
      addTimeMs = nowMs + s.backlogTimeout().toMillis();
    }
  }

  private void queueEmpty() {
    addTimeMs = NOT_SET;
    numToAdd = 1;
  }

  // ---- the tick ------------------------------------------------------------------------------

  @Override
  protected String updateTarget(long nowMs) {
    int needed = maxNeeded();
    if (needed < target) {
      int old = target;
      target = Math.max(needed, s.minExecutors());
      numToAdd = 1;
      return target == old ? "" : "the need fell to " + needed + " executor(s)";
    }
    if (addTimeMs == NOT_SET || nowMs < addTimeMs) {
      return "";
    }
    return addExecutors(needed, nowMs);
  }

  private String addExecutors(int needed, long nowMs) {
    int old = target;
    if (old >= s.maxExecutors()) {
      numToAdd = 1;
      return "";
    }
    long raised = (long) Math.max(old, monitor.executorCount()) + numToAdd;
    int next = (int) Math.min(raised, needed);
    next = Math.max(s.minExecutors(), Math.min(s.maxExecutors(), next));
    int delta = next - old;
    target = next;
    if (delta <= 0) {
      numToAdd = 1;
      return "";
    }
    numToAdd = delta == numToAdd ? numToAdd * 2 : 1;
    addTimeMs = nowMs + s.sustainedBacklogTimeout().toMillis();
    return "tasks backlogged: +" + delta + " (need " + needed + ")";
  }

  @Override
  public void reset(long nowMs) {
    addTimeMs = nowMs;
    target = s.initialExecutors();
    numToAdd = 1;
    monitor.clear();
  }

  /** For tests and metrics: the size of the next add round. */
  int numToAdd() {
    return numToAdd;
  }

  /** For tests: when the next add may happen, Long.MAX_VALUE when no backlog. */
  long addTimeMs() {
    return addTimeMs;
  }

  ExecutorMonitor monitor() {
    return monitor;
  }

  WorkloadTracker workload() {
    return work;
  }
}
