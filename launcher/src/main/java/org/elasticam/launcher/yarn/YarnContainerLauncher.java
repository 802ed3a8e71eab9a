package org.elasticam.launcher.yarn;

import java.nio.ByteBuffer;
import java.util.Map;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.yarn.api.records.Container;
import org.apache.hadoop.yarn.client.api.NMClient;
import org.elasticam.allocator.model.ExecutorId;
import org.elasticam.launcher.ExecutorLauncher;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The ContainerLauncher pool: starts executors on NodeManagers with a synchronous NMClient (its
 * calls are thread-safe) on at most {@code elasticam.yarn.containerLauncherMaxThreads} threads, so
 * a slow NodeManager delays only the launches queued behind it, never the AM's event loop.
 */
public final class YarnContainerLauncher implements ExecutorLauncher {

  private static final Logger LOG = LoggerFactory.getLogger(YarnContainerLauncher.class);

  private final NMClient nmClient;
  /** Replaced whole when tokens are renewed; launcher threads read it once per launch. */
  private volatile ExecutorLaunchSpec spec;
  private final ThreadPoolExecutor pool;

  public YarnContainerLauncher(Configuration conf, ExecutorLaunchSpec spec, int maxThreads) {
    this.spec = spec;
    this.nmClient = NMClient.createNMClient("elasticam-launcher");
    // The AM releases containers itself; stopping them on close would race with that.
    nmClient.cleanupRunningContainersOnStop(false);
    nmClient.init(conf);
    nmClient.start();
    AtomicInteger n = new AtomicInteger();
    this.pool = new ThreadPoolExecutor(maxThreads, maxThreads, 60, TimeUnit.SECONDS, new LinkedBlockingQueue<>(),
        r -> {
          Thread t = new Thread(r, "container-launcher-" + n.incrementAndGet());
          t.setDaemon(true);
          return t;
        });
    pool.allowCoreThreadTimeOut(true);
  }

  @Override
  public void updateTokens(java.nio.ByteBuffer tokens) {
    spec = spec.withTokens(tokens);
  }

  @Override
  public void launch(ExecutorId executor, Container container, Callback callback) {
    pool.execute(() -> {
      try {
        Map<String, ByteBuffer> meta = nmClient.startContainer(container, LaunchContexts.executor(spec, executor));
        callback.started(container, meta == null ? Map.of() : meta);
      } catch (Exception e) {
        LOG.debug("starting executor {} in {} failed", executor, container.getId(), e);
        callback.failed(container, e);
      }
    });
  }

  @Override
  public void close() {
    pool.shutdownNow();
    nmClient.stop();
  }
}
