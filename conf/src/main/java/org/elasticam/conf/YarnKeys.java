package org.elasticam.conf;

import static org.elasticam.conf.ConfigKey.key;

import java.time.Duration;
import java.util.Collections;
import java.util.List;

/** The YARN side: submission, the AM, requests, failures and exclusion: {@code elasticam.yarn.*}. */
public final class YarnKeys {

  private static final String P = "elasticam.yarn.";

  public static final ConfigKey<String> QUEUE = key(P + "queue", ValueType.STRING)
      .defaultValue("default")
      .check(v -> !v.isEmpty(), "must not be empty")
      .doc("The YARN queue to submit to.")
      .build();

  public static final ConfigKey<Integer> PRIORITY = key(P + "priority", ValueType.INT)
      .defaultValue(0)
      .doc("The application's priority within its queue.")
      .build();

  public static final ConfigKey<Integer> MAX_APP_ATTEMPTS = key(P + "maxAppAttempts", ValueType.INT)
      .defaultDoc("yarn.resourcemanager.am.max-attempts")
      .check(v -> v >= 1, "must be >= 1")
      .doc("AM attempts before the application fails; above 1, executors survive an AM restart.")
      .build();

  public static final ConfigKey<ByteSize> AM_MEMORY = key(P + "am.memory", ValueType.MEBIBYTES)
      .defaultValue(ByteSize.ofMebibytes(512))
      .check(v -> v.bytes() > 0, "must be > 0")
      .doc("ApplicationMaster heap (-Xmx); its container adds the same overhead rule as executors.")
      .build();

  public static final ConfigKey<Integer> AM_CORES = key(P + "am.cores", ValueType.INT)
      .defaultValue(1)
      .check(v -> v >= 1, "must be >= 1")
      .doc("Cores (vcores) of the ApplicationMaster container.")
      .build();

  public static final ConfigKey<String> AM_EXTRA_JAVA_OPTIONS = key(P + "am.extraJavaOptions", ValueType.STRING)
      .defaultDoc("(none)")
      .doc("JVM options for the ApplicationMaster, split as a shell would but never expanded; {{APP_ID}} is"
          + " replaced, <LOG_DIR> is the container's log dir. Not the heap: elasticam.yarn.am.memory sets it.")
      .build();

  public static final ConfigKey<String> AM_EXTRA_CLASS_PATH = key(P + "am.extraClassPath", ValueType.STRING)
      .defaultDoc("(none)")
      .doc("Entries put before the ApplicationMaster's classpath (':'-separated paths on the nodes).")
      .build();

  public static final ConfigKey<Boolean> AM_STARTUP_ARCHIVE_ENABLED = key(P + "am.startupArchive.enabled",
      ValueType.BOOLEAN)
      .defaultValue(true)
      .doc("The ApplicationMaster starts from a class-data-sharing archive of the classes it loads at start-up,"
          + " made on each node by its own Java by the first AM of this jar that runs there without one (once its"
          + " first executor registered), beside the executors' archive in elasticam.executor.startupArchive.dir."
          + " Off when elasticam.yarn.am.extraClassPath or a class-sharing JVM option for the AM is set.")
      .build();

  public static final ConfigKey<String> AM_EXTRA_LIBRARY_PATH = key(P + "am.extraLibraryPath", ValueType.STRING)
      .defaultDoc("(none)")
      .doc("Directories of native libraries put before the ApplicationMaster's LD_LIBRARY_PATH.")
      .build();

  public static final ConfigKey<String> AM_ADVERTISED_ADDRESS = key(P + "am.advertisedAddress", ValueType.STRING)
      .defaultDoc("(the AM's host and the port it listens on)")
      .check(v -> v.codePoints().allMatch(Character::isWhitespace)
          || v.matches("[A-Za-z0-9.\\-]+:[0-9]{1,5}") && portOf(v) >= 1 && portOf(v) <= 65535, "must be host:port")
      .doc("host:port executors dial for the AM's control plane, when a NAT or port forward sits between them.")
      .build();

  public static final ConfigKey<Boolean> AM_SSL_ENABLED = key(P + "am.ssl.enabled", ValueType.BOOLEAN)
      .defaultValue(false)
      .doc("Serve the AM's control plane over TLS with the keystore of Hadoop's ssl-server.xml; executors check"
          + " the AM's certificate with ssl-client.xml's truststore.")
      .build();

  private static int portOf(String hostPort) {
    return Integer.parseInt(hostPort.substring(hostPort.lastIndexOf(':') + 1));
  }

  public static final ConfigKey<Duration> HEARTBEAT_INTERVAL = key(P + "heartbeat.interval", ValueType.MILLIS)
      .defaultValue(Duration.ofSeconds(3))
      .check(Durations::isPositive, "must be > 0")
      .doc("AM to ResourceManager heartbeat when no requests are pending and no executor is missing. A lost"
          + " executor's container is released after two of these if YARN has not reported its exit by then.")
      .build();

  public static final ConfigKey<Duration> INITIAL_ALLOCATION_INTERVAL =
      key(P + "initialAllocation.interval", ValueType.MILLIS)
          .defaultValue(Duration.ofMillis(200))
          .check(Durations::isPositive, "must be > 0")
          .doc("First heartbeat interval while requests are pending, doubling up to heartbeat.interval.")
          .build();

  public static final ConfigKey<Duration> INITIAL_ALLOCATION_FIRST_POLLS =
      key(P + "initialAllocation.firstPolls", ValueType.MILLIS)
          .defaultValue(Duration.ofMillis(50))
          .check(Durations::isPositive, "must be > 0")
          .doc("Heartbeats this far apart within the first initialAllocation.interval after the target changes,"
              + " so that grants the ResourceManager makes within milliseconds reach the AM as soon; the"
              + " heartbeats after it are the doubling schedule's. At most interval / firstPolls - 1 more"
              + " allocate calls per target change. Set it to initialAllocation.interval for Spark's schedule.")
          .build();

  public static final ConfigKey<Integer> LAUNCHER_THREADS = key(P + "containerLauncherMaxThreads", ValueType.INT)
      .defaultValue(25)
      .check(v -> v >= 1, "must be >= 1")
      .doc("Threads that start executor containers on NodeManagers.")
      .build();

  public static final ConfigKey<Integer> MAX_EXECUTOR_FAILURES = key(P + "maxExecutorFailures", ValueType.INT)
      .defaultDoc("max(3, 2 x maxExecutors with dynamic allocation, else 2 x executor.instances)")
      .check(v -> v >= 1, "must be >= 1")
      .doc("Executor failures within the validity window that fail the application.")
      .build();

  public static final ConfigKey<Duration> FAILURES_VALIDITY_INTERVAL =
      key(P + "executorFailuresValidityInterval", ValueType.MILLIS)
          .defaultValue(Durations.INFINITE)
          .check(Durations::isPositive, "must be > 0")
          .doc("Executor failures older than this no longer count.")
          .build();

  public static final ConfigKey<String> NODE_LABEL_EXPRESSION = key(P + "nodeLabelExpression", ValueType.STRING)
      .doc("Node label for executor containers; with a label, requests carry no host preferences.")
      .build();

  public static final ConfigKey<Placement> PLACEMENT = key(P + "placement", ValueType.oneOf(Placement.class))
      .defaultValue(Placement.SPREAD)
      .doc("Requests without locality: spread (fewest of our executors per node first) or pack.")
      .build();

  public static final ConfigKey<Boolean> EXCLUDE_ON_FAILURE = key(P + "excludeOnFailure.enabled", ValueType.BOOLEAN)
      .defaultValue(true)
      .doc("Stop asking for containers on a node whose executors keep failing.")
      .build();

  public static final ConfigKey<Integer> MAX_FAILURES_PER_NODE =
      key(P + "excludeOnFailure.maxFailuresPerNode", ValueType.INT)
          .defaultValue(3)
          .check(v -> v >= 1, "must be >= 1")
          .doc("Failures blamed on a node, within the exclusion timeout, that exclude it.")
          .build();

  public static final ConfigKey<Duration> EXCLUDE_TIMEOUT = key(P + "excludeOnFailure.timeout", ValueType.MILLIS)
      .defaultValue(Duration.ofHours(1))
      .check(Durations::isPositive, "must be > 0")
      .doc("How long a node stays excluded.")
      .build();

  public static final ConfigKey<Boolean> PRESERVE_STAGING_FILES =
      key(P + "preserveStagingFiles", ValueType.BOOLEAN)
          .defaultValue(false)
          .doc("Keep the staging directory after the application ends.")
          .build();

  public static final ConfigKey<String> STAGING_DIR = key(P + "stagingDir", ValueType.STRING)
      .defaultDoc("<home on fs.defaultFS>/.elasticam/staging")
      .doc("Where the client uploads jars: one subdirectory per application, and jars/ with ElasticAM's own jar once per"
          + " build (elasticam.yarn.jarCache.enabled).")
      .build();

  public static final ConfigKey<Boolean> JAR_CACHE_ENABLED = key(P + "jarCache.enabled", ValueType.BOOLEAN)
      .defaultValue(true)
      .doc("Upload ElasticAM's own jar once per build, to <stagingDir>/jars, and have NodeManagers keep their"
          + " copy across the user's applications (PRIVATE visibility); false: upload it with every application.")
      .build();

  public static final ConfigKey<String> PRINCIPAL = key(P + "principal", ValueType.STRING)
      .doc("Kerberos principal to log in as (with keytab); renews tokens for long applications.")
      .build();

  public static final ConfigKey<String> KEYTAB = key(P + "keytab", ValueType.STRING)
      .doc("Keytab file of the principal; never shipped to executors.")
      .build();

  // Named as Spark names its own (spark.ui.view.acls, spark.modify.acls). They become the
  // application's YARN ACLs, so they sit with the YARN keys; the AM reads their raw value, because
  // a groups-only ACL starts with the space this type trims.
  public static final ConfigKey<String> UI_VIEW_ACLS = key("elasticam.ui.view.acls", ValueType.STRING)
      .defaultDoc("(the submitting user and YARN's admins only)")
      .check(v -> v.matches("\\S*( \\S*)?"), "must be \"users groups\": comma-separated, no spaces within a list")
      .doc("Who may see the live page through the ResourceManager's proxy: YARN's VIEW_APP ACL, \"user1,user2"
          + " group1,group2\" (\" group1\" for groups alone, * for everyone). Enforced with yarn.acl.enable.")
      .build();

  public static final ConfigKey<String> MODIFY_ACLS = key("elasticam.modify.acls", ValueType.STRING)
      .defaultDoc("(the submitting user and YARN's admins only)")
      .check(v -> v.matches("\\S*( \\S*)?"), "must be \"users groups\": comma-separated, no spaces within a list")
      .doc("Who may kill the application: YARN's MODIFY_APP ACL, in the format of elasticam.ui.view.acls.")
      .build();

  public static final ConfigKey<List<String>> ACCESS_FILESYSTEMS =
      key(P + "access.hadoopFileSystems", ValueType.LIST)
          .defaultValue(Collections.emptyList())
          .defaultDoc("(none)")
          .doc("Extra file systems to obtain delegation tokens for, besides fs.defaultFS.")
          .build();

  public static final ConfigKey<Double> TOKEN_RENEWAL_FRACTION = key(P + "tokenRenewal.fraction", ValueType.DOUBLE)
      .defaultValue(0.75)
      .check(v -> v > 0.0 && v < 1.0, "must be > 0 and < 1")
      .doc("Obtain new tokens after this share of their lifetime.")
      .build();

  private YarnKeys() {}
}
