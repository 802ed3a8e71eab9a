package org.elasticam.conf;

import static org.elasticam.conf.ConfigKey.key;

import java.time.Duration;

/** Streaming dynamic allocation: {@code elasticam.streaming.dynamicAllocation.*}. */
public final class StreamingKeys {

  private static final String P = "elasticam.streaming.dynamicAllocation.";

  public static final ConfigKey<Boolean> ENABLED = key(P + "enabled", ValueType.BOOLEAN)
      .defaultValue(false)
      .doc("Scale executors for micro-batch jobs (exclusive with batch dynamic allocation).")
      .build();

  public static final ConfigKey<StreamingPolicyName> POLICY =
      key(P + "policy", ValueType.oneOf(StreamingPolicyName.class))
          .defaultValue(StreamingPolicyName.MODEL)
          .doc("model (ours: fits processing time to executors and records; the default), rounds (greedy up,"
              + " release in rounds) or ratio (Spark DStreams).")
          .build();

  public static final ConfigKey<Integer> MIN_EXECUTORS = key(P + "minExecutors", ValueType.INT)
      .defaultValue(1)
      .check(v -> v > 0, "must be > 0")
      .doc("Lower bound on executors for a streaming job.")
      .build();

  public static final ConfigKey<Integer> MAX_EXECUTORS = key(P + "maxExecutors", ValueType.INT)
      .defaultValue(Integer.MAX_VALUE)
      .check(v -> v > 0, "must be > 0")
      .doc("Upper bound on executors for a streaming job.")
      .build();

  public static final ConfigKey<Integer> RELEASE_ROUNDS = key(P + "releaseRounds", ValueType.INT)
      .defaultValue(5)
      .check(v -> v >= 1, "must be >= 1")
      .doc("rounds: spread a computed removal over this many batches.")
      .build();

  public static final ConfigKey<Integer> REMEMBER_BATCH_SIZE = key(P + "rememberBatchSize", ValueType.INT)
      .defaultValue(1)
      .check(v -> v >= 1, "must be >= 1")
      .doc("rounds: processing time is the mean over this many recent batches.")
      .build();

  public static final ConfigKey<Integer> DELAY_ROUNDS = key(P + "delayRounds", ValueType.INT)
      .defaultValue(10)
      .check(v -> v >= 0, "must be >= 0")
      .doc("rounds: batches to wait before the first decision.")
      .build();

  public static final ConfigKey<Double> RESERVE_RATE = key(P + "reserveRate", ValueType.DOUBLE)
      .defaultValue(0.2)
      .check(v -> v >= 0.0 && v < 1.0, "must be >= 0 and < 1")
      .doc("rounds: share of headroom kept; never remove below this share of the executors.")
      .build();

  public static final ConfigKey<Duration> SCALING_INTERVAL = key(P + "scalingInterval", ValueType.SECONDS)
      .defaultValue(Duration.ofSeconds(60))
      .check(Durations::isPositive, "must be > 0")
      .doc("ratio: how often the processing/duration ratio is evaluated.")
      .build();

  public static final ConfigKey<Double> SCALING_UP_RATIO = key(P + "scalingUpRatio", ValueType.DOUBLE)
      .defaultValue(0.9)
      .check(v -> v > 0.0, "must be > 0")
      .doc("ratio: add executors when processing/duration is at least this.")
      .build();

  public static final ConfigKey<Double> SCALING_DOWN_RATIO = key(P + "scalingDownRatio", ValueType.DOUBLE)
      .defaultValue(0.3)
      .check(v -> v > 0.0, "must be > 0")
      .doc("ratio: remove one executor when processing/duration is at most this.")
      .build();

  public static final ConfigKey<Double> TARGET_UTILIZATION = key(P + "targetUtilization", ValueType.DOUBLE)
      .defaultValue(0.8)
      .check(v -> v > 0.0 && v <= 1.0, "must be > 0 and <= 1")
      .doc("model: aim for processing time at this share of the batch duration.")
      .build();

  public static final ConfigKey<Boolean> DEBUG = key(P + "debug", ValueType.BOOLEAN)
      .defaultValue(false)
      .doc("Log every streaming decision with its inputs.")
      .build();

  public static final ConfigKey<Integer> MAX_CONSECUTIVE_FAILED_BATCHES =
      key("elasticam.streaming.maxConsecutiveFailedBatches", ValueType.INT)
          .defaultValue(3)
          .check(v -> v >= 0, "must be >= 0")
          .doc("A batch whose task failed elasticam.task.maxFailures times is abandoned, reported, and the"
              + " stream goes on with the next batch; this many failed batches in a row end the job as failed"
              + " (0: the first failed batch does).")
          .build();

  private StreamingKeys() {}
}
