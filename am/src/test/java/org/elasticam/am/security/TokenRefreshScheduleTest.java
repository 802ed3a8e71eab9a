package org.elasticam.am.security;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.elasticam.am.security.TokenRefreshSchedule.TokenLife;
import org.junit.jupiter.api.Test;

class TokenRefreshScheduleTest {

  private static final long HOUR = 3_600_000;

  @Test
  void refreshesAtTheFractionOfTheLifeOfTheTokenThatGetsThereFirst() {
    assertEquals(18 * HOUR, TokenRefreshSchedule.nextRefreshMs(0, List.of(new TokenLife(0, 24 * HOUR)), 0.75)
        .getAsLong());
    assertEquals(7 * HOUR, TokenRefreshSchedule.nextRefreshMs(0,
        List.of(new TokenLife(0, 24 * HOUR), new TokenLife(HOUR, 9 * HOUR)), 0.75).getAsLong());
  }

  @Test
  void tokensAlreadyPastTheirPointAreRefreshedSoonButNotInALoop() {
    long now = 20 * HOUR;
    assertEquals(now + TokenRefreshSchedule.MIN_INTERVAL_MS,
        TokenRefreshSchedule.nextRefreshMs(now, List.of(new TokenLife(0, 24 * HOUR)), 0.75).getAsLong());
    assertEquals(now + TokenRefreshSchedule.MIN_INTERVAL_MS,
        TokenRefreshSchedule.nextRefreshMs(now, List.of(new TokenLife(0, 0)), 0.75).getAsLong(), "expired");
  }

  @Test
  void noTokenWhoseLifeIsKnownMeansNoRefresh() {
    assertTrue(TokenRefreshSchedule.nextRefreshMs(0, List.of(), 0.75).isEmpty());
  }

  @Test
  void badInputIsRefused() {
    assertThrows(IllegalArgumentException.class, () -> new TokenLife(10, 5));
    assertThrows(IllegalArgumentException.class, () -> TokenRefreshSchedule.nextRefreshMs(0, List.of(), 1.0));
    assertThrows(IllegalArgumentException.class, () -> TokenRefreshSchedule.nextRefreshMs(0, List.of(), 0));
    assertThrows(IllegalArgumentException.class, () -> TokenRefreshSchedule.nextRefreshMs(0, List.of(), Double.NaN));
  }
}
