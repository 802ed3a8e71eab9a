package org.elasticam.shuffle.service.server;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.elasticam.shuffle.client.ClientSettings;
import org.elasticam.shuffle.client.FetchedBlock;
import org.elasticam.shuffle.client.FetchedBlocks;
import org.elasticam.shuffle.client.ServiceAddress;
import org.elasticam.shuffle.client.ShuffleClient;
import org.elasticam.shuffle.service.state.StateStore;
import org.elasticam.time.Clock;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Which transport serves: the native epoll transport where its library loads (here, from Netty's
 * own jar; in a NodeManager, from the shaded jar under its relocated name — the service ITs), NIO
 * when asked for, and NIO with one logged reason when the library cannot load.
 */
class TransportTest {

  @TempDir
  Path tmp;

  private static void assumeLinuxWithEpollLibrary() {
    String arch = System.getProperty("os.arch");
    assumeTrue(System.getProperty("os.name").equals("Linux") && (arch.equals("amd64") || arch.equals("aarch64")),
        "the epoll library is carried for Linux x86_64 and aarch64 only");
  }

  private ShuffleClient client(ServiceFixture f) {
    return new ShuffleClient(ServiceFixture.APP, f.secret, ClientSettings.defaults()
        .withRetries(0, Duration.ZERO).withTimeouts(Duration.ofSeconds(5), Duration.ofSeconds(20)), Clock.system());
  }

  private static void assertServes(ShuffleServer server, ShuffleClient c) throws Exception {
    ServiceAddress a = ServiceAddress.plain("127.0.0.1", server.port());
    try (FetchedBlocks got = c.fetch(a, ServiceFixture.fetch(0, 1, 2)).get(10, TimeUnit.SECONDS)) {
      assertEquals(6, got.blocks().size());
      for (FetchedBlock b : got.blocks()) {
        assertArrayEquals(ServiceFixture.block(b.mapId(), b.reduceId()), b.data());
      }
    }
  }

  @Test
  void whereTheLibraryLoadsTheServerRunsOnEpoll() throws Exception {
    assumeLinuxWithEpollLibrary();
    Transport t = Transport.choose(true);
    assertEquals("epoll", t.name(), t.fallbackReason());
    assertNull(t.fallbackReason());
    assertTrue(t.isNative());
    ServiceFixture f = new ServiceFixture(tmp, StateStore.none());
    try (ShuffleServer server = f.start(ServerSettings.loopback(), ShuffleStats.none(), null);
        ShuffleClient c = client(f)) {
      assertTrue(server.nativeTransport());
      assertServes(server, c);
    }
  }

  @Test
  void askedForNioTheServerRunsOnNioAndHasNothingToExplain() throws Exception {
    Transport t = Transport.choose(false);
    assertEquals("NIO", t.name());
    assertNull(t.fallbackReason(), "nothing fell back");
    assertFalse(t.isNative());
    ServiceFixture f = new ServiceFixture(tmp, StateStore.none());
    try (ShuffleServer server = f.start(ServerSettings.loopback().withNativeTransport(false), ShuffleStats.none(),
        null); ShuffleClient c = client(f)) {
      assertEquals("NIO", server.transportName());
      assertServes(server, c);
    }
  }

  /**
   * A library that cannot load: Netty extracts it into {@code io.netty.native.workdir}, here a
   * regular file, so the extraction fails and Epoll reports why; the server runs on NIO and says so
   * in one warning.
   */
  @Test
  void whenTheLibraryCannotLoadTheServerFallsBackToNioWithOneLoggedReason() throws Exception {
    Path notADir = Files.createFile(tmp.resolve("not-a-directory"));
    Path nmLocal = Files.createDirectories(tmp.resolve("nm-local"));
    List<String> cmd = List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
        "-Dio.netty.native.workdir=" + notADir, "-Dio.netty.native.deleteLibAfterLoading=true",
        "-cp", System.getProperty("java.class.path"), TransportChild.class.getName(), nmLocal.toString());
    Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertTrue(p.waitFor(60, TimeUnit.SECONDS), "the child ends");
    assertTrue(out.lines().anyMatch(l -> l.equals("RESULT transport=NIO native=false")), out);
    List<String> warnings = out.lines().filter(l -> l.contains("runs on Netty's NIO transport")).toList();
    assertEquals(1, warnings.size(), out);
    assertTrue(warnings.get(0).contains("WARN") && warnings.get(0).contains("netty_transport_native_epoll"),
        "the warning says which library did not load, and why: " + warnings.get(0));
    assertTrue(out.lines().anyMatch(l -> l.contains("listening on") && l.contains("(NIO transport)")), out);
  }
}
