package org.elasticam.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

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
 * A node that dies between the map and the reduce stage of a wordcount, for real: its NodeManager
 * stops for good (its executors die with it, and so does the shuffle service that served their map
 * output) and the ResourceManager finds it LOST. The AM hears it in its allocate response, loses
 * the map output on that node — the part the service served too — and runs those maps again before
 * the reducers start; the counts are exact.
 */
@Timeout(240)
class NodeLostIT {

  private static WordCountOnFaults wc;
  private static ItCluster it;

  @BeforeAll
  static void start() throws Exception {
    wc = WordCountOnFaults.start("nodelost", 7, s -> s.withConf("yarn.nm.liveness-monitor.expiry-interval-ms", "3000"));
    it = wc.it;
  }

  @AfterAll
  static void stop() {
    if (wc != null) {
      wc.close();
    }
  }

  @Test
  void mapOutputOnALostNodeIsComputedAgainBeforeTheReducersNeedIt() throws Exception {
    CompletableFuture<ItCluster.ClientRun> job = wc.submit(15000);
    ApplicationId id = it.awaitStageCompleted(job, 0);
    WordCountOnFaults.Victim victim = wc.victim(id);
    String host = victim.host();
    long lostAt = System.currentTimeMillis();
    it.cluster.loseNodeManager(victim.index());
    ItCluster.ClientRun run = job.get(180, TimeUnit.SECONDS);
    wc.assertExact(run);
    List<JsonNode> events = it.events(id);
    assertTrue(ItCluster.ofType(events, "node_lost").stream().anyMatch(e -> e.path("host").asText().equals(host)
        && e.path("state").asText().equals("LOST")), "the AM heard the node was lost");
    // Every map whose output was on the node ran again elsewhere, and finished before any reducer
    // started: the reducers never waited on, or failed over, the lost output. "Before" is the order
    // of the event log, which the AM's one event loop writes as things happen (two events may share
    // a millisecond).
    int firstReducer = events.indexOf(ItCluster.ofType(events, "task_start").stream()
        .filter(e -> e.path("stage_id").asInt() == 1).findFirst().orElseThrow());
    for (int task : victim.maps()) {
      List<JsonNode> rerun = ItCluster.ofType(events, "task_end").stream()
          .filter(e -> e.path("stage_id").asInt() == 0 && e.path("task").asInt() == task
              && e.path("status").asText().equals("SUCCESS")).toList();
      assertEquals(2, rerun.size(), "map task " + task + " ran again: " + rerun);
      assertTrue(!rerun.get(1).path("host").asText().equals(host), "elsewhere");
      assertTrue(events.indexOf(rerun.get(1)) < firstReducer, "map " + task + " ran again before the reducers: "
          + rerun.get(1) + " vs " + events.get(firstReducer));
    }
    assertTrue(ItCluster.ofType(events, "stage_resubmitted").stream().anyMatch(e -> e.path("reason").asText()
        .equals("its node " + host + " was lost, and its shuffle service with it")), "the re-run says why");
    assertEquals(List.of(), ItCluster.ofType(events, "fetch_failed"), "no reducer had to find out by failing");
    long reported = ItCluster.ofType(events, "node_lost").get(0).path("ts").asLong();
    long resubmitted = ItCluster.ofType(events, "stage_resubmitted").get(0).path("ts").asLong();
    long rerunDone = ItCluster.ofType(events, "task_end").stream().filter(e -> e.path("stage_id").asInt() == 0
        && e.path("attempt").asInt() > 0).mapToLong(e -> e.path("ts").asLong()).max().orElseThrow();
    double reportedS = Figures.seconds(lostAt, reported);
    double rerunS = Figures.seconds(resubmitted, rerunDone);
    Figures.record("NodeLostIT", "default", String.format("NodeManager stopped → node reported LOST %.1f s; %d map(s)"
        + " re-run in %.1f s before the reduce stage; 0 fetch failures", reportedS, victim.maps().size(), rerunS),
        "lost_reported_s", reportedS, "maps_rerun", victim.maps().size(), "rerun_s", rerunS, "fetch_failures", 0);
  }
}
