package org.elasticam.shuffle.service.server;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.elasticam.shuffle.client.ClientSettings;
import org.elasticam.shuffle.client.FetchException;
import org.elasticam.shuffle.client.FetchedBlock;
import org.elasticam.shuffle.client.FetchedBlocks;
import org.elasticam.shuffle.client.ServiceAddress;
import org.elasticam.shuffle.client.ShuffleClient;
import org.elasticam.shuffle.layout.ShuffleLayout;
import org.elasticam.shuffle.protocol.FetchRequest;
import org.elasticam.shuffle.protocol.MapIdSet;
import org.elasticam.shuffle.protocol.ReduceRange;
import org.elasticam.shuffle.service.state.StateStore;
import org.elasticam.testkit.shuffle.ShuffleFixtures;
import org.elasticam.time.Clock;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The owner check of a secure NodeManager, with the check Hadoop's native library is absent for:
 * the owner of the opened file, read through /proc/self/fd. Files of another user are made with
 * chown, which needs root (CAP_CHOWN); without it those tests are skipped, saying so.
 */
class OwnerCheckTest {

  /** "nobody" on Debian and RHEL alike: a uid that is neither ours nor the application's. */
  private static final int NOBODY = 65534;

  @TempDir
  Path tmp;

  /** The name this process's files are owned by: the application's user in these tests. */
  private String me() throws IOException {
    return Files.getOwner(Files.createTempFile(tmp, "me", "")).getName();
  }

  private void assumeCanChown() throws IOException {
    Path probe = Files.createTempFile(tmp, "chown", "");
    try {
      Files.setAttribute(probe, "unix:uid", NOBODY);
    } catch (IOException | SecurityException e) {
      assumeTrue(false, "giving a file to another user needs root (CAP_CHOWN), which this run lacks: " + e);
    }
  }

  private static void chown(Path p, int uid) throws IOException {
    Files.setAttribute(p, "unix:uid", uid, LinkOption.NOFOLLOW_LINKS);
  }

  private static Path data(ServiceFixture f, int map) {
    return ShuffleLayout.dataFile(List.of(f.appDir), 0, map);
  }

  private static Path index(ServiceFixture f, int map) {
    return ShuffleLayout.indexFile(List.of(f.appDir), 0, map);
  }

  private static ShuffleClient client(ServiceFixture f) {
    return new ShuffleClient(ServiceFixture.APP, f.secret, ClientSettings.defaults()
        .withRetries(0, Duration.ZERO).withTimeouts(Duration.ofSeconds(5), Duration.ofSeconds(20)), Clock.system());
  }

  private static void assertServedExactly(ShuffleClient c, ServiceAddress a, FetchRequest r, int shuffle,
      ShuffleFixtures.BlockSize size) throws Exception {
    try (FetchedBlocks got = c.fetch(a, r).get(10, TimeUnit.SECONDS)) {
      assertEquals(r.maps().toArray().length * (r.reduces().last() - r.reduces().first() + 1), got.blocks().size());
      for (FetchedBlock b : got.blocks()) {
        assertArrayEquals(ShuffleFixtures.blockBytes(shuffle, b.mapId(), b.reduceId(),
            size.of(b.mapId(), b.reduceId())), b.data());
      }
    }
  }

  private static Raw.Response one(Pipe p, ServiceFixture f, FetchRequest r) {
    List<Raw.Response> got = p.send(Raw.fetch(r, f.secret, System.currentTimeMillis(), true));
    return got.get(got.size() - 1);
  }

  /** Whether this process still has {@code file} open. */
  private static boolean open(Path file) throws IOException {
    try (Stream<Path> fds = Files.list(Path.of("/proc/self/fd"))) {
      return fds.anyMatch(fd -> {
        try {
          return Files.readSymbolicLink(fd).equals(file);
        } catch (IOException e) {
          return false; // closed meanwhile
        }
      });
    }
  }

  @Test
  void filesOfTheApplicationsUserAreServedByteExactSmallAndLargeBlocksAlike() throws Exception {
    ServiceFixture f = new ServiceFixture(tmp, StateStore.none(), me());
    ShuffleFixtures.BlockSize large = (m, r) -> 40_000 + m * 1000 + r;
    f.writeShuffle(1, 2, 2, large);
    try (ShuffleServer server = f.start(ServerSettings.loopback(), OwnedFileOpener.throughProcFd());
        ShuffleClient c = client(f)) {
      ServiceAddress a = ServiceAddress.plain("127.0.0.1", server.port());
      for (int round = 0; round < 2; round++) { // the second round reads the indexes from the cache
        assertServedExactly(c, a, ServiceFixture.fetch(0, 1, 2), 0, ServiceFixture::size);
        assertServedExactly(c, a, new FetchRequest(ServiceFixture.APP, "e1", 1, new ReduceRange(0, 1),
            MapIdSet.of(0, 1)), 1, large);
      }
    }
    // Under TLS large blocks go as chunks read from a file opened the same way.
    try (Pipe p = new Pipe(f.context(ServerSettings.loopback(), ServiceFixture.direct(), true,
        OwnedFileOpener.throughProcFd()))) {
      Raw.Response r = one(p, f, new FetchRequest(ServiceFixture.APP, "e1", 1, new ReduceRange(0, 1), MapIdSet.of(1)));
      assertEquals(200, r.status(), r.text());
      assertTrue(Raw.indexOf(r.body(), ShuffleFixtures.blockBytes(1, 1, 1, large.of(1, 1))) > 0);
    }
  }

  @Test
  void aDataOrIndexFileOfAnotherUserIsRefusedWith403AndTheOtherMapsAreStillServed() throws Exception {
    assumeCanChown();
    ServiceFixture f = new ServiceFixture(tmp, StateStore.none(), me());
    chown(data(f, 1), NOBODY);
    chown(index(f, 2), NOBODY);
    try (ShuffleServer server = f.start(ServerSettings.loopback(), OwnedFileOpener.throughProcFd());
        ShuffleClient c = client(f)) {
      ServiceAddress a = ServiceAddress.plain("127.0.0.1", server.port());
      for (int[] maps : new int[][] {{0, 1, 2}, {1}, {2}, {0, 2}}) {
        ExecutionException e = org.junit.jupiter.api.Assertions.assertThrows(ExecutionException.class,
            () -> c.fetch(a, ServiceFixture.fetch(maps)).get(10, TimeUnit.SECONDS).close());
        FetchException fe = assertInstanceOf(FetchException.class, e.getCause());
        assertEquals(403, fe.status(), fe.getMessage());
        assertFalse(fe.retryable(), "a reducer reports a fetch failure rather than retrying");
      }
      assertServedExactly(c, a, ServiceFixture.fetch(0), 0, ServiceFixture::size);
    }
    try (Pipe p = new Pipe(f.context(ServerSettings.loopback(), ServiceFixture.direct(), false,
        OwnedFileOpener.throughProcFd()))) {
      Raw.Response r = one(p, f, ServiceFixture.fetch(0, 1));
      assertEquals(403, r.status());
      assertEquals("a file of map 1 of shuffle 0 is not owned by the application's user", r.text());
      assertTrue(p.open(), "a refusal keeps the connection, as every per-file error does");
      assertEquals(200, one(p, f, ServiceFixture.fetch(0)).status());
    }
    assertFalse(open(data(f, 1)), "the refused file is closed");
    assertFalse(open(index(f, 2)), "the refused index is closed");
  }

  @Test
  void anIndexGivenToAnotherUserAfterItWasCachedIsRefused() throws Exception {
    assumeCanChown();
    ServiceFixture f = new ServiceFixture(tmp, StateStore.none(), me());
    ServerContext sc = f.context(ServerSettings.loopback(), ServiceFixture.direct(), false,
        OwnedFileOpener.throughProcFd());
    try (Pipe p = new Pipe(sc)) {
      assertEquals(200, one(p, f, ServiceFixture.fetch(0)).status());
      assertTrue(sc.indexes().cachedBytes() > 0, "map 0's index is cached");
      // chown keeps the inode, the modification time and the size: only the change time tells.
      chown(index(f, 0), NOBODY);
      assertEquals(403, one(p, f, ServiceFixture.fetch(0)).status());
      chown(index(f, 0), (Integer) Files.getAttribute(f.appDir, "unix:uid"));
      assertEquals(200, one(p, f, ServiceFixture.fetch(0)).status());
    }
  }

  @Test
  void aDataFileSwappedForAnotherUsersAfterTheCheckIsNeverSent() throws Exception {
    assumeCanChown();
    ServiceFixture f = new ServiceFixture(tmp, StateStore.none(), me());
    Path data = data(f, 1);
    Path planted = Files.write(f.appDir.resolve("planted"), "Z".repeat((int) Files.size(data))
        .getBytes(StandardCharsets.US_ASCII));
    chown(planted, NOBODY);
    // The swap lands after the resolver has checked map 1 and before the response reads it.
    ServiceFixture.DirectExecutor swapAfterResolve = new ServiceFixture.DirectExecutor(() -> {
      try {
        if (Files.exists(planted)) {
          Files.move(planted, data, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
        }
      } catch (IOException e) {
        throw new java.io.UncheckedIOException(e);
      }
    });
    try (Pipe p = new Pipe(f.context(ServerSettings.loopback(), swapAfterResolve, false,
        OwnedFileOpener.throughProcFd()))) {
      byte[] out = p.feed(Raw.fetch(ServiceFixture.fetch(0, 1), f.secret, System.currentTimeMillis(), true)
          .getBytes(StandardCharsets.ISO_8859_1));
      String text = new String(out, StandardCharsets.ISO_8859_1);
      assertTrue(text.startsWith("HTTP/1.1 200 "), "checked and admitted before the swap: " + text);
      assertEquals(-1, Raw.indexOf(out, "ZZZZZZZZ".getBytes(StandardCharsets.US_ASCII)), "not one planted byte sent");
      assertTrue(Raw.indexOf(out, ServiceFixture.block(1, 2)) > 0,
          "the response reads the descriptor that was checked, not what the path names by then");
      assertTrue(p.open());
      // The path now names another user's file: the kept descriptor is not used for it, and the new one is refused.
      assertEquals(403, one(p, f, ServiceFixture.fetch(1)).status());
    }
    assertFalse(open(data), "the planted file is closed");
  }

  @Test
  void withTheCheckOffOwnersAreNotChecked() throws Exception {
    assumeCanChown();
    ServiceFixture f = new ServiceFixture(tmp, StateStore.none(), me());
    chown(data(f, 1), NOBODY);
    chown(index(f, 2), NOBODY);
    try (ShuffleServer server = f.start(ServerSettings.loopback(), OwnedFileOpener.unchecked());
        ShuffleClient c = client(f)) {
      assertServedExactly(c, ServiceAddress.plain("127.0.0.1", server.port()), ServiceFixture.fetch(0, 1, 2), 0,
          ServiceFixture::size);
    }
  }

  @Test
  void withNoWayToCheckEveryFetchGets500AndNoBytes() throws Exception {
    ServiceFixture f = new ServiceFixture(tmp, StateStore.none(), me());
    try (Pipe p = new Pipe(f.context(ServerSettings.loopback(), ServiceFixture.direct(), false,
        OwnedFileOpener.refusing("a test says so")))) {
      Raw.Response r = one(p, f, ServiceFixture.fetch(0, 1));
      assertEquals(500, r.status());
      assertEquals("this NodeManager cannot check the owners of shuffle files; its log says why", r.text());
    }
  }

  /**
   * The LinuxContainerExecutor's layout: usercache/&lt;user&gt; and the app's dirs belong to the user
   * and the NodeManager's group, setgid, 2750; the executor's files 640. This run is root, whom
   * permission bits do not stop, so it shows the owner check and confinement accept that layout,
   * not that a NodeManager user reads it through the group bits.
   */
  @Test
  void theLinuxContainerExecutorsLayoutIsServedAndStillRefusesAnotherUsersFile() throws Exception {
    assumeCanChown();
    ServiceFixture f = new ServiceFixture(tmp, StateStore.none(), "nobody");
    int nmGroup = (Integer) Files.getAttribute(tmp, "unix:gid");
    try (Stream<Path> all = Files.walk(f.nmLocal.resolve("usercache/nobody"))) {
      for (Path p : all.toList()) {
        chown(p, NOBODY);
        Files.setAttribute(p, "unix:gid", nmGroup, LinkOption.NOFOLLOW_LINKS);
        Files.setAttribute(p, "unix:mode", Files.isDirectory(p) ? 02750 : 0640);
      }
    }
    assertEquals("rwxr-x---", PosixFilePermissions.toString(Files.getPosixFilePermissions(f.appDir)));
    f.registry.registerExecutor(ServiceFixture.APP, "e2", List.of(f.appDir.toString()));
    try (ShuffleServer server = f.start(ServerSettings.loopback(), OwnedFileOpener.throughProcFd());
        ShuffleClient c = client(f)) {
      ServiceAddress a = ServiceAddress.plain("127.0.0.1", server.port());
      assertServedExactly(c, a, ServiceFixture.fetch(0, 1, 2), 0, ServiceFixture::size);
      chown(data(f, 2), 0);
      ExecutionException e = org.junit.jupiter.api.Assertions.assertThrows(ExecutionException.class,
          () -> c.fetch(a, ServiceFixture.fetch(2)).get(10, TimeUnit.SECONDS).close());
      assertEquals(403, ((FetchException) e.getCause()).status());
    }
  }
}
