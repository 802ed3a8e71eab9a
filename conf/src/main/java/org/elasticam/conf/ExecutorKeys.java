package org.elasticam.conf;

import static org.elasticam.conf.ConfigKey.key;

import java.time.Duration;

/** Executors, tasks, locality and the event log: {@code elasticam.executor.*} and friends. */
public final class ExecutorKeys {

  private static final String P = "elasticam.executor.";

  public static final ConfigKey<Integer> CORES = key(P + "cores", ValueType.INT)
      .defaultValue(1)
      .check(v -> v >= 1, "must be >= 1")
      .doc("Cores (YARN vcores) per executor.")
      .build();

  public static final ConfigKey<ByteSize> MEMORY = key(P + "memory", ValueType.MEBIBYTES)
      .defaultValue(ByteSize.ofMebibytes(1024))
      .check(v -> v.bytes() > 0, "must be > 0")
      .doc("Executor heap (-Xmx); the container also gets the memory overhead.")
      .build();

  public static final ConfigKey<ByteSize> MEMORY_OVERHEAD = key(P + "memoryOverhead", ValueType.MEBIBYTES)
      .defaultDoc("max(memoryOverheadFactor x memory, 384m)")
      .doc("Off-heap memory added to each executor container.")
      .build();

  public static final ConfigKey<Double> MEMORY_OVERHEAD_FACTOR =
      key(P + "memoryOverheadFactor", ValueType.DOUBLE)
          .defaultValue(0.10)
          .check(v -> v >= 0.0, "must be >= 0")
          .doc("Overhead as a share of executor memory when memoryOverhead is not set.")
          .build();

  public static final ConfigKey<String> EXTRA_JAVA_OPTIONS = key(P + "extraJavaOptions", ValueType.STRING)
      .defaultDoc("(none)")
      .doc("JVM options for every executor (GC flags, -D properties, agents), split as a shell would but never"
          + " expanded; {{APP_ID}} and {{EXECUTOR_ID}} are replaced, <LOG_DIR> is the container's log dir. Not"
          + " the heap: elasticam.executor.memory sets it.")
      .build();

  public static final ConfigKey<String> EXTRA_CLASS_PATH = key(P + "extraClassPath", ValueType.STRING)
      .defaultDoc("(none)")
      .doc("Entries put before the executor's classpath (':'-separated paths on the nodes).")
      .build();

  public static final ConfigKey<String> EXTRA_LIBRARY_PATH = key(P + "extraLibraryPath", ValueType.STRING)
      .defaultDoc("(none)")
      .doc("Directories of native libraries put before the executor's LD_LIBRARY_PATH (':'-separated, on the nodes).")
      .build();

  public static final ConfigKey<Boolean> STARTUP_ARCHIVE_ENABLED = key(P + "startupArchive.enabled", ValueType.BOOLEAN)
      .defaultValue(true)
      .doc("Executors start from a class-data-sharing archive of the classes they load at start-up, made on"
          + " each node by its own Java the first time an executor runs there without one, and shared by the"
          + " user's later applications with the same jar. Off when extraClassPath or a class-sharing JVM option"
          + " is set.")
      .build();

  /** How an executor dials a plaintext control plane. */
  public enum ControlPlaneTransport {
    /** gRPC's OkHttp transport: a client only, without Netty. */
    OKHTTP,
    /** gRPC's Netty transport, the one the AM serves with. */
    NETTY
  }

  public static final ConfigKey<ControlPlaneTransport> CONTROL_PLANE_TRANSPORT = key(P + "controlPlane.transport",
      ValueType.oneOf(ControlPlaneTransport.class))
      .defaultValue(ControlPlaneTransport.OKHTTP)
      .doc("How executors dial the AM's control plane when it serves plaintext: okhttp (gRPC's client-only OkHttp"
          + " transport: about 500 classes fewer to load than Netty's before an executor registers) or netty."
          + " Executors dial a TLS control plane (elasticam.yarn.am.ssl.enabled) with netty.")
      .build();

  public static final ConfigKey<Boolean> STARTUP_CLASS_PATH_ENABLED = key(P + "startupClassPath.enabled",
      ValueType.BOOLEAN)
      .defaultValue(true)
      .doc("Executors start with ElasticAM's jar and the classpath's directories, and add the cluster's jars"
          + " (yarn.application.classpath) once registered, before their first task: lookups that scan the whole"
          + " classpath cost about 0.15 s of CPU per executor at start. Off when extraClassPath is set.")
      .build();

  public static final ConfigKey<String> STARTUP_ARCHIVE_DIR = key(P + "startupArchive.dir", ValueType.STRING)
      .defaultDoc("elasticam-startup in the NodeManager's cache directory of the user")
      .doc("Directory on the nodes for start-up archives, writable by the application's user; about 60 MiB per"
          + " build of the jar, the 3 newest kept.")
      .build();

  public static final ConfigKey<Integer> INSTANCES = key(P + "instances", ValueType.INT)
      .check(v -> v >= 0, "must be >= 0")
      .doc("Executors for static allocation; with dynamic allocation, a floor for the initial target.")
      .build();

  public static final ConfigKey<Duration> HEARTBEAT_INTERVAL = key(P + "heartbeatInterval", ValueType.MILLIS)
      .defaultValue(Duration.ofSeconds(3))
      .check(Durations::isPositive, "must be > 0")
      .doc("How often an executor heartbeats to the driver.")
      .build();

  public static final ConfigKey<Duration> HEARTBEAT_TIMEOUT = key(P + "heartbeatTimeout", ValueType.SECONDS)
      .defaultValue(Duration.ofSeconds(60))
      .check(Durations::isPositive, "must be > 0")
      .doc("An executor silent this long is declared lost; an executor that cannot reach the driver this long exits.")
      .build();

  public static final ConfigKey<Duration> REGISTRATION_TIMEOUT =
      key(P + "registrationTimeout", ValueType.SECONDS)
          .defaultValue(Duration.ofSeconds(120))
          .check(Durations::isPositive, "must be > 0")
          .doc("A launched executor that has not registered by then is released and counted as failed.")
          .build();

  public static final ConfigKey<Duration> REREGISTER_TIMEOUT =
      key(P + "reregisterTimeout", ValueType.SECONDS)
          .defaultValue(Duration.ofSeconds(60))
          .check(Durations::isPositive, "must be > 0")
          .doc("After an AM restart, how long surviving executors have to find the new AM.")
          .build();

  public static final ConfigKey<Integer> TASK_CPUS = key("elasticam.task.cpus", ValueType.INT)
      .defaultValue(1)
      .check(v -> v >= 1, "must be >= 1")
      .doc("Cores each task takes; an executor runs cores / task.cpus tasks at once.")
      .build();

  public static final ConfigKey<Integer> TASK_MAX_FAILURES = key("elasticam.task.maxFailures", ValueType.INT)
      .defaultValue(4)
      .check(v -> v >= 1, "must be >= 1")
      .doc("Attempts of one task before its job fails.")
      .build();

  public static final ConfigKey<Boolean> EXCLUDE_ON_TASK_FAILURE =
      key("elasticam.excludeOnFailure.enabled", ValueType.BOOLEAN)
          .defaultValue(false)
          .doc("Stop running tasks on a node where the job's tasks failed repeatedly, and tell YARN to give no"
              + " container there, until the timeout (Spark's spark.excludeOnFailure.enabled; off, as there).")
          .build();

  public static final ConfigKey<Integer> EXCLUDE_MAX_FAILED_TASKS_PER_NODE =
      key("elasticam.excludeOnFailure.maxFailedTasksPerNode", ValueType.INT)
          .defaultValue(2)
          .check(v -> v >= 1, "must be >= 1")
          .doc("Failed tasks on one node (not killed, not lost input) that exclude it; never the last node with"
              + " executors.")
          .build();

  public static final ConfigKey<Duration> EXCLUDE_ON_TASK_FAILURE_TIMEOUT =
      key("elasticam.excludeOnFailure.timeout", ValueType.SECONDS)
          .defaultValue(Duration.ofHours(1))
          .check(Durations::isPositive, "must be > 0")
          .doc("How long a node stays excluded for task failures (Spark's default: 1h).")
          .build();

  public static final ConfigKey<Boolean> SPECULATION = key("elasticam.speculation", ValueType.BOOLEAN)
      .defaultValue(false)
      .doc("Run a copy of a slow task on another host; the first attempt to succeed wins and the other is"
          + " killed (Spark's spark.speculation; off, as there). Tasks that publish output outside the shuffle"
          + " must ask TaskContext.canCommit() first.")
      .build();

  public static final ConfigKey<Duration> SPECULATION_INTERVAL =
      key("elasticam.speculation.interval", ValueType.MILLIS)
          .defaultValue(Duration.ofMillis(100))
          .check(Durations::isPositive, "must be > 0")
          .doc("How often running tasks are checked for slowness.")
          .build();

  public static final ConfigKey<Double> SPECULATION_MULTIPLIER =
      key("elasticam.speculation.multiplier", ValueType.DOUBLE)
          .defaultValue(1.5)
          .check(v -> v >= 1.0, "must be >= 1")
          .doc("A task is slow when it has run this many times the median run time of its stage's"
              + " successful tasks (Spark 3.5's default; Spark 4 raised it to 3).")
          .build();

  public static final ConfigKey<Double> SPECULATION_QUANTILE =
      key("elasticam.speculation.quantile", ValueType.DOUBLE)
          .defaultValue(0.75)
          .check(v -> v > 0.0 && v <= 1.0, "must be > 0 and <= 1")
          .doc("Share of a stage's tasks that must have succeeded before its tasks are checked (Spark 3.5's"
              + " default; Spark 4 raised it to 0.9).")
          .build();

  public static final ConfigKey<Duration> SPECULATION_MIN_TASK_RUNTIME =
      key("elasticam.speculation.minTaskRuntime", ValueType.MILLIS)
          .defaultValue(Duration.ofMillis(100))
          .check(v -> !v.isNegative(), "must be >= 0")
          .doc("No task is copied before it has run this long, however short its siblings were.")
          .build();

  public static final ConfigKey<Double> MIN_REGISTERED_RATIO =
      key("elasticam.scheduler.minRegisteredResourcesRatio", ValueType.DOUBLE)
          .defaultValue(0.8)
          .check(v -> v >= 0.0 && v <= 1.0, "must be >= 0 and <= 1")
          .doc("Tasks are first scheduled once this share of the initial executors registered (or after"
              + " maxRegisteredResourcesWaitingTime), so the first stage spreads over them.")
          .build();

  public static final ConfigKey<Duration> MAX_REGISTERED_WAIT =
      key("elasticam.scheduler.maxRegisteredResourcesWaitingTime", ValueType.SECONDS)
          .defaultValue(Duration.ofSeconds(30))
          .check(v -> !v.isNegative(), "must be >= 0")
          .doc("The longest tasks wait for minRegisteredResourcesRatio of the initial executors.")
          .build();

  public static final ConfigKey<Duration> LOCALITY_WAIT = key("elasticam.locality.wait", ValueType.MILLIS)
      .defaultValue(Duration.ofSeconds(3))
      .check(v -> !v.isNegative(), "must be >= 0")
      .doc("How long a task waits for a node-local slot before taking a rack-local one, then any.")
      .build();

  public static final ConfigKey<String> EVENT_LOG_DIR = key("elasticam.eventLog.dir", ValueType.STRING)
      .defaultDoc("<home on fs.defaultFS>/.elasticam/events")
      .doc("Where the AM writes <applicationId>.jsonl, one event per line: a path on fs.defaultFS, or a URI on another file system (file:, s3a:, ...).")
      .build();

  private ExecutorKeys() {}
}
