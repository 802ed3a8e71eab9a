package org.elasticam.sparkref;

import java.util.ArrayList;
import java.util.List;
import org.elasticam.allocator.dynamic.AllocationPolicy;
import org.elasticam.allocator.dynamic.PolicyDecision;
import org.elasticam.allocator.dynamic.StageInfo;
import org.elasticam.allocator.dynamic.TaskInfo;
import org.elasticam.allocator.dynamic.TaskOutcome;

/**
 * Our {@code spark} policy and {@code spark-reference} told the same events at the same times;
 * each tick both decide, ours is carried out, and every tick where the two differ — in the target,
 * or in which executors to remove — is kept with both decisions.
 */
final class Lockstep implements AllocationPolicy {

  /** One tick where the two disagreed. */
  record Divergence(long tickMs, int ourTarget, int sparkTarget, List<String> ourRemovals,
      List<String> sparkRemovals) {
    @Override
    public String toString() {
      return "at " + tickMs + " ms: spark target " + ourTarget + " removes " + ourRemovals + "; spark-reference target "
          + sparkTarget + " removes " + sparkRemovals;
    }
  }

  private final AllocationPolicy ours;
  private final AllocationPolicy spark;
  private final List<Divergence> divergences = new ArrayList<>();
  private long ticks;

  Lockstep(AllocationPolicy ours, AllocationPolicy spark) {
    this.ours = ours;
    this.spark = spark;
  }

  List<Divergence> divergences() {
    return divergences;
  }

  long ticks() {
    return ticks;
  }

  @Override
  public String name() {
    return ours.name();
  }

  @Override
  public void stageSubmitted(StageInfo stage, long nowMs) {
    ours.stageSubmitted(stage, nowMs);
    spark.stageSubmitted(stage, nowMs);
  }

  @Override
  public void stageCompleted(int stageId, int attempt, long nowMs) {
    ours.stageCompleted(stageId, attempt, nowMs);
    spark.stageCompleted(stageId, attempt, nowMs);
  }

  @Override
  public void speculativeTaskSubmitted(int stageId, int attempt, int index, long nowMs) {
    ours.speculativeTaskSubmitted(stageId, attempt, index, nowMs);
    spark.speculativeTaskSubmitted(stageId, attempt, index, nowMs);
  }

  @Override
  public void unschedulableTaskSet(int stageId, int attempt, boolean added, long nowMs) {
    ours.unschedulableTaskSet(stageId, attempt, added, nowMs);
    spark.unschedulableTaskSet(stageId, attempt, added, nowMs);
  }

  @Override
  public void taskStarted(TaskInfo task, long nowMs) {
    ours.taskStarted(task, nowMs);
    spark.taskStarted(task, nowMs);
  }

  @Override
  public void taskEnded(TaskInfo task, TaskOutcome outcome, long durationMs, long nowMs) {
    ours.taskEnded(task, outcome, durationMs, nowMs);
    spark.taskEnded(task, outcome, durationMs, nowMs);
  }

  @Override
  public void executorAdded(String executorId, long startLatencyMs, long nowMs) {
    ours.executorAdded(executorId, startLatencyMs, nowMs);
    spark.executorAdded(executorId, startLatencyMs, nowMs);
  }

  @Override
  public void executorRemoved(String executorId, long nowMs) {
    ours.executorRemoved(executorId, nowMs);
    spark.executorRemoved(executorId, nowMs);
  }

  @Override
  public void cachedData(String executorId, boolean holds, long nowMs) {
    ours.cachedData(executorId, holds, nowMs);
    spark.cachedData(executorId, holds, nowMs);
  }

  @Override
  public void shuffleOutput(String executorId, int shuffleId, long nowMs) {
    ours.shuffleOutput(executorId, shuffleId, nowMs);
    spark.shuffleOutput(executorId, shuffleId, nowMs);
  }

  @Override
  public void shuffleCleaned(int shuffleId, long nowMs) {
    ours.shuffleCleaned(shuffleId, nowMs);
    spark.shuffleCleaned(shuffleId, nowMs);
  }

  @Override
  public PolicyDecision tick(long nowMs) {
    ticks++;
    PolicyDecision a = ours.tick(nowMs);
    PolicyDecision b = spark.tick(nowMs);
    List<String> ra = a.remove().stream().sorted().toList();
    List<String> rb = b.remove().stream().sorted().toList();
    if (a.target() != b.target() || !ra.equals(rb)) {
      divergences.add(new Divergence(nowMs, a.target(), b.target(), ra, rb));
    }
    return a;
  }

  @Override
  public void reset(long nowMs) {
    ours.reset(nowMs);
    spark.reset(nowMs);
  }

  @Override
  public int target() {
    return ours.target();
  }
}
