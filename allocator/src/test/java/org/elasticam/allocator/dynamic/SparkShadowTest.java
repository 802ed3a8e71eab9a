package org.elasticam.allocator.dynamic;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import org.elasticam.conf.Durations;
import org.junit.jupiter.api.Test;

/** Spark's rule in shadow: the executors it would hold, and the time spent behind it. */
class SparkShadowTest {

  private long now = 100_000;

  private static SparkShadow shadow() {
    return new SparkShadow(new PolicySettings(0, 100, 0, 1.0, 1, 1, Duration.ofSeconds(1), Duration.ofSeconds(1),
        Duration.ofSeconds(60), Durations.INFINITE, Durations.INFINITE, false, Duration.ofSeconds(3), 1.5, 7.0));
  }

  /** A stage of {@code tasks} tasks whose first task runs on executor 1 and ends, leaving it idle. */
  private SparkShadow withIdleExecutor(int tasks) {
    SparkShadow s = shadow();
    s.events().executorAdded("1", 1_000, now);
    s.stageSubmitted(StageInfo.simple(0, tasks), now);
    TaskInfo t = new TaskInfo(0, 0, 0, "1", false);
    s.events().taskStarted(t, now);
    now += 500;
    s.events().taskEnded(t, TaskOutcome.SUCCESS, 500, now);
    return s;
  }

  /** We remove executor 1 because it idled. */
  private SparkShadow removedForIdleness(SparkShadow s) {
    s.removing("1");
    s.executorRemoved("1", now);
    return s;
  }

  @Test
  void anExecutorWeRemoveForIdlenessStaysWithSparkUntilItsIdleTimeout() {
    SparkShadow s = removedForIdleness(withIdleExecutor(1));
    s.tick(now, 0, 0, 1_000);
    assertEquals(1, s.sparkHolds(), "Spark's 60 s idle timeout has not passed");

    now += 60_000;
    s.tick(now, 0, 0, 1_000);
    assertEquals(0, s.sparkHolds(), "gone once Spark would have removed it too");
  }

  @Test
  void anExecutorLostOtherwiseLeavesSparkToo() {
    SparkShadow s = withIdleExecutor(1);
    s.executorRemoved("1", now);
    s.tick(now, 0, 0, 1_000);
    assertEquals(0, s.sparkHolds());
  }

  @Test
  void tasksWaitingWhereSparkWouldHoldMoreExecutorsAreTimeBehindIt() {
    SparkShadow s = removedForIdleness(withIdleExecutor(10));
    s.tick(now, 0, 9, 1_000);
    now += 1_000;
    s.tick(now, 0, 9, 1_000);
    assertEquals(1_000, s.behindMs(), 1e-9, "no executor of ours where Spark holds one: a second behind");
    assertTrue(s.overBudget(now), "1 s behind in 1.5 s of job is past 2 %");

    now += 100_000;
    s.tick(now, 0, 0, 1_000);
    assertEquals(1_000, s.behindMs(), 1e-9, "no task waits: no regret");
    assertFalse(s.overBudget(now), "1 s in 101.5 s is within 2 %");
  }

  @Test
  void withHalfOfSparksExecutorsHalfOfTheTimeIsBehind() {
    SparkShadow s = shadow();
    s.stageSubmitted(StageInfo.simple(0, 100), now);
    for (int i = 1; i <= 4; i++) {
      s.events().executorAdded(String.valueOf(i), 1_000, now);
    }
    s.tick(now, 2, 100, 1_000);
    now += 1_000;
    s.tick(now, 2, 100, 1_000);
    assertEquals(500, s.behindMs(), 1e-9, "2 executors where Spark holds 4");
  }
}
