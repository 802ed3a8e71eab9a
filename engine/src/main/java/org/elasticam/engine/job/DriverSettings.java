package org.elasticam.engine.job;

import java.time.Duration;
import org.elasticam.engine.scheduling.TaskScheduler;
import org.elasticam.conf.ElasticConf;
import org.elasticam.conf.ExecutorKeys;
import org.elasticam.conf.YarnKeys;

/**
 * What the driver reads from configuration, once.
 *
 * @param staticTarget executors to hold for the whole job (elasticam.executor.instances, 2 unset)
 * @param minRegisteredRatio share of the initial executors registered before the first task is scheduled
 * @param maxRegisteredWait how long the first task waits for that share at most
 * @param lostReleaseGrace how long a lost executor's container may take to report its own exit
 *     before the AM releases it
 * @param excludeOnFailure nodes the job stops using after repeated task failures there
 * @param speculation when a slow task gets a copy, and how often tasks are checked
 * @param maxConsecutiveFailedBatches failed batches in a row that end a streaming job
 */
public record DriverSettings(String appId, int staticTarget, int taskCpus, int maxTaskFailures,
    Duration localityWait, Duration heartbeatInterval, Duration heartbeatTimeout, Duration registrationTimeout,
    double minRegisteredRatio, Duration maxRegisteredWait, Duration lostReleaseGrace,
    ExcludeOnFailure excludeOnFailure, TaskScheduler.Speculation speculation, Duration speculationInterval,
    int maxConsecutiveFailedBatches) {

  /** Without speculation, as tests that do not exercise it build the settings. */
  public DriverSettings(String appId, int staticTarget, int taskCpus, int maxTaskFailures, Duration localityWait,
      Duration heartbeatInterval, Duration heartbeatTimeout, Duration registrationTimeout, double minRegisteredRatio,
      Duration maxRegisteredWait, Duration lostReleaseGrace, ExcludeOnFailure excludeOnFailure) {
    this(appId, staticTarget, taskCpus, maxTaskFailures, localityWait, heartbeatInterval, heartbeatTimeout,
        registrationTimeout, minRegisteredRatio, maxRegisteredWait, lostReleaseGrace, excludeOnFailure,
        TaskScheduler.Speculation.OFF, Duration.ofMillis(100), 3);
  }

  /** elasticam.excludeOnFailure.*: off, or the failed tasks per node that exclude it, for how long. */
  public record ExcludeOnFailure(boolean enabled, int maxFailedTasksPerNode, Duration timeout) {
    public static final ExcludeOnFailure OFF = new ExcludeOnFailure(false, 1, Duration.ofHours(1));
  }

  /** These settings with another heartbeat timeout. */
  public DriverSettings withHeartbeatTimeout(Duration timeout) {
    return new DriverSettings(appId, staticTarget, taskCpus, maxTaskFailures, localityWait, heartbeatInterval, timeout,
        registrationTimeout, minRegisteredRatio, maxRegisteredWait, lostReleaseGrace, excludeOnFailure, speculation,
        speculationInterval, maxConsecutiveFailedBatches);
  }

  /** Spark's default when executor.instances is unset and allocation is static. */
  public static final int DEFAULT_INSTANCES = 2;

  public static DriverSettings from(ElasticConf conf, String appId) {
    return new DriverSettings(appId,
        conf.getOptional(ExecutorKeys.INSTANCES).orElse(DEFAULT_INSTANCES),
        conf.get(ExecutorKeys.TASK_CPUS),
        conf.get(ExecutorKeys.TASK_MAX_FAILURES),
        conf.get(ExecutorKeys.LOCALITY_WAIT),
        conf.get(ExecutorKeys.HEARTBEAT_INTERVAL),
        conf.get(ExecutorKeys.HEARTBEAT_TIMEOUT),
        conf.get(ExecutorKeys.REGISTRATION_TIMEOUT),
        conf.get(ExecutorKeys.MIN_REGISTERED_RATIO),
        conf.get(ExecutorKeys.MAX_REGISTERED_WAIT),
        lostReleaseGrace(conf.get(YarnKeys.HEARTBEAT_INTERVAL)),
        new ExcludeOnFailure(conf.get(ExecutorKeys.EXCLUDE_ON_TASK_FAILURE),
            conf.get(ExecutorKeys.EXCLUDE_MAX_FAILED_TASKS_PER_NODE),
            conf.get(ExecutorKeys.EXCLUDE_ON_TASK_FAILURE_TIMEOUT)),
        new TaskScheduler.Speculation(conf.get(ExecutorKeys.SPECULATION), conf.get(ExecutorKeys.SPECULATION_MULTIPLIER),
            conf.get(ExecutorKeys.SPECULATION_QUANTILE), conf.get(ExecutorKeys.SPECULATION_MIN_TASK_RUNTIME).toMillis()),
        conf.get(ExecutorKeys.SPECULATION_INTERVAL),
        conf.get(org.elasticam.conf.StreamingKeys.MAX_CONSECUTIVE_FAILED_BATCHES));
  }

  /**
   * A dead process's exit reaches the AM in its next allocate response after the NodeManager's
   * heartbeat has told the ResourceManager: up to one AM heartbeat plus one NodeManager heartbeat
   * (100 ms to 1 s) later. Releasing before that hides a crash as a release of ours, so the grace
   * is two AM heartbeats (6 s by default); a fixed 3 s against the default 3 s heartbeat let a
   * killed executor pass as released on a loaded machine.
   */
  static Duration lostReleaseGrace(Duration amHeartbeat) {
    return amHeartbeat.multipliedBy(2);
  }
}
