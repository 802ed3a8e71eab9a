package org.elasticam.bench.shuffle;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.elasticam.shuffle.client.ClientSettings;
import org.elasticam.shuffle.client.FetchedBlock;
import org.elasticam.shuffle.client.FetchedBlocks;
import org.elasticam.shuffle.client.ServiceAddress;
import org.elasticam.shuffle.client.ShuffleClient;
import org.elasticam.time.Clock;

/**
 * The load generator, in a JVM of its own: closed-loop clients, each one thread on one kept-alive
 * connection, sending the next request as soon as the last response was read and checked. For
 * each {@code run <clients> <warm-up ms> <measured ms>} line on stdin it runs one cell and prints
 * one {@code RESULT} line; the server's CPU time and peak RSS are read from /proc at the measured
 * window's edges.
 *
 * <p>Arguments: {@code <ours|hadoop|sendfile> <port> <work dir> <shape> <server pid> [<receive buffer>]}: each
 * connection's socket receive buffer in bytes, fixed before it connects; 0 or absent leaves it to
 * the kernel's auto-tuning.
 */
public final class LoadGeneratorMain {

  private static final int WARMING = 0;
  private static final int MEASURING = 1;
  private static final int STOPPING = 2;

  private final Protocols.Protocol protocol;
  private final Shape shape;
  private final int port;
  private final long serverPid;
  private final int receiveBuffer;
  private volatile int phase;
  private final AtomicInteger errorsLogged = new AtomicInteger();

  private LoadGeneratorMain(Protocols.Protocol protocol, Shape shape, int port, long serverPid, int receiveBuffer) {
    this.receiveBuffer = receiveBuffer;
    this.protocol = protocol;
    this.shape = shape;
    this.port = port;
    this.serverPid = serverPid;
  }

  public static void main(String[] args) throws Exception {
    ServerKind kind = ServerKind.parse(args[0]);
    int port = Integer.parseInt(args[1]);
    Path work = Path.of(args[2]);
    Shape shape = Shape.parse(args[3]);
    long pid = Long.parseLong(args[4]);
    int[][] crcs = Dataset.readManifest(BenchApp.manifest(work, shape), shape);
    byte[] key = switch (kind) {
      case OURS -> Files.readAllBytes(BenchApp.oursSecret(work));
      case SHUFFLE_HANDLER -> Files.readAllBytes(BenchApp.hadoopShuffleKey(work));
      case SENDFILE -> new byte[0];
    };
    if (kind == ServerKind.OURS) {
      registerAndCheck(work, shape, port, key, crcs);
    }
    int receiveBuffer = args.length > 5 ? Integer.parseInt(args[5]) : 0;
    LoadGeneratorMain g = new LoadGeneratorMain(Protocols.of(kind, shape, crcs, port, key), shape, port, pid,
        receiveBuffer);
    BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
    for (String line; (line = in.readLine()) != null; ) {
      String[] f = line.trim().split(" ");
      if (f[0].equals("run")) {
        System.out.println(g.run(Integer.parseInt(f[1]), Long.parseLong(f[2]), Long.parseLong(f[3])).toLine());
        System.out.flush();
      }
    }
  }

  /**
   * The executor's side of our service, with our own client: register the executor's dirs, then
   * fetch one request's blocks through {@link ShuffleClient} (which checks each block's CRC32C) and
   * compare them with the manifest too.
   */
  private static void registerAndCheck(Path work, Shape s, int port, byte[] secret, int[][] crcs) throws Exception {
    ServiceAddress a = ServiceAddress.plain("127.0.0.1", port);
    try (ShuffleClient c = new ShuffleClient(s.appId(), secret, ClientSettings.defaults()
        .withRetries(0, Duration.ZERO), Clock.system())) {
      c.register(a, BenchApp.EXECUTOR_ID, BenchApp.executorDirs(work, s));
      Shape.Request r = s.request(0, 0);
      try (FetchedBlocks got = c.fetch(a, Protocols.Ours.request(s, r)).get(60, TimeUnit.SECONDS)) {
        for (FetchedBlock b : got.blocks()) {
          java.util.zip.CRC32C crc = new java.util.zip.CRC32C();
          crc.update(b.data());
          if ((int) crc.getValue() != crcs[b.mapId()][b.reduceId()]) {
            throw new IllegalStateException("ShuffleClient got a block unlike the manifest: " + b);
          }
        }
      }
    }
  }

  /**
   * Per-client counters, each written by its own thread and read after it ended. Throughput counts
   * the requests that ended inside the measured window; latency counts those that started inside
   * it, each followed to its end even after the window closed. A request begun in the warm-up is
   * the warm-up's: when a cell starts, hundreds of threads are started and connect on the load
   * generator's one core, and requests caught in that start stall for seconds against any server,
   * the plain sendfile server too (BENCHMARKS.md, issue 31).
   */
  private static final class ClientStats {
    long requests;
    long bytes;
    long errors;
    long reconnects;
    int timed;
    long[] latencies = new long[1024];
    String firstError;

    void completed(long payload) {
      requests++;
      bytes += payload;
    }

    void timed(long nanos) {
      if (timed == latencies.length) {
        latencies = Arrays.copyOf(latencies, latencies.length * 2);
      }
      latencies[timed++] = nanos;
    }
  }

  CellResult.Measured run(int clients, long warmMs, long measureMs) throws Exception {
    phase = WARMING;
    boolean peakReset = ProcStats.resetPeak(serverPid);
    List<Thread> threads = new ArrayList<>();
    List<ClientStats> stats = new ArrayList<>();
    for (int c = 0; c < clients; c++) {
      ClientStats st = new ClientStats();
      stats.add(st);
      int id = c;
      Thread t = new Thread(() -> loop(id, st), "client-" + c);
      t.setDaemon(true);
      threads.add(t);
      t.start();
    }
    Thread.sleep(warmMs);
    long cpu0 = ProcStats.cpuNanos(serverPid);
    long self0 = ProcStats.cpuNanos(ProcessHandle.current().pid());
    long t0 = System.nanoTime();
    phase = MEASURING;
    Thread.sleep(measureMs);
    phase = STOPPING;
    long t1 = System.nanoTime();
    long cpu1 = ProcStats.cpuNanos(serverPid);
    long self1 = ProcStats.cpuNanos(ProcessHandle.current().pid());
    long peak = ProcStats.peakRssKib(serverPid);
    for (Thread t : threads) {
      t.join(180_000);
    }
    return summarize(clients, stats, t1 - t0, cpu1 - cpu0, self1 - self0, peak, peakReset);
  }

  private void loop(int client, ClientStats st) {
    Wire w = null;
    for (long j = 0; phase != STOPPING; j++) {
      Shape.Request r = shape.request(client, j);
      long start = System.nanoTime();
      boolean startedMeasuring = phase == MEASURING;
      try {
        if (w == null) {
          if (j > 0) {
            st.reconnects++;
          }
          w = Wire.open(port, receiveBuffer);
        }
        Protocols.Fetched f = protocol.fetch(w, r);
        long end = System.nanoTime();
        if (!f.keepAlive()) {
          w.close();
          w = null;
        }
        if (phase == MEASURING) {
          st.completed(f.bytes());
        }
        if (startedMeasuring) {
          st.timed(end - start);
        }
      } catch (IOException | RuntimeException e) {
        st.errors++;
        if (st.firstError == null) {
          st.firstError = e.toString();
        }
        if (errorsLogged.incrementAndGet() <= 5) {
          System.err.println("client " + client + ", request " + r + ": " + e);
        }
        if (w != null) {
          w.close();
          w = null;
        }
      }
    }
    if (w != null) {
      w.close();
    }
  }

  private static CellResult.Measured summarize(int clients, List<ClientStats> stats, long windowNs, long serverCpuNs,
      long clientCpuNs, long peakKib, boolean peakReset) {
    long requests = 0;
    long bytes = 0;
    long errors = 0;
    long reconnects = 0;
    String firstError = null;
    for (ClientStats s : stats) {
      requests += s.requests;
      bytes += s.bytes;
      errors += s.errors;
      reconnects += s.reconnects;
      firstError = firstError == null ? s.firstError : firstError;
    }
    long[] all = new long[stats.stream().mapToInt(s -> s.timed).sum()];
    int at = 0;
    for (ClientStats s : stats) {
      System.arraycopy(s.latencies, 0, all, at, s.timed);
      at += s.timed;
    }
    Arrays.sort(all);
    return new CellResult.Measured(clients, requests, bytes, windowNs, errors, reconnects, percentile(all, 0.50),
        percentile(all, 0.99), serverCpuNs, clientCpuNs, peakKib, peakReset, firstError);
  }

  static long percentile(long[] sorted, double q) {
    if (sorted.length == 0) {
      return 0;
    }
    int i = (int) Math.ceil(q * sorted.length) - 1;
    return sorted[Math.max(0, Math.min(sorted.length - 1, i))];
  }
}
