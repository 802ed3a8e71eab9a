package org.elasticam.workload;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.PriorityQueue;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every trace shipped in the shared eventlogs directory reads and replays to the end, with
 * unlimited executors: every task of a stage runs at once, so a stage completes at its
 * submission plus its longest task.
 */
class RealTracesTest {

  private static final Path EVENTLOGS = Path.of("../../shared/eventlogs");

  static Stream<Path> traces() throws IOException {
    if (!Files.isDirectory(EVENTLOGS) && "required".equals(System.getenv("ELASTICAM_SHARED_TRACES"))) {
      throw new AssertionError("no shared eventlogs directory at " + EVENTLOGS.toAbsolutePath().normalize()
          + " (ELASTICAM_SHARED_TRACES=required)");
    }
    assumeTrue(Files.isDirectory(EVENTLOGS), "NOT CHECKED: no shared eventlogs directory at "
        + EVENTLOGS.toAbsolutePath().normalize() + ": no recorded trace was read and replayed");
    List<Path> files;
    try (Stream<Path> listing = Files.list(EVENTLOGS)) {
      files = listing.filter(p -> p.getFileName().toString().endsWith(".trace.jsonl"))
          .sorted().toList();
    }
    assumeTrue(!files.isEmpty(), "no trace in " + EVENTLOGS);
    return files.stream();
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("traces")
  void replaysToTheEnd(Path file) throws Exception {
    Trace trace = Trace.read(file);
    Replay replay = Replay.plan(trace, 1, List.of("n1", "n2", "n3"));

    Map<Integer, Integer> timesSubmitted = runWithUnlimitedExecutors(replay);

    assertTrue(replay.finished());
    Set<Integer> stageIds = new HashSet<>();
    trace.stageAttempts().forEach(s -> stageIds.add(s.stageId()));
    assertEquals(stageIds, timesSubmitted.keySet(), "every stage submitted");
    timesSubmitted.forEach((stage, times) -> assertEquals(1, times, "stage " + stage));
    assertEquals(distinctTaskIndices(trace), replay.totalTasks());
  }

  private static Map<Integer, Integer> runWithUnlimitedExecutors(Replay replay) {
    record Completion(int stageId, long atMs) {}
    PriorityQueue<Completion> running = new PriorityQueue<>(
        Comparator.comparingLong(Completion::atMs).thenComparingInt(Completion::stageId));
    Map<Integer, Integer> timesSubmitted = new HashMap<>();
    List<Submission> submitted = new ArrayList<>(replay.start(0));
    while (!submitted.isEmpty() || !running.isEmpty()) {
      for (Submission s : submitted) {
        timesSubmitted.merge(s.stageId(), 1, Integer::sum);
        running.add(new Completion(s.stageId(), s.atMs() + replay.stage(s.stageId()).longestTaskMs()));
      }
      assertFalse(replay.finished());
      Completion next = running.poll();
      submitted = new ArrayList<>(replay.stageCompleted(next.stageId(), next.atMs()));
      submitted.forEach(s -> assertTrue(s.atMs() >= next.atMs(), s + " before " + next));
    }
    return timesSubmitted;
  }

  private static int distinctTaskIndices(Trace trace) {
    Set<List<Integer>> pairs = new HashSet<>();
    for (TraceStage stage : trace.stageAttempts()) {
      stage.tasks().forEach(t -> pairs.add(List.of(stage.stageId(), t.index())));
    }
    return pairs.size();
  }
}
