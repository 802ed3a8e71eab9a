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
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Preemption for real: two CapacityScheduler queues of half the cluster each, the proportional
 * preemption monitor on. Application A fills the whole cluster from queue a; B arrives in queue b,
 * and the ResourceManager takes B's share back from A — first warning A (a PreemptionMessage),
 * killing only after a wait. A gives executors back before the kill, none of it counts as a
 * failure, and both applications succeed.
 */
@Timeout(300)
class PreemptionIT {

  private static ItCluster it;

  @BeforeAll
  static void start() throws Exception {
    String monitor = "yarn.resourcemanager.monitor.capacity.preemption.";
    // Two nodes of 4 GiB: eight 1 GiB containers in all (the minimum allocation rounds each up).
    it = ItCluster.start("preemption", s -> s.withNodeResources(4096, 8)
        .withConf("yarn.scheduler.capacity.root.queues", "a,b")
        .withConf("yarn.scheduler.capacity.root.a.capacity", "50")
        .withConf("yarn.scheduler.capacity.root.a.maximum-capacity", "100")
        .withConf("yarn.scheduler.capacity.root.b.capacity", "50")
        .withConf("yarn.scheduler.capacity.root.b.maximum-capacity", "100")
        // One user may take the whole cluster from one queue, as an elastic queue allows.
        .withConf("yarn.scheduler.capacity.root.a.user-limit-factor", "2")
        .withConf("yarn.scheduler.capacity.root.b.user-limit-factor", "2")
        .withConf("yarn.scheduler.capacity.maximum-am-resource-percent", "0.5")
        .withConf("yarn.resourcemanager.scheduler.monitor.enable", "true")
        .withConf("yarn.resourcemanager.scheduler.monitor.policies",
            "org.apache.hadoop.yarn.server.resourcemanager.monitor.capacity.ProportionalCapacityPreemptionPolicy")
        .withConf(monitor + "monitoring_interval", "500")
        // The warning comes this long before the kill: time for the AM to act on it.
        .withConf(monitor + "max_wait_before_kill", "8000")
        .withConf(monitor + "total_preemption_per_round", "1.0")
        .withConf(monitor + "natural_termination_factor", "1.0")
        .withConf(monitor + "max_ignored_over_capacity", "0"));
  }

  @AfterAll
  static void stop() {
    if (it != null) {
      it.close();
    }
  }

  @Test
  void executorsTheResourceManagerWantsBackAreGivenBackAndNeverCountAsFailures() throws Exception {
    CompletableFuture<ItCluster.ClientRun> a = CompletableFuture.supplyAsync(() -> it.client("submit",
        "--conf", "elasticam.yarn.queue=a", "--conf", "elasticam.yarn.am.memory=256m",
        "--conf", "elasticam.executor.memory=384m", "--conf", "elasticam.executor.instances=7",
        "--conf", "elasticam.yarn.maxExecutorFailures=2",
        "sleep", "--stages", "1", "--tasks", "70", "--task-ms", "2500"));
    ApplicationId aId = it.awaitApplication(a);
    it.awaitEvents(aId, "executor_registered", 7, Duration.ofSeconds(90));

    ItCluster.ClientRun b = it.client("submit", "--conf", "elasticam.yarn.queue=b",
        "--conf", "elasticam.yarn.am.memory=256m", "--conf", "elasticam.executor.memory=384m",
        "--conf", "elasticam.executor.instances=2", "sleep", "--stages", "1", "--tasks", "4", "--task-ms", "1000");
    assertEquals(0, b.exitCode(), "B ran on its queue's share: " + b.out() + b.err());
    ItCluster.ClientRun ra = a.get(240, TimeUnit.SECONDS);
    assertEquals(0, ra.exitCode(), ra.out() + ra.err());

    List<JsonNode> events = it.events(aId);
    List<JsonNode> warnings = ItCluster.ofType(events, "preemption_requested");
    assertFalse(warnings.isEmpty(), "the ResourceManager warned A before preempting");
    List<JsonNode> removed = ItCluster.ofType(events, "executor_removed").stream()
        .filter(e -> !e.path("reason").asText().equals("app_end")).toList();
    List<JsonNode> preempted = removed.stream().filter(e -> e.path("reason").asText().equals("preempted")).toList();
    assertTrue(preempted.size() >= 2, "A gave back or lost executors to B: " + removed);
    assertTrue(removed.stream().noneMatch(e -> e.path("counted_as_failure").asBoolean()),
        "no preempted executor counts as a failure: " + removed);
    // Given back before the kill: every executor A lost to B was released by A itself, with the reason
    // it gave, before the ResourceManager's kill (which would end the container as PREEMPTED with no
    // release of A's before it).
    List<JsonNode> givenBack = ItCluster.ofType(events, "container_released").stream()
        .filter(e -> e.path("reason").asText().startsWith("given back to the ResourceManager")).toList();
    for (JsonNode p : preempted) {
      String container = p.path("container_id").asText();
      assertTrue(givenBack.stream().anyMatch(g -> g.path("container_id").asText().equals(container)
          && g.path("ts").asLong() <= p.path("ts").asLong()),
          "executor " + p.path("executor_id").asText() + " was given back before the ResourceManager killed it: " + p);
      assertFalse(p.path("exit_status_name").asText().equals("PREEMPTED"), "killed by the ResourceManager: " + p);
    }
    long firstWarning = warnings.get(0).path("ts").asLong();
    long firstRemoved = preempted.get(0).path("ts").asLong();
    double firstGone = Figures.seconds(firstWarning, firstRemoved);
    Figures.record("PreemptionIT", "default", String.format("%d warning(s); %d executor(s) taken, all %d given back"
        + " before the kill; warning → first executor gone %.1f s", warnings.size(), preempted.size(), preempted.size(),
        firstGone), "warnings", warnings.size(), "executors_taken", preempted.size(), "given_back", givenBack.size(),
        "killed_by_rm", 0, "warning_to_first_gone_s", firstGone);
  }
}
