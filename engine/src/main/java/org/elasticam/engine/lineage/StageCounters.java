package org.elasticam.engine.lineage;

import java.util.HashMap;
import java.util.Map;
import java.util.TreeMap;

/**
 * Each stage's counters (org.elasticam.api.Counters) as its tasks' successful attempts reported
 * them: one attempt per task, the one whose output the job uses, so a task that runs again (its
 * map output lost, or its stage resumed) replaces what it counted before instead of adding to it.
 * Failed, killed and superseded attempts count nothing here. Owner thread only.
 */
public final class StageCounters {

  private final Map<Integer, Map<Integer, Map<String, Long>>> byStage = new HashMap<>();

  /** Task {@code index} of {@code stageId} succeeded, and its attempt counted {@code counters}. */
  public void succeeded(int stageId, int index, Map<String, Long> counters) {
    if (counters.isEmpty()) {
      Map<Integer, Map<String, Long>> tasks = byStage.get(stageId);
      if (tasks != null) {
        tasks.remove(index);
      }
      return;
    }
    byStage.computeIfAbsent(stageId, s -> new HashMap<>()).put(index, Map.copyOf(counters));
  }

  /** The stage's sums by counter name, in name order; empty when none of its tasks counted anything. */
  public Map<String, Long> sums(int stageId) {
    Map<String, Long> out = new TreeMap<>();
    byStage.getOrDefault(stageId, Map.of()).values()
        .forEach(counters -> counters.forEach((name, v) -> out.merge(name, v, Long::sum)));
    return out;
  }

  public void forget(int stageId) {
    byStage.remove(stageId);
  }
}
