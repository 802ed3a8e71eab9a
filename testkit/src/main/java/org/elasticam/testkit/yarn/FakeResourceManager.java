package org.elasticam.testkit.yarn;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.apache.hadoop.yarn.api.ApplicationMasterProtocol;
import org.apache.hadoop.yarn.api.protocolrecords.AllocateRequest;
import org.apache.hadoop.yarn.api.protocolrecords.AllocateResponse;
import org.apache.hadoop.yarn.api.protocolrecords.FinishApplicationMasterRequest;
import org.apache.hadoop.yarn.api.protocolrecords.FinishApplicationMasterResponse;
import org.apache.hadoop.yarn.api.protocolrecords.RegisterApplicationMasterRequest;
import org.apache.hadoop.yarn.api.protocolrecords.RegisterApplicationMasterResponse;
import org.apache.hadoop.yarn.api.records.AMCommand;
import org.apache.hadoop.yarn.api.records.ApplicationAttemptId;
import org.apache.hadoop.yarn.api.records.ApplicationId;
import org.apache.hadoop.yarn.api.records.Container;
import org.apache.hadoop.yarn.api.records.ContainerExitStatus;
import org.apache.hadoop.yarn.api.records.ContainerId;
import org.apache.hadoop.yarn.api.records.ContainerState;
import org.apache.hadoop.yarn.api.records.ContainerStatus;
import org.apache.hadoop.yarn.api.records.FinalApplicationStatus;
import org.apache.hadoop.yarn.api.records.NodeId;
import org.apache.hadoop.yarn.api.records.Priority;
import org.apache.hadoop.yarn.api.records.Resource;
import org.apache.hadoop.yarn.api.records.ResourceRequest;
import org.apache.hadoop.yarn.exceptions.YarnException;

/**
 * A stateful stand-in for the ResourceManager's scheduling protocol, behind a real AMRMClientImpl
 * (see {@link FakeAmrmClient}). It keeps the RM's request table from the absolute counts the
 * client sends, honours exclusions (blacklist) and node capacity, decrements node, rack and
 * any-host entries on each grant as YARN's AppSchedulingInfo does, reports released containers as
 * ABORTED, and lets a test script grants, completions, preemptions and failures.
 *
 * <p>Deliberate differences from a real scheduler, all on the side of determinism: grants happen
 * only when a test asks ({@link #grant}) or at every allocate when {@link #autoSchedule} is on,
 * locality is perfect (node-local before rack-local before off-switch, no delay), node labels are
 * ignored. {@code ResourceManagerContractTest} runs the same assertions against this and, in the
 * integration tests, against a real ResourceManager.
 */
public final class FakeResourceManager implements ApplicationMasterProtocol, java.io.Closeable {

  /** One node of the fake cluster. */
  private org.apache.hadoop.yarn.api.records.PreemptionMessage nextPreemption;
  private final List<org.apache.hadoop.yarn.api.records.NodeReport> nodeUpdates = new ArrayList<>();
  private static final class Node {
    final String host;
    final String rack;
    final long capacityMb;
    long usedMb;

    Node(String host, String rack, long capacityMb) {
      this.host = host;
      this.rack = rack;
      this.capacityMb = capacityMb;
    }
  }

  private record Entry(int numContainers, boolean relax, Resource capability) {}

  private static final ApplicationAttemptId ATTEMPT =
      ApplicationAttemptId.newInstance(ApplicationId.newInstance(1_700_000_000_000L, 1), 1);

  private final Map<String, Node> nodes = new LinkedHashMap<>();
  /** priority → resource name → the latest absolute ask. */
  private final Map<Integer, Map<String, Entry>> table = new TreeMap<>();
  private final Set<String> blacklist = new HashSet<>();
  private final Map<ContainerId, Container> live = new HashMap<>();
  private final List<Container> toAllocate = new ArrayList<>();
  private final List<ContainerStatus> toComplete = new ArrayList<>();
  private long nextContainer = 1;
  private int responseId;
  private boolean autoSchedule;
  private YarnException failNextAllocate;
  private AMCommand nextCommand;
  private int allocateCalls;
  private FinalApplicationStatus finalStatus;
  private String finalDiagnostics;
  private boolean registered;

  public FakeResourceManager addNode(String host, String rack, long capacityMb) {
    nodes.put(host, new Node(host, rack, capacityMb));
    return this;
  }

  public FakeResourceManager autoSchedule(boolean on) {
    this.autoSchedule = on;
    return this;
  }

  // ---- the protocol ----------------------------------------------------------------------------

  @Override
  public synchronized RegisterApplicationMasterResponse registerApplicationMaster(
      RegisterApplicationMasterRequest request) {
    registered = true;
    return RegisterApplicationMasterResponse.newInstance(Resource.newInstance(128, 1),
        Resource.newInstance(64 * 1024, 32), Map.of(), null, List.of(), "default", List.of());
  }

  @Override
  public synchronized FinishApplicationMasterResponse finishApplicationMaster(FinishApplicationMasterRequest request) {
    finalStatus = request.getFinalApplicationStatus();
    finalDiagnostics = request.getDiagnostics();
    registered = false;
    return FinishApplicationMasterResponse.newInstance(true);
  }

  @Override
  public synchronized AllocateResponse allocate(AllocateRequest request) throws YarnException {
    allocateCalls++;
    if (failNextAllocate != null) {
      YarnException e = failNextAllocate;
      failNextAllocate = null;
      throw e;
    }
    for (ResourceRequest rr : request.getAskList()) {
      table.computeIfAbsent(rr.getPriority().getPriority(), p -> new HashMap<>())
          .put(rr.getResourceName(), new Entry(rr.getNumContainers(), rr.getRelaxLocality(), rr.getCapability()));
    }
    if (request.getResourceBlacklistRequest() != null) {
      blacklist.addAll(request.getResourceBlacklistRequest().getBlacklistAdditions());
      request.getResourceBlacklistRequest().getBlacklistRemovals().forEach(blacklist::remove);
    }
    for (ContainerId released : request.getReleaseList()) {
      finish(released, ContainerExitStatus.ABORTED, "Container released by application");
    }
    if (autoSchedule) {
      scheduleAll();
    }
    List<Container> allocated = new ArrayList<>(toAllocate);
    List<ContainerStatus> completed = new ArrayList<>(toComplete);
    toAllocate.clear();
    toComplete.clear();
    AMCommand command = nextCommand;
    nextCommand = null;
    List<org.apache.hadoop.yarn.api.records.NodeReport> updated = new ArrayList<>(nodeUpdates);
    nodeUpdates.clear();
    org.apache.hadoop.yarn.api.records.PreemptionMessage preemption = nextPreemption;
    nextPreemption = null;
    return AllocateResponse.newInstance(++responseId, completed, allocated, updated,
        Resource.newInstance(freeMb(), 1), command, nodes.size(), preemption, List.of());
  }

  // ---- scheduling --------------------------------------------------------------------------------

  /** Grants up to {@code count} containers on {@code host} to the outstanding asks that allow it. */
  public synchronized List<Container> grant(String host, int count) {
    List<Container> out = new ArrayList<>();
    Node node = requireNode(host);
    for (int i = 0; i < count; i++) {
      Container c = assignOne(node, Level.OFF_SWITCH);
      if (c == null) {
        break;
      }
      out.add(c);
    }
    return out;
  }

  /**
   * Grants a container no ask covers, as a real RM does when the AM's cancellation crosses an
   * allocation in flight.
   */
  public synchronized Container grantUnrequested(String host, Priority priority, Resource resource) {
    return newContainer(requireNode(host), priority, resource);
  }

  private enum Level { NODE_LOCAL, RACK_LOCAL, OFF_SWITCH }

  private void scheduleAll() {
    for (Level level : Level.values()) {
      for (Node n : nodes.values()) {
        while (assignOne(n, level) != null) {
          // keep assigning on this node at this locality level
        }
      }
    }
  }

  /** One container on {@code node} at locality no worse than {@code worst}, or null. */
  private Container assignOne(Node node, Level worst) {
    if (blacklist.contains(node.host)) {
      return null;
    }
    for (Map.Entry<Integer, Map<String, Entry>> byPriority : table.entrySet()) {
      Map<String, Entry> t = byPriority.getValue();
      Entry any = t.get(ResourceRequest.ANY);
      if (any == null || any.numContainers() <= 0 || node.usedMb + any.capability().getMemorySize() > node.capacityMb) {
        continue;
      }
      Level level = localityFor(t, node);
      if (level == null || level.ordinal() > worst.ordinal()) {
        continue;
      }
      // As YARN: node-local consumes node, rack and any; rack-local rack and any; off-switch any.
      if (level == Level.NODE_LOCAL) {
        decrement(t, node.host);
      }
      if (level != Level.OFF_SWITCH) {
        decrement(t, node.rack);
      }
      decrement(t, ResourceRequest.ANY);
      return newContainer(node, Priority.newInstance(byPriority.getKey()), any.capability());
    }
    return null;
  }

  private static Level localityFor(Map<String, Entry> t, Node node) {
    Entry onNode = t.get(node.host);
    if (onNode != null && onNode.numContainers() > 0) {
      return Level.NODE_LOCAL;
    }
    Entry onRack = t.get(node.rack);
    if (onRack != null && onRack.numContainers() > 0 && relaxedAt(t, node.rack)) {
      return Level.RACK_LOCAL;
    }
    return relaxedAt(t, ResourceRequest.ANY) && (onRack == null || onRack.relax() || onRack.numContainers() == 0)
        ? Level.OFF_SWITCH : null;
  }

  /** YARN's rule: a level is usable when its entry (if any) does not forbid relaxing to it. */
  private static boolean relaxedAt(Map<String, Entry> t, String name) {
    Entry e = t.get(name);
    return e == null || e.relax();
  }

  private static void decrement(Map<String, Entry> t, String name) {
    Entry e = t.get(name);
    if (e != null && e.numContainers() > 0) {
      t.put(name, new Entry(e.numContainers() - 1, e.relax(), e.capability()));
    }
  }

  private Container newContainer(Node node, Priority priority, Resource resource) {
    ContainerId id = ContainerId.newContainerId(ATTEMPT, nextContainer++);
    Container c = Container.newInstance(id, NodeId.newInstance(node.host, 8041), node.host + ":8042",
        resource, priority, null);
    node.usedMb += resource.getMemorySize();
    live.put(id, c);
    toAllocate.add(c);
    return c;
  }

  // ---- completions and faults -------------------------------------------------------------------

  /** The container's process exited with this status; the AM hears it at its next allocate. */
  public synchronized void complete(ContainerId id, int exitStatus, String diagnostics) {
    finish(id, exitStatus, diagnostics);
  }

  /** Reports a completion again, as a real RM may after a resync. */
  public synchronized void completeAgain(ContainerId id, int exitStatus) {
    toComplete.add(ContainerStatus.newInstance(id, ContainerState.COMPLETE, "", exitStatus));
  }

  public synchronized void preempt(ContainerId id) {
    finish(id, ContainerExitStatus.PREEMPTED, "Container preempted by scheduler");
  }

  private void finish(ContainerId id, int exitStatus, String diagnostics) {
    Container c = live.remove(id);
    if (c == null) {
      return;
    }
    nodes.get(c.getNodeId().getHost()).usedMb -= c.getResource().getMemorySize();
    toComplete.add(ContainerStatus.newInstance(id, ContainerState.COMPLETE, diagnostics, exitStatus));
  }

  /**
   * The next allocate response warns of preemption: these containers (strict contract), and
   * {@code more} containers of {@code mb} MiB wherever (negotiable contract).
   */
  public synchronized void preemptNext(List<ContainerId> strict, int more, int mb) {
    var p = org.apache.hadoop.yarn.util.Records.newRecord(org.apache.hadoop.yarn.api.records.PreemptionMessage.class);
    var s = org.apache.hadoop.yarn.util.Records.newRecord(
        org.apache.hadoop.yarn.api.records.StrictPreemptionContract.class);
    s.setContainers(strict.stream().map(org.apache.hadoop.yarn.api.records.PreemptionContainer::newInstance)
        .collect(java.util.stream.Collectors.toSet()));
    p.setStrictContract(s);
    if (more > 0) {
      ResourceRequest rr = ResourceRequest.newInstance(Priority.newInstance(0), ResourceRequest.ANY,
          Resource.newInstance(mb, 1), more);
      p.setContract(org.apache.hadoop.yarn.api.records.PreemptionContract.newInstance(
          List.of(org.apache.hadoop.yarn.api.records.PreemptionResourceRequest.newInstance(rr)), java.util.Set.of()));
    }
    nextPreemption = p;
  }

  /** The node changes state; the next allocate response reports it, as the RM's updated nodes. */
  public synchronized void nodeState(String host, org.apache.hadoop.yarn.api.records.NodeState state) {
    nodeUpdates.add(org.apache.hadoop.yarn.api.records.NodeReport.newInstance(
        org.apache.hadoop.yarn.api.records.NodeId.newInstance(host, 8041), state, host + ":8042", "/rack1",
        Resource.newInstance(0, 0), Resource.newInstance(8192, 8), 0, "", 0L));
  }

  public synchronized void failNextAllocate(YarnException e) {
    this.failNextAllocate = e;
  }

  public synchronized void commandOnNextAllocate(AMCommand command) {
    this.nextCommand = command;
  }

  /** AMRMClientImpl closes its protocol proxy on stop; the fake has nothing to close. */
  @Override
  public void close() {}

  // ---- what tests read ------------------------------------------------------------------------

  /** The RM's count of outstanding containers at a priority and resource name (host, rack, "*"). */
  public synchronized int outstanding(int priority, String resourceName) {
    Entry e = table.getOrDefault(priority, Map.of()).get(resourceName);
    return e == null ? 0 : e.numContainers();
  }

  /** Outstanding any-host containers over all priorities: what the RM still owes the AM. */
  public synchronized int outstandingTotal() {
    int n = 0;
    for (Map<String, Entry> t : table.values()) {
      Entry any = t.get(ResourceRequest.ANY);
      n += any == null ? 0 : any.numContainers();
    }
    return n;
  }

  public synchronized Set<String> blacklist() {
    return Set.copyOf(blacklist);
  }

  public synchronized List<Container> liveContainers() {
    return List.copyOf(live.values());
  }

  public synchronized int allocateCalls() {
    return allocateCalls;
  }

  public synchronized boolean registered() {
    return registered;
  }

  public synchronized FinalApplicationStatus finalStatus() {
    return finalStatus;
  }

  public synchronized String finalDiagnostics() {
    return finalDiagnostics;
  }

  public synchronized List<String> hosts() {
    return List.copyOf(nodes.keySet());
  }

  private Node requireNode(String host) {
    Node n = nodes.get(host);
    if (n == null) {
      throw new IllegalArgumentException("no node " + host + " in the fake cluster " + nodes.keySet());
    }
    return n;
  }

  private long freeMb() {
    long free = 0;
    for (Node n : nodes.values()) {
      free += n.capacityMb - n.usedMb;
    }
    return free;
  }
}
