package org.elasticam.conf;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.elasticam.time.ManualClock;
import org.elasticam.time.ManualScheduler;
import org.elasticam.time.Scheduler;
import org.junit.jupiter.api.Test;

class ManualSchedulerTest {

  @Test
  void tasksRunInDueOrderWithTheClockAtTheirDueTime() {
    ManualScheduler s = new ManualScheduler(new ManualClock(1_000));
    List<String> ran = new ArrayList<>();
    s.schedule(Duration.ofMillis(300), () -> ran.add("b@" + s.clock().nowMs()));
    s.schedule(Duration.ofMillis(100), () -> ran.add("a@" + s.clock().nowMs()));
    s.schedule(Duration.ofMillis(300), () -> ran.add("c@" + s.clock().nowMs()));
    s.advance(Duration.ofMillis(200));
    assertEquals(List.of("a@1100"), ran);
    assertEquals(1_200, s.clock().nowMs());
    s.advance(Duration.ofMillis(500));
    assertEquals(List.of("a@1100", "b@1300", "c@1300"), ran);
    assertEquals(1_700, s.clock().nowMs());
  }

  @Test
  void aTaskScheduledByATaskRunsInTheSameAdvanceWhenDue() {
    ManualScheduler s = new ManualScheduler(new ManualClock());
    List<Long> ran = new ArrayList<>();
    s.schedule(Duration.ofMillis(10), () -> s.schedule(Duration.ofMillis(10), () -> ran.add(s.clock().nowMs())));
    s.advance(Duration.ofMillis(25));
    assertEquals(List.of(20L), ran);
  }

  @Test
  void periodicTasksRepeatUntilCancelled() {
    ManualScheduler s = new ManualScheduler(new ManualClock());
    List<Long> ran = new ArrayList<>();
    Scheduler.Cancellable c = s.every(Duration.ofMillis(100), () -> ran.add(s.clock().nowMs()));
    s.advance(Duration.ofMillis(350));
    assertEquals(List.of(100L, 200L, 300L), ran);
    c.cancel();
    s.advance(Duration.ofMillis(500));
    assertEquals(3, ran.size());
    assertEquals(0, s.pending());
  }
}
