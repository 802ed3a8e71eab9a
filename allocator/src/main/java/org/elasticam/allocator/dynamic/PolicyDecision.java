package org.elasticam.allocator.dynamic;

import java.util.List;
import java.util.Map;

/**
 * One tick's decision: the target (and why it changed, if it did), the executors to remove now,
 * and the locality hints that travel with the target.
 */
public record PolicyDecision(int target, int previousTarget, String reason, List<String> remove,
    int localityAwareTasks, Map<String, Integer> hostToLocalTaskCount, int pendingTasks, int runningTasks) {

  public PolicyDecision {
    remove = List.copyOf(remove);
    hostToLocalTaskCount = Map.copyOf(hostToLocalTaskCount);
  }

  public boolean targetChanged() {
    return target != previousTarget;
  }

  public boolean isEmpty() {
    return !targetChanged() && remove.isEmpty();
  }
}
