package org.elasticam.bench.launch;

import static org.elasticam.report.events.EventFields.AM_HEAP_MB;
import static org.elasticam.report.events.EventFields.EVENT;
import static org.elasticam.report.events.EventFields.START;
import static org.elasticam.report.events.EventFields.TS;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.elasticam.am.client.ElasticamCli;
import org.elasticam.embedded.EmbeddedCluster;
import org.elasticam.report.events.Event;

/**
 * How long from the AM's registration until its first and its last executor registered, for N = 1, 4
 * and 16 (medians of 5 runs), without and with the nodes' start-up archives, the executors' and the
 * AM's (made by warm-up jobs first), with each executor's CPU time until it sent its registration, beside the bare-YARN floor
 * measured the same way on the same cluster in the same run; and the AM's live heap after 16
 * executors ran 10,000 tasks; for ElasticAM, the AM's own start from the client's submission,
 * beside a minimal managed AM's (the floor of an AM's start), and for N = 1 the same without the
 * jar cache. Not a test: run by hand (see BENCHMARKS.md), never in CI.
 */
public final class LaunchLatency {

  private static final ObjectMapper JSON = new ObjectMapper();

  private LaunchLatency() {}

  public static void main(String[] args) throws Exception {
    int runs = args.length > 0 ? Integer.parseInt(args[0]) : 5;
    Path work = Path.of("target", "launch-latency-" + System.currentTimeMillis()).toAbsolutePath();
    List<String> hadoop = List.of(Files.readString(Path.of("..", "embedded", "target", "classpath.txt")).trim().split(":"));
    List<String> selfCp = List.of(System.getProperty("java.class.path").split(":"));
    EmbeddedCluster.Settings s = EmbeddedCluster.Settings.in(work).withNodeResources(12288, 16)
        .withApplicationClasspath(hadoop);
    try (EmbeddedCluster c = EmbeddedCluster.start(s)) {
      System.out.println("| N | variant | first registered, median ms | all registered, median ms"
          + " | executor CPU ms to registration sent, median | submit -> AM registered, median ms"
          + " | AM JVM start -> registered, median ms | AM CPU ms to registered, median"
          + " | runs (first / all / AM) | start-up archive |");
      System.out.println("|---:|---|---:|---:|---:|---:|---:|---:|---|---|");
      String benchClasses = selfCp.stream().filter(e -> e.endsWith("bench/target/classes")).findFirst()
          .orElseThrow(() -> new IllegalStateException("no bench/target/classes on " + selfCp));
      for (int n : new int[] {1, 4, 16}) {
        if (n == 1) {
          // The AM's own start: the floor's minimal managed AM against ours (the rows below).
          report(n, "bare YARN, minimal Java AM (its own start only)", runs,
              () -> new Measured(-1, -1, -1, "", FloorAm.amStart(c.configuration(), benchClasses), -1, -1));
        }
        report(n, "bare YARN, shell container", runs, () -> measured(FloorAm.run(c.configuration(), n, false, selfCp)));
        report(n, "bare YARN, minimal Java main", runs, () -> measured(FloorAm.run(c.configuration(), n, true, selfCp)));
        // Tasks long enough that every executor registers before the work runs out.
        report(n, "ElasticAM executors, no start-up archive", runs,
            () -> ours(c, work, n, n, 20_000, false, true).run());
        warmUp(c, work);
        report(n, "ElasticAM executors, the node's start-up archive", runs,
            () -> ours(c, work, n, n, 20_000, true, true).run());
        if (n == 1) {
          // What the jar cache saves: the jar uploaded and localized again for every application.
          report(n, "ElasticAM executors, the node's start-up archive, jar uploaded with each application", runs,
              () -> ours(c, work, n, n, 20_000, true, false).run());
        }
      }
      JsonNode end = last(ours(c, work, 16, 10_000, 0, true, true).events(), Event.APP_END);
      System.out.println();
      System.out.println("AM live heap after 16 executors ran 10,000 tasks: " + end.path(AM_HEAP_MB).asLong() + " MiB");
    }
  }

  /**
   * One run: registration times from the AM's registration, executors' CPU, how they started, and
   * the AM's own start from the client's submission (-1 where not measured).
   */
  record Measured(long firstMs, long allMs, long cpuMs, String archive, long amMs, long amJvmMs, long amCpuMs) {}

  private static Measured measured(FloorAm.Result r) {
    return new Measured(r.firstMs(), r.allMs(), -1, "", -1, -1, -1);
  }

  private interface Run {
    Measured run() throws Exception;
  }

  /**
   * Until every node has its archive: a job whose executors live long enough after registering to
   * make it (a few seconds), on both nodes.
   */
  private static void warmUp(EmbeddedCluster c, Path work) throws Exception {
    // The AM runs on one node per job, so its archive may take a few jobs to reach both.
    int nodes = c.nodeHosts().size();
    for (int attempt = 0; attempt < 8 && (archivesOnNodes(c, "executor.jsa") < nodes
        || archivesOnNodes(c, "am.jsa") < nodes); attempt++) {
      ours(c, work, 4, 16, 2_000, true, true);
    }
    if (archivesOnNodes(c, "executor.jsa") < nodes) {
      throw new IllegalStateException("the nodes have no start-up archive after eight jobs: see the executor logs");
    }
  }

  /**
   * Nodes with an archive in the default place, {@code usercache/<user>/elasticam-startup/<build>/}:
   * listed, not walked, as the NodeManagers delete finished applications' dirs beside it meanwhile.
   */
  private static long archivesOnNodes(EmbeddedCluster c, String archive) throws java.io.IOException {
    long nodes = 0;
    for (int i = 0; i < c.nodeHosts().size(); i++) {
      boolean found = false;
      Path users = c.nodeManagerLocalDir(i).resolve("usercache");
      if (Files.isDirectory(users)) {
        try (DirectoryStream<Path> us = Files.newDirectoryStream(users)) {
          for (Path user : us) {
            Path builds = user.resolve("elasticam-startup");
            if (Files.isDirectory(builds)) {
              try (DirectoryStream<Path> bs = Files.newDirectoryStream(builds)) {
                for (Path b : bs) {
                  found |= Files.exists(b.resolve(archive));
                }
              }
            }
          }
        }
      }
      nodes += found ? 1 : 0;
    }
    return nodes;
  }

  private static void report(int n, String variant, int runs, Run r) throws Exception {
    List<Long> first = new ArrayList<>();
    List<Long> all = new ArrayList<>();
    List<Long> cpu = new ArrayList<>();
    List<Long> am = new ArrayList<>();
    List<Long> amJvm = new ArrayList<>();
    List<Long> amCpu = new ArrayList<>();
    java.util.Map<String, Integer> archive = new java.util.TreeMap<>();
    for (int i = 0; i < runs; i++) {
      Measured res = r.run();
      first.add(res.firstMs());
      all.add(res.allMs());
      cpu.add(res.cpuMs());
      am.add(res.amMs());
      amJvm.add(res.amJvmMs());
      amCpu.add(res.amCpuMs());
      for (String state : res.archive().split(",")) {
        if (!state.isEmpty()) {
          archive.merge(state, 1, Integer::sum);
        }
      }
    }
    System.out.printf("| %d | %s | %s | %s | %s | %s | %s | %s | %s / %s / %s | %s |%n", n, variant,
        blankIfNone(median(first)), blankIfNone(median(all)), blankIfNone(median(cpu)), blankIfNone(median(am)),
        blankIfNone(median(amJvm)), blankIfNone(median(amCpu)), first, all, am, archive.isEmpty() ? "" : archive.toString());
  }

  private static String blankIfNone(long ms) {
    return ms < 0 ? "" : String.valueOf(ms);
  }

  private static long median(List<Long> xs) {
    List<Long> s = new ArrayList<>(xs);
    s.sort(null);
    return s.get(s.size() / 2);
  }

  /** One ElasticAM sleep job of {@code tasks} tasks on {@code n} static executors. */
  private static Ours ours(EmbeddedCluster c, Path work, int n, int tasks, int taskMs, boolean archive,
      boolean jarCache) throws Exception {
    Path events = work.resolve("events");
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    long submitted = System.currentTimeMillis();
    int code = new ElasticamCli(c.configuration(), new PrintStream(out, true, StandardCharsets.UTF_8), System.err,
        appJar()).run(new String[] {"submit", "--conf", "elasticam.eventLog.dir=" + events.toUri(),
            "--conf", "elasticam.executor.instances=" + n, "--conf", "elasticam.executor.memory=256m",
            "--conf", "elasticam.executor.startupArchive.enabled=" + archive,
            "--conf", "elasticam.yarn.am.startupArchive.enabled=" + archive,
            "--conf", "elasticam.yarn.jarCache.enabled=" + jarCache,
            "sleep", "--stages", "1", "--tasks", String.valueOf(tasks), "--task-ms", String.valueOf(taskMs)});
    String text = out.toString(StandardCharsets.UTF_8);
    if (code != 0) {
      throw new IllegalStateException("the job failed:\n" + text);
    }
    Matcher m = Pattern.compile("(application_\\d+_\\d+)").matcher(text);
    m.find();
    return new Ours(events.resolve(m.group(1) + ".jsonl"), n, submitted);
  }

  /**
   * An ElasticAM run's event log, read as a launch measurement.
   *
   * @param submittedMs when the client was started (the same clock as the AM's on one machine)
   */
  private record Ours(Path log, int n, long submittedMs) implements Run {
    List<JsonNode> events() throws Exception {
      List<JsonNode> out = new ArrayList<>();
      for (String line : Files.readAllLines(log)) {
        out.add(JSON.readTree(line));
      }
      return out;
    }

    @Override
    public Measured run() throws Exception {
      List<JsonNode> e = events();
      long registered = last(e, Event.AM_REGISTERED).path(TS).asLong();
      List<JsonNode> regs = e.stream().filter(x -> x.path(EVENT).asText().equals(Event.EXECUTOR_REGISTERED.wireName()))
          .sorted(java.util.Comparator.comparingLong(x -> x.path(TS).asLong())).toList();
      if (regs.size() < n) {
        throw new IllegalStateException("only " + regs.size() + " of " + n + " executors registered in " + log);
      }
      List<Long> cpu = regs.stream().map(x -> x.path(START).path("register_sent").path("cpu_ms").asLong()).toList();
      JsonNode amStart = last(e, Event.AM_REGISTERED).path(START);
      String archive = String.join(",", regs.stream().map(x -> x.path(START).path("archive").asText()).toList())
          + ",AM " + amStart.path("archive").asText();
      return new Measured(regs.get(0).path(TS).asLong() - registered,
          regs.get(n - 1).path(TS).asLong() - registered, median(cpu), archive, registered - submittedMs,
          registered - amStart.path("jvm_start_ts").asLong(), amStart.path("registered").path("cpu_ms").asLong());
    }
  }

  private static JsonNode last(List<JsonNode> events, Event type) {
    JsonNode found = null;
    for (JsonNode e : events) {
      if (e.path(EVENT).asText().equals(type.wireName())) {
        found = e;
      }
    }
    if (found == null) {
      throw new IllegalStateException("no " + type + " event");
    }
    return found;
  }

  private static Path appJar() throws Exception {
    try (DirectoryStream<Path> d = Files.newDirectoryStream(Path.of("..", "am", "target"), "elasticam-*.jar")) {
      for (Path p : d) {
        if (!p.getFileName().toString().startsWith("elasticam-am-")) {
          return p.toAbsolutePath();
        }
      }
    }
    throw new IllegalStateException("build am first");
  }
}
