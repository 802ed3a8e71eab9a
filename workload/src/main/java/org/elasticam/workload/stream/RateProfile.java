package org.elasticam.workload.stream;

import java.io.BufferedReader;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.Duration;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.OptionalLong;
import java.util.regex.Pattern;
import org.elasticam.conf.Durations;

/**
 * The input rate of a stream, in records per second, as a function of stream time (milliseconds
 * from the stream's start). Made from a one-line spec:
 *
 * <ul>
 *   <li>{@code const:R} — R all the time;
 *   <li>{@code step:R1@T1,R2@T2,…} — Rk from Tk until the next T; before T1 the rate is R1;
 *   <li>{@code ramp:R1-R2@T} — linear from R1 at 0 to R2 at T, then R2;
 *   <li>{@code sine:MEAN,AMPLITUDE,PERIOD} — MEAN + AMPLITUDE·sin(2πt/PERIOD), AMPLITUDE ≤ MEAN so
 *       it never goes below 0;
 *   <li>{@code file:F} — one rate per line, line k during second k; after the last line the last
 *       rate holds; blank lines and {@code #} comments ignored; F relative to the base directory.
 * </ul>
 *
 * <p>Times take {@code 500ms}, {@code 30s}, {@code 5min}, {@code 1h} or a bare number of seconds.
 * Worked example: {@code step:100@0,300@5min} gives 100 rec/s for the first five minutes, so
 * {@code records(0, 2000)} is 200 and {@code records(299_000, 301_000)} is 100 + 300 = 400.
 *
 * <p>The bounds (rates ≤ 1e9 rec/s, times ≤ 30 days, files ≤ 1,000,000 lines) are there so that a
 * mistyped or hostile spec fails at once with a reason instead of overflowing a batch's record
 * count or filling the heap. Immutable and thread-safe.
 */
public final class RateProfile {

  static final double MAX_RATE = 1e9;
  static final long MAX_TIME_MS = 30L * 24 * 3600 * 1000;
  static final int MAX_FILE_LINES = 1_000_000;
  /** A rate line is a few bytes; the cap keeps one endless line from being buffered whole. */
  static final long MAX_FILE_BYTES = 64L << 20;

  private static final Pattern DECIMAL = Pattern.compile("[0-9]+(\\.[0-9]+)?");
  private static final Pattern TIME = Pattern.compile("([0-9]+(?:\\.[0-9]+)?)(ms|s|min|h)?");
  private static final int MAX_SPEC_IN_MESSAGE = 80;
  static final String NOT_A_TIME = "is not a time (use e.g. 500ms, 30s, 5min, 1h; bare = seconds)";

  private final String spec;
  private final Shape shape;

  private RateProfile(String spec, Shape shape) {
    this.spec = spec;
    this.shape = shape;
  }

  /**
   * Parses a spec; {@code file:} paths are resolved against {@code baseDir}.
   *
   * @throws IllegalArgumentException with one line naming the bad part
   */
  public static RateProfile parse(String spec, Path baseDir) {
    if (spec == null) {
      throw new IllegalArgumentException("rate profile: missing (expected e.g. const:100 or step:100@0,300@5min)");
    }
    try {
      return new RateProfile(spec, shapeOf(spec, baseDir));
    } catch (BadSpec e) {
      throw new IllegalArgumentException("rate profile '" + shorten(spec) + "': " + e.getMessage());
    }
  }

  /** The input rate at stream time {@code tMs}, in records per second. */
  public double ratePerSec(long tMs) {
    requireTime(tMs);
    return shape.rate(tMs);
  }

  /**
   * The records arriving in {@code [fromMs, toMs)}: the integral of the rate, rounded to the
   * nearest record (saturating at {@code Long.MAX_VALUE}).
   */
  public long records(long fromMs, long toMs) {
    requireTime(fromMs);
    if (toMs < fromMs) {
      throw new IllegalArgumentException("records: interval ends before it starts: [" + fromMs + ", " + toMs + ")");
    }
    return Math.round(shape.integral(fromMs, toMs));
  }

  /**
   * The times at which a step profile's rate changes (the T of each step whose rate differs from
   * the one before), ascending; empty for the other kinds, whose rate has no single change point.
   */
  public List<Long> changePointsMs() {
    return shape.changePointsMs();
  }

  /**
   * How long the profile naturally runs, when it says so: a file's length (one second a line); a
   * step profile with a change point runs its last step as long as the step before it, so every
   * step gets a steady stretch. Empty for the others, which go on unchanged forever or repeat.
   */
  public OptionalLong naturalLengthMs() {
    return shape.naturalLengthMs();
  }

  /** The spec this was parsed from, as given. */
  public String spec() {
    return spec;
  }

  @Override
  public String toString() {
    return spec;
  }

  private static void requireTime(long tMs) {
    if (tMs < 0) {
      throw new IllegalArgumentException("stream time must not be negative: " + tMs + " ms");
    }
  }

  // ---- parsing ------------------------------------------------------------------------------

  private static Shape shapeOf(String spec, Path baseDir) {
    int colon = spec.indexOf(':');
    if (colon < 0) {
      throw new BadSpec("expected KIND:ARGS with KIND one of const, step, ramp, sine, file");
    }
    String kind = spec.substring(0, colon);
    String args = spec.substring(colon + 1);
    if (args.isEmpty()) {
      throw new BadSpec("nothing after '" + kind + ":'");
    }
    return switch (kind) {
      case "const" -> new Const(parseRate(args, "rate"));
      case "step" -> Step.parse(args);
      case "ramp" -> Ramp.parse(args);
      case "sine" -> Sine.parse(args);
      case "file" -> FileRates.read(args, baseDir);
      default -> throw new BadSpec("unknown kind '" + printable(kind) + "' (expected const, step, ramp, sine or file)");
    };
  }

  /** A rate: a plain non-negative decimal, at most {@link #MAX_RATE}. */
  static double parseRate(String text, String what) {
    if (text.isEmpty()) {
      throw new BadSpec(what + " is empty");
    }
    if (!DECIMAL.matcher(text).matches()) {
      throw new BadSpec(what + " '" + printable(text) + "' " + notADecimal(text));
    }
    double value = Double.parseDouble(text);
    if (value > MAX_RATE) {
      throw new BadSpec(what + " " + printable(text) + " is above the limit of 1e9 records/s");
    }
    return value;
  }

  /** A time: a decimal with unit ms, s, min or h (bare = seconds), a whole number of ms, at most 30 days. */
  static long parseTime(String text, String what) {
    if (text.isEmpty()) {
      throw new BadSpec(what + " is empty");
    }
    var m = TIME.matcher(text);
    if (!m.matches()) {
      throw new BadSpec(what + " '" + printable(text) + "' " + NOT_A_TIME);
    }
    // The grammar is this profile's own (ms, s, min, h; no sign, no "infinite"); the arithmetic is conf's.
    Duration d;
    try {
      d = Durations.parseDecimal(text, ChronoUnit.SECONDS);
    } catch (IllegalArgumentException e) {
      throw new BadSpec(what + " " + text + " is not a whole number of milliseconds");
    }
    if (d.toMillis() > MAX_TIME_MS) {
      throw new BadSpec(what + " " + printable(text) + " is above the limit of 30 days");
    }
    if (d.toNanosPart() % 1_000_000 != 0) {
      throw new BadSpec(what + " " + text + " is not a whole number of milliseconds");
    }
    return d.toMillis();
  }

  private static String notADecimal(String text) {
    String lower = text.toLowerCase(Locale.ROOT);
    if (lower.startsWith("-")) {
      return "is negative";
    }
    if (lower.contains("nan") || lower.contains("inf")) {
      return "is not a finite number";
    }
    return "is not a non-negative decimal number";
  }

  /** Keeps a message on one line and readable whatever the input held. */
  static String printable(String text) {
    StringBuilder out = new StringBuilder();
    text.codePoints().limit(MAX_SPEC_IN_MESSAGE).forEach(c ->
        out.append(Character.isISOControl(c) ? "?" : new String(Character.toChars(c))));
    if (text.codePointCount(0, text.length()) > MAX_SPEC_IN_MESSAGE) {
      out.append("…");
    }
    return out.toString();
  }

  private static String shorten(String spec) {
    return printable(spec);
  }

  /** A spec problem; becomes the tail of the one-line message. */
  private static final class BadSpec extends RuntimeException {
    BadSpec(String message) {
      super(message, null, false, false);
    }
  }

  // ---- shapes -------------------------------------------------------------------------------

  /** One kind of profile; times are valid (non-negative, from ≤ to). */
  private interface Shape {
    double rate(long tMs);

    /** The exact integral of the rate over [from, to), in records. */
    double integral(long fromMs, long toMs);

    default List<Long> changePointsMs() {
      return List.of();
    }

    default OptionalLong naturalLengthMs() {
      return OptionalLong.empty();
    }
  }

  private record Const(double rate) implements Shape {
    @Override
    public double rate(long tMs) {
      return rate;
    }

    @Override
    public double integral(long fromMs, long toMs) {
      return rate * (toMs - fromMs) / 1000.0;
    }
  }

  /** Rates by start time; {@code rates[0]} also holds before {@code starts[0]}. */
  private record Step(long[] starts, double[] rates) implements Shape {

    static Step parse(String args) {
      String[] parts = args.split(",", -1);
      long[] starts = new long[parts.length];
      double[] rates = new double[parts.length];
      for (int i = 0; i < parts.length; i++) {
        String part = parts[i];
        String where = "step " + (i + 1);
        int at = part.indexOf('@');
        if (at < 0) {
          throw new BadSpec(where + " '" + printable(part) + "': expected RATE@TIME");
        }
        rates[i] = parseRate(part.substring(0, at), where + " rate");
        starts[i] = parseTime(part.substring(at + 1), where + " time");
        if (i > 0 && starts[i] <= starts[i - 1]) {
          throw new BadSpec(where + " time " + part.substring(at + 1) + " is not after step " + i + "'s time");
        }
      }
      return new Step(starts, rates);
    }

    /** The step in force at tMs: the last one starting at or before it, else the first. */
    private int stepAt(long tMs) {
      int found = Arrays.binarySearch(starts, tMs);
      return found >= 0 ? found : Math.max(0, -found - 2);
    }

    @Override
    public double rate(long tMs) {
      return rates[stepAt(tMs)];
    }

    @Override
    public double integral(long fromMs, long toMs) {
      double sum = 0;
      long t = fromMs;
      for (int i = stepAt(fromMs); t < toMs; i++) {
        long end = i + 1 < starts.length ? Math.min(toMs, starts[i + 1]) : toMs;
        sum += rates[i] * (end - t) / 1000.0;
        t = end;
      }
      return sum;
    }

    @Override
    public List<Long> changePointsMs() {
      List<Long> points = new ArrayList<>();
      for (int i = 1; i < starts.length; i++) {
        if (rates[i] != rates[i - 1]) {
          points.add(starts[i]);
        }
      }
      return List.copyOf(points);
    }

    @Override
    public OptionalLong naturalLengthMs() {
      List<Long> points = changePointsMs();
      if (points.isEmpty()) {
        return OptionalLong.empty();
      }
      long last = points.get(points.size() - 1);
      long before = points.size() > 1 ? points.get(points.size() - 2) : 0;
      return OptionalLong.of(last + (last - before));
    }
  }

  private record Ramp(double from, double to, long durationMs) implements Shape {

    static Ramp parse(String args) {
      int at = args.lastIndexOf('@');
      if (at < 0) {
        throw new BadSpec("ramp: expected R1-R2@TIME");
      }
      String rates = args.substring(0, at);
      int dash = rates.indexOf('-');
      if (dash < 0) {
        throw new BadSpec("ramp rates '" + printable(rates) + "': expected R1-R2");
      }
      double from = parseRate(rates.substring(0, dash), "ramp start rate");
      double to = parseRate(rates.substring(dash + 1), "ramp end rate");
      long duration = parseTime(args.substring(at + 1), "ramp time");
      if (duration == 0) {
        throw new BadSpec("ramp time must be above 0");
      }
      return new Ramp(from, to, duration);
    }

    @Override
    public double rate(long tMs) {
      return tMs >= durationMs ? to : from + (to - from) * tMs / durationMs;
    }

    @Override
    public double integral(long fromMs, long toMs) {
      long rampEnd = Math.min(toMs, durationMs);
      double sum = 0;
      if (fromMs < rampEnd) {
        // The mean of a linear function over an interval is its value at the midpoint.
        sum += (rate(fromMs) + rate(rampEnd)) / 2 * (rampEnd - fromMs) / 1000.0;
      }
      long flatStart = Math.max(fromMs, durationMs);
      if (flatStart < toMs) {
        sum += to * (toMs - flatStart) / 1000.0;
      }
      return sum;
    }
  }

  private record Sine(double mean, double amplitude, long periodMs) implements Shape {

    static Sine parse(String args) {
      String[] parts = args.split(",", -1);
      if (parts.length != 3) {
        throw new BadSpec("sine: expected MEAN,AMPLITUDE,PERIOD, found " + parts.length + " part"
            + (parts.length == 1 ? "" : "s"));
      }
      double mean = parseRate(parts[0], "sine mean");
      double amplitude = parseRate(parts[1], "sine amplitude");
      long period = parseTime(parts[2], "sine period");
      if (amplitude > mean) {
        throw new BadSpec("sine amplitude " + parts[1] + " is above the mean " + parts[0]
            + " (the rate would go below 0)");
      }
      if (period == 0) {
        throw new BadSpec("sine period must be above 0");
      }
      return new Sine(mean, amplitude, period);
    }

    @Override
    public double rate(long tMs) {
      return Math.max(0, mean + amplitude * Math.sin(2 * Math.PI * tMs / periodMs));
    }

    @Override
    public double integral(long fromMs, long toMs) {
      // The antiderivative of A·sin(ωt) is −A·cos(ωt)/ω; amplitude ≤ mean, so no clipping at 0.
      double omega = 2 * Math.PI / periodMs;
      double wave = amplitude * (Math.cos(omega * (fromMs % periodMs)) - Math.cos(omega * (toMs % periodMs))) / omega;
      return (mean * (toMs - fromMs) + wave) / 1000.0;
    }
  }

  /** A rate per second; {@code cumulative[k]} = records in the first k seconds. */
  private record FileRates(double[] rates, double[] cumulative) implements Shape {

    static FileRates read(String name, Path baseDir) {
      Path file;
      try {
        file = baseDir.resolve(name);
      } catch (RuntimeException e) {
        throw new BadSpec("file name '" + printable(name) + "' is not a valid path");
      }
      List<Double> rates = new ArrayList<>();
      try {
        if (Files.size(file) > MAX_FILE_BYTES) {
          throw new BadSpec("file " + file + " is larger than 64 MiB");
        }
        try (BufferedReader in = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
          readRates(in, file, rates);
        }
      } catch (NoSuchFileException e) {
        throw new BadSpec("cannot read " + file + ": no such file");
      } catch (IOException | RuntimeException e) {
        if (e instanceof BadSpec bad) {
          throw bad;
        }
        throw new BadSpec("cannot read " + file + ": " + printable(describe(e)));
      }
      if (rates.isEmpty()) {
        throw new BadSpec("file " + file + " holds no rates");
      }
      double[] values = rates.stream().mapToDouble(Double::doubleValue).toArray();
      double[] cumulative = new double[values.length + 1];
      for (int k = 0; k < values.length; k++) {
        cumulative[k + 1] = cumulative[k] + values[k];
      }
      return new FileRates(values, cumulative);
    }

    private static void readRates(BufferedReader in, Path file, List<Double> rates) throws IOException {
      int lineNumber = 0;
      for (String line = in.readLine(); line != null; line = in.readLine()) {
        lineNumber++;
        if (lineNumber > MAX_FILE_LINES) {
          throw new BadSpec("file " + file + " has more than 1000000 lines");
        }
        String text = line.strip();
        if (text.isEmpty() || text.startsWith("#")) {
          continue;
        }
        rates.add(parseRate(text, "file " + file + " line " + lineNumber + ": rate"));
      }
    }

    private static String describe(Exception e) {
      String kind = e.getClass().getSimpleName();
      return e.getMessage() == null ? kind : kind + " " + e.getMessage();
    }

    @Override
    public double rate(long tMs) {
      return rates[(int) Math.min(tMs / 1000, rates.length - 1)];
    }

    @Override
    public double integral(long fromMs, long toMs) {
      return recordsBefore(toMs) - recordsBefore(fromMs);
    }

    /** Records in [0, t). */
    private double recordsBefore(long tMs) {
      long second = tMs / 1000;
      if (second >= rates.length) {
        double last = rates[rates.length - 1];
        return cumulative[rates.length] + last * (tMs - rates.length * 1000L) / 1000.0;
      }
      return cumulative[(int) second] + rates[(int) second] * (tMs % 1000) / 1000.0;
    }

    @Override
    public OptionalLong naturalLengthMs() {
      return OptionalLong.of(rates.length * 1000L);
    }
  }
}
