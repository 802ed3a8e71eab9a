package org.elasticam.allocator.dynamic;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.elasticam.conf.Durations;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Spark's ExecutorAllocationManager scenarios, with Spark's test settings: backlog 1 s, sustained
 * backlog 2 s, idle timeout 3 s; time moves only when the test says.
 */
class SparkPolicyTest {

  private long now = 10_000;
  private int nextTask;

  private static PolicySettings settings(int min, int max, int initial, int cores, double ratio) {
    return new PolicySettings(min, max, initial, ratio, cores, 1, Duration.ofSeconds(1), Duration.ofSeconds(2),
        Duration.ofSeconds(3), Durations.INFINITE, Durations.INFINITE, false, Duration.ofSeconds(3), 2.2, 10.0);
  }

  private static SparkPolicy policy(int min, int max, int initial) {
    return new SparkPolicy(settings(min, max, initial, 1, 1.0));
  }

  private PolicyDecision tickAt(SparkPolicy p, long t) {
    now = t;
    return p.tick(now);
  }

  /** One add round: the time moves to the next add time and the policy ticks. */
  private int addRound(SparkPolicy p) {
    int before = p.target();
    if (p.addTimeMs() != Long.MAX_VALUE) {
      now = Math.max(now, p.addTimeMs());
    }
    p.tick(now);
    return p.target() - before;
  }

  private void submit(SparkPolicy p, int stage, int tasks) {
    p.stageSubmitted(StageInfo.simple(stage, tasks), now);
  }

  private TaskInfo start(SparkPolicy p, int stage, int index, String exec) {
    TaskInfo t = new TaskInfo(stage, 0, index, exec, false);
    p.taskStarted(t, now);
    return t;
  }

  @Test
  void startsAtTheInitialTarget() {
    SparkPolicy p = policy(1, 5, 1);
    assertEquals(1, p.target());
    assertEquals(Long.MAX_VALUE, p.addTimeMs());
  }

  @Test
  void addsExponentiallyCappedAtMax() {
    SparkPolicy p = policy(1, 10, 1);
    submit(p, 0, 1000);
    int[] deltas = {addRound(p), addRound(p), addRound(p), addRound(p), addRound(p)};
    assertEquals(List.of(1, 2, 4, 2, 0), List.of(deltas[0], deltas[1], deltas[2], deltas[3], deltas[4]));
    assertEquals(10, p.target());
    assertEquals(1, p.numToAdd());
  }

  @ParameterizedTest(name = "cores {0}, ratio {1} -> {2}")
  @CsvSource({"1, 0.5, 10", "1, 0.3333333, 7", "2, 0.3333333, 4", "1, 0.385, 8", "1, 1.0, 15", "4, 0.3333333, 3"})
  void allocationRatioScalesTheNeed(int cores, double ratio, int expected) {
    SparkPolicy p = new SparkPolicy(settings(3, 15, 3, cores, ratio));
    submit(p, 0, 20);
    for (int i = 0; i < 6; i++) {
      addRound(p);
    }
    assertEquals(expected, p.target());
  }

  @Test
  void addsAreCappedByTheTasksThatNeedThem() {
    SparkPolicy p = policy(0, 10, 0);
    submit(p, 0, 5);
    assertEquals(1, addRound(p));
    assertEquals(2, addRound(p));
    assertEquals(2, addRound(p));
    assertEquals(5, p.target());
    assertEquals(1, p.numToAdd());
    submit(p, 1, 3);
    start(p, 1, 0, "e1");
    assertEquals(1, addRound(p));
    assertEquals(2, addRound(p));
    assertEquals(0, addRound(p));
    assertEquals(8, p.target());
  }

  @Test
  void speculativeCopiesRaiseTheNeed() {
    SparkPolicy p = policy(0, 10, 0);
    submit(p, 0, 2);
    p.speculativeTaskSubmitted(0, 0, 0, now);
    p.speculativeTaskSubmitted(0, 0, 1, now);
    p.speculativeTaskSubmitted(0, 0, 2, now);
    assertEquals(1, addRound(p));
    assertEquals(2, addRound(p));
    assertEquals(2, addRound(p));
    assertEquals(5, p.target());
    start(p, 0, 0, "e1");
    p.taskStarted(new TaskInfo(0, 0, 0, "e2", true), now);
    assertEquals(0, addRound(p));
    assertEquals(5, p.target());
  }

  @Test
  void theBacklogTimerIsSetOnceAndClearedWhenAllTasksRun() {
    SparkPolicy p = policy(1, 20, 1);
    now = 8_888;
    submit(p, 0, 2);
    long first = p.addTimeMs();
    assertEquals(9_888, first);
    now += 100;
    submit(p, 1, 1);
    now += 200;
    p.speculativeTaskSubmitted(1, 0, 0, now);
    assertEquals(first, p.addTimeMs());
    start(p, 0, 0, "e");
    start(p, 0, 1, "e");
    start(p, 1, 0, "e");
    p.taskStarted(new TaskInfo(1, 0, 0, "e", true), now);
    assertEquals(Long.MAX_VALUE, p.addTimeMs());
  }

  @Test
  void pollingAddsOnTheBacklogClock() {
    SparkPolicy p = policy(0, 20, 0);
    long t0 = now;
    submit(p, 0, 1000);
    assertEquals(0, tickAt(p, t0 + 500).target());
    assertEquals(1, tickAt(p, t0 + 1_500).target());
    assertEquals(1, tickAt(p, t0 + 2_500).target());
    assertEquals(3, tickAt(p, t0 + 3_500).target());
    assertEquals(7, tickAt(p, t0 + 5_500).target());
    assertEquals(15, tickAt(p, t0 + 7_500).target());
    assertEquals(20, tickAt(p, t0 + 9_500).target());
  }

  @Test
  void theRampNeverCountsThroughExecutorsAlreadyRegistered() {
    SparkPolicy p = policy(0, 100_000, 0);
    submit(p, 0, 1000);
    for (int i = 0; i < 4; i++) {
      addRound(p);
    }
    assertEquals(15, p.target());
    for (int i = 1; i <= 15; i++) {
      p.executorAdded(String.valueOf(i), -1, now);
    }
    p.stageCompleted(0, 0, now);
    p.tick(now);
    assertEquals(0, p.target());
    submit(p, 1, 1000);
    addRound(p);
    assertEquals(16, p.target());
  }

  @Test
  void theInitialTargetIsHeldUntilTheFirstStage() {
    SparkPolicy p = policy(2, 5, 3);
    assertEquals(3, tickAt(p, now + 100_000).target());
    submit(p, 0, 2);
    assertEquals(2, p.tick(now).target());
  }

  @Test
  void theInitialTargetIsHeldUntilAnExecutorIdlesOut() {
    SparkPolicy p = policy(1, 5, 3);
    for (int i = 1; i <= 3; i++) {
      p.executorAdded(String.valueOf(i), -1, now);
    }
    assertEquals(3, tickAt(p, now + 2_999).target());
    PolicyDecision d = tickAt(p, now + 1);
    assertEquals(1, d.target());
    assertEquals("the need fell to 0 executor(s)", d.reason());
  }

  @Test
  void anIdleKillDoesNotLowerTheTarget() {
    SparkPolicy p = policy(1, 2, 1);
    p.executorAdded("1", -1, now);
    submit(p, 0, 2);
    addRound(p);
    assertEquals(2, p.target());
    p.executorAdded("2", -1, now);
    TaskInfo a = start(p, 0, 0, "1");
    start(p, 0, 1, "2");
    p.taskEnded(a, TaskOutcome.SUCCESS, 10, now);
    p.tick(now);
    assertEquals(1, p.target());
    PolicyDecision d = tickAt(p, now + 3_000);
    assertEquals(List.of("1"), d.remove());
    assertEquals(1, d.target());
  }

  @Test
  void removalStopsAtTheMinimum() {
    SparkPolicy p = policy(1, 20, 1);
    for (int i = 1; i <= 3; i++) {
      p.executorAdded(String.valueOf(i), -1, now);
    }
    assertEquals(List.of(), tickAt(p, now + 1_500).remove());
    assertEquals(List.of("1", "2"), tickAt(p, now + 3_000).remove(), "only down to min 1");
    assertEquals(List.of(), tickAt(p, now + 10_000).remove());
  }

  @Test
  void removalStopsAtTheTarget() {
    SparkPolicy p = policy(5, 12, 5);
    submit(p, 0, 8);
    for (int i = 1; i <= 8; i++) {
      p.executorAdded(String.valueOf(i), -1, now);
    }
    for (int i = 0; i < 3; i++) {
      addRound(p);
    }
    assertEquals(8, p.target());
    TaskInfo[] t = new TaskInfo[8];
    for (int i = 0; i < 8; i++) {
      t[i] = start(p, 0, i, String.valueOf(i + 1));
    }
    for (int i = 0; i < 3; i++) {
      p.taskEnded(t[i], TaskOutcome.SUCCESS, 1, now);
    }
    PolicyDecision d = tickAt(p, now + 3_000);
    assertEquals(5, d.target());
    assertEquals(List.of("1", "2", "3"), d.remove());
  }

  @Test
  void aFailedTaskStillNeedsAnExecutor() {
    SparkPolicy p = policy(0, 10, 0);
    submit(p, 0, 1);
    assertEquals(1, p.maxNeeded());
    TaskInfo t = start(p, 0, 0, "e");
    assertEquals(1, p.maxNeeded());
    p.taskEnded(t, TaskOutcome.FAILED, 5, now);
    assertEquals(1, p.maxNeeded());
    assertTrue(p.addTimeMs() != Long.MAX_VALUE, "the retry marks a backlog");
  }

  @Test
  void aSecondAttemptOfTheSameIndexIsNotCountedTwice() {
    SparkPolicy p = policy(0, 10, 0);
    submit(p, 0, 5);
    addRound(p);
    addRound(p);
    start(p, 0, 0, "e1");
    addRound(p);
    assertEquals(5, p.target());
    TaskInfo a = start(p, 0, 1, "e1");
    TaskInfo b = start(p, 0, 1, "e2");
    p.taskEnded(a, TaskOutcome.SUCCESS, 1, now);
    p.taskEnded(b, TaskOutcome.SUCCESS, 1, now);
    p.tick(now);
    assertEquals(4, p.target(), "pending = 5 - 2 distinct indices, plus 1 running");
  }

  @Test
  void localityHintsAreSummedOverActiveStages() {
    SparkPolicy p = policy(0, 10, 0);
    p.stageSubmitted(new StageInfo(1, 0, 5, 3, Map.of("h1", 2, "h2", 3, "h3", 2, "h4", 2), -1), now);
    p.stageSubmitted(new StageInfo(2, 0, 3, 2, Map.of("h2", 1, "h3", 2, "h4", 1, "h5", 2), -1), now);
    PolicyDecision d = p.tick(now);
    assertEquals(5, d.localityAwareTasks());
    assertEquals(Map.of("h1", 2, "h2", 4, "h3", 4, "h4", 3, "h5", 2), d.hostToLocalTaskCount());
    p.stageCompleted(1, 0, now);
    d = p.tick(now);
    assertEquals(2, d.localityAwareTasks());
    assertEquals(Map.of("h2", 1, "h3", 2, "h4", 1, "h5", 2), d.hostToLocalTaskCount());
  }

  @Test
  void resetGoesBackToTheInitialState() {
    SparkPolicy p = policy(1, 10, 1);
    submit(p, 0, 1000);
    addRound(p);
    addRound(p);
    p.executorAdded("1", -1, now);
    p.reset(now);
    assertEquals(1, p.target());
    assertEquals(1, p.numToAdd());
    assertEquals(0, p.monitor().executorCount());
    assertEquals(now, p.addTimeMs(), "the add path runs at once after a reset");
    // Spark 3.5.3's reset() leaves its initializing flag alone: a backlog after the reset adds at once.
    assertEquals(2, p.tick(now).target(), "no return to initializing: the backlog ramps at once");
  }
}
