package org.elasticam.sim;

import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.elasticam.allocator.dynamic.AllocationPolicy;
import org.elasticam.engine.allocation.AllocationFeedback;
import org.elasticam.engine.events.JobEvents;
import org.elasticam.engine.executors.ExecutorSlots;
import org.elasticam.engine.scheduling.TaskAttempt;
import org.elasticam.engine.scheduling.TaskScheduler;

/**
 * The simulated driver, shaped like the AM's: it submits the replay's stages to the real
 * {@link TaskScheduler}, offers registered executors' free slots (cores / task.cpus each) on every
 * event and on a 100 ms tick, runs each task for exactly its duration, and tells the policy
 * everything the AM tells it — stages submitted and completed, tasks started and ended, executors
 * added (with their start latency) and removed. The policy ticks on the same 100 ms tick.
 */
final class SimDriver implements SimExecutors.Driver, PolicyLink.Driver {

  /** How long work may wait with nothing running before the run is declared stuck. */
  static final long STUCK_AFTER_MS = 24L * 3600 * 1000;

  private final EventQueue time;
  private final Workload workload;
  private final TaskScheduler scheduler;
  private final PolicyLink link;
  private final AllocationPolicy policy;
  private final AllocationFeedback feedback;
  private final int slotsPerExecutor;
  private final JobEvents events;
  private final RunMetrics metrics;
  private final StageParallelism parallelism;
  private final Runnable onJobEnd;
  private final Map<String, SimExecutors.Registered> executors = new LinkedHashMap<>();
  private final ExecutorSlots slots = new ExecutorSlots();
  private final Set<String> removing = new HashSet<>();
  private int stagesDone;
  private long lastTaskEventMs;
  private boolean ended;

  SimDriver(EventQueue time, Workload workload, TaskScheduler scheduler, PolicyLink link, int slotsPerExecutor,
      EventLogSink log, RunMetrics metrics, StageParallelism parallelism, Runnable onJobEnd) {
    this.time = time;
    this.workload = workload;
    this.scheduler = scheduler;
    this.link = link;
    this.policy = link.policy();
    this.feedback = new AllocationFeedback(policy);
    this.slotsPerExecutor = slotsPerExecutor;
    this.events = new JobEvents(log);
    this.metrics = metrics;
    this.parallelism = parallelism;
    this.onJobEnd = onJobEnd;
  }

  /** Sets the initial target, schedules the first stages and starts the tick. */
  void start() {
    link.start(this);
    if (workload.totalStages() == 0) {
      endJob();
      return;
    }
    submitAll(workload.start(time.now()));
    tick();
  }

  private void tick() {
    if (ended) {
      return;
    }
    link.tick(time.now(), this);
    revive();
    if (scheduler.pendingTasks() > 0 && scheduler.runningTasks() == 0
        && time.now() - lastTaskEventMs > STUCK_AFTER_MS) {
      throw new SimulationException(scheduler.pendingTasks() + " task(s) waited "
          + STUCK_AFTER_MS / 3_600_000 + " h of simulated time without an executor to run on (policy "
          + policy.name() + ", target " + policy.target() + ")");
    }
    time.after(AllocationPolicy.TICK_MS, this::tick);
  }

  // ---- stages ----------------------------------------------------------------------------------

  private void submitAll(List<Workload.Due> due) {
    for (Workload.Due d : due) {
      time.at(d.atMs(), () -> submit(d));
    }
  }

  private void submit(Workload.Due d) {
    long now = time.now();
    scheduler.submit(d.stage(), now);
    events.stageSubmitted(d.stage());
    parallelism.submitted(d.stage().id(), d.stage().tasks().size(), now);
    feedback.stageSubmitted(d.stage(), now);
    if (scheduler.runningTasks() == 0) {
      lastTaskEventMs = now;
    }
    revive();
  }

  private void stageCompleted(int stageId, int tasks) {
    long now = time.now();
    stagesDone++;
    events.stageCompleted(stageId, tasks);
    parallelism.completed(stageId, now);
    feedback.stageCompleted(stageId, now);
    submitAll(workload.stageCompleted(stageId, now));
    if (stagesDone == workload.totalStages()) {
      endJob();
    }
  }

  private void endJob() {
    ended = true;
    onJobEnd.run();
  }

  // ---- executors -------------------------------------------------------------------------------

  @Override
  public void registered(SimExecutors.Registered e) {
    if (ended) {
      return;
    }
    executors.put(e.id(), e);
    slots.add(new ExecutorSlots.Executor(e.id(), e.host(), slotsPerExecutor));
    scheduler.executorUp(e.id(), e.host());
    events.executorRegistered(e.id(), e.container().id(), e.host(), e.cores());
    feedback.executorAdded(e.id(), e.startLatencyMs(), time.now());
    revive();
  }

  @Override
  public void stopOffering(String executorId) {
    removing.add(executorId);
  }

  @Override
  public void stopped(String executorId) {
    removing.remove(executorId);
    SimExecutors.Registered e = executors.remove(executorId);
    slots.remove(executorId);
    if (e == null || ended) {
      return;
    }
    long now = time.now();
    for (TaskAttempt a : scheduler.executorLost(executorId)) {
      parallelism.taskEnded(a.stageId());
      events.taskEnded(a, now - a.startMs(), JobEvents.Status.KILLED, false);
      feedback.taskEnded(a, false, true, now);
    }
    feedback.executorRemoved(executorId, now);
    revive();
  }

  // ---- tasks -----------------------------------------------------------------------------------

  private void revive() {
    if (ended || scheduler.pendingTasks() == 0 || executors.isEmpty()) {
      return;
    }
    List<TaskScheduler.Offer> offers = slots.offers(scheduler, removing::contains);
    if (offers.isEmpty()) {
      return;
    }
    for (TaskAttempt a : scheduler.schedule(offers, time.now())) {
      startTask(a, executors.get(a.executorId()));
    }
  }

  private void startTask(TaskAttempt a, SimExecutors.Registered e) {
    long now = time.now();
    lastTaskEventMs = now;
    metrics.taskStarted(e.container(), now);
    parallelism.taskStarted(a.stageId(), now);
    events.taskStarted(a);
    feedback.taskStarted(a, now);
    time.after(workload.durationMs(a.stageId(), a.index()), () -> taskFinished(a, e));
  }

  private void taskFinished(TaskAttempt a, SimExecutors.Registered e) {
    Optional<TaskScheduler.TaskEnd> end = scheduler.taskEnded(a.taskId(), true, false, "");
    if (end.isEmpty() || ended) {
      return; // its executor was lost meanwhile: the task was put back and runs again elsewhere
    }
    long now = time.now();
    lastTaskEventMs = now;
    metrics.taskEnded(e.container(), now);
    parallelism.taskEnded(a.stageId());
    events.taskEnded(a, now - a.startMs(), JobEvents.Status.SUCCESS, false);
    feedback.taskEnded(a, true, false, now);
    end.get().stageCompleted().ifPresent(id -> stageCompleted(id, workload.tasksOf(id)));
    revive();
  }

  // ---- what the run reads ----------------------------------------------------------------------

  @Override
  public int pendingTasks() {
    return scheduler.pendingTasks();
  }

  @Override
  public int runningTasks() {
    return scheduler.runningTasks();
  }

  boolean ended() {
    return ended;
  }
}
