package org.elasticam.allocator.dynamic;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

/** The guarantees every batch policy keeps: what the need is, and whom removal may take. */
final class PolicyRules {

  private PolicyRules() {}

  /**
   * Executors the running and pending tasks need: (pending + pending speculative copies + running)
   * x allocation ratio / tasks per executor, rounded up; 2 when a speculative copy may not run
   * beside its original; raised for task sets no executor can run (Spark's rule).
   */
  static int maxNeeded(PolicySettings s, WorkloadTracker work, ExecutorMonitor monitor) {
    int perExecutor = s.tasksPerExecutor();
    int tasks = work.pendingTasks() + work.pendingSpeculativeTasks() + work.runningTasks();
    int needed = (int) Math.ceil(tasks * s.allocationRatio() / perExecutor);
    if (perExecutor > 1 && needed == 1 && work.pendingSpeculativeTasks() > 0) {
      needed = 2;
    }
    int unschedulable = work.unschedulableTaskSets();
    if (unschedulable > 0) {
      int extra = (int) Math.ceil(unschedulable * s.allocationRatio() / perExecutor);
      needed = Math.max(needed, monitor.executorCount() + extra);
    }
    return needed;
  }

  /**
   * Of the timed-out executors, those that may go: never below the minimum or the target (an idle
   * kill does not lower the target). Each one taken is marked pending removal and reported.
   */
  static List<String> removable(List<String> timedOut, PolicySettings s, ExecutorMonitor monitor, int target,
      Consumer<String> beforeRemoval) {
    List<String> out = new ArrayList<>();
    int remaining = monitor.executorCount() - monitor.pendingRemovalCount();
    for (String id : timedOut) {
      if (remaining - 1 < s.minExecutors() || remaining - 1 < target) {
        continue;
      }
      out.add(id);
      beforeRemoval.accept(id);
      monitor.markPendingRemoval(id);
      remaining--;
    }
    return out;
  }
}
