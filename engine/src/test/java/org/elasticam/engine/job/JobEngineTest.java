package org.elasticam.engine.job;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.elasticam.api.Stage;
import org.elasticam.engine.scheduling.TaskScheduler;
import org.elasticam.report.events.Event;
import org.elasticam.time.ManualClock;
import org.elasticam.time.ManualScheduler;
import org.junit.jupiter.api.Test;

/**
 * The job engine on a manual scheduler, its executors as recording links and its allocator a
 * recording port: what it decides, at what time, with no threads and no waiting.
 */
class JobEngineTest {

  private final ManualScheduler time = new ManualScheduler(new ManualClock(1_000_000));
  private final Allocator allocator = new Allocator();
  private final List<String> events = new ArrayList<>();
  private Outcome outcome;

  /** What the executor was told. */
  private static final class Link implements ExecutorLink {
    final List<TaskLaunch> launched = new ArrayList<>();
    final List<Long> killed = new ArrayList<>();
    final List<byte[]> credentials = new ArrayList<>();
    String refused;
    boolean registered;
    boolean ended;
    String shutdown;

    @Override
    public void registered(String appId, long heartbeatIntervalMs) {
      registered = true;
    }

    @Override
    public void launch(TaskLaunch launch) {
      launched.add(launch);
    }

    @Override
    public void kill(long taskId) {
      killed.add(taskId);
    }

    @Override
    public void commitAnswer(long taskId, boolean allowed) {}

    @Override
    public void credentials(byte[] tokens) {
      credentials.add(tokens);
    }

    @Override
    public void shutdown(String reason) {
      shutdown = reason;
    }

    @Override
    public void refuse(String why) {
      refused = why;
    }

    @Override
    public void end() {
      ended = true;
    }
  }

  /** The allocator as the engine sees it: executors launched in containers c<id>, and what it was asked. */
  private static final class Allocator implements AllocatorPort {
    final Map<String, String> launched = new LinkedHashMap<>();
    final List<String> killed = new ArrayList<>();
    final List<String> failed = new ArrayList<>();
    int target = -1;

    @Override
    public boolean requestTotalExecutors(int target, int localityAwareTasks, Map<String, Integer> hostToLocalTaskCount,
        Set<String> excludedNodes) {
      boolean changed = target != this.target;
      this.target = target;
      return changed;
    }

    @Override
    public void killExecutor(String executorId, String reason) {
      killed.add(executorId + ": " + reason);
      launched.remove(executorId);
    }

    @Override
    public void killFailedExecutor(String executorId, String why) {
      failed.add(executorId + ": " + why);
      launched.remove(executorId);
    }

    @Override
    public Optional<Launched> launched(String executorId) {
      return Optional.ofNullable(launched.get(executorId)).map(c -> new Launched(c, "h" + executorId, 0));
    }
  }

  private JobEngine engine(int stages, int tasks, double minRegisteredRatio, Duration maxRegisteredWait) {
    return engine(stages, tasks, minRegisteredRatio, maxRegisteredWait, null);
  }

  /** @param restarted what an earlier attempt left, or null for a first attempt */
  private JobEngine engine(int stages, int tasks, double minRegisteredRatio, Duration maxRegisteredWait,
      org.elasticam.engine.recovery.Restarted restarted) {
    List<Stage> list = new ArrayList<>();
    for (int s = 0; s < stages; s++) {
      Stage.Builder b = Stage.builder(s, "stage " + s, "T").tasks(tasks);
      list.add(s == 0 ? b.build() : b.parents(s - 1).build());
    }
    DriverSettings settings = new DriverSettings("app_1", 2, 1, 2, Duration.ZERO, Duration.ofMillis(200),
        Duration.ofSeconds(10), Duration.ofSeconds(30), minRegisteredRatio, maxRegisteredWait, Duration.ofSeconds(6),
        DriverSettings.ExcludeOnFailure.OFF);
    JobEngine e = new JobEngine(settings, time, new DagPlan(list), new TaskScheduler(2, Duration.ZERO, h -> null),
        allocator, (event, kv) -> events.add(event.wireName()), time.clock(), o -> outcome = o);
    if (restarted != null) {
      e.recover(restarted);
    }
    e.start();
    return e;
  }

  private JobEngine.Session register(JobEngine e, String id, Link link) {
    allocator.launched.putIfAbsent(id, "c" + id);
    return e.register(link, new Registration(id, "h" + id, "c" + id, 2, 100, "17", "/jdk", List.of("/d"), true,
        Map.of()));
  }

  /** The executor's heartbeat, every second from now on. */
  private void heartbeats(JobEngine e, JobEngine.Session s) {
    time.every(Duration.ofSeconds(1), () -> e.heard(s));
  }

  /** Every attempt the link was told to start, reported succeeded; returns how many. */
  private int succeedAll(JobEngine e, JobEngine.Session s, Link link) {
    List<TaskLaunch> now = List.copyOf(link.launched);
    link.launched.clear();
    for (TaskLaunch t : now) {
      e.taskReported(s, new TaskReport(t.attempt().taskId(), TaskReport.State.SUCCEEDED, "", 0, null));
    }
    return now.size();
  }

  @Test
  void twoExecutorsRunAJobToSuccessStageAfterStage() {
    JobEngine e = engine(2, 3, 0.0, Duration.ZERO);
    assertEquals(2, allocator.target, "the static target: executor.instances");
    Link l1 = new Link();
    Link l2 = new Link();
    JobEngine.Session s1 = register(e, "1", l1);
    JobEngine.Session s2 = register(e, "2", l2);
    assertTrue(l1.registered && l2.registered);
    assertEquals(3, l1.launched.size() + l2.launched.size(), "stage 0's three tasks, over four slots");
    int done = succeedAll(e, s1, l1) + succeedAll(e, s2, l2);
    assertEquals(3, done);
    assertEquals(3, e.tasksRunning(), "stage 1 started when stage 0 completed");
    succeedAll(e, s1, l1);
    succeedAll(e, s2, l2);
    assertEquals(Outcome.Status.SUCCEEDED, outcome.status());
    assertEquals("all 6 tasks of 2 stages succeeded", outcome.diagnostics());
    assertEquals(2, events.stream().filter(n -> n.equals(Event.STAGE_COMPLETED.wireName())).count());
  }

  @Test
  void theFirstTasksWaitForEnoughOfTheInitialExecutorsOrTheWaitingTime() {
    JobEngine e = engine(1, 4, 1.0, Duration.ofSeconds(30));
    Link l1 = new Link();
    heartbeats(e, register(e, "1", l1));
    assertEquals(0, l1.launched.size(), "one of two initial executors is not enough (ratio 1.0)");
    time.advance(Duration.ofSeconds(29));
    assertEquals(0, l1.launched.size());
    time.advance(Duration.ofSeconds(1));
    assertEquals(2, l1.launched.size(), "after elasticam.scheduler.maxRegisteredResourcesWaitingTime it runs");
  }

  @Test
  void aLaunchedExecutorThatNeverRegistersIsReleasedAsAFailureAndOneThatDidIsNot() {
    JobEngine e = engine(1, 2, 0.0, Duration.ZERO);
    allocator.launched.put("1", "c1");
    allocator.launched.put("2", "c2");
    e.executorLaunched("1");
    e.executorLaunched("2");
    heartbeats(e, register(e, "2", new Link()));
    time.advance(Duration.ofSeconds(30));
    assertEquals(List.of("1: it did not register within 30s (elasticam.executor.registrationTimeout)"),
        allocator.failed);
    Link late = new Link();
    allocator.launched.put("1", "c1");
    assertNull(register(e, "1", late), "it may not register after it was given up");
    assertEquals("executor 1 already registered once", late.refused);
  }

  @Test
  void registrationsFromContainersWeDidNotLaunchThemInAreRefused() {
    JobEngine e = engine(1, 2, 0.0, Duration.ZERO);
    Link stranger = new Link();
    assertNull(e.register(stranger, new Registration("7", "h7", "c7", 2, 1, "17", "/jdk", List.of(), true,
        Map.of())));
    assertEquals("no executor 7 was launched by this application", stranger.refused);
    allocator.launched.put("1", "c1");
    Link elsewhere = new Link();
    assertNull(e.register(elsewhere, new Registration("1", "h1", "c9", 2, 1, "17", "/jdk", List.of(), true,
        Map.of())));
    assertEquals("executor 1 runs in c1, not c9", elsewhere.refused);
  }

  @Test
  void aSilentExecutorIsLostAfterTheHeartbeatTimeoutAndItsTasksRunElsewhere() {
    JobEngine e = engine(1, 2, 0.0, Duration.ZERO);
    Link l1 = new Link();
    JobEngine.Session s1 = register(e, "1", l1);
    assertEquals(2, e.tasksRunning());
    time.advance(Duration.ofSeconds(5));
    e.heard(s1);
    time.advance(Duration.ofSeconds(10));
    assertEquals(List.of(), allocator.failed, "heard 10 s ago: not yet");
    time.advance(Duration.ofMillis(200));
    assertEquals(1, allocator.failed.size());
    assertTrue(allocator.failed.get(0).startsWith("1: lost: no heartbeat for"), allocator.failed.toString());
    assertEquals(2, e.tasksPending(), "its tasks went back to pending");
    assertTrue(l1.ended);
    Link l2 = new Link();
    register(e, "2", l2);
    assertEquals(2, l2.launched.size());
    assertEquals(1, l2.launched.get(0).attempt().attempt(), "a new attempt");
  }

  @Test
  void aClosedSessionLosesTheExecutorAtOnceAndReleasesItsContainerAfterTheGrace() {
    JobEngine e = engine(1, 2, 0.0, Duration.ZERO);
    JobEngine.Session s1 = register(e, "1", new Link());
    e.sessionClosed(s1, "stream failed");
    assertEquals(2, e.tasksPending());
    assertEquals(List.of(), allocator.killed, "YARN first gets the chance to say how the process ended");
    time.advance(Duration.ofSeconds(6));
    assertEquals(List.of("1: lost: stream failed"), allocator.killed);
  }

  @Test
  void aTaskThatKeepsFailingFailsTheJobWithItsError() {
    JobEngine e = engine(1, 1, 0.0, Duration.ZERO);
    Link l1 = new Link();
    JobEngine.Session s1 = register(e, "1", l1);
    for (int attempt = 0; attempt < 2; attempt++) {
      TaskLaunch t = l1.launched.remove(0);
      e.taskReported(s1, new TaskReport(t.attempt().taskId(), TaskReport.State.FAILED,
          "java.lang.IllegalStateException: boom\n\tat T.run(T.java:1)", 0, null));
    }
    assertNotNull(outcome);
    assertEquals(Outcome.Status.FAILED, outcome.status());
    assertTrue(outcome.diagnostics().contains("boom"), outcome.diagnostics());
  }

  @Test
  void renewedTokensReachLiveExecutorsAndOnesThatRegisterLater() {
    JobEngine e = engine(1, 1, 0.0, Duration.ZERO);
    Link early = new Link();
    register(e, "1", early);
    e.updateCredentials(new byte[] {1, 2});
    Link late = new Link();
    register(e, "2", late);
    assertEquals(1, early.credentials.size());
    assertEquals(1, late.credentials.size());
    assertEquals(2, late.credentials.get(0).length);
  }

  /** Stage 0 of a two-stage job completed in an earlier attempt, its output served by executor 1's own server. */
  private org.elasticam.engine.recovery.Restarted stageZeroDoneOnExecutorOne(Set<String> survivors) {
    List<org.elasticam.engine.recovery.Resumption.RecordedOutput> outputs = new ArrayList<>();
    for (int m = 0; m < 2; m++) {
      outputs.add(new org.elasticam.engine.recovery.Resumption.RecordedOutput(m,
          new org.elasticam.engine.lineage.MapOutputs.Output("1", "h1", 7337, List.of("/d"), false)));
    }
    return new org.elasticam.engine.recovery.Restarted(List.of(new org.elasticam.engine.recovery.Resumption
        .RecordedStage(0, 500_000, List.of(), outputs)), List.of(), survivors, Duration.ofSeconds(20), 0, 0);
  }

  private JobEngine shuffleEngine(org.elasticam.engine.recovery.Restarted restarted) {
    List<Stage> list = List.of(Stage.builder(0, "map", "T").tasks(2).writesShuffle(2).build(),
        Stage.builder(1, "reduce", "T").parents(0).tasks(2).build());
    DriverSettings settings = new DriverSettings("app_1", 2, 1, 2, Duration.ZERO, Duration.ofMillis(200),
        Duration.ofSeconds(10), Duration.ofSeconds(30), 0.0, Duration.ZERO, Duration.ofSeconds(6),
        DriverSettings.ExcludeOnFailure.OFF);
    JobEngine e = new JobEngine(settings, time, new DagPlan(list), new TaskScheduler(2, Duration.ZERO, h -> null),
        allocator, (event, kv) -> events.add(event.wireName()), time.clock(), o -> outcome = o);
    e.recover(restarted);
    e.start();
    return e;
  }

  @Test
  void afterARestartASurvivorReattachesAndTheCompletedStageDoesNotRunAgain() {
    JobEngine e = shuffleEngine(stageZeroDoneOnExecutorOne(Set.of("1")));
    assertTrue(events.contains(Event.STAGE_COMPLETED.wireName()), "stage 0 is known completed: " + events);
    Link l1 = new Link();
    JobEngine.Session s1 = register(e, "1", l1);
    assertEquals(2, l1.launched.size());
    assertTrue(l1.launched.stream().allMatch(t -> t.attempt().stageId() == 1), "only the reducers run");
    assertEquals(2, l1.launched.get(0).reads().get(0).maps(), "reading the output the earlier attempt left");
    succeedAll(e, s1, l1);
    assertEquals(Outcome.Status.SUCCEEDED, outcome.status());
    assertEquals(4, e.tasksDone(), "progress counts the tasks done before the restart");
  }

  @Test
  void aSurvivorThatDoesNotComeBackInTimeIsReleasedAndItsOutputRunsAgain() {
    JobEngine e = shuffleEngine(stageZeroDoneOnExecutorOne(Set.of("1")));
    allocator.launched.put("1", "c1");
    Link l2 = new Link();
    JobEngine.Session s2 = register(e, "2", l2);
    heartbeats(e, s2);
    assertEquals(2, l2.launched.size(), "the reducers start: executor 1's output may still come back");
    time.advance(Duration.ofSeconds(20));
    assertEquals(List.of("1: lost: it did not re-register within 20s of the AM restart"
        + " (elasticam.executor.reregisterTimeout)"), allocator.killed);

    // The reducers cannot fetch what only executor 1 served: the maps run again, the reducers wait.
    List<TaskLaunch> reducers = List.copyOf(l2.launched);
    l2.launched.clear();
    for (TaskLaunch t : reducers) {
      e.taskReported(s2, new TaskReport(t.attempt().taskId(), TaskReport.State.FETCH_FAILED, "", 0,
          new TaskReport.FetchFailure(0, "1", List.of(0, 1), "connection refused")));
    }
    assertTrue(events.contains(Event.STAGE_RESUBMITTED.wireName()), events.toString());
    assertEquals(List.of(0, 0), l2.launched.stream().map(t -> t.attempt().stageId()).toList(), "both maps again");
    succeedAll(e, s2, l2);
    assertEquals(List.of(1, 1), l2.launched.stream().map(t -> t.attempt().stageId()).toList(), "then the reducers");
    assertEquals("2", l2.launched.get(0).reads().get(0).locations().get(0).executorId(),
        "reading the new output");
    succeedAll(e, s2, l2);
    assertEquals(Outcome.Status.SUCCEEDED, outcome.status(), outcome.diagnostics());
  }
}
