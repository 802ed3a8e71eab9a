package org.elasticam.sim;

import static org.elasticam.report.events.EventFields.RECOMPUTED;
import static org.elasticam.report.events.EventFields.RECOVERED;
import static org.elasticam.report.events.EventFields.STAGE_ID;
import static org.elasticam.report.events.EventFields.TASKS;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.elasticam.allocator.dynamic.AllocationPolicy;
import org.elasticam.allocator.model.ExecutorId;
import org.elasticam.allocator.model.LocalityHints;
import org.elasticam.conf.ElasticConf;
import org.elasticam.engine.job.AllocatorPort;
import org.elasticam.engine.job.DriverSettings;
import org.elasticam.engine.job.EnginePorts;
import org.elasticam.engine.job.ExecutorLink;
import org.elasticam.engine.job.JobEngine;
import org.elasticam.engine.job.JobPolicies;
import org.elasticam.engine.job.Outcome;
import org.elasticam.engine.job.Registration;
import org.elasticam.engine.job.TaskLaunch;
import org.elasticam.engine.job.TaskReport;
import org.elasticam.engine.job.TracePlan;
import org.elasticam.engine.scheduling.TaskAttempt;
import org.elasticam.engine.scheduling.TaskScheduler;
import org.elasticam.report.events.Event;
import org.elasticam.report.events.EventWriter;

/**
 * The AM's job engine, run on simulated executors: the same {@link JobEngine} the AM's driver
 * translates the control plane for submits the replay's stages, schedules tasks on the registered
 * executors' slots, feeds the policy and ticks it, and sets the allocator's target. Here an executor
 * registers when {@link SimExecutors} says it started, and runs each task for exactly its trace
 * duration; the engine's allocator port is the simulated allocator. What this class adds is only
 * what the figures need (busy time, time to full parallelism) and a check that the run is not stuck.
 */
final class SimJob implements SimExecutors.Driver {

  /** How long work may wait with nothing running before the run is declared stuck. */
  static final long STUCK_AFTER_MS = 24L * 3600 * 1000;
  /** Simulated executors do not fail silently, and send no heartbeats to prove it. */
  private static final Duration NEVER_SILENT = Duration.ofDays(365);

  private final EventQueue time;
  private final TracePlan plan;
  private final TaskScheduler scheduler;
  private final AllocationPolicy policy;
  private final SimAllocator allocator;
  private final SimHeartbeater heartbeat;
  private final RunMetrics metrics;
  private final StageParallelism parallelism;
  private final JobEngine engine;
  private final Map<String, SimExecutor> executors = new LinkedHashMap<>();
  private long lastTaskEventMs;

  SimJob(EventQueue time, TracePlan plan, TaskScheduler scheduler, AllocationPolicy policy, ElasticConf conf,
      SimAllocator allocator, SimHeartbeater heartbeat, EventLogSink log, RunMetrics metrics,
      StageParallelism parallelism, Runnable onJobEnd) {
    this.time = time;
    this.plan = plan;
    this.scheduler = scheduler;
    this.policy = policy;
    this.allocator = allocator;
    this.heartbeat = heartbeat;
    this.metrics = metrics;
    this.parallelism = parallelism;
    DriverSettings settings = DriverSettings.from(conf, "simulated").withHeartbeatTimeout(NEVER_SILENT);
    this.engine = new JobEngine(settings, plan, scheduler, new EnginePorts(time, time.clock(), new SimAllocatorPort(),
        new Observed(log)), JobPolicies.batch(policy), outcome -> ended(outcome, onJobEnd));
  }

  /** Sets the initial target, submits the first stages and starts the engine's tick. */
  void start() {
    engine.start();
    if (plan.totalStages() == 0) {
      engine.finish(Outcome.succeeded("the trace has no task"));
      return;
    }
    time.every(Duration.ofMinutes(1), this::checkNotStuck);
  }

  private static void ended(Outcome outcome, Runnable onJobEnd) {
    if (outcome.status() != Outcome.Status.SUCCEEDED) {
      throw new SimulationException("the job " + outcome.status() + ": " + outcome.diagnostics());
    }
    onJobEnd.run();
  }

  private void checkNotStuck() {
    if (engine.outcome().isEmpty() && scheduler.pendingTasks() > 0 && scheduler.runningTasks() == 0
        && time.now() - lastTaskEventMs > STUCK_AFTER_MS) {
      throw new SimulationException(scheduler.pendingTasks() + " task(s) waited "
          + STUCK_AFTER_MS / 3_600_000 + " h of simulated time without an executor to run on (policy "
          + policy.name() + ", target " + policy.target() + ")");
    }
  }

  // ---- executors -------------------------------------------------------------------------------

  @Override
  public void registered(SimExecutors.Registered e) {
    SimExecutor executor = new SimExecutor(e);
    JobEngine.Session session = engine.register(executor, new Registration(e.id(), e.host(), e.container().id(),
        e.cores(), 0, null, null, List.of(), true, null));
    if (session != null) {
      executor.session = session;
      executors.put(e.id(), executor);
    }
  }

  @Override
  public void exited(String executorId) {
    engine.containerCompleted(executorId, "its container exited");
  }

  /** One simulated executor process: a task runs for its duration in the trace, then succeeds. */
  private final class SimExecutor implements ExecutorLink {
    private final SimExecutors.Registered process;
    private final Map<Long, TaskAttempt> running = new LinkedHashMap<>();
    private JobEngine.Session session;
    private boolean ended;

    SimExecutor(SimExecutors.Registered process) {
      this.process = process;
    }

    @Override
    public void launch(TaskLaunch launch) {
      TaskAttempt a = launch.attempt();
      long now = time.now();
      lastTaskEventMs = now;
      metrics.taskStarted(process.container(), now);
      parallelism.taskStarted(a.stageId(), now);
      running.put(a.taskId(), a);
      time.after(plan.durationMs(a.stageId(), a.index()), () -> ended(a, TaskReport.State.SUCCEEDED));
    }

    private void ended(TaskAttempt a, TaskReport.State state) {
      if (ended || running.remove(a.taskId()) == null) {
        return;
      }
      long now = time.now();
      lastTaskEventMs = now;
      metrics.taskEnded(process.container(), now);
      parallelism.taskEnded(a.stageId());
      engine.taskReported(session, new TaskReport(a.taskId(), state, "", 0, null));
    }

    /** As a real executor: the attempt stops, and its end is reported after the engine's turn. */
    @Override
    public void kill(long taskId) {
      TaskAttempt a = running.get(taskId);
      if (a != null) {
        time.after(0, () -> ended(a, TaskReport.State.KILLED));
      }
    }

    /** The session ends with the executor: what it was running ends unreported. */
    @Override
    public void end() {
      ended = true;
      running.values().forEach(a -> parallelism.taskEnded(a.stageId()));
      running.clear();
      executors.remove(process.id());
    }

    // Simulated tasks neither commit output nor read tokens; a stopped one has nothing to clean up.
    @Override
    public void registered(String appId, long heartbeatIntervalMs) {}

    @Override
    public void commitAnswer(long taskId, boolean allowed) {}

    @Override
    public void credentials(byte[] tokens) {}

    @Override
    public void shutdown(String reason) {}

    @Override
    public void refuse(String why) {}
  }

  // ---- the allocator ---------------------------------------------------------------------------

  /** The engine's allocator, as the AM's YarnAllocatorPort: a changed target wakes the heartbeat. */
  private final class SimAllocatorPort implements AllocatorPort {
    @Override
    public boolean requestTotalExecutors(int target, int localityAwareTasks, Map<String, Integer> hostToLocalTaskCount,
        Set<String> excludedNodes) {
      boolean changed = allocator.requestTotalExecutors(target,
          new LocalityHints(localityAwareTasks, hostToLocalTaskCount), excludedNodes);
      if (changed) {
        heartbeat.wakeUp();
      }
      return changed;
    }

    @Override
    public void killExecutor(String executorId, String reason) {
      if (allocator.killExecutor(ExecutorId.parse(executorId), reason)) {
        metrics.executorKilled();
      }
    }

    @Override
    public void executorRegistered(String executorId) {
      allocator.registered(ExecutorId.parse(executorId));
    }

    @Override
    public void killFailedExecutor(String executorId, String why) {
      allocator.killFailedExecutor(ExecutorId.parse(executorId), why);
    }

    @Override
    public Optional<Launched> launched(String executorId) {
      return allocator.liveExecutor(ExecutorId.parse(executorId))
          .map(c -> new Launched(c.container().id(), c.host(), c.askedAtMs()));
    }
  }

  // ---- what the figures read from the engine's events ------------------------------------------

  /** The engine's events, to the run's log, and stage submissions and completions to the figures. */
  private final class Observed implements EventWriter {
    private final EventWriter log;

    Observed(EventWriter log) {
      this.log = log;
    }

    @Override
    public void write(Event event, Object... kv) {
      log.write(event, kv);
      if (event == Event.STAGE_SUBMITTED) {
        if (scheduler.runningTasks() == 0) {
          lastTaskEventMs = time.now();
        }
        parallelism.submitted((Integer) field(kv, STAGE_ID), (Integer) field(kv, TASKS), time.now());
      } else if (event == Event.STAGE_COMPLETED && field(kv, RECOMPUTED) == null && field(kv, RECOVERED) == null) {
        parallelism.completed((Integer) field(kv, STAGE_ID), time.now());
      }
    }

    private static Object field(Object[] kv, String name) {
      for (int i = 0; i + 1 < kv.length; i += 2) {
        if (name.equals(kv[i])) {
          return kv[i + 1];
        }
      }
      return null;
    }
  }
}
