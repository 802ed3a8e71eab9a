package org.elasticam.allocator.dynamic;

import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * Our batch policy. It keeps Spark's guarantees — the need (with the allocation ratio and the
 * speculation and unschedulable rules) caps the target, the bounds hold, the initial target holds
 * until the first stage, removal never goes below the minimum or the target, an executor running
 * a task is never removed — and changes how it gets there, using what it observes of this job:
 *
 * <ul>
 *   <li><b>Ask for what the backlog is worth, at once</b> ({@link BacklogSizing}): with a task
 *       duration estimated for each active stage and the start latency L this ask would see
 *       ({@link StartLatencyModel}: starts asked for together slow each other), a new executor
 *       is asked for when it would still find enough work once it arrives; a stage whose tasks have
 *       all run longer than L without one finishing gets an executor per waiting task that no slot
 *       frees for within L. No 1, 2, 4, … ramp: a stage of tiny tasks gets no executors that would
 *       arrive after it ended, and a long stage gets its executors in one round.</li>
 *   <li><b>Cold start.</b> A stage nothing of which has run yet gets one executor at once when no
 *       slot frees for it within L; its first running task then bounds its duration.</li>
 *   <li><b>Executors freed by a stage's early tasks wait for its stragglers</b> ({@link
 *       StragglerHolds}), up to two start latencies idle, so the stage's children find them.</li>
 *   <li><b>Idle executors go once keeping them costs more than getting them back.</b> An idle
 *       executor is removed after {@link #IDLE_LATENCIES} start latencies (at least
 *       {@link #MIN_IDLE}), never later than {@code executorIdleTimeout}: waiting longer than it
 *       takes to get an executor back only pays for idleness (the ski-rental rule).</li>
 *   <li><b>Never fewer than Spark's rule asks for</b> ({@link SparkShadow}): Spark's manager runs
 *       in shadow on the same events, and while tasks wait the target is at least its target, so
 *       no backlog waits for executors Spark's 1, 2, 4, … rounds would have asked for.</li>
 *   <li><b>A budget for being behind Spark.</b> The time tasks wait while we hold fewer executors
 *       than Spark would (it keeps idle ones for {@code executorIdleTimeout}) is counted; past
 *       {@link SparkShadow#BUDGET} of the job's time, idle executors are kept through the longest
 *       reuse gap this job has shown instead of its 90th percentile, until the job is back within it.</li>
 * </ul>
 *
 * After an AM restart it resumes from the executors still alive instead of the initial target.
 */
public final class ElasticPolicy extends TrackingPolicy {

  /**
   * The rules that can be switched off one at a time, to measure what each is worth on the
   * robustness matrix (the simulator's {@code elastic-without-RULE} policies; the AM always runs
   * them all). The numbers are those of docs/dynamic-allocation.md.
   */
  public enum Rule {
    /** Rules 1–3: asks sized by what the backlog is worth; without it only Spark's floor asks (one executor at least). */
    OWN_ASKS,
    /** Rule 4: the bar follows how busy the executors were; without it, always the busy bar. */
    ADAPTIVE_BAR,
    /** Rule 5: idle executors go after a start latency or the reuse gap; without it, after {@code executorIdleTimeout}. */
    SKI_RENTAL_IDLE,
    /** Rule 6: executors freed by a stage's early tasks wait for its stragglers. */
    STRAGGLER_HOLDS,
    /** Rule 8: never fewer executors than Spark's rule asks for while tasks wait. */
    SPARK_FLOOR,
    /** Rule 9: past the budget for being behind Spark, idle executors are kept through the longest reuse gap. */
    REGRET_BUDGET;

    /** The rule's name in a policy name: {@code spark-floor} for {@link #SPARK_FLOOR}. */
    public String id() {
      return name().toLowerCase(Locale.ROOT).replace('_', '-');
    }

    /** @throws IllegalArgumentException naming the known rules */
    public static Rule of(String id) {
      for (Rule r : values()) {
        if (r.id().equals(id)) {
          return r;
        }
      }
      List<String> known = new ArrayList<>();
      for (Rule r : values()) {
        known.add(r.id());
      }
      throw new IllegalArgumentException("unknown rule of elastic '" + id + "' (known: " + String.join(", ", known) + ")");
    }
  }

  /** How many start latencies an idle executor is kept. */
  static final double IDLE_LATENCIES = 1.0;
  /** The shortest idle time before removal, whatever the start latency. */
  static final Duration MIN_IDLE = Duration.ofSeconds(2);
  /** Kept beyond the usual reuse gap, so a reuse that comes a little late still finds its executor. */
  static final long REUSE_MARGIN_MS = 500;
  /** The start latency assumed before one was observed. */
  static final long PRIOR_START_LATENCY_MS = 3_000;

  private final TaskEstimates estimates = new TaskEstimates();
  private final ReuseGaps reuseGaps = new ReuseGaps();
  private final Utilization utilization = new Utilization();
  private final BacklogSizing sizing = new BacklogSizing(estimates, s.localityWait().toMillis());
  private final StragglerHolds holds = new StragglerHolds();
  private final StartLatencyModel latencies = new StartLatencyModel();
  private final SparkShadow shadow;
  /** Behind Spark's rule past the budget ({@link SparkShadow#overBudget}), as of the last tick. */
  private boolean behind;
  /** When the executors removed since the last new stage had gone idle: regret shows up as a gap too. */
  private final List<Long> removedIdleSince = new ArrayList<>();
  private final Set<Rule> off;

  public ElasticPolicy(PolicySettings settings) {
    this(settings, EnumSet.noneOf(Rule.class));
  }

  /** With {@code off} switched off: for measuring what each rule is worth, never in the AM. */
  public ElasticPolicy(PolicySettings settings, Set<Rule> off) {
    super(settings);
    this.shadow = new SparkShadow(settings);
    this.off = off.isEmpty() ? EnumSet.noneOf(Rule.class) : EnumSet.copyOf(off);
  }

  /**
   * Executors held through their stage's stragglers ({@link StragglerHolds}) stay; the others go
   * in numeric id order (the oldest executors first): measured on the shared traces, it keeps
   * makespan closer to Spark's than Spark's string order does (rapids_nds_q72_dataproc 1.124 ×
   * against 1.149 ×).
   */
  @Override
  protected List<String> removalCandidates(List<String> timedOut, long nowMs) {
    long idleTimeoutMs = idleTimeout().toMillis();
    List<String> out = new ArrayList<>(timedOut.size());
    for (String id : timedOut) {
      if (off.contains(Rule.STRAGGLER_HOLDS)
          || !holds.held(id, monitor.idleSinceMs(id), nowMs, idleTimeoutMs, startLatencyMs(), s.idleTimeout().toMillis())) {
        out.add(id);
      }
    }
    out.sort(ExecutorMonitor.EXECUTOR_ORDER);
    return out;
  }

  @Override
  public String name() {
    if (off.isEmpty()) {
      return "elastic";
    }
    List<String> ids = new ArrayList<>();
    off.forEach(r -> ids.add(r.id()));
    return AllocationPolicies.ELASTIC_WITHOUT + String.join("+", ids);
  }

  // ---- events --------------------------------------------------------------------------------

  @Override
  public void stageSubmitted(StageInfo stage, long nowMs) {
    initializing = false;
    // New work: an executor removed since would have been reused now. Counting that gap as a reuse
    // gap keeps the estimate honest; otherwise only executors kept long enough are ever observed.
    for (long since : removedIdleSince) {
      if (nowMs - since <= s.idleTimeout().toMillis()) {
        reuseGaps.observe(nowMs - since);
      }
    }
    removedIdleSince.clear();
    work.stageSubmitted(stage);
    shadow.stageSubmitted(stage, nowMs);
  }

  @Override
  public void stageCompleted(int stageId, int attempt, long nowMs) {
    work.stageCompleted(stageId, attempt);
    estimates.stageCompleted(stageId, attempt);
    holds.stageCompleted(stageId, attempt, nowMs);
    shadow.events().stageCompleted(stageId, attempt, nowMs);
  }

  @Override
  public void speculativeTaskSubmitted(int stageId, int attempt, int index, long nowMs) {
    work.speculativeTaskSubmitted(stageId, attempt, index);
    shadow.events().speculativeTaskSubmitted(stageId, attempt, index, nowMs);
  }

  @Override
  public void unschedulableTaskSet(int stageId, int attempt, boolean added, long nowMs) {
    work.unschedulable(stageId, attempt, added);
    shadow.events().unschedulableTaskSet(stageId, attempt, added, nowMs);
  }

  @Override
  public void taskStarted(TaskInfo task, long nowMs) {
    long idleSince = monitor.idleSinceMs(task.executorId());
    if (idleSince >= 0) {
      reuseGaps.observe(nowMs - idleSince);
    }
    holds.taskStarted(task.executorId());
    work.taskStarted(task);
    monitor.taskStarted(task.executorId());
    estimates.taskStarted(task, nowMs);
    shadow.events().taskStarted(task, nowMs);
  }

  @Override
  public void taskEnded(TaskInfo task, TaskOutcome outcome, long durationMs, long nowMs) {
    work.taskEnded(task, outcome);
    monitor.taskEnded(task.executorId(), nowMs);
    if (monitor.isIdle(task.executorId())) {
      holds.executorIdled(task, work.isActive(task.stageId(), task.attempt()));
    }
    estimates.taskEnded(task, outcome, durationMs);
    shadow.events().taskEnded(task, outcome, durationMs, nowMs);
  }

  @Override
  public void executorAdded(String executorId, long startLatencyMs, long nowMs) {
    monitor.executorAdded(executorId, nowMs);
    estimates.executorStarted(startLatencyMs);
    latencies.registered(nowMs, startLatencyMs);
    shadow.events().executorAdded(executorId, startLatencyMs, nowMs);
  }

  @Override
  public void cachedData(String executorId, boolean holds, long nowMs) {
    super.cachedData(executorId, holds, nowMs);
    shadow.events().cachedData(executorId, holds, nowMs);
  }

  @Override
  public void shuffleOutput(String executorId, int shuffleId, long nowMs) {
    super.shuffleOutput(executorId, shuffleId, nowMs);
    shadow.events().shuffleOutput(executorId, shuffleId, nowMs);
  }

  @Override
  public void shuffleCleaned(int shuffleId, long nowMs) {
    super.shuffleCleaned(shuffleId, nowMs);
    shadow.events().shuffleCleaned(shuffleId, nowMs);
  }

  // ---- the tick ------------------------------------------------------------------------------

  @Override
  protected void beforeTick(long nowMs) {
    utilization.sample(monitor.executorCount() * s.tasksPerExecutor(), work.runningTasks());
    latencies.inFlight(nowMs, inFlight());
    shadow.tick(nowMs, monitor.executorCount(), work.pendingTasks() > 0 ? maxNeeded() : 0, startLatencyMs());
    behind = !off.contains(Rule.REGRET_BUDGET) && shadow.overBudget(nowMs);
    monitor.setIdleTimeout(idleTimeout());
  }

  @Override
  protected void removing(String executorId) {
    removedIdleSince.add(monitor.idleSinceMs(executorId));
    shadow.removing(executorId);
  }

  @Override
  public void executorRemoved(String executorId, long nowMs) {
    super.executorRemoved(executorId, nowMs);
    holds.executorRemoved(executorId);
    shadow.executorRemoved(executorId, nowMs);
  }

  @Override
  protected String updateTarget(long nowMs) {
    int needed = maxNeeded();
    if (needed < target) {
      int old = target;
      target = Math.max(needed, s.minExecutors());
      return target == old ? "" : "the need fell to " + needed + " executor(s)";
    }
    if (!work.hasPendingTasks()) {
      return "";
    }
    BacklogSizing.Fleet fleet = new BacklogSizing.Fleet(monitor.executorCount(), target, s.tasksPerExecutor());
    int worth = off.contains(Rule.OWN_ASKS) ? 0 : sizing.worth(work.loads(), fleet, askLatencyMs(), worthLatencies(), nowMs);
    if (work.pendingTasks() > 0 && worth < 1) {
      // Someone must run the waiting tasks, however little work they are.
      worth = 1;
    }
    if (!off.contains(Rule.SPARK_FLOOR) && shadow.sparkTarget() > worth) {
      return raiseTo(shadow.sparkTarget(), needed, "no fewer than Spark's rule asks for:");
    }
    return raiseTo(worth, needed, "the backlog is worth");
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
   * How many start latencies of work a new executor must find, given how busy our executors were
   * lately: {@code worthLatencies.busy} when every slot ran a task (a new one will be kept busy
   * after this backlog too), up to {@code worthLatencies.idle} when they idled.
   */
  double worthLatencies() {
    if (off.contains(Rule.ADAPTIVE_BAR)) {
      return s.worthLatenciesBusy();
    }
    double busy = utilization.busyShare();
    return s.worthLatenciesBusy() + (s.worthLatenciesIdle() - s.worthLatenciesBusy()) * (1 - busy);
  }

  /**
   * What getting an executor back costs, for keeping idle ones: the moving average of this job's
   * starts, bursts included, since the children of a wide stage come back as a burst.
   */
  private double startLatencyMs() {
    return estimates.startLatencyMs().orElse(PRIOR_START_LATENCY_MS);
  }

  /**
   * When an executor asked for now would arrive: the start-latency model at the executors already
   * on their way plus this one. Measured on the shared traces against the moving average (which
   * counts every start as if it came with a burst): rapids_emr_join_agg_da's last stage got its
   * executors (1.046 → 1.029 × Spark's makespan) and rapids_nds_q88_databricks saved 10 % instead
   * of losing 10 %; for keeping executors the average did better (see {@link #startLatencyMs}).
   */
  private double askLatencyMs() {
    return latencies.predictMs(inFlight() + 1).orElse(PRIOR_START_LATENCY_MS);
  }

  /** Executors asked for and not registered yet. */
  private int inFlight() {
    return Math.max(0, target - monitor.executorCount());
  }

  /**
   * How long an idle executor is kept: long enough to be reused after the gaps this job has shown
   * between an executor's tasks (their 90th percentile; the longest of them while the job is behind
   * Spark's rule past the budget, {@link SparkShadow}), and at least a few start latencies —
   * idling longer than it takes to get an executor back is paid for nothing. The user's
   * {@code executorIdleTimeout} caps it.
   */
  Duration idleTimeout() {
    if (off.contains(Rule.SKI_RENTAL_IDLE)) {
      return s.idleTimeout();
    }
    long byLatency = (long) (IDLE_LATENCIES * startLatencyMs());
    long byGaps = behind ? reuseGaps.longestMs() : reuseGaps.percentile90Ms();
    Duration adaptive = Duration.ofMillis(Math.max(MIN_IDLE.toMillis(), Math.max(byLatency, byGaps + REUSE_MARGIN_MS)));
    return adaptive.compareTo(s.idleTimeout()) < 0 ? adaptive : s.idleTimeout();
  }

  /** After an AM restart: start from the executors still alive, not from the initial target. */
  @Override
  public void reset(long nowMs) {
    restarted(0, nowMs);
  }

  /**
   * Keeps the survivors of the earlier attempt as the target while they re-register: asking for
   * the initial target instead would release live executors, or ask again for ones on their way.
   */
  @Override
  public void restarted(int survivors, long nowMs) {
    int live = Math.max(survivors, monitor.executorCount());
    target = Math.max(Math.min(s.maxExecutors(), live), s.initialExecutors());
    shadow.reset(nowMs);
  }
}
