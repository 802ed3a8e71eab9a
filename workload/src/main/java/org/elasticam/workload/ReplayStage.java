package org.elasticam.workload;

import java.util.List;
import java.util.Objects;

/**
 * A stage as it is replayed: all its attempts merged, one task per index, by index.
 *
 * <p>A stage may have no task (Spark recorded stages whose tasks all were skipped); it has
 * nothing to run, and the caller reports it completed as soon as it is submitted.
 */
public record ReplayStage(int stageId, String name, List<ReplayTask> tasks) {

  public ReplayStage {
    Objects.requireNonNull(name, "name");
    tasks = List.copyOf(tasks);
  }

  /** How long the stage takes with unlimited executors; 0 for a stage without tasks. */
  public long longestTaskMs() {
    return tasks.stream().mapToLong(ReplayTask::durationMs).max().orElse(0);
  }
}
