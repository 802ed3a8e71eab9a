package org.elasticam.bench.shuffle;

import java.io.BufferedReader;
import java.io.File;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import javax.crypto.KeyGenerator;
import org.elasticam.shuffle.protocol.RequestSigner;

/**
 * The shuffle-serving benchmark's driver: ours, Hadoop's ShuffleHandler and a raw sendfile server
 * side by side, each in its own JVM pinned to core 0, each driven by a load generator in its own
 * JVM pinned to core 1, over loopback, for every (block size, clients) cell. Prints the Markdown
 * table, the ratios and the targets, and writes target/shuffle-serving.{csv,md}. Not a test: run
 * by hand (BENCHMARKS.md), never in CI.
 *
 * <pre>
 * cd bench &amp;&amp; mvn -q compile exec:exec@shuffle-serving [-Dshuffle.args="quick"]
 * options (leading dashes optional): quick | sizes 4k,64k,1m,16m | clients 1,16,64,256
 *          | servers ours,hadoop,sendfile | jit-warmup-ms 20000 | warmup-ms 3000 | measure-ms 6000
 *          | work target/shuffle-serving | baseline &lt;an earlier run's shuffle-serving.csv&gt;
 *          | ours-conf elasticam.shuffle.KEY=VALUE[,...] (our service's yarn-site settings)
 *          | client-rcvbuf &lt;bytes&gt; (each client socket's receive buffer, fixed; default: auto-tuned)
 * </pre>
 *
 * <p>With {@code baseline}, the CPU target compares ours' CPU seconds per GiB, cell by cell, with
 * that run's (ours in it: an earlier commit's service jar, {@code -Delasticam.shuffleJar}).
 */
public final class ShuffleServing {

  static final String SERVER_CORE = "0";
  static final String CLIENT_CORE = "1";
  private static final List<String> JVM = List.of("-Xmx1g", "-XX:+UseG1GC", "-Djava.net.preferIPv4Stack=true",
      "-Dlog4j.configuration=bench-log4j.properties");

  /** What to run. */
  record Plan(List<Shape> shapes, List<Integer> clients, List<ServerKind> servers, long jitWarmupMs, long warmupMs,
      long measureMs, Path work, Path baseline, List<String> oursConf, int clientReceiveBuffer) {

    static Plan parse(String[] args) {
      List<Shape> shapes = List.of(Shape.KIB_4, Shape.KIB_64, Shape.MIB_1, Shape.MIB_16);
      List<Integer> clients = List.of(1, 16, 64, 256);
      List<ServerKind> servers = List.of(ServerKind.OURS, ServerKind.SHUFFLE_HANDLER, ServerKind.SENDFILE);
      long jitWarmup = 20000;
      long warmup = 3000;
      long measure = 6000;
      Path work = Path.of("target", "shuffle-serving");
      Path baseline = null;
      List<String> oursConf = List.of();
      int clientReceiveBuffer = 0;
      for (int i = 0; i < args.length; i++) {
        switch (args[i].replaceFirst("^-+", "")) {
          case "quick" -> {
            shapes = List.of(Shape.KIB_64, Shape.MIB_1);
            clients = List.of(1, 256);
            jitWarmup = 4000;
            warmup = 1000;
            measure = 2000;
          }
          case "sizes" -> shapes = Arrays.stream(args[++i].split(",")).map(Shape::parse).toList();
          case "clients" -> clients = Arrays.stream(args[++i].split(",")).map(Integer::valueOf).toList();
          case "servers" -> servers = Arrays.stream(args[++i].split(",")).map(ServerKind::parse).toList();
          case "jit-warmup-ms" -> jitWarmup = Long.parseLong(args[++i]);
          case "warmup-ms" -> warmup = Long.parseLong(args[++i]);
          case "measure-ms" -> measure = Long.parseLong(args[++i]);
          case "work" -> work = Path.of(args[++i]);
          case "baseline" -> baseline = Path.of(args[++i]);
          case "ours-conf" -> oursConf = List.of(args[++i].split(","));
          case "client-rcvbuf" -> clientReceiveBuffer = Integer.parseInt(args[++i]);
          case "" -> { }
          default -> throw new IllegalArgumentException("unknown option " + args[i]);
        }
      }
      return new Plan(shapes, clients, servers, jitWarmup, warmup, measure, work.toAbsolutePath(), baseline, oursConf,
          clientReceiveBuffer);
    }
  }

  private ShuffleServing() {}

  public static void main(String[] args) throws Exception {
    Plan plan = Plan.parse(args.length == 1 ? args[0].trim().split("\\s+") : args);
    Files.createDirectories(plan.work().resolve("logs"));
    writeSecrets(plan.work());
    for (Shape s : plan.shapes()) {
      long t = System.nanoTime();
      Dataset.ensure(plan.work(), s);
      long warmed = Dataset.warm(plan.work(), s);
      log("dataset %s: %d maps x %d reduces, %d MiB read to warm the page cache (%d ms)", s.label(), s.maps(),
          s.reduces(), warmed >> 20, (System.nanoTime() - t) / 1_000_000);
    }
    List<CellResult> cells = new ArrayList<>();
    for (Shape s : plan.shapes()) {
      for (ServerKind k : plan.servers()) {
        cells.addAll(runServer(plan, k, s));
      }
    }
    String report = "Server pinned to core " + SERVER_CORE + ", load generator to core " + CLIENT_CORE
        + "; each server JVM first warmed " + plan.jitWarmupMs() + " ms (16, 1, then 64 clients), then per cell warm-up "
        + plan.warmupMs() + " ms, measured " + plan.measureMs() + " ms (GiB/s from the requests that ended in it, p99 from"
        + " those that started in it" + (plan.clientReceiveBuffer() > 0 ? "; each client's socket receive buffer fixed at "
        + plan.clientReceiveBuffer() + " bytes" : "") + "). Ours from " + shadedJar().getFileName()
        + (plan.oursConf().isEmpty() ? "" : " with " + String.join(", ", plan.oursConf())) + ".\n\n"
        + ResultTable.markdown(cells) + "\n" + ResultTable.ratios(cells) + "\n"
        + String.join("\n", ResultTable.targets(cells, plan.baseline() == null ? Map.of()
            : ResultTable.oursCpuFromCsv(Files.readAllLines(plan.baseline()))).stream().map(x -> "- " + x).toList())
        + "\n";
    System.out.println(report);
    Files.writeString(Path.of("target", "shuffle-serving.md"), report);
    Files.writeString(Path.of("target", "shuffle-serving.csv"), ResultTable.csv(cells));
    log("wrote target/shuffle-serving.csv and target/shuffle-serving.md");
  }

  /** One server JVM and one load generator JVM for one dataset; every clients count in turn. */
  private static List<CellResult> runServer(Plan plan, ServerKind kind, Shape s) throws Exception {
    Path logs = plan.work().resolve("logs");
    String name = kind.key() + "-" + s.key();
    List<String> serverArgs = new ArrayList<>(List.of(plan.work().toString(), s.key()));
    if (kind == ServerKind.OURS) {
      plan.oursConf().forEach(c -> serverArgs.add("--conf=" + c));
    }
    Process server = start(SERVER_CORE, serverClasspath(kind), kind.main(), logs.resolve(name + "-server.log"),
        serverArgs.toArray(new String[0]));
    List<CellResult> out = new ArrayList<>();
    try {
      BufferedReader serverOut = reader(server);
      String portLine = serverOut.readLine();
      while (portLine != null && !portLine.startsWith("PORT ")) {
        portLine = serverOut.readLine();
      }
      if (portLine == null) {
        throw new IllegalStateException(kind.label() + " did not start; see " + logs.resolve(name + "-server.log"));
      }
      String port = portLine.substring(5).trim();
      Process gen = start(CLIENT_CORE, System.getProperty("java.class.path"), LoadGeneratorMain.class,
          logs.resolve(name + "-client.log"), kind.key(), port, plan.work().toString(), s.key(),
          Long.toString(server.pid()), Integer.toString(plan.clientReceiveBuffer()));
      try (OutputStream cmd = gen.getOutputStream()) {
        BufferedReader results = reader(gen);
        // A fresh JVM's first seconds are JIT compilation on the server's only core: run them off the
        // record, with connections closed and opened again on the way (the first close loads classes
        // that send much compiled code back to the compiler).
        for (String warm : List.of("run 16 " + plan.jitWarmupMs() / 2 + " 1", "run 1 " + plan.jitWarmupMs() / 4 + " 1",
            "run 64 " + plan.jitWarmupMs() / 4 + " 1")) {
          cmd.write((warm + "\n").getBytes(StandardCharsets.UTF_8));
          cmd.flush();
          resultLine(results, logs, name);
        }
        for (int c : plan.clients()) {
          cmd.write(("run " + c + " " + plan.warmupMs() + " " + plan.measureMs() + "\n").getBytes(StandardCharsets.UTF_8));
          cmd.flush();
          CellResult r = new CellResult(kind, s, CellResult.Measured.parse(resultLine(results, logs, name)));
          log("%-14s %-6s %3d clients: %7s GiB/s %9s req/s p99 %7s ms, %6s CPU s/GiB, peak %4.0f MiB, %d errors",
              kind.label(), s.label(), c, ResultTable.num(r.gibPerSecond()), ResultTable.count(r.requestsPerSecond()),
              ResultTable.num(r.p99Ms()), ResultTable.num(r.cpuSecondsPerGib()), r.peakMib(), r.m().errors());
          out.add(r);
        }
      }
      stop(gen);
    } finally {
      server.getOutputStream().close();
      stop(server);
    }
    return out;
  }

  private static String resultLine(BufferedReader r, Path logs, String name) throws IOException {
    for (String line; (line = r.readLine()) != null; ) {
      if (line.startsWith("RESULT ")) {
        return line;
      }
    }
    throw new IllegalStateException("the load generator ended early; see " + logs.resolve(name + "-client.log"));
  }

  static Process start(String core, String classpath, Class<?> main, Path log, String... args)
      throws IOException {
    List<String> cmd = new ArrayList<>(List.of("taskset", "-c", core,
        Path.of(System.getProperty("java.home"), "bin", "java").toString()));
    cmd.addAll(JVM);
    cmd.addAll(List.of("-cp", classpath, main.getName()));
    cmd.addAll(List.of(args));
    return new ProcessBuilder(cmd).redirectError(log.toFile()).start();
  }

  static void stop(Process p) throws InterruptedException {
    if (!p.waitFor(30, TimeUnit.SECONDS)) {
      p.destroyForcibly().waitFor();
    }
  }

  static BufferedReader reader(Process p) {
    return new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8));
  }

  /**
   * Ours runs from its shaded jar, first on the classpath, as a NodeManager loads it (its Netty
   * relocated); the others from this module's classpath, with Hadoop's own Netty.
   */
  static String serverClasspath(ServerKind kind) throws IOException {
    String cp = System.getProperty("java.class.path");
    if (kind != ServerKind.OURS) {
      return cp;
    }
    List<String> parts = new ArrayList<>();
    parts.add(shadedJar().toString());
    for (String p : cp.split(File.pathSeparator)) {
      if (!p.contains("elasticam-shuffle-aux-service")) {
        parts.add(p);
      }
    }
    return String.join(File.pathSeparator, parts);
  }

  static Path shadedJar() throws IOException {
    String given = System.getProperty("elasticam.shuffleJar");
    if (given != null && Files.isRegularFile(Path.of(given))) {
      return Path.of(given).toAbsolutePath();
    }
    Path target = Path.of("..", "shuffle-aux-service", "target");
    if (Files.isDirectory(target)) {
      try (DirectoryStream<Path> d = Files.newDirectoryStream(target, "elasticam-shuffle-[0-9]*.jar")) {
        for (Path p : d) {
          return p.toAbsolutePath();
        }
      }
    }
    throw new IllegalStateException("no shaded shuffle jar: build it first "
        + "(mvn -B -q -pl shuffle-aux-service -am package -DskipTests)");
  }

  /** Our app's shuffle secret (derived as the AM derives it) and MapReduce's shuffle key (as JobSubmitter makes it). */
  static void writeSecrets(Path work) throws Exception {
    if (!Files.exists(BenchApp.oursSecret(work))) {
      byte[] appSecret = new byte[32];
      new SecureRandom().nextBytes(appSecret);
      writePrivate(BenchApp.oursSecret(work), RequestSigner.deriveShuffleSecret(appSecret));
    }
    if (!Files.exists(BenchApp.hadoopShuffleKey(work))) {
      KeyGenerator g = KeyGenerator.getInstance("HmacSHA1");
      g.init(64);
      writePrivate(BenchApp.hadoopShuffleKey(work), g.generateKey().getEncoded());
    }
  }

  private static void writePrivate(Path p, byte[] bytes) throws IOException {
    Files.createFile(p, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
    Files.write(p, bytes);
  }

  static void log(String format, Object... args) {
    System.err.printf(format + "%n", args);
  }
}
