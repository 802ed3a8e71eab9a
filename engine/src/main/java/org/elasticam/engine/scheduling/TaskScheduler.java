package org.elasticam.engine.scheduling;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;
import org.elasticam.api.Stage;

/**
 * Which task runs where: FIFO across stages, delay scheduling within one (a stage waits up to
 * {@code elasticam.locality.wait} for a node-local slot, then as long for a rack-local one, then
 * takes any), retries up to {@code elasticam.task.maxFailures}. Pure: time is passed in, and the
 * caller sends what it returns.
 */
public final class TaskScheduler {

  /** An executor with free task slots. */
  public record Offer(String executorId, String host, int freeSlots) {}

  /**
   * What a task's end meant. {@code counted} is false for an attempt whose task another attempt
   * finished first (its output must not be used); {@code redundant} are the attempts still running
   * of a task this end completed, which the caller kills.
   */
  public record TaskEnd(TaskAttempt attempt, Optional<Integer> stageCompleted, Optional<String> jobFailure,
      boolean counted, List<TaskAttempt> redundant) {
    public TaskEnd(TaskAttempt attempt, Optional<Integer> stageCompleted, Optional<String> jobFailure) {
      this(attempt, stageCompleted, jobFailure, true, List.of());
    }
  }

  /**
   * Spark's speculation: once {@code quantile} of a stage's tasks succeeded, a task running longer
   * than {@code multiplier} × their median run time (and at least {@code minTaskRuntimeMs}) gets one
   * copy on another host; the first attempt to succeed wins.
   */
  public record Speculation(boolean enabled, double multiplier, double quantile, long minTaskRuntimeMs) {
    public static final Speculation OFF = new Speculation(false, 1.5, 0.75, 100);
  }

  /** A running attempt found slow: it ran {@code runMs} against its stage's {@code thresholdMs}. */
  public record SlowTask(TaskAttempt attempt, long runMs, long thresholdMs) {}

  private final int maxFailures;
  private final long localityWaitMs;
  private final Function<String, String> rackOf;
  private final Map<Integer, StageState> active = new LinkedHashMap<>();
  private final Map<Long, TaskAttempt> running = new HashMap<>();
  /** Attempts made of each task of completed stages, so a re-run continues their numbering. */
  private final Map<Integer, int[]> completedAttempts = new HashMap<>();
  private final Map<String, Set<Long>> runningOn = new HashMap<>();
  /** Live executors per host, and hosts per rack: a locality level no live executor can serve is skipped. */
  private final Map<String, Integer> executorsOnHost = new HashMap<>();
  private final Map<String, String> hostOfExecutor = new HashMap<>();
  private final Map<String, Integer> executorsOnRack = new HashMap<>();
  /** Hosts whose shuffle output could not be fetched, and until when map tasks stay off them. */
  private final Map<String, Long> unfetchableUntilMs = new HashMap<>();
  /** Hosts no task runs on, after repeated task failures there. */
  private TaskFailureExclusions excludedHosts = new TaskFailureExclusions(false, 1, Duration.ZERO);
  private Speculation speculation = Speculation.OFF;
  /** Per task (stage and index), the running attempt allowed to publish its output. */
  private final Map<Long, Long> commitHolders = new HashMap<>();
  /** Entries in the stages' speculative queues, some perhaps stale: scheduling looks at them while any. */
  private int speculativeQueued;
  private long nextTaskId = 1;
  private int doneTasks;
  private int pendingTasks;

  public TaskScheduler(int maxFailures, Duration localityWait, Function<String, String> rackOf) {
    this.maxFailures = maxFailures;
    this.localityWaitMs = localityWait.toMillis();
    this.rackOf = rackOf;
  }

  public void submit(Stage stage, long nowMs) {
    if (active.containsKey(stage.id())) {
      throw new IllegalStateException("stage " + stage.id() + " submitted twice");
    }
    StageState s = new StageState(stage, nowMs, rackOf);
    active.put(stage.id(), s);
    pendingTasks += s.pending;
  }

  /**
   * Submits a stage some of whose tasks already succeeded (under an earlier attempt of the AM):
   * only the others run, and the stage completes once they are done. At least one must be left.
   */
  public void submit(Stage stage, java.util.Set<Integer> alreadyDone, long nowMs) {
    if (active.containsKey(stage.id())) {
      throw new IllegalStateException("stage " + stage.id() + " submitted twice");
    }
    java.util.Set<Integer> left = new HashSet<>();
    for (int i = 0; i < stage.tasks().size(); i++) {
      if (!alreadyDone.contains(i)) {
        left.add(i);
      }
    }
    if (left.isEmpty()) {
      throw new IllegalArgumentException("stage " + stage.id() + " has no task left to run");
    }
    StageState s = new StageState(stage, nowMs, rackOf, left);
    active.put(stage.id(), s);
    pendingTasks += s.pending;
    doneTasks += s.done;
  }

  /** A completed stage that will never run again (a finished micro-batch's): drop what it left. */
  public void forget(int stageId) {
    if (!active.containsKey(stageId)) {
      completedAttempts.remove(stageId);
    }
  }

  /**
   * Runs the given tasks of a stage again, because the output they produced was lost; the other
   * tasks stay done. The stage may still be active (more output was lost while it re-ran) or
   * completed (it is activated again, and reports its completion once more).
   */
  public void resubmit(Stage stage, java.util.Collection<Integer> indices, long nowMs) {
    StageState s = active.get(stage.id());
    if (s == null) {
      s = new StageState(stage, nowMs, rackOf, new HashSet<>(indices));
      int[] before = completedAttempts.get(stage.id());
      if (before != null) {
        System.arraycopy(before, 0, s.attempts, 0, Math.min(before.length, s.attempts.length));
      }
      active.put(stage.id(), s);
      pendingTasks += s.pending;
      doneTasks -= s.pending;
      return;
    }
    for (int i : new HashSet<>(indices)) {
      if (s.status[i] == StageState.TaskStatus.DONE) {
        s.done--;
        doneTasks--;
        s.enqueue(i, rackOf);
        pendingTasks++;
      }
    }
  }

  /**
   * Gives up an active stage (its batch failed): none of its tasks runs again, and the reports of
   * those running now will be ignored. Returns them, for the caller to kill.
   */
  public List<TaskAttempt> abort(int stageId) {
    StageState s = active.remove(stageId);
    if (s == null) {
      return List.of();
    }
    pendingTasks -= s.pending;
    List<TaskAttempt> runningNow = running.values().stream().filter(a -> a.stageId() == stageId).toList();
    runningNow.forEach(a -> {
      forget(a.taskId());
      commitHolders.remove(taskKey(a));
    });
    speculativeQueued -= s.speculative.size();
    return runningNow;
  }

  /** Holds a stage's pending tasks back (its input is being recomputed) until {@link #resume}. */
  public void pause(int stageId) {
    StageState s = active.get(stageId);
    if (s != null) {
      s.paused = true;
    }
  }

  public void resume(int stageId, long nowMs) {
    StageState s = active.get(stageId);
    if (s != null && s.paused) {
      s.paused = false;
      s.localityWaitFromMs = nowMs;
    }
  }

  public boolean isActive(int stageId) {
    return active.containsKey(stageId);
  }

  /** An executor registered on {@code host}: node- and rack-local slots may now exist there. */
  public void executorUp(String executorId, String host) {
    if (hostOfExecutor.put(executorId, host) == null) {
      executorsOnHost.merge(host, 1, Integer::sum);
      String rack = rackOf.apply(host);
      if (rack != null) {
        executorsOnRack.merge(rack, 1, Integer::sum);
      }
    }
  }

  /**
   * Assigns pending tasks to free slots, one slot per executor per pass so load spreads. The
   * offers are every free slot there is; a stage's locality timer restarts after a round that
   * launched its tasks without declining any free slot for locality (Spark's rule since 3.1,
   * SPARK-18886): a stage whose local launches keep coming while other executors sit idle beside
   * its waiting tasks still moves to the next level after the locality wait.
   */
  public List<TaskAttempt> schedule(List<Offer> offers, long nowMs) {
    List<TaskAttempt> out = new ArrayList<>();
    if (pendingTasks == 0 && speculativeQueued == 0) {
      return out;
    }
    for (StageState s : active.values()) {
      s.launchedInRound = false;
      s.declinedInRound = false;
      s.mostLocalInRound = null;
    }
    int[] free = new int[offers.size()];
    for (int i = 0; i < free.length; i++) {
      free[i] = offers.get(i).freeSlots();
    }
    boolean progress = true;
    while (progress && (pendingTasks > 0 || speculativeQueued > 0)) {
      progress = false;
      for (int i = 0; i < offers.size(); i++) {
        if (free[i] > 0) {
          TaskAttempt a = pick(offers.get(i), nowMs);
          if (a != null) {
            free[i]--;
            out.add(a);
            progress = true;
          } else {
            free[i] = 0;
          }
        }
      }
    }
    for (StageState s : active.values()) {
      if (s.launchedInRound && !s.declinedInRound) {
        s.localityWaitFromMs = nowMs;
        if (s.mostLocalInRound != null) {
          s.allowed = s.mostLocalInRound;
        }
      }
    }
    return out;
  }

  /**
   * Reducers could not fetch shuffle output from {@code host}: until {@code untilMs}, tasks that
   * write shuffle output run elsewhere while any other host has an executor, so recomputed output
   * does not land where it cannot be read either.
   */
  public void avoidForShuffleOutput(String host, long untilMs) {
    unfetchableUntilMs.merge(host, untilMs, Math::max);
  }

  private boolean avoidedForShuffleOutput(String host, long nowMs) {
    Long until = unfetchableUntilMs.get(host);
    if (until == null) {
      return false;
    }
    if (nowMs >= until) {
      unfetchableUntilMs.remove(host);
      return false;
    }
    for (String other : executorsOnHost.keySet()) {
      Long otherUntil = unfetchableUntilMs.get(other);
      if (otherUntil == null || nowMs >= otherUntil) {
        return true;
      }
    }
    return false;
  }

  /** Where repeated task failures keep tasks away from; the caller records the failures in it. */
  public void excludeOnFailure(TaskFailureExclusions exclusions) {
    this.excludedHosts = exclusions;
  }

  /** The hosts that have live executors now. */
  public Set<String> hostsWithExecutors() {
    return java.util.Collections.unmodifiableSet(executorsOnHost.keySet());
  }

  private TaskAttempt pick(Offer offer, long nowMs) {
    if (excludedHosts.isExcluded(offer.host(), nowMs)) {
      return null;
    }
    String rack = rackOf.apply(offer.host());
    boolean avoid = avoidedForShuffleOutput(offer.host(), nowMs);
    for (StageState s : active.values()) {
      if (s.paused || avoid && s.stage.writesShuffle()) {
        continue;
      }
      Locality allowed = allowedLevel(s, nowMs);
      for (Locality level : Locality.values()) {
        if (level.ordinal() > allowed.ordinal()) {
          break;
        }
        int index = s.take(level, offer.host(), rack);
        if (index >= 0) {
          return launch(s, index, offer, rack, nowMs);
        }
      }
      if (allowed != Locality.ANY && s.pending > 0) {
        s.declinedInRound = true;
      }
    }
    // Copies come after every task that has not run at all, as Spark's: a copy only saves time.
    for (StageState s : speculativeQueued == 0 ? List.<StageState>of() : active.values()) {
      if (!s.paused) {
        int index = takeSpeculative(s, offer.host());
        if (index >= 0) {
          return launch(s, index, offer, rack, nowMs, true);
        }
      }
    }
    return null;
  }

  /** A task of {@code s} waiting for a copy that has no attempt on {@code host}, or -1; stale entries go. */
  private int takeSpeculative(StageState s, String host) {
    for (java.util.Iterator<Integer> it = s.speculative.iterator(); it.hasNext(); ) {
      int i = it.next();
      if (s.status[i] != StageState.TaskStatus.RUNNING || s.copiesRunning[i] != 1) {
        it.remove();
        speculativeQueued--;
      } else if (running.values().stream().noneMatch(
          a -> a.stageId() == s.stage.id() && a.index() == i && a.host().equals(host))) {
        it.remove();
        speculativeQueued--;
        s.copiesRunning[i]++;
        s.running++;
        return i;
      }
    }
    return -1;
  }

  public void speculation(Speculation speculation) {
    this.speculation = speculation;
  }

  /**
   * Running attempts slow enough for a copy, each task at most once: they wait for a slot on
   * another host. Called every {@code elasticam.speculation.interval}.
   */
  public List<SlowTask> findSlowTasks(long nowMs) {
    if (!speculation.enabled()) {
      return List.of();
    }
    Map<Integer, Long> thresholds = new HashMap<>();
    for (StageState s : active.values()) {
      int minFinished = Math.max((int) Math.floor(speculation.quantile() * s.status.length), 1);
      if (!s.paused && s.successes >= minFinished) {
        thresholds.put(s.stage.id(), Math.max(Math.round(speculation.multiplier() * s.medianSuccessMs()),
            speculation.minTaskRuntimeMs()));
      }
    }
    List<SlowTask> out = new ArrayList<>();
    if (thresholds.isEmpty()) {
      return out;
    }
    for (TaskAttempt a : running.values()) {
      Long threshold = thresholds.get(a.stageId());
      StageState s = active.get(a.stageId());
      int i = a.index();
      if (threshold != null && !s.speculated[i] && s.copiesRunning[i] == 1
          && s.status[i] == StageState.TaskStatus.RUNNING && nowMs - a.startMs() > threshold) {
        s.speculated[i] = true;
        s.speculative.add(i);
        speculativeQueued++;
        out.add(new SlowTask(a, nowMs - a.startMs(), threshold));
      }
    }
    return out;
  }

  /**
   * Whether this running attempt may publish its task's output: the first to ask of a task not
   * done yet gets the right and keeps it until it ends; no other attempt gets it meanwhile, nor
   * any after the task is done. A failed holder's right goes to the next to ask.
   */
  public boolean mayCommit(long taskId) {
    TaskAttempt a = running.get(taskId);
    StageState s = a == null ? null : active.get(a.stageId());
    if (s == null || s.status[a.index()] == StageState.TaskStatus.DONE) {
      return false;
    }
    return commitHolders.computeIfAbsent(taskKey(a), k -> taskId) == taskId;
  }

  /** A running attempt by its task id. */
  public Optional<TaskAttempt> runningAttempt(long taskId) {
    return Optional.ofNullable(running.get(taskId));
  }

  /** Whether another attempt of this running attempt's task holds the right to publish. */
  public boolean commitHeldByAnother(long taskId) {
    TaskAttempt a = running.get(taskId);
    Long holder = a == null ? null : commitHolders.get(taskKey(a));
    return holder != null && holder != taskId;
  }

  private static long taskKey(TaskAttempt a) {
    return ((long) a.stageId() << 32) | a.index();
  }

  /** Copies found needed that have not started yet. */
  public int speculativePending() {
    int n = 0;
    for (StageState s : speculativeQueued == 0 ? List.<StageState>of() : active.values()) {
      n += s.speculativePending();
    }
    return n;
  }

  /**
   * How far a stage may stray from its tasks' preferred hosts, as Spark's delay scheduling: from
   * the level of its last launch, one level further for every locality wait without a launch; a
   * level no live executor can serve (no executor on, or on the rack of, a preferred host of a
   * pending task) is skipped without waiting.
   */
  private Locality allowedLevel(StageState s, long nowMs) {
    if (s.pendingWithPreference == 0 || localityWaitMs <= 0) {
      return Locality.ANY;
    }
    while (s.allowed != Locality.ANY) {
      if (!servable(s, s.allowed)) {
        s.allowed = next(s.allowed);
      } else if (nowMs - s.localityWaitFromMs >= localityWaitMs) {
        s.allowed = next(s.allowed);
        s.localityWaitFromMs += localityWaitMs;
      } else {
        break;
      }
    }
    return s.allowed;
  }

  private boolean servable(StageState s, Locality level) {
    return level == Locality.NODE_LOCAL ? s.pendingOnAnyOf(executorsOnHost.keySet())
        : s.pendingOnAnyRackOf(executorsOnRack.keySet());
  }

  private static Locality next(Locality l) {
    return l == Locality.NODE_LOCAL ? Locality.RACK_LOCAL : Locality.ANY;
  }

  private TaskAttempt launch(StageState s, int index, Offer offer, String rack, long nowMs) {
    pendingTasks--;
    return launch(s, index, offer, rack, nowMs, false);
  }

  private TaskAttempt launch(StageState s, int index, Offer offer, String rack, long nowMs, boolean speculative) {
    List<String> prefs = s.spec(index).preferredHosts();
    Locality actual = Locality.ANY;
    if (prefs.contains(offer.host())) {
      actual = Locality.NODE_LOCAL;
    } else if (rack != null && prefs.stream().anyMatch(h -> rack.equals(rackOf.apply(h)))) {
      actual = Locality.RACK_LOCAL;
    }
    s.launchedInRound = true;
    if (!prefs.isEmpty() && (s.mostLocalInRound == null || actual.ordinal() < s.mostLocalInRound.ordinal())) {
      s.mostLocalInRound = actual;
    }
    int attempt = s.attempts[index]++;
    TaskAttempt a = new TaskAttempt(nextTaskId++, s.stage.id(), index, attempt, offer.executorId(), offer.host(),
        actual, nowMs, s.stage.taskClass(), s.spec(index).params(), speculative);
    running.put(a.taskId(), a);
    runningOn.computeIfAbsent(offer.executorId(), k -> new HashSet<>()).add(a.taskId());
    return a;
  }

  /** Records a task's end; empty for a task this scheduler no longer tracks (a late report). */
  public Optional<TaskEnd> taskEnded(long taskId, boolean succeeded, boolean killed, String error) {
    return taskEnded(taskId, succeeded, killed, error, -1);
  }

  /**
   * Records a task's end, {@code runMs} its run time (negative when unknown: speculation then does
   * not learn from it); empty for a task this scheduler no longer tracks (a late report).
   */
  public Optional<TaskEnd> taskEnded(long taskId, boolean succeeded, boolean killed, String error, long runMs) {
    TaskAttempt a = forget(taskId);
    if (a == null) {
      return Optional.empty();
    }
    commitHolders.remove(taskKey(a), taskId);
    StageState s = active.get(a.stageId());
    if (s == null) {
      // Its stage completed while it ran: every task of it was done by another attempt.
      return Optional.of(new TaskEnd(a, Optional.empty(), Optional.empty(), false, List.of()));
    }
    s.running--;
    s.copiesRunning[a.index()]--;
    if (s.status[a.index()] == StageState.TaskStatus.DONE) {
      // Another attempt of this task won; this one's output, if any, is not used.
      return Optional.of(new TaskEnd(a, Optional.empty(), Optional.empty(), false, List.of()));
    }
    if (succeeded) {
      s.status[a.index()] = StageState.TaskStatus.DONE;
      s.done++;
      doneTasks++;
      if (runMs >= 0) {
        s.succeededIn(runMs);
      }
      List<TaskAttempt> redundant = s.copiesRunning[a.index()] == 0 ? List.of() : running.values().stream()
          .filter(o -> o.stageId() == a.stageId() && o.index() == a.index()).toList();
      if (s.complete()) {
        active.remove(a.stageId());
        completedAttempts.put(a.stageId(), s.attempts);
        return Optional.of(new TaskEnd(a, Optional.of(a.stageId()), Optional.empty(), true, redundant));
      }
      return Optional.of(new TaskEnd(a, Optional.empty(), Optional.empty(), true, redundant));
    }
    if (!killed && ++s.failures[a.index()] >= maxFailures) {
      return Optional.of(new TaskEnd(a, Optional.empty(), Optional.of("Task " + a.index() + " of stage "
          + a.stageId() + " (" + s.stage.name() + ") failed " + s.failures[a.index()] + " times"
          + " (elasticam.task.maxFailures=" + maxFailures + "); last error: "
          + TaskErrors.withParams(error, a.params()))));
    }
    if (s.copiesRunning[a.index()] == 0) {
      s.enqueue(a.index(), rackOf);
      pendingTasks++;
    }
    // else the other attempt still runs: it is the task's attempt now, and it is not copied again.
    return Optional.of(new TaskEnd(a, Optional.empty(), Optional.empty()));
  }

  /** The executor is gone: its running tasks go back to pending, without counting as failures. */
  public List<TaskAttempt> executorLost(String executorId) {
    List<TaskAttempt> lost = new ArrayList<>();
    for (long id : List.copyOf(runningOn.getOrDefault(executorId, Set.of()))) {
      TaskAttempt a = running.get(id);
      taskEnded(id, false, true, "");
      lost.add(a);
    }
    runningOn.remove(executorId);
    String host = hostOfExecutor.remove(executorId);
    if (host != null) {
      executorsOnHost.computeIfPresent(host, (h, n) -> n == 1 ? null : n - 1);
      String rack = rackOf.apply(host);
      if (rack != null) {
        executorsOnRack.computeIfPresent(rack, (r, n) -> n == 1 ? null : n - 1);
      }
    }
    return lost;
  }

  private TaskAttempt forget(long taskId) {
    TaskAttempt a = running.remove(taskId);
    if (a != null) {
      Set<Long> on = runningOn.get(a.executorId());
      if (on != null) {
        on.remove(taskId);
      }
    }
    return a;
  }

  // ---- what the driver reads -------------------------------------------------------------------

  public int pendingTasks() {
    return pendingTasks;
  }

  public int runningTasks() {
    return running.size();
  }

  public int doneTasks() {
    return doneTasks;
  }

  public int runningOn(String executorId) {
    return runningOn.getOrDefault(executorId, Set.of()).size();
  }

  public boolean hasActiveStages() {
    return !active.isEmpty();
  }

  /** The active stages' submitted task counts, for stage events. */
  public int stageTasks(int stageId) {
    StageState s = active.get(stageId);
    return s == null ? 0 : s.status.length;
  }

  /** Tasks with a preferred host, and per host how many, summed over active stages (Spark's rule). */
  public int localityAwareTasks() {
    return active.values().stream().mapToInt(s -> s.tasksWithPreference).sum();
  }

  public Map<String, Integer> hostToLocalTaskCount() {
    // In host order whatever order the stages keep: placement breaks ties by it.
    Map<String, Integer> m = new java.util.TreeMap<>();
    active.values().forEach(s -> s.hostToTaskCount.forEach((h, n) -> m.merge(h, n, Integer::sum)));
    return m;
  }
}
