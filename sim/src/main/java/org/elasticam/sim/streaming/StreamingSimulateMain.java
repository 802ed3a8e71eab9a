package org.elasticam.sim.streaming;

import java.io.PrintStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.OptionalLong;
import org.elasticam.allocator.streaming.StreamingPolicies;
import org.elasticam.allocator.streaming.StreamingPolicy;
import org.elasticam.workload.stream.BatchLoad;
import org.elasticam.workload.stream.RateProfile;

/**
 * {@code bin/elasticam simulate --streaming}: runs each chosen streaming policy on the same
 * micro-batch load and prints the figures. Exit 0 on success, 2 for bad input (flags,
 * configuration, rate profile), 1 when a run cannot finish — always with one line saying why.
 */
public final class StreamingSimulateMain {

  private static final String PREFIX = "elasticam simulate: ";
  /** As long as a rate profile's times may go; it also bounds the 100 ms ticks a run makes. */
  static final long MAX_STREAM_MS = 30L * 24 * 3600 * 1000;

  private StreamingSimulateMain() {}

  /**
   * Runs the command with the given streams; returns the exit code.
   *
   * @param world the simulated cluster's defaults, the batch simulator's
   */
  public static int run(String[] args, PrintStream out, PrintStream err, StreamingWorld world) {
    try {
      if (EventLogFigures.wanted(args)) {
        return EventLogFigures.run(args, out);
      }
      StreamingArgs a = StreamingArgs.parse(args, world);
      if (a.help()) {
        out.print(StreamingArgs.USAGE);
        return 0;
      }
      return simulate(a, out, err);
    } catch (StreamingArgs.UsageException e) {
      err.println(PREFIX + oneLine(e.getMessage()));
      return 2;
    } catch (IllegalStateException e) {
      err.println(PREFIX + "the simulation could not finish: " + oneLine(e.getMessage()));
      return 1;
    }
  }

  private static int simulate(StreamingArgs a, PrintStream out, PrintStream err) throws StreamingArgs.UsageException {
    List<String> policies = policies(a.policy());
    List<String> warnings = new ArrayList<>();
    StreamingSimConfig config = StreamingSimConfig.of(a, warnings);
    warnings.forEach(w -> err.println(PREFIX + "warning: " + oneLine(w)));
    RateProfile profile = profile(a.rate());
    BatchLoad load = new BatchLoad(profile, a.batchMs(), a.workPerRecordUs());
    int batches = batches(a, profile);
    if ((long) batches * a.batchMs() > MAX_STREAM_MS) {
      throw new StreamingArgs.UsageException(batches + " batches of " + a.batchMs() + " ms run longer than the 30 days"
          + " a simulation covers");
    }
    StreamingSim.Setup setup = new StreamingSim.Setup(load, batches, a.partitions(),
        a.taskOverheadMs(), config.slotsPerExecutor(), config.world());
    checkWorkFits(setup);
    List<StreamingFormat.Row> rows = new ArrayList<>();
    for (String name : policies) {
      StreamingPolicy policy = StreamingPolicies.create(name, config.settings(), a.seed());
      StreamingResult run = StreamingSim.run(policy, setup);
      StreamingMetrics metrics = StreamingMetrics.of(run.batches(), a.batchMs(), profile.changePointsMs(),
          run.executorMs() / 1000.0);
      StreamingFormat.Row row = new StreamingFormat.Row(run, metrics);
      if (a.json()) {
        out.println(StreamingFormat.json(row, profile.spec(), a.batchMs()));
      }
      rows.add(row);
    }
    if (!a.json()) {
      out.print(StreamingFormat.table(profile.spec(), a.batchMs(), rows));
    }
    out.flush();
    return 0;
  }

  /** {@code all}: every policy the factory knows; else one of them. */
  static List<String> policies(String chosen) throws StreamingArgs.UsageException {
    String p = chosen.toLowerCase(Locale.ROOT);
    List<String> all = StreamingPolicies.names();
    if (p.equals("all")) {
      return all;
    }
    if (all.contains(p)) {
      return List.of(p);
    }
    throw new StreamingArgs.UsageException("unknown streaming policy '" + chosen + "' (known: "
        + String.join(", ", all) + ", all)");
  }

  private static RateProfile profile(String spec) throws StreamingArgs.UsageException {
    try {
      return RateProfile.parse(spec, Path.of(""));
    } catch (IllegalArgumentException e) {
      throw new StreamingArgs.UsageException("--rate: " + e.getMessage());
    }
  }

  /** The flag, or as many whole batches as the profile's natural length holds. */
  static int batches(StreamingArgs a, RateProfile profile) throws StreamingArgs.UsageException {
    if (a.batches() != null) {
      return a.batches();
    }
    OptionalLong length = profile.naturalLengthMs();
    if (length.isEmpty()) {
      throw new StreamingArgs.UsageException("--batches N is required: the rate profile '" + profile.spec()
          + "' has no natural length (only file and multi-step profiles do)");
    }
    long n = length.getAsLong() / a.batchMs();
    if (n < 1 || n > StreamingArgs.MAX_BATCHES) {
      throw new StreamingArgs.UsageException("--batches N is required: the rate profile's length of "
          + length.getAsLong() + " ms holds " + n + " batches of " + a.batchMs() + " ms (allowed: 1 to "
          + StreamingArgs.MAX_BATCHES + ")");
    }
    return (int) n;
  }

  /** Refuses a load whose work per batch overflows, before any run starts. */
  private static void checkWorkFits(StreamingSim.Setup setup) throws StreamingArgs.UsageException {
    BatchLoad load = setup.load();
    try {
      for (int i = 0; i < setup.batches(); i++) {
        Math.addExact(load.taskMs(i, 1), setup.taskOverheadMs());
      }
    } catch (ArithmeticException e) {
      throw new StreamingArgs.UsageException("a batch's work does not fit in a long: lower --rate, --batch-ms or"
          + " --work-per-record-us");
    }
  }

  /** Keeps a message on one line whatever the input held. */
  private static String oneLine(String message) {
    return message.replaceAll("\\p{Cntrl}", "?");
  }
}
