package org.elasticam.allocator.dynamic;

import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalDouble;

/**
 * What the elastic policy learns from the job as it runs: how long tasks take (per stage: the
 * median of its finished tasks; across stages: a moving average), how long each running task has
 * run, and how long an executor takes from request to registration. Nothing comes from settings.
 */
final class TaskEstimates {

  /** Weight of the newest observation in the moving averages. */
  private static final double ALPHA = 0.3;
  private static final int MAX_SAMPLES_PER_STAGE = 64;

  private final Map<Long, List<Long>> finished = new HashMap<>();
  private final Map<TaskInfo, Long> startedAt = new HashMap<>();
  private double taskMsAverage = Double.NaN;
  private double startLatencyAverage = Double.NaN;

  static long key(int stageId, int attempt) {
    return ((long) stageId << 32) | (attempt & 0xffffffffL);
  }

  void taskStarted(TaskInfo t, long nowMs) {
    startedAt.put(t, nowMs);
  }

  void taskEnded(TaskInfo t, TaskOutcome outcome, long durationMs) {
    startedAt.remove(t);
    if (outcome != TaskOutcome.SUCCESS) {
      return;
    }
    List<Long> samples = finished.computeIfAbsent(key(t.stageId(), t.attempt()), k -> new ArrayList<>());
    if (samples.size() < MAX_SAMPLES_PER_STAGE) {
      samples.add(durationMs);
    }
    taskMsAverage = Double.isNaN(taskMsAverage) ? durationMs : ALPHA * durationMs + (1 - ALPHA) * taskMsAverage;
  }

  void stageCompleted(int stageId, int attempt) {
    finished.remove(key(stageId, attempt));
  }

  void executorStarted(long latencyMs) {
    if (latencyMs > 0) {
      startLatencyAverage = Double.isNaN(startLatencyAverage) ? latencyMs
          : ALPHA * latencyMs + (1 - ALPHA) * startLatencyAverage;
    }
  }

  /**
   * A stage's task duration: the median of its finished tasks; before any finished, the longer of
   * the running average over earlier stages and the longest its running tasks have run so far
   * (they take at least that). Empty when nothing is known yet.
   */
  OptionalDouble taskMs(int stageId, int attempt, long nowMs) {
    List<Long> samples = finished.get(key(stageId, attempt));
    if (samples != null && !samples.isEmpty()) {
      List<Long> sorted = new ArrayList<>(samples);
      Collections.sort(sorted);
      return OptionalDouble.of(sorted.get(sorted.size() / 2));
    }
    long longestRunning = -1;
    for (Map.Entry<TaskInfo, Long> e : startedAt.entrySet()) {
      if (e.getKey().stageId() == stageId && e.getKey().attempt() == attempt) {
        longestRunning = Math.max(longestRunning, nowMs - e.getValue());
      }
    }
    if (Double.isNaN(taskMsAverage) && longestRunning < 0) {
      return OptionalDouble.empty();
    }
    return OptionalDouble.of(Math.max(Double.isNaN(taskMsAverage) ? 0 : taskMsAverage, longestRunning));
  }

  /** Work left in the stage's running tasks, if each takes {@code taskMs}: at least 0 each. */
  double runningRemainingMs(int stageId, int attempt, double taskMs, long nowMs) {
    double left = 0;
    for (Map.Entry<TaskInfo, Long> e : startedAt.entrySet()) {
      if (e.getKey().stageId() == stageId && e.getKey().attempt() == attempt) {
        left += Math.max(0, taskMs - (nowMs - e.getValue()));
      }
    }
    return left;
  }

  OptionalDouble startLatencyMs() {
    return Double.isNaN(startLatencyAverage) ? OptionalDouble.empty() : OptionalDouble.of(startLatencyAverage);
  }
}
