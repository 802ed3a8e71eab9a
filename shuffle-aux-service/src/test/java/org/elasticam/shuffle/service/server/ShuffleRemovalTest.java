package org.elasticam.shuffle.service.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.elasticam.shuffle.client.FetchException;
import org.elasticam.shuffle.client.FetchedBlocks;
import org.elasticam.shuffle.client.ServiceAddress;
import org.elasticam.shuffle.client.ShuffleClient;
import org.elasticam.shuffle.layout.ShuffleLayout;
import org.elasticam.shuffle.protocol.FetchRequest;
import org.elasticam.shuffle.protocol.MapIdSet;
import org.elasticam.shuffle.protocol.ReduceRange;
import org.elasticam.shuffle.protocol.RemoveShuffleRequest;
import org.elasticam.shuffle.protocol.ShuffleProtocol;
import org.elasticam.shuffle.service.apps.ShuffleRemoval;
import org.elasticam.shuffle.service.state.StateStore;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A shuffle no stage reads again is deleted by the service: only it, only the signer's, never through a link. */
class ShuffleRemovalTest {

  @TempDir
  Path tmp;

  private ServiceFixture f;

  @BeforeEach
  void setUp() throws Exception {
    f = new ServiceFixture(tmp, StateStore.none());
    f.writeShuffle(1, 2, 2, (m, r) -> 64);
  }

  private static FetchRequest fetchOf(int shuffle) {
    return new FetchRequest(ServiceFixture.APP, "e1", shuffle, ReduceRange.of(0), MapIdSet.of(0));
  }

  @Test
  void theRemovedShufflesFilesGoAndTheOthersStayServed() throws Exception {
    Path removed = ShuffleLayout.shuffleDir(f.appDir, 1);
    assertTrue(Files.isDirectory(removed));
    try (ShuffleServer server = f.start(ServerSettings.loopback(), ShuffleStats.none(), null);
        ShuffleClient c = f.client()) {
      ServiceAddress a = ServiceAddress.plain("127.0.0.1", server.port());
      // Served once, so the data file is kept open: removal must close it, or its blocks stay on disk.
      c.fetch(a, fetchOf(1)).get(10, TimeUnit.SECONDS).close();
      c.removeShuffle(a, 1);
      assertFalse(Files.exists(removed), "shuffle 1's dir is gone");
      assertEquals(List.of(), openFilesUnder(removed), "no descriptor keeps a deleted file's blocks");
      ExecutionException gone = assertThrows(ExecutionException.class, () -> c.fetch(a, fetchOf(1)).get(10,
          TimeUnit.SECONDS));
      assertTrue(gone.getCause() instanceof FetchException, gone.toString());
      try (FetchedBlocks still = c.fetch(a, ServiceFixture.fetch(0, 1)).get(10, TimeUnit.SECONDS)) {
        assertEquals(4, still.blocks().size(), "shuffle 0 is untouched");
      }
      c.removeShuffle(a, 1);
      c.removeShuffle(a, 77);
    }
  }

  /** What this JVM's descriptors point to under {@code dir} (the server runs in it). */
  private static List<String> openFilesUnder(Path dir) throws java.io.IOException {
    List<String> out = new java.util.ArrayList<>();
    try (java.util.stream.Stream<Path> fds = Files.list(Path.of("/proc/self/fd"))) {
      for (Path fd : fds.toList()) {
        try {
          String target = Files.readSymbolicLink(fd).toString();
          if (target.startsWith(dir.toString())) {
            out.add(target);
          }
        } catch (java.io.IOException e) {
          // Closed while listing.
        }
      }
    }
    return out;
  }

  @Test
  void anotherApplicationsSecretOrNoSignatureRemovesNothing() throws Exception {
    Path kept = ShuffleLayout.shuffleDir(f.appDir, 1);
    try (ShuffleServer server = f.start(ServerSettings.loopback(), ShuffleStats.none(), null);
        RawSocket s = new RawSocket(server.port(), 0)) {
      Map<String, String> params = new RemoveShuffleRequest(ServiceFixture.APP, 1).params(System.currentTimeMillis());
      s.send(Raw.request("POST", ShuffleProtocol.REMOVE_SHUFFLE_PATH, params, f.otherSecret, true));
      assertTrue(s.head(new ByteArrayOutputStream()).startsWith("HTTP/1.1 401"), "signed with the other application's secret");
    }
    try (ShuffleServer server = f.start(ServerSettings.loopback(), ShuffleStats.none(), null);
        RawSocket s = new RawSocket(server.port(), 0)) {
      Map<String, String> params = new RemoveShuffleRequest(ServiceFixture.APP, 1).params(System.currentTimeMillis());
      s.send(Raw.request("POST", ShuffleProtocol.REMOVE_SHUFFLE_PATH, params, null, true));
      assertTrue(s.head(new ByteArrayOutputStream()).startsWith("HTTP/1.1 401"), "unsigned");
    }
    assertTrue(Files.isDirectory(kept));
  }

  @Test
  void malformedRemovalsAreRefusedWith400Or405() throws Exception {
    try (ShuffleServer server = f.start(ServerSettings.loopback(), ShuffleStats.none(), null)) {
      for (String shuffle : List.of("-1", "01", "2147483648", "1,2", "", "x", "../0")) {
        Map<String, String> p = new LinkedHashMap<>();
        p.put(ShuffleProtocol.APP, ServiceFixture.APP);
        p.put(ShuffleProtocol.SHUFFLE, shuffle);
        p.put(ShuffleProtocol.TS, Long.toString(System.currentTimeMillis()));
        assertEquals(400, status(server, Raw.request("POST", ShuffleProtocol.REMOVE_SHUFFLE_PATH, p, f.secret, false)),
            "shuffle=" + shuffle);
      }
      Map<String, String> extra = new LinkedHashMap<>(new RemoveShuffleRequest(ServiceFixture.APP, 1)
          .params(System.currentTimeMillis()));
      extra.put(ShuffleProtocol.EXEC, "e1");
      assertEquals(400, status(server, Raw.request("POST", ShuffleProtocol.REMOVE_SHUFFLE_PATH, extra, f.secret, false)),
          "a parameter too many");
      Map<String, String> ok = new RemoveShuffleRequest(ServiceFixture.APP, 1).params(System.currentTimeMillis());
      assertEquals(405, status(server, Raw.request("GET", ShuffleProtocol.REMOVE_SHUFFLE_PATH, ok, f.secret, false)));
    }
    assertTrue(Files.isDirectory(ShuffleLayout.shuffleDir(f.appDir, 1)));
  }

  private static int status(ShuffleServer server, String raw) throws Exception {
    try (RawSocket s = new RawSocket(server.port(), 0)) {
      s.send(raw);
      String head = s.head(new ByteArrayOutputStream());
      return Integer.parseInt(head.substring(9, 12));
    }
  }

  @Test
  void aLinkPlantedInTheShuffleTreeIsRemovedNotFollowed() throws Exception {
    Path outside = Files.createDirectories(tmp.resolve("precious"));
    Files.writeString(outside.resolve("keep.txt"), "mine");
    Path shuffleDir = ShuffleLayout.shuffleDir(f.appDir, 1);
    Files.createSymbolicLink(shuffleDir.resolve("link-to-precious"), outside);
    // The shuffle root itself a link: nothing below it is the application's.
    Path root2 = Files.createDirectories(tmp.resolve("other-root"));
    Files.createDirectories(ShuffleLayout.shuffleDir(root2, 2));
    Files.writeString(ShuffleLayout.shuffleDir(root2, 2).resolve("not-yours"), "x");
    Path fakeDir = Files.createDirectories(tmp.resolve("registered"));
    Files.createSymbolicLink(fakeDir.resolve(ShuffleLayout.ROOT), root2.resolve(ShuffleLayout.ROOT));

    assertEquals(4, ShuffleRemoval.remove(List.of(f.appDir), 1), "the two maps' data and index files");
    assertFalse(Files.exists(shuffleDir));
    assertEquals("mine", Files.readString(outside.resolve("keep.txt")), "the link's target is untouched");

    assertEquals(0, ShuffleRemoval.remove(List.of(fakeDir), 2));
    assertTrue(Files.exists(ShuffleLayout.shuffleDir(root2, 2).resolve("not-yours")), "a linked root is not followed");
    assertEquals(0, ShuffleRemoval.remove(List.of(tmp.resolve("missing")), 1), "a dir already gone");
  }
}
