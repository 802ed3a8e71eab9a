package org.elasticam.it;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Production code reads time only through {@code org.elasticam.time.Clock} and waits only through
 * a {@code Scheduler} (the AM's event loop, or a manual one in tests and the simulator) or
 * {@code Clock.sleep}: so every decision is a function of the time it is given, and a test can
 * move time instead of waiting for it. The places below read the machine's time for what is not
 * a decision, each for the reason given.
 */
class TimeSeamTest {

  private static final Path ROOT = Path.of("..").toAbsolutePath().normalize();

  private static final Pattern WALL_CLOCK = Pattern.compile(
      "\\bThread\\.sleep\\(|\\bSystem\\.currentTimeMillis\\(|\\bSystem\\.nanoTime\\(|\\bInstant\\.now\\(|"
          + "\\bLocalDateTime\\.now\\(|\\bnew Date\\(\\)|\\bTimeUnit\\.[A-Z]+\\.sleep\\(");

  /** Modules whose code is not the product: tools that measure or drive it. */
  private static final List<String> NOT_PRODUCT = List.of("bench", "embedded", "src-it", "testkit");

  /** Files that read the machine's time for something other than a decision, and why. */
  private static final Map<String, String> EXEMPT = Map.of(
      "conf/src/main/java/org/elasticam/time/SystemClock.java", "the seam itself",
      "conf/src/main/java/org/elasticam/time/Clock.java", "the seam itself (Clock.sleep)",
      "executor/src/main/java/org/elasticam/executor/tasks/SleepTask.java", "the work of a task: sleeping is what it runs",
      "executor/src/main/java/org/elasticam/executor/tasks/CpuTask.java", "the work of a task: it burns CPU for its duration",
      "executor/src/main/java/org/elasticam/executor/ExecutorMain.java",
          "measures the JVM's own start-up steps (CPU and uptime), a report, not a decision",
      "sim/src/main/java/org/elasticam/sim/SimAllocator.java",
          "measures the simulator's own computing time per allocation cycle, a benchmark figure");

  @Test
  void productionCodeReadsTimeOnlyThroughTheClock() throws IOException {
    List<String> found = new ArrayList<>();
    try (Stream<Path> files = Files.walk(ROOT)) {
      for (Path f : files.filter(p -> p.toString().endsWith(".java") && p.toString().contains("/src/main/java/"))
          .sorted().toList()) {
        String rel = ROOT.relativize(f).toString();
        if (rel.contains("/target/") || NOT_PRODUCT.stream().anyMatch(m -> rel.startsWith(m + "/"))
            || EXEMPT.containsKey(rel)) {
          continue;
        }
        Matcher m = WALL_CLOCK.matcher(ModuleGraphTest.code(Files.readString(f)));
        while (m.find()) {
          found.add(rel + ": " + m.group());
        }
      }
    }
    assertEquals(List.of(), found, "read the time through Clock, wait through a Scheduler or Clock.sleep");
  }

  @Test
  void everyExemptionStillNeedsIt() throws IOException {
    List<String> stale = new ArrayList<>();
    for (String rel : EXEMPT.keySet()) {
      Path f = ROOT.resolve(rel);
      if (!Files.exists(f) || !WALL_CLOCK.matcher(ModuleGraphTest.code(Files.readString(f))).find()) {
        stale.add(rel);
      }
    }
    assertEquals(List.of(), stale, "exemptions for files that no longer read the machine's time");
  }
}
