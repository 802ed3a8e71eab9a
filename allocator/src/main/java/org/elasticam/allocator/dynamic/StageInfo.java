package org.elasticam.allocator.dynamic;

import java.util.Map;

/**
 * A submitted stage attempt as the policies see it.
 *
 * @param localityAwareTasks tasks with at least one preferred host
 * @param hostToLocalTaskCount per host, how many of its tasks prefer it
 * @param shuffleId the shuffle this stage's tasks write, or -1 when they write none
 */
public record StageInfo(int stageId, int attempt, int numTasks, int localityAwareTasks,
    Map<String, Integer> hostToLocalTaskCount, int shuffleId) {

  public StageInfo {
    hostToLocalTaskCount = Map.copyOf(hostToLocalTaskCount);
  }

  public static StageInfo simple(int stageId, int numTasks) {
    return new StageInfo(stageId, 0, numTasks, 0, Map.of(), -1);
  }
}
