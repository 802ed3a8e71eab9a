package org.elasticam.sim.streaming;

import static org.elasticam.sim.ArgValues.decimal;
import static org.elasticam.sim.ArgValues.number;

import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import org.elasticam.sim.ArgValues;

/**
 * The command line of {@code bin/elasticam simulate --streaming}, parsed and checked; every mistake
 * is one {@link UsageException} with one line saying what is wrong, as for the batch simulation.
 *
 * @param batches the {@code --batches} flag, or null to take the rate profile's natural length
 * @param partitions tasks per batch, or null for two per executor
 * @param minExecutors flags that stand for configuration keys, or null when not given
 * @param heartbeatMs the {@code --heartbeat-ms} flag, or null to take the configuration's
 */
record StreamingArgs(String rate, long batchMs, Integer batches, long workPerRecordUs, Integer partitions,
    String policy, Integer minExecutors, Integer maxExecutors, Integer initialExecutors, Integer cores,
    long taskOverheadMs, long seed, Long heartbeatMs, Map<String, String> conf, StreamingWorld world, boolean json,
    boolean help) {

  static final long DEFAULT_WORK_PER_RECORD_US = 1000;
  static final long DEFAULT_TASK_OVERHEAD_MS = 10;
  static final long DEFAULT_SEED = 1;
  static final int MAX_BATCHES = 1_000_000;
  static final long MAX_BATCH_MS = 24L * 3600 * 1000;

  /** Bad command-line input: the message is the one line the user sees. */
  static final class UsageException extends Exception {
    private static final long serialVersionUID = 1L;

    UsageException(String message) {
      super(message, null, false, false);
    }
  }

  static final String USAGE = """
      usage: bin/elasticam simulate --streaming --batch-ms N --rate PROFILE [options]
        Runs a micro-batch job against the real streaming allocation policies, with simulated
        executors, and prints each policy's figures.
      options:
        --batch-ms N             the batch interval in ms (required)
        --rate PROFILE           input records per second over stream time (required):
                                 const:R | step:R1@T1,R2@T2,... | ramp:R1-R2@T | sine:MEAN,AMPLITUDE,PERIOD
                                 | file:F (one rate per line per second); times 500ms, 30s, 5min, 1h, bare = s
        --batches N              batches to run (default: the profile's natural length — a file's
                                 length, or a step profile's last change plus its last step; else required)
        --work-per-record-us N   CPU time per record (default 1000)
        --partitions N           tasks per batch (default 2 per executor at submission)
        --task-overhead-ms N     fixed time every task adds (default 10)
        --policy P               rounds, ratio, model or all (default all)
        --min-executors N        elasticam.streaming.dynamicAllocation.minExecutors (default 1)
        --max-executors N        elasticam.streaming.dynamicAllocation.maxExecutors (simulator default 20)
        --initial-executors N    elasticam.executor.instances: the target before the first decision (default min)
        --cores N                elasticam.executor.cores (default 1)
        --seed N                 seeds the policies' random choices (ratio's removals; default 1)
        --grant-ms N, --start-ms N, --start-contention X, --hosts N, --capacity N, --one-machine,
        --heartbeat-ms N         the simulated cluster, as for the batch simulation (simulate --help)
        --conf key=value         an elasticam.* setting (repeatable), e.g.
                                 elasticam.streaming.dynamicAllocation.releaseRounds=3
        --json                   one JSON object per line per policy instead of a table
        --help                   this text
      or: bin/elasticam simulate --streaming --eventlog F [--eventlog F ...] --rate PROFILE [--json]
        the same figures for real streaming runs, from their ApplicationMaster event logs (one row per
        run); --rate is the profile the runs were given
      """;

  static StreamingArgs parse(String[] args, StreamingWorld defaults) throws UsageException {
    Parser p = new Parser(defaults);
    for (int i = 0; i < args.length; i++) {
      String arg = args[i];
      if (arg.equals("--help") || arg.equals("-h")) {
        return new StreamingArgs(null, 0, null, 0, null, "all", null, null, null, null, 0, 0, null, Map.of(),
            defaults, false, true);
      }
      if (!arg.startsWith("--")) {
        throw new UsageException("unexpected argument '" + arg + "' (options start with --; see --streaming --help)");
      }
      int eq = arg.indexOf('=');
      String name = eq > 0 ? arg.substring(0, eq) : arg;
      if (Parser.FLAGS.contains(name)) {
        if (eq > 0) {
          throw new UsageException(name + " takes no value");
        }
        p.flag(name);
        continue;
      }
      String value;
      if (eq > 0) {
        value = arg.substring(eq + 1);
      } else if (i + 1 < args.length) {
        value = args[++i];
      } else {
        throw new UsageException(Parser.OPTIONS.contains(name) ? name + " needs a value" : Parser.unknown(name));
      }
      p.option(name, value);
    }
    return p.build();
  }

  /** Accumulates options; checks each value as it comes. */
  private static final class Parser {
    static final Set<String> FLAGS = Set.of("--streaming", "--json", "--one-machine");
    static final Set<String> OPTIONS = Set.of("--batch-ms", "--rate", "--batches", "--work-per-record-us",
        "--partitions", "--task-overhead-ms", "--policy", "--min-executors", "--max-executors",
        "--initial-executors", "--cores", "--seed", "--grant-ms", "--start-ms", "--start-contention", "--hosts",
        "--capacity", "--heartbeat-ms", "--conf");
    private final Set<String> seen = new HashSet<>();
    private final Map<String, String> conf = new LinkedHashMap<>();
    private StreamingWorld world;
    private String rate;
    private Long batchMs;
    private Integer batches;
    private long workPerRecordUs = DEFAULT_WORK_PER_RECORD_US;
    private Integer partitions;
    private long taskOverheadMs = DEFAULT_TASK_OVERHEAD_MS;
    private String policy = "all";
    private Integer min;
    private Integer max;
    private Integer initial;
    private Integer cores;
    private long seed = DEFAULT_SEED;
    private Long heartbeatMs;
    private boolean json;

    Parser(StreamingWorld defaults) {
      this.world = defaults;
    }

    static String unknown(String name) {
      if (name.equals("--trace") || name.equals("--time-scale") || name.equals("--out")) {
        return name + " is for trace simulations; a streaming one takes --rate and --batch-ms (see --streaming --help)";
      }
      return "unknown option " + name + " (see --streaming --help)";
    }

    void once(String name) throws UsageException {
      if (!seen.add(name)) {
        throw new UsageException(name + " given twice");
      }
    }

    void flag(String name) throws UsageException {
      once(name);
      switch (name) {
        case "--json" -> json = true;
        case "--one-machine" -> world = world.withOneMachine(true);
        default -> { } // --streaming: it brought us here
      }
    }

    void option(String name, String value) throws UsageException {
      if (!OPTIONS.contains(name)) {
        throw new UsageException(unknown(name));
      }
      if (!name.equals("--conf")) {
        once(name);
      }
      Function<String, UsageException> bad = UsageException::new;
      switch (name) {
        case "--batch-ms" -> batchMs = number(name, value, 1, MAX_BATCH_MS, bad);
        case "--rate" -> rate = value;
        case "--batches" -> batches = (int) number(name, value, 1, MAX_BATCHES, bad);
        case "--work-per-record-us" -> workPerRecordUs = number(name, value, 0, 1_000_000_000, bad);
        case "--partitions" -> partitions = (int) number(name, value, 1, 1_000_000, bad);
        case "--task-overhead-ms" -> taskOverheadMs = number(name, value, 0, MAX_BATCH_MS, bad);
        case "--policy" -> policy = value.trim();
        case "--min-executors" -> min = (int) number(name, value, 1, 100_000, bad);
        case "--max-executors" -> max = (int) number(name, value, 1, 100_000, bad);
        case "--initial-executors" -> initial = (int) number(name, value, 1, 100_000, bad);
        case "--cores" -> cores = (int) number(name, value, 1, 1024, bad);
        case "--seed" -> seed = number(name, value, Long.MIN_VALUE, Long.MAX_VALUE, bad);
        case "--grant-ms" -> world = world.withGrantMs(number(name, value, 0, MAX_BATCH_MS, bad));
        case "--start-ms" -> world = world.withStartMs(number(name, value, 0, MAX_BATCH_MS, bad));
        case "--start-contention" -> world = world.withStartContention(decimal(name, value, false, bad));
        case "--hosts" -> world = world.withHosts((int) number(name, value, 1, 100_000, bad));
        case "--capacity" -> world = world.withCapacity((int) number(name, value, 1, 100_000, bad));
        case "--heartbeat-ms" -> heartbeatMs = number(name, value, 1, MAX_BATCH_MS, bad);
        default -> ArgValues.conf(conf, value, bad);
      }
    }

    StreamingArgs build() throws UsageException {
      if (batchMs == null) {
        throw new UsageException("--batch-ms N is required (see --streaming --help)");
      }
      if (rate == null) {
        throw new UsageException("--rate PROFILE is required, e.g. --rate step:100@0,300@5min"
            + " (see --streaming --help)");
      }
      if (policy.isEmpty()) {
        throw new UsageException("--policy needs a name");
      }
      return new StreamingArgs(rate, batchMs, batches, workPerRecordUs, partitions, policy, min, max, initial, cores,
          taskOverheadMs, seed, heartbeatMs, conf, world, json, false);
    }
  }
}
