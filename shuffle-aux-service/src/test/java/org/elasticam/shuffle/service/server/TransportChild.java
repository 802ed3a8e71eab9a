package org.elasticam.shuffle.service.server;

import java.nio.file.Path;
import java.util.List;
import org.elasticam.shuffle.service.apps.AppDirs;
import org.elasticam.shuffle.service.apps.AppRegistry;
import org.elasticam.shuffle.service.state.StateStore;
import org.elasticam.time.Clock;

/**
 * A server started in a process of its own by {@link TransportTest}, with whatever system
 * properties the test gave it (a native library that cannot load): prints the transport it runs on.
 */
final class TransportChild {

  private TransportChild() {}

  public static void main(String[] args) throws Exception {
    AppRegistry registry = new AppRegistry(StateStore.none(), AppDirs.under(List.of(Path.of(args[0]))));
    try (ShuffleServer server = ShuffleServer.start(ServerSettings.loopback(), registry, ShuffleStats.none(), null,
        Clock.system(), System::nanoTime)) {
      System.out.println("RESULT transport=" + server.transportName() + " native=" + server.nativeTransport());
    }
  }
}
