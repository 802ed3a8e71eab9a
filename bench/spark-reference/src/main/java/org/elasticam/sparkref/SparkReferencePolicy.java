package org.elasticam.sparkref;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.spark.ExecutorAllocationManager;
import org.apache.spark.scheduler.dynalloc.ExecutorMonitor;
import org.apache.spark.util.ManualClock;
import org.elasticam.allocator.dynamic.AllocationPolicy;
import org.elasticam.allocator.dynamic.PolicyDecision;
import org.elasticam.allocator.dynamic.PolicySettings;
import org.elasticam.allocator.dynamic.StageInfo;
import org.elasticam.allocator.dynamic.TaskInfo;
import org.elasticam.allocator.dynamic.TaskOutcome;

/**
 * {@code spark-reference}: Spark 3.5.3's own {@code ExecutorAllocationManager}, with its own
 * {@code ExecutorMonitor}, as a policy of the simulator. Our events become Spark's listener events
 * (delivered to the manager's listener and to its monitor directly, never through the asynchronous
 * listener bus), Spark's {@code ManualClock} is set to the simulated time, and each tick runs the
 * manager's schedule step once — {@code start()}, which would start a timer thread, is never
 * called. What the manager asks of its {@code ExecutorAllocationClient} comes back as the tick's
 * decision: the target it last requested and the executors it killed. Every reach into Spark is
 * in {@link SparkEvents} and {@link SparkManagers}.
 */
public final class SparkReferencePolicy implements AllocationPolicy {

  public static final String NAME = "spark-reference";

  private final ManualClock clock = new ManualClock(0);
  private final RecordingClient client = new RecordingClient();
  private final ExecutorAllocationManager manager;
  private final ExecutorMonitor monitor;
  private final SparkEvents events;
  private int lastTarget;

  public SparkReferencePolicy(PolicySettings settings) {
    this.manager = SparkManagers.create(settings, client, clock);
    this.monitor = manager.executorMonitor();
    this.events = new SparkEvents(clock);
    // start() would only add its timer and hand this initial target to the cluster manager; the
    // simulator reads it from target().
    this.lastTarget = SparkManagers.target(manager);
  }

  @Override
  public String name() {
    return NAME;
  }

  private void at(long nowMs) {
    if (nowMs > clock.getTimeMillis()) {
      clock.setTime(nowMs);
    }
  }

  @Override
  public void stageSubmitted(StageInfo stage, long nowMs) {
    at(nowMs);
    manager.listener().onStageSubmitted(events.stageSubmitted(stage));
  }

  @Override
  public void stageCompleted(int stageId, int attempt, long nowMs) {
    at(nowMs);
    manager.listener().onStageCompleted(events.stageCompleted(stageId, attempt));
  }

  @Override
  public void speculativeTaskSubmitted(int stageId, int attempt, int index, long nowMs) {
    at(nowMs);
    manager.listener().onSpeculativeTaskSubmitted(events.speculativeTaskSubmitted(stageId, attempt, index));
  }

  @Override
  public void unschedulableTaskSet(int stageId, int attempt, boolean added, long nowMs) {
    at(nowMs);
    if (added) {
      manager.listener().onUnschedulableTaskSetAdded(events.unschedulableAdded(stageId, attempt));
    } else {
      manager.listener().onUnschedulableTaskSetRemoved(events.unschedulableRemoved(stageId, attempt));
    }
  }

  @Override
  public void taskStarted(TaskInfo task, long nowMs) {
    at(nowMs);
    var start = events.taskStart(task);
    manager.listener().onTaskStart(start);
    monitor.onTaskStart(start);
  }

  @Override
  public void taskEnded(TaskInfo task, TaskOutcome outcome, long durationMs, long nowMs) {
    at(nowMs);
    var end = events.taskEnd(task, outcome);
    manager.listener().onTaskEnd(end);
    monitor.onTaskEnd(end);
  }

  @Override
  public void executorAdded(String executorId, long startLatencyMs, long nowMs) {
    at(nowMs);
    client.executorAdded(executorId);
    monitor.onExecutorAdded(events.executorAdded(executorId));
  }

  @Override
  public void executorRemoved(String executorId, long nowMs) {
    at(nowMs);
    client.executorRemoved(executorId);
    monitor.onExecutorRemoved(events.executorRemoved(executorId));
  }

  @Override
  public void cachedData(String executorId, boolean holds, long nowMs) {
    at(nowMs);
    monitor.onBlockUpdated(events.cachedBlock(executorId, holds));
  }

  /**
   * Spark learns shuffle output from the task ends of shuffle map stages itself (with shuffle
   * tracking on); this call adds nothing it would not know.
   */
  @Override
  public void shuffleOutput(String executorId, int shuffleId, long nowMs) {
    at(nowMs);
  }

  @Override
  public void shuffleCleaned(int shuffleId, long nowMs) {
    at(nowMs);
    monitor.shuffleCleaned(shuffleId);
  }

  @Override
  public PolicyDecision tick(long nowMs) {
    at(nowMs);
    client.beginTick();
    SparkManagers.schedule(manager);
    int target = SparkManagers.target(manager);
    int previous = lastTarget;
    lastTarget = target;
    int pendingTasks = manager.listener().pendingTasksPerResourceProfile(SparkManagers.DEFAULT_PROFILE);
    int runningTasks = manager.listener().totalRunningTasksPerResourceProfile(SparkManagers.DEFAULT_PROFILE);
    List<String> killed = new ArrayList<>(client.killedThisTick());
    String reason = target == previous ? "" : "Spark's ExecutorAllocationManager";
    return new PolicyDecision(target, previous, reason, killed, client.localityAwareTasks(),
        client.hostToLocalTaskCount(), pendingTasks, runningTasks);
  }

  @Override
  public void reset(long nowMs) {
    at(nowMs);
    manager.reset();
  }

  @Override
  public int target() {
    return lastTarget;
  }

  /**
   * The manager's view of the cluster manager: it records the locality hints of the last request
   * and the executors killed, and answers which executors are alive. Kills are taken at once, as the AM
   * takes them (the executor stops getting tasks and is released); a killed executor stays alive
   * to the manager until its removal arrives, as in Spark.
   */
  static final class RecordingClient extends SparkManagers.Client {

    private final Set<String> live = new LinkedHashSet<>();
    private final Set<String> killing = new java.util.HashSet<>();
    private final List<String> killed = new ArrayList<>();
    private int localityAware;
    private Map<String, Integer> hostCounts = Map.of();

    void beginTick() {
      killed.clear();
    }

    List<String> killedThisTick() {
      return killed;
    }

    void executorAdded(String id) {
      live.add(id);
    }

    void executorRemoved(String id) {
      live.remove(id);
      killing.remove(id);
    }

    int localityAwareTasks() {
      return localityAware;
    }

    Map<String, Integer> hostToLocalTaskCount() {
      return hostCounts;
    }

    @Override
    protected boolean requested(int totalExecutors, int localityAwareTasks, Map<String, Integer> hostToLocalTaskCount) {
      localityAware = localityAwareTasks;
      hostCounts = Map.copyOf(hostToLocalTaskCount);
      return true;
    }

    @Override
    protected List<String> kill(List<String> ids) {
      List<String> done = new ArrayList<>();
      for (String id : ids) {
        if (live.contains(id) && killing.add(id)) {
          done.add(id);
        }
      }
      killed.addAll(done);
      return done;
    }

    @Override
    protected List<String> executorIds() {
      return List.copyOf(live);
    }

    @Override
    protected boolean isActive(String id) {
      return live.contains(id);
    }
  }
}
