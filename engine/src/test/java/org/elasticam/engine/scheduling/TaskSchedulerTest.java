package org.elasticam.engine.scheduling;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.elasticam.api.Stage;
import org.elasticam.api.TaskSpec;
import org.junit.jupiter.api.Test;

class TaskSchedulerTest {

  private static final Map<String, String> RACKS = Map.of("h1", "/r1", "h2", "/r1", "h3", "/r2");
  private final TaskScheduler s = new TaskScheduler(4, Duration.ofSeconds(3), RACKS::get);

  private static Stage stage(int id, String... preferred) {
    Stage.Builder b = Stage.builder(id, "s" + id, "T");
    for (String h : preferred) {
      b.task(new TaskSpec(Map.of(), h.isEmpty() ? List.of() : List.of(h)));
    }
    return b.build();
  }

  private List<TaskAttempt> offer(long now, TaskScheduler.Offer... offers) {
    for (TaskScheduler.Offer o : offers) {
      s.executorUp(o.executorId(), o.host());
    }
    return s.schedule(List.of(offers), now);
  }

  @Test
  void aStagePartlyDoneBeforeAnAmRestartRunsOnlyTheRestAndThenCompletes() {
    s.submit(stage(0, "", "", "", ""), java.util.Set.of(0, 2), 0);
    assertEquals(2, s.pendingTasks());
    assertEquals(2, s.doneTasks(), "the tasks done before count towards progress");
    List<TaskAttempt> run = offer(0, new TaskScheduler.Offer("e1", "h1", 4));
    assertEquals(List.of(1, 3), run.stream().map(TaskAttempt::index).sorted().toList());
    assertTrue(s.taskEnded(run.get(0).taskId(), true, false, null).orElseThrow().stageCompleted().isEmpty());
    assertEquals(Optional.of(0), s.taskEnded(run.get(1).taskId(), true, false, null).orElseThrow().stageCompleted());
    org.junit.jupiter.api.Assertions.assertThrows(IllegalArgumentException.class,
        () -> s.submit(stage(1, "", ""), java.util.Set.of(0, 1), 0), "a stage with nothing left is complete, not submitted");
  }

  @Test
  void mapTasksStayOffAHostWhoseShuffleOutputCouldNotBeFetchedWhileAnotherHostHasAnExecutor() {
    Stage maps = Stage.builder(0, "maps", "T").tasks(2).writesShuffle(2).build();
    Stage other = Stage.builder(1, "other", "T").tasks(1).build();
    s.executorUp("e1", "h1");
    s.executorUp("e3", "h3");
    s.avoidForShuffleOutput("h1", 10_000);
    s.submit(maps, 0);
    s.submit(other, 0);

    List<TaskAttempt> onH1 = offer(0, new TaskScheduler.Offer("e1", "h1", 4));
    assertEquals(List.of(1), onH1.stream().map(TaskAttempt::stageId).toList(), "only the stage writing no shuffle output");
    assertEquals(2, offer(0, new TaskScheduler.Offer("e3", "h3", 4)).size(), "the maps run on h3");

    s.submit(Stage.builder(2, "late maps", "T").tasks(1).writesShuffle(1).build(), 0);
    s.executorLost("e3");
    assertEquals(3, offer(1, new TaskScheduler.Offer("e1", "h1", 4)).size(),
        "no other host: h1 runs the late maps and the two e3 lost");

    s.executorUp("e3", "h3");
    s.submit(Stage.builder(3, "later maps", "T").tasks(1).writesShuffle(1).build(), 0);
    assertEquals(1, offer(10_000, new TaskScheduler.Offer("e1", "h1", 4)).size(), "the avoidance ended");
  }

  @Test
  void nodeLocalFirstThenWaitsBeforeGoingElsewhere() {
    s.executorUp("e1", "h1");
    s.submit(stage(0, "h1", "h1"), 0);
    assertEquals(List.of(), offer(0, new TaskScheduler.Offer("e3", "h3", 2)), "h3 is neither node nor rack local");
    List<TaskAttempt> local = offer(0, new TaskScheduler.Offer("e1", "h1", 1));
    assertEquals(Locality.NODE_LOCAL, local.get(0).locality());
    assertEquals(List.of(), offer(2_999, new TaskScheduler.Offer("e3", "h3", 1)));
    // After one wait, rack-local is allowed: h2 shares h1's rack.
    assertEquals(List.of(), offer(3_000, new TaskScheduler.Offer("e3", "h3", 1)));
    List<TaskAttempt> rack = offer(3_000, new TaskScheduler.Offer("e2", "h2", 1));
    assertEquals(Locality.RACK_LOCAL, rack.get(0).locality());
  }

  @Test
  void localLaunchesDoNotHoldBackAStageThatDeclinesAFreeSlotBesideThem() {
    s.submit(stage(0, "h1", "h1", "h1", "h1", "h1", "h1"), 0);
    TaskScheduler.Offer e1 = new TaskScheduler.Offer("e1", "h1", 1);
    TaskScheduler.Offer e2 = new TaskScheduler.Offer("e2", "h2", 1);
    for (long t = 0; t < 3_000; t += 1_000) {
      List<TaskAttempt> launched = offer(t, e1, e2);
      assertEquals(1, launched.size(), "e2 is declined at " + t + " ms: only node-local so far");
      assertEquals("e1", launched.get(0).executorId());
      s.taskEnded(launched.get(0).taskId(), true, false, "");
    }
    // Each round launched on h1 but declined e2: the wait since the stage began is not restarted
    // (Spark before 3.1 restarted it at every local launch, and e2 would idle as long as h1 kept up).
    List<TaskAttempt> launched = offer(3_000, e1, e2);
    assertEquals(2, launched.size());
    assertEquals(Locality.RACK_LOCAL, launched.stream().filter(a -> a.executorId().equals("e2")).findFirst()
        .orElseThrow().locality());
  }

  @Test
  void aRoundThatDeclinesNoFreeSlotRestartsTheWait() {
    s.submit(stage(0, "h1", "h1", "h1"), 0);
    TaskScheduler.Offer e1 = new TaskScheduler.Offer("e1", "h1", 1);
    TaskAttempt first = offer(0, e1).get(0);
    s.taskEnded(first.taskId(), true, false, "");
    assertEquals(Locality.NODE_LOCAL, offer(2_500, e1).get(0).locality(), "every free slot taken: the wait restarts");
    TaskScheduler.Offer e2 = new TaskScheduler.Offer("e2", "h2", 1);
    assertEquals(List.of(), offer(5_499, e2), "e1 is busy; 3 s have not passed since 2.5 s");
    assertEquals(Locality.RACK_LOCAL, offer(5_500, e2).get(0).locality());
  }

  @Test
  void aRackLocalLaunchDoesNotSendTheStageBackToWaitingForNodeLocal() {
    s.submit(stage(0, "h1", "h1", "h1"), 0);
    s.executorUp("e1", "h1");
    offer(3_000, new TaskScheduler.Offer("e2", "h2", 1));
    // e1 is busy elsewhere; h2 shares the rack, and after the wait each further task goes there at once.
    assertEquals(Locality.RACK_LOCAL, offer(3_000, new TaskScheduler.Offer("e2", "h2", 1)).get(0).locality());
    assertEquals(Locality.RACK_LOCAL, offer(3_001, new TaskScheduler.Offer("e3", "h2", 1)).get(0).locality());
  }

  @Test
  void levelsNoLiveExecutorCanServeAreNotWaitedFor() {
    s.submit(stage(0, "h9", "h9"), 0);
    // No executor on h9 or its rack: the stage does not wait at all.
    assertEquals(Locality.ANY, offer(0, new TaskScheduler.Offer("e1", "h1", 1)).get(0).locality());
    assertEquals(Locality.ANY, offer(1, new TaskScheduler.Offer("e1b", "h1", 1)).get(0).locality());
  }

  @Test
  void afterTwoWaitsAnyHostWill() {
    s.executorUp("e1", "h1");
    s.submit(stage(0, "h1"), 0);
    assertEquals(List.of(), offer(5_999, new TaskScheduler.Offer("e3", "h3", 1)));
    assertEquals(Locality.ANY, offer(6_000, new TaskScheduler.Offer("e3", "h3", 1)).get(0).locality());
  }

  @Test
  void tasksWithoutPreferencesRunAnywhereAtOnceAndSpreadOverExecutors() {
    s.submit(stage(0, "", "", "", ""), 0);
    List<TaskAttempt> a = offer(0, new TaskScheduler.Offer("e1", "h1", 2), new TaskScheduler.Offer("e2", "h2", 2));
    assertEquals(4, a.size());
    assertEquals(List.of("e1", "e2", "e1", "e2"), a.stream().map(TaskAttempt::executorId).toList());
  }

  @Test
  void failuresAreRetriedThenFailTheJob() {
    s.submit(stage(0, ""), 0);
    Optional<String> failure = Optional.empty();
    for (int i = 0; i < 4; i++) {
      TaskAttempt a = offer(i, new TaskScheduler.Offer("e1", "h1", 1)).get(0);
      assertEquals(i, a.attempt());
      failure = s.taskEnded(a.taskId(), false, false, "java.lang.RuntimeException: boom\n\tat X").orElseThrow().jobFailure();
    }
    assertTrue(failure.orElseThrow().startsWith("Task 0 of stage 0 (s0) failed 4 times"), failure.get());
    assertTrue(failure.get().endsWith("last error: RuntimeException: boom at X"), failure.get());
  }

  @Test
  void killedTasksDoNotCountAsFailures() {
    s.submit(stage(0, ""), 0);
    for (int i = 0; i < 10; i++) {
      TaskAttempt a = offer(i, new TaskScheduler.Offer("e1", "h1", 1)).get(0);
      assertTrue(s.taskEnded(a.taskId(), false, true, "").orElseThrow().jobFailure().isEmpty());
    }
  }

  @Test
  void aLostExecutorsTasksGoBackToPending() {
    s.submit(stage(0, "", ""), 0);
    offer(0, new TaskScheduler.Offer("e1", "h1", 2));
    assertEquals(0, s.pendingTasks());
    assertEquals(2, s.executorLost("e1").size());
    assertEquals(2, s.pendingTasks());
    assertEquals(0, s.runningTasks());
  }

  @Test
  void stageCompletesWhenEveryTaskSucceeded() {
    s.submit(stage(0, "", ""), 0);
    List<TaskAttempt> a = offer(0, new TaskScheduler.Offer("e1", "h1", 2));
    assertTrue(s.taskEnded(a.get(0).taskId(), true, false, "").orElseThrow().stageCompleted().isEmpty());
    assertEquals(Optional.of(0), s.taskEnded(a.get(1).taskId(), true, false, "").orElseThrow().stageCompleted());
    assertEquals(2, s.doneTasks());
    assertTrue(s.taskEnded(a.get(1).taskId(), true, false, "").isEmpty(), "a duplicate report is ignored");
  }

  @Test
  void localityHintsSumOverActiveStages() {
    s.submit(stage(0, "h1", "h2", ""), 0);
    s.submit(stage(1, "h1"), 0);
    assertEquals(3, s.localityAwareTasks());
    assertEquals(Map.of("h1", 2, "h2", 1), s.hostToLocalTaskCount());
  }

  @Test
  void firstStageFirst() {
    s.submit(stage(0, ""), 0);
    s.submit(stage(1, ""), 0);
    assertEquals(0, offer(0, new TaskScheduler.Offer("e1", "h1", 1)).get(0).stageId());
  }

  @Test
  void lostOutputReRunsOnlyThoseTasksWhileThePausedReaderWaits() {
    Stage maps = stage(0, "", "", "");
    s.submit(maps, 0);
    for (TaskAttempt a : offer(0, new TaskScheduler.Offer("e1", "h1", 3))) {
      s.taskEnded(a.taskId(), true, false, "");
    }
    assertTrue(!s.isActive(0));
    assertEquals(3, s.doneTasks());
    s.submit(stage(1, "", ""), 10);
    s.pause(1);
    s.resubmit(maps, List.of(2), 10);
    assertEquals(2, s.doneTasks(), "the lost task is no longer done");
    List<TaskAttempt> rerun = offer(10, new TaskScheduler.Offer("e1", "h1", 4));
    assertEquals(1, rerun.size(), "only the lost map runs; the paused reader waits");
    assertEquals(0, rerun.get(0).stageId());
    assertEquals(2, rerun.get(0).index());
    assertEquals(1, rerun.get(0).attempt(), "a second attempt of that task");
    Optional<TaskScheduler.TaskEnd> end = s.taskEnded(rerun.get(0).taskId(), true, false, "");
    assertEquals(Optional.of(0), end.get().stageCompleted(), "the map stage completes again");
    s.resume(1, 20);
    assertEquals(2, offer(20, new TaskScheduler.Offer("e1", "h1", 4)).size());
  }

  @Test
  void anExcludedHostGetsNoTaskWhileItLasts() {
    TaskFailureExclusions x = new TaskFailureExclusions(true, 1, Duration.ofSeconds(10));
    s.excludeOnFailure(x);
    s.submit(stage(0, "h1", "h1", ""), 0);
    s.executorUp("e2", "h2");
    assertTrue(x.taskFailed("h1", 0, s.hostsWithExecutors()).isPresent(), "h2 has an executor: h1 may go");
    assertEquals(List.of(), offer(100, new TaskScheduler.Offer("e1", "h1", 4)), "excluded: nothing, preferred or not");
    assertEquals(3, offer(20_000, new TaskScheduler.Offer("e1", "h1", 4)).size(), "the exclusion expired");
  }
}
