package org.elasticam.allocator.dynamic;

/**
 * A batch dynamic-allocation policy: told what the job and its executors do, it decides, on a
 * fixed 100 ms tick, how many executors the job should have and which idle ones to remove. Pure:
 * every call carries the time; called on one thread.
 */
public interface AllocationPolicy {

  /** Spark's schedule loop period. */
  long TICK_MS = 100;

  /** {@code spark} or {@code elastic}, as the event log names it. */
  String name();

  void stageSubmitted(StageInfo stage, long nowMs);

  void stageCompleted(int stageId, int attempt, long nowMs);

  void speculativeTaskSubmitted(int stageId, int attempt, int index, long nowMs);

  /** Every executor is excluded for this task set (added), or that is over (removed). */
  void unschedulableTaskSet(int stageId, int attempt, boolean added, long nowMs);

  void taskStarted(TaskInfo task, long nowMs);

  void taskEnded(TaskInfo task, TaskOutcome outcome, long durationMs, long nowMs);

  /**
   * An executor registered.
   *
   * @param startLatencyMs from the request that brought it to its registration, or -1 if unknown
   */
  void executorAdded(String executorId, long startLatencyMs, long nowMs);

  void executorRemoved(String executorId, long nowMs);

  /** Whether the executor now holds cached data (it then gets the cached idle timeout). */
  void cachedData(String executorId, boolean holds, long nowMs);

  /** The executor wrote output of this shuffle; it matters while shuffle tracking is active. */
  void shuffleOutput(String executorId, int shuffleId, long nowMs);

  /** No job will read this shuffle again. */
  void shuffleCleaned(int shuffleId, long nowMs);

  PolicyDecision tick(long nowMs);

  /** The AM restarted. */
  void reset(long nowMs);

  /**
   * The AM restarted and {@code survivors} executors of the earlier attempt are coming back to it
   * (they re-register one by one). By default the policy starts over, as Spark's does.
   */
  default void restarted(int survivors, long nowMs) {
    reset(nowMs);
  }

  int target();
}
