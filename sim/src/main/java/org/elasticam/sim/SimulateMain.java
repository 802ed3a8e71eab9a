package org.elasticam.sim;

import java.io.BufferedWriter;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.stream.Collectors;
import org.elasticam.allocator.dynamic.AllocationPolicies;
import org.elasticam.conf.ConfigException;
import org.elasticam.conf.ConfigProblem;
import org.elasticam.sim.streaming.StreamingSimulateMain;
import org.elasticam.sim.streaming.StreamingWorld;
import org.elasticam.workload.Trace;
import org.elasticam.workload.TraceFormatException;

/**
 * {@code bin/elasticam simulate}: reads the trace, runs each chosen policy (and the oracle) on it,
 * and prints the figures. Exit 0 on success, 2 for bad input (flags, configuration, trace), 1 when
 * a run cannot finish or an output cannot be written — always with one line saying why. With
 * {@code --streaming} it simulates a micro-batch job instead ({@link StreamingSimulateMain}).
 */
public final class SimulateMain {

  private static final String PREFIX = "elasticam simulate: ";

  private SimulateMain() {}

  public static void main(String[] args) {
    System.exit(run(args, System.out, System.err));
  }

  /** Runs the command with the given streams; returns the exit code. */
  public static int run(String[] args, PrintStream out, PrintStream err) {
    if (Arrays.asList(args).contains("--streaming")) {
      return StreamingSimulateMain.run(args, out, err, streamingWorld(SimParams.defaults()));
    }
    try {
      SimArgs a = SimArgs.parse(args);
      if (a.help()) {
        out.print(SimArgs.USAGE);
        return 0;
      }
      return simulate(a, out, err);
    } catch (SimArgs.UsageException e) {
      err.println(PREFIX + e.getMessage());
      return 2;
    } catch (SimulationException e) {
      err.println(PREFIX + "the simulation could not finish: " + e.getMessage());
      return 1;
    } catch (IOException | UncheckedIOException e) {
      err.println(PREFIX + "cannot write the outputs: " + e.getMessage());
      return 1;
    }
  }

  private static int simulate(SimArgs a, PrintStream out, PrintStream err)
      throws SimArgs.UsageException, IOException {
    List<String> policies = policies(a.policy());
    List<String> warnings = new ArrayList<>();
    SimConfig config;
    try {
      config = SimConfig.of(a.conf(), a.world(), a.heartbeatMs(), warnings);
    } catch (ConfigException e) {
      throw new SimArgs.UsageException("invalid configuration: " + e.problems().stream()
          .map(ConfigProblem::message).collect(Collectors.joining("; ")));
    }
    warnings.forEach(w -> err.println(PREFIX + "warning: " + w));
    Trace trace = read(a.trace());
    String name = traceName(a.trace());
    OutputFiles files = a.out() == null ? null : outputs(a.out(), name);
    List<SimResult> results = new ArrayList<>();
    for (String policy : policies) {
      SimResult r = runOne(trace, name, policy, config, files);
      if (files != null) {
        files.writeTimeline(r);
      }
      if (a.json()) {
        out.println(ResultFormat.json(r));
      }
      results.add(r);
    }
    if (!a.json()) {
      out.print(ResultFormat.table(name, results));
    }
    out.flush();
    return 0;
  }

  private static SimResult runOne(Trace trace, String name, String policy, SimConfig config, OutputFiles files)
      throws IOException {
    if (policy.equals(Oracle.NAME)) {
      return Oracle.run(trace, name, config);
    }
    if (policy.equals(Oracle.BOUND)) {
      return Oracle.startAwareBound(Oracle.run(trace, name, config), config.params());
    }
    if (files == null) {
      return PolicyRun.run(trace, name, policy, config, null);
    }
    try (BufferedWriter log = files.eventLog(policy)) {
      return PolicyRun.run(trace, name, policy, config, log);
    }
  }

  /** {@code all}: every policy the allocator knows, then the oracle and its start-aware bound; else one of them. */
  static List<String> policies(String chosen) throws SimArgs.UsageException {
    String p = chosen.toLowerCase(Locale.ROOT);
    List<String> all = new ArrayList<>(AllocationPolicies.available());
    all.add(Oracle.NAME);
    all.add(Oracle.BOUND);
    if (p.equals("all")) {
      return all;
    }
    if (all.contains(p)) {
      return List.of(p);
    }
    if (p.equals(AllocationPolicies.SPARK_REFERENCE)) {
      throw new SimArgs.UsageException("spark-reference runs Spark's own allocation manager and needs its module:"
          + " build it with `mvn -B install -DskipTests -pl bench/spark-reference -am`");
    }
    throw new SimArgs.UsageException("unknown policy '" + chosen + "' (known: " + String.join(", ", all) + ", all)");
  }

  private static Trace read(Path file) throws SimArgs.UsageException {
    try {
      return Trace.read(file);
    } catch (NoSuchFileException e) {
      throw new SimArgs.UsageException("cannot read the trace " + file + ": no such file");
    } catch (TraceFormatException e) {
      throw new SimArgs.UsageException("bad trace: " + e.getMessage());
    } catch (IOException e) {
      throw new SimArgs.UsageException("cannot read the trace " + file + ": " + e.getMessage());
    }
  }

  private static OutputFiles outputs(Path dir, String trace) throws SimArgs.UsageException {
    try {
      return OutputFiles.in(dir, trace);
    } catch (IOException e) {
      throw new SimArgs.UsageException("cannot create the output directory " + dir + ": " + e);
    }
  }

  /** The batch simulator's world for a streaming run: one definition of the cluster and its defaults. */
  static StreamingWorld streamingWorld(SimParams p) {
    return new StreamingWorld(p.grantMs(), p.startMs(), p.startContention(), p.capacity(), p.hosts(), p.oneMachine(),
        p.heartbeat());
  }

  /** {@code q72.trace.jsonl} → {@code q72}. */
  static String traceName(Path file) {
    String n = file.getFileName().toString();
    for (String suffix : List.of(".trace.jsonl", ".jsonl")) {
      if (n.endsWith(suffix) && n.length() > suffix.length()) {
        return n.substring(0, n.length() - suffix.length());
      }
    }
    return n;
  }
}
