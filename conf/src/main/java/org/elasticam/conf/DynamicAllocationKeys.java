package org.elasticam.conf;

import static org.elasticam.conf.ConfigKey.key;

import java.time.Duration;

/** Batch dynamic allocation: {@code elasticam.dynamicAllocation.*}. Defaults follow Spark's. */
public final class DynamicAllocationKeys {

  private static final String P = "elasticam.dynamicAllocation.";

  public static final ConfigKey<Boolean> ENABLED = key(P + "enabled", ValueType.BOOLEAN)
      .defaultValue(false)
      .doc("Scale the number of executors with the workload.")
      .build();

  public static final ConfigKey<BatchPolicy> POLICY = key(P + "policy", ValueType.oneOf(BatchPolicy.class))
      .defaultValue(BatchPolicy.ELASTIC)
      .doc("Which policy sets the target: spark (Spark's rules) or elastic (ours).")
      .build();

  public static final ConfigKey<Integer> MIN_EXECUTORS = key(P + "minExecutors", ValueType.INT)
      .defaultValue(0)
      .check(v -> v >= 0, "must be >= 0")
      .doc("Lower bound on the number of executors.")
      .build();

  public static final ConfigKey<Integer> MAX_EXECUTORS = key(P + "maxExecutors", ValueType.INT)
      .defaultValue(Integer.MAX_VALUE)
      .check(v -> v > 0, "must be > 0")
      .doc("Upper bound on the number of executors.")
      .build();

  public static final ConfigKey<Integer> INITIAL_EXECUTORS = key(P + "initialExecutors", ValueType.INT)
      .defaultDoc("minExecutors")
      .check(v -> v >= 0, "must be >= 0")
      .doc("Executors to start with; the effective value is max(min, initial, executor.instances).")
      .build();

  public static final ConfigKey<Double> ALLOCATION_RATIO =
      key(P + "executorAllocationRatio", ValueType.DOUBLE)
          .defaultValue(1.0)
          .check(v -> v > 0.0 && v <= 1.0, "must be > 0 and <= 1")
          .doc("Fraction of the full parallelism to ask for; below 1 trades speed for executors.")
          .build();

  public static final ConfigKey<Duration> BACKLOG_TIMEOUT =
      key(P + "schedulerBacklogTimeout", ValueType.SECONDS)
          .defaultValue(Duration.ofSeconds(1))
          .check(Durations::isPositive, "must be > 0")
          .doc("How long tasks must wait before the first round of new executors is asked for.")
          .build();

  public static final ConfigKey<Duration> SUSTAINED_BACKLOG_TIMEOUT =
      key(P + "sustainedSchedulerBacklogTimeout", ValueType.SECONDS)
          .defaultDoc("schedulerBacklogTimeout")
          .check(Durations::isPositive, "must be > 0")
          .doc("Interval between later rounds while the backlog lasts.")
          .build();

  public static final ConfigKey<Duration> IDLE_TIMEOUT = key(P + "executorIdleTimeout", ValueType.SECONDS)
      .defaultValue(Duration.ofSeconds(60))
      .check(Durations::isPositive, "must be > 0")
      .doc("Remove an executor idle this long that holds no tracked shuffle output (> 0, as Spark requires).")
      .build();

  public static final ConfigKey<Duration> CACHED_IDLE_TIMEOUT =
      key(P + "cachedExecutorIdleTimeout", ValueType.SECONDS)
          .defaultValue(Durations.INFINITE)
          .check(v -> !v.isNegative(), "must be >= 0")
          .doc("Spark's idle timeout for an executor holding cached data. The job API caches nothing, so no"
              + " executor holds any and this key has no effect; setting it draws a warning.")
          .build();

  public static final ConfigKey<Boolean> SHUFFLE_TRACKING = key(P + "shuffleTracking.enabled", ValueType.BOOLEAN)
      .defaultValue(true)
      .doc("Without a shuffle service, keep executors whose shuffle output may still be read.")
      .build();

  public static final ConfigKey<Duration> SHUFFLE_TRACKING_TIMEOUT =
      key(P + "shuffleTracking.timeout", ValueType.MILLIS)
          .defaultValue(Durations.INFINITE)
          .check(v -> !v.isNegative(), "must be >= 0")
          .doc("Idle timeout for an executor holding shuffle output that no shuffle service serves.")
          .build();

  public static final ConfigKey<Double> ELASTIC_WORTH_BUSY =
      key(P + "elastic.worthLatencies.busy", ValueType.DOUBLE)
          .defaultValue(1.5)
          .check(v -> v > 0.0 && v <= 1000.0, "must be > 0 and <= 1000")
          .doc("elastic: a new executor is asked for when it would find this many start latencies of"
              + " work, when the executors were busy over the last 30 s; lower trades executor-seconds for"
              + " speed.")
          .build();

  public static final ConfigKey<Double> ELASTIC_WORTH_IDLE =
      key(P + "elastic.worthLatencies.idle", ValueType.DOUBLE)
          .defaultValue(7.0)
          .check(v -> v > 0.0 && v <= 1000.0, "must be > 0 and <= 1000")
          .doc("elastic: the same bar when the executors idled over the last 30 s (in between, in"
              + " proportion); at least worthLatencies.busy.")
          .build();

  private DynamicAllocationKeys() {}
}
