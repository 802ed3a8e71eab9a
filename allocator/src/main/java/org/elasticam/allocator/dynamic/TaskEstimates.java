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
  /** Finished durations kept per stage; beyond it each kept one stands for several (see taskMs). */
  private static final int MAX_SAMPLES_PER_STAGE = 4096;

  private final Map<Long, List<Long>> finished = new HashMap<>();
  private final Map<Long, Integer> finishedCount = new HashMap<>();
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
    long key = key(t.stageId(), t.attempt());
    List<Long> samples = finished.computeIfAbsent(key, k -> new ArrayList<>());
    int count = finishedCount.merge(key, 1, Integer::sum);
    if (samples.size() < MAX_SAMPLES_PER_STAGE) {
      samples.add(durationMs);
    } else {
      // The newest replace the oldest: the first to finish are the stage's shortest tasks.
      samples.set(count % MAX_SAMPLES_PER_STAGE, durationMs);
    }
  }

  void stageCompleted(int stageId, int attempt) {
    finished.remove(key(stageId, attempt));
    finishedCount.remove(key(stageId, attempt));
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
   * A stage's task duration: the median of its tasks, counting the running ones as lasting at
   * least their age (Kaplan-Meier); before any finished, or while more than half of those started
   * still run past every finished one, twice the longest its running tasks have run (a task that
   * has run for t has, as often as not, about t left), and only bounded. Empty when nothing of the
   * stage has run yet.
   *
   * <p>The median of the finished tasks alone is the median of the short ones early in a stage:
   * they finish first. A stage of 52 tasks of 0.2 to 20 s looked like a stage of 0.5 s tasks once
   * its first ones finished, and its last 26 waited 8 s for executors (see docs/dynamic-allocation.md).
   */
  java.util.Optional<Duration> taskMs(int stageId, int attempt, long nowMs) {
    List<Long> ages = new ArrayList<>();
    for (Map.Entry<TaskInfo, Long> e : startedAt.entrySet()) {
      if (e.getKey().stageId() == stageId && e.getKey().attempt() == attempt) {
        ages.add(nowMs - e.getValue());
      }
    }
    long longestRunning = ages.isEmpty() ? -1 : Collections.max(ages);
    List<Long> samples = finished.get(key(stageId, attempt));
    if (samples != null && !samples.isEmpty()) {
      double weight = (double) finishedCount.get(key(stageId, attempt)) / samples.size();
      OptionalDouble median = medianWithRunning(samples, weight, ages);
      if (median.isPresent()) {
        return java.util.Optional.of(new Duration(median.getAsDouble(), true));
      }
    }
    // Other stages' durations say little about this one's (measured: using them as a prior
    // over-asked by 15x on rapids_yarn_rp_sql_da); a running task's age is a sure lower bound.
    return longestRunning < 0 ? java.util.Optional.empty()
        : java.util.Optional.of(new Duration(2.0 * Math.max(1, longestRunning), false));
  }

  /**
   * The Kaplan-Meier median of finished durations (each standing for {@code finishedWeight}
   * tasks) and running tasks' ages (censored: each lasts at least its age); empty when more than
   * half are estimated to run past the longest finished.
   */
  static OptionalDouble medianWithRunning(List<Long> finishedMs, double finishedWeight, List<Long> runningAgesMs) {
    List<Long> done = new ArrayList<>(finishedMs);
    List<Long> ages = new ArrayList<>(runningAgesMs);
    Collections.sort(done);
    Collections.sort(ages);
    double atRisk = done.size() * finishedWeight + ages.size();
    int a = 0;
    double survival = 1.0;
    for (int i = 0; i < done.size(); ) {
      long t = done.get(i);
      // Running tasks younger than t leave the risk set before it: their end is not observed.
      while (a < ages.size() && ages.get(a) < t) {
        a++;
        atRisk--;
      }
      int ended = 0;
      while (i < done.size() && done.get(i) == t) {
        ended++;
        i++;
      }
      survival *= 1.0 - ended * finishedWeight / atRisk;
      atRisk -= ended * finishedWeight;
      if (survival <= 0.5) {
        return OptionalDouble.of(t);
      }
    }
    return OptionalDouble.empty();
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
