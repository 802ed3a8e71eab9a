package org.elasticam.allocator;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.elasticam.allocator.exit.ExitClassifier;
import org.elasticam.allocator.exit.ExitVerdict;
import org.elasticam.allocator.health.FailureTracker;
import org.elasticam.allocator.health.NodeExclusions;
import org.elasticam.allocator.health.StartFailures;
import org.elasticam.allocator.ledger.AllocationLedger;
import org.elasticam.allocator.ledger.HeldContainer;
import org.elasticam.allocator.ledger.HeldContainer.State;
import org.elasticam.allocator.matching.GrantMatcher;
import org.elasticam.allocator.model.ContainerExit;
import org.elasticam.allocator.model.ContainerRef;
import org.elasticam.allocator.model.ExecutorId;
import org.elasticam.allocator.model.Grant;
import org.elasticam.allocator.model.LocalityHints;
import org.elasticam.allocator.model.PendingAsk;
import org.elasticam.allocator.plan.Action;
import org.elasticam.allocator.plan.Action.AddAsk;
import org.elasticam.allocator.plan.Action.CancelAsk;
import org.elasticam.allocator.plan.Action.ContainerCompleted;
import org.elasticam.allocator.plan.Action.FailApplication;
import org.elasticam.allocator.plan.Action.LaunchExecutor;
import org.elasticam.allocator.plan.Action.ReleaseContainer;
import org.elasticam.allocator.plan.Action.Warn;
import org.elasticam.allocator.plan.Plan;
import org.elasticam.allocator.reconcile.AskChanges;
import org.elasticam.allocator.reconcile.ReconcileInput;
import org.elasticam.allocator.reconcile.Reconciler;

/**
 * The allocator's decision core: turns "N executors, with these locality hints" and what YARN
 * reports into plans of actions. It owns the ledger; every method is called on the AM's one
 * event-loop thread with the current time, and returns what the adapters must do. No I/O, no
 * threads, no Hadoop.
 */
public final class ExecutorAllocator {

  private final AllocatorSettings settings;
  private final AllocationLedger ledger = new AllocationLedger();
  private final FailureTracker failures;
  private final NodeExclusions exclusions;
  private final StartFailures startFailures = new StartFailures();
  /** Executors that registered with the driver: a failure of any other is a failure to start. */
  private final java.util.Set<ExecutorId> registered = new java.util.HashSet<>();
  private int target;
  private LocalityHints hints = LocalityHints.NONE;
  private boolean ending;
  private boolean failed;

  public ExecutorAllocator(AllocatorSettings settings) {
    this.settings = settings;
    this.failures = new FailureTracker(settings.maxExecutorFailures(), settings.failuresValidityInterval());
    this.exclusions = new NodeExclusions(settings.excludeOnFailure(), settings.maxFailuresPerNode(),
        settings.excludeTimeout());
  }

  /**
   * The driver's desired total, where its pending tasks would like to run, and the nodes its
   * scheduler excluded. Takes effect at the next {@link #reconcile}.
   *
   * @return whether the target changed (the AM then heartbeats early)
   */
  public boolean requestTotalExecutors(int newTarget, LocalityHints newHints, Set<String> schedulerExcluded) {
    if (newTarget < 0) {
      throw new IllegalArgumentException("target < 0: " + newTarget);
    }
    boolean changed = newTarget != target;
    target = newTarget;
    hints = newHints;
    exclusions.setSchedulerExcluded(schedulerExcluded);
    return changed;
  }

  /** Brings pending asks and node exclusions in line with the target; run before every heartbeat. */
  public Plan reconcile(long nowMs, ClusterView cluster) {
    List<Action> actions = new ArrayList<>();
    exclusions.sync(nowMs).ifPresent(actions::add);
    if (ending) {
      return new Plan(actions);
    }
    ReconcileInput in = new ReconcileInput(target, hints, ledger.pendingAsks(), ledger.runningCount(),
        ledger.startingCount(), ledger.activeOnHost(), cluster.liveHosts(), cluster.rackOfHost(),
        exclusions.excluded(nowMs), settings.executorCores(), settings.taskCpus(), settings.placement(),
        settings.localityAllowed());
    AskChanges changes = Reconciler.reconcile(in);
    for (AskChanges.Cancel c : changes.cancels()) {
      ledger.removeAsk(c.ask());
      actions.add(new CancelAsk(c.ask(), c.reason()));
    }
    // Executors keep failing to start: no new requests until the hold ends (cancels still go).
    for (AskChanges.NewAsk n : startFailures.holding(nowMs) ? List.<AskChanges.NewAsk>of() : changes.adds()) {
      PendingAsk ask = ledger.addAsk(n.locality(), n.origin(), nowMs);
      actions.add(new AddAsk(ask.id(), ask.locality(), ask.origin(), changes.summary()));
    }
    return new Plan(actions);
  }

  /**
   * Matches granted containers to pending asks; launches executors in those the target still
   * needs and releases the rest at once (Spark leaves them unused until they expire). A container
   * on an excluded node is released too: the ResourceManager can grant one it scheduled before it
   * heard of the exclusion, and no task would run there; the next reconcile asks again.
   */
  public Plan onGrants(List<Grant> grants, long nowMs) {
    List<Action> actions = new ArrayList<>();
    Set<String> excluded = exclusions.excluded(nowMs);
    for (GrantMatcher.Match m : GrantMatcher.match(grants, ledger.pendingAsks(), settings.localityAllowed())) {
      if (m.ask() != null) {
        ledger.removeAsk(m.ask().id());
      }
      actions.add(new Action.GrantMatched(m.grant().container(), m.grant().host(), m.ask(), m.level()));
      int held = ledger.runningCount() + ledger.startingCount();
      boolean onExcluded = excluded.contains(m.grant().host());
      if (m.ask() == null || ending || onExcluded || held >= target) {
        // The exclusion is named first: it is why the node gets nothing, whatever else holds.
        String why = onExcluded ? "its node " + m.grant().host() + " is excluded"
            : m.ask() == null ? "it matches no pending request"
            : ending ? "the application is ending"
            : "the target of " + target + " is already met (" + held + " running or starting)";
        actions.add(new ReleaseContainer(m.grant().container(), null, why));
        continue;
      }
      HeldContainer c = ledger.startExecutor(m.grant().container(), m.grant().host(), nowMs, m.ask().sentAtMs());
      actions.add(new LaunchExecutor(c.executor(), c.container(), c.host()));
    }
    return new Plan(actions);
  }

  /** The NodeManager started the executor's process. */
  public void onLaunched(ContainerRef container) {
    ledger.markRunning(container);
  }

  /** Starting the container failed: release it, and count the failure against the node. */
  public Plan onLaunchFailed(ContainerRef container, String why, long nowMs, ClusterView cluster) {
    Optional<HeldContainer> c = ledger.markReleasing(container);
    if (c.isEmpty()) {
      return Plan.EMPTY;
    }
    List<Action> actions = new ArrayList<>();
    String message = "Could not start executor " + c.get().executor() + " in " + container + " on "
        + c.get().host() + ": " + why;
    actions.add(new ReleaseContainer(container, c.get().executor(), "its launch failed"));
    recordFailure(c.get().host(), message, nowMs, cluster, actions);
    startFailed(message, nowMs, actions);
    return new Plan(actions);
  }

  /** Judges completed containers; duplicate and unknown reports are ignored. */
  public Plan onCompleted(List<ContainerExit> exits, long nowMs, ClusterView cluster) {
    List<Action> actions = new ArrayList<>();
    for (ContainerExit exit : exits) {
      Optional<HeldContainer> done = ledger.complete(exit.container());
      if (done.isEmpty()) {
        continue;
      }
      HeldContainer c = done.get();
      boolean released = c.state() == State.RELEASING;
      ExitVerdict verdict = ExitClassifier.classify(c.container().id(), c.host(), exit.exitStatus(),
          exit.diagnostics(), released, ending);
      actions.add(new ContainerCompleted(c.container(), c.executor(), c.host(), exit.exitStatus(), released, verdict));
      if (verdict.countsAsFailure()) {
        recordFailure(verdict.blamesNode() ? c.host() : null, verdict.message(), nowMs, cluster, actions);
        if (!registered.contains(c.executor())) {
          startFailed(verdict.message(), nowMs, actions);
        }
      } else if (verdict.blamesNode()) {
        exclusions.avoid(c.host(), nowMs, cluster.clusterNodes()).ifPresent(w -> actions.add(new Warn(w)));
      }
      registered.remove(c.executor());
    }
    return new Plan(actions);
  }

  /**
   * After an AM restart: the containers the earlier attempt launched executors in and which the
   * ResourceManager kept for us. They count as running at once, so the target is not asked for
   * twice while their executors find the new AM; and they did start, so a later failure of one is
   * no failure to start. Executors launched from now on are numbered from {@code nextExecutorId}.
   */
  public void adopt(List<HeldContainer> survivors, int nextExecutorId) {
    ledger.numberExecutorsFrom(nextExecutorId);
    for (HeldContainer c : survivors) {
      ledger.adoptExecutor(c.container(), c.executor(), c.host(), c.grantedAtMs());
      registered.add(c.executor());
    }
  }

  /**
   * The container an executor we launched runs in, while it starts or runs: not once it is being
   * released (a registration from it then comes too late).
   */
  public Optional<HeldContainer> liveExecutor(ExecutorId id) {
    return ledger.executor(id).filter(c -> c.state() != HeldContainer.State.RELEASING);
  }

  /** The executor registered with the driver: starting executors works. */
  public void onRegistered(ExecutorId id) {
    registered.add(id);
    startFailures.started();
  }

  private void startFailed(String message, long nowMs, List<Action> out) {
    long hold = startFailures.failed(nowMs);
    out.add(new Warn(startFailures.streak() + " executor(s) in a row failed to start (last: " + message
        + "); no new container requests for " + hold + " ms"));
  }

  /** Whether new container requests are held back after executors failed to start. */
  public boolean holdingRequests(long nowMs) {
    return startFailures.holding(nowMs);
  }

  private void recordFailure(String blamedHost, String message, long nowMs, ClusterView cluster, List<Action> out) {
    failures.record(nowMs, message);
    if (blamedHost != null) {
      exclusions.recordFailure(blamedHost, nowMs, cluster.clusterNodes()).ifPresent(w -> out.add(new Warn(w)));
    }
    if (!failed) {
      failures.verdict(nowMs).ifPresent(d -> {
        failed = true;
        out.add(new FailApplication(d));
      });
    }
  }

  /**
   * Kills an executor by releasing its container. It stops counting at once; the target is not
   * changed (the policy sets it separately). Killing one twice, or an unknown one, does nothing.
   */
  public Plan killExecutor(ExecutorId id, String reason) {
    Optional<HeldContainer> c = ledger.executor(id).flatMap(h -> ledger.markReleasing(h.container()));
    if (c.isEmpty()) {
      return Plan.EMPTY;
    }
    return new Plan(List.of(new ReleaseContainer(c.get().container(), id, reason)));
  }

  /**
   * Kills an executor that misbehaved (it never registered, or stopped answering): like
   * {@link #killExecutor}, and the failure counts against the application and the node.
   */
  public Plan killFailedExecutor(ExecutorId id, String why, long nowMs, ClusterView cluster) {
    Optional<HeldContainer> c = ledger.executor(id).flatMap(h -> ledger.markReleasing(h.container()));
    if (c.isEmpty()) {
      return Plan.EMPTY;
    }
    List<Action> actions = new ArrayList<>();
    actions.add(new ReleaseContainer(c.get().container(), id, why));
    String message = "Executor " + id + " on " + c.get().host() + ": " + why;
    recordFailure(c.get().host(), message, nowMs, cluster, actions);
    if (!registered.contains(id)) {
      startFailed(message, nowMs, actions);
    }
    return new Plan(actions);
  }

  /** The application is ending: release every container, ask for nothing more. */
  public Plan releaseAll(String reason) {
    ending = true;
    List<Action> actions = new ArrayList<>();
    for (PendingAsk a : List.copyOf(ledger.pendingAsks())) {
      ledger.removeAsk(a.id());
      actions.add(new CancelAsk(a.id(), reason));
    }
    for (State s : List.of(State.STARTING, State.RUNNING)) {
      for (HeldContainer c : ledger.inState(s)) {
        ledger.markReleasing(c.container());
        actions.add(new ReleaseContainer(c.container(), c.executor(), reason));
      }
    }
    return new Plan(actions);
  }

  // ---- what the adapters and tests read --------------------------------------------------------

  public int target() {
    return target;
  }

  public LocalityHints hints() {
    return hints;
  }

  public int pendingAsks() {
    return ledger.pendingCount();
  }

  public int starting() {
    return ledger.startingCount();
  }

  public int running() {
    return ledger.runningCount();
  }

  /**
   * Executors the target lacks beyond those running, starting and asked for: the next reconcile
   * asks for them (an executor that died, a target that rose since the last heartbeat).
   */
  public int shortfall() {
    return Math.max(0, target - ledger.runningCount() - ledger.startingCount() - ledger.pendingCount());
  }

  /** Asks are pending, or the next reconcile makes some: what paces the AM's heartbeat. */
  public boolean wantsContainers() {
    return ledger.pendingCount() > 0 || shortfall() > 0;
  }

  public int failuresInWindow(long nowMs) {
    return failures.count(nowMs);
  }

  public Set<String> excludedNodes(long nowMs) {
    return exclusions.excluded(nowMs);
  }

  /** The ledger, read-only in spirit: adapters look up containers and executors in it. */
  public AllocationLedger ledger() {
    return ledger;
  }
}
