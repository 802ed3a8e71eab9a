package org.elasticam.sim;

import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.Map;
import java.util.function.Function;

/**
 * Parsing of command-line option values, shared by the simulators' parsers, with one clear
 * UsageException line per bad value: each method takes the caller's own usage exception as
 * {@code usage}, which makes it from the one line the user sees.
 */
public final class ArgValues {

  private ArgValues() {}

  /**
   * A whole number from {@code min} to {@code max}; the message gives the range as
   * "from min to max", as ">= min" when {@code max} is beyond any sensible value (a quarter of
   * {@link Long#MAX_VALUE} or more), and not at all when any long will do.
   */
  public static <E extends Exception> long number(String name, String value, long min, long max,
      Function<String, E> usage) throws E {
    try {
      long v = Long.parseLong(value.trim());
      if (v >= min && v <= max) {
        return v;
      }
    } catch (NumberFormatException e) {
      // reported below
    }
    String range = min == Long.MIN_VALUE && max == Long.MAX_VALUE ? ""
        : max >= Long.MAX_VALUE / 4 ? " >= " + min
        : " from " + min + " to " + max;
    throw usage.apply(name + " must be a whole number" + range + ", got '" + value + "'");
  }

  /** A finite decimal number, above zero if {@code positive}, else zero or above. */
  public static <E extends Exception> double decimal(String name, String value, boolean positive,
      Function<String, E> usage) throws E {
    try {
      double v = Double.parseDouble(value.trim());
      if (Double.isFinite(v) && (positive ? v > 0 : v >= 0)) {
        return v;
      }
    } catch (NumberFormatException e) {
      // reported below
    }
    throw usage.apply(name + " must be a " + (positive ? "positive" : "non-negative")
        + " number, got '" + value + "'");
  }

  /** A file path: not blank and valid on this file system. */
  public static <E extends Exception> Path path(String name, String value, Function<String, E> usage) throws E {
    try {
      if (!value.isBlank()) {
        return Path.of(value);
      }
    } catch (InvalidPathException e) {
      // reported below
    }
    throw usage.apply(name + " needs a file path, got '" + value + "'");
  }

  /**
   * Puts one {@code --conf key=value} into {@code conf} (key and value trimmed), refusing a
   * value without a key and a key given twice.
   */
  public static <E extends Exception> void conf(Map<String, String> conf, String kv, Function<String, E> usage)
      throws E {
    int eq = kv.indexOf('=');
    if (eq <= 0) {
      throw usage.apply("--conf needs key=value, got '" + kv + "'");
    }
    String key = kv.substring(0, eq).trim();
    if (conf.put(key, kv.substring(eq + 1).trim()) != null) {
      throw usage.apply("--conf " + key + " given twice");
    }
  }
}
