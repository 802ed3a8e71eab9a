package org.elasticam.allocator.dynamic;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalDouble;

/**
 * Our batch policy. It keeps Spark's guarantees — the need (with the allocation ratio and the
 * speculation and unschedulable rules) caps the target, the bounds hold, the initial target holds
 * until the first stage, removal never goes below the minimum or the target, an executor running
 * a task is never removed — and changes how it gets there, using what it observes of this job:
 *
 * <ul>
 *   <li><b>Ask for what the backlog is worth, at once.</b> With a task duration D estimated for each
 *       active stage and the executors' start latency L, the work left W (pending tasks x D plus
 *       what running tasks still have) is compared with what the current executors E finish by the
 *       time a new one would arrive: when they would be done by then, nothing is asked; otherwise
 *       the target is the number of executors that each still get at least max(D, L) of work once
 *       they arrive. No 1, 2, 4, … ramp, no waiting for the backlog timeout once D is known: a stage
 *       of tiny tasks gets no executors that would arrive after it ended, and a long stage gets its
 *       executors in one round.</li>
 *   <li><b>Cold start.</b> Before any task duration is known, Spark's doubling ramp on the backlog
 *       timers probes the stage; the first running task gives a lower bound on D.</li>
 *   <li><b>Idle executors go once keeping them costs more than getting them back.</b> An idle
 *       executor is removed after {@link #IDLE_LATENCIES} start latencies (at least
 *       {@link #MIN_IDLE}), never later than {@code executorIdleTimeout}: waiting longer than it
 *       takes to get an executor back only pays for idleness (the ski-rental rule).</li>
 * </ul>
 *
 * After an AM restart it resumes from the executors still alive instead of the initial target.
 */
public final class ElasticPolicy implements AllocationPolicy {

  /** How many start latencies an idle executor is kept. */
  static final double IDLE_LATENCIES = 2.0;
  /** The shortest idle time before removal, whatever the start latency. */
  static final Duration MIN_IDLE = Duration.ofSeconds(2);
  /** The start latency assumed before one was observed. */
  static final long PRIOR_START_LATENCY_MS = 3_000;

  private final PolicySettings s;
  private final WorkloadTracker work = new WorkloadTracker();
  private final ExecutorMonitor monitor;
  private final TaskEstimates estimates = new TaskEstimates();
  private int target;
  private boolean initializing = true;
  private long backlogSinceMs = -1;
  private long nextRampMs = Long.MAX_VALUE;
  private int rampStep = 1;

  public ElasticPolicy(PolicySettings settings) {
    this.s = settings;
    this.monitor = new ExecutorMonitor(s.idleTimeout(), s.cachedIdleTimeout(), s.shuffleTimeout(),
        s.shuffleTrackingActive());
    this.target = s.initialExecutors();
  }

  @Override
  public String name() {
    return "elastic";
  }

  // ---- events --------------------------------------------------------------------------------

  @Override
  public void stageSubmitted(StageInfo stage, long nowMs) {
    initializing = false;
    work.stageSubmitted(stage);
    if (backlogSinceMs < 0) {
      backlogSinceMs = nowMs;
    }
  }

  @Override
  public void stageCompleted(int stageId, int attempt, long nowMs) {
    work.stageCompleted(stageId, attempt);
    estimates.stageCompleted(stageId, attempt);
  }

  @Override
  public void speculativeTaskSubmitted(int stageId, int attempt, int index, long nowMs) {
    work.speculativeTaskSubmitted(stageId, attempt, index);
  }

  @Override
  public void unschedulableTaskSet(int stageId, int attempt, boolean added, long nowMs) {
    work.unschedulable(stageId, attempt, added);
  }

  @Override
  public void taskStarted(TaskInfo task, long nowMs) {
    work.taskStarted(task);
    monitor.taskStarted(task.executorId());
    estimates.taskStarted(task, nowMs);
  }

  @Override
  public void taskEnded(TaskInfo task, TaskOutcome outcome, long durationMs, long nowMs) {
    work.taskEnded(task, outcome);
    monitor.taskEnded(task.executorId(), nowMs);
    estimates.taskEnded(task, outcome, durationMs);
  }

  @Override
  public void executorAdded(String executorId, long startLatencyMs, long nowMs) {
    monitor.executorAdded(executorId, nowMs);
    estimates.executorStarted(startLatencyMs);
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

  // ---- the tick ------------------------------------------------------------------------------

  @Override
  public PolicyDecision tick(long nowMs) {
    monitor.setIdleTimeout(idleTimeout());
    List<String> timedOut = monitor.timedOut(nowMs);
    if (!timedOut.isEmpty()) {
      initializing = false;
    }
    int previous = target;
    String reason = initializing ? "" : updateTarget(nowMs);
    List<String> remove = removeIdle(timedOut);
    return new PolicyDecision(target, previous, reason, remove, work.localityAwareTasks(),
        work.hostToLocalTaskCount(), work.pendingTasks(), work.runningTasks());
  }

  /** Spark's need: the most executors the running and pending tasks can use. */
  int maxNeeded() {
    int perExecutor = s.tasksPerExecutor();
    int tasks = work.pendingTasks() + work.pendingSpeculativeTasks() + work.runningTasks();
    int needed = (int) Math.ceil(tasks * s.allocationRatio() / perExecutor);
    if (perExecutor > 1 && needed == 1 && work.pendingSpeculativeTasks() > 0) {
      needed = 2;
    }
    int unschedulable = work.unschedulableTaskSets();
    if (unschedulable > 0) {
      needed = Math.max(needed, monitor.executorCount()
          + (int) Math.ceil(unschedulable * s.allocationRatio() / perExecutor));
    }
    return needed;
  }

  private String updateTarget(long nowMs) {
    int needed = maxNeeded();
    if (needed < target) {
      int old = target;
      target = Math.max(needed, s.minExecutors());
      resetRamp();
      return target == old ? "" : "the need fell to " + needed + " executor(s)";
    }
    if (!work.hasPendingTasks()) {
      resetRamp();
      return "";
    }
    if (backlogSinceMs < 0) {
      backlogSinceMs = nowMs;
    }
    Backlog b = backlog(nowMs);
    int worth = b.worth();
    String why = "the backlog is worth";
    if (b.unknownPending() > 0) {
      int probe = coldRamp(nowMs);
      if (probe > worth) {
        worth = probe;
        why = "tasks of unknown duration are waiting; probing with";
      }
    } else {
      resetRamp();
      backlogSinceMs = nowMs;
    }
    if (work.pendingTasks() > 0 && worth < 1) {
      // Someone must run the waiting tasks, however little work they are.
      worth = 1;
    }
    return raiseTo(worth, needed, why);
  }

  /** The backlog in executors: what the stages of known task duration are worth, and the rest. */
  private record Backlog(int worth, int unknownPending) {}

  /**
   * For stages whose task duration is known (from this stage's finished tasks, or at least how long
   * its running tasks have run), the executors the work left can keep busy: only those that would
   * each still get max(D, L) of work once they arrive count. Stages of unknown duration are left to
   * the probe.
   */
  private Backlog backlog(long nowMs) {
    double left = 0;
    double longestTask = 0;
    int unknown = 0;
    for (WorkloadTracker.StageLoad load : work.loads()) {
      OptionalDouble d = estimates.taskMs(load.stageId(), load.attempt(), nowMs);
      if (d.isEmpty()) {
        unknown += load.pending();
        continue;
      }
      double taskMs = Math.max(1, d.getAsDouble());
      left += load.pending() * taskMs + estimates.runningRemainingMs(load.stageId(), load.attempt(), taskMs, nowMs);
      longestTask = Math.max(longestTask, taskMs);
    }
    double latency = startLatencyMs();
    int have = Math.max(target, monitor.executorCount());
    double slots = s.tasksPerExecutor();
    double doneBeforeNewOnesArrive = have * slots * latency;
    if (left <= doneBeforeNewOnesArrive) {
      return new Backlog(have, unknown);
    }
    double worthEach = slots * Math.max(longestTask, latency);
    double worth = Math.max(have, Math.floor((left - doneBeforeNewOnesArrive) / worthEach));
    return new Backlog((int) Math.min(Integer.MAX_VALUE, worth), unknown);
  }

  private String raiseTo(int worth, int needed, String why) {
    int next = Math.max(s.minExecutors(), Math.min(s.maxExecutors(), Math.min(worth, needed)));
    if (next <= target) {
      return "";
    }
    int old = target;
    target = next;
    return why + " " + next + " executor(s): +" + (next - old) + " (need " + needed + ")";
  }

  /**
   * For tasks of unknown duration: Spark's target progression on the backlog timers (1, 3, 7, … as
   * rounds of 1, 2, 4, … pass), so a stage nobody has measured yet is probed, not flooded.
   */
  private int probed;

  private int coldRamp(long nowMs) {
    if (nextRampMs == Long.MAX_VALUE) {
      nextRampMs = backlogSinceMs + s.backlogTimeout().toMillis();
    }
    if (nowMs >= nextRampMs) {
      probed += rampStep;
      rampStep = Math.min(rampStep * 2, 1 << 20);
      nextRampMs = nowMs + s.sustainedBacklogTimeout().toMillis();
    }
    return probed;
  }

  private void resetRamp() {
    backlogSinceMs = -1;
    nextRampMs = Long.MAX_VALUE;
    rampStep = 1;
    probed = 0;
  }

  private double startLatencyMs() {
    return estimates.startLatencyMs().orElse(PRIOR_START_LATENCY_MS);
  }

  /** Idle longer than it takes to get an executor back is paid for nothing; the user's timeout caps it. */
  Duration idleTimeout() {
    long byLatency = (long) (IDLE_LATENCIES * startLatencyMs());
    Duration adaptive = Duration.ofMillis(Math.max(MIN_IDLE.toMillis(), byLatency));
    return adaptive.compareTo(s.idleTimeout()) < 0 ? adaptive : s.idleTimeout();
  }

  private List<String> removeIdle(List<String> timedOut) {
    List<String> out = new ArrayList<>();
    int remaining = monitor.executorCount() - monitor.pendingRemovalCount();
    for (String id : timedOut) {
      if (remaining - 1 < s.minExecutors() || remaining - 1 < target) {
        continue;
      }
      out.add(id);
      monitor.markPendingRemoval(id);
      remaining--;
    }
    return out;
  }

  /** After an AM restart: start from the executors still alive, not from the initial target. */
  @Override
  public void reset(long nowMs) {
    target = Math.max(Math.min(s.maxExecutors(), monitor.executorCount()), s.initialExecutors());
    resetRamp();
  }

  @Override
  public int target() {
    return target;
  }
}
