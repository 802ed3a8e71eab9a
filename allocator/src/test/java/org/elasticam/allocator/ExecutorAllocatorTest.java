package org.elasticam.allocator;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.elasticam.allocator.exit.ExitStatus;
import org.elasticam.allocator.model.ContainerExit;
import org.elasticam.allocator.model.ContainerRef;
import org.elasticam.allocator.model.ExecutorId;
import org.elasticam.allocator.model.Grant;
import org.elasticam.allocator.model.LocalityHints;
import org.elasticam.allocator.plan.Action.AddAsk;
import org.elasticam.allocator.plan.Action.CancelAsk;
import org.elasticam.allocator.plan.Action.ContainerCompleted;
import org.elasticam.allocator.plan.Action.FailApplication;
import org.elasticam.allocator.plan.Action.LaunchExecutor;
import org.elasticam.allocator.plan.Action.ReleaseContainer;
import org.elasticam.allocator.plan.Action.UpdateExclusions;
import org.elasticam.allocator.plan.Action.Warn;
import org.elasticam.allocator.plan.Plan;
import org.elasticam.time.ManualClock;
import org.junit.jupiter.api.Test;

/** The core's own flows, with no adapter: grants in, plans out. */
class ExecutorAllocatorTest {

  private final ManualClock clock = new ManualClock(1_000);
  private ExecutorAllocator alloc = new ExecutorAllocator(TestSettings.with());
  private final ClusterView cluster = new ClusterView(List.of("h1", "h2", "h3"), java.util.Map.of(), 3);
  private int nextContainer = 1;

  private Plan target(int n) {
    alloc.requestTotalExecutors(n, LocalityHints.NONE, Set.of());
    return alloc.reconcile(clock.nowMs(), cluster);
  }

  private List<LaunchExecutor> grant(String... hosts) {
    List<Grant> grants = new ArrayList<>();
    for (String h : hosts) {
      grants.add(new Grant(new ContainerRef("c" + nextContainer++), h, null, true));
    }
    List<LaunchExecutor> launches = alloc.onGrants(grants, clock.nowMs()).all(LaunchExecutor.class);
    launches.forEach(l -> alloc.onLaunched(l.container()));
    return launches;
  }

  private Plan exit(ContainerRef c, int status) {
    return alloc.onCompleted(List.of(new ContainerExit(c, status, "")), clock.nowMs(), cluster);
  }

  @Test
  void adoptedExecutorsCountAsRunningAndLaterOnesAreNumberedAfterThem() {
    alloc.adopt(List.of(
        new org.elasticam.allocator.ledger.HeldContainer(new ContainerRef("old-7"), new ExecutorId(7), "h1",
            org.elasticam.allocator.ledger.HeldContainer.State.RUNNING, 500, 500),
        new org.elasticam.allocator.ledger.HeldContainer(new ContainerRef("old-3"), new ExecutorId(3), "h2",
            org.elasticam.allocator.ledger.HeldContainer.State.RUNNING, 500, 500)), 9);
    assertEquals(2, alloc.running());
    // A target of 3 with two survivors asks for one container, not three.
    assertEquals(1, target(3).all(AddAsk.class).size());
    assertEquals(List.of(new ExecutorId(9)), grant("h3").stream().map(LaunchExecutor::executor).toList());
    // A survivor that crashes later did start once: it is a failure, but no failure to start.
    Plan crash = exit(new ContainerRef("old-7"), 1);
    assertTrue(crash.all(Warn.class).stream().noneMatch(w -> w.message().contains("failed to start")),
        crash.actions().toString());
    assertEquals(2, alloc.running());
  }

  @Test
  void executorIdsCountUpFromOne() {
    target(2);
    List<LaunchExecutor> l = grant("h1", "h2");
    assertEquals(List.of(new ExecutorId(1), new ExecutorId(2)), l.stream().map(LaunchExecutor::executor).toList());
  }

  @Test
  void aDeadExecutorLeavesAShortfallUntilTheNextReconcileAsksForItsReplacement() {
    target(2);
    List<LaunchExecutor> l = grant("h1", "h2");
    l.forEach(x -> alloc.onRegistered(x.executor()));
    assertEquals(0, alloc.shortfall());
    assertFalse(alloc.wantsContainers());
    exit(l.get(0).container(), 137);
    assertEquals(1, alloc.shortfall(), "the completion alone asks for nothing");
    assertEquals(0, alloc.pendingAsks());
    assertTrue(alloc.wantsContainers(), "the heartbeat keeps its fast pace for the replacement");
    assertEquals(1, alloc.reconcile(clock.nowMs(), cluster).all(AddAsk.class).size());
    assertEquals(0, alloc.shortfall());
    assertTrue(alloc.wantsContainers(), "its ask is pending");
    alloc.requestTotalExecutors(0, LocalityHints.NONE, Set.of());
    assertEquals(0, alloc.shortfall(), "a surplus is no shortfall");
  }

  @Test
  void grantsBeyondTheTargetAreReleasedAtOnce() {
    target(1);
    Plan p = alloc.onGrants(List.of(new Grant(new ContainerRef("a"), "h1", null, true),
        new Grant(new ContainerRef("b"), "h2", null, true)), clock.nowMs());
    assertEquals(1, p.all(LaunchExecutor.class).size());
    ReleaseContainer r = p.all(ReleaseContainer.class).get(0);
    assertEquals("b", r.container().id());
    assertEquals("it matches no pending request", r.reason());
  }

  /** TaskFailureExclusionIT saw one: asked for before the exclusion, granted in the response that sent it. */
  @Test
  void aContainerGrantedOnAnExcludedNodeIsReleasedAndAskedForAgain() {
    alloc.requestTotalExecutors(2, LocalityHints.NONE, Set.of());
    alloc.reconcile(clock.nowMs(), cluster);
    alloc.requestTotalExecutors(2, LocalityHints.NONE, Set.of("h1"));
    Plan p = alloc.onGrants(List.of(new Grant(new ContainerRef("a"), "h1", null, true),
        new Grant(new ContainerRef("b"), "h2", null, true)), clock.nowMs());
    assertEquals(List.of("b"), p.all(LaunchExecutor.class).stream().map(l -> l.container().id()).toList());
    ReleaseContainer r = p.all(ReleaseContainer.class).get(0);
    assertEquals("a", r.container().id());
    assertEquals("its node h1 is excluded", r.reason());
    assertEquals(1, alloc.reconcile(clock.nowMs(), cluster).all(AddAsk.class).size(), "the one still wanted");
  }

  /** TaskFailureExclusionIT saw this too: the ask it was scheduled for had been cancelled meanwhile. */
  @Test
  void anUnaskedForContainerOnAnExcludedNodeIsReleasedForTheExclusion() {
    alloc.requestTotalExecutors(0, LocalityHints.NONE, Set.of("h1"));
    Plan p = alloc.onGrants(List.of(new Grant(new ContainerRef("a"), "h1", null, true)), clock.nowMs());
    assertTrue(p.all(LaunchExecutor.class).isEmpty());
    assertEquals("its node h1 is excluded", p.all(ReleaseContainer.class).get(0).reason());
  }

  @Test
  void aMatchedGrantAfterTheTargetDroppedIsReleased() {
    target(2);
    alloc.requestTotalExecutors(0, LocalityHints.NONE, Set.of());
    Plan p = alloc.onGrants(List.of(new Grant(new ContainerRef("a"), "h1", null, true)), clock.nowMs());
    assertTrue(p.all(ReleaseContainer.class).get(0).reason().startsWith("the target of 0 is already met"));
    assertEquals(1, alloc.pendingAsks(), "the matched ask is withdrawn");
  }

  @Test
  void aFailedLaunchReleasesTheContainerAndCountsAgainstTheNode() {
    alloc = new ExecutorAllocator(TestSettings.with("elasticam.yarn.excludeOnFailure.maxFailuresPerNode", "1"));
    target(1);
    LaunchExecutor l = alloc.onGrants(List.of(new Grant(new ContainerRef("a"), "h1", null, true)), clock.nowMs())
        .all(LaunchExecutor.class).get(0);
    Plan p = alloc.onLaunchFailed(l.container(), "connection refused", clock.nowMs(), cluster);
    assertEquals("its launch failed", p.all(ReleaseContainer.class).get(0).reason());
    assertEquals(1, alloc.failuresInWindow(clock.nowMs()));
    assertEquals(0, alloc.starting());
    UpdateExclusions u = alloc.reconcile(clock.nowMs(), cluster).all(UpdateExclusions.class).get(0);
    assertEquals(List.of("h1"), u.additions());
    assertEquals(0, alloc.pendingAsks(), "a failed start holds new requests back for 1 s");
    clock.advanceMs(1_000);
    alloc.reconcile(clock.nowMs(), cluster);
    assertEquals(1, alloc.pendingAsks(), "the executor is asked for again");
  }

  @Test
  void failedDisksAvoidTheNodeAtOnceWithoutCountingAFailure() {
    target(1);
    LaunchExecutor l = alloc.onGrants(List.of(new Grant(new ContainerRef("a"), "h1", null, true)), clock.nowMs())
        .all(LaunchExecutor.class).get(0);
    alloc.onCompleted(List.of(new ContainerExit(l.container(), ExitStatus.DISKS_FAILED, "disks failed")),
        clock.nowMs(), cluster);
    assertEquals(0, alloc.failuresInWindow(clock.nowMs()), "not the application's failure");
    UpdateExclusions u = alloc.reconcile(clock.nowMs(), cluster).all(UpdateExclusions.class).get(0);
    assertEquals(List.of("h1"), u.additions(), "one report of failed disks is enough to avoid the node");
  }

  @Test
  void tooManyFailuresFailTheApplicationOnce() {
    alloc = new ExecutorAllocator(TestSettings.with("elasticam.executor.instances", "1",
        "elasticam.yarn.excludeOnFailure.enabled", "false"));
    List<FailApplication> fails = new ArrayList<>();
    for (int i = 0; i < 5; i++) {
      target(1);
      LaunchExecutor l = grant("h1").get(0);
      alloc.onRegistered(l.executor());
      fails.addAll(exit(l.container(), 1).all(FailApplication.class));
    }
    assertEquals(1, fails.size());
    assertTrue(fails.get(0).diagnostics().startsWith("3 executor failures since the application started reached"
        + " the limit of 3"), fails.get(0).diagnostics());
  }

  @Test
  void theLastNodeIsNeverExcluded() {
    alloc = new ExecutorAllocator(TestSettings.with("elasticam.yarn.excludeOnFailure.maxFailuresPerNode", "1",
        "elasticam.yarn.maxExecutorFailures", "100"));
    ClusterView one = new ClusterView(List.of("h1"), java.util.Map.of(), 1);
    alloc.requestTotalExecutors(1, LocalityHints.NONE, Set.of());
    alloc.reconcile(clock.nowMs(), one);
    LaunchExecutor l = grant("h1").get(0);
    alloc.onRegistered(l.executor());
    Plan p = alloc.onCompleted(List.of(new ContainerExit(l.container(), 1, "")), clock.nowMs(), one);
    assertEquals(1, p.all(Warn.class).size());
    assertTrue(alloc.reconcile(clock.nowMs(), one).all(UpdateExclusions.class).isEmpty());
  }

  @Test
  void killingAStartingExecutorStopsCountingItAtOnce() {
    target(1);
    LaunchExecutor l = alloc.onGrants(List.of(new Grant(new ContainerRef("a"), "h1", null, true)), clock.nowMs())
        .all(LaunchExecutor.class).get(0);
    assertEquals(1, alloc.killExecutor(l.executor(), "idle").all(ReleaseContainer.class).size());
    alloc.onLaunched(l.container());
    assertEquals(0, alloc.running());
    assertEquals(0, alloc.starting());
  }

  @Test
  void aReleasedContainerCompletingIsNotAFailureWhateverItsStatus() {
    target(1);
    LaunchExecutor l = grant("h1").get(0);
    alloc.killExecutor(l.executor(), "test");
    ContainerCompleted c = exit(l.container(), 143).all(ContainerCompleted.class).get(0);
    assertTrue(c.releasedByUs());
    assertFalse(c.verdict().countsAsFailure());
    assertEquals(0, alloc.failuresInWindow(clock.nowMs()));
  }

  @Test
  void releaseAllCancelsAsksAndReleasesEveryContainer() {
    target(3);
    grant("h1");
    Plan p = alloc.releaseAll("application finished");
    assertEquals(2, p.all(CancelAsk.class).size());
    assertEquals(1, p.all(ReleaseContainer.class).size());
    assertTrue(alloc.reconcile(clock.nowMs(), cluster).all(AddAsk.class).isEmpty());
    ContainerCompleted c = exit(new ContainerRef("c1"), ExitStatus.KILLED_BY_APPMASTER).all(ContainerCompleted.class).get(0);
    assertEquals("released", c.verdict().kind());
  }

  @Test
  void aMisbehavingExecutorIsReleasedAndCounted() {
    target(1);
    LaunchExecutor l = grant("h1").get(0);
    Plan p = alloc.killFailedExecutor(l.executor(), "did not register within 2min", clock.nowMs(), cluster);
    assertEquals("did not register within 2min", p.all(ReleaseContainer.class).get(0).reason());
    assertEquals(1, alloc.failuresInWindow(clock.nowMs()));
    assertEquals(0, alloc.running());
    assertTrue(alloc.killFailedExecutor(l.executor(), "again", clock.nowMs(), cluster).isEmpty());
  }

  @Test
  void executorsThatKeepFailingToStartHoldBackRequestsLongerEachTime() {
    alloc = new ExecutorAllocator(TestSettings.with("elasticam.yarn.excludeOnFailure.enabled", "false",
        "elasticam.yarn.maxExecutorFailures", "100"));
    target(1);
    // The process dies before it registers: a failed start, and requests wait 1 s.
    List<Warn> warns = exit(grant("h1").get(0).container(), 1).all(Warn.class);
    assertTrue(warns.get(0).message().startsWith("1 executor(s) in a row failed to start"), warns.toString());
    assertTrue(warns.get(0).message().endsWith("no new container requests for 1000 ms"), warns.toString());
    assertTrue(alloc.reconcile(clock.nowMs(), cluster).all(AddAsk.class).isEmpty(), "held back");
    clock.advanceMs(1_000);
    assertEquals(1, alloc.reconcile(clock.nowMs(), cluster).all(AddAsk.class).size(), "asked again after 1 s");
    // It never registers: killed for that, the second failed start in a row holds requests 2 s.
    LaunchExecutor l = grant("h1").get(0);
    alloc.killFailedExecutor(l.executor(), "it did not register within 2min", clock.nowMs(), cluster);
    assertTrue(alloc.holdingRequests(clock.nowMs()));
    clock.advanceMs(1_999);
    assertTrue(alloc.holdingRequests(clock.nowMs()));
    clock.advanceMs(1);
    assertFalse(alloc.holdingRequests(clock.nowMs()));
    // The next one registers: the streak is over; a crash after registering is no failed start.
    target(1);
    LaunchExecutor ok = grant("h1").get(0);
    alloc.onRegistered(ok.executor());
    assertTrue(exit(ok.container(), 1).all(Warn.class).stream().noneMatch(w -> w.message().contains("failed to start")));
    assertEquals(1, target(1).all(AddAsk.class).size(), "replaced at once");
  }

  @Test
  void theHoldDoublesUpToAMinute() {
    org.elasticam.allocator.health.StartFailures f = new org.elasticam.allocator.health.StartFailures();
    List<Long> holds = new ArrayList<>();
    for (int i = 0; i < 9; i++) {
      holds.add(f.failed(0));
    }
    assertEquals(List.of(1_000L, 2_000L, 4_000L, 8_000L, 16_000L, 32_000L, 60_000L, 60_000L, 60_000L), holds);
    f.started();
    assertEquals(1_000L, f.failed(0));
  }
}
