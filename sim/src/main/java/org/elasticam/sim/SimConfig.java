package org.elasticam.sim;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.elasticam.allocator.HeartbeatSchedule;
import java.util.TreeMap;
import org.elasticam.conf.ConfigException;
import org.elasticam.conf.ConfigProblem;
import org.elasticam.conf.DynamicAllocationKeys;
import org.elasticam.conf.ElasticConf;
import org.elasticam.conf.ExecutorKeys;
import org.elasticam.conf.ShuffleKeys;
import org.elasticam.conf.UnknownKeys;
import org.elasticam.conf.YarnKeys;

/**
 * The configuration a simulated application runs with — the simulator's defaults with the user's
 * {@code --conf} overrides on top, validated by the same rules as a submission — and the
 * simulated world.
 *
 * <p>Simulator defaults: dynamic allocation on (it is what the simulator compares), and the
 * external shuffle service on: the comparison assumes it, as Spark-on-YARN users of dynamic
 * allocation run it, so executors hold no shuffle output that would keep them alive.
 * {@code elasticam.dynamicAllocation.policy} is not read: {@code --policy} chooses.
 */
record SimConfig(ElasticConf conf, SimParams params) {

  static final Map<String, String> DEFAULTS = Map.of(
      DynamicAllocationKeys.ENABLED.name(), "true",
      ShuffleKeys.SERVICE_ENABLED.name(), "true");

  /**
   * @param heartbeatMs the {@code --heartbeat-ms} flag, or null to take the configuration's
   *     {@code elasticam.yarn.heartbeat.interval}
   * @param warnings receives one line per key that nothing reads
   * @throws ConfigException listing every broken rule
   */
  static SimConfig of(Map<String, String> overrides, SimParams world, Long heartbeatMs, List<String> warnings) {
    Map<String, String> values = new LinkedHashMap<>(DEFAULTS);
    values.putAll(overrides);
    ElasticConf conf = ElasticConf.of(values).validated();
    if (!conf.dynamicAllocationEnabled()) {
      throw new ConfigException(List.of(new ConfigProblem(DynamicAllocationKeys.ENABLED.name(), "false",
          "the simulator compares dynamic-allocation policies; it must be true")));
    }
    warnings.addAll(UnknownKeys.warnings(new TreeMap<>(overrides).keySet()));
    for (String k : new TreeMap<>(overrides).keySet()) {
      if (!k.startsWith(ElasticConf.PREFIX)) {
        warnings.add("ignoring " + k + ": not an ElasticAM key (they start with " + ElasticConf.PREFIX + ")");
      }
    }
    long heartbeat = heartbeatMs != null ? heartbeatMs : conf.get(YarnKeys.HEARTBEAT_INTERVAL).toMillis();
    return new SimConfig(conf, world.withHeartbeat(HeartbeatSchedule.Intervals.of(conf, heartbeat)));
  }

  /** The defaults, with optional overrides; for tests. */
  static SimConfig of(Map<String, String> overrides, SimParams world) {
    return of(overrides, world, null, new ArrayList<>());
  }

  int executorCores() {
    return conf.get(ExecutorKeys.CORES);
  }

  /** Task slots per executor: cores / task.cpus, as the AM's driver counts them. */
  int slotsPerExecutor() {
    return conf.tasksPerExecutor();
  }

  /** The most tasks that could ever run at once: the executor bound or the cluster, whichever is smaller. */
  long maxSlots() {
    long executors = Math.min(conf.get(DynamicAllocationKeys.MAX_EXECUTORS), params.capacity());
    return executors * slotsPerExecutor();
  }
}
