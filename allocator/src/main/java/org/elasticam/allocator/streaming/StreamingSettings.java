package org.elasticam.allocator.streaming;

import org.elasticam.conf.StreamingKeys;

/**
 * The settings of streaming dynamic allocation ({@code elasticam.streaming.dynamicAllocation.*}),
 * already validated, plus the batch interval of the job they steer.
 *
 * @param initialExecutors the target before the first decision
 * @param batchMs the batch interval
 */
public record StreamingSettings(int minExecutors, int maxExecutors, int initialExecutors, long batchMs,
    int delayRounds, int rememberBatchSize, double reserveRate, int releaseRounds, long scalingIntervalMs,
    double scalingUpRatio, double scalingDownRatio, double targetUtilization) {

  public StreamingSettings {
    if (minExecutors < 1 || maxExecutors < minExecutors || batchMs <= 0 || rememberBatchSize < 1
        || releaseRounds < 1 || delayRounds < 0 || scalingIntervalMs <= 0 || !(reserveRate >= 0 && reserveRate < 1)
        || !(targetUtilization > 0 && targetUtilization <= 1) || !(scalingUpRatio > scalingDownRatio)
        || !(scalingDownRatio > 0)) {
      throw new IllegalArgumentException("inconsistent streaming settings: " + this);
    }
    initialExecutors = Math.max(minExecutors, Math.min(maxExecutors, initialExecutors));
  }

  /**
   * From validated configuration. The target starts at {@code elasticam.executor.instances} when
   * set, else at minExecutors, as Spark Streaming takes its initial executors from the core settings.
   */
  public static StreamingSettings from(org.elasticam.conf.ElasticConf conf, long batchMs) {
    int min = conf.get(StreamingKeys.MIN_EXECUTORS);
    return new StreamingSettings(min, conf.get(StreamingKeys.MAX_EXECUTORS),
        conf.getOptional(org.elasticam.conf.ExecutorKeys.INSTANCES).orElse(min), batchMs,
        conf.get(StreamingKeys.DELAY_ROUNDS), conf.get(StreamingKeys.REMEMBER_BATCH_SIZE),
        conf.get(StreamingKeys.RESERVE_RATE), conf.get(StreamingKeys.RELEASE_ROUNDS),
        conf.get(StreamingKeys.SCALING_INTERVAL).toMillis(), conf.get(StreamingKeys.SCALING_UP_RATIO),
        conf.get(StreamingKeys.SCALING_DOWN_RATIO), conf.get(StreamingKeys.TARGET_UTILIZATION));
  }

  /** The defaults of {@code elasticam.streaming.dynamicAllocation.*} with these bounds and interval. */
  public static StreamingSettings defaults(int min, int max, int initial, long batchMs) {
    return new StreamingSettings(min, max, initial, batchMs, 10, 1, 0.2, 5, 60_000, 0.9, 0.3, 0.8);
  }
}
