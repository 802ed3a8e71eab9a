package org.elasticam.am.yarn;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.apache.hadoop.yarn.api.records.Container;
import org.apache.hadoop.yarn.api.records.ContainerExitStatus;
import org.apache.hadoop.yarn.api.records.Resource;
import org.apache.hadoop.yarn.client.api.AMRMClient;
import org.apache.hadoop.yarn.client.api.AMRMClient.ContainerRequest;
import org.elasticam.allocator.AllocatorSettings;
import org.elasticam.allocator.ExecutorAllocator;
import org.elasticam.allocator.model.ExecutorId;
import org.elasticam.allocator.plan.Action.ContainerCompleted;
import org.elasticam.conf.ElasticConf;
import org.elasticam.time.ManualClock;
import org.elasticam.testkit.yarn.FakeAmrmClient;
import org.elasticam.testkit.yarn.FakeLauncher;
import org.elasticam.testkit.yarn.FakeResourceManager;
import org.elasticam.testkit.yarn.ResourceManagerContract;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * YarnAllocator against a stateful fake ResourceManager behind the real AMRMClientImpl: the
 * scenarios Spark's YarnAllocatorSuite checks, plus ours. Assertions are on results — running
 * executors, the client's and the RM's request tables, exclusions — not on call sequences.
 */
class YarnAllocatorTest {

  private static final Resource RESOURCE = Resource.newInstance(1408, 1);

  private final ManualClock clock = new ManualClock(0);
  private final FakeResourceManager rm = new FakeResourceManager();
  private final FakeLauncher launcher = new FakeLauncher();
  private final List<ContainerCompleted> completions = new ArrayList<>();
  private final List<String> nodeChanges = new ArrayList<>();
  private final List<String> preemptions = new ArrayList<>();
  private final List<String> failures = new ArrayList<>();
  private AMRMClient<ContainerRequest> client;
  private YarnAllocator allocator;

  YarnAllocatorTest() {
    for (int i = 0; i <= 10; i++) {
      rm.addNode("host" + i, i == 3 ? "/rack2" : "/rack1", 64 * 1024);
    }
    allocator = create(Map.of());
  }

  private YarnAllocator create(Map<String, String> overrides) {
    Map<String, String> conf = new HashMap<>(Map.of("elasticam.yarn.placement", "pack"));
    conf.putAll(overrides);
    ExecutorAllocator core = new ExecutorAllocator(AllocatorSettings.from(ElasticConf.of(conf).validated()));
    client = FakeAmrmClient.connectedTo(rm);
    AllocationEvents events = new AllocationEvents() {
      @Override
      public void containerCompleted(ContainerCompleted c) {
        completions.add(c);
      }

      @Override
      public void applicationFailed(String diagnostics) {
        failures.add(diagnostics);
      }

      @Override
      public void nodeUnusable(String host, String state) {
        nodeChanges.add(host + " " + state);
      }

      @Override
      public void nodeDecommissioning(String host, Integer timeoutSeconds) {
        nodeChanges.add(host + " DECOMMISSIONING");
      }

      @Override
      public void nodeRecommissioned(String host) {
        nodeChanges.add(host + " RECOMMISSIONED");
      }

      @Override
      public void preemptionRequested(List<String> named, int more) {
        preemptions.add(named + " +" + more);
      }
    };
    return new YarnAllocator(client, launcher, Runnable::run, core, RESOURCE, Optional.empty(),
        host -> host.equals("host3") ? "/rack2" : "/rack1", rm::hosts, events, clock);
  }

  @AfterEach
  void stop() {
    client.stop();
  }

  private void target(int n, String... excluded) {
    allocator.requestTotalExecutors(n, 0, Map.of(), Set.of(excluded));
    heartbeat();
  }

  private void heartbeat() {
    try {
      allocator.allocateResources(0.1f);
    } catch (Exception e) {
      throw new AssertionError(e);
    }
  }

  /** The RM grants one container on each host; the allocator hears of them at the next heartbeat. */
  private List<Container> grant(String... hosts) {
    List<Container> out = new ArrayList<>();
    for (String h : hosts) {
      out.addAll(rm.grant(h, 1));
    }
    heartbeat();
    return out;
  }

  /** The executors running now register with the driver: their exits are no failed starts. */
  private void registerRunning() {
    allocator.core().ledger().inState(org.elasticam.allocator.ledger.HeldContainer.State.RUNNING)
        .forEach(h -> allocator.executorRegistered(h.executor()));
  }

  private void assertPending(int expected) {
    assertEquals(expected, allocator.pendingAsks(), "ledger");
    assertEquals(expected, allocator.clientPendingCount(), "AMRMClient's table");
  }

  @Test
  void asksUnderThePrioritiesTheResourceManagerContractChecks() {
    assertEquals(ResourceManagerContract.LOCALITY_PRIORITY, ContainerRequests.LOCALITY_PRIORITY);
    assertEquals(ResourceManagerContract.LOCALITY_FREE_PRIORITY, ContainerRequests.LOCALITY_FREE_PRIORITY);
  }

  @Test
  void singleContainer() {
    target(1);
    assertPending(1);
    assertEquals(1, rm.outstandingTotal());
    grant("host1");
    assertEquals(1, allocator.running());
    assertPending(0);
    heartbeat();
    assertEquals(0, rm.outstandingTotal(), "the RM owes nothing more");
    assertEquals("host1", launcher.launched().get(0).container().getNodeId().getHost());
  }

  @Test
  void noLaunchBeyondTheTarget() {
    target(1);
    grant("host1");
    rm.grantUnrequested("host2", ContainerRequests.LOCALITY_FREE_PRIORITY, RESOURCE);
    heartbeat();
    assertEquals(1, allocator.running());
    heartbeat();
    assertEquals(1, rm.liveContainers().size(), "the surplus container was released at once");
  }

  @Test
  void someContainers() {
    target(4);
    grant("host1", "host1", "host2");
    assertEquals(3, allocator.running());
    assertPending(1);
  }

  @Test
  void moreThanRequested() {
    target(2);
    grant("host1", "host2");
    rm.grantUnrequested("host4", ContainerRequests.LOCALITY_FREE_PRIORITY, RESOURCE);
    heartbeat();
    assertEquals(2, allocator.running());
    heartbeat();
    assertTrue(rm.liveContainers().stream().noneMatch(c -> c.getNodeId().getHost().equals("host4")));
  }

  @Test
  void decreaseTheTarget() {
    target(4);
    assertPending(4);
    target(3);
    assertPending(3);
    grant("host1");
    assertEquals(1, allocator.running());
    target(2);
    assertPending(1);
    assertEquals(1, rm.outstandingTotal());
  }

  @Test
  void targetBelowRunningKillsNothing() {
    target(3);
    grant("host1", "host2");
    target(1);
    assertPending(0);
    assertEquals(2, allocator.running());
    assertEquals(2, rm.liveContainers().size());
  }

  @Test
  void killedExecutorsCompletingLetTheTargetBeMetAgain() {
    target(4);
    grant("host1", "host2");
    target(1);
    allocator.killExecutor(new ExecutorId(1), "test");
    allocator.killExecutor(new ExecutorId(2), "test");
    assertEquals(0, allocator.running());
    heartbeat();
    heartbeat();
    assertEquals(0, allocator.running());
    assertPending(1);
    assertTrue(completions.stream().allMatch(ContainerCompleted::releasedByUs));
    assertEquals(2, completions.size());
  }

  @Test
  void killingTheSameExecutorFourTimesCountsOnce() {
    target(2);
    grant("host1", "host2");
    for (int i = 0; i < 4; i++) {
      allocator.killExecutor(new ExecutorId(1), "test");
    }
    assertEquals(1, allocator.running());
    target(2);
    assertPending(1);
  }

  @Test
  void duplicateCompletionsAreHarmless() {
    target(2);
    List<Container> c = grant("host1", "host2");
    rm.complete(c.get(0).getId(), 1, "boom");
    rm.completeAgain(c.get(0).getId(), 1);
    rm.complete(c.get(1).getId(), 1, "boom");
    heartbeat();
    assertEquals(0, allocator.running());
    assertEquals(2, completions.size());
    assertEquals(2, allocator.core().failuresInWindow(clock.nowMs()));
  }

  @Test
  void lostExecutorsAreReplacedAndCounted() {
    target(4);
    List<Container> c = grant("host1", "host2");
    registerRunning();
    target(2);
    rm.complete(c.get(0).getId(), -1, "Failed");
    rm.complete(c.get(1).getId(), -1, "Failed");
    heartbeat();
    assertEquals(0, allocator.running());
    heartbeat();
    assertPending(2);
    assertEquals(2, allocator.core().failuresInWindow(clock.nowMs()));
    assertTrue(completions.stream().allMatch(x -> x.verdict().countsAsFailure()));
  }

  @Test
  void excludedNodesAreSentAsDifferences() {
    target(1, "hostA");
    assertEquals(Set.of("hostA"), rm.blacklist());
    target(2, "hostA", "hostB");
    assertEquals(Set.of("hostA", "hostB"), rm.blacklist());
    target(3);
    assertEquals(Set.of(), rm.blacklist());
  }

  @Test
  void failuresCountInASlidingWindow() {
    allocator = create(Map.of("elasticam.yarn.executorFailuresValidityInterval", "100s",
        "elasticam.yarn.excludeOnFailure.enabled", "false", "elasticam.yarn.maxExecutorFailures", "100"));
    target(4);
    List<Container> c = grant("host1", "host2", "host3", "host4");
    clock.setMs(100_000);
    rm.complete(c.get(0).getId(), 1, "");
    heartbeat();
    assertEquals(1, allocator.core().failuresInWindow(clock.nowMs()));
    clock.setMs(201_000);
    assertEquals(0, allocator.core().failuresInWindow(clock.nowMs()));
    rm.complete(c.get(1).getId(), 1, "");
    rm.complete(c.get(2).getId(), 1, "");
    heartbeat();
    assertEquals(2, allocator.core().failuresInWindow(clock.nowMs()));
    clock.setMs(251_000);
    rm.complete(c.get(3).getId(), 1, "");
    heartbeat();
    assertEquals(3, allocator.core().failuresInWindow(clock.nowMs()));
    clock.setMs(302_000);
    assertEquals(1, allocator.core().failuresInWindow(clock.nowMs()));
    clock.setMs(352_000);
    assertEquals(0, allocator.core().failuresInWindow(clock.nowMs()));
  }

  @Test
  void onlyNodeFaultsExcludeNodes() {
    allocator = create(Map.of("elasticam.yarn.excludeOnFailure.maxFailuresPerNode", "1",
        "elasticam.yarn.maxExecutorFailures", "100"));
    // Failed disks are a node fault too, but without a failure of the application's: host8 below.
    int[] harmless = {ContainerExitStatus.SUCCESS, ContainerExitStatus.PREEMPTED,
        ContainerExitStatus.KILLED_EXCEEDED_VMEM, ContainerExitStatus.KILLED_EXCEEDED_PMEM,
        ContainerExitStatus.KILLED_BY_RESOURCEMANAGER, ContainerExitStatus.KILLED_BY_APPMASTER,
        ContainerExitStatus.KILLED_AFTER_APP_COMPLETION, ContainerExitStatus.ABORTED};
    target(11);
    List<Container> c = new ArrayList<>();
    for (int i = 0; i <= 10; i++) {
      c.addAll(grant("host" + i));
    }
    for (int i = 0; i < harmless.length; i++) {
      rm.complete(c.get(i).getId(), harmless[i], "");
    }
    heartbeat();
    heartbeat();
    assertEquals(Set.of(), rm.blacklist());
    rm.complete(c.get(8).getId(), ContainerExitStatus.DISKS_FAILED, "");
    heartbeat();
    heartbeat();
    assertEquals(Set.of("host8"), rm.blacklist(), "failed disks: avoided at once");
    rm.complete(c.get(9).getId(), ContainerExitStatus.INVALID, "");
    heartbeat();
    heartbeat();
    assertEquals(Set.of("host8", "host9"), rm.blacklist());
    rm.complete(c.get(10).getId(), 1, "");
    heartbeat();
    heartbeat();
    assertEquals(Set.of("host8", "host9", "host10"), rm.blacklist());
    assertEquals(2 + 2, allocator.core().failuresInWindow(clock.nowMs()), "two memory kills and two node faults");
  }

  @Test
  void exclusionsExpire() {
    allocator = create(Map.of("elasticam.yarn.excludeOnFailure.maxFailuresPerNode", "1",
        "elasticam.yarn.excludeOnFailure.timeout", "10min"));
    target(1);
    rm.complete(grant("host1").get(0).getId(), 1, "");
    heartbeat();
    heartbeat();
    assertEquals(Set.of("host1"), rm.blacklist());
    clock.advance(Duration.ofMinutes(10));
    heartbeat();
    assertEquals(Set.of(), rm.blacklist());
  }

  @Test
  void tooManyFailuresFailTheApplication() {
    allocator = create(Map.of("elasticam.executor.instances", "1", "elasticam.yarn.excludeOnFailure.enabled", "false"));
    target(1);
    for (int i = 0; i < 3; i++) {
      Container c = grant("host1").get(0);
      registerRunning();
      rm.complete(c.getId(), 1, "");
      heartbeat(); // hears of the exit
      heartbeat(); // asks for a replacement
    }
    assertTrue(allocator.failure().isPresent());
    assertEquals(allocator.failure(), Optional.of(failures.get(0)));
    assertTrue(failures.get(0).startsWith("3 executor failures"), failures.get(0));
  }

  @Test
  void memoryKillsQuoteTheDiagnosticsAndCountWithoutBlamingTheNode() {
    allocator = create(Map.of("elasticam.yarn.excludeOnFailure.maxFailuresPerNode", "1"));
    target(1);
    rm.complete(grant("host1").get(0).getId(), ContainerExitStatus.KILLED_EXCEEDED_PMEM,
        "Current usage: 2.1 GB of 2 GB physical memory used; 3.0 GB of 4.2 GB virtual memory used. Killing container.");
    heartbeat();
    ContainerCompleted c = completions.get(0);
    assertTrue(c.verdict().countsAsFailure());
    assertFalse(c.verdict().blamesNode());
    assertTrue(c.verdict().message().contains("2.1 GB of 2 GB physical memory used"), c.verdict().message());
    heartbeat();
    assertEquals(Set.of(), rm.blacklist());
  }

  @Test
  void aFailedLaunchReleasesTheContainerAndAsksAgain() {
    launcher.failNext(1);
    target(1);
    grant("host1");
    assertEquals(0, allocator.running());
    assertEquals(0, allocator.starting());
    heartbeat();
    assertPending(0); // a failed start holds new requests back for 1 s
    clock.advance(Duration.ofSeconds(1));
    heartbeat();
    assertPending(1);
    assertEquals(1, allocator.core().failuresInWindow(clock.nowMs()));
    assertTrue(rm.liveContainers().isEmpty(), "the container was given back");
  }

  @Test
  void preemptionIsReplacedAndNotCounted() {
    target(1);
    Container c = grant("host1").get(0);
    rm.preempt(c.getId());
    heartbeat();
    heartbeat();
    assertPending(1);
    assertEquals(0, allocator.core().failuresInWindow(clock.nowMs()));
    assertEquals("preempted", completions.get(0).verdict().kind());
  }

  @Test
  void localityRequestsAndTheirGrantsStayConsistentWithTheRm() {
    allocator.requestTotalExecutors(3, 3, Map.of("host3", 3, "host4", 3), Set.of());
    heartbeat();
    assertEquals(3, rm.outstanding(ContainerRequests.LOCALITY_PRIORITY.getPriority(), "*"));
    assertTrue(rm.outstanding(ContainerRequests.LOCALITY_PRIORITY.getPriority(), "host3") > 0);
    grant("host3", "host4", "host5");
    assertEquals(3, allocator.running());
    assertPending(0);
    heartbeat();
    assertEquals(0, rm.outstandingTotal());
  }

  @Test
  void releaseAllGivesEverythingBack() {
    target(3);
    grant("host1");
    allocator.releaseAll("application finished");
    heartbeat();
    assertPending(0);
    assertEquals(0, rm.outstandingTotal());
    assertTrue(rm.liveContainers().isEmpty());
  }

  @Test
  void nodesThatLeaveOrAreDecommissionedAreReportedOnce() {
    target(1);
    rm.nodeState("host1", org.apache.hadoop.yarn.api.records.NodeState.LOST);
    rm.nodeState("host2", org.apache.hadoop.yarn.api.records.NodeState.DECOMMISSIONING);
    rm.nodeState("host3", org.apache.hadoop.yarn.api.records.NodeState.RUNNING);
    rm.nodeState("host4", org.apache.hadoop.yarn.api.records.NodeState.UNHEALTHY);
    heartbeat();
    heartbeat();
    assertEquals(List.of("host1 LOST", "host2 DECOMMISSIONING", "host4 UNHEALTHY"), nodeChanges);
    // The same state again is no news; RUNNING after DECOMMISSIONING is a recommission.
    rm.nodeState("host2", org.apache.hadoop.yarn.api.records.NodeState.DECOMMISSIONING);
    heartbeat();
    rm.nodeState("host2", org.apache.hadoop.yarn.api.records.NodeState.RUNNING);
    rm.nodeState("host3", org.apache.hadoop.yarn.api.records.NodeState.RUNNING);
    heartbeat();
    assertEquals(List.of("host1 LOST", "host2 DECOMMISSIONING", "host4 UNHEALTHY", "host2 RECOMMISSIONED"),
        nodeChanges);
  }

  @Test
  void aPreemptionWarningNamesOurExecutorsAndHowManyMoreTheRmWants() {
    target(2);
    List<Container> c = grant("host1", "host2");
    rm.preemptNext(List.of(c.get(1).getId()), 2, 1024);
    heartbeat();
    heartbeat();
    // container 2 holds executor 2; the contract asks 2 containers, one of them already named
    assertEquals(List.of("[2] +1"), preemptions);
  }

  @Test
  void aPreemptionWarningNamesAContainerGrantedInTheSameResponse() {
    target(2);
    grant("host1");
    List<Container> same = rm.grant("host2", 1);
    rm.preemptNext(List.of(same.get(0).getId()), 0, 1024);
    heartbeat();
    // container 2, granted in the response that warns of it, holds executor 2 by then
    assertEquals(List.of("[2] +0"), preemptions);
  }
}
