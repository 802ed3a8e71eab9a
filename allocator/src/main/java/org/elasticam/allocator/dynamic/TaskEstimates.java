package org.elasticam.allocator.dynamic;

import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalDouble;

/**
 * What the elastic policy learns from the job as it runs: how long a stage's tasks take (the
 * median of its finished tasks), how long each running task has run, and how long an executor
 * takes from request to registration (a moving average). Nothing comes from settings.
 */
final class TaskEstimates {

  /** Weight of the newest observation in the moving averages. */
  private static final double ALPHA = 0.3;
  private static final int MAX_SAMPLES_PER_STAGE = 64;

  private final Map<Long, List<Long>> finished = new HashMap<>();
  private final Map<TaskInfo, Long> startedAt = new HashMap<>();
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

  /** A stage's task duration, and whether it was measured (finished tasks) or only bounded. */
  record Duration(double ms, boolean measured) {}

  /**
   * A stage's task duration: the median of its finished tasks; before any finished, twice the
   * longest its running tasks have run (a task that has run for t has, as often as not, about t
   * left). Empty when nothing of the stage has run yet.
   */
  java.util.Optional<Duration> taskMs(int stageId, int attempt, long nowMs) {
    List<Long> samples = finished.get(key(stageId, attempt));
    if (samples != null && !samples.isEmpty()) {
      List<Long> sorted = new ArrayList<>(samples);
      Collections.sort(sorted);
      return java.util.Optional.of(new Duration(sorted.get(sorted.size() / 2), true));
    }
    long longestRunning = -1;
    for (Map.Entry<TaskInfo, Long> e : startedAt.entrySet()) {
      if (e.getKey().stageId() == stageId && e.getKey().attempt() == attempt) {
        longestRunning = Math.max(longestRunning, nowMs - e.getValue());
      }
    }
    // Other stages' durations say little about this one's (measured: using them as a prior
    // over-asked by 15x on rapids_yarn_rp_sql_da); a running task's age is a sure lower bound.
    return longestRunning < 0 ? java.util.Optional.empty()
        : java.util.Optional.of(new Duration(2.0 * Math.max(1, longestRunning), false));
  }

  /**
   * Slot-time the stage's running tasks leave free before {@code horizonMs} from now: each task's
   * slot frees when it ends — after the duration minus its age when measured, after its age again
   * when only bounded.
   */
  double freeBefore(int stageId, int attempt, Duration d, double horizonMs, long nowMs) {
    double free = 0;
    for (Map.Entry<TaskInfo, Long> e : startedAt.entrySet()) {
      if (e.getKey().stageId() == stageId && e.getKey().attempt() == attempt) {
        free += Math.max(0, horizonMs - remainingMs(d, nowMs - e.getValue()));
      }
    }
    return free;
  }

  /** How many of the stage's running tasks end within {@code windowMs} from now (as {@link #freeBefore}). */
  int endingWithin(int stageId, int attempt, Duration d, double windowMs, long nowMs) {
    int ending = 0;
    for (Map.Entry<TaskInfo, Long> e : startedAt.entrySet()) {
      if (e.getKey().stageId() == stageId && e.getKey().attempt() == attempt
          && remainingMs(d, nowMs - e.getValue()) <= windowMs) {
        ending++;
      }
    }
    return ending;
  }

  /** What a task of this age still has to run: the duration minus its age when measured, its age again when not. */
  private static double remainingMs(Duration d, long ageMs) {
    return d.measured() ? Math.max(0, d.ms() - ageMs) : ageMs;
  }

  /** Running tasks, over all stages. */
  int running() {
    return startedAt.size();
  }

  OptionalDouble startLatencyMs() {
    return Double.isNaN(startLatencyAverage) ? OptionalDouble.empty() : OptionalDouble.of(startLatencyAverage);
  }
}
