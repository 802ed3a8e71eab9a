package org.elasticam.engine.recovery;

import java.time.Duration;
import java.util.List;
import java.util.Set;

/**
 * What a new attempt of the AM starts from after a restart.
 *
 * @param completedStages stages the earlier attempts completed, in the order they completed
 * @param runningStages stages that were running, with the tasks that had succeeded in them
 * @param survivors executor ids whose containers the ResourceManager kept for this attempt
 * @param reregisterTimeout how long survivors have to re-register before they are released
 * @param streamStartMs for a streaming job, when the stream began (0: none)
 * @param streamBatchesDone for a streaming job, the batches done
 */
public record Restarted(List<Resumption.RecordedStage> completedStages, List<Resumption.RecordedStage> runningStages,
    Set<String> survivors, Duration reregisterTimeout, long streamStartMs, int streamBatchesDone) {

  public Restarted {
    completedStages = List.copyOf(completedStages);
    runningStages = List.copyOf(runningStages);
    // In a stable order: survivors given up on are released, and logged, in it.
    survivors = java.util.Collections.unmodifiableSet(new java.util.TreeSet<>(survivors));
  }
}
