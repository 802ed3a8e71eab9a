package org.elasticam.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.apache.hadoop.yarn.api.records.ApplicationId;
import org.apache.hadoop.yarn.api.records.NodeReport;
import org.apache.hadoop.yarn.api.records.NodeState;
import org.apache.hadoop.yarn.client.api.YarnClient;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A network partition between a NodeManager and the ResourceManager, for real as the processes
 * see it: a TCP proxy on the NodeManager's heartbeat path goes silent. The NodeManager, its
 * executors and its shuffle service keep running; the ResourceManager finds the node LOST. The AM
 * hears it, gives up the node's executors (they stop when told, no orphans) and its map output,
 * runs those maps elsewhere, and the job ends exact. Healed, the node rejoins the cluster.
 */
@Timeout(300)
class PartitionIT {

  private static WordCountOnFaults wc;
  private static ItCluster it;

  @BeforeAll
  static void start() throws Exception {
    wc = WordCountOnFaults.start("partition", 13, s -> s.withPartitionableNodes()
        .withConf("yarn.nm.liveness-monitor.expiry-interval-ms", "3000")
        // How soon a NodeManager cut off from the ResourceManager tries again (30 s by default):
        // healed, it rejoins on its next try.
        .withConf("yarn.nodemanager.resourcemanager.connect.retry-interval.ms", "3000"));
    it = wc.it;
  }

  @AfterAll
  static void stop() {
    if (wc != null) {
      wc.close();
    }
  }

  @Test
  void aNodeCutOffFromTheResourceManagerIsGivenUpAndTheJobEndsExact() throws Exception {
    CompletableFuture<ItCluster.ClientRun> job = wc.submit(15000);
    ApplicationId id = it.awaitStageCompleted(job, 0);
    WordCountOnFaults.Victim victim = wc.victim(id);
    String host = victim.host();
    int node = victim.index();
    List<Long> pidsThere = ItCluster.ofType(it.events(id), "executor_registered").stream()
        .filter(e -> e.path("host").asText().equals(host)).map(e -> e.path("pid").asLong()).toList();

    long cutAt = System.currentTimeMillis();
    it.cluster.partitionFromResourceManager(node);
    JsonNode lost = it.awaitEvents(id, "node_lost", 1, Duration.ofSeconds(60)).get(0);
    assertEquals(host, lost.path("host").asText());
    assertEquals("LOST", lost.path("state").asText());
    long healAt = System.currentTimeMillis();
    it.cluster.healPartition(node);

    ItCluster.ClientRun run = job.get(240, TimeUnit.SECONDS);
    wc.assertExact(run);
    List<JsonNode> events = it.events(id);
    assertEquals(List.of(), ItCluster.ofType(events, "fetch_failed"), "the maps ran again before the reducers");
    assertTrue(ItCluster.ofType(events, "stage_resubmitted").stream()
        .anyMatch(e -> e.path("reason").asText().contains(host)), "the maps on " + host + " ran again");
    long rejoined = awaitRunning(host, Duration.ofSeconds(60));
    for (long pid : pidsThere) {
      awaitGone(pid, Duration.ofSeconds(30));
    }
    double lostS = Figures.seconds(cutAt, lost.path("ts").asLong());
    double rejoinedS = Figures.seconds(healAt, rejoined);
    Figures.record("PartitionIT.aNodeCutOffFromTheResourceManager", "default", String.format("LOST at the AM %.1f s"
        + " after the cut; rejoined %.1f s after the heal (the NodeManager's retry interval towards the RM, 3 s"
        + " here, 30 s by default);"
        + " %d executor(s) stopped, none orphaned", lostS, rejoinedS, pidsThere.size()), "lost_s", lostS,
        "rejoined_after_heal_s", rejoinedS, "executors_stopped", pidsThere.size(), "orphans", 0, "fetch_failures", 0);
  }

  @Test
  void aShuffleServiceCutOffFromTheReducersCostsOnlyTheMapsItServed() throws Exception {
    CompletableFuture<ItCluster.ClientRun> job = wc.submit(2000,
        "elasticam.shuffle.client.readTimeout=4", "elasticam.shuffle.client.connectTimeout=2",
        "elasticam.shuffle.client.maxRetries=1", "elasticam.shuffle.client.retryWait=1");
    ApplicationId id = it.awaitStageCompleted(job, 0);
    WordCountOnFaults.Victim victim = wc.victim(id);
    long cutAt = System.currentTimeMillis();
    it.cluster.partitionShuffleService(victim.index());
    JsonNode resubmitted = it.awaitEvents(id, "stage_resubmitted", 1, Duration.ofSeconds(90)).get(0);
    ItCluster.ClientRun run = job.get(240, TimeUnit.SECONDS);
    it.cluster.healShuffleService(victim.index());

    wc.assertExact(run);
    List<JsonNode> events = it.events(id);
    assertTrue(resubmitted.path("reason").asText().contains(victim.host()), resubmitted.toString());
    for (JsonNode t : ItCluster.ofType(events, "task_end")) {
      if (t.path("stage_id").asInt() == 0 && t.path("attempt").asInt() > 0) {
        assertFalse(t.path("host").asText().equals(victim.host()),
            "a map re-ran where its output cannot be fetched: " + t);
      }
    }
    double resubmittedS = Figures.seconds(cutAt, resubmitted.path("ts").asLong());
    int fetchFailures = ItCluster.ofType(events, "fetch_failed").size();
    long rerun = ItCluster.ofType(events, "task_end").stream()
        .filter(t -> t.path("stage_id").asInt() == 0 && t.path("attempt").asInt() > 0).count();
    Figures.record("PartitionIT.aShuffleServiceCutOffFromTheReducers", "default", String.format("maps resubmitted"
        + " %.1f s after the cut (read timeouts and a retry wait); %d fetch failure(s); %d map(s) re-ran",
        resubmittedS, fetchFailures, rerun), "resubmitted_s", resubmittedS, "fetch_failures", fetchFailures,
        "maps_rerun", rerun);
  }

  @Test
  void aNodeManagerTheAmCannotReachGetsNoExecutorAndTheJobGoesOnWithoutIt() throws Exception {
    // The spark policy asks only after the 3 s backlog timeout: time to cut the path first.
    CompletableFuture<ItCluster.ClientRun> job = CompletableFuture.supplyAsync(() -> it.client("submit",
        "--conf", "elasticam.dynamicAllocation.enabled=true",
        "--conf", "elasticam.dynamicAllocation.policy=spark",
        "--conf", "elasticam.dynamicAllocation.minExecutors=0",
        "--conf", "elasticam.dynamicAllocation.maxExecutors=2",
        "--conf", "elasticam.dynamicAllocation.schedulerBacklogTimeout=3s",
        "--conf", "elasticam.executor.registrationTimeout=10",
        "--conf", "elasticam.executor.memory=384m",
        "sleep", "--stages", "1", "--tasks", "12", "--task-ms", "2000"));
    ApplicationId id = it.awaitApplication(job);
    String amHost = it.awaitEvents(id, "am_registered", 1, Duration.ofSeconds(60)).get(0).path("host").asText();
    String host = it.cluster.nodeHosts().stream().filter(h -> !h.equals(amHost)).findFirst().orElseThrow();
    int node = it.cluster.nodeHosts().indexOf(host);
    assertTrue(ItCluster.ofType(it.events(id), "executor_launched").isEmpty(), "cut before any launch");
    it.cluster.partitionFromApplicationMasters(node);
    ItCluster.ClientRun run;
    try {
      run = job.get(240, TimeUnit.SECONDS);
    } finally {
      it.cluster.healFromApplicationMasters(node);
    }

    assertEquals(0, run.exitCode(), run.out() + run.err());
    List<JsonNode> events = it.events(id);
    List<String> launchedThere = ItCluster.ofType(events, "executor_launched").stream()
        .filter(e -> e.path("host").asText().equals(host)).map(e -> e.path("container_id").asText()).toList();
    assertFalse(launchedThere.isEmpty(), "the AM tried " + host);
    assertTrue(ItCluster.ofType(events, "executor_registered").stream()
        .noneMatch(e -> e.path("host").asText().equals(host)), "no executor could start on " + host);
    // Each launch there is given up after the registration timeout, as a failure. One may still be
    // waiting when the job ends: only the last, and only if its timeout had not yet run out then (a
    // second allowed for the timer on a loaded machine).
    long jobDone = ItCluster.ofType(events, "task_end").stream().mapToLong(e -> e.path("ts").asLong()).max()
        .orElseThrow();
    int givenUp = 0;
    List<String> stillWaiting = new java.util.ArrayList<>();
    for (String container : launchedThere) {
      JsonNode launched = ItCluster.ofType(events, "executor_launched").stream()
          .filter(e -> e.path("container_id").asText().equals(container)).findFirst().orElseThrow();
      JsonNode released = ItCluster.ofType(events, "container_released").stream()
          .filter(e -> e.path("container_id").asText().equals(container)).findFirst().orElseThrow();
      JsonNode removed = ItCluster.ofType(events, "executor_removed").stream()
          .filter(e -> e.path("container_id").asText().equals(container)).findFirst().orElseThrow();
      // Given up is the release for the timeout. Its removal may still say app_end: YARN reports the
      // released container completed a heartbeat later, and the job may have ended in between.
      if (!released.path("reason").asText().contains("did not register")) {
        assertEquals("app_end", removed.path("reason").asText(), removed.toString());
        assertTrue(jobDone - launched.path("ts").asLong() < 11_000, "a launch whose 10 s had run out was still"
            + " waiting at the end: " + launched + ", released " + released);
        stillWaiting.add(container);
        continue;
      }
      long after = released.path("ts").asLong() - launched.path("ts").asLong();
      assertTrue(released.path("reason").asText().contains("did not register within 10s"), released.toString());
      assertTrue(after >= 10_000 && after < 13_000, "given up " + after + " ms after the launch: " + released);
      assertTrue(removed.path("counted_as_failure").asBoolean(), removed.toString());
      givenUp++;
    }
    assertTrue(stillWaiting.size() <= 1 && (stillWaiting.isEmpty()
        || stillWaiting.get(0).equals(launchedThere.get(launchedThere.size() - 1))),
        "only the last launch there may still wait at the end: " + stillWaiting + " of " + launchedThere);
    assertTrue(givenUp >= 1, "a launch on " + host + " was given up");
    assertEquals(12, ItCluster.ofType(events, "task_end").stream()
        .filter(e -> e.path("status").asText().equals("SUCCESS")).count());
    Figures.record("PartitionIT.aNodeManagerTheAmCannotReach", "default", String.format("%d launch(es) there, %d"
        + " given up after the 10 s registration timeout%s", launchedThere.size(), givenUp,
        stillWaiting.isEmpty() ? "" : ", the last still waiting when the job ended"), "launches", launchedThere.size(),
        "given_up", givenUp, "still_waiting", stillWaiting.size());
  }

  private static long awaitRunning(String host, Duration timeout) throws Exception {
    try (YarnClient yarn = YarnClient.createYarnClient()) {
      yarn.init(it.conf());
      yarn.start();
      long deadline = System.nanoTime() + timeout.toNanos();
      while (System.nanoTime() < deadline) {
        for (NodeReport n : yarn.getNodeReports(NodeState.RUNNING)) {
          if (n.getNodeId().getHost().equals(host)) {
            return System.currentTimeMillis();
          }
        }
        Thread.sleep(200);
      }
    }
    throw new AssertionError(host + " did not rejoin within " + timeout);
  }

  private static void awaitGone(long pid, Duration timeout) throws InterruptedException {
    long deadline = System.nanoTime() + timeout.toNanos();
    while (ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false)) {
      if (System.nanoTime() > deadline) {
        throw new AssertionError("executor process " + pid + " outlived the partition and the job");
      }
      Thread.sleep(200);
    }
  }
}
