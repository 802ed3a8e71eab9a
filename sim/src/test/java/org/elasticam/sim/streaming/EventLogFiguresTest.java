package org.elasticam.sim.streaming;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.elasticam.allocator.streaming.BatchStats;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class EventLogFiguresTest {

  @TempDir
  Path dir;

  /** Three 1 s batches from a stream that started at ts 10,000: the second ran late. */
  private Path log() throws Exception {
    Path f = dir.resolve("app.jsonl");
    Files.writeString(f, String.join("\n",
        "{\"ts\":10000,\"event\":\"app_start\"}",
        "{\"ts\":10001,\"event\":\"target_changed\",\"target\":2,\"previous\":0,\"policy\":\"model\"}",
        "{\"ts\":10500,\"event\":\"executor_launched\",\"executor_id\":\"1\"}",
        "{\"ts\":11800,\"event\":\"batch_completed\",\"batch\":0,\"processing_ms\":800,\"scheduling_delay_ms\":0,"
            + "\"duration_ms\":1000,\"records\":10,\"executors\":2}",
        "{\"ts\":13300,\"event\":\"batch_completed\",\"batch\":1,\"processing_ms\":1300,\"scheduling_delay_ms\":0,"
            + "\"duration_ms\":1000,\"records\":30,\"executors\":2}",
        "{\"ts\":13302,\"event\":\"target_changed\",\"target\":4,\"previous\":2,\"policy\":\"model\"}",
        "{\"ts\":14100,\"event\":\"batch_completed\",\"batch\":2,\"processing_ms\":800,\"scheduling_delay_ms\":300,"
            + "\"duration_ms\":1000,\"records\":30,\"executors\":4}",
        "{\"ts\":14200,\"event\":\"app_end\",\"executor_seconds\":9.5}") + "\n");
    return f;
  }

  @Test
  void aRealRunReadsBackInTheSimulatorsTerms() throws Exception {
    EventLogRun.Read r = EventLogRun.read(log());
    assertEquals(1000, r.batchMs());
    assertEquals("model", r.result().policy());
    assertEquals(1, r.result().targetChanges());
    assertEquals(9500, r.result().executorMs());
    assertEquals(4, r.result().peakExecutors());
    BatchStats b2 = r.result().batches().get(2);
    // batch 0 was due at 11,000 = stream start 10,000 + 1 interval; times are relative to the start
    assertEquals(3000, b2.batchTimeMs());
    assertEquals(300, b2.schedulingDelayMs());
    assertEquals(800, b2.processingMs());
  }

  @Test
  void printsTheSameTableAsASimulation() throws Exception {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    int code = EventLogFigures.run(new String[] {"--streaming", "--eventlog", log().toString(), "--rate",
        "step:10@0,30@1s"}, new PrintStream(out, true, StandardCharsets.UTF_8));
    assertEquals(0, code);
    String table = out.toString(StandardCharsets.UTF_8);
    assertTrue(table.lines().anyMatch(l -> l.startsWith("model ")), table);
  }

  @Test
  void badInputIsOneLine() throws Exception {
    Path notJson = dir.resolve("x.jsonl");
    Files.writeString(notJson, "hello\n");
    assertEquals(notJson + " line 1 is not JSON: not an ElasticAM event log",
        assertThrows(StreamingArgs.UsageException.class, () -> EventLogRun.read(notJson)).getMessage());
    Path batchJob = dir.resolve("b.jsonl");
    Files.writeString(batchJob, "{\"ts\":1,\"event\":\"app_start\"}\n");
    assertEquals(batchJob + " has no batch_completed events: not a streaming run",
        assertThrows(StreamingArgs.UsageException.class, () -> EventLogRun.read(batchJob)).getMessage());
    assertEquals("--eventlog needs --rate PROFILE, the profile the runs were given",
        assertThrows(StreamingArgs.UsageException.class,
            () -> EventLogFigures.run(new String[] {"--eventlog", log().toString()}, System.out)).getMessage());
    assertEquals("--batch-ms does not go with --eventlog (see --streaming --help)",
        assertThrows(StreamingArgs.UsageException.class, () -> EventLogFigures.run(
            new String[] {"--eventlog", log().toString(), "--batch-ms", "3"}, System.out)).getMessage());
  }
}
