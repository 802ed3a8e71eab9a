package org.elasticam.sim.streaming;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.elasticam.allocator.HeartbeatSchedule;
import org.elasticam.allocator.streaming.StreamingSettings;
import org.elasticam.conf.ConfigException;
import org.elasticam.conf.ConfigKey;
import org.elasticam.conf.ConfigProblem;
import org.elasticam.conf.ElasticConf;
import org.elasticam.conf.ExecutorKeys;
import org.elasticam.conf.StreamingKeys;
import org.elasticam.conf.UnknownKeys;
import org.elasticam.conf.YarnKeys;

/**
 * The configuration a simulated streaming job runs with: the simulator's defaults, then
 * {@code --conf}, then the flags that stand for keys ({@code --max-executors} and the like),
 * validated by the submission's rules and turned into the policies' settings.
 *
 * <p>Simulator defaults: streaming dynamic allocation on (it is what the simulator compares) and
 * maxExecutors 20, because submissions must set it (rounds asks for all of it after a late batch)
 * and a simulation should run without ceremony. {@code elasticam.streaming.dynamicAllocation.policy}
 * is not read: {@code --policy} chooses.
 *
 * @param slotsPerExecutor tasks an executor runs at once: cores / task.cpus
 */
record StreamingSimConfig(StreamingSettings settings, int slotsPerExecutor, StreamingWorld world) {

  static final int DEFAULT_MAX_EXECUTORS = 20;

  /**
   * @param warnings receives one line per key that nothing reads
   * @throws StreamingArgs.UsageException for a flag and a key given for the same setting, or
   *     configuration that breaks a rule (all broken rules on one line)
   */
  static StreamingSimConfig of(StreamingArgs a, List<String> warnings) throws StreamingArgs.UsageException {
    Map<String, String> values = new LinkedHashMap<>();
    values.put(StreamingKeys.ENABLED.name(), "true");
    values.put(StreamingKeys.MAX_EXECUTORS.name(), Integer.toString(DEFAULT_MAX_EXECUTORS));
    values.putAll(a.conf());
    flag(values, a, "--min-executors", StreamingKeys.MIN_EXECUTORS, a.minExecutors());
    flag(values, a, "--max-executors", StreamingKeys.MAX_EXECUTORS, a.maxExecutors());
    flag(values, a, "--initial-executors", ExecutorKeys.INSTANCES, a.initialExecutors());
    flag(values, a, "--cores", ExecutorKeys.CORES, a.cores());
    ElasticConf conf;
    try {
      conf = ElasticConf.of(values).validated();
      if (!conf.get(StreamingKeys.ENABLED)) {
        throw new ConfigException(List.of(new ConfigProblem(StreamingKeys.ENABLED.name(), "false",
            "the streaming simulator compares streaming policies; it must be true")));
      }
    } catch (ConfigException e) {
      throw new StreamingArgs.UsageException("invalid configuration: " + String.join("; ",
          e.problems().stream().map(ConfigProblem::message).toList()));
    }
    warnings.addAll(warnings(a.conf()));
    long heartbeat = a.heartbeatMs() != null ? a.heartbeatMs() : conf.get(YarnKeys.HEARTBEAT_INTERVAL).toMillis();
    try {
      return new StreamingSimConfig(StreamingSettings.from(conf, a.batchMs()), conf.tasksPerExecutor(),
          a.world().withHeartbeat(HeartbeatSchedule.Intervals.of(conf, heartbeat)));
    } catch (IllegalArgumentException e) {
      throw new StreamingArgs.UsageException("invalid configuration: " + e.getMessage());
    }
  }

  private static void flag(Map<String, String> values, StreamingArgs a, String flag, ConfigKey<?> key, Integer value)
      throws StreamingArgs.UsageException {
    if (value == null) {
      return;
    }
    if (a.conf().containsKey(key.name())) {
      throw new StreamingArgs.UsageException(flag + " and --conf " + key.name() + " both given; give one");
    }
    values.put(key.name(), value.toString());
  }

  private static List<String> warnings(Map<String, String> overrides) {
    TreeMap<String, String> sorted = new TreeMap<>(overrides);
    List<String> out = new ArrayList<>(UnknownKeys.warnings(sorted.keySet()));
    for (String k : sorted.keySet()) {
      if (!k.startsWith(ElasticConf.PREFIX)) {
        out.add("ignoring " + k + ": not an ElasticAM key (they start with " + ElasticConf.PREFIX + ")");
      } else if (k.equals(StreamingKeys.POLICY.name())) {
        out.add("ignoring " + k + ": --policy chooses the policies to simulate");
      }
    }
    return out;
  }
}
