package org.elasticam.engine.job;

import static org.elasticam.report.events.EventFields.ATTEMPT;
import static org.elasticam.report.events.EventFields.ERROR;
import static org.elasticam.report.events.EventFields.EXECUTOR_ID;
import static org.elasticam.report.events.EventFields.FAILURES;
import static org.elasticam.report.events.EventFields.FROM_EXECUTOR;
import static org.elasticam.report.events.EventFields.HOST;
import static org.elasticam.report.events.EventFields.JAVA_HOME;
import static org.elasticam.report.events.EventFields.JAVA_VERSION;
import static org.elasticam.report.events.EventFields.MAPS;
import static org.elasticam.report.events.EventFields.MESSAGE;
import static org.elasticam.report.events.EventFields.PENDING_TASKS;
import static org.elasticam.report.events.EventFields.PID;
import static org.elasticam.report.events.EventFields.POLICY;
import static org.elasticam.report.events.EventFields.PREVIOUS;
import static org.elasticam.report.events.EventFields.REASON;
import static org.elasticam.report.events.EventFields.REATTACHED;
import static org.elasticam.report.events.EventFields.RECOMPUTED;
import static org.elasticam.report.events.EventFields.RECOMPUTED_STAGE;
import static org.elasticam.report.events.EventFields.RECOVERED;
import static org.elasticam.report.events.EventFields.RUNNING_TASKS;
import static org.elasticam.report.events.EventFields.RUN_MS;
import static org.elasticam.report.events.EventFields.SERVERS;
import static org.elasticam.report.events.EventFields.SHUFFLE_ID;
import static org.elasticam.report.events.EventFields.SHUFFLE_OUTPUT;
import static org.elasticam.report.events.EventFields.STAGE_ID;
import static org.elasticam.report.events.EventFields.START;
import static org.elasticam.report.events.EventFields.SUPERSEDED;
import static org.elasticam.report.events.EventFields.TARGET;
import static org.elasticam.report.events.EventFields.TASK;
import static org.elasticam.report.events.EventFields.TASKS;
import static org.elasticam.report.events.EventFields.THRESHOLD_MS;
import static org.elasticam.report.events.EventFields.UNTIL_TS;
import static org.elasticam.report.events.EventFields.WAITING_STAGE;
import static org.elasticam.report.events.EventFields.WON_OVER_ATTEMPTS;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Consumer;
import org.elasticam.engine.scheduling.TaskAttempt;
import org.elasticam.engine.scheduling.TaskErrors;
import org.elasticam.engine.scheduling.TaskFailureExclusions;
import org.elasticam.engine.scheduling.TaskScheduler;
import org.elasticam.engine.allocation.AllocationFeedback;
import org.elasticam.engine.events.JobEvents;
import org.elasticam.engine.executors.ExecutorRoster;
import org.elasticam.engine.executors.ExecutorSlots;
import org.elasticam.engine.lineage.MapOutputs;
import org.elasticam.engine.lineage.StageLineage;
import org.elasticam.engine.lineage.ShuffleInput;
import org.elasticam.engine.recovery.JobJournal;
import org.elasticam.engine.recovery.Restarted;
import org.elasticam.engine.recovery.Resumption;
import org.elasticam.allocator.streaming.StreamingDecision;
import org.elasticam.allocator.streaming.StreamingPolicy;
import org.elasticam.api.Stage;
import org.elasticam.time.Clock;
import org.elasticam.report.events.EventWriter;
import org.elasticam.time.Scheduler;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.elasticam.report.events.Event;

/**
 * The job engine: submits the plan's stages, accepts executors we launched, hands their free slots
 * to the task scheduler, follows tasks to their end, recovers lost shuffle output, and tells the
 * allocator how many executors the job wants and where. Pure: no gRPC, no Hadoop. What it tells
 * executors goes through their {@link ExecutorLink}, the time comes from its {@link Clock} and
 * {@link Scheduler}; the AM's driver translates the control plane to and from it, and a test drives
 * it on a manual scheduler. One thread: the AM's event loop, or the test's.
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

  private final DriverSettings settings;
  private final Scheduler loop;
  private final JobPlan plan;
  private final TaskScheduler scheduler;
  private final TaskFailureExclusions taskExclusions;
  /** The exclusions the allocator was last told, to tell it again when one expires. */
  private Set<String> exclusionsSent = Set.of();
  private final AllocatorPort allocator;
  private final EventWriter events;
  private final JobEvents jobEvents;
  private final Clock clock;
  private final Consumer<Outcome> onFinish;
  private final Map<String, Session> executors = new LinkedHashMap<>();
  /** The newest tokens an AM with a keytab obtained, as sent; null until the first renewal. */
  private byte[] latestCredentials;
  private final ExecutorSlots slots = new ExecutorSlots();
  private final ExecutorRoster roster = new ExecutorRoster();
  private final AllocationFeedback dynamic;
  private final StageLineage lineage;
  private final MapOutputs mapOutputs;
  private ShuffleCleaner shuffleCleaner = ShuffleCleaner.NONE;
  /** Nodes being decommissioned, until they leave or are recommissioned. */
  private final StreamingPolicy streamingPolicy;
  private final StreamingRun streaming;
  /**
   * Executors to remove once idle, with why (a streaming policy chose them, or their node is being
   * decommissioned): they get no new tasks.
   */
  private int target;
  private long lastSpeculationCheckMs;
  private int stagesDone;
  private Outcome outcome;
  /** After an AM restart, what the earlier attempts left; null on a first attempt. */
  private Restarted recovery;
  /** When scheduling began waiting for the initial executors, and how many it waits for. */
  private long registrationWaitStartMs;
  private int initialExecutors;
  private boolean schedulingStarted;
  private JobJournal journal = JobJournal.NONE;
  /** Survivors of the earlier attempt that have not re-registered yet. */
  /** Tasks of stages an earlier attempt completed, for progress. */
  private int recoveredTasks;
  /** Stages an earlier attempt was running, by id: the tasks that succeeded there run no more. */
  private final Map<Integer, Set<Integer>> partlyDone = new java.util.HashMap<>();

  public JobEngine(DriverSettings settings, Scheduler loop, JobPlan plan, TaskScheduler scheduler, AllocatorPort allocator,
      EventWriter events, Clock clock, Consumer<Outcome> onFinish) {
    this(settings, loop, plan, scheduler, allocator, events, clock, onFinish, null);
  }

  /** @param policy the dynamic-allocation policy, or null for static allocation */
  public JobEngine(DriverSettings settings, Scheduler loop, JobPlan plan, TaskScheduler scheduler, AllocatorPort allocator,
      EventWriter events, Clock clock, Consumer<Outcome> onFinish,
      org.elasticam.allocator.dynamic.AllocationPolicy policy) {
    this(settings, loop, plan, scheduler, allocator, events, clock, onFinish, policy, null, false);
  }

  /**
   * @param policy the batch dynamic-allocation policy, or null
   * @param streamingPolicy the streaming dynamic-allocation policy of a streaming job, or null
   * @param streamingDebug log every streaming decision with its inputs
   */
  public JobEngine(DriverSettings settings, Scheduler loop, JobPlan plan, TaskScheduler scheduler, AllocatorPort allocator,
      EventWriter events, Clock clock, Consumer<Outcome> onFinish,
      org.elasticam.allocator.dynamic.AllocationPolicy policy, StreamingPolicy streamingPolicy,
      boolean streamingDebug) {
    this.dynamic = policy == null ? null : new AllocationFeedback(policy);
    this.streamingPolicy = streamingPolicy;
    this.streaming = plan instanceof StreamingPlan sp
        ? new StreamingRun(sp, streamingPolicy, streamingDebug, new StreamingHost(), loop, events, clock,
            settings.maxConsecutiveFailedBatches()) : null;
    this.settings = settings;
    this.loop = loop;
    this.plan = plan;
    this.lineage = new StageLineage(plan::readersOf);
    this.mapOutputs = lineage.outputs();
    this.scheduler = scheduler;
    this.allocator = allocator;
    this.events = events;
    this.jobEvents = new JobEvents(events);
    this.clock = clock;
    this.onFinish = onFinish;
    DriverSettings.ExcludeOnFailure x = settings.excludeOnFailure();
    this.taskExclusions = new TaskFailureExclusions(x.enabled(), x.maxFailedTasksPerNode(), x.timeout());
    scheduler.excludeOnFailure(taskExclusions);
    scheduler.speculation(settings.speculation());
  }

  /** Records completed stages here, for a later attempt of the AM. Before {@link #start}. */
  public void recordTo(JobJournal j) {
    this.journal = j;
  }

  /**
   * This attempt follows an AM restart: {@link #start} skips the stages the earlier attempts
   * completed and waits for their surviving executors. Before {@link #start}.
   */
  public void recover(Restarted r) {
    this.recovery = r;
    roster.awaitReattach(r.survivors());
  }

  /** Asks for the job's executors, submits the first stages, and starts the scheduling tick. */
  public void start() {
    if (recovery != null && dynamic != null) {
      dynamic.restarted(recovery.survivors().size(), clock.nowMs());
    }
    target = dynamic != null ? dynamic.target()
        : streamingPolicy != null && streaming != null ? streamingPolicy.target() : settings.staticTarget();
    String policyName = dynamic != null ? dynamic.name()
        : streamingPolicy != null && streaming != null ? streamingPolicy.name() : "static";
    registrationWaitStartMs = clock.nowMs();
    initialExecutors = target;
    // A later attempt's survivors re-attach to work already spread over them.
    schedulingStarted = recovery != null;
    events.write(Event.TARGET_CHANGED, TARGET, target, PREVIOUS, 0, REASON, policyName.equals("static")
        ? "static allocation (executor.instances)" : "initial executors", PENDING_TASKS, 0, RUNNING_TASKS, 0,
        POLICY, policyName);
    if (recovery != null) {
      loop.schedule(recovery.reregisterTimeout(), this::giveUpOnSurvivors);
    }
    if (streaming != null && recovery != null && recovery.streamBatchesDone() > 0) {
      streaming.resume(recovery.streamStartMs(), recovery.streamBatchesDone());
    } else if (streaming != null) {
      streaming.start();
    } else if (recovery != null) {
      resumeAfterRestart();
    } else {
      submitAll(plan.start(clock.nowMs()));
    }
    syncTarget();
    loop.every(java.time.Duration.ofMillis(org.elasticam.allocator.dynamic.AllocationPolicy.TICK_MS), this::tick);
  }

  /** Picks the job up where the earlier attempts left it ({@link Resumption}), and submits the rest. */
  private void resumeAfterRestart() {
    Resumption.Resumed r = Resumption.resume(plan, clock.nowMs(), recovery.completedStages(),
        recovery.runningStages(), recovery.survivors(), lineage);
    for (Stage stage : r.completed()) {
      jobEvents.stageCompleted(stage.id(), stage.tasks().size(), RECOVERED, true);
    }
    stagesDone += r.completed().size();
    recoveredTasks += r.recoveredTasks();
    partlyDone.putAll(r.partlyDone());
    LOG.info("Resuming after an AM restart: {} of {} stages were completed by an earlier attempt; {} executor(s)"
        + " of it are still running and have {} to re-register", r.completed().size(), plan.totalStages(),
        recovery.survivors().size(), org.elasticam.conf.Durations.format(recovery.reregisterTimeout()));
    if (stagesDone == plan.totalStages()) {
      finish(Outcome.succeeded("all " + plan.totalStages() + " stages had succeeded before the AM restarted"));
      return;
    }
    submitAll(r.toSubmit());
  }

  /** Survivors that did not come back in time are released; output only they served is lost. */
  private void giveUpOnSurvivors() {
    for (String id : roster.stillAwaited()) {
      survivorGone(id);
      String why = "lost: it did not re-register within "
          + org.elasticam.conf.Durations.format(recovery.reregisterTimeout())
          + " of the AM restart (elasticam.executor.reregisterTimeout)";
      LOG.warn("Releasing executor {}: {}", id, why);
      allocator.killExecutor(id, why);
    }
  }

  private void survivorGone(String id) {
    if (roster.survivorGone(id)) {
      Set<Integer> lost = mapOutputs.executorLost(id);
      if (!lost.isEmpty()) {
        LOG.info("Executor {} did not come back after the AM restart: its shuffle output of stage(s) {} is lost", id,
            lost);
      }
    }
  }

  private void tick() {
    if (outcome != null) {
      return;
    }
    if (!taskExclusions.excluded(clock.nowMs()).equals(exclusionsSent)) {
      syncTarget();
    }
    checkHeartbeats();
    speculate();
    if (dynamic != null) {
      applyDecision(dynamic.tick(clock.nowMs()));
    }
    if (streaming != null) {
      streaming.tick(clock.nowMs());
    }
    revive();
  }

  /** What the streaming run may do to the driver. */
  private final class StreamingHost implements StreamingRun.Host {
    @Override
    public int registeredExecutors() {
      return executors.size() - roster.retiringCount();
    }

    @Override
    public int target() {
      return target;
    }

    @Override
    public void apply(StreamingDecision d, String policy) {
      applyStreaming(d, policy);
    }

    @Override
    public void submitStage(Stage stage) {
      submit(new JobPlan.Submission(stage, clock.nowMs()));
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
      for (int id : stageIds) {
        for (TaskAttempt a : scheduler.abort(id)) {
          kill(a);
          if (dynamic != null) {
            dynamic.taskEnded(a, false, true, clock.nowMs());
          }
        }
      }
    }

    @Override
    public void forgetStages(List<Integer> stageIds) {
      for (int id : stageIds) {
        cleanShuffle(id, "its batch is done");
        lineage.forget(id);
        scheduler.forget(id);
        if (dynamic != null) {
          dynamic.forget(id);
        }
      }
    }
  }

  /** A streaming policy's decision: the new target, and executors that stop getting tasks and go once idle. */
  private void applyStreaming(StreamingDecision d, String policy) {
    if (d.targetChanged()) {
      target = d.target();
      LOG.info("Executor target {} -> {}: {}", d.previousTarget(), d.target(), d.reason());
      events.write(Event.TARGET_CHANGED, TARGET, d.target(), PREVIOUS, d.previousTarget(), REASON, d.reason(),
          PENDING_TASKS, scheduler.pendingTasks(), RUNNING_TASKS, scheduler.runningTasks(), POLICY, policy);
    }
    syncTarget();
    for (String id : d.remove()) {
      if (executors.containsKey(id) && roster.retire(id, "removed by the streaming policy")) {
        LOG.info("Retiring executor {}: {}", id, d.reason());
        retireIfIdle(id);
      }
    }
  }

  private void retireIfIdle(String id) {
    Optional<String> why = roster.retiringWhy(id);
    if (why.isPresent() && executors.containsKey(id) && scheduler.runningOn(id) == 0) {
      roster.removing(id);
      allocator.killExecutor(id, why.get());
      executorLost(id, why.get(), false);
    }
  }

  /** The policy's target, with its reason, to the allocator; its idle executors stop and go. */
  private void applyDecision(org.elasticam.allocator.dynamic.PolicyDecision d) {
    if (d.targetChanged()) {
      target = d.target();
      LOG.info("Executor target {} -> {}: {} ({} pending, {} running tasks)", d.previousTarget(), d.target(),
          d.reason(), d.pendingTasks(), d.runningTasks());
      events.write(Event.TARGET_CHANGED, TARGET, d.target(), PREVIOUS, d.previousTarget(), REASON, d.reason(),
          PENDING_TASKS, d.pendingTasks(), RUNNING_TASKS, d.runningTasks(), POLICY, dynamic.name());
    }
    syncTarget();
    for (String id : d.remove()) {
      if (executors.containsKey(id) && scheduler.runningOn(id) == 0) {
        String why = mapOutputs.wroteServedOutput(id)
            ? "idle: no task past its idle deadline; its shuffle output stays served by its node's shuffle service"
            : "idle: no task past its idle deadline";
        LOG.info("Removing executor {}: {}", id, why);
        roster.removing(id);
        allocator.killExecutor(id, why);
        executorLost(id, "removed: idle", false);
      }
    }
  }

  // ---- stages ----------------------------------------------------------------------------------

  private void submitAll(List<JobPlan.Submission> submissions) {
    long now = clock.nowMs();
    for (JobPlan.Submission s : submissions) {
      if (s.atMs() <= now) {
        submit(s);
      } else {
        loop.schedule(java.time.Duration.ofMillis(s.atMs() - now), () -> submit(s));
      }
    }
  }

  private void submit(JobPlan.Submission s) {
    if (outcome != null) {
      return;
    }
    Stage stage = s.stage();
    lineage.submitted(stage);
    Set<Integer> alreadyDone = partlyDone.remove(stage.id());
    if (alreadyDone == null || alreadyDone.isEmpty()) {
      scheduler.submit(stage, clock.nowMs());
    } else {
      scheduler.submit(stage, alreadyDone, clock.nowMs());
      LOG.info("Stage {}: {} of its {} tasks had succeeded before the AM restarted; the others run", stage.id(),
          alreadyDone.size(), stage.tasks().size());
    }
    if (dynamic != null) {
      dynamic.stageSubmitted(stage, clock.nowMs());
    }
    LOG.info("Submitting stage {} ({}) with {} tasks", stage.id(), stage.name(), stage.tasks().size());
    jobEvents.stageSubmitted(stage);
    lineage.lostInputOf(stage).forEach(this::rerun);
    syncTarget();
    revive();
  }


  // ---- lost shuffle output ---------------------------------------------------------------------

  /**
   * Lost map output runs again: its maps are resubmitted, and the stage that needs it (if one does
   * yet) waits, its tasks paused, until they are done.
   */
  private void rerun(StageLineage.Rerun r) {
    Stage mapStage = r.mapStage();
    if (r.waitingStage() != null) {
      scheduler.pause(r.waitingStage());
    }
    scheduler.resubmit(mapStage, r.maps(), clock.nowMs());
    if (dynamic != null) {
      dynamic.stageResubmitted(mapStage, r.maps(), clock.nowMs());
    }
    if (r.waitingStage() != null) {
      LOG.info("Re-running {} map task(s) {} of stage {}: their shuffle output is lost ({}); stage {} waits",
          r.maps().size(), abbreviate(r.maps()), mapStage.id(), r.why(), r.waitingStage());
    } else {
      LOG.info("Re-running {} map task(s) {} of stage {}: {}", r.maps().size(), abbreviate(r.maps()), mapStage.id(),
          r.why());
    }
    events.write(Event.STAGE_RESUBMITTED, STAGE_ID, mapStage.id(), TASKS, r.maps(), REASON, r.why(), WAITING_STAGE,
        r.waitingStage());
  }

  private void fetchFailed(TaskAttempt a, TaskReport.FetchFailure f) {
    StageLineage.FetchVerdict verdict = lineage.fetchFailed(a.stageId(), a.index(), f.shuffleId(), f.maps(),
        f.message());
    int failures = verdict instanceof StageLineage.FetchVerdict.Fail fail ? fail.failuresInStage()
        : ((StageLineage.FetchVerdict.Recompute) verdict).failuresInStage();
    events.write(Event.FETCH_FAILURE, STAGE_ID, a.stageId(), TASK, a.index(), ATTEMPT, a.attempt(),
        SHUFFLE_ID, f.shuffleId(), FROM_EXECUTOR, f.executorId(), MAPS, f.maps(), MESSAGE, f.message());
    LOG.warn("Task {} of stage {} could not fetch its input ({} fetch failures in this stage): {}", a.index(),
        a.stageId(), failures, f.message());
    if (verdict instanceof StageLineage.FetchVerdict.Fail fail) {
      finish(Outcome.failed(fail.diagnostics()));
      return;
    }
    StageLineage.FetchVerdict.Recompute go = (StageLineage.FetchVerdict.Recompute) verdict;
    for (String host : go.hostsToAvoid()) {
      scheduler.avoidForShuffleOutput(host, clock.nowMs() + UNFETCHABLE_HOST_AVOIDANCE_MS);
      LOG.info("Tasks writing shuffle output stay off {} for {} s while other hosts have executors:"
          + " reducers could not fetch output from it", host, UNFETCHABLE_HOST_AVOIDANCE_MS / 1000);
    }
    go.rerun().ifPresent(this::rerun);
  }

  /** A re-run map stage has all its output again: the stages that waited on it go on. */
  private void inputRecomputed(int shuffleId, List<Integer> resumed) {
    for (int reader : resumed) {
      scheduler.resume(reader, clock.nowMs());
      LOG.info("Stage {} resumes: the lost output of stage {} was recomputed", reader, shuffleId);
      events.write(Event.STAGE_RESUMED, STAGE_ID, reader, RECOMPUTED_STAGE, shuffleId);
    }
  }

  private static String abbreviate(List<Integer> ids) {
    return ids.size() <= 10 ? ids.toString() : ids.subList(0, 10) + " and " + (ids.size() - 10) + " more";
  }

  private void syncTarget() {
    exclusionsSent = taskExclusions.excluded(clock.nowMs());
    allocator.requestTotalExecutors(target, scheduler.localityAwareTasks(), scheduler.hostToLocalTaskCount(),
        exclusionsSent);
  }

  /** A task failed on its host: past elasticam.excludeOnFailure.maxFailedTasksPerNode, the job leaves the host. */
  private void taskFailedOn(TaskAttempt a) {
    taskExclusions.taskFailed(a.host(), clock.nowMs(), scheduler.hostsWithExecutors()).ifPresent(x -> {
      LOG.info("Excluding {} until {}: {} tasks failed there (elasticam.excludeOnFailure.maxFailedTasksPerNode);"
          + " no task runs there and YARN is asked for no container there", x.host(),
          java.time.Instant.ofEpochMilli(x.untilMs()), x.failures());
      events.write(Event.NODE_EXCLUDED, HOST, x.host(), UNTIL_TS, x.untilMs(), REASON, "task_failures",
          FAILURES, x.failures());
      syncTarget();
    });
  }

  /** The allocator launched an executor: it must register within the registration timeout. */
  public void executorLaunched(String executorId) {
    loop.schedule(settings.registrationTimeout(), () -> {
      if (outcome == null && !executors.containsKey(executorId) && !roster.isGone(executorId)
          && allocator.launched(executorId).isPresent()) {
        roster.gone(executorId);
        allocator.killFailedExecutor(executorId, "it did not register within "
            + org.elasticam.conf.Durations.format(settings.registrationTimeout())
            + " (elasticam.executor.registrationTimeout)");
      }
    });
  }

  // ---- sessions --------------------------------------------------------------------------------

  /** A registered executor's session: where it runs, what it offers, and when it was last heard from. */
  public static final class Session {
    private final ExecutorLink link;
    private final String executorId;
    private final String host;
    private final int slots;
    private final List<String> localDirs;
    private final boolean shuffleExternal;
    private long lastHeardMs;

    private Session(ExecutorLink link, Registration r, int slots, long nowMs) {
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

  /**
   * An executor registers over {@code link}. Refused (told why through {@code link}, and null
   * returned) when the application is ending, when it registered before, or when we did not
   * launch it in the container it names.
   */
  public Session register(ExecutorLink link, Registration r) {
    String id = r.executorId();
    String why = registrationRefusal(r, id);
    if (why != null) {
      LOG.warn("Refusing executor {} from {} ({}): {}", id, r.host(), r.containerId(), why);
      link.refuse(why);
      return null;
    }
    Session session = new Session(link, r, Math.max(1, r.cores() / Math.max(1, settings.taskCpus())), clock.nowMs());
    boolean survivor = roster.reattached(id);
    executors.put(id, session);
    slots.add(new ExecutorSlots.Executor(id, r.host(), session.slots));
    allocator.executorRegistered(id);
    scheduler.executorUp(id, r.host());
    if (dynamic != null) {
      // A survivor's start says nothing about how long executors take to start now.
      long asked = survivor ? -1 : allocator.launched(id).map(AllocatorPort.Launched::askedAtMs).orElse(-1L);
      dynamic.executorAdded(id, asked < 0 ? -1 : clock.nowMs() - asked, clock.nowMs());
    }
    if (streaming != null) {
      streaming.executorAdded(id, clock.nowMs());
    }
    link.registered(settings.appId(), settings.heartbeatInterval().toMillis());
    if (latestCredentials != null) {
      link.credentials(latestCredentials);
    }
    if (survivor) {
      LOG.info("Executor {} re-attached from {} ({}, {} cores): it outlived the earlier AM attempt", id, r.host(),
          r.containerId(), r.cores());
    } else {
      LOG.info("Executor {} registered from {} ({}, {} cores)", id, r.host(), r.containerId(), r.cores());
    }
    jobEvents.executorRegistered(id, r.containerId(), r.host(), r.cores(), PID, r.pid(), REATTACHED,
        survivor, JAVA_VERSION, r.javaVersion(), JAVA_HOME, r.javaHome(), START, r.startPhases());
    revive();
    return session;
  }

  private String registrationRefusal(Registration r, String id) {
    if (outcome != null) {
      return "the application is ending";
    }
    if (executors.containsKey(id) || roster.isGone(id)) {
      return "executor " + id + " already registered once";
    }
    Optional<AllocatorPort.Launched> launched = allocator.launched(id);
    if (launched.isEmpty()) {
      return "no executor " + id + " was launched by this application";
    }
    if (!launched.get().containerId().equals(r.containerId())) {
      return "executor " + id + " runs in " + launched.get().containerId() + ", not " + r.containerId();
    }
    return null;
  }

  /** The executor spoke (any message): it is alive. */
  public void heard(Session s) {
    s.lastHeardMs = clock.nowMs();
  }

  /**
   * A broken stream usually means the executor's process died: its tasks go back to pending at
   * once, but its container is released only after a grace period, so that YARN can first report
   * how the process ended — a crash must count as a failure, which a release by us would hide.
   */
  public void sessionClosed(Session session, String why) {
    if (executors.get(session.executorId) == session) {
      String id = session.executorId;
      executorLost(id, why, false);
      loop.schedule(settings.lostReleaseGrace(), () -> {
        if (allocator.launched(id).isPresent()) {
          allocator.killExecutor(id, "lost: " + why);
        }
      });
    }
  }

  /**
   * The ResourceManager reports a node unusable (lost, unhealthy, decommissioned, shut down): its
   * executors are lost at once — their tasks go back to pending without waiting for heartbeats to
   * time out — and the map output on it is lost with it, the part its shuffle service served too,
   * so a stage that reads it later first runs those maps again.
   */
  public void nodeLost(String host, String state) {
    roster.hostGone(host);
    String why = "its node " + host + " is " + state;
    for (Session s : List.copyOf(executors.values())) {
      if (host.equals(s.host)) {
        executorLost(s.executorId, why, true);
      }
    }
    Set<Integer> lostShuffles = mapOutputs.hostLost(host);
    LOG.warn("Node {} is {}: its executors are lost{}", host, state,
        lostShuffles.isEmpty() ? "" : " and so is the shuffle output of stage(s) " + lostShuffles + " on it");
  }

  /**
   * The node is being decommissioned: its executors get no new tasks and are released once their
   * running tasks end, before the node goes. Shuffle output on it that a stage still needs is
   * computed again elsewhere now, while the node still serves the old copy to whoever reads it:
   * when the node leaves, nothing is lost and no reducer waits.
   */
  public void nodeDecommissioning(String host, String timeout) {
    if (!roster.decommissioning(host)) {
      return;
    }
    for (Session s : List.copyOf(executors.values())) {
      if (host.equals(s.host) && roster.retire(s.executorId, DECOMMISSIONING)) {
        LOG.info("Retiring executor {}: its node {} is being decommissioned ({})", s.executorId, host, timeout);
        retireIfIdle(s.executorId);
      }
    }
    lineage.copyOff(host, "its node " + host + " is being decommissioned: copied by running the maps elsewhere first",
        scheduler::isActive).forEach(this::rerun);
    syncTarget();
    revive();
  }

  /** The node is back in service: its executors that were retiring for it stay after all. */
  public void nodeRecommissioned(String host) {
    if (!roster.recommissioned(host)) {
      return;
    }
    for (Session s : executors.values()) {
      if (host.equals(s.host) && roster.staysAfterRecommission(s.executorId)) {
        LOG.info("Executor {} stays: its node {} was recommissioned", s.executorId, host);
      }
    }
    events.write(Event.NODE_RECOMMISSIONED, HOST, host);
    revive();
  }

  /** How the release of an executor whose node is being decommissioned begins. */
  public static final String DECOMMISSIONING = ExecutorRoster.DECOMMISSIONING;

  /**
   * The ResourceManager is about to preempt: give back what it will take before it kills anything,
   * cheapest first. Named executors that are idle go now; busy ones get no new tasks and go when
   * idle (the RM may kill them first; that is no failure). For {@code more} containers beyond
   * those, we choose: idle executors first, then the least busy, never one holding shuffle output
   * only it can serve; busy ones, too, get no new tasks and go when idle.
   */
  public void preemptionRequested(List<String> named, int more) {
    named.stream().filter(id -> !executors.containsKey(id) && !roster.isGone(id)
        && allocator.launched(id).isPresent()).forEach(this::giveBackUnregistered);
    List<String> chosen = roster.toGiveBack(named, more, List.copyOf(executors.keySet()),
        mapOutputs::holdsUnservedOutput, scheduler::runningOn);
    for (String id : chosen) {
      if (roster.retire(id, GIVEN_BACK + " before it preempts it")) {
        LOG.info("Giving back executor {} ({} running task(s)): the ResourceManager is about to preempt {}", id,
            scheduler.runningOn(id), named.contains(id) ? "its container" : more + " of our containers");
        retireIfIdle(id);
      }
    }
  }

  /**
   * A container the ResourceManager names whose executor has not registered yet runs nothing: it
   * goes back at once, and its executor, should it still register, is refused.
   */
  private void giveBackUnregistered(String id) {
    roster.gone(id);
    LOG.info("Giving back executor {}, launched and not registered yet: the ResourceManager is about to preempt"
        + " its container", id);
    allocator.killExecutor(id, GIVEN_BACK + " before it preempts it (its executor had not registered)");
  }

  /** The allocator reports the executor's container completed; a no-op if we already knew. */
  public void containerCompleted(String executorId, String why) {
    survivorGone(executorId);
    if (executors.containsKey(executorId)) {
      executorLost(executorId, why, false);
    }
  }

  private void executorLost(String id, String why, boolean release) {
    Session s = executors.remove(id);
    slots.remove(id);
    roster.gone(id);
    if (s != null) {
      s.link.end();
    }
    List<TaskAttempt> requeued = scheduler.executorLost(id);
    // Each attempt that was running there ends with it; its task runs again as a new attempt.
    requeued.forEach(a -> jobEvents.taskEnded(a, clock.nowMs() - a.startMs(), JobEvents.Status.KILLED, false));
    Set<Integer> lostShuffles = mapOutputs.executorLost(id);
    if (!lostShuffles.isEmpty()) {
      LOG.info("Executor {} took its shuffle output of stage(s) {} with it (no shuffle service serves it)", id,
          lostShuffles);
    }
    if (dynamic != null) {
      dynamic.tasksLost(requeued, clock.nowMs());
      dynamic.executorRemoved(id, clock.nowMs());
    }
    boolean expected = roster.ended(id);
    if (streaming != null) {
      streaming.executorRemoved(id, clock.nowMs());
    }
    if (outcome == null && !expected) {
      LOG.warn("Lost executor {}: {}; {} running task(s) go back to pending", id, why, requeued.size());
      if (release) {
        allocator.killExecutor(id, "lost: " + why);
      }
      revive();
    }
  }

  private void checkHeartbeats() {
    long now = clock.nowMs();
    for (Session s : List.copyOf(executors.values())) {
      long silent = now - s.lastHeardMs;
      if (silent > settings.heartbeatTimeout().toMillis()) {
        String why = "no heartbeat for " + silent + " ms (elasticam.executor.heartbeatTimeout)";
        executorLost(s.executorId, why, false);
        allocator.killFailedExecutor(s.executorId, "lost: " + why);
      }
    }
  }

  // ---- tasks -----------------------------------------------------------------------------------

  /**
   * Whether the first tasks may be scheduled: once {@code minRegisteredResourcesRatio} of the
   * initial executors registered, or {@code maxRegisteredResourcesWaitingTime} passed (Spark on
   * YARN waits for 80 % the same way). Without it the first executor up takes a whole short
   * stage, and its map output all lands on one node.
   */
  private boolean enoughRegistered() {
    if (schedulingStarted) {
      return true;
    }
    long waited = clock.nowMs() - registrationWaitStartMs;
    boolean byRatio = executors.size() >= initialExecutors * settings.minRegisteredRatio();
    if (byRatio || waited >= settings.maxRegisteredWait().toMillis()) {
      schedulingStarted = true;
      LOG.info("Scheduling tasks with {} of {} initial executor(s) registered, {}", executors.size(),
          initialExecutors, byRatio ? "at least elasticam.scheduler.minRegisteredResourcesRatio ("
              + settings.minRegisteredRatio() + ")" : "after waiting " + org.elasticam.conf.Durations.format(
              settings.maxRegisteredWait()) + " (elasticam.scheduler.maxRegisteredResourcesWaitingTime)");
    }
    return schedulingStarted;
  }

  private void revive() {
    if (outcome != null || scheduler.pendingTasks() == 0 && scheduler.speculativePending() == 0
        || executors.isEmpty() || !enoughRegistered()) {
      return;
    }
    List<TaskScheduler.Offer> offers = slots.offers(scheduler, roster::offersNothing);
    // A shuffle's locations are the same for every task launched in one round: built once each.
    Map<Integer, ShuffleInput> inputs = new java.util.HashMap<>();
    for (TaskAttempt a : scheduler.schedule(offers, clock.nowMs())) {
      if (dynamic != null) {
        dynamic.taskStarted(a, clock.nowMs());
      }
      jobEvents.taskStarted(a);
      Stage stage = lineage.stage(a.stageId());
      TaskLaunch.ShuffleWrite write = stage.writesShuffle() ? new TaskLaunch.ShuffleWrite(stage.id(),
          stage.shufflePartitions(), mapOutputs.wasLost(stage.id(), a.index())) : null;
      List<ShuffleInput> reads = new ArrayList<>();
      for (int p : lineage.shuffleParents(stage)) {
        reads.add(inputs.computeIfAbsent(p, q -> ShuffleInput.of(mapOutputs, q)));
      }
      int stageIdBase = streaming != null ? a.stageId() - a.stageId() % StreamingPlan.STAGE_ID_STRIDE : -1;
      executors.get(a.executorId()).link.launch(new TaskLaunch(a, stageIdBase, write, reads));
    }
  }

  /** The output commit coordinator: one attempt per task may publish; an executor asks only for its own. */
  public void commitRequested(Session session, long taskId) {
    boolean own = scheduler.runningAttempt(taskId).map(a -> a.executorId().equals(session.executorId)).orElse(false);
    boolean allowed = own && scheduler.mayCommit(taskId);
    scheduler.runningAttempt(taskId).ifPresent(a -> {
      if (allowed) {
        LOG.debug("Attempt {} of task {} of stage {} may commit", a.attempt(), a.index(), a.stageId());
      } else {
        LOG.info("Attempt {} of task {} of stage {} on executor {} may not commit: another attempt does",
            a.attempt(), a.index(), a.stageId(), a.executorId());
      }
    });
    session.link.commitAnswer(taskId, allowed);
  }

  /** Every elasticam.speculation.interval: slow tasks found get a copy on another host when a slot frees. */
  private void speculate() {
    long now = clock.nowMs();
    if (!settings.speculation().enabled() || now - lastSpeculationCheckMs < settings.speculationInterval().toMillis()) {
      return;
    }
    lastSpeculationCheckMs = now;
    for (TaskScheduler.SlowTask slow : scheduler.findSlowTasks(now)) {
      TaskAttempt a = slow.attempt();
      LOG.info("Task {} of stage {} (attempt {} on {}) has run {} ms, over its stage's {} ms"
          + " (elasticam.speculation.multiplier x the median of its finished tasks): a copy runs on another host",
          a.index(), a.stageId(), a.attempt(), a.host(), slow.runMs(), slow.thresholdMs());
      events.write(Event.TASK_SPECULATED, STAGE_ID, a.stageId(), TASK, a.index(), ATTEMPT, a.attempt(),
          EXECUTOR_ID, a.executorId(), RUN_MS, slow.runMs(), THRESHOLD_MS, slow.thresholdMs());
      if (dynamic != null) {
        dynamic.speculativeTaskSubmitted(a, now);
      }
    }
  }

  /** An executor reports on a task attempt it runs or ran. */
  public void taskReported(Session session, TaskReport u) {
    if (u.state() == TaskReport.State.RUNNING) {
      return;
    }
    boolean ok = u.state() == TaskReport.State.SUCCEEDED;
    boolean fetchFailed = u.state() == TaskReport.State.FETCH_FAILED;
    // A fetch failure is lost input, not a fault of the task: it goes back to pending uncounted.
    // An attempt that fails while another attempt of its task publishes the output (which may
    // remove what this one left) is superseded, not faulty.
    boolean killed = u.state() == TaskReport.State.KILLED || fetchFailed
        || !ok && scheduler.commitHeldByAnother(u.taskId());
    long runMs = scheduler.runningAttempt(u.taskId()).map(r -> clock.nowMs() - r.startMs()).orElse(-1L);
    Optional<TaskScheduler.TaskEnd> end = scheduler.taskEnded(u.taskId(), ok, killed, u.error(), runMs);
    if (end.isEmpty()) {
      return;
    }
    TaskAttempt a = end.get().attempt();
    if (!end.get().counted()) {
      supersededEnded(a, u, ok);
      return;
    }
    for (TaskAttempt other : end.get().redundant()) {
      LOG.info("Task {} of stage {}: attempt {} on {} succeeded first; killing attempt {} on executor {}", a.index(),
          a.stageId(), a.attempt(), a.host(), other.attempt(), other.executorId());
      kill(other);
    }
    if (dynamic != null) {
      dynamic.taskEnded(a, ok, killed, clock.nowMs());
    }
    MapOutputs.Output written = null;
    if (ok && lineage.stage(a.stageId()).writesShuffle()) {
      written = new MapOutputs.Output(a.executorId(), session.host, u.shufflePort(), session.localDirs,
          session.shuffleExternal);
      mapOutputs.put(a.stageId(), a.index(), written);
      if (dynamic != null) {
        dynamic.shuffleOutput(a.executorId(), a.stageId(), clock.nowMs());
      }
    }
    if (ok && streaming == null && !lineage.isRerunning(a.stageId())) {
      journal.taskSucceeded(a.stageId(), a.index(), written);
    }
    if (scheduler.runningOn(a.executorId()) == 0 && executors.containsKey(a.executorId())) {
      // What its shuffle output means for its removal: nothing when a service serves it; with
      // shuffle tracking and no service, it stays for elasticam.dynamicAllocation.shuffleTracking.timeout.
      String shuffle = mapOutputs.holdsUnservedOutput(a.executorId()) ? "held by the executor"
          : mapOutputs.wroteServedOutput(a.executorId()) ? "served by the shuffle service" : "none";
      events.write(Event.EXECUTOR_IDLE, EXECUTOR_ID, a.executorId(), SHUFFLE_OUTPUT, shuffle);
    }
    JobEvents.Status status = ok ? JobEvents.Status.SUCCESS : fetchFailed ? JobEvents.Status.FAILED
        : killed ? JobEvents.Status.KILLED : JobEvents.Status.FAILED;
    List<Object> fields = new ArrayList<>();
    if (!end.get().redundant().isEmpty()) {
      fields.addAll(List.of(WON_OVER_ATTEMPTS, end.get().redundant().stream().map(TaskAttempt::attempt).toList()));
    }
    if (status == JobEvents.Status.FAILED && !fetchFailed) {
      taskFailedOn(a);
    }
    if (status == JobEvents.Status.FAILED) {
      String error = TaskErrors.summary(u.error());
      LOG.info("Task {} of stage {} attempt {} failed on executor {}: {}", a.index(), a.stageId(), a.attempt(),
          a.executorId(), error);
      fields.addAll(List.of(ERROR, error));
    }
    jobEvents.taskEnded(a, clock.nowMs() - a.startMs(), status, fetchFailed, fields.toArray());
    if (end.get().jobFailure().isPresent()) {
      if (streaming != null && streaming.stageFailed(a.stageId(), end.get().jobFailure().get())) {
        revive();
        return;
      }
      finish(Outcome.failed(end.get().jobFailure().get()));
      return;
    }
    if (fetchFailed) {
      fetchFailed(a, u.fetchFailure());
      if (outcome != null) {
        return;
      }
    }
    retireIfIdle(a.executorId());
    end.get().stageCompleted().ifPresent(this::stageCompleted);
    revive();
  }

  /** Asks the attempt's executor to stop it; its end, when reported, is the scheduler's to judge. */
  private void kill(TaskAttempt a) {
    Session on = executors.get(a.executorId());
    if (on != null) {
      on.link.kill(a.taskId());
    }
  }

  /** An attempt whose task another attempt completed: its output is not used, its end counts for nothing. */
  private void supersededEnded(TaskAttempt a, TaskReport u, boolean ok) {
    if (dynamic != null) {
      dynamic.taskEnded(a, false, true, clock.nowMs());
    }
    jobEvents.taskEnded(a, clock.nowMs() - a.startMs(), ok ? JobEvents.Status.SUCCESS : JobEvents.Status.KILLED,
        false, SUPERSEDED, true);
    LOG.info("Attempt {} of task {} of stage {} on executor {} ended ({}) after another attempt of it succeeded",
        a.attempt(), a.index(), a.stageId(), a.executorId(), u.state());
    retireIfIdle(a.executorId());
    revive();
  }

  private void stageCompleted(int stageId) {
    if (dynamic != null) {
      dynamic.stageCompleted(stageId, clock.nowMs());
    }
    if (streaming == null) {
      journal.stageCompleted(stageId, mapOutputs.outputs(stageId), clock.nowMs());
    }
    StageLineage.Completion done = lineage.completed(stageId);
    int tasks = lineage.stage(stageId).tasks().size();
    if (done.recomputed()) {
      LOG.info("Stage {} recomputed its lost output", stageId);
      jobEvents.stageCompleted(stageId, tasks, RECOMPUTED, true);
      inputRecomputed(stageId, done.resumed());
      return;
    }
    stagesDone++;
    if (dynamic != null) {
      done.consumed().forEach(p -> dynamic.shuffleCleaned(p, clock.nowMs()));
    }
    done.removable().forEach(p -> cleanShuffle(p, "every stage that reads it completed"));
    jobEvents.stageCompleted(stageId, tasks);
    if (streaming != null) {
      LOG.info("Stage {} completed", stageId);
      streaming.stageCompleted(stageId);
      return;
    }
    LOG.info("Stage {} completed ({} of {} stages)", stageId, stagesDone, plan.totalStages());
    submitAll(plan.stageCompleted(stageId, clock.nowMs()));
    syncTarget();
    if (stagesDone == plan.totalStages()) {
      finish(Outcome.succeeded("all " + plan.totalTasks() + " tasks of " + plan.totalStages() + " stages succeeded"));
    }
  }

  /** Where shuffles no stage will read again are deleted; set once, before {@link #start}. */
  public void shuffleCleaner(ShuffleCleaner cleaner) {
    this.shuffleCleaner = cleaner;
  }

  /**
   * Deletes a shuffle's files wherever its output is served, as Spark's ContextCleaner does for a
   * shuffle no one can read any more: a long job, or a stream, would otherwise fill the nodes'
   * disks until it ends. Its locations stay known until the stage is forgotten.
   */
  private void cleanShuffle(int shuffleId, String why) {
    Stage stage = lineage.stage(shuffleId);
    if (stage == null || !stage.writesShuffle() || !mapOutputs.isShuffle(shuffleId)) {
      return;
    }
    Set<ShuffleCleaner.Server> servers = new java.util.LinkedHashSet<>();
    for (MapOutputs.Output o : mapOutputs.outputs(shuffleId)) {
      if (o != null) {
        servers.add(new ShuffleCleaner.Server(o.host(), o.port()));
      }
    }
    LOG.info("Deleting the files of shuffle {} on {} server(s): {}", shuffleId, servers.size(), why);
    events.write(Event.SHUFFLE_REMOVED, SHUFFLE_ID, shuffleId, SERVERS, servers.size(), REASON, why);
    shuffleCleaner.remove(shuffleId, servers);
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

  /**
   * New delegation tokens go to every registered executor now, and to each one that registers
   * later: an executor launched with the old tokens may register after this.
   */
  public void updateCredentials(byte[] tokens) {
    latestCredentials = tokens.clone();
    executors.values().forEach(s -> s.link.credentials(latestCredentials));
    LOG.info("Sent new delegation tokens to {} executor(s); executors registering later get them too",
        executors.size());
  }

  /** Tells every executor to stop; their containers are released by the allocator afterwards. */
  public void shutdownExecutors(String reason) {
    for (Session s : executors.values()) {
      // The executor closes the session itself once its tasks stopped and cleaned up.
      s.link.shutdown(reason);
    }
    executors.keySet().forEach(roster::gone);
    executors.clear();
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
    return executors.size();
  }

  public int target() {
    return target;
  }

  public int tasksDone() {
    return scheduler.doneTasks() + recoveredTasks;
  }

  public int tasksTotal() {
    return streaming != null ? streaming.tasksSubmitted() : plan.totalTasks();
  }

  /** For a streaming job: batches done and planned, and the last batch's figures. */
  public Optional<Map<String, Object>> streamingStatus() {
    if (streaming == null) {
      return Optional.empty();
    }
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("batches_done", streaming.batchesDone());
    m.put("batches", streaming.batches());
    m.put("batch_ms", streaming.batchMs());
    m.put("policy", streamingPolicy == null ? "static" : streamingPolicy.name());
    org.elasticam.allocator.streaming.BatchStats b = streaming.lastBatch();
    if (b != null) {
      m.put("last_batch", Map.of("batch", b.batch(), "processing_ms", b.processingMs(), "scheduling_delay_ms",
          b.schedulingDelayMs(), "records", b.records(), "executors", b.executors()));
    }
    return Optional.of(m);
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
