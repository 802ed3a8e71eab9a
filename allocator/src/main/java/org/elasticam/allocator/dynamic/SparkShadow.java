package org.elasticam.allocator.dynamic;

import java.util.HashSet;
import java.util.Set;
import java.util.TreeMap;

/**
 * Spark's own rule run in shadow beside the elastic policy, told the same events, and how far
 * behind it the elastic policy has been. It answers two questions each tick: how many executors
 * Spark's manager would want now in our place ({@link #sparkTarget}), and whether our makespan
 * regret against it has used up its budget ({@link #overBudget}).
 *
 * <p>The shadow holds the executors Spark would hold: an executor we removed for idleness stays in
 * the shadow, idle, until Spark's own idle timeout would have removed it (its deadline passes in
 * the shadow's monitor), since Spark would still run the next stage's tasks on it at once.
 *
 * <p>Behind: tasks wait while we hold fewer executors than Spark would hold now — those it keeps,
 * and those its target asked for one start latency ago, which would have registered by now. With
 * n executors where Spark would have m (at most what the tasks need), the work goes at n / m of
 * Spark's pace, so each moment behind delays the job by 1 − n / m of it: the regret. The budget is
 * {@link #BUDGET} of the time since the first stage; a job's stages follow one another, so regret
 * delays what follows about one for one, and keeping it within the budget keeps the makespan
 * within about that share of Spark's.
 */
final class SparkShadow {

  /** The share of the job's time the elastic policy may spend behind Spark's rule. */
  static final double BUDGET = 0.02;
  /** How far back Spark's targets are remembered. */
  static final long HISTORY_MS = 120_000;

  private final SparkPolicy spark;
  /** Executors we are removing for idleness, until their removal is confirmed. */
  private final Set<String> idleRemoving = new HashSet<>();
  /** Executors we removed that Spark would still hold (idle in the shadow). */
  private final Set<String> kept = new HashSet<>();
  /** Executors the shadow removed that we still hold. */
  private final Set<String> sparkRemoved = new HashSet<>();
  private int sparkTarget;
  private long firstStageMs = -1;
  private long lastTickMs = -1;
  private double behindMs;
  /** Spark's target at each tick of the last two minutes. */
  private final TreeMap<Long, Integer> targetAt = new TreeMap<>();

  SparkShadow(PolicySettings settings) {
    this.spark = new SparkPolicy(settings);
  }

  AllocationPolicy events() {
    return spark;
  }

  void stageSubmitted(StageInfo stage, long nowMs) {
    if (firstStageMs < 0) {
      firstStageMs = nowMs;
    }
    spark.stageSubmitted(stage, nowMs);
  }

  /** We are removing this executor because it idled. */
  void removing(String executorId) {
    idleRemoving.add(executorId);
  }

  /** An executor of ours is gone: Spark keeps it (idle) when we removed it for idleness and Spark would not yet. */
  void executorRemoved(String executorId, long nowMs) {
    if (idleRemoving.remove(executorId) && !sparkRemoved.contains(executorId)) {
      kept.add(executorId);
      return;
    }
    sparkRemoved.remove(executorId);
    kept.remove(executorId);
    spark.executorRemoved(executorId, nowMs);
  }

  /**
   * Spark's tick, then the regret since the last tick.
   *
   * @param registered our registered executors
   * @param needed the executors the running and waiting tasks need; 0 when no task waits
   * @param latencyMs what an executor asked for now takes to register
   */
  void tick(long nowMs, int registered, int needed, double latencyMs) {
    PolicyDecision d = spark.tick(nowMs);
    sparkTarget = d.target();
    targetAt.put(nowMs, sparkTarget);
    targetAt.headMap(nowMs - HISTORY_MS).clear();
    for (String id : d.remove()) {
      if (kept.remove(id)) {
        spark.executorRemoved(id, nowMs);
      } else {
        sparkRemoved.add(id);
      }
    }
    if (lastTickMs >= 0 && needed > 0) {
      var asked = targetAt.floorEntry(nowMs - (long) latencyMs);
      int spark = Math.min(needed, Math.max(sparkHolds(), asked == null ? 0 : asked.getValue()));
      if (registered < spark) {
        behindMs += (nowMs - lastTickMs) * (1 - (double) registered / spark);
      }
    }
    lastTickMs = nowMs;
  }

  /** Executors Spark would hold now: ours, and those we removed that it would keep. */
  int sparkHolds() {
    ExecutorMonitor m = spark.monitor();
    return m.executorCount() - m.pendingRemovalCount();
  }

  int sparkTarget() {
    return sparkTarget;
  }

  /** Whether the time spent behind Spark exceeds the budget: its share of the job's time so far. */
  boolean overBudget(long nowMs) {
    return firstStageMs >= 0 && behindMs > BUDGET * (nowMs - firstStageMs);
  }

  double behindMs() {
    return behindMs;
  }

  void reset(long nowMs) {
    spark.reset(nowMs);
    idleRemoving.clear();
    kept.clear();
    sparkRemoved.clear();
  }
}
