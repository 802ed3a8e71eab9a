package org.elasticam.executor;

import java.net.URI;
import java.net.URISyntaxException;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;

/**
 * The executor's command line, as the launcher writes it:
 * {@code --driver host:port --executor-id N --app-id A --cores C --task-cpus T
 * --heartbeat-ms H --heartbeat-timeout-ms X [--user-jar path] [--shuffle-service name]
 * [--shuffle-local-read direct|fetch] [--shuffle-client-conf key=value,...]
 * [--driver-endpoint-file uri --reregister-timeout-ms N] [--control-plane tls|plain]
 * [--control-plane-transport okhttp|netty]}.
 *
 * @param shuffleService the NodeManager's shuffle service to register with; empty: serve our own output
 * @param readLocalShuffleDirectly read blocks on this node from the files instead of fetching them
 * @param shuffleClientConf the {@code elasticam.shuffle.client.*} settings of the application
 * @param driverEndpointFile where a restarted AM publishes its control plane; empty: a lost driver
 *     is the end (the application has one AM attempt)
 * @param reregisterTimeout how long to look for a new AM after losing the driver
 * @param controlPlaneTls the driver serves TLS: check its certificate with Hadoop's ssl-client.xml
 * @param okHttpControlPlane dial a plaintext driver with gRPC's OkHttp transport instead of Netty's
 */
public record ExecutorArgs(String driverHost, int driverPort, int executorId, String appId, int cores, int taskCpus,
    Duration heartbeatInterval, Duration heartbeatTimeout, Optional<String> userJar, Optional<String> shuffleService,
    boolean readLocalShuffleDirectly, Map<String, String> shuffleClientConf, Optional<URI> driverEndpointFile,
    Duration reregisterTimeout, boolean controlPlaneTls, boolean okHttpControlPlane) {

  /** @throws IllegalArgumentException naming the bad or missing argument */
  public static ExecutorArgs parse(String[] args) {
    Map<String, String> m = new HashMap<>();
    for (int i = 0; i < args.length; i++) {
      if (!args[i].startsWith("--") || i + 1 >= args.length) {
        throw new IllegalArgumentException("expected --name value pairs, got '" + args[i] + "'");
      }
      m.put(args[i].substring(2), args[++i]);
    }
    String driver = required(m, "driver");
    int colon = driver.lastIndexOf(':');
    if (colon <= 0) {
      throw new IllegalArgumentException("--driver must be host:port, got '" + driver + "'");
    }
    return new ExecutorArgs(driver.substring(0, colon), intOf(driver.substring(colon + 1), "driver port"),
        intOf(required(m, "executor-id"), "--executor-id"), required(m, "app-id"),
        intOf(required(m, "cores"), "--cores"), intOf(m.getOrDefault("task-cpus", "1"), "--task-cpus"),
        Duration.ofMillis(intOf(m.getOrDefault("heartbeat-ms", "3000"), "--heartbeat-ms")),
        Duration.ofMillis(intOf(m.getOrDefault("heartbeat-timeout-ms", "60000"), "--heartbeat-timeout-ms")),
        Optional.ofNullable(m.get("user-jar")), Optional.ofNullable(m.get("shuffle-service")),
        localRead(m.getOrDefault("shuffle-local-read", "direct")), keyValues(m.getOrDefault("shuffle-client-conf", "")),
        Optional.ofNullable(m.get("driver-endpoint-file")).map(ExecutorArgs::uriOf),
        Duration.ofMillis(intOf(m.getOrDefault("reregister-timeout-ms", "60000"), "--reregister-timeout-ms")),
        controlPlaneTls(m.getOrDefault("control-plane", "plain")),
        okHttp(m.getOrDefault("control-plane-transport", "netty")));
  }

  private static URI uriOf(String s) {
    try {
      URI u = new URI(s);
      if (u.getScheme() == null) {
        throw new IllegalArgumentException("--driver-endpoint-file must be a qualified URI, got '" + s + "'");
      }
      return u;
    } catch (URISyntaxException e) {
      throw new IllegalArgumentException("--driver-endpoint-file is not a URI: '" + s + "'");
    }
  }

  private static Map<String, String> keyValues(String list) {
    Map<String, String> out = new HashMap<>();
    for (String kv : list.split(",")) {
      if (kv.isBlank()) {
        continue;
      }
      int eq = kv.indexOf('=');
      if (eq <= 0 || !kv.startsWith("elasticam.shuffle.client.")) {
        throw new IllegalArgumentException("--shuffle-client-conf takes elasticam.shuffle.client.*=value pairs, got '"
            + kv + "'");
      }
      out.put(kv.substring(0, eq), kv.substring(eq + 1));
    }
    return out;
  }

  private static boolean controlPlaneTls(String v) {
    return switch (v) {
      case "tls" -> true;
      case "plain" -> false;
      default -> throw new IllegalArgumentException("--control-plane must be tls or plain, got '" + v + "'");
    };
  }

  private static boolean okHttp(String v) {
    return switch (v) {
      case "okhttp" -> true;
      case "netty" -> false;
      default -> throw new IllegalArgumentException("--control-plane-transport must be okhttp or netty, got '" + v + "'");
    };
  }

  private static boolean localRead(String v) {
    return switch (v) {
      case "direct" -> true;
      case "fetch" -> false;
      default -> throw new IllegalArgumentException("--shuffle-local-read must be direct or fetch, got '" + v + "'");
    };
  }

  /** Task slots: cores / task.cpus, at least one. */
  public int slots() {
    return Math.max(1, cores / Math.max(1, taskCpus));
  }

  private static String required(Map<String, String> m, String name) {
    String v = m.get(name);
    if (v == null || v.isBlank()) {
      throw new IllegalArgumentException("missing --" + name);
    }
    return v;
  }

  private static int intOf(String s, String what) {
    try {
      return Integer.parseInt(s.trim());
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException(what + " must be a number, got '" + s + "'");
    }
  }
}
