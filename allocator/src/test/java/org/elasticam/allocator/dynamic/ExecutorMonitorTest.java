package org.elasticam.allocator.dynamic;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.List;
import org.elasticam.conf.Durations;
import org.junit.jupiter.api.Test;

/** Idle 60 s, cached 120 s, shuffle 240 s, as Spark's ExecutorMonitorSuite. */
class ExecutorMonitorTest {

  private static final long S = 1000;

  private static ExecutorMonitor monitor(boolean tracking) {
    return new ExecutorMonitor(Duration.ofSeconds(60), Duration.ofSeconds(120), Duration.ofSeconds(240), tracking);
  }

  @Test
  void aNewExecutorTimesOutAtTheIdleDeadline() {
    ExecutorMonitor m = monitor(false);
    m.executorAdded("1", 0);
    assertEquals(List.of(), m.timedOut(60 * S - 1));
    assertEquals(List.of("1"), m.timedOut(60 * S));
  }

  @Test
  void runningTasksKeepItBusyAndTheLastEndStartsTheClock() {
    ExecutorMonitor m = monitor(false);
    m.executorAdded("1", 0);
    m.taskStarted("1");
    m.taskStarted("1");
    m.taskEnded("1", 10 * S);
    assertEquals(List.of(), m.timedOut(1000 * S));
    m.taskEnded("1", 20 * S);
    assertEquals(List.of(), m.timedOut(80 * S - 1));
    assertEquals(List.of("1"), m.timedOut(80 * S));
  }

  @Test
  void cachedDataTakesTheLongerTimeout() {
    ExecutorMonitor m = monitor(false);
    m.executorAdded("1", 0);
    m.cachedData("1", true);
    assertEquals(List.of(), m.timedOut(60 * S));
    assertEquals(List.of("1"), m.timedOut(120 * S));
    m.cachedData("1", false);
    assertEquals(List.of("1"), m.timedOut(60 * S));
  }

  @Test
  void theLargestTimeoutThatAppliesWins() {
    ExecutorMonitor m = monitor(true);
    m.executorAdded("1", 0);
    m.cachedData("1", true);
    m.shuffleOutput("1", 7);
    assertEquals(List.of(), m.timedOut(120 * S + 1));
    assertEquals(List.of("1"), m.timedOut(240 * S));
    m.shuffleCleaned(7);
    assertEquals(List.of("1"), m.timedOut(120 * S));
  }

  @Test
  void shuffleOutputDoesNotCountWithoutTracking() {
    ExecutorMonitor m = monitor(false);
    m.executorAdded("1", 0);
    m.shuffleOutput("1", 7);
    assertEquals(List.of("1"), m.timedOut(60 * S));
  }

  @Test
  void infiniteTimeoutsNeverFire() {
    ExecutorMonitor m = new ExecutorMonitor(Duration.ofSeconds(60), Durations.INFINITE, Durations.INFINITE, true);
    m.executorAdded("1", Long.MAX_VALUE / 2);
    m.shuffleOutput("1", 1);
    assertEquals(Long.MAX_VALUE, m.deadlineMs("1"));
    assertEquals(List.of(), m.timedOut(Long.MAX_VALUE - 1));
  }

  @Test
  void outOfOrderEvents() {
    ExecutorMonitor m = monitor(false);
    m.taskStarted("1");
    assertTrue(m.knows("1"), "a task start before the add creates the executor");
    m.executorAdded("1", 0);
    assertEquals(List.of(), m.timedOut(100 * S), "still busy");
    m.executorRemoved("2");
    m.taskStarted("2");
    assertEquals(1, m.executorCount(), "a late event for a removed executor is ignored");
  }

  @Test
  void timedOutExecutorsComeInSparksOrderOfIdsAsStringsAndPendingRemovalsAreSkipped() {
    ExecutorMonitor m = monitor(false);
    for (String id : List.of("10", "2", "1")) {
      m.executorAdded(id, 0);
    }
    assertEquals(List.of("1", "10", "2"), m.timedOut(150 * S));
    m.markPendingRemoval("2");
    assertEquals(List.of("1", "10"), m.timedOut(150 * S));
    assertEquals(1, m.pendingRemovalCount());
  }
}
