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
 * Executors that cannot start, for real: a 1 MiB heap makes every executor JVM die before it
 * registers. Each failed start holds new container requests back for twice as long as the one
 * before (1 s, 2 s, 4 s) instead of relaunching as fast as YARN grants, and maxExecutorFailures
 * ends the hopeless application with a message that says why.
 */
@Timeout(180)
class StartFailureIT {

  private static ItCluster it;

  @BeforeAll
  static void start() throws Exception {
    it = ItCluster.start("startfail", s -> s);
  }

  @AfterAll
  static void stop() {
    if (it != null) {
      it.close();
    }
  }

  @Test
  void failedStartsBackOffAndTheFailureLimitEndsTheApplication() throws Exception {
    ItCluster.ClientRun run = it.client("submit",
        "--conf", "elasticam.executor.instances=1",
        "--conf", "elasticam.executor.memory=1m",
        "--conf", "elasticam.yarn.maxExecutorFailures=4",
        "--conf", "elasticam.yarn.excludeOnFailure.enabled=false",
        "sleep", "--stages", "1", "--tasks", "1", "--task-ms", "10");
    assertEquals(1, run.exitCode(), run.out() + run.err());
    List<JsonNode> events = it.events(run.appId());
    List<JsonNode> failures = ItCluster.ofType(events, "executor_removed").stream()
        .filter(e -> e.path("counted_as_failure").asBoolean()).toList();
    assertEquals(4, failures.size(), "four executors died before registering: " + failures);
    assertTrue(ItCluster.ofType(events, "executor_registered").isEmpty());
    JsonNode end = ItCluster.ofType(events, "app_end").get(0);
    assertEquals("FAILED", end.path("final_status").asText());
    assertTrue(end.path("diagnostics").asText().startsWith("4 executor failures"), end.toString());
    assertTrue(ItCluster.ofType(events, "allocator_warning").stream().anyMatch(w -> w.path("message").asText()
        .startsWith("3 executor(s) in a row failed to start")), "the hold is in the event log");
    List<Long> requests = ItCluster.ofType(events, "containers_requested").stream()
        .map(e -> e.path("ts").asLong()).toList();
    List<Double> gaps = new java.util.ArrayList<>();
    for (int k = 0; k < 3; k++) {
      long failedAt = failures.get(k).path("ts").asLong();
      long hold = 1000L << k;
      long next = requests.stream().filter(t -> t > failedAt).findFirst().orElseThrow();
      gaps.add(Figures.seconds(failedAt, next));
      // The hold starts when the AM hears of the exit, a moment before it writes the event: measured
      // from the event, the gap is if anything shorter than the hold's own.
      assertTrue(next - failedAt >= hold, "after failed start " + (k + 1) + " the next request came "
          + (next - failedAt) + " ms later, not after the " + hold + " ms hold");
    }
    Figures.record("StartFailureIT", "default", String.format("gaps %.1f s, %.1f s, %.1f s (holds of 1, 2, 4 s end on"
        + " a heartbeat)", gaps.get(0), gaps.get(1), gaps.get(2)), "failures", failures.size(), "gaps_s", gaps);
  }
}
