package org.elasticam.engine.recovery;

import java.util.List;
import org.elasticam.engine.lineage.MapOutputs;

/** Where the engine records what a later attempt of the AM needs to pick the job up. */
public interface JobJournal {

  JobJournal NONE = new JobJournal() {
    @Override
    public void stageCompleted(int stageId, List<MapOutputs.Output> outputs, long completedAtMs) {}
  };

  /** A stage completed (or re-ran its lost maps): its output locations as they are now, null where missing. */
  void stageCompleted(int stageId, List<MapOutputs.Output> outputs, long completedAtMs);

  /** A task of a stage not yet completed succeeded; {@code output} where its shuffle output is, null when none. */
  default void taskSucceeded(int stageId, int task, MapOutputs.Output output) {}

  /** A streaming job finished a batch. */
  default void streamProgress(long startMs, int batchesDone) {}
}
