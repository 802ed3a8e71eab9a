package org.elasticam.sim;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.elasticam.allocator.dynamic.AllocationPolicies;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The same inputs give byte-identical outputs: figures, event logs, CSVs and charts. */
class DeterminismTest {

  @TempDir
  Path dir;

  private Path trace() {
    Path recorded = Traces.EVENTLOGS.resolve("groupon_semfeed_yarn_da.trace.jsonl");
    return Files.exists(recorded) ? recorded : Traces.write(dir, "local", Traces.localJob(9, 60));
  }

  @Test
  void twoRunsWriteTheSameBytes() throws IOException {
    Path trace = trace();
    String first = run(trace, dir.resolve("a"));
    String second = run(trace, dir.resolve("b"));
    assertEquals(first, second);
    // the policies, the oracle and its start-aware bound
    assertEquals(AllocationPolicies.NAMES.size() + 2, first.lines().count(), first);
    List<Path> files = list(dir.resolve("a"));
    assertFalse(files.isEmpty());
    for (Path f : files) {
      assertArrayEquals(Files.readAllBytes(f), Files.readAllBytes(dir.resolve("b").resolve(f.getFileName())),
          f.getFileName().toString());
    }
  }

  /**
   * Another JVM hashes {@code Map.of} collections with another seed: a separate process must give
   * the same figures, so no such iteration order may reach a decision.
   */
  @Test
  void aSeparateJvmGivesTheSameFigures() throws Exception {
    Path trace = Traces.write(dir, "local", Traces.localJob(9, 60));
    String here = run(trace, null);
    String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
    List<String> cmd = new ArrayList<>(List.of(java, "-cp", System.getProperty("java.class.path"),
        SimulateMain.class.getName(), "--trace", trace.toString(), "--json", "--policy", "all"));
    Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
    String there = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertEquals(0, p.waitFor(), there);
    assertEquals(here, there);
  }

  private static String run(Path trace, Path out) {
    ByteArrayOutputStream stdout = new ByteArrayOutputStream();
    ByteArrayOutputStream stderr = new ByteArrayOutputStream();
    List<String> args = new ArrayList<>(List.of("--trace", trace.toString(), "--json", "--policy", "all"));
    if (out != null) {
      args.addAll(List.of("--out", out.toString()));
    }
    int code = SimulateMain.run(args.toArray(String[]::new), new PrintStream(stdout, true, StandardCharsets.UTF_8),
        new PrintStream(stderr, true, StandardCharsets.UTF_8));
    assertEquals(0, code, stderr.toString(StandardCharsets.UTF_8));
    return stdout.toString(StandardCharsets.UTF_8);
  }

  private static List<Path> list(Path d) throws IOException {
    try (Stream<Path> s = Files.list(d)) {
      return s.sorted().toList();
    }
  }
}
