package org.elasticam.am.yarn;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.Executor;
import org.apache.hadoop.yarn.api.protocolrecords.AllocateResponse;
import org.apache.hadoop.yarn.api.records.Container;
import org.apache.hadoop.yarn.api.records.ContainerId;
import org.apache.hadoop.yarn.api.records.ContainerStatus;
import org.apache.hadoop.yarn.api.records.Resource;
import org.apache.hadoop.yarn.client.api.AMRMClient;
import org.apache.hadoop.yarn.client.api.AMRMClient.ContainerRequest;
import org.apache.hadoop.yarn.exceptions.YarnException;
import org.elasticam.allocator.ClusterView;
import org.elasticam.allocator.ExecutorAllocator;
import org.elasticam.allocator.model.ContainerExit;
import org.elasticam.allocator.model.ContainerRef;
import org.elasticam.allocator.model.ExecutorId;
import org.elasticam.allocator.model.Grant;
import org.elasticam.allocator.model.LocalityHints;
import org.elasticam.allocator.plan.Action;
import org.elasticam.allocator.plan.Action.AddAsk;
import org.elasticam.allocator.plan.Action.CancelAsk;
import org.elasticam.allocator.plan.Plan;
import org.elasticam.allocator.plan.PlanTarget;
import org.elasticam.launcher.ExecutorLauncher;
import org.elasticam.time.Clock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The thin stateful adapter between the allocator core and YARN: it turns AMRMClient responses
 * into the core's records, and the core's plans into AMRMClient and launcher calls. It keeps only
 * what YARN's types require — the ContainerRequest behind each ask ({@link ContainerRequests}), the
 * Container behind each grant — and decides nothing.
 *
 * <p>Threading: every method runs on the AM's event-loop thread; launcher callbacks are posted
 * back onto it through the {@code loop} executor.
 */
public final class YarnAllocator {

  private static final Logger LOG = LoggerFactory.getLogger(YarnAllocator.class);

  private final AMRMClient<ContainerRequest> amClient;
  private final ExecutorLauncher launcher;
  private final Executor loop;
  private final ExecutorAllocator core;
  private final ContainerRequests requests;
  private final ResourceManagerNotices notices;
  private final RackLookup racks;
  private final NodeDirectory nodes;
  private final AllocationEvents events;
  private final Clock clock;

  private final Map<ContainerRef, Container> containers = new HashMap<>();
  private final Map<ContainerRef, Map<String, ByteBuffer>> serviceMetadata = new HashMap<>();
  private Optional<String> failure = Optional.empty();
  private ContainerJournal journal = ContainerJournal.NONE;

  public YarnAllocator(AMRMClient<ContainerRequest> amClient, ExecutorLauncher launcher, Executor loop,
      ExecutorAllocator core, Resource executorResource, Optional<String> nodeLabel, RackLookup racks,
      NodeDirectory nodes, AllocationEvents events, Clock clock) {
    this.amClient = amClient;
    this.launcher = launcher;
    this.loop = loop;
    this.core = core;
    this.requests = new ContainerRequests(amClient, executorResource, nodeLabel, events);
    this.notices = new ResourceManagerNotices(events);
    this.racks = racks;
    this.nodes = nodes;
    this.events = events;
    this.clock = clock;
  }

  /** From now on, executors are launched only once {@code j} has recorded their containers. */
  public void recordTo(ContainerJournal j) {
    this.journal = j;
  }

  /**
   * After an AM restart: adopts the containers the ResourceManager kept from earlier attempts
   * whose executors the journal names; releases the others (none, unless the journal was lost).
   *
   * @param known the journal's executors by container id
   * @return the adopted containers
   */
  public List<org.elasticam.allocator.ledger.HeldContainer> adopt(List<Container> previous,
      Map<String, org.elasticam.allocator.ledger.HeldContainer> known, int nextExecutorId) {
    List<org.elasticam.allocator.ledger.HeldContainer> adopted = new ArrayList<>();
    for (Container c : previous) {
      ContainerRef ref = new ContainerRef(c.getId().toString());
      org.elasticam.allocator.ledger.HeldContainer h = known.get(ref.id());
      if (h == null) {
        LOG.warn("Releasing {} on {}, kept from an earlier attempt: its journal does not say which executor runs"
            + " there", ref, c.getNodeId().getHost());
        amClient.releaseAssignedContainer(c.getId());
        events.containerReleased(ref.id(), "kept from an earlier AM attempt, but not in its journal");
        continue;
      }
      containers.put(ref, c);
      adopted.add(h);
    }
    core.adopt(adopted, nextExecutorId);
    return adopted;
  }

  // ---- inputs from the driver ------------------------------------------------------------------

  /**
   * The driver's desired total, with where its pending tasks would like to run and the nodes its
   * scheduler excluded. Applied at the next heartbeat.
   *
   * @return whether the target changed: the AM then heartbeats at once
   */
  public boolean requestTotalExecutors(int target, int localityAwareTasks, Map<String, Integer> hostToLocalTaskCount,
      Set<String> excludedNodes) {
    int previous = core.target();
    boolean changed = core.requestTotalExecutors(target, new LocalityHints(localityAwareTasks, hostToLocalTaskCount),
        excludedNodes);
    if (changed) {
      LOG.info("Executor target {} -> {} ({} locality-aware tasks over {} hosts)", previous, target,
          localityAwareTasks, hostToLocalTaskCount.size());
    }
    return changed;
  }

  /** Kills an executor by releasing its container; the target is unchanged. */
  public void killExecutor(ExecutorId id, String reason) {
    Plan plan = core.killExecutor(id, reason);
    if (plan.isEmpty()) {
      LOG.warn("Asked to kill executor {}, which is not running (unknown or already released)", id);
    }
    apply(plan);
  }

  /** The executor registered with the driver: executors start, so requests are not held back. */
  public void executorRegistered(ExecutorId id) {
    core.onRegistered(id);
  }

  /** Kills an executor that misbehaved; the failure counts against the application and its node. */
  public void killFailedExecutor(ExecutorId id, String why) {
    Plan plan = core.killFailedExecutor(id, why, clock.nowMs(), clusterView(Set.of()));
    for (Action a : plan.actions()) {
      if (a instanceof Action.ReleaseContainer r) {
        events.failedExecutorKilled(r.container().id());
      }
    }
    apply(plan);
  }

  /** The application is ending: withdraw every request and release every container. */
  public void releaseAll(String reason) {
    apply(core.releaseAll(reason));
  }

  // ---- the heartbeat ---------------------------------------------------------------------------

  /** Runs one heartbeat on the calling thread: reconcile, allocate, handle the response. */
  public void allocateResources(float progress) throws IOException, YarnException {
    prepareHeartbeat();
    handleResponse(amClient.allocate(progress));
  }

  /** Brings the client's request table and exclusions in line with the target, before allocate. */
  public void prepareHeartbeat() {
    apply(core.reconcile(clock.nowMs(), clusterView(core.hints().hostToLocalTaskCount().keySet())));
    requests.checkMatches(core.pendingAsks());
  }

  /**
   * Applies what one allocate call returned: node changes, grants, preemption, then completions. The
   * grants come before the preemption warning because it may name a container granted in the same
   * response: known by then, it is named as ours and given back, not left for the RM to kill.
   */
  public void handleResponse(AllocateResponse response) {
    notices.nodesUpdated(response.getUpdatedNodes());
    List<Container> allocated = response.getAllocatedContainers();
    if (!allocated.isEmpty()) {
      handleAllocated(allocated);
    }
    if (response.getPreemptionMessage() != null) {
      notices.preemption(response.getPreemptionMessage(), this::executorIn);
    }
    List<ContainerStatus> completed = response.getCompletedContainersStatuses();
    if (!completed.isEmpty()) {
      handleCompleted(completed);
    }
  }

  private Optional<String> executorIn(org.apache.hadoop.yarn.api.records.ContainerId id) {
    return core.ledger().container(new ContainerRef(id.toString())).map(h -> h.executor().toString());
  }

  private void handleAllocated(List<Container> allocated) {
    List<Grant> grants = new ArrayList<>(allocated.size());
    for (Container c : allocated) {
      ContainerRef ref = new ContainerRef(c.getId().toString());
      containers.put(ref, c);
      String host = c.getNodeId().getHost();
      grants.add(new Grant(ref, host, racks.rackOf(host), ContainerRequests.localityFree(c.getPriority())));
    }
    Plan plan = core.onGrants(grants, clock.nowMs());
    LOG.info("Received {} container(s) from YARN, launching executors in {} of them", grants.size(),
        plan.all(Action.LaunchExecutor.class).size());
    apply(plan);
  }

  private void handleCompleted(List<ContainerStatus> completed) {
    List<ContainerExit> exits = new ArrayList<>(completed.size());
    for (ContainerStatus s : completed) {
      exits.add(new ContainerExit(new ContainerRef(s.getContainerId().toString()), s.getExitStatus(),
          s.getDiagnostics()));
    }
    apply(core.onCompleted(exits, clock.nowMs(), clusterView(Set.of())));
  }

  private ClusterView clusterView(Collection<String> hintedHosts) {
    List<String> live = nodes.liveHosts();
    Map<String, String> rackOf = new HashMap<>();
    for (Collection<String> hosts : List.of(hintedHosts, live)) {
      for (String h : hosts) {
        String rack = racks.rackOf(h);
        if (rack != null) {
          rackOf.put(h, rack);
        }
      }
    }
    return new ClusterView(live, rackOf, amClient.getClusterNodeCount());
  }

  // ---- applying plans --------------------------------------------------------------------------

  private void apply(Plan plan) {
    List<org.elasticam.allocator.ledger.HeldContainer> launches = new ArrayList<>();
    for (Action.LaunchExecutor l : plan.all(Action.LaunchExecutor.class)) {
      core.ledger().container(l.container()).ifPresent(launches::add);
    }
    if (!launches.isEmpty()) {
      journal.launching(launches, core.ledger().nextExecutorId());
    }
    PlanTarget.apply(plan, onYarn);
  }

  /** Each action of a plan, done to AMRMClient and reported. */
  private final PlanTarget onYarn = new PlanTarget() {
    @Override
    public void addAsk(AddAsk add) {
      requests.add(add);
    }

    @Override
    public void cancelAsk(CancelAsk cancel) {
      requests.remove(cancel.ask());
    }

    @Override
    public void grantMatched(Action.GrantMatched m) {
      if (m.ask() != null) {
        requests.remove(m.ask().id());
      }
      events.containerAllocated(m.container().id(), m.host(),
          m.ask() == null ? "unneeded" : m.level().name().toLowerCase(java.util.Locale.ROOT));
    }

    @Override
    public void launch(Action.LaunchExecutor l) {
      YarnAllocator.this.launch(l);
    }

    @Override
    public void release(Action.ReleaseContainer r) {
      YarnAllocator.this.release(r);
    }

    @Override
    public void updateExclusions(Action.UpdateExclusions u) {
      LOG.info("Excluding nodes {} and re-admitting {}{}", u.additions(), u.removals(),
          u.excludedUntilMs().isEmpty() ? "" : " (ours expire at " + u.excludedUntilMs() + ")");
      // AMRMClientImpl edits the lists it is given: hand it copies.
      amClient.updateBlacklist(new ArrayList<>(u.additions()), new ArrayList<>(u.removals()));
      if (!u.excludedUntilMs().isEmpty()) {
        events.nodesExcluded(u.excludedUntilMs());
      }
    }

    @Override
    public void containerCompleted(Action.ContainerCompleted c) {
      completed(c);
    }

    @Override
    public void failApplication(Action.FailApplication f) {
      LOG.error("Failing the application: {}", f.diagnostics());
      failure = Optional.of(f.diagnostics());
      events.applicationFailed(f.diagnostics());
    }

    @Override
    public void warn(Action.Warn w) {
      LOG.warn(w.message());
      events.warning(w.message());
    }

    @Override
    public void requestsChanged(Map<List<String>, List<AddAsk>> added, List<CancelAsk> cancelled) {
      requests.report(added, cancelled);
    }
  };

  private void launch(Action.LaunchExecutor l) {
    Container c = containers.get(l.container());
    LOG.info("Launching executor {} in {} on {}", l.executor(), l.container(), l.host());
    events.executorLaunched(l.executor(), l.container().id(), l.host());
    launcher.launch(l.executor(), c, new ExecutorLauncher.Callback() {
      @Override
      public void started(Container container, Map<String, ByteBuffer> metadata) {
        loop.execute(() -> onStarted(l.container(), metadata));
      }

      @Override
      public void failed(Container container, Throwable cause) {
        loop.execute(() -> onLaunchFailed(l, cause));
      }
    });
  }

  private void onStarted(ContainerRef container, Map<String, ByteBuffer> metadata) {
    core.onLaunched(container);
    if (!metadata.isEmpty()) {
      serviceMetadata.put(container, metadata);
    }
  }

  private void onLaunchFailed(Action.LaunchExecutor l, Throwable cause) {
    String why = cause.getMessage() == null ? cause.getClass().getSimpleName() : cause.getMessage();
    LOG.warn("Failed to launch executor {} in {} on {}: {}", l.executor(), l.container(), l.host(), why);
    events.executorLaunchFailed(l.executor(), l.container().id(), l.host(), why);
    apply(core.onLaunchFailed(l.container(), why, clock.nowMs(), clusterView(Set.of())));
  }

  private void release(Action.ReleaseContainer r) {
    Container c = containers.get(r.container());
    ContainerId id = c != null ? c.getId() : ContainerId.fromString(r.container().id());
    LOG.info("Releasing container {}{}: {}", r.container(), r.executor() == null ? "" : " (executor " + r.executor() + ")",
        r.reason());
    amClient.releaseAssignedContainer(id);
    events.containerReleased(r.container().id(), r.reason());
    if (r.executor() == null) {
      containers.remove(r.container());
    }
  }

  private void completed(Action.ContainerCompleted c) {
    journal.completed(c.container().id());
    containers.remove(c.container());
    serviceMetadata.remove(c.container());
    if (c.verdict().countsAsFailure()) {
      LOG.warn("Executor {} exited: {}", c.executor(), c.verdict().message());
    } else {
      LOG.info("Executor {} exited: {}", c.executor(), c.verdict().message());
    }
    events.containerCompleted(c);
  }

  /** Requests in AMRMClient's table, over both priorities. */
  public int clientPendingCount() {
    return requests.clientPendingCount();
  }

  // ---- state, for the AM and tests -------------------------------------------------------------

  public int target() {
    return core.target();
  }

  public int pendingAsks() {
    return core.pendingAsks();
  }

  /** Containers are asked for, or the next heartbeat will ask for some: keep heartbeating fast. */
  public boolean wantsContainers() {
    return core.wantsContainers();
  }

  public int running() {
    return core.running();
  }

  public int starting() {
    return core.starting();
  }

  /** The containers we still hold or wait to see completed, in no particular order. */
  public List<org.elasticam.allocator.ledger.HeldContainer> heldContainers() {
    List<org.elasticam.allocator.ledger.HeldContainer> out = new ArrayList<>();
    for (org.elasticam.allocator.ledger.HeldContainer.State s : org.elasticam.allocator.ledger.HeldContainer.State
        .values()) {
      out.addAll(core.ledger().inState(s));
    }
    return out;
  }

  /** Containers we still hold or wait to see completed. */
  public int containersHeld() {
    return core.running() + core.starting() + core.ledger().releasingCount();
  }

  /** Set once too many executors failed: the AM unregisters FAILED with this. */
  public Optional<String> failure() {
    return failure;
  }

  /** What the NodeManager's aux services published when this executor's container started. */
  public Map<String, ByteBuffer> serviceMetadata(ContainerRef container) {
    return serviceMetadata.getOrDefault(container, Map.of());
  }

  public ExecutorAllocator core() {
    return core;
  }
}
