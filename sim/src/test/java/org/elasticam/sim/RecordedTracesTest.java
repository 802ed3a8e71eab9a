package org.elasticam.sim;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.elasticam.allocator.dynamic.AllocationPolicies;
import org.elasticam.workload.Replay;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** Every recorded trace in ../shared/eventlogs (or, without it, three bundled ones) replays to its end. */
class RecordedTracesTest {

  static List<Path> traces() {
    return Traces.recorded();
  }

  @Test
  void theTracesArePresent() {
    Assumptions.assumeTrue(java.nio.file.Files.isDirectory(Traces.EVENTLOGS),
        "no shared traces at " + Traces.EVENTLOGS.toAbsolutePath() + "; the bundled ones run instead");
    assertEquals(16, traces().size());
  }

  @ParameterizedTest
  @MethodSource("traces")
  void sparkRunsEveryTaskToItsEnd(Path trace) {
    SimConfig config = Traces.config();
    Traces.Logged run = Traces.run(trace, "spark", config);
    int expected = Replay.plan(Traces.read(trace), 1.0, config.params().hostNames()).totalTasks();
    List<JsonNode> ends = run.named("task_end");
    Set<String> done = new HashSet<>();
    for (JsonNode e : ends) {
      assertEquals("SUCCESS", e.get("status").asText());
      done.add(e.get("stage_id").asInt() + "/" + e.get("task").asInt());
    }
    assertEquals(expected, done.size(), "distinct tasks done");
    assertEquals(expected, ends.size(), "each task ran once");
    SimResult r = run.result();
    assertEquals(Traces.Logged.at(ends.get(ends.size() - 1)), r.makespanMs(), "makespan = the last task's end");
    assertEquals("SUCCEEDED", run.named("app_end").get(0).get("final_status").asText());
    assertTrue(r.peakExecutors() <= config.params().capacity());
  }

  @ParameterizedTest
  @MethodSource("traces")
  void noPolicyBeatsTheOracle(Path trace) {
    SimConfig config = Traces.config();
    SimResult oracle = Oracle.run(Traces.read(trace), "t", config);
    for (String policy : AllocationPolicies.NAMES) {
      SimResult r = PolicyRun.run(Traces.read(trace), "t", policy, config, null);
      assertTrue(oracle.executorMs() <= r.executorMs(), policy + ": " + r + " vs oracle " + oracle);
      assertTrue(oracle.makespanMs() <= r.makespanMs(), policy + ": " + r + " vs oracle " + oracle);
    }
  }
}
