package org.elasticam.shuffle.client;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.net.ServerSocket;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.zip.CRC32C;
import org.elasticam.shuffle.protocol.BlockHeader;
import org.elasticam.shuffle.protocol.FetchRequest;
import org.elasticam.shuffle.protocol.MapIdSet;
import org.elasticam.shuffle.protocol.ReduceRange;
import org.elasticam.time.Clock;
import org.junit.jupiter.api.Test;

/** The client's own behaviour against a scripted server; against the real service: the service's tests. */
class ShuffleClientTest {

  private static final String APP = "application_1_1";
  private static final byte[] SECRET = new byte[32];
  private static final FetchRequest TWO_BLOCKS = new FetchRequest(APP, "e1", 0, ReduceRange.of(4), MapIdSet.of(1, 2));

  private static ClientSettings fast() {
    return ClientSettings.defaults().withRetries(2, Duration.ofMillis(20))
        .withTimeouts(Duration.ofSeconds(2), Duration.ofSeconds(2));
  }

  /** A 200 with blocks (1,4) = "a" and (2,4) = "bc"; {@code corrupt} spoils the second's checksum. */
  private static byte[] twoBlocks(boolean corrupt, int cutBytes) {
    ByteArrayOutputStream body = new ByteArrayOutputStream();
    block(body, 1, "a", false);
    block(body, 2, "bc", corrupt);
    byte[] b = body.toByteArray();
    byte[] head = ("HTTP/1.1 200 OK\r\nContent-Length: " + b.length + "\r\n\r\n").getBytes();
    ByteArrayOutputStream all = new ByteArrayOutputStream();
    all.writeBytes(head);
    all.write(b, 0, b.length - cutBytes);
    return all.toByteArray();
  }

  private static void block(ByteArrayOutputStream out, int map, String data, boolean corrupt) {
    CRC32C c = new CRC32C();
    c.update(data.getBytes());
    out.writeBytes(new BlockHeader(map, 4, data.length(), (int) c.getValue() ^ (corrupt ? 1 : 0)).toBytes());
    out.writeBytes(data.getBytes());
  }

  private static Throwable failure(CompletableFuture<?> f) {
    ExecutionException e = assertThrows(ExecutionException.class, () -> f.get(10, TimeUnit.SECONDS));
    return e.getCause();
  }

  @Test
  void blocksArriveVerifiedInOrderAndTheConnectionIsKeptAlive() throws Exception {
    try (ScriptedServer s = new ScriptedServer((n, line) -> twoBlocks(false, 0));
        ShuffleClient c = new ShuffleClient(APP, SECRET, fast(), Clock.system())) {
      ServiceAddress a = ServiceAddress.plain("127.0.0.1", s.port());
      for (int i = 0; i < 3; i++) {
        try (FetchedBlocks got = c.fetch(a, TWO_BLOCKS).get(10, TimeUnit.SECONDS)) {
          assertEquals(List.of(1, 2), got.blocks().stream().map(FetchedBlock::mapId).toList());
          assertArrayEquals("bc".getBytes(), got.blocks().get(1).data());
          assertTrue(c.bytesInFlight() > 0);
        }
        assertEquals(0, c.bytesInFlight());
      }
      assertEquals(1, s.connections.get(), "one kept-alive connection for three requests");
      assertTrue(s.lines.get(0).startsWith("GET /v1/fetch?app=application_1_1&exec=e1&shuffle=0&reduce=4&maps=r1-2&ts="));
    }
  }

  @Test
  void aBadChecksumFailsTheFetchWithoutRetrying() throws Exception {
    try (ScriptedServer s = new ScriptedServer((n, line) -> twoBlocks(true, 0));
        ShuffleClient c = new ShuffleClient(APP, SECRET, fast(), Clock.system())) {
      Throwable t = failure(c.fetch(ServiceAddress.plain("127.0.0.1", s.port()), TWO_BLOCKS));
      BlockCorruptedException e = assertInstanceOf(BlockCorruptedException.class, t);
      assertEquals(2, e.mapId());
      assertEquals(1, s.lines.size());
      assertEquals(0, c.bytesInFlight(), "a failed fetch gives its bytes back");
    }
  }

  @Test
  void aTruncatedResponseIsRetriedAsAConnectionFailureThenReported() throws Exception {
    try (ScriptedServer s = new ScriptedServer((n, line) -> n < 2 ? cutAndClose() : twoBlocks(false, 0));
        ShuffleClient c = new ShuffleClient(APP, SECRET, fast(), Clock.system())) {
      try (FetchedBlocks got = c.fetch(ServiceAddress.plain("127.0.0.1", s.port()), TWO_BLOCKS).get(10, TimeUnit.SECONDS)) {
        assertEquals(2, got.blocks().size());
      }
      assertEquals(3, s.lines.size(), "two truncated answers, retried twice");
    }
    try (ScriptedServer s = new ScriptedServer((n, line) -> cutAndClose());
        ShuffleClient c = new ShuffleClient(APP, SECRET, fast(), Clock.system())) {
      FetchException e = assertInstanceOf(FetchException.class,
          failure(c.fetch(ServiceAddress.plain("127.0.0.1", s.port()), TWO_BLOCKS)));
      assertEquals(0, e.status());
      assertTrue(e.retryable());
      assertEquals(3, s.lines.size(), "1 + maxRetries attempts");
    }
  }

  private static byte[] cutAndClose() {
    byte[] full = twoBlocks(false, 0);
    return ScriptedServer.thenClose(java.util.Arrays.copyOf(full, full.length - 1));
  }

  @Test
  void retryAfterIsHonouredAndErrorsCarryTheirStatusAndText() throws Exception {
    try (ScriptedServer s = new ScriptedServer((n, line) -> n == 0
        ? ScriptedServer.text(429, "Retry-After: 0\r\nConnection: close\r\n", "too many connections") : twoBlocks(false, 0));
        ShuffleClient c = new ShuffleClient(APP, SECRET, fast(), Clock.system())) {
      c.fetch(ServiceAddress.plain("127.0.0.1", s.port()), TWO_BLOCKS).get(10, TimeUnit.SECONDS).close();
      assertEquals(2, s.lines.size());
    }
    try (ScriptedServer s = new ScriptedServer((n, line) -> ScriptedServer.text(404, "", "no output for map 1"));
        ShuffleClient c = new ShuffleClient(APP, SECRET, fast(), Clock.system())) {
      FetchException e = assertInstanceOf(FetchException.class,
          failure(c.fetch(ServiceAddress.plain("127.0.0.1", s.port()), TWO_BLOCKS)));
      assertEquals(404, e.status());
      assertFalse(e.retryable());
      assertTrue(e.getMessage().contains("no output for map 1"));
      assertEquals(1, s.lines.size(), "4xx is not retried");
    }
  }

  @Test
  void aConnectionRefusedIsRetriedThenReported() throws Exception {
    int port;
    try (ServerSocket probe = new ServerSocket(0)) {
      port = probe.getLocalPort();
    }
    try (ShuffleClient c = new ShuffleClient(APP, SECRET, fast(), Clock.system())) {
      FetchException e = assertInstanceOf(FetchException.class,
          failure(c.fetch(ServiceAddress.plain("127.0.0.1", port), TWO_BLOCKS)));
      assertTrue(e.retryable());
      assertTrue(e.getMessage().contains("cannot connect"), e.getMessage());
    }
  }

  @Test
  void aKeptAliveConnectionTheServerClosedIsReplacedForFree() throws Exception {
    // The first connection answers once, then closes when asked again: the reused connection
    // fails before any byte, and the client opens a new one without spending a retry.
    try (ScriptedServer s = new ScriptedServer((n, line) -> n == 1 ? null : twoBlocks(false, 0));
        ShuffleClient c = new ShuffleClient(APP, SECRET, fast().withRetries(0, Duration.ZERO), Clock.system())) {
      ServiceAddress a = ServiceAddress.plain("127.0.0.1", s.port());
      c.fetch(a, TWO_BLOCKS).get(10, TimeUnit.SECONDS).close();
      c.fetch(a, TWO_BLOCKS).get(10, TimeUnit.SECONDS).close();
      assertEquals(2, s.connections.get());
    }
  }

  @Test
  void fetchedBytesAreBoundedUntilTheCallerClosesThem() throws Exception {
    byte[] answer = twoBlocks(false, 0);
    long responseBytes = 2L * BlockHeader.SIZE + 3;
    ClientSettings tight = fast().withInFlight(responseBytes, 4);
    try (ScriptedServer s = new ScriptedServer((n, line) -> answer);
        ShuffleClient c = new ShuffleClient(APP, SECRET, tight, Clock.system())) {
      ServiceAddress a = ServiceAddress.plain("127.0.0.1", s.port());
      FetchedBlocks first = c.fetch(a, TWO_BLOCKS).get(10, TimeUnit.SECONDS);
      CompletableFuture<FetchedBlocks> second = c.fetch(a, TWO_BLOCKS);
      assertThrows(java.util.concurrent.TimeoutException.class, () -> second.get(300, TimeUnit.MILLISECONDS));
      first.close();
      second.get(10, TimeUnit.SECONDS).close();
      assertEquals(0, c.bytesInFlight());
    }
  }
}
