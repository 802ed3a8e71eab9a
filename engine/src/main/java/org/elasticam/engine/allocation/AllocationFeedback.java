package org.elasticam.engine.allocation;

import java.util.List;
import java.util.Map;
import org.elasticam.allocator.dynamic.AllocationPolicy;
import org.elasticam.allocator.dynamic.PolicyDecision;
import org.elasticam.allocator.dynamic.StageInfo;
import org.elasticam.allocator.dynamic.TaskInfo;
import org.elasticam.allocator.dynamic.TaskOutcome;
import org.elasticam.engine.scheduling.TaskAttempt;
import org.elasticam.api.Stage;
import org.elasticam.api.TaskSpec;

/**
 * Feeds a dynamic-allocation policy what the job does, in the policy's terms (stage attempts,
 * task outcomes, executors come and gone, shuffle output), and asks it for a decision every tick.
 * The AM's driver and the simulator feed their policies through this one class, so a policy sees
 * the same calls in both. Owner thread only.
 */
public final class AllocationFeedback {

  private final AllocationPolicy policy;
  /** A stage's current attempt: 0, then one more each time lost output made it run again. */
  private final Map<Integer, Integer> attempts = new java.util.HashMap<>();

  public AllocationFeedback(AllocationPolicy policy) {
    this.policy = policy;
  }

  public String name() {
    return policy.name();
  }

  public int target() {
    return policy.target();
  }

  public void stageSubmitted(Stage s, long nowMs) {
    attempts.put(s.id(), 0);
    submit(s, 0, s.tasks(), nowMs);
  }

  /** Lost output made these tasks of a completed stage run again: a new attempt of the stage. */
  public void stageResubmitted(Stage s, java.util.Collection<Integer> indices, long nowMs) {
    int attempt = attempts.merge(s.id(), 1, Integer::sum);
    submit(s, attempt, indices.stream().map(i -> s.tasks().get(i)).toList(), nowMs);
  }

  private void submit(Stage s, int attempt, List<TaskSpec> tasks, long nowMs) {
    int withPrefs = 0;
    // Sorted: the policy sees hosts in one order however the tasks list them.
    Map<String, Integer> hosts = new java.util.TreeMap<>();
    for (TaskSpec t : tasks) {
      if (!t.preferredHosts().isEmpty()) {
        withPrefs++;
        t.preferredHosts().forEach(h -> hosts.merge(h, 1, Integer::sum));
      }
    }
    policy.stageSubmitted(new StageInfo(s.id(), attempt, tasks.size(), withPrefs, hosts,
        s.writesShuffle() ? s.id() : -1), nowMs);
  }

  /** A finished stage no one will run again. */
  public void forget(int stageId) {
    attempts.remove(stageId);
  }

  public void stageCompleted(int stageId, long nowMs) {
    policy.stageCompleted(stageId, attempts.getOrDefault(stageId, 0), nowMs);
  }

  /** The executor wrote output of this shuffle: the policy's shuffle tracking keeps it while no service serves it. */
  public void shuffleOutput(String executorId, int shuffleId, long nowMs) {
    policy.shuffleOutput(executorId, shuffleId, nowMs);
  }

  /** No stage will read this shuffle again. */
  public void shuffleCleaned(int shuffleId, long nowMs) {
    policy.shuffleCleaned(shuffleId, nowMs);
  }

  /** A slow task will get a copy: the copy counts in the need until it starts (or is no longer needed). */
  public void speculativeTaskSubmitted(TaskAttempt a, long nowMs) {
    policy.speculativeTaskSubmitted(a.stageId(), attempts.getOrDefault(a.stageId(), 0), a.index(), nowMs);
  }

  public void taskStarted(TaskAttempt a, long nowMs) {
    policy.taskStarted(info(a), nowMs);
  }

  public void taskEnded(TaskAttempt a, boolean ok, boolean killed, long nowMs) {
    TaskOutcome o = ok ? TaskOutcome.SUCCESS : killed ? TaskOutcome.KILLED : TaskOutcome.FAILED;
    policy.taskEnded(info(a), o, nowMs - a.startMs(), nowMs);
  }

  /** Tasks that were running on a lost executor end as killed for the policy. */
  public void tasksLost(List<TaskAttempt> lost, long nowMs) {
    lost.forEach(a -> taskEnded(a, false, true, nowMs));
  }

  public void executorAdded(String id, long startLatencyMs, long nowMs) {
    policy.executorAdded(id, startLatencyMs, nowMs);
  }

  public void executorRemoved(String id, long nowMs) {
    policy.executorRemoved(id, nowMs);
  }

  /** The AM restarted with {@code survivors} executors of the earlier attempt on their way back. */
  public void restarted(int survivors, long nowMs) {
    policy.restarted(survivors, nowMs);
  }

  public PolicyDecision tick(long nowMs) {
    return policy.tick(nowMs);
  }

  private TaskInfo info(TaskAttempt a) {
    return new TaskInfo(a.stageId(), attempts.getOrDefault(a.stageId(), 0), a.index(), a.executorId(), a.speculative());
  }
}
