package org.elasticam.bench.launch;

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

/**
 * How long from the AM's registration until its first and its last executor registered, for N = 4
 * and 16 (medians of 5 runs), beside the bare-YARN floor measured the same way on the same cluster
 * in the same run; and the AM's live heap after 16 executors ran 10,000 tasks. Not a test: run by
 * hand (see BENCHMARKS.md), never in CI.
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
      System.out.println("| N | variant | first registered, median ms | all registered, median ms | runs (first/all) |");
      System.out.println("|---:|---|---:|---:|---|");
      for (int n : new int[] {4, 16}) {
        report(n, "bare YARN, shell container", runs, () -> FloorAm.run(c.configuration(), n, false, selfCp));
        report(n, "bare YARN, minimal Java main", runs, () -> FloorAm.run(c.configuration(), n, true, selfCp));
        // Tasks long enough that every executor registers before the work runs out.
        report(n, "ElasticAM executors", runs, () -> ours(c, work, n, n, 20_000).run());
      }
      JsonNode end = last(ours(c, work, 16, 10_000, 0).events(), "app_end");
      System.out.println();
      System.out.println("AM live heap after 16 executors ran 10,000 tasks: " + end.path("am_heap_mb").asLong() + " MiB");
    }
  }

  private interface Run {
    FloorAm.Result run() throws Exception;
  }

  private static void report(int n, String variant, int runs, Run r) throws Exception {
    List<Long> first = new ArrayList<>();
    List<Long> all = new ArrayList<>();
    for (int i = 0; i < runs; i++) {
      FloorAm.Result res = r.run();
      first.add(res.firstMs());
      all.add(res.allMs());
    }
    System.out.printf("| %d | %s | %d | %d | %s / %s |%n", n, variant, median(first), median(all), first, all);
  }

  private static long median(List<Long> xs) {
    List<Long> s = new ArrayList<>(xs);
    s.sort(null);
    return s.get(s.size() / 2);
  }

  /** One ElasticAM sleep job of {@code tasks} tasks on {@code n} static executors. */
  private static Ours ours(EmbeddedCluster c, Path work, int n, int tasks, int taskMs) throws Exception {
    Path events = work.resolve("events");
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    int code = new ElasticamCli(c.configuration(), new PrintStream(out, true, StandardCharsets.UTF_8), System.err,
        appJar()).run(new String[] {"submit", "--conf", "elasticam.eventLog.dir=" + events.toUri(),
            "--conf", "elasticam.executor.instances=" + n, "--conf", "elasticam.executor.memory=256m",
            "sleep", "--stages", "1", "--tasks", String.valueOf(tasks), "--task-ms", String.valueOf(taskMs)});
    String text = out.toString(StandardCharsets.UTF_8);
    if (code != 0) {
      throw new IllegalStateException("the job failed:\n" + text);
    }
    Matcher m = Pattern.compile("(application_\\d+_\\d+)").matcher(text);
    m.find();
    return new Ours(events.resolve(m.group(1) + ".jsonl"), n);
  }

  /** An ElasticAM run's event log, read as a launch measurement. */
  private record Ours(Path log, int n) implements Run {
    List<JsonNode> events() throws Exception {
      List<JsonNode> out = new ArrayList<>();
      for (String line : Files.readAllLines(log)) {
        out.add(JSON.readTree(line));
      }
      return out;
    }

    @Override
    public FloorAm.Result run() throws Exception {
      List<JsonNode> e = events();
      long registered = last(e, "am_registered").path("ts").asLong();
      List<Long> execs = e.stream().filter(x -> x.path("event").asText().equals("executor_registered"))
          .map(x -> x.path("ts").asLong()).sorted().toList();
      if (execs.size() < n) {
        throw new IllegalStateException("only " + execs.size() + " of " + n + " executors registered in " + log);
      }
      return new FloorAm.Result(execs.get(0) - registered, execs.get(n - 1) - registered);
    }
  }

  private static JsonNode last(List<JsonNode> events, String type) {
    JsonNode found = null;
    for (JsonNode e : events) {
      if (e.path("event").asText().equals(type)) {
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
