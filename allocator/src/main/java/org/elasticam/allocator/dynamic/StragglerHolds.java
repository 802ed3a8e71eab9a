package org.elasticam.allocator.dynamic;

import java.util.HashMap;
import java.util.Map;

/**
 * Executors kept through their stage's stragglers. When most of a stage's tasks have ended and a
 * few still run, the executors the early ones freed go idle; the stage's children are submitted
 * shortly after the last straggler ends, and are often as wide as it was (the same shuffle
 * partitions). Removing those executors and asking for them again moments later costs the start
 * latency L twice: as executor-seconds while the new ones start, and as time the children's tasks
 * wait for them. So an idle executor whose last stage still runs is held; once that stage
 * completes it gets a fresh idle period, so that the children find it. A hold ends
 * {@link #HOLD_LATENCIES} x L after the executor's last task at the latest (later only when the
 * usual idle timeout is longer), and never past the user's {@code executorIdleTimeout}.
 */
final class StragglerHolds {

  /** The longest hold, in start latencies: the two costs of getting an executor back. */
  static final double HOLD_LATENCIES = 2.0;

  /** Per idle executor, the stage attempt (key) of its last task, while that stage still runs. */
  private final Map<String, Long> waitingFor = new HashMap<>();
  /** Per idle executor its stage released, when the stage completed. */
  private final Map<String, Long> releasedAt = new HashMap<>();

  void taskStarted(String executorId) {
    waitingFor.remove(executorId);
    releasedAt.remove(executorId);
  }

  /** The executor went idle after this task; it waits for the task's stage while that runs. */
  void executorIdled(TaskInfo task, boolean stageActive) {
    if (stageActive) {
      waitingFor.put(task.executorId(), TaskEstimates.key(task.stageId(), task.attempt()));
    }
  }

  void stageCompleted(int stageId, int attempt, long nowMs) {
    long key = TaskEstimates.key(stageId, attempt);
    waitingFor.entrySet().removeIf(e -> {
      if (e.getValue() == key) {
        releasedAt.put(e.getKey(), nowMs);
        return true;
      }
      return false;
    });
  }

  void executorRemoved(String executorId) {
    waitingFor.remove(executorId);
    releasedAt.remove(executorId);
  }

  /**
   * Whether the idle executor is held now: its stage still runs, or completed less than
   * {@code idleTimeoutMs} ago; and it has been idle less than the longest hold.
   *
   * @param idleTimeoutMs the policy's idle timeout now
   * @param ceilingMs the user's {@code executorIdleTimeout}
   */
  boolean held(String executorId, long idleSinceMs, long nowMs, long idleTimeoutMs, double latencyMs,
      long ceilingMs) {
    long longest = Math.min(ceilingMs, Math.max(idleTimeoutMs, (long) (HOLD_LATENCIES * latencyMs)));
    if (nowMs - idleSinceMs >= longest) {
      return false;
    }
    Long released = releasedAt.get(executorId);
    return waitingFor.containsKey(executorId) || (released != null && nowMs - released < idleTimeoutMs);
  }
}
