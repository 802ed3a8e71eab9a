package org.elasticam.conf;

import java.math.BigDecimal;
import java.time.Duration;
import java.time.temporal.ChronoUnit;
import java.util.Locale;

/**
 * Parsing and printing of durations: {@code 500ms}, {@code 60s}, {@code 2min}, {@code 1h},
 * {@code 1d}, and {@code infinite}; with {@link #parseDecimal}, also {@code 1.5s}. A bare number is read in the key's own unit (milliseconds or
 * seconds, as Spark reads the same knob).
 */
public final class Durations {

  /** "Never": far enough that no deadline computed from it is ever reached. */
  public static final Duration INFINITE = Duration.ofSeconds(Long.MAX_VALUE / 1_000_000L);

  private Durations() {}

  /** {@code d > 0}; {@code Duration.isPositive} arrived only in Java 18. */
  public static boolean isPositive(Duration d) {
    return !d.isNegative() && !d.isZero();
  }

  public static boolean isInfinite(Duration d) {
    return d.compareTo(INFINITE) >= 0;
  }

  /** {@code d} in milliseconds, saturating at {@link Long#MAX_VALUE} instead of overflowing. */
  public static long toMillisSaturated(Duration d) {
    if (isInfinite(d)) {
      return Long.MAX_VALUE;
    }
    try {
      return d.toMillis();
    } catch (ArithmeticException e) {
      return d.isNegative() ? Long.MIN_VALUE : Long.MAX_VALUE;
    }
  }

  /** {@code start + d} in ms, saturating at {@link Long#MAX_VALUE}: infinite timeouts never fire. */
  public static long deadline(long startMs, Duration d) {
    long ms = toMillisSaturated(d);
    long sum = startMs + ms;
    return ((startMs ^ sum) & (ms ^ sum)) < 0 ? Long.MAX_VALUE : sum;
  }

  /**
   * Parses a duration.
   *
   * @param bareUnit the unit of a number without a suffix
   * @throws IllegalArgumentException with a message fit for a user
   */
  public static Duration parse(String text, ChronoUnit bareUnit) {
    return parse(text, bareUnit, false);
  }

  /**
   * Parses a duration that may have a fraction, as {@code 1.5s} or {@code 0.25h}: exact, in whole
   * nanoseconds. Configuration keys take whole numbers only (as Spark reads them); rate profiles
   * and traces take this.
   *
   * @throws IllegalArgumentException with a message fit for a user
   */
  public static Duration parseDecimal(String text, ChronoUnit bareUnit) {
    return parse(text, bareUnit, true);
  }

  private static Duration parse(String text, ChronoUnit bareUnit, boolean decimal) {
    String s = text.trim().toLowerCase(Locale.ROOT);
    if (s.equals("inf") || s.equals("infinite") || s.equals("infinity") || s.equals("never")) {
      return INFINITE;
    }
    int i = 0;
    boolean point = false;
    while (i < s.length() && (Character.isDigit(s.charAt(i)) || (i == 0 && s.charAt(i) == '-')
        || (decimal && !point && s.charAt(i) == '.' && i > 0 && Character.isDigit(s.charAt(i - 1))))) {
      point |= s.charAt(i) == '.';
      i++;
    }
    String digits = s.substring(0, i);
    String unit = s.substring(i).trim();
    if (digits.isEmpty() || digits.equals("-") || digits.endsWith(".")) {
      throw new IllegalArgumentException("not a duration (use e.g. 500ms, 60s, 2min)");
    }
    ChronoUnit u = unitOf(unit, bareUnit);
    if (point) {
      // 1.5s or 0.25h: exact, in whole nanoseconds.
      BigDecimal nanos = new BigDecimal(digits).multiply(BigDecimal.valueOf(u.getDuration().toNanos()));
      if (nanos.stripTrailingZeros().scale() > 0) {
        throw new IllegalArgumentException("not a whole number of nanoseconds");
      }
      if (nanos.compareTo(BigDecimal.valueOf(Long.MAX_VALUE)) > 0) {
        return INFINITE;
      }
      return Duration.ofNanos(nanos.longValueExact());
    }
    long n;
    try {
      n = Long.parseLong(digits);
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException("duration too large");
    }
    try {
      Duration d = Duration.of(n, u);
      return isInfinite(d) ? INFINITE : d;
    } catch (ArithmeticException e) {
      return INFINITE;
    }
  }

  private static ChronoUnit unitOf(String unit, ChronoUnit bareUnit) {
    switch (unit) {
      case "":
        return bareUnit;
      case "ns":
        return ChronoUnit.NANOS;
      case "us":
        return ChronoUnit.MICROS;
      case "ms":
        return ChronoUnit.MILLIS;
      case "s":
      case "sec":
      case "secs":
        return ChronoUnit.SECONDS;
      case "m":
      case "min":
      case "mins":
        return ChronoUnit.MINUTES;
      case "h":
      case "hour":
      case "hours":
        return ChronoUnit.HOURS;
      case "d":
      case "day":
      case "days":
        return ChronoUnit.DAYS;
      default:
        throw new IllegalArgumentException("unknown duration unit '" + unit + "' (use ms, s, min, h or d)");
    }
  }

  /** The shortest exact form: {@code 500ms}, {@code 60s}, {@code 2min}, {@code infinite}. */
  public static String format(Duration d) {
    if (isInfinite(d)) {
      return "infinite";
    }
    long ms = d.toMillis();
    if (ms != 0 && ms % 86_400_000L == 0) {
      return ms / 86_400_000L + "d";
    }
    if (ms != 0 && ms % 3_600_000L == 0) {
      return ms / 3_600_000L + "h";
    }
    if (ms >= 120_000L && ms % 60_000L == 0) {
      return ms / 60_000L + "min";
    }
    if (ms % 1000L == 0) {
      return ms / 1000L + "s";
    }
    return ms + "ms";
  }
}
