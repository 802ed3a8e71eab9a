package org.elasticam.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.apache.hadoop.yarn.api.records.ApplicationId;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A node decommissioned gracefully between the map and the reduce stage of a wordcount, through
 * the ResourceManager's exclude list with a timeout. The AM hears DECOMMISSIONING, releases the
 * node's executors once idle, and runs the maps whose output lives there again on the other node
 * while the decommissioning one still serves it; when the node leaves, nothing is lost and no
 * reducer has to find out by failing.
 */
@Timeout(300)
class DecommissionIT {

  private static WordCountOnFaults wc;
  private static ItCluster it;

  @BeforeAll
  static void start() throws Exception {
    wc = WordCountOnFaults.start("decommission", 5, s -> s
        // The RM checks decommissioning nodes every 20 s by default.
        .withConf("yarn.resourcemanager.decommissioning-nodes-watcher.poll-interval-secs", "1"));
    it = wc.it;
  }

  @AfterAll
  static void stop() {
    if (wc != null) {
      wc.close();
    }
  }

  @Test
  void theMapOutputOfADecommissioningNodeIsComputedElsewhereBeforeItLeaves() throws Exception {
    CompletableFuture<ItCluster.ClientRun> job = wc.submit(25000);
    ApplicationId id = it.awaitStageCompleted(job, 0);
    WordCountOnFaults.Victim victim = wc.victim(id);
    String host = victim.host();
    List<Integer> mapsThere = victim.maps();
    long decommissionedAt = System.currentTimeMillis();
    it.cluster.decommissionGracefully(victim.index(), Duration.ofSeconds(12));

    ItCluster.ClientRun run = job.get(240, TimeUnit.SECONDS);
    wc.assertExact(run);
    List<JsonNode> events = it.events(id);
    JsonNode heard = ItCluster.ofType(events, "node_decommissioning").stream()
        .filter(e -> e.path("host").asText().equals(host)).findFirst()
        .orElseThrow(() -> new AssertionError("the AM heard of the decommission"));
    JsonNode resubmitted = ItCluster.ofType(events, "stage_resubmitted").stream()
        .filter(e -> e.path("reason").asText().contains(host + " is being decommissioned")).findFirst()
        .orElseThrow(() -> new AssertionError("the maps on " + host + " ran again"));
    assertEquals(mapsThere.toString(), resubmitted.path("tasks").toString().replace(",", ", "));
    long recomputed = ItCluster.ofType(events, "stage_completed").stream()
        .filter(e -> e.path("stage_id").asInt() == 0 && e.path("recomputed").asBoolean()).findFirst()
        .orElseThrow(() -> new AssertionError("stage 0 recomputed")).path("ts").asLong();
    for (int m : mapsThere) {
      assertTrue(ItCluster.ofType(events, "task_end").stream().anyMatch(e -> e.path("stage_id").asInt() == 0
          && e.path("task").asInt() == m && e.path("status").asText().equals("SUCCESS")
          && e.path("ts").asLong() > heard.path("ts").asLong() && !e.path("host").asText().equals(host)),
          "map " + m + " ran again elsewhere");
    }
    // The node leaves within its 12 s while the reducers are still held back (25 s): the copy must
    // be done before that, not merely before the job's end.
    JsonNode left = ItCluster.ofType(events, "node_lost").stream()
        .filter(e -> e.path("host").asText().equals(host)).findFirst()
        .orElseThrow(() -> new AssertionError("the node did not leave during the job: " + events));
    assertEquals("DECOMMISSIONED", left.path("state").asText());
    assertTrue(recomputed < left.path("ts").asLong(), "the copy was done before the node left");
    assertEquals(List.of(), ItCluster.ofType(events, "fetch_failed"), "no reducer had to find out by failing");
    assertTrue(ItCluster.ofType(events, "executor_removed").stream()
        .filter(e -> e.path("host").asText().equals(host) && !e.path("reason").asText().equals("app_end"))
        .allMatch(e -> e.path("reason").asText().equals("decommissioned")
            && !e.path("counted_as_failure").asBoolean()), "its executors left as decommissioned, not failed");
    double heardS = Figures.seconds(decommissionedAt, heard.path("ts").asLong());
    double copiedS = Figures.seconds(decommissionedAt, recomputed);
    double leftS = Figures.seconds(decommissionedAt, left.path("ts").asLong());
    Figures.record("DecommissionIT", "default", String.format("heard %.1f s after the refresh; its %d map output(s)"
        + " copied by %.1f s; the node left at %.1f s with nothing on it", heardS, mapsThere.size(), copiedS, leftS),
        "heard_s", heardS, "maps_rerun", mapsThere.size(), "copied_s", copiedS, "left_s", leftS, "fetch_failures", 0);
  }
}
