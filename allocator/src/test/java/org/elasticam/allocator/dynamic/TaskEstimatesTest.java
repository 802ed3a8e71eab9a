package org.elasticam.allocator.dynamic;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Optional;
import java.util.OptionalDouble;
import org.junit.jupiter.api.Test;

class TaskEstimatesTest {

  @Test
  void withNothingRunningTheMedianIsTheFinishedTasksMedian() {
    assertEquals(OptionalDouble.of(300), TaskEstimates.medianWithRunning(List.of(500L, 100L, 300L, 200L, 900L), 1, List.of()));
  }

  @Test
  void runningTasksCountAsLastingAtLeastTheirAge() {
    // 3 short tasks finished, 7 still run after 5 s: most tasks are long, the median is unknown.
    assertFalse(TaskEstimates.medianWithRunning(List.of(200L, 300L, 400L), 1, List.of(5_000L, 5_000L, 5_000L,
        5_000L, 5_000L, 5_000L, 5_000L)).isPresent());
    // 6 of 10 finished by 700 ms, 4 run for 5 s: the median is the fifth to finish.
    assertEquals(OptionalDouble.of(600), TaskEstimates.medianWithRunning(List.of(100L, 200L, 300L, 400L, 600L, 700L),
        1, List.of(5_000L, 5_000L, 5_000L, 5_000L)));
  }

  @Test
  void aTaskThatStartedLateSaysNothingAboutDurationsBeyondItsAge() {
    // 3 finished at 1, 3 and 4 s; 2 started 0.5 s ago. Those leave the risk set before 1 s:
    // S(1 s) = 1 - 1/3, S(3 s) = 2/3 x (1 - 1/2) = 1/3, so the median is 3 s (counting their
    // ages as durations would make it 1 s).
    assertEquals(OptionalDouble.of(3_000), TaskEstimates.medianWithRunning(List.of(1_000L, 3_000L, 4_000L), 1,
        List.of(500L, 500L)));
  }

  @Test
  void keptSamplesStandForTheFinishedTasksBeyondTheCap() {
    // 2 kept samples standing for 10 finished tasks each, against 8 running for 5 s.
    assertEquals(OptionalDouble.of(200), TaskEstimates.medianWithRunning(List.of(100L, 200L), 10,
        List.of(5_000L, 5_000L, 5_000L, 5_000L, 5_000L, 5_000L, 5_000L, 5_000L)));
  }

  @Test
  void aStageWhoseShortTasksFinishFirstIsNotTakenForAShortStage() {
    TaskEstimates e = new TaskEstimates();
    long now = 10_000;
    for (int i = 0; i < 20; i++) {
      e.taskStarted(new TaskInfo(1, 0, i, "e" + i, false), now);
    }
    now += 8_000;
    for (int i = 0; i < 4; i++) {
      e.taskEnded(new TaskInfo(1, 0, i, "e" + i, false), TaskOutcome.SUCCESS, 300 + 100 * i);
    }
    Optional<TaskEstimates.Duration> d = e.taskMs(1, 0, now);
    assertTrue(d.isPresent());
    assertFalse(d.get().measured(), "16 of 20 have run 8 s: the stage is still only bounded");
    assertEquals(16_000, d.get().ms(), 1e-9, "twice the oldest running task's age");
    for (int i = 4; i < 14; i++) {
      e.taskEnded(new TaskInfo(1, 0, i, "e" + i, false), TaskOutcome.SUCCESS, 8_000);
    }
    d = e.taskMs(1, 0, now);
    assertTrue(d.get().measured());
    assertEquals(8_000, d.get().ms(), 1e-9, "14 of 20 finished: the median is a long one, not the first to finish");
  }
}
