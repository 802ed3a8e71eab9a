package org.elasticam.sim;

import static org.elasticam.sim.ArgValues.decimal;
import static org.elasticam.sim.ArgValues.number;
import static org.elasticam.sim.ArgValues.path;

import java.nio.file.Path;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;

/**
 * The command line of {@code bin/elasticam simulate}, parsed and checked; every mistake is one
 * {@link UsageException} with one line saying what is wrong.
 *
 * @param heartbeatMs the {@code --heartbeat-ms} flag, or null to take the configuration's
 */
record SimArgs(Path trace, String policy, SimParams world, Long heartbeatMs, Map<String, String> conf,
    boolean json, Path out, boolean help) {

  /** Bad command-line input: the message is the one line the user sees. */
  static final class UsageException extends Exception {
    private static final long serialVersionUID = 1L;

    UsageException(String message) {
      super(message, null, false, false);
    }
  }

  static final String USAGE = """
      usage: bin/elasticam simulate --trace F [options]
        Replays a workload trace against the real allocation policies and allocator, with a
        simulated ResourceManager and executors, and prints each policy's figures.
      options:
        --trace F              the workload trace (<name>.trace.jsonl)
        --policy P             a policy name, oracle, oracle-start-bound, or all (default all: every
                               policy, the oracle, and the oracle's curve with every new executor paying
                               the grant and start latency: the start-aware bound)
        --grant-ms N           ResourceManager grant latency after a request arrives (default 200)
        --start-ms N           executor start latency, launch to registration, alone on its host (default 1000)
        --start-contention X   extra start latency per executor already starting on the host, as a
                               fraction of --start-ms (default 0.1)
        --one-machine          every host shares one machine's cores: executors starting anywhere slow
                               each other (as on the embedded cluster); default: only on the same host
        --capacity N           the most containers the cluster gives the application (default 500);
                               each host holds at most its share, capacity / hosts rounded up
        --heartbeat-ms N       AM heartbeat while no request is pending (default elasticam.yarn.heartbeat.interval, 3000)
        --hosts N              NodeManagers host-01..host-N (default 20)
        --time-scale S         multiplies the trace's durations and gaps (default 1)
        --conf key=value       an elasticam.* setting (repeatable); dynamic allocation and the shuffle
                               service are on unless set otherwise
        --json                 one JSON object per line per policy instead of a table
        --out DIR              also write, per policy, <trace>.<policy>.jsonl (event log), .csv and .svg
        --help                 this text
      A streaming (micro-batch) job instead: simulate --streaming --batch-ms N --rate PROFILE [options]
      (simulate --streaming --help).
      """;

  static SimArgs parse(String[] args) throws UsageException {
    Parser p = new Parser();
    for (int i = 0; i < args.length; i++) {
      String arg = args[i];
      if (arg.equals("--help") || arg.equals("-h")) {
        return new SimArgs(null, "all", SimParams.defaults(), null, Map.of(), false, null, true);
      }
      if (!arg.startsWith("--")) {
        throw new UsageException("unexpected argument '" + arg + "' (options start with --; see --help)");
      }
      int eq = arg.indexOf('=');
      String name = eq > 0 ? arg.substring(0, eq) : arg;
      if (name.equals("--json")) {
        p.once(name);
        p.json = true;
        continue;
      }
      if (name.equals("--one-machine")) {
        p.once(name);
        p.world = p.world.withOneMachine(true);
        continue;
      }
      String value;
      if (eq > 0) {
        value = arg.substring(eq + 1);
      } else if (i + 1 < args.length) {
        value = args[++i];
      } else {
        throw new UsageException(Parser.known(name) ? name + " needs a value" : unknown(name));
      }
      p.option(name, value);
    }
    return p.build();
  }

  private static String unknown(String name) {
    return "unknown option " + name + " (see --help)";
  }

  /** Accumulates options; checks each value as it comes. */
  private static final class Parser {
    private static final Set<String> OPTIONS = Set.of("--trace", "--policy", "--grant-ms", "--start-ms",
        "--start-contention", "--one-machine", "--capacity", "--heartbeat-ms", "--hosts", "--time-scale", "--conf", "--out", "--json");
    private final Set<String> seen = new HashSet<>();
    private final Map<String, String> conf = new LinkedHashMap<>();
    private SimParams world = SimParams.defaults();
    private Path trace;
    private String policy = "all";
    private Long heartbeatMs;
    private boolean json;
    private Path out;

    static boolean known(String name) {
      return OPTIONS.contains(name);
    }

    void once(String name) throws UsageException {
      if (!seen.add(name)) {
        throw new UsageException(name + " given twice");
      }
    }

    void option(String name, String value) throws UsageException {
      if (!known(name)) {
        throw new UsageException(unknown(name));
      }
      if (!name.equals("--conf")) {
        once(name);
      }
      Function<String, UsageException> bad = UsageException::new;
      switch (name) {
        case "--trace" -> trace = path(name, value, bad);
        case "--policy" -> policy = value.trim();
        case "--grant-ms" -> world = world.withGrantMs(number(name, value, 0, Long.MAX_VALUE / 4, bad));
        case "--start-ms" -> world = world.withStartMs(number(name, value, 0, Long.MAX_VALUE / 4, bad));
        case "--start-contention" -> world = world.withStartContention(decimal(name, value, false, bad));
        case "--capacity" -> world = world.withCapacity((int) number(name, value, 1, Integer.MAX_VALUE, bad));
        case "--heartbeat-ms" -> heartbeatMs = number(name, value, 1, Long.MAX_VALUE / 4, bad);
        case "--hosts" -> world = world.withHosts((int) number(name, value, 1, 100_000, bad));
        case "--time-scale" -> world = world.withTimeScale(decimal(name, value, true, bad));
        case "--out" -> out = path(name, value, bad);
        default -> ArgValues.conf(conf, value, bad);
      }
    }

    SimArgs build() throws UsageException {
      if (trace == null) {
        throw new UsageException("--trace F is required (see --help)");
      }
      if (policy.isEmpty()) {
        throw new UsageException("--policy needs a name");
      }
      return new SimArgs(trace, policy, world, heartbeatMs, conf, json, out, false);
    }
  }
}
