package org.elasticam.conf;

import java.time.Duration;
import java.time.temporal.ChronoUnit;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * How a key's raw text becomes a value and back. Units live here, not in key names: a duration
 * key knows whether a bare number means milliseconds or seconds.
 */
public final class ValueType<T> {

  private final String description;
  private final Function<String, T> parser;
  private final Function<T, String> formatter;

  private ValueType(String description, Function<String, T> parser, Function<T, String> formatter) {
    this.description = description;
    this.parser = parser;
    this.formatter = formatter;
  }

  /** What the docs call this type, e.g. "duration (bare number = seconds)". */
  public String description() {
    return description;
  }

  /** @throws IllegalArgumentException with a message fit for a user */
  public T parse(String raw) {
    return parser.apply(raw);
  }

  public String format(T value) {
    return formatter.apply(value);
  }

  public static final ValueType<Boolean> BOOLEAN = new ValueType<>("boolean", raw -> {
    String s = raw.trim().toLowerCase(Locale.ROOT);
    if (s.equals("true")) {
      return true;
    }
    if (s.equals("false")) {
      return false;
    }
    throw new IllegalArgumentException("not a boolean (use true or false)");
  }, String::valueOf);

  public static final ValueType<Integer> INT = new ValueType<>("int", raw -> {
    try {
      return Integer.parseInt(raw.trim());
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException("not an integer");
    }
  }, v -> v == Integer.MAX_VALUE ? "unbounded" : String.valueOf(v));

  public static final ValueType<Double> DOUBLE = new ValueType<>("number", raw -> {
    try {
      double d = Double.parseDouble(raw.trim());
      if (Double.isNaN(d) || Double.isInfinite(d)) {
        throw new NumberFormatException();
      }
      return d;
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException("not a number");
    }
  }, String::valueOf);

  public static final ValueType<String> STRING = new ValueType<>("string", String::trim, v -> v);

  /** Comma-separated; blanks dropped. */
  public static final ValueType<List<String>> LIST = new ValueType<>("comma-separated list",
      raw -> Collections.unmodifiableList(
          Arrays.stream(raw.split(",")).map(String::trim).filter(s -> !s.isEmpty()).collect(Collectors.toList())),
      v -> String.join(",", v));

  public static final ValueType<Duration> MILLIS = duration(ChronoUnit.MILLIS, "milliseconds");
  public static final ValueType<Duration> SECONDS = duration(ChronoUnit.SECONDS, "seconds");

  /** Memory with bare numbers in MiB, as Spark reads {@code spark.executor.memory}. */
  public static final ValueType<ByteSize> MEBIBYTES = new ValueType<>(
      "size (512m, 4g; bare number = MiB)",
      raw -> ByteSize.parse(raw, 1024L * 1024L), ByteSize::toString);

  private static ValueType<Duration> duration(ChronoUnit bareUnit, String unitName) {
    return new ValueType<>("duration (500ms, 60s, 2min, infinite; bare number = " + unitName + ")",
        raw -> Durations.parse(raw, bareUnit), Durations::format);
  }

  /** One of a closed set of lower-case names; parsing ignores case. */
  public static <E extends Enum<E>> ValueType<E> oneOf(Class<E> type) {
    E[] constants = type.getEnumConstants();
    String names = Arrays.stream(constants).map(ValueType::nameOf).collect(Collectors.joining("|"));
    return new ValueType<>("one of " + names, raw -> {
      String s = raw.trim().toLowerCase(Locale.ROOT);
      for (E e : constants) {
        if (nameOf(e).equals(s)) {
          return e;
        }
      }
      throw new IllegalArgumentException("not one of " + names);
    }, ValueType::nameOf);
  }

  private static String nameOf(Enum<?> e) {
    return e.name().toLowerCase(Locale.ROOT);
  }
}
