package org.elasticam.shuffle.service.server;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.BooleanSupplier;
import java.util.stream.IntStream;
import org.elasticam.shuffle.client.ClientSettings;
import org.elasticam.shuffle.client.FetchedBlock;
import org.elasticam.shuffle.client.FetchedBlocks;
import org.elasticam.shuffle.client.ServiceAddress;
import org.elasticam.shuffle.client.ShuffleClient;
import org.elasticam.shuffle.layout.MapOutputWriter;
import org.elasticam.shuffle.layout.ShuffleLayout;
import org.elasticam.shuffle.protocol.FetchRequest;
import org.elasticam.shuffle.protocol.MapIdSet;
import org.elasticam.shuffle.protocol.ReduceRange;
import org.elasticam.shuffle.protocol.ShuffleProtocol;
import org.elasticam.shuffle.service.metrics.ShuffleMetrics;
import org.elasticam.shuffle.service.state.StateStore;
import org.elasticam.testkit.shuffle.ShuffleFixtures;
import org.elasticam.time.Clock;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The server on a loopback port with the real fetch client or raw sockets. */
class LoopbackTest {

  @TempDir
  Path tmp;

  private ServiceFixture f;

  @BeforeEach
  void setUp() throws Exception {
    f = new ServiceFixture(tmp, StateStore.none());
  }

  private ShuffleClient client() {
    return f.client();
  }

  private static void await(BooleanSupplier condition, String what) throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
    while (!condition.getAsBoolean()) {
      if (System.nanoTime() > deadline) {
        throw new AssertionError("timed out waiting for " + what);
      }
      Thread.sleep(10);
    }
  }

  @Test
  void keepAliveReusesOneConnectionAndTheMetricsCountExactly() throws Exception {
    ShuffleMetrics metrics = new ShuffleMetrics("LoopbackTest");
    try (ShuffleServer server = f.start(ServerSettings.loopback(), metrics, null); ShuffleClient c = client()) {
      ServiceAddress a = ServiceAddress.plain("127.0.0.1", server.port());
      long expectedBytes = 0;
      for (int round = 0; round < 3; round++) {
        try (FetchedBlocks got = c.fetch(a, ServiceFixture.fetch(0, 1, 2)).get(10, TimeUnit.SECONDS)) {
          for (FetchedBlock b : got.blocks()) {
            assertArrayEquals(ServiceFixture.block(b.mapId(), b.reduceId()), b.data());
            expectedBytes += b.data().length;
          }
        }
      }
      // A response counts when its last write completes, just after the client has read it.
      await(() -> MetricValues.of(metrics).get("Responses200") == 3, "the third response to count");
      Map<String, Long> m = MetricValues.of(metrics);
      assertEquals(1, m.get("Connections"), "one kept-alive connection for three requests");
      assertEquals(3, m.get("Responses200"));
      assertEquals(18, m.get("BlocksSent"));
      assertEquals(expectedBytes, m.get("BytesSent"));
      assertEquals(3, m.get("RequestLatencyNumRequests"));
      c.close();
      await(() -> MetricValues.of(metrics).get("OpenConnections") == 0, "the connection to close");
      assertEquals(0, server.inFlightBytes());
    }
  }

  @Test
  void withALimitOfThreeTheFourthConnectionGets429AndALaterOneIsServed() throws Exception {
    ShuffleMetrics metrics = new ShuffleMetrics("LimitTest");
    try (ShuffleServer server = f.start(ServerSettings.loopback().withMaxConnections(3), metrics, null)) {
      List<RawSocket> sockets = new ArrayList<>();
      try {
        for (int i = 0; i < 4; i++) {
          sockets.add(new RawSocket(server.port(), 0));
          int open = i + 1;
          await(() -> MetricValues.of(metrics).get("Connections") == open, "connection " + open);
        }
        List<Integer> statuses = new ArrayList<>();
        for (RawSocket s : sockets) {
          s.send(Raw.fetch(ServiceFixture.fetch(0), f.secret, System.currentTimeMillis(), true));
          Raw.Response r = s.response();
          statuses.add(r.status());
          if (r.status() == 429) {
            assertTrue(Integer.parseInt(r.header("retry-after")) > 0);
            assertTrue(s.closedByPeer());
          }
        }
        assertEquals(List.of(200, 200, 200, 429), statuses);
        assertEquals(1, MetricValues.of(metrics).get("ConnectionsRejected"));
        sockets.get(0).close();
        await(() -> server.openConnections() == 2, "a slot to free up");
        try (RawSocket again = new RawSocket(server.port(), 0)) {
          again.send(Raw.fetch(ServiceFixture.fetch(0), f.secret, System.currentTimeMillis(), true));
          assertEquals(200, again.response().status());
        }
      } finally {
        for (RawSocket s : sockets) {
          s.close();
        }
      }
    }
  }

  @Test
  void aSlowReaderHoldsItsBudgetAndLaterResponsesWaitUntilItReads() throws Exception {
    int big = 8 << 20;
    MapOutputWriter.writeAll(List.of(f.appDir), 5, 0, List.of(ShuffleFixtures.blockBytes(5, 0, 0, big)));
    ServerSettings s = ServerSettings.loopback().withMaxInFlightBytes(1 << 20);
    try (ShuffleServer server = f.start(s, ShuffleStats.none(), null); ShuffleClient c = client();
        RawSocket slow = new RawSocket(0 + portOf(server), 16 * 1024)) {
      FetchRequest bigFetch = new FetchRequest(ServiceFixture.APP, "e1", 5, ReduceRange.of(0), MapIdSet.of(0));
      slow.send(Raw.fetch(bigFetch, f.secret, System.currentTimeMillis(), true));
      String head = slow.head(new ByteArrayOutputStream());
      assertTrue(head.startsWith("HTTP/1.1 200"));
      await(() -> server.inFlightBytes() > 0, "the big response to be in flight");

      CompletableFuture<FetchedBlocks> small = c.fetch(ServiceAddress.plain("127.0.0.1", server.port()),
          ServiceFixture.fetch(1));
      await(() -> server.waitingRequests() == 1, "the small fetch to wait for budget");
      assertThrows(TimeoutException.class, () -> small.get(200, TimeUnit.MILLISECONDS));
      assertTrue(server.inFlightBytes() <= big + ShuffleProtocol.MAX_BLOCKS_PER_REQUEST,
          "only the slow response holds budget: " + server.inFlightBytes());

      assertEquals(RawSocket.contentLength(head), slow.drain(RawSocket.contentLength(head)));
      try (FetchedBlocks got = small.get(10, TimeUnit.SECONDS)) {
        assertEquals(2, got.blocks().size());
      }
      await(() -> server.inFlightBytes() == 0, "the budget to be given back");
    }
  }

  private static int portOf(ShuffleServer s) {
    return s.port();
  }

  @Test
  void aDataFileTruncatedWhileBeingSentEndsTheResponseShortAndClosesTheConnection() throws Exception {
    int big = 32 << 20;
    MapOutputWriter.writeAll(List.of(f.appDir), 6, 0, List.of(ShuffleFixtures.blockBytes(6, 0, 0, big)));
    Path data = ShuffleLayout.dataFile(List.of(f.appDir), 6, 0);
    try (ShuffleServer server = f.start(ServerSettings.loopback(), ShuffleStats.none(), null);
        RawSocket s = new RawSocket(server.port(), 16 * 1024)) {
      FetchRequest r = new FetchRequest(ServiceFixture.APP, "e1", 6, ReduceRange.of(0), MapIdSet.of(0));
      s.send(Raw.fetch(r, f.secret, System.currentTimeMillis(), true));
      String head = s.head(new ByteArrayOutputStream());
      assertTrue(head.startsWith("HTTP/1.1 200"), head);
      try (FileChannel ch = FileChannel.open(data, StandardOpenOption.WRITE)) {
        ch.truncate(1 << 20);
      }
      long got = s.drain(RawSocket.contentLength(head));
      assertTrue(got < RawSocket.contentLength(head), "short: " + got);
      await(() -> server.inFlightBytes() == 0, "the budget to be given back");
    }
  }

  @Test
  void mapIdsAtTheCapAreServedAndOverItGet414() throws Exception {
    String atCap = mapsOfExactlyTheCap();
    assertEquals(ShuffleProtocol.MAX_MAPS_CHARS, atCap.length());
    MapIdSet set = MapIdSet.decode(atCap, ShuffleProtocol.MAX_MAPS_PER_REQUEST);
    for (int id : set.toArray()) {
      MapOutputWriter.writeAll(List.of(f.appDir), 7, id, List.of(new byte[] {(byte) id}));
    }
    try (ShuffleServer server = f.start(ServerSettings.loopback(), ShuffleStats.none(), null)) {
      Map<String, String> p = new FetchRequest(ServiceFixture.APP, "e1", 7, ReduceRange.of(0), set)
          .params(System.currentTimeMillis());
      p.put(ShuffleProtocol.MAPS, atCap);
      try (RawSocket s = new RawSocket(server.port(), 0)) {
        String req = Raw.request("GET", ShuffleProtocol.FETCH_PATH, p, f.secret, true);
        assertTrue(req.indexOf("\r\n") < ShuffleProtocol.MAX_REQUEST_LINE, "the request line fits");
        s.send(req);
        Raw.Response r = s.response();
        assertEquals(200, r.status(), r.text());
        assertEquals(set.size(), r.blocks().size());
      }
      p.put(ShuffleProtocol.MAPS, atCap + "0");
      try (RawSocket s = new RawSocket(server.port(), 0)) {
        s.send(Raw.request("GET", ShuffleProtocol.FETCH_PATH, p, f.secret, true));
        Raw.Response r = s.response();
        assertEquals(414, r.status());
        assertTrue(s.closedByPeer());
      }
    }
  }

  /**
   * A ranges text of exactly the cap: even ids from 0 while there is room, then ids chosen by
   * their number of digits to fill the last few characters.
   */
  private static String mapsOfExactlyTheCap() {
    StringBuilder s = new StringBuilder("r0");
    for (int id = 2; ShuffleProtocol.MAX_MAPS_CHARS - s.length() >= 15; id += 2) {
      s.append('.').append(id);
    }
    s.append(".9000");
    int room = ShuffleProtocol.MAX_MAPS_CHARS - s.length();
    s.append('.').append("9".repeat(room - 2)).append('8');
    return s.toString();
  }

  @Test
  void theClientSplitsRequestsOverTheCapsAndGetsEveryBlock() throws Exception {
    int[] ids = IntStream.range(0, 700).map(i -> i * 100).toArray();
    for (int id : ids) {
      MapOutputWriter.writeAll(List.of(f.appDir), 8, id, List.of(new byte[] {1}, ShuffleFixtures.blockBytes(8, id, 1, 3)));
    }
    FetchRequest all = new FetchRequest(ServiceFixture.APP, "e1", 8, ReduceRange.of(1), MapIdSet.of(ids));
    assertTrue(all.split().size() > 1, "over the caps");
    try (ShuffleServer server = f.start(ServerSettings.loopback(), ShuffleStats.none(), null); ShuffleClient c = client()) {
      int blocks = 0;
      for (CompletableFuture<FetchedBlocks> part : c.fetchAll(ServiceAddress.plain("127.0.0.1", server.port()), all)) {
        try (FetchedBlocks got = part.get(20, TimeUnit.SECONDS)) {
          for (FetchedBlock b : got.blocks()) {
            assertArrayEquals(ShuffleFixtures.blockBytes(8, b.mapId(), 1, 3), b.data());
            blocks++;
          }
        }
      }
      assertEquals(700, blocks);
    }
  }

  @Test
  void registrationThroughTheClientThenFetch() throws Exception {
    Path dir2 = java.nio.file.Files.createDirectories(f.appDir.resolve("e2-dir"));
    ShuffleFixtures.writeMaps(List.of(dir2), 3, 2, 2, (m, r) -> 10);
    try (ShuffleServer server = f.start(ServerSettings.loopback(), ShuffleStats.none(), null); ShuffleClient c = client()) {
      ServiceAddress a = ServiceAddress.plain("127.0.0.1", server.port());
      c.register(a, "e2", List.of(dir2));
      try (FetchedBlocks got = c.fetch(a, new FetchRequest(ServiceFixture.APP, "e2", 3, new ReduceRange(0, 1),
          MapIdSet.of(0, 1))).get(10, TimeUnit.SECONDS)) {
        assertEquals(4, got.blocks().size());
        assertArrayEquals(ShuffleFixtures.blockBytes(3, 1, 1, 10), got.blocks().get(3).data());
      }
      org.elasticam.shuffle.client.FetchException e = assertThrows(org.elasticam.shuffle.client.FetchException.class,
          () -> c.register(a, "e3", List.of(Path.of("/tmp"))));
      assertEquals(403, e.status());
      assertFalse(e.retryable());
    }
  }
}
