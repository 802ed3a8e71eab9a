package org.elasticam.shuffle.service;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.security.GeneralSecurityException;
import java.util.Optional;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import javax.net.ssl.SSLEngine;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.io.nativeio.NativeIO;
import org.apache.hadoop.metrics2.lib.DefaultMetricsSystem;
import org.apache.hadoop.security.UserGroupInformation;
import org.apache.hadoop.security.ssl.SSLFactory;
import org.apache.hadoop.yarn.server.api.ApplicationInitializationContext;
import org.apache.hadoop.yarn.server.api.ApplicationTerminationContext;
import org.apache.hadoop.yarn.server.api.AuxiliaryService;
import org.elasticam.conf.ElasticConf;
import org.elasticam.shuffle.protocol.PortMetadata;
import org.elasticam.shuffle.protocol.SecretEnvelope;
import org.elasticam.shuffle.service.apps.AppEntry;
import org.elasticam.shuffle.service.apps.AppRegistry;
import org.elasticam.shuffle.service.metrics.ShuffleMetrics;
import org.elasticam.shuffle.service.server.OwnedFileOpener;
import org.elasticam.shuffle.service.server.ShuffleServer;
import org.elasticam.shuffle.service.state.JournalStore;
import org.elasticam.shuffle.service.state.StateStore;
import org.elasticam.time.Clock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The NodeManager auxiliary service {@code elasticam_shuffle}: a thin adapter from YARN's
 * lifecycle and callbacks to the registry, the recovery store, the metrics source and the Netty
 * server. Configure it in yarn-site.xml (README, "Installing the shuffle service").
 *
 * <p>Init fails (and with it the NodeManager, which is what an operator wants to see) on a broken
 * {@code elasticam.shuffle.*} key, a recovery store of another major version, or a port in use.
 * On a secure NodeManager every file served must be owned by the application's user, the one
 * YARN names at initializeApplication and the recovery store keeps ({@link OwnerChecks}).
 */
public final class ElasticamShuffleService extends AuxiliaryService {

  public static final String NAME = "elasticam_shuffle";
  private static final Logger LOG = LoggerFactory.getLogger(ElasticamShuffleService.class);

  private ServiceSettings settings;
  private StateStore store;
  private AppRegistry registry;
  private ShuffleMetrics metrics;
  private SSLFactory sslFactory;
  private ShuffleServer server;
  private ScheduledExecutorService housekeeping;
  private OwnedFileOpener opener;

  public ElasticamShuffleService() {
    super(NAME);
  }

  @Override
  protected void serviceInit(Configuration conf) throws Exception {
    settings = ServiceSettings.from(new ElasticConf(new HadoopConfSource(conf)));
    org.apache.hadoop.fs.Path recovery = getRecoveryPath();
    store = recovery == null ? StateStore.none() : JournalStore.open(Paths.get(recovery.toUri().getPath()),
        Clock.system().nowMs());
    if (recovery == null) {
      LOG.info("NodeManager recovery is off: shuffle registrations are kept in memory only");
    }
    registry = new AppRegistry(store, NodeManagerDirs.of(getAuxiliaryLocalPathHandler(), conf));
    opener = OwnerChecks.choose(settings.ownerCheck(), UserGroupInformation.isSecurityEnabled(),
        NativeIO.isAvailable(), OwnedFileOpener::throughProcFd);
    metrics = new ShuffleMetrics(settings.metricsName());
    if (store.startedFromCorrupt()) {
      metrics.corruptStoreFound();
    }
    if (settings.ssl()) {
      sslFactory = new SSLFactory(SSLFactory.Mode.SERVER, conf);
      sslFactory.init();
    }
    super.serviceInit(conf);
  }

  @Override
  protected void serviceStart() throws Exception {
    server = ShuffleServer.start(settings.server(), registry, metrics, tlsEngines(), opener, Clock.system(),
        System::nanoTime);
    metrics.gauge("RegisteredApplications", registry::applicationCount)
        .gauge("RegisteredExecutors", registry::executorCount)
        .gauge("InFlightBytes", server::inFlightBytes)
        .gauge("WaitingRequests", server::waitingRequests)
        .gauge("KeptOpenFiles", server::keptOpenFiles)
        .tag("Transport", server.transportName());
    DefaultMetricsSystem.instance().register(settings.metricsName(), "ElasticAM shuffle service", metrics);
    housekeeping = Executors.newSingleThreadScheduledExecutor(r -> {
      Thread t = new Thread(r, "elasticam-shuffle-housekeeping");
      t.setDaemon(true);
      return t;
    });
    long every = settings.sweepInterval().toMillis();
    housekeeping.scheduleWithFixedDelay(this::sweep, 0, every, TimeUnit.MILLISECONDS);
    super.serviceStart();
  }

  private Supplier<SSLEngine> tlsEngines() {
    if (sslFactory == null) {
      return null;
    }
    return () -> {
      try {
        return sslFactory.createSSLEngine();
      } catch (GeneralSecurityException | IOException e) {
        throw new IllegalStateException("cannot create a TLS engine", e);
      }
    };
  }

  private void sweep() {
    try {
      registry.sweepEnded();
    } catch (IOException | RuntimeException e) {
      LOG.warn("Sweeping ended applications failed", e);
    }
  }

  @Override
  protected void serviceStop() throws Exception {
    if (housekeeping != null) {
      housekeeping.shutdownNow();
    }
    if (server != null) {
      server.close();
      DefaultMetricsSystem.instance().unregisterSource(settings.metricsName());
    }
    if (store != null) {
      store.close();
    }
    if (sslFactory != null) {
      sslFactory.destroy();
    }
    super.serviceStop();
  }

  @Override
  public void initializeApplication(ApplicationInitializationContext context) {
    String appId = context.getApplicationId().toString();
    try {
      SecretEnvelope envelope = SecretEnvelope.decode(context.getApplicationDataForService());
      registry.initializeApplication(appId, context.getUser(), envelope);
    } catch (IllegalArgumentException e) {
      LOG.error("Refusing application {}: its service data is not a shuffle secret envelope ({}); its blocks will"
          + " not be served", appId, e.getMessage());
    } catch (IOException e) {
      LOG.error("Cannot persist application {}; its blocks will not be served", appId, e);
    }
  }

  @Override
  public void stopApplication(ApplicationTerminationContext context) {
    String appId = context.getApplicationId().toString();
    try {
      Optional<AppEntry> stopped = registry.stopApplication(appId);
      if (stopped.isPresent() && settings.deleteOnStop() && housekeeping != null) {
        housekeeping.execute(() -> ShuffleFiles.delete(stopped.get()));
      }
    } catch (IOException e) {
      LOG.error("Cannot remove application {} from the recovery store", appId, e);
    }
  }

  /** Version-1 port metadata: what the AM reads from the start-containers response. */
  @Override
  public ByteBuffer getMetaData() {
    if (server == null) {
      return ByteBuffer.allocate(0);
    }
    return new PortMetadata(server.port(), sslFactory != null).encode();
  }

  /** The bound port, once started. */
  public int port() {
    return server.port();
  }

  AppRegistry registry() {
    return registry;
  }

  ShuffleMetrics metrics() {
    return metrics;
  }
}
