package org.elasticam.shuffle.service.server;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.AbstractExecutorService;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import javax.net.ssl.SSLEngine;
import org.elasticam.shuffle.protocol.MapIdSet;
import org.elasticam.shuffle.protocol.FetchRequest;
import org.elasticam.shuffle.protocol.ReduceRange;
import org.elasticam.shuffle.protocol.SecretEnvelope;
import org.elasticam.shuffle.service.apps.AppDirs;
import org.elasticam.shuffle.service.apps.AppRegistry;
import org.elasticam.shuffle.service.state.StateStore;
import org.elasticam.testkit.shuffle.ShuffleFixtures;
import org.elasticam.time.Clock;

/**
 * A NodeManager local dir with two applications, executor e1 of APP registered in APP's app-cache
 * dir, and shuffle 0 written there: 3 maps x 4 reduces, block (m, r) of {@link #size} bytes.
 */
final class ServiceFixture {

  static final String APP = "application_1700000000000_0001";
  static final String OTHER = "application_1700000000000_0002";
  static final String USER = "alice";

  final String user;
  final Path nmLocal;
  final Path appDir;
  final Path otherAppDir;
  final byte[] secret = ShuffleFixtures.newSecret();
  final byte[] otherSecret = ShuffleFixtures.newSecret();
  final AppRegistry registry;

  ServiceFixture(Path tmp, StateStore store) throws Exception {
    this(tmp, store, USER);
  }

  /** The same, with both applications run by {@code user}. */
  ServiceFixture(Path tmp, StateStore store, String user) throws Exception {
    this.user = user;
    nmLocal = tmp.resolve("nm-local");
    appDir = ShuffleFixtures.appCacheDir(nmLocal, user, APP);
    otherAppDir = ShuffleFixtures.appCacheDir(nmLocal, user, OTHER);
    registry = new AppRegistry(store, AppDirs.under(List.of(nmLocal)));
    registry.initializeApplication(APP, user, new SecretEnvelope(secret, true));
    registry.initializeApplication(OTHER, user, new SecretEnvelope(otherSecret, true));
    registry.registerExecutor(APP, "e1", List.of(appDir.toString()));
    ShuffleFixtures.writeMaps(List.of(appDir), 0, 3, 4, ServiceFixture::size);
  }

  static int size(int map, int reduce) {
    return 100 * map + reduce + 1;
  }

  static byte[] block(int map, int reduce) {
    return ShuffleFixtures.blockBytes(0, map, reduce, size(map, reduce));
  }

  static FetchRequest fetch(int... maps) {
    return new FetchRequest(APP, "e1", 0, new ReduceRange(1, 2), MapIdSet.of(maps));
  }

  ServerContext context(ServerSettings s, ExecutorService disk, boolean tls) {
    return context(s, disk, tls, OwnedFileOpener.unchecked());
  }

  ServerContext context(ServerSettings s, ExecutorService disk, boolean tls, OwnedFileOpener opener) {
    return new ServerContext(s, registry, ShuffleStats.none(), new InFlightBudget(s.maxInFlightBytes()), disk,
        Clock.system(), System::nanoTime, tls, opener, new IndexCache(s.indexCacheBytes(), opener),
        new KeptFiles(s.maxOpenFiles(), opener), new OpenDirs(s.maxOpenFiles()));
  }

  ShuffleServer start(ServerSettings s, ShuffleStats stats, Supplier<SSLEngine> tls) throws Exception {
    return ShuffleServer.start(s, registry, stats, tls, Clock.system(), System::nanoTime);
  }

  ShuffleServer start(ServerSettings s, OwnedFileOpener opener) throws Exception {
    return ShuffleServer.start(s, registry, ShuffleStats.none(), null, opener, Clock.system(), System::nanoTime);
  }

  /** APP's fetch client: one retry, short timeouts. */
  org.elasticam.shuffle.client.ShuffleClient client() {
    return new org.elasticam.shuffle.client.ShuffleClient(APP, secret,
        org.elasticam.shuffle.client.ClientSettings.defaults().withRetries(1, java.time.Duration.ofMillis(50))
            .withTimeouts(java.time.Duration.ofSeconds(5), java.time.Duration.ofSeconds(20)),
        Clock.system());
  }

  void writeShuffle(int shuffleId, int maps, int reduces, ShuffleFixtures.BlockSize size) throws IOException {
    ShuffleFixtures.writeMaps(List.of(appDir), shuffleId, maps, reduces, size);
  }

  /** Runs tasks on the calling thread: file work happens inside the test's own step. */
  static ExecutorService direct() {
    return new DirectExecutor(() -> { });
  }

  /** Runs each task on the calling thread, then {@code after}: a step between a task and what it posts back. */
  static final class DirectExecutor extends AbstractExecutorService {
    private final Runnable after;
    private boolean shut;

    DirectExecutor(Runnable after) {
      this.after = after;
    }

    @Override
    public void execute(Runnable command) {
      command.run();
      after.run();
    }

    @Override
    public void shutdown() {
      shut = true;
    }

    @Override
    public List<Runnable> shutdownNow() {
      shut = true;
      return List.of();
    }

    @Override
    public boolean isShutdown() {
      return shut;
    }

    @Override
    public boolean isTerminated() {
      return shut;
    }

    @Override
    public boolean awaitTermination(long timeout, TimeUnit unit) {
      return true;
    }
  }
}
