package org.elasticam.engine.scheduling;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.elasticam.api.Stage;
import org.elasticam.api.TaskSpec;
import org.junit.jupiter.api.Test;

/** Speculation and the output commit coordinator, on the scheduler with time passed in. */
class SpeculationTest {

  private final TaskScheduler s = new TaskScheduler(4, Duration.ZERO, h -> null);

  SpeculationTest() {
    s.speculation(new TaskScheduler.Speculation(true, 1.5, 0.75, 100));
  }

  private static Stage stage(int id, int tasks) {
    Stage.Builder b = Stage.builder(id, "s" + id, "T");
    for (int i = 0; i < tasks; i++) {
      b.task(new TaskSpec(Map.of(), List.of()));
    }
    return b.build();
  }

  private List<TaskAttempt> offer(long now, String executor, String host, int slots) {
    s.executorUp(executor, host);
    return s.schedule(List.of(new TaskScheduler.Offer(executor, host, slots)), now);
  }

  /** Four tasks on h1; three finish at 1 s; the fourth is the straggler. */
  private TaskAttempt straggler() {
    s.submit(stage(0, 4), 0);
    List<TaskAttempt> run = offer(0, "e1", "h1", 4);
    for (int i = 0; i < 3; i++) {
      s.taskEnded(run.get(i).taskId(), true, false, "", 1_000);
    }
    return run.get(3);
  }

  /** The straggler found slow at {@code nowMs} and its copy launched on h2. */
  private TaskAttempt copyOnH2(long nowMs) {
    s.findSlowTasks(nowMs);
    return offer(nowMs, "e2", "h2", 1).get(0);
  }

  @Test
  void aTaskSlowerThanTheMultiplierTimesTheMedianGetsOneCopyOnAnotherHost() {
    TaskAttempt slow = straggler();
    assertEquals(List.of(), s.findSlowTasks(1_500), "at 1.5 s it has run exactly 1.5 x the median: not over");
    List<TaskScheduler.SlowTask> found = s.findSlowTasks(1_501);
    assertEquals(1, found.size());
    assertEquals(slow.taskId(), found.get(0).attempt().taskId());
    assertEquals(1_500, found.get(0).thresholdMs());
    assertEquals(List.of(), s.findSlowTasks(5_000), "found once");
    assertEquals(1, s.speculativePending());
    assertEquals(List.of(), offer(1_600, "e1", "h1", 4), "never on a host where the task runs");
    List<TaskAttempt> copy = offer(1_600, "e2", "h2", 4);
    assertEquals(1, copy.size());
    assertTrue(copy.get(0).speculative());
    assertEquals(3, copy.get(0).index());
    assertEquals(1, copy.get(0).attempt(), "the copy is the task's next attempt");
    assertEquals(0, s.speculativePending());
    assertEquals(0, s.pendingTasks(), "a copy is not a pending task");
  }

  @Test
  void theFirstToSucceedCompletesTheTaskAndTheOtherIsRedundantAndUncounted() {
    TaskAttempt slow = straggler();
    TaskAttempt copy = copyOnH2(2_000);
    TaskScheduler.TaskEnd won = s.taskEnded(copy.taskId(), true, false, "", 500).orElseThrow();
    assertTrue(won.counted());
    assertEquals(List.of(slow.taskId()), won.redundant().stream().map(TaskAttempt::taskId).toList(),
        "the original is to be killed");
    assertEquals(java.util.Optional.of(0), won.stageCompleted());
    TaskScheduler.TaskEnd late = s.taskEnded(slow.taskId(), true, false, "", 3_000).orElseThrow();
    assertFalse(late.counted(), "the original's late success is not used");
    assertEquals(4, s.doneTasks(), "each task counted once");
  }

  @Test
  void aFailedCopyLeavesTheOriginalRunningAndIsNotRunAgain() {
    TaskAttempt slow = straggler();
    TaskAttempt copy = copyOnH2(2_000);
    assertTrue(s.taskEnded(copy.taskId(), false, false, "boom", 100).orElseThrow().counted());
    assertEquals(0, s.pendingTasks(), "the original still runs: nothing to re-run");
    assertEquals(List.of(), s.findSlowTasks(9_000), "a task is copied at most once");
    assertTrue(s.taskEnded(slow.taskId(), true, false, "", 9_000).orElseThrow().stageCompleted().isPresent());
  }

  @Test
  void nothingIsCopiedBeforeTheQuantileOfTheStageSucceededNorBelowTheMinimumRunTime() {
    s.submit(stage(0, 4), 0);
    List<TaskAttempt> run = offer(0, "e1", "h1", 4);
    s.taskEnded(run.get(0).taskId(), true, false, "", 10);
    s.taskEnded(run.get(1).taskId(), true, false, "", 10);
    assertEquals(List.of(), s.findSlowTasks(60_000), "2 of 4 done: under 0.75");
    s.taskEnded(run.get(2).taskId(), true, false, "", 10);
    assertEquals(List.of(), s.findSlowTasks(100), "1.5 x 10 ms is under the 100 ms minimum");
    assertEquals(1, s.findSlowTasks(101).size());
  }

  @Test
  void offNothingIsEverCopied() {
    s.speculation(TaskScheduler.Speculation.OFF);
    straggler();
    assertEquals(List.of(), s.findSlowTasks(1_000_000));
  }

  @Test
  void oneAttemptPerTaskMayCommitAndAFailedHoldersRightPassesOn() {
    TaskAttempt slow = straggler();
    TaskAttempt copy = copyOnH2(2_000);
    assertTrue(s.mayCommit(copy.taskId()), "first to ask");
    assertTrue(s.mayCommit(copy.taskId()), "asking again is answered the same");
    assertFalse(s.mayCommit(slow.taskId()), "the copy holds the right");
    assertTrue(s.commitHeldByAnother(slow.taskId()));
    s.taskEnded(copy.taskId(), false, false, "lost its disk", 100);
    assertTrue(s.mayCommit(slow.taskId()), "the holder failed: the original may commit now");
  }

  @Test
  void noAttemptMayCommitATaskAlreadyDone() {
    TaskAttempt slow = straggler();
    TaskAttempt copy = copyOnH2(2_000);
    assertTrue(s.mayCommit(slow.taskId()));
    s.taskEnded(slow.taskId(), true, false, "", 2_100);
    assertFalse(s.mayCommit(copy.taskId()), "the task is done");
    assertFalse(s.mayCommit(424242), "an attempt the scheduler does not know");
  }
}
