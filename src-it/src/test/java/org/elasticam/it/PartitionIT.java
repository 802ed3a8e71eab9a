package org.elasticam.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
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
        .withConf("yarn.nm.liveness-monitor.expiry-interval-ms", "3000"));
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
    System.out.printf("partition: node LOST at the AM %.1f s after the cut; rejoined %.1f s after the heal;"
        + " %d executor(s) on it stopped, none orphaned%n", (lost.path("ts").asLong() - cutAt) / 1000.0,
        (rejoined - healAt) / 1000.0, pidsThere.size());
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
