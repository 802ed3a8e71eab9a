package org.elasticam.engine.job;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Consumer;
import org.elasticam.allocator.dynamic.AllocationPolicy;
import org.elasticam.allocator.streaming.StreamingDecision;
import org.elasticam.allocator.streaming.StreamingPolicy;
import org.elasticam.api.Stage;
import org.elasticam.engine.allocation.AllocationFeedback;
import org.elasticam.engine.events.JobEvents;
import org.elasticam.engine.executors.ExecutorRoster;
import org.elasticam.engine.lineage.StageLineage;
import org.elasticam.engine.recovery.JobJournal;
import org.elasticam.engine.recovery.Restarted;
import org.elasticam.engine.scheduling.TaskFailureExclusions;
import org.elasticam.engine.scheduling.TaskScheduler;
import org.elasticam.report.events.EventWriter;
import org.elasticam.time.Clock;
import org.elasticam.time.Scheduler;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The job engine: submits the plan's stages, accepts executors we launched, hands their free slots
 * to the task scheduler, follows tasks to their end, recovers lost shuffle output, and tells the
 * allocator how many executors the job wants and where. Pure: no gRPC, no Hadoop. What it tells
 * executors goes through their {@link ExecutorLink}, the time comes from its {@link Clock} and
 * {@link Scheduler}; the AM's driver translates the control plane to and from it, and a test drives
 * it on a manual scheduler. One thread: the AM's event loop, or the test's.
 *
 * <p>It coordinates parts that each hold one concern: {@link ExecutorSessions} (who registered and
 * is heard from), {@link ExecutorTurnover} (what an executor's arrival and loss mean for the job),
 * {@link TaskLaunches} (free slots to running tasks), {@link TaskEnds} (attempts to their end),
 * {@link StageProgress} (the plan's stages), {@link TargetSync} (what the allocator is asked for),
 * {@link OutputRecovery} (lost and unwanted shuffle output), {@link NodeEvents} (nodes and
 * preemption) and {@link RestartResumption} (a later AM attempt).
 */
public final class JobEngine {

  private static final Logger LOG = LoggerFactory.getLogger(JobEngine.class);
  /** As Spark's stage attempts: a stage whose input keeps getting lost fails the job instead of looping. */
  static final int MAX_FETCH_FAILURES_PER_STAGE = StageLineage.MAX_FETCH_FAILURES_PER_STAGE;
  /**
   * How long map tasks stay off a host whose shuffle output could not be fetched: its service may
   * be unreachable or its disk bad, and output recomputed there would fail the reducers again.
   * Long against a fetch's retry cycle, short enough that a host that healed gets work back soon.
   */
  static final long UNFETCHABLE_HOST_AVOIDANCE_MS = 60_000;
  /** How the release of an executor the ResourceManager was about to preempt begins. */
  public static final String GIVEN_BACK = "given back to the ResourceManager";
  /** How the release of an executor whose node is being decommissioned begins. */
  public static final String DECOMMISSIONING = ExecutorRoster.DECOMMISSIONING;

  private final DriverSettings settings;
  private final Scheduler loop;
  private final JobPlan plan;
  private final TaskScheduler scheduler;
  private final Clock clock;
  private final Consumer<Outcome> onFinish;
  private final ExecutorRoster roster = new ExecutorRoster();
  private final StageLineage lineage;
  private final JobEvents jobEvents;
  private final AllocatorPort allocator;
  /** The batch policy's feedback, or null; the streaming policy, or null. */
  private final AllocationFeedback dynamic;
  private final StreamingPolicy streamingPolicy;
  /** The stream's batches, or null for a batch job. */
  private final StreamingRun streaming;
  private final ExecutorSessions sessions;
  private final TargetSync target;
  private final TaskLaunches launches;
  private final OutputRecovery outputs;
  private final ExecutorTurnover turnover;
  private final NodeEvents nodes;
  private final TaskEnds tasks;
  private final StageProgress stages;
  /** After an AM restart, where the earlier attempts left the job; null on a first attempt. */
  private RestartResumption restart;
  private JobJournal journal = JobJournal.NONE;
  private Outcome outcome;

  public JobEngine(DriverSettings settings, JobPlan plan, TaskScheduler scheduler, EnginePorts ports,
      JobPolicies policies, Consumer<Outcome> onFinish) {
    Scheduler loop = ports.loop();
    Clock clock = ports.clock();
    AllocatorPort allocator = ports.allocator();
    EventWriter events = ports.events();
    AllocationPolicy policy = policies.batch();
    StreamingPolicy streamingPolicy = policies.streaming();
    boolean streamingDebug = policies.streamingDebug();
    this.dynamic = policy == null ? null : new AllocationFeedback(policy);
    this.streamingPolicy = streamingPolicy;
    this.streaming = plan instanceof StreamingPlan sp
        ? new StreamingRun(sp, streamingPolicy, streamingDebug, new StreamingHost(), loop, events, clock,
            settings.maxConsecutiveFailedBatches()) : null;
    this.settings = settings;
    this.loop = loop;
    this.plan = plan;
    this.scheduler = scheduler;
    this.allocator = allocator;
    this.clock = clock;
    this.onFinish = onFinish;
    this.lineage = new StageLineage(plan::readersOf);
    this.jobEvents = new JobEvents(events);
    DriverSettings.ExcludeOnFailure x = settings.excludeOnFailure();
    TaskFailureExclusions exclusions = new TaskFailureExclusions(x.enabled(), x.maxFailedTasksPerNode(), x.timeout());
    scheduler.excludeOnFailure(exclusions);
    scheduler.speculation(settings.speculation());
    Reactions job = new Reactions();
    this.sessions = new ExecutorSessions(settings, loop, clock, allocator, roster, jobEvents, scheduler, job);
    this.target = new TargetSync(allocator, scheduler, exclusions, events, clock);
    this.launches = new TaskLaunches(settings, scheduler, sessions, roster, dynamic, lineage, jobEvents, clock,
        streaming != null, job::ending);
    this.outputs = new OutputRecovery(scheduler, dynamic, lineage, events, clock, this::finish);
    this.turnover = new ExecutorTurnover(scheduler, allocator, roster, sessions, launches, lineage.outputs(), dynamic,
        streaming, jobEvents, clock, job::ending);
    this.nodes = new NodeEvents(sessions, roster, scheduler, lineage, outputs, target, allocator, events, job);
    this.tasks = new TaskEnds(settings, scheduler, dynamic, lineage, sessions, launches, target, outputs, events,
        jobEvents, clock, job);
    tasks.streaming(streaming);
    this.stages = new StageProgress(plan, loop, clock, scheduler, dynamic, lineage, jobEvents, outputs, target,
        launches, streaming, job);
  }

  /** Records completed stages here, for a later attempt of the AM. Before {@link #start}. */
  public void recordTo(JobJournal j) {
    this.journal = j;
    tasks.recordTo(j);
    stages.recordTo(j);
  }

  /**
   * This attempt follows an AM restart: {@link #start} skips the stages the earlier attempts
   * completed and waits for their surviving executors. Before {@link #start}.
   */
  public void recover(Restarted r) {
    this.restart = new RestartResumption(r, plan, lineage, roster, allocator, jobEvents, clock);
    stages.resumeFrom(restart);
  }

  /** Asks for the job's executors, submits the first stages, and starts the scheduling tick. */
  public void start() {
    Restarted recovery = restart == null ? null : restart.restarted();
    if (recovery != null && dynamic != null) {
      dynamic.restarted(recovery.survivors().size(), clock.nowMs());
    }
    boolean streamed = streamingPolicy != null && streaming != null;
    int initial = dynamic != null ? dynamic.target() : streamed ? streamingPolicy.target() : settings.staticTarget();
    String policyName = dynamic != null ? dynamic.name() : streamed ? streamingPolicy.name() : "static";
    launches.awaitInitial(initial, recovery != null);
    target.initial(initial, policyName);
    if (restart != null) {
      restart.awaitSurvivors(loop);
    }
    if (streaming != null && recovery != null && recovery.streamBatchesDone() > 0) {
      streaming.resume(recovery.streamStartMs(), recovery.streamBatchesDone());
    } else if (streaming != null) {
      streaming.start();
    } else if (restart != null) {
      stages.resume();
    } else {
      stages.start();
    }
    target.sync();
    loop.every(Duration.ofMillis(AllocationPolicy.TICK_MS), this::tick);
  }

  private void tick() {
    if (outcome != null) {
      return;
    }
    target.syncIfExclusionsChanged();
    turnover.leaveExcludedNodes(target.excluded());
    sessions.checkHeartbeats();
    tasks.speculate();
    if (dynamic != null) {
      // The policy's target, with its reason, to the allocator; its idle executors stop and go.
      var d = dynamic.tick(clock.nowMs());
      target.decided(d, dynamic.name());
      turnover.removeIdle(d);
    }
    if (streaming != null) {
      streaming.tick(clock.nowMs());
    }
    launches.revive();
  }

  /** What the parts set off in the job; it resolves them at call time, when every part exists. */
  private final class Reactions implements ExecutorSessions.Job, NodeEvents.Job, TaskEnds.Job, StageProgress.Job {
    @Override
    public boolean ending() {
      return outcome != null;
    }

    @Override
    public void executorUp(String id, String host, boolean survivor) {
      turnover.up(id, host, survivor);
    }

    @Override
    public void executorLost(String id, String why, boolean release) {
      turnover.lost(id, why, release);
    }

    @Override
    public void revive() {
      launches.revive();
    }

    @Override
    public void finish(Outcome o) {
      JobEngine.this.finish(o);
    }

    @Override
    public void stageCompleted(int stageId) {
      stages.completed(stageId);
    }
  }

  /** What the streaming run may do to the driver. */
  private final class StreamingHost implements StreamingRun.Host {
    @Override
    public int registeredExecutors() {
      return sessions.count() - roster.retiringCount();
    }

    @Override
    public int target() {
      return target.target();
    }

    @Override
    public void apply(StreamingDecision d, String policy) {
      // The new target, and executors that stop getting tasks and go once idle.
      target.decided(d, policy);
      turnover.retire(d);
    }

    @Override
    public void submitStage(Stage stage) {
      stages.submit(new JobPlan.Submission(stage, clock.nowMs()));
    }

    @Override
    public void finish(Outcome o) {
      JobEngine.this.finish(o);
    }

    @Override
    public boolean finished() {
      return outcome != null;
    }

    @Override
    public void progress(long startMs, int batchesDone) {
      journal.streamProgress(startMs, batchesDone);
    }

    @Override
    public void abandonStages(List<Integer> stageIds) {
      tasks.abandon(stageIds);
    }

    @Override
    public void forgetStages(List<Integer> stageIds) {
      stages.forget(stageIds);
    }
  }

  /** Where shuffles no stage will read again are deleted; set once, before {@link #start}. */
  public void shuffleCleaner(ShuffleCleaner cleaner) {
    outputs.shuffleCleaner(cleaner);
  }

  // ---- executors -------------------------------------------------------------------------------

  /** A registered executor's session: where it runs, what it offers, and when it was last heard from. */
  public static final class Session {
    final ExecutorLink link;
    final String executorId;
    final String host;
    final int slots;
    final List<String> localDirs;
    final boolean shuffleExternal;
    long lastHeardMs;

    Session(ExecutorLink link, Registration r, int slots, long nowMs) {
      this.link = link;
      this.executorId = r.executorId();
      this.host = r.host();
      this.slots = slots;
      this.localDirs = r.localDirs();
      this.shuffleExternal = r.shuffleExternal();
      this.lastHeardMs = nowMs;
    }

    public String executorId() {
      return executorId;
    }
  }

  /** The allocator launched an executor: it must register within the registration timeout. */
  public void executorLaunched(String executorId) {
    sessions.launched(executorId);
  }

  /**
   * An executor registers over {@code link}. Refused (told why through {@code link}, and null
   * returned) when the application is ending, when it registered before, or when we did not
   * launch it in the container it names.
   */
  public Session register(ExecutorLink link, Registration r) {
    Session session = sessions.register(link, r);
    if (session != null) {
      launches.revive();
    }
    return session;
  }

  /** The executor spoke (any message): it is alive. */
  public void heard(Session s) {
    sessions.heard(s);
  }

  /**
   * A broken stream usually means the executor's process died: its tasks go back to pending at
   * once, but its container is released only after a grace period, so that YARN can first report
   * how the process ended — a crash must count as a failure, which a release by us would hide.
   */
  public void sessionClosed(Session session, String why) {
    sessions.closed(session, why);
  }

  /**
   * The ResourceManager reports a node unusable (lost, unhealthy, decommissioned, shut down): its
   * executors are lost at once — their tasks go back to pending without waiting for heartbeats to
   * time out — and the map output on it is lost with it, the part its shuffle service served too,
   * so a stage that reads it later first runs those maps again.
   */
  public void nodeLost(String host, String state) {
    nodes.nodeLost(host, state);
  }

  /**
   * The node is being decommissioned: its executors get no new tasks and are released once their
   * running tasks end, before the node goes. Shuffle output on it that a stage still needs is
   * computed again elsewhere now, while the node still serves the old copy to whoever reads it:
   * when the node leaves, nothing is lost and no reducer waits.
   */
  public void nodeDecommissioning(String host, String timeout) {
    nodes.nodeDecommissioning(host, timeout);
  }

  /** The node is back in service: its executors that were retiring for it stay after all. */
  public void nodeRecommissioned(String host) {
    nodes.nodeRecommissioned(host);
  }

  /**
   * The ResourceManager is about to preempt: give back what it will take before it kills anything,
   * cheapest first. Named executors that are idle go now; busy ones get no new tasks and go when
   * idle (the RM may kill them first; that is no failure). For {@code more} containers beyond
   * those, we choose: idle executors first, then the least busy, never one holding shuffle output
   * only it can serve; busy ones, too, get no new tasks and go when idle.
   */
  public void preemptionRequested(List<String> named, int more) {
    nodes.preemptionRequested(named, more);
  }

  /** The allocator reports the executor's container completed; a no-op if we already knew. */
  public void containerCompleted(String executorId, String why) {
    if (restart != null) {
      restart.survivorGone(executorId);
    }
    if (sessions.isRegistered(executorId)) {
      turnover.lost(executorId, why, false);
    }
  }

  /**
   * New delegation tokens go to every registered executor now, and to each one that registers
   * later: an executor launched with the old tokens may register after this.
   */
  public void updateCredentials(byte[] tokens) {
    sessions.updateCredentials(tokens);
  }

  /** Tells every executor to stop; their containers are released by the allocator afterwards. */
  public void shutdownExecutors(String reason) {
    sessions.shutdown(reason);
  }

  // ---- tasks -----------------------------------------------------------------------------------

  /** The output commit coordinator: one attempt per task may publish; an executor asks only for its own. */
  public void commitRequested(Session session, long taskId) {
    tasks.commitRequested(session, taskId);
  }

  /** An executor reports on a task attempt it runs or ran. */
  public void taskReported(Session session, TaskReport u) {
    tasks.reported(session, u);
  }

  // ---- the end ---------------------------------------------------------------------------------

  /** Ends the job once; later calls are ignored. */
  public void finish(Outcome o) {
    if (outcome != null) {
      return;
    }
    outcome = o;
    LOG.info("Job {}: {}", o.status(), o.diagnostics());
    onFinish.accept(o);
  }

  // ---- what the status endpoint and progress read ----------------------------------------------

  public float progress() {
    if (streaming != null) {
      return Math.min(1f, (float) streaming.batchesDone() / streaming.batches());
    }
    int total = plan.totalTasks();
    return total == 0 ? 0f : Math.min(1f, (float) tasksDone() / total);
  }

  public int registeredExecutors() {
    return sessions.count();
  }

  public int target() {
    return target.target();
  }

  public int tasksDone() {
    return scheduler.doneTasks() + (restart == null ? 0 : restart.recoveredTasks());
  }

  public int tasksTotal() {
    return streaming != null ? streaming.tasksSubmitted() : plan.totalTasks();
  }

  /** For a streaming job: batches done and planned, and the last batch's figures. */
  public Optional<Map<String, Object>> streamingStatus() {
    return streaming == null ? Optional.empty()
        : Optional.of(streaming.status(streamingPolicy == null ? "static" : streamingPolicy.name()));
  }

  public int tasksRunning() {
    return scheduler.runningTasks();
  }

  public int tasksPending() {
    return scheduler.pendingTasks();
  }

  public Optional<Outcome> outcome() {
    return Optional.ofNullable(outcome);
  }
}
