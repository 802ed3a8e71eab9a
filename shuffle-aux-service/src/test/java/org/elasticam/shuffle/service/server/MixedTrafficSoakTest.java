package org.elasticam.shuffle.service.server;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.elasticam.shuffle.client.ClientSettings;
import org.elasticam.shuffle.client.FetchedBlock;
import org.elasticam.shuffle.client.FetchedBlocks;
import org.elasticam.shuffle.client.ServiceAddress;
import org.elasticam.shuffle.client.ShuffleClient;
import org.elasticam.shuffle.protocol.FetchRequest;
import org.elasticam.shuffle.protocol.MapIdSet;
import org.elasticam.shuffle.protocol.ReduceRange;
import org.elasticam.shuffle.protocol.ShuffleProtocol;
import org.elasticam.shuffle.service.metrics.ShuffleMetrics;
import org.elasticam.shuffle.service.state.StateStore;
import org.elasticam.testkit.shuffle.ShuffleFixtures;
import org.elasticam.time.Clock;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * One server, real fetch clients and strangers on the same port at the same time: garbage bytes,
 * unsigned and forged requests, oversized heads, a body that never comes, connections that dribble
 * a byte at a time or say nothing, paths out of the app's dirs. Every real fetch must get every
 * byte right, every stranger an error status or a close, and at the end no connection may be left
 * open and no buffer leaked (the leak check runs after each test). {@code
 * -Delasticam.shuffle.soak.seconds=N} runs it longer.
 */
class MixedTrafficSoakTest {

  private static final long SECONDS = Long.getLong("elasticam.shuffle.soak.seconds", 6);
  private static final int SHUFFLE = 1;
  private static final int MAPS = 24;
  private static final int REDUCES = 8;
  private static final Set<Integer> ERRORS = Set.of(400, 401, 403, 404, 405, 413, 414, 429, 431);
  private static final Pattern STATUS = Pattern.compile("HTTP/1\\.1 (\\d{3}) ");

  @TempDir
  Path tmp;

  private static int size(int map, int reduce) {
    return 3_000 + 131 * map + 17 * reduce;
  }

  @Test
  void realFetchesGetEveryByteRightWhileStrangersHammerTheSamePort() throws Exception {
    ServiceFixture f = new ServiceFixture(tmp, StateStore.none());
    f.writeShuffle(SHUFFLE, MAPS, REDUCES, MixedTrafficSoakTest::size);
    ShuffleMetrics metrics = new ShuffleMetrics("MixedTrafficSoak");
    Map<String, AtomicLong> strangers = new ConcurrentHashMap<>();
    AtomicLong blocks = new AtomicLong();
    AtomicReference<Throwable> wrong = new AtomicReference<>();
    ExecutorService pool = Executors.newFixedThreadPool(9);
    try (ShuffleServer server = f.start(ServerSettings.loopback().withIdleTimeout(Duration.ofSeconds(2)), metrics,
        null)) {
      long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(SECONDS);
      List<Future<?>> work = new ArrayList<>();
      for (int c = 0; c < 3; c++) {
        int seed = c;
        work.add(pool.submit(() -> realFetches(f, server.port(), end, seed, blocks, wrong)));
      }
      for (int h = 0; h < 6; h++) {
        int seed = 100 + h;
        work.add(pool.submit(() -> strangers(f, server.port(), end, seed, strangers, wrong)));
      }
      for (Future<?> w : work) {
        w.get(SECONDS + 60, TimeUnit.SECONDS);
      }
      assertNull(wrong.get(), () -> "wrong: " + wrong.get());
      assertTrue(blocks.get() >= MAPS * 3, "real fetches went on: " + blocks.get() + " blocks");
      assertTrue(strangers.values().stream().mapToLong(AtomicLong::get).sum() >= 30, "strangers came: " + strangers);
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
      while (server.openConnections() > 0 && System.nanoTime() < deadline) {
        Thread.sleep(20);
      }
      assertEquals(0, server.openConnections(), "every connection closed");
      System.out.printf("mixed traffic for %d s: %d blocks fetched and checked; strangers %s%n", SECONDS,
          blocks.get(), strangers);
    } finally {
      pool.shutdownNow();
    }
  }

  /** Fetches random reduce partitions of every map and checks each block against what was written. */
  private static void realFetches(ServiceFixture f, int port, long end, int seed, AtomicLong blocks,
      AtomicReference<Throwable> wrong) {
    SplittableRandom r = new SplittableRandom(seed);
    ClientSettings settings = ClientSettings.defaults().withRetries(3, Duration.ofMillis(100))
        .withTimeouts(Duration.ofSeconds(5), Duration.ofSeconds(20));
    try (ShuffleClient c = new ShuffleClient(ServiceFixture.APP, f.secret, settings, Clock.system())) {
      ServiceAddress at = ServiceAddress.plain("127.0.0.1", port);
      int[] all = java.util.stream.IntStream.range(0, MAPS).toArray();
      while (System.nanoTime() < end && wrong.get() == null) {
        int reduce = r.nextInt(REDUCES);
        FetchRequest req = new FetchRequest(ServiceFixture.APP, "e1", SHUFFLE, ReduceRange.of(reduce), MapIdSet.of(all));
        try (FetchedBlocks got = c.fetch(at, req).get(30, TimeUnit.SECONDS)) {
          assertEquals(MAPS, got.blocks().size());
          for (FetchedBlock b : got.blocks()) {
            assertEquals(reduce, b.reduceId());
            assertArrayEquals(ShuffleFixtures.blockBytes(SHUFFLE, b.mapId(), reduce, size(b.mapId(), reduce)), b.data(),
                "map " + b.mapId() + " reduce " + reduce);
            blocks.incrementAndGet();
          }
        }
      }
    } catch (Throwable t) {
      wrong.compareAndSet(null, t);
    }
  }

  private static void strangers(ServiceFixture f, int port, long end, int seed, Map<String, AtomicLong> count,
      AtomicReference<Throwable> wrong) {
    SplittableRandom r = new SplittableRandom(seed);
    byte[] forged = ShuffleFixtures.newSecret();
    while (System.nanoTime() < end && wrong.get() == null) {
      long ts = System.currentTimeMillis();
      FetchRequest own = new FetchRequest(ServiceFixture.APP, "e1", SHUFFLE, ReduceRange.of(0), MapIdSet.of(0, 1));
      String kind;
      try {
        switch (r.nextInt(9)) {
          case 0 -> {
            kind = "garbage";
            byte[] junk = new byte[1 + r.nextInt(4096)];
            r.nextBytes(junk);
            expectErrorOrClose(port, junk, 0);
          }
          case 1 -> {
            kind = "forged signature";
            expectErrorOrClose(port, Raw.fetch(own, forged, ts, false), 0);
          }
          case 2 -> {
            kind = "another app's request with this app's key";
            FetchRequest other = new FetchRequest(ServiceFixture.OTHER, "e1", SHUFFLE, ReduceRange.of(0), MapIdSet.of(0));
            expectErrorOrClose(port, Raw.fetch(other, f.secret, ts, false), 0);
          }
          case 3 -> {
            kind = "oversized head";
            expectErrorOrClose(port, "GET /shuffle?" + "x".repeat(64 << 10) + " HTTP/1.1\r\nHost: x\r\n\r\n", 0);
          }
          case 4 -> {
            kind = "a body that never comes";
            expectErrorOrClose(port, "POST " + ShuffleProtocol.REGISTER_PATH
                + " HTTP/1.1\r\nHost: x\r\nContent-Length: 1000000\r\n\r\n{", 0);
          }
          case 5 -> {
            kind = "a byte at a time";
            expectErrorOrClose(port, "GET /shuffle?app=" + ServiceFixture.APP + "&exec=e1&shuffle=1 HTTP/1.1\r\n", 40);
          }
          case 6 -> {
            kind = "silent connection";
            try (Socket s = new Socket()) {
              s.connect(new InetSocketAddress("127.0.0.1", port), 5000);
              Thread.sleep(200 + r.nextInt(300));
            }
          }
          case 7 -> {
            kind = "stale signature";
            expectErrorOrClose(port, Raw.fetch(own, f.secret, ts - Duration.ofHours(1).toMillis(), false), 0);
          }
          default -> {
            kind = "maps out of range";
            String raw = Raw.request("GET", ShuffleProtocol.FETCH_PATH, Map.of(ShuffleProtocol.APP, ServiceFixture.APP,
                ShuffleProtocol.EXEC, "e1", ShuffleProtocol.SHUFFLE, "1", ShuffleProtocol.REDUCE, "0",
                ShuffleProtocol.MAPS, "r0.999999999", ShuffleProtocol.TS, Long.toString(ts)), f.secret, false);
            expectErrorOrClose(port, raw, 0);
          }
        }
        count.computeIfAbsent(kind, k -> new AtomicLong()).incrementAndGet();
      } catch (Throwable t) {
        wrong.compareAndSet(null, t);
      }
    }
  }

  private static void expectErrorOrClose(int port, String text, long pauseBetweenBytesMs) throws Exception {
    expectErrorOrClose(port, text.getBytes(StandardCharsets.ISO_8859_1), pauseBetweenBytesMs);
  }

  /** Sends the bytes (one at a time with a pause, if asked), then reads: only error statuses, then a close. */
  private static void expectErrorOrClose(int port, byte[] bytes, long pauseBetweenBytesMs) throws Exception {
    try (Socket s = new Socket()) {
      s.connect(new InetSocketAddress("127.0.0.1", port), 5000);
      s.setSoTimeout(10_000);
      OutputStream out = s.getOutputStream();
      try {
        if (pauseBetweenBytesMs > 0) {
          for (byte b : bytes) {
            out.write(b);
            out.flush();
            Thread.sleep(pauseBetweenBytesMs);
          }
        } else {
          out.write(bytes);
          out.flush();
        }
        s.shutdownOutput();
      } catch (IOException e) {
        return; // the server closed first: an answer
      }
      byte[] answer;
      try (InputStream in = s.getInputStream()) {
        answer = in.readAllBytes();
      } catch (java.net.SocketTimeoutException e) {
        throw new AssertionError("the server neither answered nor closed within 10 s", e);
      } catch (IOException e) {
        return; // reset: an answer
      }
      Matcher m = STATUS.matcher(new String(answer, StandardCharsets.ISO_8859_1));
      while (m.find()) {
        int status = Integer.parseInt(m.group(1));
        assertTrue(ERRORS.contains(status), "a stranger got " + status);
      }
    }
  }
}
