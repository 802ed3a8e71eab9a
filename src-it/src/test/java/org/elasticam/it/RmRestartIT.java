package org.elasticam.it;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.apache.hadoop.yarn.api.records.ApplicationId;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The ResourceManager restarted mid-job, with a file-system state store and work-preserving
 * recovery: the AM's heartbeats wait out the restart, it re-registers with the new
 * ResourceManager and resends its requests, and the job goes on with the same attempt, the same
 * executors and exact counts.
 */
@Timeout(300)
class RmRestartIT {

  private static WordCountOnFaults wc;
  private static ItCluster it;

  @BeforeAll
  static void start() throws Exception {
    wc = WordCountOnFaults.start("rmrestart", 3, s -> s.withResourceManagerRecovery());
    it = wc.it;
  }

  @AfterAll
  static void stop() {
    if (wc != null) {
      wc.close();
    }
  }

  @Test
  void theJobGoesOnThroughAResourceManagerRestart() throws Exception {
    CompletableFuture<ItCluster.ClientRun> job = wc.submit(6000);
    ApplicationId id = it.awaitStageCompleted(job, 0);
    long t0 = System.currentTimeMillis();
    it.cluster.restartResourceManager();
    long back = System.currentTimeMillis();

    ItCluster.ClientRun run = job.get(240, TimeUnit.SECONDS);
    wc.assertExact(run);
    List<JsonNode> events = it.events(id);
    assertEquals(1, ItCluster.ofType(events, "app_start").size(), "one attempt: the AM lived through it");
    assertEquals(1, ItCluster.ofType(events, "rm_resynced").size(), "the AM re-registered with the new RM once");
    assertEquals(2, ItCluster.ofType(events, "executor_registered").size(), "the same two executors throughout");
    assertEquals(List.of(), ItCluster.ofType(events, "executor_removed").stream()
        .filter(e -> !e.path("reason").asText().equals("app_end")).toList(), "no executor lost");
    assertEquals(4, ItCluster.ofType(events, "task_end").stream()
        .filter(e -> e.path("stage_id").asInt() == 0).count(), "no map ran twice (four files, four maps)");
    long reduceSubmitted = ItCluster.ofType(events, "stage_submitted").stream()
        .filter(e -> e.path("stage_id").asInt() == 1).findFirst().orElseThrow().path("ts").asLong();
    double downS = Figures.seconds(t0, back);
    double doneS = Figures.seconds(t0, ItCluster.ofType(events, "app_end").get(0).path("ts").asLong());
    Figures.record("RmRestartIT", "default", String.format("RM down and back %.1f s; reducers submitted %.1f s and"
        + " job done %.1f s after the restart began (of it the job's own 6 s pause); 0 maps re-run, 0 executors"
        + " replaced", downS, Figures.seconds(t0, reduceSubmitted), doneS), "rm_down_s", downS, "job_done_s", doneS,
        "maps_rerun", 0, "executors_replaced", 0);
  }
}
