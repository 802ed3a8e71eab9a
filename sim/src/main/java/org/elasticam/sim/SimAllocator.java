package org.elasticam.sim;

import static org.elasticam.report.events.EventFields.CONTAINER_ID;
import static org.elasticam.report.events.EventFields.COUNT;
import static org.elasticam.report.events.EventFields.COUNTED_AS_FAILURE;
import static org.elasticam.report.events.EventFields.EXECUTOR_ID;
import static org.elasticam.report.events.EventFields.EXIT_STATUS;
import static org.elasticam.report.events.EventFields.EXIT_STATUS_NAME;
import static org.elasticam.report.events.EventFields.HOST;
import static org.elasticam.report.events.EventFields.MATCHED;
import static org.elasticam.report.events.EventFields.MESSAGE;
import static org.elasticam.report.events.EventFields.NODES;
import static org.elasticam.report.events.EventFields.RACKS;
import static org.elasticam.report.events.EventFields.REASON;
import static org.elasticam.report.events.EventFields.UNTIL_TS;

import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.elasticam.allocator.ClusterView;
import org.elasticam.allocator.ExecutorAllocator;
import org.elasticam.allocator.exit.ExitStatus;
import org.elasticam.allocator.model.ContainerRef;
import org.elasticam.allocator.model.ExecutorId;
import org.elasticam.allocator.model.LocalityHints;
import org.elasticam.allocator.plan.Action;
import org.elasticam.allocator.plan.Action.AddAsk;
import org.elasticam.allocator.plan.Action.CancelAsk;
import org.elasticam.allocator.plan.Plan;
import org.elasticam.allocator.plan.PlanTarget;
import org.elasticam.report.events.Event;

/**
 * The simulator's YarnAllocator: it applies the real {@link ExecutorAllocator}'s plans to the
 * simulated ResourceManager and executors exactly where the AM's adapter applies them to
 * AMRMClient and the launcher, and writes the same events. It decides nothing.
 */
final class SimAllocator {

  /** Where executors start and stop; the simulated NodeManagers. */
  interface Launcher {
    /** @param askedAtMs when the request this container satisfied was sent, for the start latency */
    void launch(ExecutorId executor, ContainerRef container, String host, long askedAtMs);

    /** We released the container: the executor in it, started or still starting, stops. */
    void stopped(ContainerRef container, ExecutorId executor);

    /** The container ended on its own: the executor in it, started or still starting, is gone. */
    void exited(ContainerRef container, ExecutorId executor);
  }

  private final ExecutorAllocator core;
  private final SimResourceManager rm;
  private final ClusterView cluster;
  private final EventQueue time;
  private final EventLogSink log;
  private final RunMetrics metrics;
  private final Map<ContainerRef, Long> askedAt = new HashMap<>();
  private final Map<String, String> releaseReasons = new HashMap<>();
  private Launcher launcher;
  private boolean ending;
  private Optional<String> failure = Optional.empty();

  SimAllocator(ExecutorAllocator core, SimResourceManager rm, List<String> hosts, EventQueue time,
      EventLogSink log, RunMetrics metrics) {
    this.core = core;
    this.rm = rm;
    Map<String, String> racks = new HashMap<>();
    hosts.forEach(h -> racks.put(h, SimParams.RACK));
    this.cluster = new ClusterView(hosts, racks, hosts.size());
    this.time = time;
    this.log = log;
    this.metrics = metrics;
  }

  void attach(Launcher l) {
    this.launcher = l;
  }

  /** @return whether the target changed: the heartbeat then comes at once */
  boolean requestTotalExecutors(int target, LocalityHints hints, Set<String> excludedNodes) {
    return core.requestTotalExecutors(target, hints, excludedNodes);
  }

  /** As YarnAllocator's: an executor that misbehaved; the failure counts against the application. */
  void killFailedExecutor(ExecutorId id, String why) {
    apply(core.killFailedExecutor(id, why, time.now(), cluster));
  }

  /** The executor registered with the driver. */
  void registered(ExecutorId id) {
    core.onRegistered(id);
  }

  /** The container and host of an executor we launched, while it starts or runs, and when it was asked for. */
  Optional<org.elasticam.allocator.ledger.HeldContainer> liveExecutor(ExecutorId id) {
    return core.liveExecutor(id);
  }

  /** @return whether the executor was running or starting, and is now being released */
  boolean killExecutor(ExecutorId id, String reason) {
    Plan plan = core.killExecutor(id, reason);
    apply(plan);
    return !plan.isEmpty();
  }

  /** The application ends: withdraw every request and release every container. */
  void releaseAll(String reason) {
    ending = true;
    apply(core.releaseAll(reason));
  }

  /** The executor's process started; the core counts it running from now. */
  private long cycleNanos;
  private long cycles;

  void launched(ContainerRef container) {
    core.onLaunched(container);
  }

  /** One heartbeat, as YarnAllocator.allocateResources: reconcile, allocate, grants, completions. */
  void heartbeat() {
    long now = time.now();
    long started = System.nanoTime();
    Plan reconciled = core.reconcile(now, cluster);
    cycleNanos += System.nanoTime() - started;
    cycles++;
    apply(reconciled);
    SimResourceManager.Response r = rm.allocate(now);
    if (!r.grants().isEmpty()) {
      started = System.nanoTime();
      Plan matched = core.onGrants(r.grants(), now);
      cycleNanos += System.nanoTime() - started;
      apply(matched);
    }
    if (!r.completed().isEmpty()) {
      apply(core.onCompleted(r.completed(), now, cluster));
    }
    checkRequestsMatch();
  }

  /**
   * Wall-clock time the allocation core spent deciding (reconcile, and matching grants) over all
   * heartbeats, for the scale benchmark; no decision reads it.
   */
  long cycleNanos() {
    return cycleNanos;
  }

  long cycles() {
    return cycles;
  }

  /**
   * The ResourceManager's table must hold exactly the asks the core counts pending, as the AM checks
   * against AMRMClient's table; a difference means a plan was applied wrongly, and every figure
   * after it would be wrong too.
   */
  private void checkRequestsMatch() {
    if (rm.outstandingRequests() != core.pendingAsks()) {
      throw new SimulationException("the simulated ResourceManager holds " + rm.outstandingRequests()
          + " request(s) but the allocator counts " + core.pendingAsks() + " pending ask(s)");
    }
  }

  /** As the AM's heartbeat decides its pace: asks are pending, or the next heartbeat makes some. */
  boolean wantsContainers() {
    return core.wantsContainers();
  }

  int target() {
    return core.target();
  }

  /** The diagnostic of a FailApplication the core issued, if it did. */
  Optional<String> failure() {
    return failure;
  }

  // ---- applying plans ---------------------------------------------------------------------------

  private void apply(Plan plan) {
    PlanTarget.apply(plan, onSimulatedRm);
  }

  /** Each action of a plan, done to the simulated ResourceManager and logged as the AM logs it. */
  private final PlanTarget onSimulatedRm = new PlanTarget() {
    @Override
    public void addAsk(AddAsk add) {
      rm.request(add.ask(), add.locality().hosts(), add.origin().localityFree(), time.now());
    }

    @Override
    public void cancelAsk(CancelAsk cancel) {
      rm.withdraw(cancel.ask());
    }

    @Override
    public void grantMatched(Action.GrantMatched m) {
      if (m.ask() != null) {
        rm.withdraw(m.ask().id());
        askedAt.put(m.container(), m.ask().sentAtMs());
      }
      metrics.allocated(m.container(), time.now());
      log.write(Event.CONTAINER_ALLOCATED, CONTAINER_ID, m.container().id(), HOST, m.host(), MATCHED,
          m.ask() == null ? "unneeded" : m.level().name().toLowerCase(Locale.ROOT));
    }

    @Override
    public void launch(Action.LaunchExecutor l) {
      log.write(Event.EXECUTOR_LAUNCHED, EXECUTOR_ID, l.executor().toString(), CONTAINER_ID, l.container().id(),
          HOST, l.host());
      metrics.executorLaunched();
      Long asked = askedAt.remove(l.container());
      launcher.launch(l.executor(), l.container(), l.host(), asked == null ? time.now() : asked);
    }

    @Override
    public void release(Action.ReleaseContainer r) {
      SimAllocator.this.release(r);
    }

    @Override
    public void updateExclusions(Action.UpdateExclusions u) {
      u.excludedUntilMs().forEach((host, until) -> log.write(Event.NODE_EXCLUDED, HOST, host, UNTIL_TS,
          EventLogSink.EPOCH_BASE_MS + until));
    }

    @Override
    public void containerCompleted(Action.ContainerCompleted c) {
      completed(c);
    }

    @Override
    public void failApplication(Action.FailApplication f) {
      failure = failure.or(() -> Optional.of(f.diagnostics()));
    }

    @Override
    public void warn(Action.Warn w) {
      // The AM only logs it, and nothing in a simulation fails.
    }

    @Override
    public void requestsChanged(Map<List<String>, List<AddAsk>> added, List<CancelAsk> cancelled) {
      reportRequests(added, cancelled);
    }
  };

  private void reportRequests(Map<List<String>, List<AddAsk>> added, List<CancelAsk> cancelled) {
    added.forEach((hosts, asks) -> {
      List<String> racks = asks.get(0).locality().racks();
      log.write(Event.CONTAINERS_REQUESTED, COUNT, asks.size(), NODES, hosts.isEmpty() ? null : hosts,
          RACKS, racks.isEmpty() ? null : racks);
      metrics.requestsAdded(asks.size());
    });
    if (!cancelled.isEmpty()) {
      log.write(Event.REQUESTS_CANCELLED, COUNT, cancelled.size(), REASON, cancelled.get(0).reason());
      metrics.requestsCancelled(cancelled.size());
    }
  }

  private void release(Action.ReleaseContainer r) {
    rm.release(r.container());
    metrics.ended(r.container(), time.now());
    releaseReasons.putIfAbsent(r.container().id(), r.reason());
    log.write(Event.CONTAINER_RELEASED, CONTAINER_ID, r.container().id(), REASON, r.reason());
    if (r.executor() != null) {
      metrics.executorStopped();
      launcher.stopped(r.container(), r.executor());
    }
  }

  private void completed(Action.ContainerCompleted c) {
    metrics.ended(c.container(), time.now());
    String releasedFor = releaseReasons.remove(c.container().id());
    log.write(Event.EXECUTOR_REMOVED, EXECUTOR_ID, c.executor() == null ? null : c.executor().toString(),
        CONTAINER_ID, c.container().id(), HOST, c.host(), REASON, removalReason(c, releasedFor),
        EXIT_STATUS, c.exitStatus(), EXIT_STATUS_NAME, ExitStatus.name(c.exitStatus()),
        COUNTED_AS_FAILURE, c.verdict().countsAsFailure(), MESSAGE, c.verdict().message());
    if (releasedFor == null && c.executor() != null) {
      // Not released by us: the executor died with its container.
      metrics.executorStopped();
      launcher.exited(c.container(), c.executor());
    }
  }

  /** The event log's removal reason, as the AM's AmEvents names it, with idle kills told apart. */
  private String removalReason(Action.ContainerCompleted c, String releasedFor) {
    if (ending || "app_end".equals(c.verdict().kind())) {
      return "app_end";
    }
    if (releasedFor != null) {
      // As the AM's AmEvents names a release the driver chose.
      return releasedFor.startsWith("idle") ? "idle" : "policy";
    }
    return c.verdict().countsAsFailure() ? "failed" : "lost";
  }
}
