package org.elasticam.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A node where the job's tasks keep failing is left, by the job and by YARN: with
 * {@code elasticam.excludeOnFailure.enabled}, after {@code maxFailedTasksPerNode} failed tasks there
 * no task runs there, and the ResourceManager, told through the allocator, grants no new container
 * there while the other node has room.
 */
@Timeout(300)
class TaskFailureExclusionIT {

  private static ItCluster it;

  @BeforeAll
  static void start() throws Exception {
    // Room on the good node for the AM and every executor the job may ask for (5): the asks after
    // the exclusion can be granted there, and only there. With 4 vcores a node, a slow first stage
    // once put the AM and 3 executors on it, and the last ask could only have gone to the bad node.
    it = ItCluster.start("task-exclusion", s -> s.withNodeManagers(2).withNodeResources(8192, 8));
  }

  @AfterAll
  static void stop() {
    if (it != null) {
      it.close();
    }
  }

  @Test
  void aNodeWhereTasksFailGetsNoTaskAndNoNewContainer() throws Exception {
    String bad = it.cluster.nodeHosts().get(0);
    Path jar = UserJobJar.build(Path.of("target", "task-exclusion"), "flaky.jar", Map.of("Flaky", String.join("\n",
        "package it.user;",
        "import java.util.*;",
        "import org.elasticam.api.*;",
        "public class Flaky implements Job {",
        "  public List<Stage> stages(String[] args) {",
        "    Stage.Builder first = Stage.builder(0, \"first\", Nap.class);",
        "    for (int i = 0; i < 4; i++) first.task(TaskSpec.of(Map.of(\"bad\", args[0], \"ms\", \"300\")));",
        "    Stage.Builder second = Stage.builder(1, \"second\", Nap.class).parents(0);",
        "    for (int i = 0; i < 12; i++) second.task(TaskSpec.of(Map.of(\"bad\", args[0], \"ms\", \"2500\")));",
        "    return List.of(first.build(), second.build());",
        "  }",
        "  public static class Nap implements Task {",
        "    public void run(TaskContext ctx) throws Exception {",
        "      if (ctx.host().equals(ctx.params().get(\"bad\"))) throw new IllegalStateException(\"this node is bad\");",
        "      Thread.sleep(Long.parseLong(ctx.params().get(\"ms\")));",
        "    }",
        "  }",
        "}")));
    ItCluster.ClientRun run = it.client("submit",
        "--conf", "elasticam.excludeOnFailure.enabled=true",
        "--conf", "elasticam.excludeOnFailure.maxFailedTasksPerNode=2",
        "--conf", "elasticam.task.maxFailures=8",
        "--conf", "elasticam.executor.memory=256m",
        "--conf", "elasticam.dynamicAllocation.enabled=true",
        "--conf", "elasticam.dynamicAllocation.minExecutors=2",
        "--conf", "elasticam.dynamicAllocation.initialExecutors=2",
        "--conf", "elasticam.dynamicAllocation.maxExecutors=5",
        "--conf", "elasticam.dynamicAllocation.executorIdleTimeout=2s",
        "--conf", "elasticam.dynamicAllocation.shuffleTracking.enabled=true",
        "--conf", "elasticam.yarn.placement=spread",
        "--jar", jar.toString(), "--class", "it.user.Flaky", bad);
    assertEquals(0, run.exitCode(), run.out() + run.err());

    List<JsonNode> events = it.events(run.appId());
    List<JsonNode> excluded = ItCluster.ofType(events, "node_excluded");
    assertEquals(1, excluded.size(), "one exclusion: " + excluded);
    assertEquals(bad, excluded.get(0).path("host").asText());
    assertEquals("task_failures", excluded.get(0).path("reason").asText());
    long at = excluded.get(0).path("ts").asLong();

    List<JsonNode> failedThere = ItCluster.ofType(events, "task_end").stream()
        .filter(e -> e.path("host").asText().equals(bad) && e.path("status").asText().equals("FAILED")).toList();
    assertTrue(failedThere.size() >= 2, "the failures that excluded it: " + failedThere);
    assertFalse(ItCluster.ofType(events, "task_start").stream()
        .anyMatch(e -> e.path("ts").asLong() > at && e.path("host").asText().equals(bad)),
        "no task started on the excluded node");

    // The bad node's executors can run nothing once it is excluded: each goes (as a policy removal)
    // once idle, and its container goes back, so that its replacement can start on the good node.
    String retired = "its node " + bad + " is excluded after task failures there";
    List<JsonNode> registeredThere = ItCluster.ofType(events, "executor_registered").stream()
        .filter(e -> e.path("host").asText().equals(bad)).toList();
    assertFalse(registeredThere.isEmpty(), "executors ran on the bad node (placement spread)");
    for (JsonNode r : registeredThere) {
      String container = r.path("container_id").asText();
      JsonNode removed = ItCluster.ofType(events, "executor_removed").stream()
          .filter(e -> e.path("container_id").asText().equals(container)).findFirst().orElseThrow();
      if (removed.path("ts").asLong() < at) {
        continue;
      }
      assertEquals("policy", removed.path("reason").asText(), "removed, not kept until the end: " + removed);
      assertTrue(ItCluster.ofType(events, "container_released").stream().anyMatch(e -> e.path("container_id").asText()
          .equals(container) && e.path("reason").asText().startsWith(retired)), "released for its node: " + removed);
    }

    List<JsonNode> grantedAfter = ItCluster.ofType(events, "container_allocated").stream()
        .filter(e -> e.path("ts").asLong() > at).toList();
    // When the need fell as the bad node's executors went (the stage near its end), nothing is asked
    // for after the exclusion, and where a grant goes was not exercised: the run says so.
    boolean askedAfter = ItCluster.ofType(events, "containers_requested").stream()
        .anyMatch(e -> e.path("ts").asLong() > at);
    org.junit.jupiter.api.Assumptions.assumeTrue(askedAfter || !grantedAfter.isEmpty(), "nothing was asked for after"
        + " the exclusion (the target fell as the excluded node's executors went): where grants go after an"
        + " exclusion was not checked in this run; that no task ran on the excluded node, and that its executors"
        + " went, were");
    assertFalse(grantedAfter.isEmpty(), "the second stage asked for more executors after the exclusion, and got them");
    // The ResourceManager may hand over a container it scheduled before it heard of the exclusion
    // (asked for earlier, granted in the response to the heartbeat that sent it): that one is
    // released at once and never runs an executor. Any other grant there is a failure to exclude.
    List<JsonNode> there = grantedAfter.stream().filter(g -> g.path("host").asText().equals(bad)).toList();
    assertTrue(there.size() <= 1, "at most the container scheduled before the exclusion reached YARN: " + there);
    for (JsonNode g : there) {
      String container = g.path("container_id").asText();
      assertTrue(ItCluster.ofType(events, "container_released").stream().anyMatch(r -> r.path("container_id").asText()
          .equals(container) && r.path("reason").asText().equals("its node " + bad + " is excluded")),
          "released at once: " + g);
      assertFalse(ItCluster.ofType(events, "executor_launched").stream()
          .anyMatch(l -> l.path("container_id").asText().equals(container)), "no executor launched in it: " + g);
    }
  }
}
