package org.elasticam.am.job;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * What to run, parsed from the command line the same way by the client (which refuses bad input
 * before anything is submitted) and by the ApplicationMaster:
 * <ul>
 *   <li>{@code sleep --stages N --tasks N --task-ms N [--fail-rate P] [--seed S]}</li>
 *   <li>{@code trace --file F [--time-scale S]}</li>
 *   <li>{@code wordcount --input P --output P [--reducers N] [--pause-ms N]}</li>
 *   <li>{@code streaming --batch-ms N --batches N --rate PROFILE [--work-per-record-us N] [--work sleep|cpu]
 *       [--partitions N]}</li>
 *   <li>{@code --jar J --class C [--] [args…]} — a user job; a user streaming job also takes
 *       {@code --batch-ms}, {@code --batches}, {@code --rate} and {@code --partitions}</li>
 * </ul>
 */
public record JobSpec(Kind kind, Map<String, String> options, List<String> userArgs) {

  /** The kinds of job. */
  public enum Kind { SLEEP, TRACE, WORDCOUNT, STREAMING, USER }

  /** Most batches a streaming job may run: stage ids are batch × 1000 + the batch's own id. */
  public static final int MAX_BATCHES = 2_000_000;

  private static final Map<Kind, Set<String>> ALLOWED = Map.of(
      Kind.SLEEP, Set.of("stages", "tasks", "task-ms", "fail-rate", "seed"),
      Kind.TRACE, Set.of("file", "time-scale"),
      Kind.WORDCOUNT, Set.of("input", "output", "reducers", "pause-ms"),
      Kind.STREAMING, Set.of("batch-ms", "batches", "rate", "work-per-record-us", "work", "partitions"),
      Kind.USER, Set.of("jar", "class", "batch-ms", "batches", "rate", "partitions"));

  public JobSpec {
    options = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(options));
    userArgs = List.copyOf(userArgs);
  }

  /**
   * The job of a command line: the job's name and options, then, for a user job, its own
   * arguments. Those start after {@code --}, or at the first word after {@code --jar J --class C}
   * that is not an option of a user job.
   *
   * @throws IllegalArgumentException with one line for the user
   */
  public static JobSpec parse(List<String> args) {
    int dashes = args.indexOf("--");
    if (dashes >= 0) {
      return parse(args.subList(0, dashes), args.subList(dashes + 1, args.size()));
    }
    return parse(args, List.of());
  }

  /**
   * @param words the job's name and options (for a user job, possibly followed by its arguments)
   * @param ownArgs a user job's arguments given after {@code --}, passed on as they are
   */
  public static JobSpec parse(List<String> words, List<String> ownArgs) {
    if (words.isEmpty()) {
      throw new IllegalArgumentException("no job given: use sleep, trace, wordcount, streaming, or --jar J --class C");
    }
    String first = words.get(0);
    Kind kind;
    List<String> rest;
    if (first.equals("sleep") || first.equals("trace") || first.equals("wordcount") || first.equals("streaming")) {
      kind = Kind.valueOf(first.toUpperCase(java.util.Locale.ROOT));
      rest = words.subList(1, words.size());
    } else if (isUserJobOption(first)) {
      kind = Kind.USER;
      rest = words;
    } else {
      throw new IllegalArgumentException("unknown job '" + first
          + "': use sleep, trace, wordcount, streaming, or --jar J --class C");
    }
    Map<String, String> opts = new LinkedHashMap<>();
    List<String> userArgs = new ArrayList<>();
    for (int i = 0; i < rest.size(); i++) {
      String a = rest.get(i);
      if (kind == Kind.USER && opts.containsKey("jar") && opts.containsKey("class") && !isUserJobOption(a)) {
        userArgs.addAll(rest.subList(i, rest.size()));
        break;
      }
      if (!a.startsWith("--") || !ALLOWED.get(kind).contains(a.substring(2))) {
        throw new IllegalArgumentException("unknown option '" + a + "' for " + kind.name().toLowerCase()
            + " (allowed: --" + String.join(", --", ALLOWED.get(kind).stream().sorted().toList()) + ")");
      }
      if (i + 1 >= rest.size()) {
        throw new IllegalArgumentException(a + " needs a value");
      }
      opts.put(a.substring(2), rest.get(++i));
    }
    if (kind != Kind.USER && !ownArgs.isEmpty()) {
      throw new IllegalArgumentException(kind.name().toLowerCase() + " takes no arguments of its own, got '"
          + ownArgs.get(0) + "' after --");
    }
    userArgs.addAll(ownArgs);
    JobSpec spec = new JobSpec(kind, opts, userArgs);
    spec.validate();
    return spec;
  }

  /** {@code --jar}, {@code --class} and the streaming options a user job takes. */
  public static boolean isUserJobOption(String word) {
    return word.startsWith("--") && ALLOWED.get(Kind.USER).contains(word.substring(2));
  }

  public static JobSpec parse(String... args) {
    return parse(Arrays.asList(args));
  }

  private void validate() {
    switch (kind) {
      case SLEEP -> {
        positive("stages", 1);
        positive("tasks", 1);
        nonNegative("task-ms", 1000);
        double rate = number("fail-rate", 0);
        if (rate < 0 || rate > 1) {
          throw new IllegalArgumentException("--fail-rate must be between 0 and 1, got " + rate);
        }
        longOption("seed", 0);
      }
      case TRACE -> {
        required("file");
        double scale = number("time-scale", 1);
        if (!(scale > 0)) {
          throw new IllegalArgumentException("--time-scale must be > 0, got " + option("time-scale").orElse(""));
        }
      }
      case WORDCOUNT -> {
        required("input");
        required("output");
        positive("reducers", 2);
        nonNegative("pause-ms", 0);
      }
      case STREAMING -> {
        streamingOptions();
        nonNegative("work-per-record-us", 1000);
        String work = option("work").orElse("sleep");
        if (!work.equals("sleep") && !work.equals("cpu")) {
          throw new IllegalArgumentException("--work must be sleep or cpu, got '" + work + "'");
        }
      }
      case USER -> {
        required("jar");
        required("class");
        if (isStreaming()) {
          streamingOptions();
        }
      }
      default -> throw new IllegalStateException();
    }
  }

  /**
   * Whether this is a streaming job: the built-in one, or a user job given the streaming options
   * (its class must then implement {@code StreamingJob}).
   */
  public boolean isStreaming() {
    return kind == Kind.STREAMING || (kind == Kind.USER
        && (options.containsKey("batch-ms") || options.containsKey("batches") || options.containsKey("rate")));
  }

  private void streamingOptions() {
    positive("batch-ms", 1000);
    required("batches");
    int batches = positive("batches", 1);
    if (batches > MAX_BATCHES) {
      throw new IllegalArgumentException("--batches must be at most " + MAX_BATCHES + ", got " + batches);
    }
    required("rate");
    if (options.containsKey("partitions")) {
      positive("partitions", 1);
    }
  }

  /** The {@code --partitions} of a streaming job, or null for the default (twice the executors). */
  public Integer partitionsOption() {
    return options.containsKey("partitions") ? positive("partitions", 1) : null;
  }

  public Optional<String> option(String name) {
    return Optional.ofNullable(options.get(name));
  }

  public String required(String name) {
    return option(name).orElseThrow(() -> new IllegalArgumentException(
        kind.name().toLowerCase() + " needs --" + name));
  }

  public int positive(String name, int dflt) {
    long v = longOption(name, dflt);
    if (v < 1 || v > Integer.MAX_VALUE) {
      throw new IllegalArgumentException("--" + name + " must be a whole number >= 1, got " + v);
    }
    return (int) v;
  }

  public long nonNegative(String name, long dflt) {
    long v = longOption(name, dflt);
    if (v < 0) {
      throw new IllegalArgumentException("--" + name + " must be >= 0, got " + v);
    }
    return v;
  }

  public long longOption(String name, long dflt) {
    String v = options.get(name);
    try {
      return v == null ? dflt : Long.parseLong(v.trim());
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException("--" + name + " must be a whole number, got '" + v + "'");
    }
  }

  public double number(String name, double dflt) {
    String v = options.get(name);
    try {
      return v == null ? dflt : Double.parseDouble(v.trim());
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException("--" + name + " must be a number, got '" + v + "'");
    }
  }

  /** This spec with one option replaced: the client points file options at their staged copies. */
  public JobSpec withOption(String name, String value) {
    Map<String, String> m = new LinkedHashMap<>(options);
    m.put(name, value);
    return new JobSpec(kind, m, userArgs);
  }

  /** Back to a command line that {@link #parse} reads as this spec: a user job's arguments after {@code --}. */
  public List<String> toArgs() {
    List<String> out = new ArrayList<>();
    if (kind != Kind.USER) {
      out.add(kind.name().toLowerCase());
    }
    options.forEach((k, v) -> {
      out.add("--" + k);
      out.add(v);
    });
    if (!userArgs.isEmpty()) {
      out.add("--");
      out.addAll(userArgs);
    }
    return out;
  }
}
