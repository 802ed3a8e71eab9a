package org.elasticam.engine.job;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.elasticam.api.ShuffleSpec;
import org.elasticam.api.Stage;
import org.elasticam.api.TaskSpec;
import org.elasticam.report.events.Event;
import org.elasticam.time.ManualScheduler;
import org.elasticam.engine.job.EngineHarness.Link;
import org.junit.jupiter.api.Test;

/**
 * The job engine on a manual scheduler ({@link EngineHarness}): a job from submission to success,
 * registration, heartbeats, failures, tokens and restarts, with no threads and no waiting.
 */
class JobEngineTest {

  private final EngineHarness h = new EngineHarness();
  private final ManualScheduler time = h.time;
  private final EngineHarness.Allocator allocator = h.allocator;

  private JobEngine engine(int stages, int tasks, double minRegisteredRatio, Duration maxRegisteredWait) {
    return engine(stages, tasks, minRegisteredRatio, maxRegisteredWait, null);
  }

  /** @param restarted what an earlier attempt left, or null for a first attempt */
  private JobEngine engine(int stages, int tasks, double minRegisteredRatio, Duration maxRegisteredWait,
      org.elasticam.engine.recovery.Restarted restarted) {
    JobEngine e = h.engine(EngineHarness.settings(minRegisteredRatio, maxRegisteredWait),
        EngineHarness.chain(stages, tasks));
    if (restarted != null) {
      e.recover(restarted);
    }
    e.start();
    return e;
  }

  private JobEngine.Session register(JobEngine e, String id, Link link) {
    return h.register(e, id, link);
  }

  /** The executor's heartbeat, every second from now on. */
  private void heartbeats(JobEngine e, JobEngine.Session s) {
    time.every(Duration.ofSeconds(1), () -> e.heard(s));
  }

  private static int succeedAll(JobEngine e, JobEngine.Session s, Link link) {
    return EngineHarness.succeedAll(e, s, link);
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
    assertEquals(Outcome.Status.SUCCEEDED, h.outcome.status());
    assertEquals("all 6 tasks of 2 stages succeeded", h.outcome.diagnostics());
    assertEquals(2, h.names().stream().filter(n -> n.equals(Event.STAGE_COMPLETED.wireName())).count());
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
  void theFirstTasksStartOnceEveryInitialExecutorRegisteredWithoutWaitingOutTheTime() {
    JobEngine e = engine(1, 4, 1.0, Duration.ofMinutes(5));
    Link l1 = new Link();
    Link l2 = new Link();
    register(e, "1", l1);
    assertEquals(0, l1.launched.size());
    register(e, "2", l2);
    assertEquals(4, l1.launched.size() + l2.launched.size(), "both initial executors are here: no more waiting");
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
    assertNotNull(h.outcome);
    assertEquals(Outcome.Status.FAILED, h.outcome.status());
    assertTrue(h.outcome.diagnostics().contains("boom"), h.outcome.diagnostics());
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
    return shuffleEngine(restarted, ShuffleSpec.DEFAULT);
  }

  /** Two maps that write {@code spec}'s shuffle in two partitions, read by two reducers. */
  private JobEngine shuffleEngine(org.elasticam.engine.recovery.Restarted restarted, ShuffleSpec spec) {
    List<Stage> list = List.of(new Stage(0, "map", List.of(), "T", List.of(TaskSpec.EMPTY, TaskSpec.EMPTY), 2, spec),
        Stage.builder(1, "reduce", "T").parents(0).tasks(2).build());
    JobEngine e = h.engine(EngineHarness.settings(0.0, Duration.ZERO), new DagPlan(list));
    if (restarted != null) {
      e.recover(restarted);
    }
    e.start();
    return e;
  }

  @Test
  void aStagesPartitionerKeyOrderAndCombinerReachItsMapsAndItsReducersReadInItsKeyOrder() {
    ShuffleSpec spec = new ShuffleSpec("p.Range", "o.Descending", "c.Sum", Map.of("k", "v"));
    Link maps = new Link();
    register(shuffleEngine(null, spec), "1", maps);
    assertEquals(2, maps.launched.size());
    assertTrue(maps.launched.stream().allMatch(t -> t.write().spec().equals(spec)), "each map is told the spec");
    Link reducers = new Link();
    register(shuffleEngine(stageZeroDoneOnExecutorOne(Set.of("1")), spec), "1", reducers);
    assertEquals(spec, reducers.launched.get(0).reads().get(0).writer(), "a reducer merges in the maps' order");
  }

  @Test
  void afterARestartASurvivorReattachesAndTheCompletedStageDoesNotRunAgain() {
    JobEngine e = shuffleEngine(stageZeroDoneOnExecutorOne(Set.of("1")));
    assertTrue(h.names().contains(Event.STAGE_COMPLETED.wireName()), "stage 0 is known completed: " + h.names());
    Link l1 = new Link();
    JobEngine.Session s1 = register(e, "1", l1);
    assertEquals(2, l1.launched.size());
    assertTrue(l1.launched.stream().allMatch(t -> t.attempt().stageId() == 1), "only the reducers run");
    assertEquals(2, l1.launched.get(0).reads().get(0).maps(), "reading the output the earlier attempt left");
    succeedAll(e, s1, l1);
    assertEquals(Outcome.Status.SUCCEEDED, h.outcome.status());
    assertEquals(4, e.tasksDone(), "progress counts the tasks done before the restart");
  }

  @Test
  void afterARestartTheTasksOfTheRunningStageThatHadSucceededDoNotRunAgain() {
    org.elasticam.engine.recovery.Restarted r = new org.elasticam.engine.recovery.Restarted(
        List.of(new org.elasticam.engine.recovery.Resumption.RecordedStage(0, 500_000, List.of(), List.of())),
        List.of(new org.elasticam.engine.recovery.Resumption.RecordedStage(1, 0, List.of(0, 2), List.of())),
        Set.of(), Duration.ofSeconds(20), 0, 0);
    JobEngine e = engine(2, 4, 0.0, Duration.ZERO, r);
    Link l1 = new Link();
    JobEngine.Session s1 = register(e, "1", l1);
    assertEquals(List.of(1, 3), l1.launched.stream().map(t -> t.attempt().index()).toList(),
        "only the tasks of stage 1 that had not succeeded");
    assertTrue(l1.launched.stream().allMatch(t -> t.attempt().stageId() == 1));
    succeedAll(e, s1, l1);
    assertEquals(Outcome.Status.SUCCEEDED, h.outcome.status(), h.outcome.diagnostics());
    assertEquals(8, e.tasksDone(), "progress counts the tasks done before the restart");
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
    assertTrue(h.names().contains(Event.STAGE_RESUBMITTED.wireName()), h.names().toString());
    assertEquals(List.of(0, 0), l2.launched.stream().map(t -> t.attempt().stageId()).toList(), "both maps again");
    succeedAll(e, s2, l2);
    assertEquals(List.of(1, 1), l2.launched.stream().map(t -> t.attempt().stageId()).toList(), "then the reducers");
    assertEquals("2", l2.launched.get(0).reads().get(0).locations().get(0).executorId(),
        "reading the new output");
    succeedAll(e, s2, l2);
    assertEquals(Outcome.Status.SUCCEEDED, h.outcome.status(), h.outcome.diagnostics());
  }

  @Test
  void anExecutorIsLoggedIdleOnlyWhenNoTaskFollowsItsLastAtOnce() {
    // Executors of one slot: each end leaves its executor with nothing running until the
    // scheduling round after it, which hands it the next waiting task if there is one.
    JobEngine e = engine(2, 3, 1.0, Duration.ofMinutes(5));
    Link l1 = new Link();
    Link l2 = new Link();
    JobEngine.Session s1 = registerOneSlot(e, "1", l1);
    JobEngine.Session s2 = registerOneSlot(e, "2", l2);
    assertEquals(1, l1.launched.size());
    assertEquals(1, l2.launched.size());
    assertEquals(1, succeedAll(e, s1, l1));
    assertEquals(1, l1.launched.size(), "stage 0's third task went to the freed slot at once");
    assertEquals(List.of(), idleExecutors(), "an executor handed its next task at once did not idle");
    assertEquals(1, succeedAll(e, s2, l2));
    assertEquals(List.of("2"), idleExecutors(), "nothing waits for executor 2 while stage 0's last task runs");
    assertEquals(1, succeedAll(e, s1, l1));
    assertEquals(1, l1.launched.size(), "stage 1 started on both executors");
    assertEquals(1, l2.launched.size());
    assertEquals(List.of("2"), idleExecutors(), "executor 1's last end of stage 0 brought it stage 1's work");
  }

  private JobEngine.Session registerOneSlot(JobEngine e, String id, Link link) {
    allocator.launched.putIfAbsent(id, "c" + id);
    return e.register(link, new Registration(id, "h" + id, "c" + id, 1, 100, "17", "/jdk", List.of("/d"), true,
        Map.of()));
  }

  private List<String> idleExecutors() {
    return h.named(Event.EXECUTOR_IDLE).stream().map(w -> String.valueOf(w.kv().get(1))).toList();
  }
}
