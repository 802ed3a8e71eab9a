package org.elasticam.shuffle.service.server;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.elasticam.shuffle.client.ClientSettings;
import org.elasticam.shuffle.client.FetchedBlock;
import org.elasticam.shuffle.client.FetchedBlocks;
import org.elasticam.shuffle.client.ServiceAddress;
import org.elasticam.shuffle.client.ShuffleClient;
import org.elasticam.shuffle.protocol.FetchRequest;
import org.elasticam.shuffle.protocol.MapIdSet;
import org.elasticam.shuffle.protocol.ReduceRange;
import org.elasticam.shuffle.protocol.SecretEnvelope;
import org.elasticam.shuffle.service.apps.AppDirs;
import org.elasticam.shuffle.service.apps.AppRegistry;
import org.elasticam.shuffle.service.apps.ConfinementException;
import org.elasticam.shuffle.service.state.StateStore;
import org.elasticam.testkit.shuffle.ShuffleFixtures;
import org.elasticam.time.Clock;

/**
 * The service as a NodeManager's user runs it, in a process of its own started under another uid
 * by {@link LinuxContainerExecutorLayoutTest}: registers an executor's dir of an application of
 * {@code user}, fetches maps 0-2 of shuffle 0 through the owner check, and prints one line saying
 * what happened.
 */
final class NodeManagerUserChild {

  static final String APP = "application_1700000000000_0001";

  private NodeManagerUserChild() {}

  static int size(int map, int reduce) {
    return 20_000 * (map + 1) + reduce;
  }

  /** Arguments: the NodeManager local dir, the application's user, the executor's dir. */
  public static void main(String[] args) throws Exception {
    byte[] secret = ShuffleFixtures.newSecret();
    AppRegistry registry = new AppRegistry(StateStore.none(), AppDirs.under(List.of(Path.of(args[0]))));
    registry.initializeApplication(APP, args[1], new SecretEnvelope(secret, false));
    try {
      registry.registerExecutor(APP, "e1", List.of(args[2]));
    } catch (ConfinementException e) {
      System.out.println("RESULT registration refused: " + e.getMessage());
      return;
    }
    try (ShuffleServer server = ShuffleServer.start(ServerSettings.loopback(), registry, ShuffleStats.none(), null,
        OwnedFileOpener.throughProcFd(), Clock.system(), System::nanoTime);
        ShuffleClient c = new ShuffleClient(APP, secret, ClientSettings.defaults().withRetries(0, Duration.ZERO),
            Clock.system())) {
      FetchRequest r = new FetchRequest(APP, "e1", 0, new ReduceRange(0, 1), MapIdSet.of(0, 1, 2));
      try (FetchedBlocks got = c.fetch(ServiceAddress.plain("127.0.0.1", server.port()), r).get(20, TimeUnit.SECONDS)) {
        long exact = got.blocks().stream().filter(NodeManagerUserChild::exact).count();
        System.out.println("RESULT served " + exact + " of " + got.blocks().size() + " blocks byte-exact");
      } catch (ExecutionException e) {
        System.out.println("RESULT fetch failed: " + e.getCause().getMessage());
      }
    }
  }

  private static boolean exact(FetchedBlock b) {
    return Arrays.equals(ShuffleFixtures.blockBytes(0, b.mapId(), b.reduceId(), size(b.mapId(), b.reduceId())),
        b.data());
  }
}
