package org.elasticam.allocator.dynamic;

import java.util.List;

/**
 * What every batch policy does the same way: it tracks the workload and the executors, holds the
 * initial target until the first stage or the first idle timeout, and each tick decides the target
 * (the subclass's rule) and removes timed-out executors within the shared guarantees.
 */
abstract class TrackingPolicy implements AllocationPolicy {

  protected final PolicySettings s;
  protected final WorkloadTracker work = new WorkloadTracker();
  protected final ExecutorMonitor monitor;
  protected int target;
  protected boolean initializing = true;

  TrackingPolicy(PolicySettings settings) {
    this.s = settings;
    this.monitor = new ExecutorMonitor(s.idleTimeout(), s.cachedIdleTimeout(), s.shuffleTimeout(),
        s.shuffleTrackingActive());
    this.target = s.initialExecutors();
  }

  /** The subclass's rule: move the target; returns why, or "" when it did not move. */
  protected abstract String updateTarget(long nowMs);

  /** Called before a tick decides anything. */
  protected void beforeTick(long nowMs) {}

  /** Called for each executor about to be removed. */
  protected void removing(String executorId) {}

  /**
   * Which of the timed-out executors may go, and which go first when a bound stops removal part
   * way: by default all of them in Spark's order (ids as strings), which {@code spark} must keep.
   */
  protected List<String> removalCandidates(List<String> timedOut, long nowMs) {
    return timedOut;
  }

  @Override
  public final PolicyDecision tick(long nowMs) {
    beforeTick(nowMs);
    List<String> timedOut = removalCandidates(monitor.timedOut(nowMs), nowMs);
    if (!timedOut.isEmpty()) {
      initializing = false;
    }
    int previous = target;
    String reason = initializing ? "" : updateTarget(nowMs);
    List<String> remove = PolicyRules.removable(timedOut, s, monitor, target, this::removing);
    return new PolicyDecision(target, previous, reason, remove, work.localityAwareTasks(),
        work.hostToLocalTaskCount(), work.pendingTasks(), work.runningTasks());
  }

  /** The most executors the running and pending tasks can use (Spark's need). */
  int maxNeeded() {
    return PolicyRules.maxNeeded(s, work, monitor);
  }

  @Override
  public void executorRemoved(String executorId, long nowMs) {
    monitor.executorRemoved(executorId);
  }

  @Override
  public void cachedData(String executorId, boolean holds, long nowMs) {
    monitor.cachedData(executorId, holds);
  }

  @Override
  public void shuffleOutput(String executorId, int shuffleId, long nowMs) {
    monitor.shuffleOutput(executorId, shuffleId);
  }

  @Override
  public void shuffleCleaned(int shuffleId, long nowMs) {
    monitor.shuffleCleaned(shuffleId);
  }

  @Override
  public int target() {
    return target;
  }
}
