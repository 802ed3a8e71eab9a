package org.elasticam.sim.streaming;

import java.io.PrintStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.elasticam.workload.stream.RateProfile;

/**
 * {@code bin/elasticam simulate --streaming --eventlog F [--eventlog F2 ...] --rate PROFILE [--json]}:
 * the simulator's figures for real streaming runs, from their ApplicationMaster event logs, one row
 * per run, so a run on a cluster and a simulated one are judged by the same definitions. The rate
 * profile the runs were given supplies the change points.
 */
final class EventLogFigures {

  static final String USAGE = """
      usage: bin/elasticam simulate --streaming --eventlog F [--eventlog F ...] --rate PROFILE [--json]
        The figures of real streaming runs, from their event logs (one row per run), as the
        simulator reports them; --rate is the profile the runs were given (for its change points).
      """;

  private EventLogFigures() {}

  /** Whether the command line asks for this mode. */
  static boolean wanted(String[] args) {
    for (String a : args) {
      if (a.equals("--eventlog") || a.startsWith("--eventlog=")) {
        return true;
      }
    }
    return false;
  }

  static int run(String[] args, PrintStream out) throws StreamingArgs.UsageException {
    List<Path> logs = new ArrayList<>();
    String rate = null;
    boolean json = false;
    for (int i = 0; i < args.length; i++) {
      String a = args[i];
      int eq = a.indexOf('=');
      String name = eq > 0 ? a.substring(0, eq) : a;
      switch (name) {
        case "--streaming" -> { }
        case "--json" -> json = true;
        case "--eventlog", "--rate" -> {
          String value;
          if (eq > 0) {
            value = a.substring(eq + 1);
          } else if (i + 1 < args.length) {
            value = args[++i];
          } else {
            throw new StreamingArgs.UsageException(name + " needs a value");
          }
          if (name.equals("--rate")) {
            if (rate != null) {
              throw new StreamingArgs.UsageException("--rate given twice");
            }
            rate = value;
          } else {
            logs.add(org.elasticam.sim.ArgValues.path(name, value, StreamingArgs.UsageException::new));
          }
        }
        default -> throw new StreamingArgs.UsageException(name + " does not go with --eventlog (see"
            + " --streaming --help)");
      }
    }
    if (rate == null) {
      throw new StreamingArgs.UsageException("--eventlog needs --rate PROFILE, the profile the runs were given");
    }
    RateProfile profile;
    try {
      profile = RateProfile.parse(rate, Path.of(""));
    } catch (IllegalArgumentException e) {
      throw new StreamingArgs.UsageException("--rate: " + e.getMessage());
    }
    List<StreamingFormat.Row> rows = new ArrayList<>();
    long batchMs = 0;
    for (Path log : logs) {
      EventLogRun.Read r = EventLogRun.read(log);
      if (batchMs != 0 && r.batchMs() != batchMs) {
        throw new StreamingArgs.UsageException(log + " has batches of " + r.batchMs() + " ms, the others "
            + batchMs + " ms: compare runs of one load");
      }
      batchMs = r.batchMs();
      StreamingMetrics m = StreamingMetrics.of(r.result().batches(), batchMs, profile.changePointsMs(),
          r.result().executorMs() / 1000.0);
      StreamingFormat.Row row = new StreamingFormat.Row(r.result(), m);
      if (json) {
        out.println(StreamingFormat.json(row, profile.spec(), batchMs));
      }
      rows.add(row);
    }
    if (!json) {
      out.print(StreamingFormat.table(profile.spec(), batchMs, rows));
    }
    out.flush();
    return 0;
  }
}
