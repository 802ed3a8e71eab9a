package org.elasticam.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.hadoop.yarn.api.records.ApplicationId;
import org.elasticam.embedded.TcpProxy;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Executors cut off from the AM for real. Executors dial the control plane through a
 * {@link TcpProxy} of the test's own ({@code elasticam.yarn.am.advertisedAddress}, as behind a NAT);
 * the test holds their open connections: both ends see a silent peer, and what each sent waits, as
 * TCP's unacknowledged bytes do across a partition, to arrive once it heals. The AM ↔ NodeManager
 * path stays up, so the AM can still stop the containers it gives up on.
 */
@Timeout(300)
class ExecutorPartitionIT {

  private static final long HEARTBEAT_TIMEOUT_MS = 8_000;
  private static final long HEARTBEAT_INTERVAL_MS = 1_000;
  private static final Pattern SILENCE = Pattern.compile("no heartbeat for (\\d+) ms");

  private static ItCluster it;
  private final AtomicReference<InetSocketAddress> am = new AtomicReference<>();
  private TcpProxy proxy;

  @BeforeAll
  static void start() throws Exception {
    it = ItCluster.start("executor-partition", s -> s.withNodeManagers(3));
  }

  @AfterAll
  static void stop() {
    if (it != null) {
      it.close();
    }
  }

  @BeforeEach
  void proxy() throws Exception {
    // The AM's port is known once it runs; executors dial only after it registered.
    proxy = TcpProxy.start("127.0.0.1", () -> await(am), "executors-to-am");
  }

  @AfterEach
  void closeProxy() {
    proxy.close();
  }

  @Test
  void aPartitionShorterThanTheHeartbeatTimeoutLosesNothing() throws Exception {
    CompletableFuture<ItCluster.ClientRun> job = submit();
    ApplicationId id = it.awaitApplication(job);
    awaitTasksRunning(id);

    long heldAt = System.currentTimeMillis();
    assertTrue(proxy.holdOpenConnections() >= 2);
    Thread.sleep(HEARTBEAT_TIMEOUT_MS / 2);
    proxy.release();

    ItCluster.ClientRun run = job.get(3, TimeUnit.MINUTES);
    assertEquals(0, run.exitCode(), run.out() + run.err());
    List<JsonNode> events = it.events(id);
    for (JsonNode r : ItCluster.ofType(events, "executor_removed")) {
      assertTrue(r.get("ts").asLong() < heldAt || !r.get("reason").asText().equals("lost"),
          "an executor was lost to a partition shorter than the timeout: " + r);
    }
    assertEquals(2, ItCluster.ofType(events, "executor_registered").size(), "no executor replaced");
    assertEachTaskSucceededOnce(events);
    assertEquals(8, ItCluster.ofType(events, "task_end").size(), "no task ran twice");
    Figures.record("ExecutorPartitionIT.aPartitionShorterThanTheHeartbeatTimeout", "default", String.format(
        "held %d ms of the %d ms heartbeat timeout: 0 executors lost, 0 tasks re-run", HEARTBEAT_TIMEOUT_MS / 2,
        HEARTBEAT_TIMEOUT_MS), "executors_lost", 0, "tasks_rerun", 0);
  }

  @Test
  void executorsSilentForTheHeartbeatTimeoutAreLostTheirTasksRunElsewhereAndTheirLateWordsIgnored()
      throws Exception {
    CompletableFuture<ItCluster.ClientRun> job = submit();
    ApplicationId id = it.awaitApplication(job);
    List<JsonNode> started = awaitTasksRunning(id);
    Set<String> cutOff = new TreeSet<>();
    started.forEach(t -> cutOff.add(t.get("executor_id").asText()));

    long heldAt = System.currentTimeMillis();
    assertTrue(proxy.holdOpenConnections() >= 2);
    List<JsonNode> removed = it.awaitEvents(id, "executor_removed", cutOff.size(), Duration.ofSeconds(60));
    long lostAfterMs = removed.get(0).get("ts").asLong() - heldAt;
    // Their tasks run elsewhere before the old executors' words arrive.
    it.awaitEvents(id, "executor_registered", cutOff.size() + 1, Duration.ofSeconds(60));
    Thread.sleep(2_000);
    proxy.release();

    ItCluster.ClientRun run = job.get(3, TimeUnit.MINUTES);
    assertEquals(0, run.exitCode(), run.out() + run.err());
    List<JsonNode> events = it.events(id);
    Map<String, Long> removedAt = new HashMap<>();
    for (JsonNode r : ItCluster.ofType(events, "executor_removed")) {
      removedAt.putIfAbsent(r.get("executor_id").asText(), r.get("ts").asLong());
      if (cutOff.contains(r.get("executor_id").asText())) {
        assertEquals("lost", r.get("reason").asText(), r.toString());
        assertTrue(r.get("counted_as_failure").asBoolean(), r.toString());
      }
    }
    assertTrue(removedAt.keySet().containsAll(cutOff), "every executor cut off was removed: " + removedAt);
    long releasedForSilence = ItCluster.ofType(events, "container_released").stream()
        .filter(r -> r.get("reason").asText().contains("no heartbeat for")).count();
    assertEquals(cutOff.size(), releasedForSilence, "each container released names the silence");
    for (JsonNode r : ItCluster.ofType(events, "container_released")) {
      Matcher silence = SILENCE.matcher(r.get("reason").asText());
      if (silence.find()) {
        assertTrue(Long.parseLong(silence.group(1)) > HEARTBEAT_TIMEOUT_MS, "lost before the timeout: " + r);
      }
    }
    // The last heartbeat before the cut may have left up to one interval before it; the removal is
    // written when YARN reports the container's exit, the AM's next ResourceManager heartbeat after the loss.
    assertTrue(lostAfterMs >= HEARTBEAT_TIMEOUT_MS - HEARTBEAT_INTERVAL_MS && lostAfterMs < HEARTBEAT_TIMEOUT_MS + 5_000,
        "lost " + lostAfterMs + " ms after the cut");
    for (JsonNode t : ItCluster.ofType(events, "task_end")) {
      String exec = t.get("executor_id").asText();
      if (cutOff.contains(exec)) {
        assertTrue(t.get("ts").asLong() <= removedAt.get(exec),
            "a word from a lost executor, arriving after the partition healed, was taken: " + t);
      }
    }
    assertEachTaskSucceededOnce(events);
    for (JsonNode reg : ItCluster.ofType(events, "executor_registered")) {
      if (cutOff.contains(reg.get("executor_id").asText())) {
        long pid = reg.get("pid").asLong();
        assertFalse(ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false),
            "executor " + reg.get("executor_id").asText() + " (pid " + pid + ") outlived its loss");
      }
    }
    long replacedAt = ItCluster.ofType(events, "executor_registered").stream()
        .filter(e -> !cutOff.contains(e.get("executor_id").asText()) && e.get("ts").asLong() > heldAt)
        .mapToLong(e -> e.get("ts").asLong()).max().orElseThrow();
    long rerun = ItCluster.ofType(events, "task_end").stream().filter(t -> t.get("attempt").asInt() > 0).count();
    double lostS = lostAfterMs / 1000.0;
    double replacedS = Figures.seconds(removed.get(0).get("ts").asLong(), replacedAt);
    Figures.record("ExecutorPartitionIT.executorsSilentForTheHeartbeatTimeoutAreLost", "default", String.format(
        "lost %.1f s after the cut (timeout %d s); replacements registered %.1f s later; %d task(s) re-run", lostS,
        HEARTBEAT_TIMEOUT_MS / 1000, replacedS, rerun), "lost_s", lostS, "replacements_registered_s", replacedS,
        "tasks_rerun", rerun);
  }

  /** Eight 4 s tasks on two executors of two cores each: two waves. */
  private CompletableFuture<ItCluster.ClientRun> submit() {
    return CompletableFuture.supplyAsync(() -> it.client("submit",
        "--conf", "elasticam.yarn.am.advertisedAddress=" + proxy.address(),
        "--conf", "elasticam.executor.instances=2",
        "--conf", "elasticam.executor.cores=2",
        "--conf", "elasticam.executor.memory=256m",
        "--conf", "elasticam.executor.heartbeatInterval=" + HEARTBEAT_INTERVAL_MS + "ms",
        "--conf", "elasticam.executor.heartbeatTimeout=" + HEARTBEAT_TIMEOUT_MS / 1000,
        "sleep", "--stages", "1", "--tasks", "8", "--task-ms", "4000"));
  }

  /** Waits for the AM's control plane to be known, then the first wave of four tasks. */
  private List<JsonNode> awaitTasksRunning(ApplicationId id) throws Exception {
    JsonNode reg = it.awaitEvents(id, "am_registered", 1, Duration.ofSeconds(60)).get(0);
    am.set(new InetSocketAddress(reg.get("host").asText(), reg.get("rpc_port").asInt()));
    return it.awaitEvents(id, "task_start", 4, Duration.ofSeconds(90));
  }

  private static void assertEachTaskSucceededOnce(List<JsonNode> events) {
    Map<Integer, Integer> successes = new HashMap<>();
    for (JsonNode t : ItCluster.ofType(events, "task_end")) {
      if (t.get("status").asText().equals("SUCCESS")) {
        successes.merge(t.get("task").asInt(), 1, Integer::sum);
      }
    }
    assertEquals(8, successes.size(), "every task succeeded: " + successes);
    successes.forEach((task, n) -> assertEquals(1, n, "task " + task + " counted " + n + " times"));
  }

  private static InetSocketAddress await(AtomicReference<InetSocketAddress> ref) {
    long deadline = System.currentTimeMillis() + 60_000;
    while (ref.get() == null && System.currentTimeMillis() < deadline) {
      try {
        Thread.sleep(50);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return null;
      }
    }
    return ref.get();
  }
}
