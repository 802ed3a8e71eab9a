package org.elasticam.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Streaming jobs on a real cluster: the default streaming policy follows a tripled input rate —
 * executors are added, and processing comes back under the batch interval — and a batch of tasks
 * that burn CPU runs the same way as the default sleeping work.
 */
@Timeout(300)
class StreamingIT {

  private static final long BATCH_MS = 1500;
  private static final int BATCHES = 40;
  /** The rate triples at the start of this batch's interval. */
  private static final int STEP_BATCH = 12;
  private static ItCluster it;

  @BeforeAll
  static void start() throws Exception {
    it = ItCluster.start("streaming", s -> s.withNodeResources(12288, 16));
  }

  @AfterAll
  static void stop() {
    if (it != null) {
      it.close();
    }
  }

  @Test
  void followsAStepUpInTheInputRate() throws Exception {
    // 20 records/s for 12 batches, then 60/s; 60 ms of work per record: 1.8 s of work per batch
    // before the step, 5.4 s after — more than the interval on anything under 4 executors.
    ItCluster.ClientRun run = it.client("submit",
        "--conf", "elasticam.streaming.dynamicAllocation.enabled=true",
        "--conf", "elasticam.streaming.dynamicAllocation.minExecutors=1",
        "--conf", "elasticam.streaming.dynamicAllocation.maxExecutors=8",
        "--conf", "elasticam.executor.instances=2",
        "--conf", "elasticam.executor.memory=256m",
        "streaming", "--batch-ms", String.valueOf(BATCH_MS), "--batches", String.valueOf(BATCHES),
        "--rate", "step:20@0,60@" + (STEP_BATCH * BATCH_MS) + "ms", "--work-per-record-us", "60000");
    assertEquals(0, run.exitCode(), run.out() + run.err());
    List<JsonNode> batches = ItCluster.ofType(it.events(run.appId()), "batch_completed");
    assertEquals(BATCHES, batches.size(), "one batch_completed per batch");
    for (int i = 0; i < BATCHES; i++) {
      JsonNode b = batches.get(i);
      assertEquals(i, b.path("batch").asInt(), "batches end in order");
      assertEquals(BATCH_MS, b.path("duration_ms").asLong());
    }
    assertEquals(60 * BATCH_MS / 1000, batches.get(BATCHES - 1).path("records").asLong(), "records follow the rate");
    int before = batches.get(STEP_BATCH - 1).path("executors").asInt();
    int after = batches.get(BATCHES - 1).path("executors").asInt();
    assertTrue(after > before, "executors added after the step: " + before + " -> " + after);
    for (JsonNode b : batches.subList(BATCHES - 5, BATCHES)) {
      assertTrue(b.path("processing_ms").asLong() <= BATCH_MS, "processing back under the interval: " + b);
    }
    assertTrue(run.out().contains("batches " + BATCHES + "/" + BATCHES) || run.out().contains("SUCCEEDED"),
        run.out());
  }

  @Test
  void runsBatchesOfCpuWork() throws Exception {
    ItCluster.ClientRun run = it.client("submit",
        "--conf", "elasticam.executor.instances=2",
        "--conf", "elasticam.executor.memory=256m",
        "streaming", "--batch-ms", "1000", "--batches", "5", "--rate", "const:10", "--work", "cpu",
        "--work-per-record-us", "20000", "--partitions", "2");
    assertEquals(0, run.exitCode(), run.out() + run.err());
    List<JsonNode> events = it.events(run.appId());
    List<JsonNode> batches = ItCluster.ofType(events, "batch_completed");
    assertEquals(5, batches.size());
    for (JsonNode b : batches) {
      assertEquals(10, b.path("records").asLong());
      // 10 records x 20 ms over 2 tasks: each task burns about 100 ms of CPU.
      assertTrue(b.path("processing_ms").asLong() >= 100, "the batch waited for its CPU work: " + b);
    }
    assertTrue(ItCluster.ofType(events, "task_end").stream().allMatch(t -> t.path("status").asText().equals("SUCCESS")));
  }
}
