package org.elasticam.allocator.health;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import org.elasticam.conf.Durations;
import org.junit.jupiter.api.Test;

class FailureTrackerTest {

  private static final long S = 1000;

  @Test
  void slidingValidityWindow() {
    FailureTracker t = new FailureTracker(100, Duration.ofSeconds(100));
    t.record(100 * S, "a");
    assertEquals(1, t.count(100 * S));
    assertEquals(0, t.count(201 * S));
    t.record(201 * S, "b");
    t.record(201 * S, "c");
    assertEquals(2, t.count(201 * S));
    t.record(251 * S, "d");
    assertEquals(3, t.count(251 * S));
    assertEquals(1, t.count(302 * S));
    assertEquals(0, t.count(352 * S));
  }

  @Test
  void withoutAWindowFailuresNeverExpire() {
    FailureTracker t = new FailureTracker(3, Durations.INFINITE);
    t.record(0, "a");
    assertEquals(1, t.count(Long.MAX_VALUE / 2));
  }

  @Test
  void verdictAtTheLimitSaysHowManyInWhatWindowAndTheLastCauses() {
    FailureTracker t = new FailureTracker(3, Duration.ofMinutes(10));
    t.record(0, "one");
    t.record(1, "two");
    assertTrue(t.verdict(2).isEmpty());
    t.record(2, "three");
    t.record(3, "four");
    assertEquals("4 executor failures within 10min reached the limit of 3 (elasticam.yarn.maxExecutorFailures)."
        + " Last causes: two / three / four", t.verdict(3).orElseThrow());
  }
}
