package org.elasticam.allocator.streaming;

import java.util.List;
import java.util.Locale;
import java.util.Random;

/**
 * Creates streaming dynamic-allocation policies by name, and holds the little arithmetic they share.
 */
public final class StreamingPolicies {

  private static final List<String> NAMES = List.of("rounds", "ratio", "model");

  /**
   * Below this, a product like 0.1 × 30 = 3.0000000000000004 counts as the integer it means: without
   * it a ceiling would give 4 executors where the worked examples (and the user) expect 3.
   */
  private static final double EPSILON = 1e-9;

  private StreamingPolicies() {}

  /** The policies {@link #create} knows, in the order reports list them. */
  public static List<String> names() {
    return NAMES;
  }

  /**
   * @param seed seeds the random choices of the policies that make them ({@code ratio})
   * @throws IllegalArgumentException for an unknown name, listing the known ones
   */
  public static StreamingPolicy create(String name, StreamingSettings settings, long seed) {
    switch (name.toLowerCase(Locale.ROOT)) {
      case "rounds":
        return new RoundsPolicy(settings);
      case "ratio":
        return new RatioPolicy(settings, new Random(seed));
      case "model":
        return new ModelPolicy(settings);
      default:
        throw new IllegalArgumentException("unknown streaming policy '" + name + "' (known: "
            + String.join(", ", NAMES) + ")");
    }
  }

  /** The ceiling of {@code x}, forgiving floating-point noise just above an integer. */
  static long ceil(double x) {
    return (long) Math.ceil(x - EPSILON);
  }

  /** {@link Math#round(double)} (halves up), forgiving noise just below a half. */
  static long round(double x) {
    return Math.round(x + EPSILON);
  }

  static int clamp(long executors, StreamingSettings s) {
    return (int) Math.max(s.minExecutors(), Math.min(s.maxExecutors(), executors));
  }

  /** A number for a reason or an inputs string: at most three decimals, no locale. */
  static String num(double x) {
    if (x == Math.rint(x) && Math.abs(x) < 1e15) {
      return Long.toString((long) x);
    }
    return String.format(Locale.ROOT, "%.3f", x).replaceAll("\\.?0+$", "");
  }
}
