package org.elasticam.executor.shuffle;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.elasticam.shuffle.client.ClientSettings;
import org.elasticam.shuffle.client.ServiceAddress;
import org.elasticam.shuffle.client.ShuffleClient;
import org.elasticam.shuffle.protocol.PortMetadata;
import org.elasticam.shuffle.protocol.RequestSigner;
import org.elasticam.shuffle.protocol.SecretEnvelope;
import org.elasticam.shuffle.service.apps.AppRegistry;
import org.elasticam.shuffle.service.server.ServerSettings;
import org.elasticam.shuffle.service.server.ShuffleServer;
import org.elasticam.shuffle.service.server.ShuffleStats;
import org.elasticam.shuffle.service.state.StateStore;
import org.elasticam.time.Clock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * An executor's part in the shuffle: where its map tasks write (the application-level local dirs,
 * which outlive the container), who serves that output, and the client its reduce tasks fetch
 * with. With a shuffle service in the NodeManager, the executor registers its dirs there, and its
 * output stays available after it exits. Without one, the executor serves its own output with the
 * same network front in-process, on a port of its own, and the output goes when it goes; that
 * server starts with the first map output, so executors of jobs without a shuffle pay nothing.
 */
public final class ExecutorShuffle implements AutoCloseable {

  private static final Logger LOG = LoggerFactory.getLogger(ExecutorShuffle.class);
  /** The NodeManager puts each aux service's metadata in the container's environment under this prefix. */
  static final String AUX_SERVICE_ENV_PREFIX = "NM_AUX_SERVICE_";

  private final String appId;
  private final String executorId;
  private final String host;
  private final List<Path> localDirs;
  private final byte[] shuffleSecret;
  private final ShuffleClient client;
  private final boolean external;
  private final boolean readLocalDirectly;
  private final Clock clock;
  private ServiceAddress servedAt;
  private ShuffleServer ownServer;

  private ExecutorShuffle(String appId, String executorId, String host, List<Path> localDirs, byte[] shuffleSecret,
      ShuffleClient client, ServiceAddress servedAt, boolean readLocalDirectly, Clock clock) {
    this.appId = appId;
    this.executorId = executorId;
    this.host = host;
    this.localDirs = List.copyOf(localDirs);
    this.shuffleSecret = shuffleSecret;
    this.client = client;
    this.servedAt = servedAt;
    this.external = servedAt != null;
    this.readLocalDirectly = readLocalDirectly;
    this.clock = clock;
  }

  /**
   * Sets up the executor's shuffle: registers with the node's service {@code serviceName}, or starts
   * serving its own output when there is none.
   *
   * @param env the container's environment ({@code LOCAL_DIRS}, {@code NM_AUX_SERVICE_<name>})
   * @throws IOException when the node's service cannot be found or refuses the registration
   */
  public static ExecutorShuffle start(String appId, String executorId, String host, byte[] appSecret,
      Optional<String> serviceName, boolean readLocalDirectly, ClientSettings clientSettings,
      Map<String, String> env, Clock clock) throws IOException {
    List<Path> dirs = localDirs(env);
    byte[] shuffleSecret = RequestSigner.deriveShuffleSecret(appSecret);
    ShuffleClient client = new ShuffleClient(appId, shuffleSecret, clientSettings, clock);
    try {
      if (serviceName.isPresent()) {
        String meta = env.get(AUX_SERVICE_ENV_PREFIX + serviceName.get());
        if (meta == null || meta.isBlank()) {
          throw new IOException("the NodeManager on " + host + " runs no shuffle service named '" + serviceName.get()
              + "' (it must be in yarn.nodemanager.aux-services and match elasticam.shuffle.service.name)");
        }
        PortMetadata port = PortMetadata.fromEnvironment(meta);
        ServiceAddress at = new ServiceAddress(host, port.port(), port.tls());
        client.register(at, executorId, dirs);
        LOG.info("Executor {} registered its shuffle dirs {} with the shuffle service at {}", executorId, dirs, at);
        return new ExecutorShuffle(appId, executorId, host, dirs, shuffleSecret, client, at, readLocalDirectly, clock);
      }
      return new ExecutorShuffle(appId, executorId, host, dirs, shuffleSecret, client, null, readLocalDirectly, clock);
    } catch (IOException | RuntimeException e) {
      client.close();
      throw e;
    }
  }

  /** The service's own front with one application and one executor, confined to this executor's dirs. */
  private static ShuffleServer serveOwnOutput(String appId, String executorId, List<Path> dirs,
      byte[] shuffleSecret, Clock clock) throws Exception {
    AppRegistry registry = new AppRegistry(StateStore.none(), (user, app) -> app.equals(appId) ? dirs : List.of());
    String user = System.getProperty("user.name", "executor");
    registry.initializeApplication(appId, user, new SecretEnvelope(shuffleSecret, false));
    registry.registerExecutor(appId, executorId, dirs.stream().map(Path::toString).toList());
    // NIO: the distributable jar carries no native transport.
    ServerSettings settings = new ServerSettings(null, 0, 256, Duration.ofSeconds(1), 64L << 20,
        Duration.ofSeconds(120), 1, 2, Duration.ofMinutes(5), 4L << 20, 256, false);
    return ShuffleServer.start(settings, registry, ShuffleStats.none(), null, clock, System::nanoTime);
  }

  static List<Path> localDirs(Map<String, String> env) throws IOException {
    String v = env.get("LOCAL_DIRS");
    if (v == null || v.isBlank()) {
      throw new IOException("LOCAL_DIRS is not set: shuffle output needs the container's application-level local dirs");
    }
    List<Path> dirs = new ArrayList<>();
    for (String d : v.split(",")) {
      if (!d.isBlank()) {
        dirs.add(Path.of(d.trim()));
      }
    }
    return dirs;
  }

  public String appId() {
    return appId;
  }

  public String executorId() {
    return executorId;
  }

  public String host() {
    return host;
  }

  public List<Path> localDirs() {
    return localDirs;
  }

  public ShuffleClient client() {
    return client;
  }

  /** Where this executor's map output is served; without a service, starts serving it here. */
  public synchronized ServiceAddress servedAt() throws IOException {
    if (servedAt == null) {
      try {
        ownServer = serveOwnOutput(appId, executorId, localDirs, shuffleSecret, clock);
      } catch (IOException e) {
        throw e;
      } catch (Exception e) {
        throw new IOException("cannot serve shuffle output: " + e.getMessage(), e);
      }
      servedAt = ServiceAddress.plain(host, ownServer.port());
      LOG.info("Executor {} serves its own shuffle output at {} (no shuffle service)", executorId, servedAt);
    }
    return servedAt;
  }

  /** True when the NodeManager's service serves it (and it survives this executor). */
  public boolean external() {
    return external;
  }

  /** Whether blocks on this executor's own node are read from the files rather than fetched. */
  public boolean readLocalDirectly() {
    return readLocalDirectly;
  }

  @Override
  public synchronized void close() {
    client.close();
    if (ownServer != null) {
      ownServer.close();
    }
  }
}
