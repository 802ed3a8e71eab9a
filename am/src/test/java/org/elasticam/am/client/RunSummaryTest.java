package org.elasticam.am.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The end-of-run summary's figures, read back from an event log. */
class RunSummaryTest {

  @TempDir
  java.nio.file.Path dir;

  @Test
  void countersAreSummedOverStagesEachAsItsLastCompletionReportedThem() throws Exception {
    java.nio.file.Path log = Files.write(dir.resolve("app.jsonl"), List.of(
        "{\"ts\":1,\"event\":\"executor_registered\",\"executor_id\":\"1\"}",
        "{\"ts\":2,\"event\":\"task_end\",\"status\":\"SUCCESS\"}",
        "{\"ts\":3,\"event\":\"stage_completed\",\"stage_id\":0,\"counters\":{\"input.records\":10,\"words\":4}}",
        "{\"ts\":4,\"event\":\"task_end\",\"status\":\"FAILED\"}",
        // Stage 0 ran again after its output was lost: its second completion reports all of it.
        "{\"ts\":5,\"event\":\"stage_completed\",\"stage_id\":0,\"counters\":{\"input.records\":12,\"words\":5}}",
        "{\"ts\":6,\"event\":\"stage_completed\",\"stage_id\":1,\"counters\":{\"words\":1,\"output.records\":3}}",
        "{\"ts\":7,\"event\":\"stage_completed\",\"stage_id\":2}",
        "{\"ts\":8,\"event\":\"app_end\",\"executor_seconds\":2.5}"));
    RunSummary s = RunSummary.read(new Configuration(), new Path(log.toUri()));
    assertEquals(new TreeMap<>(Map.of("input.records", 12L, "words", 6L, "output.records", 3L)), s.counters());
    assertEquals(1, s.tasksSucceeded());
    assertEquals(2, s.taskAttempts());
    assertEquals(1, s.executorsUsed());
    assertTrue(s.complete());
  }

  @Test
  void aRunWithoutCountersHasNone() throws Exception {
    java.nio.file.Path log = Files.write(dir.resolve("app.jsonl"), List.of(
        "{\"ts\":1,\"event\":\"stage_completed\",\"stage_id\":0}"));
    assertTrue(RunSummary.read(new Configuration(), new Path(log.toUri())).counters().isEmpty());
  }
}
