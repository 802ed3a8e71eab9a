package org.elasticam.am;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.time.Duration;
import org.elasticam.time.ManualClock;
import org.junit.jupiter.api.Test;

/** A flood of refused calls makes a line per interval, not a line per call. */
class RefusalLogTest {

  @Test
  void theFirstIsLoggedTheRestCountedAndSummedUpOncePerInterval() {
    ManualClock clock = new ManualClock(0);
    RefusalLog log = new RefusalLog(clock, Duration.ofSeconds(10));
    log.accept("no credentials");
    assertEquals(0, log.heldBack(), "the first one is logged at once");
    for (int i = 0; i < 10_000; i++) {
      log.accept("bad signature");
    }
    assertEquals(10_000, log.heldBack());
    clock.advance(Duration.ofSeconds(5));
    log.flush();
    assertEquals(10_000, log.heldBack(), "not before the interval has passed");
    clock.advance(Duration.ofSeconds(5));
    log.flush();
    assertEquals(0, log.heldBack(), "summed up in one line");
    log.accept("stale timestamp");
    assertEquals(1, log.heldBack(), "right after a summary the next waits for the next one");
    clock.advance(Duration.ofSeconds(30));
    log.flush();
    assertEquals(0, log.heldBack(), "the one held back is summed up at the next flush");
    clock.advance(Duration.ofSeconds(10));
    log.accept("after a quiet spell");
    assertEquals(0, log.heldBack(), "after a quiet spell a refusal is logged at once again");
  }
}
