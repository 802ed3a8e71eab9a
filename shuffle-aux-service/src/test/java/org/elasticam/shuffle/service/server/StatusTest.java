package org.elasticam.shuffle.service.server;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.AbstractExecutorService;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import org.elasticam.shuffle.layout.IndexFile;
import org.elasticam.shuffle.layout.ShuffleLayout;
import org.elasticam.shuffle.protocol.FetchRequest;
import org.elasticam.shuffle.protocol.MapIdSet;
import org.elasticam.shuffle.protocol.ReduceRange;
import org.elasticam.shuffle.protocol.RegisterRequest;
import org.elasticam.shuffle.protocol.ShuffleProtocol;
import org.elasticam.shuffle.service.state.StateStore;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Every status the service answers, through the real pipeline on an EmbeddedChannel. */
class StatusTest {

  @TempDir
  Path tmp;

  private ServiceFixture f;
  private long now;

  @BeforeEach
  void setUp() throws Exception {
    f = new ServiceFixture(tmp, StateStore.none());
    now = System.currentTimeMillis();
  }

  private Pipe pipe() {
    return new Pipe(f.context(ServerSettings.loopback(), ServiceFixture.direct(), false));
  }

  private Raw.Response one(String raw) {
    try (Pipe p = pipe()) {
      List<Raw.Response> r = p.send(raw);
      assertEquals(1, r.size(), "one response to " + raw);
      return r.get(0);
    }
  }

  private String signed(FetchRequest r) {
    return Raw.fetch(r, f.secret, now, true);
  }

  @Test
  void okServesEveryBlockInOrderAndKeepsTheConnection() {
    try (Pipe p = pipe()) {
      List<Raw.Response> r = p.send(signed(ServiceFixture.fetch(2, 0)));
      assertEquals(200, r.get(0).status());
      assertEquals("4", r.get(0).header(ShuffleProtocol.BLOCKS_HEADER));
      List<byte[]> blocks = r.get(0).blocks();
      assertArrayEquals(ServiceFixture.block(0, 1), blocks.get(0));
      assertArrayEquals(ServiceFixture.block(0, 2), blocks.get(1));
      assertArrayEquals(ServiceFixture.block(2, 1), blocks.get(2));
      assertArrayEquals(ServiceFixture.block(2, 2), blocks.get(3));
      r = p.send(signed(ServiceFixture.fetch(1)));
      assertEquals(2, r.size(), "keep-alive: a second request on the same connection");
      assertEquals(200, r.get(1).status());
      assertTrue(p.open());
      p.send(Raw.fetch(ServiceFixture.fetch(1), f.secret, now, false));
      assertFalse(p.open(), "Connection: close is honoured");
    }
  }

  @Test
  void pipelinedRequestsAreAnsweredOneAfterAnotherInOrder() {
    try (Pipe p = pipe()) {
      List<Raw.Response> r = p.send(signed(ServiceFixture.fetch(0)) + signed(ServiceFixture.fetch(9))
          + signed(ServiceFixture.fetch(1)));
      assertEquals(List.of(200, 404, 200), r.stream().map(Raw.Response::status).toList());
    }
  }

  @Test
  void malformedRequestsGet400() {
    Map<String, String> p = ServiceFixture.fetch(0).params(now);
    for (String[] change : new String[][] {{"reduce", "x"}, {"maps", "r5-1"}, {"shuffle", "-1"}, {"ts", "soon"},
        {"exec", "../e1"}, {"app", "app_1"}, {"extra", "1"}}) {
      Map<String, String> bad = new LinkedHashMap<>(p);
      bad.put(change[0], change[1]);
      Raw.Response r = one(Raw.request("GET", ShuffleProtocol.FETCH_PATH, bad, f.secret, true));
      assertEquals(400, r.status(), String.join("=", change) + ": " + r.text());
    }
    assertEquals(400, one("GET /v1/fetch?app=a&app=b HTTP/1.1\r\n\r\n").status());
    assertEquals(400, one("GET /v1/fetch?a=%zz HTTP/1.1\r\n\r\n").status());
    assertEquals(400, one("NOT HTTP AT ALL\r\n\r\n").status());
    Raw.Response body = one("GET /v1/fetch?x=1 HTTP/1.1\r\nContent-Length: 3\r\n\r\nabc");
    assertEquals(400, body.status());
    assertEquals("close", body.header("connection"));
  }

  @Test
  void authenticationFailuresGet401() {
    FetchRequest r = ServiceFixture.fetch(0);
    assertEquals("unknown application", one(Raw.fetch(new FetchRequest("application_9_9", "e1", 0, ReduceRange.of(0),
        MapIdSet.of(0)), f.secret, now, true)).text());
    assertTrue(one(Raw.fetch(r, null, now, true)).text().startsWith("missing"));
    byte[] wrong = f.secret.clone();
    wrong[5] ^= 1;
    assertEquals("bad signature", one(Raw.fetch(r, wrong, now, true)).text());
    assertTrue(one(Raw.fetch(r, f.secret, now - 6 * 60_000, true)).text().startsWith("stale timestamp"));
    assertTrue(one(Raw.fetch(r, f.secret, now + 6 * 60_000, true)).text().startsWith("stale timestamp"));
    // Signed by the other application with its own secret, asking for this application's blocks.
    FetchRequest asOther = new FetchRequest(ServiceFixture.OTHER, "e1", 0, ReduceRange.of(0), MapIdSet.of(0));
    String otherSig = Raw.fetch(asOther, f.otherSecret, now, true);
    String forged = otherSig.replace(ServiceFixture.OTHER, ServiceFixture.APP);
    Raw.Response res = one(forged);
    assertEquals(401, res.status());
    assertEquals("bad signature", res.text());
    assertEquals(404, one(otherSig).status(), "the other app's own request is authentic: its e1 is unknown");
  }

  @Test
  void pathsOutsideTheRegisteredDirsGet403() throws Exception {
    // A symlink planted where map 1's data should be, pointing at another application's file.
    Path secretFile = Files.writeString(f.otherAppDir.resolve("private"), "not yours");
    Path data = ShuffleLayout.dataFile(List.of(f.appDir), 0, 1);
    Files.delete(data);
    Files.createSymbolicLink(data, secretFile);
    Raw.Response r = one(signed(ServiceFixture.fetch(1)));
    assertEquals(403, r.status());
    assertFalse(r.text().contains("not yours"));

    // A dir on the way to map 2's files swapped for a link to a copy in another application's dir.
    Path mapDir = ShuffleLayout.dataFile(List.of(f.appDir), 0, 2).getParent();
    Path elsewhere = Files.createDirectories(f.otherAppDir.resolve("copy"));
    try (var files = Files.list(mapDir)) {
      for (Path file : files.toList()) {
        Files.copy(file, elsewhere.resolve(file.getFileName()));
      }
    }
    Path moved = Files.move(mapDir, mapDir.resolveSibling("moved"));
    Files.createSymbolicLink(mapDir, elsewhere);
    Raw.Response viaLinkedDir = one(signed(ServiceFixture.fetch(2)));
    assertEquals(403, viaLinkedDir.status(), viaLinkedDir.text());
    Files.delete(mapDir);
    Files.move(moved, mapDir);

    for (String dir : List.of("/etc", f.otherAppDir.toString(), f.appDir + "/../" + ServiceFixture.OTHER,
        f.nmLocal.toString(), symlinkOut().toString())) {
      RegisterRequest reg = new RegisterRequest(ServiceFixture.APP, "e2", List.of(dir));
      assertEquals(403, one(Raw.register(reg, f.secret, now)).status(), dir);
    }
    assertTrue(f.registry.app(ServiceFixture.APP).get().executorDirs("e2").isEmpty(), "nothing registered");
    assertEquals(400, one(Raw.request("POST", ShuffleProtocol.REGISTER_PATH, Map.of("app", ServiceFixture.APP,
        "exec", "e2", "dirs", "relative/dir", "ts", Long.toString(now)), f.secret, true)).status());
    Files.createDirectories(f.appDir.resolve("sub"));
    RegisterRequest inside = new RegisterRequest(ServiceFixture.APP, "e2", List.of(f.appDir + "/sub/../sub"));
    assertEquals(200, one(Raw.register(inside, f.secret, now)).status());
  }

  private Path symlinkOut() throws Exception {
    Path link = f.appDir.resolve("escape");
    if (!Files.exists(link)) {
      Files.createSymbolicLink(link, tmp);
    }
    return link;
  }

  @Test
  void missingThingsGet404() throws Exception {
    assertEquals(404, one("GET /v2/fetch HTTP/1.1\r\n\r\n").status());
    assertTrue(one(signed(ServiceFixture.fetch(0, 7))).text().contains("no output for map 7"));
    assertTrue(one(signed(new FetchRequest(ServiceFixture.APP, "e9", 0, ReduceRange.of(0), MapIdSet.of(0)))).text()
        .contains("not registered"));
    assertTrue(one(signed(new FetchRequest(ServiceFixture.APP, "e1", 0, new ReduceRange(3, 4), MapIdSet.of(0))))
        .text().contains("past the partitions"));
    Files.delete(ShuffleLayout.dataFile(List.of(f.appDir), 0, 2));
    assertEquals(404, one(signed(ServiceFixture.fetch(2))).status(), "index without data");
  }

  @Test
  void wrongMethodsGet405() {
    Raw.Response r = one(Raw.request("POST", ShuffleProtocol.FETCH_PATH, ServiceFixture.fetch(0).params(now),
        f.secret, true));
    assertEquals(405, r.status());
    assertNotNull(r.header("allow"));
    assertEquals(405, one(Raw.request("GET", ShuffleProtocol.REGISTER_PATH, Map.of(), f.secret, true)).status());
    assertEquals(405, one("DELETE /v1/fetch HTTP/1.1\r\n\r\n").status());
  }

  @Test
  void overLongRequestsGet414AndHugeHeaders431() {
    Raw.Response line = one("GET /v1/fetch?" + "a".repeat(ShuffleProtocol.MAX_REQUEST_LINE) + " HTTP/1.1\r\n\r\n");
    assertEquals(414, line.status());
    assertEquals("close", line.header("connection"));
    Raw.Response headers = one("GET /v1/fetch HTTP/1.1\r\nX-Pad: " + "b".repeat(ShuffleProtocol.MAX_HEADER_BYTES)
        + "\r\n\r\n");
    assertEquals(431, headers.status());
  }

  @Test
  void brokenFilesGet500BeforeAnyData() throws Exception {
    Path data = ShuffleLayout.dataFile(List.of(f.appDir), 0, 1);
    Files.write(data, java.util.Arrays.copyOf(Files.readAllBytes(data), 50));
    Raw.Response past = one(signed(ServiceFixture.fetch(0, 1)));
    assertEquals(500, past.status());
    assertTrue(past.text().contains("points past its data file"), past.text());

    Path index = ShuffleLayout.indexFile(List.of(f.appDir), 0, 2);
    byte[] b = Files.readAllBytes(index);
    b[IndexFile.HEADER_SIZE + IndexFile.ENTRY_SIZE + 1] ^= 0x40;
    Files.write(index, b);
    Raw.Response corrupt = one(signed(ServiceFixture.fetch(2)));
    assertEquals(500, corrupt.status());
    assertTrue(corrupt.text().contains("corrupt"));
  }

  @Test
  void aFullDiskQueueGets503WithRetryAfter() {
    ExecutorService full = new AbstractExecutorService() {
      @Override
      public void execute(Runnable command) {
        throw new RejectedExecutionException("full");
      }

      @Override
      public void shutdown() {}

      @Override
      public List<Runnable> shutdownNow() {
        return List.of();
      }

      @Override
      public boolean isShutdown() {
        return false;
      }

      @Override
      public boolean isTerminated() {
        return false;
      }

      @Override
      public boolean awaitTermination(long t, TimeUnit u) {
        return true;
      }
    };
    try (Pipe p = new Pipe(f.context(ServerSettings.loopback(), full, false))) {
      Raw.Response r = p.send(signed(ServiceFixture.fetch(0))).get(0);
      assertEquals(503, r.status());
      assertEquals("1", r.header("retry-after"));
    }
  }

  @Test
  void overTheConnectionLimitGets429WithRetryAfterAndIsClosed() {
    ServerContext sc = f.context(ServerSettings.loopback(), ServiceFixture.direct(), false);
    try (Pipe p = new Pipe(sc, 0 + 1)) {
      assertEquals(200, p.send(signed(ServiceFixture.fetch(0))).get(0).status());
    }
    ConnectionGate shared = new ConnectionGate(1, java.time.Duration.ofSeconds(2), ShuffleStats.none());
    io.netty.channel.embedded.EmbeddedChannel first = new io.netty.channel.embedded.EmbeddedChannel();
    io.netty.channel.embedded.EmbeddedChannel second = new io.netty.channel.embedded.EmbeddedChannel();
    try {
      ShuffleChannelInitializer.configure(first.pipeline(), sc, shared, null);
      first.pipeline().fireChannelActive();
      ShuffleChannelInitializer.configure(second.pipeline(), sc, shared, null);
      second.pipeline().fireChannelActive();
      second.writeInbound(io.netty.buffer.Unpooled.copiedBuffer(signed(ServiceFixture.fetch(0)),
          java.nio.charset.StandardCharsets.ISO_8859_1));
      second.runPendingTasks();
      io.netty.buffer.ByteBuf out = second.readOutbound();
      String text = out.toString(java.nio.charset.StandardCharsets.ISO_8859_1);
      out.release();
      assertTrue(text.startsWith("HTTP/1.1 429"), text);
      assertTrue(text.contains("retry-after: 2"), text);
      assertFalse(second.isOpen());
    } finally {
      first.finishAndReleaseAll();
      second.finishAndReleaseAll();
    }
  }
}
