package org.elasticam.engine.job;

import java.util.List;
import org.elasticam.api.ShuffleSpec;
import org.elasticam.engine.lineage.ShuffleInput;
import org.elasticam.engine.scheduling.TaskAttempt;

/**
 * One attempt to start, with where its shuffle output goes and where its input is.
 *
 * @param stageIdBase for a streaming batch, the id of its first stage (its stages name their parents from it); -1 otherwise
 * @param write its shuffle output, or null when its stage writes none
 * @param reads the shuffles it reads
 * @param outputDir the output directory its stage writes, absolute; null when it writes none
 */
public record TaskLaunch(TaskAttempt attempt, int stageIdBase, ShuffleWrite write, List<ShuffleInput> reads,
    String outputDir) {

  /**
   * @param replace the map's earlier output was lost: what is on disk is replaced, not kept
   * @param spec the stage's partitioner, key order and combiner
   */
  public record ShuffleWrite(int shuffleId, int partitions, boolean replace, ShuffleSpec spec) {}
}
