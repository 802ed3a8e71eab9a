package org.elasticam.allocator.dynamic;

import java.time.Duration;
import org.elasticam.conf.DynamicAllocationKeys;
import org.elasticam.conf.ElasticConf;
import org.elasticam.conf.ExecutorKeys;
import org.elasticam.conf.ShuffleKeys;

/**
 * What a batch dynamic-allocation policy reads from configuration, once.
 *
 * @param initialExecutors max(min, initial, executor.instances), as Spark
 * @param shuffleTrackingActive tracking on and no shuffle service: executors keep shuffle output alive
 * @param localityWait how long the task scheduler holds a task back from a free slot off its preferred hosts
 * @param worthLatenciesBusy elastic: work, in start latencies, a new executor must find when ours were busy
 * @param worthLatenciesIdle the same when ours idled
 */
public record PolicySettings(int minExecutors, int maxExecutors, int initialExecutors, double allocationRatio,
    int executorCores, int taskCpus, Duration backlogTimeout, Duration sustainedBacklogTimeout,
    Duration idleTimeout, Duration cachedIdleTimeout, Duration shuffleTimeout, boolean shuffleTrackingActive,
    Duration localityWait, double worthLatenciesBusy, double worthLatenciesIdle) {

  public static PolicySettings from(ElasticConf conf) {
    return new PolicySettings(
        conf.get(DynamicAllocationKeys.MIN_EXECUTORS),
        conf.get(DynamicAllocationKeys.MAX_EXECUTORS),
        conf.initialExecutors(),
        conf.get(DynamicAllocationKeys.ALLOCATION_RATIO),
        conf.get(ExecutorKeys.CORES),
        conf.get(ExecutorKeys.TASK_CPUS),
        conf.get(DynamicAllocationKeys.BACKLOG_TIMEOUT),
        conf.sustainedBacklogTimeout(),
        conf.get(DynamicAllocationKeys.IDLE_TIMEOUT),
        conf.get(DynamicAllocationKeys.CACHED_IDLE_TIMEOUT),
        conf.get(DynamicAllocationKeys.SHUFFLE_TRACKING_TIMEOUT),
        conf.get(DynamicAllocationKeys.SHUFFLE_TRACKING) && !conf.get(ShuffleKeys.SERVICE_ENABLED),
        conf.get(ExecutorKeys.LOCALITY_WAIT),
        conf.get(DynamicAllocationKeys.ELASTIC_WORTH_BUSY),
        conf.get(DynamicAllocationKeys.ELASTIC_WORTH_IDLE));
  }

  /** Tasks one executor runs at once. */
  public int tasksPerExecutor() {
    return Math.max(1, executorCores / Math.max(1, taskCpus));
  }
}
