package org.elasticam.conf;

import static org.elasticam.conf.ConfigKey.key;

import java.time.Duration;

/**
 * The external shuffle service. {@code elasticam.shuffle.service.*} is read by the AM;
 * {@code elasticam.shuffle.client.*} by executors fetching blocks; the rest (port, limits, TLS,
 * recovery) by the NodeManager's aux service from the NodeManager's yarn-site.xml.
 */
public final class ShuffleKeys {

  private static final String P = "elasticam.shuffle.";
  private static final String C = P + "client.";

  public static final ConfigKey<Boolean> SERVICE_ENABLED =
      key("elasticam.shuffle.service.enabled", ValueType.BOOLEAN)
          .defaultValue(false)
          .doc("Executors register shuffle output with their NodeManager's shuffle service.")
          .build();

  public static final ConfigKey<String> SERVICE_NAME = key("elasticam.shuffle.service.name", ValueType.STRING)
      .defaultValue("elasticam_shuffle")
      .check(v -> v.matches("[A-Za-z_][A-Za-z0-9_]*"), "must match [A-Za-z_][A-Za-z0-9_]* (a YARN aux-service name)")
      .doc("The aux-service name configured in yarn.nodemanager.aux-services.")
      .build();

  public static final ConfigKey<Boolean> READ_LOCAL_DIRECTLY = key(P + "readLocalDirectly", ValueType.BOOLEAN)
      .defaultValue(true)
      .doc("Reduce tasks read blocks on their own node from the map output files instead of fetching them"
          + " over the loopback from the node's shuffle service (BENCHMARKS.md compares the two).")
      .build();

  public static final ConfigKey<Integer> PORT = key(P + "port", ValueType.INT)
      .defaultValue(7447)
      .check(v -> v >= 0 && v <= 65535, "must be a port number (0-65535)")
      .doc("NodeManager side: the port the shuffle service listens on (0 = any).")
      .build();

  public static final ConfigKey<String> HOST = key(P + "host", ValueType.STRING)
      .defaultDoc("(all interfaces)")
      .doc("NodeManager side: the address the shuffle service binds to.")
      .build();

  public static final ConfigKey<Integer> MAX_CONNECTIONS = key(P + "maxConnections", ValueType.INT)
      .defaultValue(1024)
      .check(v -> v >= 1, "must be >= 1")
      .doc("NodeManager side: open connections beyond this get 429 and Retry-After.")
      .build();

  public static final ConfigKey<Duration> RETRY_AFTER = key(P + "retryAfter", ValueType.SECONDS)
      .defaultValue(Duration.ofSeconds(1))
      .check(v -> v.toMillis() >= 1000 && v.getSeconds() <= 3600, "must be between 1s and 1h")
      .doc("NodeManager side: the Retry-After a client is told with 429 (too many connections) or 503 (busy).")
      .build();

  public static final ConfigKey<ByteSize> MAX_IN_FLIGHT_BYTES = key(P + "maxInFlightBytes", ValueType.MEBIBYTES)
      .defaultValue(ByteSize.ofMebibytes(256))
      .check(v -> v.bytes() >= 1024 * 1024, "must be at least 1m")
      .doc("NodeManager side: bytes of accepted responses not yet written; further requests wait.")
      .build();

  public static final ConfigKey<Duration> IDLE_TIMEOUT = key(P + "idleTimeout", ValueType.SECONDS)
      .defaultValue(Duration.ofSeconds(60))
      .check(v -> v.toMillis() >= 100, "must be at least 100ms")
      .doc("NodeManager side: a connection that neither reads nor makes write progress this long is closed.")
      .build();

  public static final ConfigKey<Integer> IO_THREADS = key(P + "ioThreads", ValueType.INT)
      .defaultValue(0)
      .check(v -> v >= 0, "must be >= 0")
      .doc("NodeManager side: Netty event-loop threads (0 = 2 x cores).")
      .build();

  public static final ConfigKey<Integer> DISK_THREADS = key(P + "diskThreads", ValueType.INT)
      .defaultValue(8)
      .check(v -> v >= 1, "must be >= 1")
      .doc("NodeManager side: threads that open index and data files, off the event loop.")
      .build();

  public static final ConfigKey<Integer> MAX_OPEN_FILES = key(P + "maxOpenFiles", ValueType.INT)
      .defaultValue(1024)
      .check(v -> v >= 0, "must be >= 0")
      .doc("NodeManager side: map output data files kept open between fetches, least recently used closed first;"
          + " a file is closed when its application stops or it is replaced (0 = open them for each fetch). As many"
          + " of their directories are kept open too (two descriptors each), with up to 16 times as many names found"
          + " in them remembered while a directory is unchanged (a few hundred bytes each).")
      .build();

  public static final ConfigKey<Boolean> NATIVE_TRANSPORT = key(P + "nativeTransport", ValueType.BOOLEAN)
      .defaultValue(true)
      .doc("NodeManager side: serve with Netty's native epoll transport (Linux x86_64 and aarch64), whose library"
          + " the service's jar carries; where it cannot load, or with false, NIO. The NodeManager's log says which,"
          + " and why.")
      .build();

  public static final ConfigKey<ByteSize> INDEX_CACHE_SIZE = key(P + "indexCacheSize", ValueType.MEBIBYTES)
      .defaultValue(ByteSize.ofMebibytes(16))
      .check(v -> v.bytes() >= 0, "must be >= 0")
      .doc("NodeManager side: memory for map output indexes kept between fetches (0 = read the index every time).")
      .build();

  public static final ConfigKey<Duration> SIGNATURE_MAX_AGE = key(P + "signatureMaxAge", ValueType.SECONDS)
      .defaultValue(Duration.ofMinutes(5))
      .check(v -> v.toMillis() >= 1000, "must be at least 1s")
      .doc("NodeManager side: a signed request older (or further in the future) than this gets 401.")
      .build();

  public static final ConfigKey<Boolean> SSL_ENABLED = key(P + "ssl.enabled", ValueType.BOOLEAN)
      .defaultValue(false)
      .doc("NodeManager side: serve TLS, with the keystore of Hadoop's ssl-server.xml (no zero-copy).")
      .build();

  /** When the NodeManager's shuffle service checks that an application's user owns the files it serves. */
  public enum OwnerCheck {
    /** When Hadoop security is on (hadoop.security.authentication=kerberos), as MapReduce's ShuffleHandler. */
    AUTO,
    /** Also without Kerberos, e.g. a LinuxContainerExecutor running containers as the submitting user. */
    ALWAYS
  }

  public static final ConfigKey<OwnerCheck> OWNER_CHECK = key(P + "ownerCheck", ValueType.oneOf(OwnerCheck.class))
      .defaultValue(OwnerCheck.AUTO)
      .doc("NodeManager side: when every index and data file served must be owned by the application's user"
          + " (auto = when Hadoop security is on; always = also on an insecure cluster whose containers run as"
          + " their users).")
      .build();

  public static final ConfigKey<Boolean> DELETE_ON_STOP = key(P + "deleteOnStop", ValueType.BOOLEAN)
      .defaultValue(false)
      .doc("NodeManager side: delete an application's shuffle files at stopApplication (else YARN does).")
      .build();

  public static final ConfigKey<Duration> RECOVERY_SWEEP_INTERVAL = key(P + "recovery.sweepInterval", ValueType.SECONDS)
      .defaultValue(Duration.ofMinutes(10))
      .check(v -> v.toMillis() >= 100, "must be at least 100ms")
      .doc("NodeManager side: how often recovered applications whose directories YARN removed are dropped.")
      .build();

  public static final ConfigKey<String> METRICS_NAME = key(P + "metricsName", ValueType.STRING)
      .defaultValue("ElasticamShuffle")
      .check(v -> v.matches("[A-Za-z][A-Za-z0-9_-]*"), "must match [A-Za-z][A-Za-z0-9_-]*")
      .doc("NodeManager side: the metrics2 source name (JMX name=...); distinct per service in one JVM.")
      .build();

  public static final ConfigKey<ByteSize> CLIENT_MAX_BYTES_IN_FLIGHT = key(C + "maxBytesInFlight", ValueType.MEBIBYTES)
      .defaultValue(ByteSize.ofMebibytes(48))
      .check(v -> v.bytes() >= 1024 * 1024, "must be at least 1m")
      .doc("Fetched bytes held at once by one client; a larger response waits until it is alone.")
      .build();

  public static final ConfigKey<Integer> CLIENT_MAX_REQUESTS_IN_FLIGHT = key(C + "maxRequestsInFlight", ValueType.INT)
      .defaultValue(16)
      .check(v -> v >= 1 && v <= 1024, "must be between 1 and 1024")
      .doc("Fetch requests one client has outstanding at once (one thread and connection each).")
      .build();

  public static final ConfigKey<Integer> CLIENT_MAX_RETRIES = key(C + "maxRetries", ValueType.INT)
      .defaultValue(3)
      .check(v -> v >= 0, "must be >= 0")
      .doc("Retries of a request after a connection-level failure, 429 or 503.")
      .build();

  public static final ConfigKey<Duration> CLIENT_RETRY_WAIT = key(C + "retryWait", ValueType.SECONDS)
      .defaultValue(Duration.ofSeconds(5))
      .check(v -> v.toMinutes() < 10, "must be under 10min")
      .doc("Wait before a retry, unless the service sent Retry-After.")
      .build();

  public static final ConfigKey<Duration> CLIENT_CONNECT_TIMEOUT = key(C + "connectTimeout", ValueType.SECONDS)
      .defaultValue(Duration.ofSeconds(10))
      .check(v -> v.toMillis() >= 1, "must be positive")
      .doc("Connecting to a shuffle service.")
      .build();

  public static final ConfigKey<Duration> CLIENT_READ_TIMEOUT = key(C + "readTimeout", ValueType.SECONDS)
      .defaultValue(Duration.ofSeconds(120))
      .check(v -> v.toMillis() >= 1, "must be positive")
      .doc("A read that makes no progress this long fails the attempt (and is retried).")
      .build();

  private ShuffleKeys() {}
}
