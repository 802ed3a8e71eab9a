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

/**
 * Every recorded trace in ../shared/eventlogs replays to its end, and no policy beats the oracle on
 * it. Without that directory only the three bundled copies run, and {@link #theSharedTracesArePresent}
 * is skipped naming what was not checked — or fails, where CI says the traces must be there.
 */
class RecordedTracesTest {

  static List<Path> traces() {
    return Traces.recorded();
  }

  @Test
  void theSharedTracesArePresent() {
    if (!java.nio.file.Files.isDirectory(Traces.EVENTLOGS)) {
      String notChecked = "NOT CHECKED: the 16 recorded traces of " + Traces.EVENTLOGS.toAbsolutePath().normalize()
          + ", missing: that the spark policy runs every task of each to its end and that no policy beats the"
          + " oracle on it; only the bundled copies of 3 of them ran: " + Traces.list(Traces.BUNDLED).stream()
          .map(p -> p.getFileName().toString()).toList();
      if (Traces.sharedRequired()) {
        org.junit.jupiter.api.Assertions.fail(notChecked + " (ELASTICAM_SHARED_TRACES=required)");
      }
      Assumptions.abort(notChecked);
    }
    assertEquals(16, traces().size(), "the shared traces: " + traces());
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
