package org.elasticam.conf;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import org.elasticam.time.Clock;
import org.elasticam.time.ManualClock;
import org.junit.jupiter.api.Test;

class ManualClockTest {

  @Test
  void movesOnlyForwardAndOnlyWhenTold() {
    ManualClock clock = new ManualClock(1_000);
    assertEquals(1_000, clock.nowMs());
    clock.advance(Duration.ofSeconds(2));
    assertEquals(3_000, clock.nowMs());
    assertThrows(IllegalArgumentException.class, () -> clock.setMs(10));
    assertThrows(IllegalArgumentException.class, () -> clock.advanceMs(-1));
  }

  @Test
  void systemClockIsMonotonicAndNearTheEpoch() {
    long a = Clock.system().nowMs();
    long b = Clock.system().nowMs();
    assertTrue(b >= a);
    assertTrue(a > 1_600_000_000_000L);
  }
}
