package org.elasticam.bench.shuffle;

import java.io.BufferedReader;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.elasticam.executor.shuffle.LocalBlocks;
import org.elasticam.shuffle.client.ClientSettings;
import org.elasticam.shuffle.client.FetchedBlock;
import org.elasticam.shuffle.client.FetchedBlocks;
import org.elasticam.shuffle.client.ServiceAddress;
import org.elasticam.shuffle.client.ShuffleClient;
import org.elasticam.shuffle.protocol.FetchRequest;
import org.elasticam.shuffle.protocol.MapIdSet;
import org.elasticam.shuffle.protocol.ReduceRange;
import org.elasticam.time.Clock;

/**
 * Blocks on a reducer's own node, read two ways: straight from the map output files (what an
 * executor does with {@code elasticam.shuffle.readLocalDirectly=true}, {@link LocalBlocks}) and
 * fetched over loopback from the node's shuffle service with the executor's fetch client and
 * default client settings. The service runs from its shaded jar in its own JVM pinned to core 0,
 * the readers in this JVM pinned to core 1, as a task and its NodeManager share a host. Each
 * reader thread reads whole reduce partitions (every map's block of one reduce) back to back; both
 * ways check every block's CRC32C. Reports GiB/s and CPU seconds per GiB counting both processes.
 *
 * <pre>
 * cd bench &amp;&amp; mvn -q compile exec:exec@local-read [-Dshuffle.args="sizes 4k,64k readers 1,4"]
 * </pre>
 */
public final class LocalRead {

  private record Cell(Shape shape, int readers, String way, double gibPerSecond, double cpuSecondsPerGib) {}

  private LocalRead() {}

  public static void main(String[] args) throws Exception {
    String[] a = args.length == 1 ? args[0].trim().split("\\s+") : args;
    List<Shape> shapes = List.of(Shape.KIB_4, Shape.KIB_64, Shape.MIB_1);
    List<Integer> readers = List.of(1, 4);
    long warmMs = 3000;
    long measureMs = 6000;
    Path work = Path.of("target", "shuffle-serving").toAbsolutePath();
    for (int i = 0; i < a.length; i++) {
      switch (a[i].replaceFirst("^-+", "")) {
        case "sizes" -> shapes = Arrays.stream(a[++i].split(",")).map(Shape::parse).toList();
        case "readers" -> readers = Arrays.stream(a[++i].split(",")).map(Integer::valueOf).toList();
        case "warmup-ms" -> warmMs = Long.parseLong(a[++i]);
        case "measure-ms" -> measureMs = Long.parseLong(a[++i]);
        case "work" -> work = Path.of(a[++i]).toAbsolutePath();
        case "" -> { }
        default -> throw new IllegalArgumentException("unknown option " + a[i]);
      }
    }
    Files.createDirectories(work.resolve("logs"));
    ShuffleServing.writeSecrets(work);
    for (Shape s : shapes) {
      Dataset.ensure(work, s);
      Dataset.warm(work, s);
    }
    new ProcessBuilder("taskset", "-pc", ShuffleServing.CLIENT_CORE, Long.toString(ProcessHandle.current().pid()))
        .redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD).start().waitFor();
    List<String> serverArgs = new ArrayList<>(List.of(work.toString()));
    shapes.forEach(s -> serverArgs.add(s.key()));
    Process server = ShuffleServing.start(ShuffleServing.SERVER_CORE, ShuffleServing.serverClasspath(ServerKind.OURS),
        OursServerMain.class, work.resolve("logs").resolve("local-read-server.log"), serverArgs.toArray(String[]::new));
    List<Cell> cells = new ArrayList<>();
    try {
      int port = port(ShuffleServing.reader(server));
      byte[] secret = Files.readAllBytes(BenchApp.oursSecret(work));
      for (Shape s : shapes) {
        try (ShuffleClient client = new ShuffleClient(s.appId(), secret, ClientSettings.defaults(), Clock.system())) {
          ServiceAddress at = ServiceAddress.plain("127.0.0.1", port);
          client.register(at, BenchApp.EXECUTOR_ID, BenchApp.executorDirs(work, s));
          Path w = work;
          Map<String, Way> ways = new LinkedHashMap<>();
          ways.put("direct", r -> readDirect(s, r, w));
          ways.put("fetch", r -> readFetched(client, at, s, r));
          for (int t : readers) {
            for (Map.Entry<String, Way> way : ways.entrySet()) {
              String name = way.getKey();
              Cell c = measure(s, t, name, way.getValue(), server.pid(), warmMs, measureMs);
              ShuffleServing.log("%-6s %d readers %-6s %7.3f GiB/s %6.2f CPU s/GiB", s.label(), t, name,
                  c.gibPerSecond(), c.cpuSecondsPerGib());
              cells.add(c);
            }
          }
        }
      }
    } finally {
      server.getOutputStream().close();
      ShuffleServing.stop(server);
    }
    String report = table(cells);
    System.out.println(report);
    Files.writeString(Path.of("target", "local-read.md"), report);
  }

  /** One reduce partition, every map's block of it; returns the bytes read. */
  @FunctionalInterface
  private interface Way {
    long read(int reduce) throws Exception;
  }

  private static long readDirect(Shape s, int reduce, Path work) throws IOException {
    long n = 0;
    List<Path> dirs = BenchApp.executorDirs(work, s);
    for (int m = 0; m < s.maps(); m++) {
      n += LocalBlocks.read(dirs, BenchApp.SHUFFLE_ID, m, reduce).length;
    }
    return n;
  }

  private static long readFetched(ShuffleClient client, ServiceAddress at, Shape s, int reduce) throws Exception {
    FetchRequest r = new FetchRequest(s.appId(), BenchApp.EXECUTOR_ID, BenchApp.SHUFFLE_ID, ReduceRange.of(reduce),
        MapIdSet.range(0, s.maps() - 1));
    long n = 0;
    for (CompletableFuture<FetchedBlocks> f : client.fetchAll(at, r)) {
      try (FetchedBlocks got = f.get()) {
        for (FetchedBlock b : got.blocks()) {
          n += b.data().length;
        }
      }
    }
    return n;
  }

  private static Cell measure(Shape s, int readers, String name, Way way, long serverPid, long warmMs, long measureMs)
      throws Exception {
    AtomicBoolean measuring = new AtomicBoolean();
    AtomicBoolean stop = new AtomicBoolean();
    AtomicLong bytes = new AtomicLong();
    List<Throwable> failures = new ArrayList<>();
    List<Thread> threads = new ArrayList<>();
    for (int t = 0; t < readers; t++) {
      int id = t;
      Thread th = new Thread(() -> {
        try {
          for (long j = 0; !stop.get(); j++) {
            long n = way.read((int) Math.floorMod(j * 7 + id * 31L, (long) s.reduces()));
            if (measuring.get()) {
              bytes.addAndGet(n);
            }
          }
        } catch (Throwable e) {
          synchronized (failures) {
            failures.add(e);
          }
        }
      }, "reader-" + t);
      th.start();
      threads.add(th);
    }
    Thread.sleep(warmMs);
    long self = ProcessHandle.current().pid();
    long cpu0 = ProcStats.cpuNanos(self) + ProcStats.cpuNanos(serverPid);
    long t0 = System.nanoTime();
    measuring.set(true);
    Thread.sleep(measureMs);
    measuring.set(false);
    long t1 = System.nanoTime();
    long cpu1 = ProcStats.cpuNanos(self) + ProcStats.cpuNanos(serverPid);
    stop.set(true);
    for (Thread th : threads) {
      th.join(60_000);
    }
    if (!failures.isEmpty()) {
      throw new IllegalStateException(name + " read failed", failures.get(0));
    }
    double gib = bytes.get() / (double) (1L << 30);
    return new Cell(s, readers, name, gib / ((t1 - t0) / 1e9), (cpu1 - cpu0) / 1e9 / gib);
  }

  private static int port(BufferedReader out) throws IOException {
    for (String line; (line = out.readLine()) != null; ) {
      if (line.startsWith("PORT ")) {
        return Integer.parseInt(line.substring(5).trim());
      }
    }
    throw new IllegalStateException("the shuffle service did not start; see target/shuffle-serving/logs");
  }

  private static String table(List<Cell> cells) {
    StringBuilder b = new StringBuilder("| block | readers | direct GiB/s | fetched GiB/s | direct ÷ fetched "
        + "| direct CPU s/GiB | fetched CPU s/GiB (client + service) |\n|---|---:|---:|---:|---:|---:|---:|\n");
    for (int i = 0; i + 1 < cells.size(); i += 2) {
      Cell d = cells.get(i);
      Cell f = cells.get(i + 1);
      b.append(String.format(Locale.ROOT, "| %s | %d | %.3f | %.3f | %.2f× | %.2f | %.2f |%n", d.shape().label(),
          d.readers(), d.gibPerSecond(), f.gibPerSecond(), d.gibPerSecond() / f.gibPerSecond(),
          d.cpuSecondsPerGib(), f.cpuSecondsPerGib()));
    }
    return b.toString();
  }
}
