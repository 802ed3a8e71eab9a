package org.elasticam.workload;

import java.util.List;
import java.util.Objects;

/**
 * One stage attempt as the trace recorded it. Times are milliseconds from application start.
 *
 * @param parents parent stage ids; a parent that is not in the trace was skipped by Spark
 *     (its output was reused) and counts as done
 */
public record TraceStage(
    int stageId,
    int attempt,
    String name,
    long submitMs,
    long completeMs,
    List<Integer> parents,
    List<TraceTask> tasks) {

  public TraceStage {
    Objects.requireNonNull(name, "name");
    parents = List.copyOf(parents);
    tasks = List.copyOf(tasks);
  }
}
