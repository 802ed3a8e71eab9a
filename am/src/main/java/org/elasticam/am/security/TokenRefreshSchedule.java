package org.elasticam.am.security;

import java.util.List;
import java.util.OptionalLong;

/**
 * When an AM with a keytab obtains new delegation tokens: at {@code fraction} of the way from a
 * token's issue to its expiry, for the token that gets there first, so that the new tokens reach
 * every executor well before the old ones stop working. A pure function of the tokens' lives and
 * the time.
 *
 * <p>Worked example: a token issued at 0 that expires at 24 h, fraction 0.75: refresh at 18 h. With a
 * second token issued at 1 h that expires at 9 h: refresh at 1 + 0.75 × 8 = 7 h.
 */
public final class TokenRefreshSchedule {

  /**
   * How soon after a refresh the next may run, at the least: tokens that already expired, or expire
   * within seconds, must not make the AM ask a NameNode in a loop.
   */
  public static final long MIN_INTERVAL_MS = 10_000;

  /** A token's life: when it was issued and when it stops working unless renewed. */
  public record TokenLife(long issuedMs, long expiresMs) {
    public TokenLife {
      if (expiresMs < issuedMs) {
        throw new IllegalArgumentException("a token cannot expire (" + expiresMs + ") before it is issued ("
            + issuedMs + ")");
      }
    }
  }

  private TokenRefreshSchedule() {}

  /** @return when to obtain new tokens; empty when there is no token whose life is known */
  public static OptionalLong nextRefreshMs(long nowMs, List<TokenLife> lives, double fraction) {
    if (!(fraction > 0 && fraction < 1)) {
      throw new IllegalArgumentException("the fraction must be in (0, 1), not " + fraction);
    }
    OptionalLong first = lives.stream()
        .mapToLong(l -> l.issuedMs() + (long) (fraction * (l.expiresMs() - l.issuedMs())))
        .min();
    return first.isEmpty() ? first : OptionalLong.of(Math.max(first.getAsLong(), nowMs + MIN_INTERVAL_MS));
  }
}
