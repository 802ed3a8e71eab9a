package org.elasticam.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.apache.hadoop.yarn.api.records.ApplicationId;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The example jobs, submitted as a user submits them (the examples' jar with --jar and --class),
 * with static executors and with dynamic allocation: each output checked against an independent
 * computation of the same input, committed whole (its parts and _SUCCESS, nothing else), and the
 * stages' counters in the event log agreeing with the input. Relative paths are given on purpose:
 * they must mean the client's working directory in the AM and the executors too. And the output
 * contract: an existing output refused before anything runs, a failed job's output removed.
 */
@Timeout(600)
class ExamplesIT {

  private static final Path ROOT = Path.of("target", "examples-it");
  private static ItCluster it;

  @BeforeAll
  static void start() throws Exception {
    it = ItCluster.start("examples", s -> s.withNodeManagers(2));
  }

  @AfterAll
  static void stop() {
    if (it != null) {
      it.close();
    }
  }

  static Path examplesJar() throws IOException {
    try (DirectoryStream<Path> d = Files.newDirectoryStream(Path.of("..", "examples", "target"),
        "elasticam-examples-*.jar")) {
      for (Path p : d) {
        if (!p.getFileName().toString().endsWith("-sources.jar")) {
          return p.toAbsolutePath();
        }
      }
    }
    throw new IllegalStateException("the examples' jar is missing from examples/target; build with `mvn verify`");
  }

  private static List<String> allocation(String mode) {
    return mode.equals("static")
        ? List.of("--conf", "elasticam.executor.instances=2")
        : List.of("--conf", "elasticam.dynamicAllocation.enabled=true", "--conf",
            "elasticam.dynamicAllocation.maxExecutors=3");
  }

  private static ItCluster.ClientRun submit(String mode, String exampleClass, String... args) throws IOException {
    return submit(mode, List.of(), exampleClass, args);
  }

  private static ItCluster.ClientRun submit(String mode, List<String> options, String exampleClass, String... args)
      throws IOException {
    List<String> all = new ArrayList<>(List.of("submit", "--conf", "elasticam.executor.memory=256m"));
    all.addAll(allocation(mode));
    all.addAll(options);
    all.addAll(List.of("--jar", examplesJar().toString(), "--class", "org.elasticam.examples." + exampleClass));
    all.addAll(List.of(args));
    return it.client(all.toArray(new String[0]));
  }

  /** A fresh directory under target/, and its path relative to the working directory. */
  private static Path fresh(String name) throws IOException {
    Path dir = ROOT.resolve(name);
    if (Files.exists(dir)) {
      try (Stream<Path> s = Files.walk(dir)) {
        s.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
      }
    }
    return Files.createDirectories(dir);
  }

  @ParameterizedTest
  @ValueSource(strings = {"static", "dynamic"})
  void groupBySumIsExact(String mode) throws Exception {
    Path in = fresh("sum-in-" + mode);
    Random r = new Random(7);
    Map<String, Long> expected = new TreeMap<>();
    int lines = 0;
    for (int f = 0; f < 3; f++) {
      StringBuilder csv = new StringBuilder();
      for (int i = 0; i < 4_000; i++) {
        String key = "k" + r.nextInt(300) + (r.nextInt(20) == 0 ? "é" : "");
        long amount = r.nextInt(2_001) - 1_000;
        csv.append(key).append(',').append(amount).append('\n');
        expected.merge(key, amount, Long::sum);
        lines++;
      }
      Files.writeString(in.resolve("part-" + f + ".csv"), csv, StandardCharsets.UTF_8);
    }
    Path out = ROOT.resolve("sum-out-" + mode);
    fresh("sum-out-" + mode).toFile().delete();

    ItCluster.ClientRun run = submit(mode, "GroupBySum", out.toString(), in.toString());
    assertEquals(0, run.exitCode(), run.out() + run.err());
    quietEnd(run.appId());

    Map<String, Long> got = new TreeMap<>();
    for (List<String> part : committedParts(out)) {
      List<byte[]> keys = new ArrayList<>();
      for (String line : part) {
        int comma = line.lastIndexOf(',');
        String key = line.substring(0, comma);
        keys.add(key.getBytes(StandardCharsets.UTF_8));
        assertEquals(null, got.put(key, Long.parseLong(line.substring(comma + 1))), key + " in one line of one part");
      }
      assertInByteOrder(keys);
    }
    assertEquals(expected, got);
    List<JsonNode> events = it.events(run.appId());
    assertEquals(lines, stageCounter(events, "parse", "input.records"));
    assertEquals(lines, stageCounter(events, "parse", "shuffle.records.written"));
    assertEquals(expected.size(), stageCounter(events, "sum", "output.records"));
    long partBytes = 0;
    try (Stream<Path> parts = Files.list(out)) {
      for (Path p : parts.filter(p -> p.getFileName().toString().startsWith("part-")).toList()) {
        partBytes += Files.size(p);
      }
    }
    assertEquals(partBytes, stageCounter(events, "sum", "output.bytes"));
    long inputBytes = 0;
    try (Stream<Path> files = Files.list(in)) {
      for (Path f : files.toList()) {
        inputBytes += Files.size(f);
      }
    }
    assertEquals(inputBytes, stageCounter(events, "parse", "input.bytes"));
  }

  @ParameterizedTest
  @ValueSource(strings = {"static", "dynamic"})
  void joinIsExact(String mode) throws Exception {
    Path left = fresh("join-left-" + mode);
    Path right = fresh("join-right-" + mode);
    Random r = new Random(11);
    List<String[]> ls = new ArrayList<>();
    List<String[]> rs = new ArrayList<>();
    StringBuilder l = new StringBuilder();
    StringBuilder rr = new StringBuilder();
    for (int i = 0; i < 3_000; i++) {
      String[] a = {"u" + r.nextInt(1_000), "name" + i};
      ls.add(a);
      l.append(a[0]).append(',').append(a[1]).append('\n');
    }
    for (int i = 0; i < 2_000; i++) {
      String[] b = {"u" + (500 + r.nextInt(1_000)), "order" + i + ",qty=" + r.nextInt(9)};
      rs.add(b);
      rr.append(b[0]).append(',').append(b[1]).append('\n');
    }
    Files.writeString(left.resolve("users.csv"), l);
    Files.writeString(right.resolve("orders.csv"), rr);
    List<String> expected = new ArrayList<>();
    for (String[] a : ls) {
      for (String[] b : rs) {
        if (a[0].equals(b[0])) {
          expected.add(a[0] + "," + a[1] + "," + b[1]);
        }
      }
    }
    expected.sort(null);
    Path out = ROOT.resolve("join-out-" + mode);
    fresh("join-out-" + mode).toFile().delete();

    ItCluster.ClientRun run = submit(mode, "Join", out.toString(), left.toString(), right.toString());
    assertEquals(0, run.exitCode(), run.out() + run.err());
    quietEnd(run.appId());

    List<String> got = new ArrayList<>();
    committedParts(out).forEach(got::addAll);
    got.sort(null);
    assertFalse(expected.isEmpty());
    assertEquals(expected, got);
  }

  @ParameterizedTest
  @ValueSource(strings = {"static", "dynamic"})
  void totalSortOrdersEveryLineAcrossTheParts(String mode) throws Exception {
    Path in = fresh("sort-in-" + mode);
    Random r = new Random(13);
    List<byte[]> lines = new ArrayList<>();
    for (int f = 0; f < 3; f++) {
      StringBuilder text = new StringBuilder();
      for (int i = 0; i < 5_000; i++) {
        // Repeats, a shared prefix, and characters beyond ASCII, whose order is their UTF-8 bytes'.
        String line = (r.nextInt(4) == 0 ? "same prefix " : "") + Long.toString(r.nextInt(20_000), 36)
            + (r.nextInt(30) == 0 ? "ü" : "") + (r.nextInt(50) == 0 ? "\uD83D\uDE00" : "");
        text.append(line).append('\n');
        lines.add(line.getBytes(StandardCharsets.UTF_8));
      }
      Files.writeString(in.resolve("f" + f + ".txt"), text, StandardCharsets.UTF_8);
    }
    lines.sort(Arrays::compareUnsigned);
    Path out = ROOT.resolve("sort-out-" + mode);
    fresh("sort-out-" + mode).toFile().delete();

    ItCluster.ClientRun run = submit(mode, "TotalSort", out.toString(), in.toString(), "4");
    assertEquals(0, run.exitCode(), run.out() + run.err());
    quietEnd(run.appId());

    List<List<String>> parts = committedParts(out);
    assertEquals(4, parts.size());
    List<byte[]> got = new ArrayList<>();
    for (List<String> part : parts) {
      assertTrue(part.size() > 1_000, "the sample cut even ranges: " + part.size() + " lines in a part");
      part.forEach(line -> got.add(line.getBytes(StandardCharsets.UTF_8)));
    }
    assertEquals(lines.size(), got.size());
    for (int i = 0; i < lines.size(); i++) {
      assertTrue(Arrays.equals(lines.get(i), got.get(i)), "line " + i + " of the sorted input");
    }
  }

  @Test
  void anExistingOutputIsRefusedBeforeAnythingRuns() throws Exception {
    Path in = fresh("refused-in");
    Files.writeString(in.resolve("a.csv"), "a,1\n");
    Path out = fresh("refused-out");
    Files.writeString(out.resolve("keep.txt"), "precious");
    ItCluster.ClientRun run = submit("static", "GroupBySum", out.toString(), in.toString());
    assertNotEquals(0, run.exitCode());
    String[] errLines = run.err().strip().split("\n");
    assertEquals(1, errLines.length, run.err());
    assertTrue(errLines[0].contains("the output file:") && errLines[0].contains("exists already"), run.err());
    assertFalse(run.out().contains("Submitted"), run.out());
    assertEquals("precious", Files.readString(out.resolve("keep.txt")));
  }

  /**
   * A job whose output stage has one task that commits its file and one that then fails: the
   * committed file must not outlive the job.
   */
  @Test
  void aFailedJobRemovesItsOutput() throws Exception {
    Path out = ROOT.resolve("failing-out").toAbsolutePath();
    fresh("failing-out").toFile().delete();
    Path jar = UserJobJar.build(ROOT.resolve("failing-job"), "failing.jar", Map.of("HalfFails", String.join("\n",
        "package it.user;",
        "import java.nio.file.*;",
        "import java.util.*;",
        "import org.elasticam.api.*;",
        "public class HalfFails implements Job {",
        "  public List<Stage> stages(String[] args) {",
        "    return List.of(Stage.builder(0, \"write\", Write.class).tasks(2).writesOutput(args[0]).build());",
        "  }",
        "  public static class Write implements Task {",
        "    public void run(TaskContext ctx) throws Exception {",
        "      if (ctx.partition() == 1) {",
        "        // Fails once task 0 has committed (its attempt's directory is in the task's):",
        "        // its files are in the output when the job fails.",
        "        Path committed = Paths.get(java.net.URI.create(ctx.attemptOutputDir())).resolveSibling(\"task-0-0\");",
        "        for (int i = 0; i < 600 && !(Files.isDirectory(committed) && committed.toFile().list().length > 0);",
        "            i++) {",
        "          java.util.concurrent.locks.LockSupport.parkNanos(100_000_000L);",
        "        }",
        "        throw new IllegalStateException(\"task 1 fails, on purpose\");",
        "      }",
        "      Path dir = Files.createDirectories(Paths.get(java.net.URI.create(ctx.attemptOutputDir())));",
        "      Files.writeString(dir.resolve(\"part-0\"), \"written\\n\");",
        "    }",
        "  }",
        "}")));
    ItCluster.ClientRun run = it.client("submit", "--conf", "elasticam.executor.memory=256m",
        "--conf", "elasticam.executor.instances=2", "--conf", "elasticam.task.maxFailures=1",
        "--jar", jar.toString(), "--class", "it.user.HalfFails", out.toString());
    assertNotEquals(0, run.exitCode(), run.out());
    List<JsonNode> ends = ItCluster.ofType(it.events(run.appId()), "task_end");
    assertTrue(ends.stream().anyMatch(e -> e.path("task").asInt() == 0 && e.path("status").asText().equals("SUCCESS")),
        "task 0 committed its file before the job failed: " + ends);
    assertFalse(Files.exists(out), "the failed job's output is gone: " + out);
  }

  /** Each part's lines; the directory holds parts and _SUCCESS only. */
  private static List<List<String>> committedParts(Path out) throws IOException {
    List<List<String>> parts = new ArrayList<>();
    List<String> names;
    try (Stream<Path> s = Files.list(out)) {
      names = s.map(p -> p.getFileName().toString()).filter(n -> !n.endsWith(".crc")).sorted().toList();
    }
    assertTrue(names.contains("_SUCCESS"), "committed: " + names);
    for (String n : names) {
      if (!n.equals("_SUCCESS")) {
        assertTrue(n.matches("part-\\d{5}"), "only parts and _SUCCESS in the output: " + names);
        parts.add(Files.readAllLines(out.resolve(n), StandardCharsets.UTF_8));
      }
    }
    return parts;
  }

  /**
   * A job that succeeded leaves no warning about deleting its shuffles: the last stage's shuffle,
   * whose removal races with the executors' release, is left to the application's end quietly.
   */
  private static void quietEnd(ApplicationId id) throws IOException {
    int read = 0;
    for (Path f : it.appLogFiles(id)) {
      if (f.getFileName().toString().equals("am.log")) {
        List<String> warned = Files.readAllLines(f).stream()
            .filter(l -> l.contains(" WARN ") && l.contains("ServiceShuffleCleaner")).toList();
        assertTrue(warned.isEmpty(), String.join("\n", warned));
        read++;
      }
    }
    assertEquals(1, read, "the AM's log of " + id);
  }

  private static void assertInByteOrder(List<byte[]> keys) {
    for (int i = 1; i < keys.size(); i++) {
      assertTrue(Arrays.compareUnsigned(keys.get(i - 1), keys.get(i)) < 0,
          new String(keys.get(i), StandardCharsets.UTF_8) + " after " + new String(keys.get(i - 1), StandardCharsets.UTF_8));
    }
  }

  /** A counter of the last stage_completed of the stage named {@code stage}. */
  private static long stageCounter(List<JsonNode> events, String stage, String counter) {
    Map<Integer, String> names = new TreeMap<>();
    for (JsonNode e : ItCluster.ofType(events, "stage_submitted")) {
      names.put(e.path("stage_id").asInt(), e.path("name").asText());
    }
    long value = -1;
    for (JsonNode e : ItCluster.ofType(events, "stage_completed")) {
      if (stage.equals(names.get(e.path("stage_id").asInt()))) {
        value = e.path("counters").path(counter).asLong(-1);
      }
    }
    return value;
  }
}
