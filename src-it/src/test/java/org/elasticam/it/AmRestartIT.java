package org.elasticam.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.apache.hadoop.yarn.api.records.ApplicationId;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The AM process killed with {@code kill -9} between the map and the reduce stage of a wordcount
 * that may have two attempts. YARN starts attempt 2 and keeps the executors' containers; the
 * executors lose their driver, find the new one through the staging dir and re-attach; attempt 2
 * reads the journal, does not run the map stage again, and finishes with exact counts and the
 * executors it inherited.
 */
@Timeout(300)
class AmRestartIT {

  private static WordCountOnFaults wc;
  private static ItCluster it;

  @BeforeAll
  static void start() throws Exception {
    wc = WordCountOnFaults.start("amrestart", 11, s -> s);
    it = wc.it;
  }

  @AfterAll
  static void stop() {
    if (wc != null) {
      wc.close();
    }
  }

  @Test
  void aKilledAmIsReplacedByAnAttemptThatKeepsTheExecutorsAndTheFinishedStage() throws Exception {
    CompletableFuture<ItCluster.ClientRun> job = wc.submit(20000, "elasticam.yarn.maxAppAttempts=2", "elasticam.executor.reregisterTimeout=60s");
    ApplicationId id = it.awaitStageCompleted(job, 0);
    awaitJournaled(id, 0);
    List<JsonNode> before = it.events(id);
    long pid = ItCluster.ofType(before, "am_registered").get(0).path("pid").asLong();
    Set<String> live = registered(before);
    assertEquals(2, live.size(), "two executors ran the maps");

    long killedAt = System.currentTimeMillis();
    ProcessHandle am = ProcessHandle.of(pid).orElseThrow(() -> new AssertionError("no AM process " + pid));
    assertTrue(am.destroyForcibly(), "kill -9 the AM");
    am.onExit().get(30, TimeUnit.SECONDS);

    ItCluster.ClientRun run = job.get(240, TimeUnit.SECONDS);
    wc.assertExact(run);

    List<JsonNode> events = it.events(id);
    assertEquals(List.of(1, 2), ItCluster.ofType(events, "app_start").stream().map(e -> e.path("attempt").asInt())
        .toList(), "two attempts, one log");
    JsonNode recovered = ItCluster.ofType(events, "am_recovered").get(0);
    assertEquals("[0]", recovered.path("stages_recovered").toString(), recovered.toString());
    long restartTs = ItCluster.ofType(events, "app_start").get(1).path("ts").asLong();
    List<JsonNode> after = events.stream().filter(e -> e.path("ts").asLong() >= restartTs).toList();
    assertEquals(List.of(), ItCluster.ofType(after, "task_start").stream()
        .filter(e -> e.path("stage_id").asInt() == 0).toList(), "no map task ran again");
    List<JsonNode> reattached = ItCluster.ofType(after, "executor_registered").stream()
        .filter(e -> e.path("reattached").asBoolean()).toList();
    assertEquals(live, reattached.stream().map(e -> e.path("executor_id").asText())
        .collect(Collectors.toCollection(TreeSet::new)), "every live executor came back");
    assertEquals(List.of(), ItCluster.ofType(after, "executor_launched"), "and none had to be replaced");
    assertEquals(List.of(), ItCluster.ofType(after, "fetch_failed"), "the reducers found the map output");
    long mapsDone = ItCluster.ofType(events, "stage_completed").get(0).path("ts").asLong();
    long reduceSubmitted = ItCluster.ofType(events, "stage_submitted").stream()
        .filter(e -> e.path("stage_id").asInt() == 1).findFirst().orElseThrow().path("ts").asLong();
    assertTrue(reduceSubmitted - mapsDone < 20_000 + 2_000, "the pause before the reducers ran from the maps' end,"
        + " not again from the restart: " + (reduceSubmitted - mapsDone) + " ms");
    long lastBack = reattached.stream().mapToLong(e -> e.path("ts").asLong()).max().orElseThrow();
    double upS = Figures.seconds(killedAt, restartTs);
    double backS = Figures.seconds(killedAt, lastBack);
    Figures.record("AmRestartIT.aKilledAmIsReplaced", "default", String.format("kill → attempt 2 up %.1f s; all %d"
        + " executors re-attached %.1f s; 0 maps re-run, 0 executors replaced", upS, reattached.size(), backS),
        "attempt_2_up_s", upS, "executors_reattached", reattached.size(), "reattached_s", backS, "maps_rerun", 0,
        "executors_replaced", 0);
    assertStagingRemoved(id);
  }

  @Test
  void aStreamGoesOnAfterAKilledAmWithEveryJournaledBatchDoneOnce() throws Exception {
    CompletableFuture<ItCluster.ClientRun> job = CompletableFuture.supplyAsync(() -> it.client("submit",
        "--conf", "elasticam.yarn.maxAppAttempts=2", "--conf", "elasticam.executor.instances=2",
        "--conf", "elasticam.executor.memory=256m",
        "streaming", "--batch-ms", "1000", "--batches", "20", "--rate", "const:20", "--work-per-record-us", "20000"));
    ApplicationId id = it.awaitApplication(job);
    it.awaitEvents(id, "batch_completed", 5, Duration.ofSeconds(90));
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
    while (org.elasticam.am.recovery.RecoveryJournal.read(it.conf(), it.stagingDir(id).toString())
        .map(j -> j.getStream().getBatchesDone()).orElse(0) < 5) {
      assertTrue(System.nanoTime() < deadline, "the journal has five batches done");
      Thread.sleep(100);
    }
    List<JsonNode> before = it.events(id);
    long pid = ItCluster.ofType(before, "am_registered").get(0).path("pid").asLong();
    Set<String> live = registered(before);
    int journaled = org.elasticam.am.recovery.RecoveryJournal.read(it.conf(), it.stagingDir(id).toString())
        .orElseThrow().getStream().getBatchesDone();
    ProcessHandle am = ProcessHandle.of(pid).orElseThrow();
    assertTrue(am.destroyForcibly(), "kill -9 the AM");
    am.onExit().get(30, TimeUnit.SECONDS);

    ItCluster.ClientRun run = job.get(240, TimeUnit.SECONDS);
    assertEquals(0, run.exitCode(), run.out() + run.err());
    List<JsonNode> events = it.events(id);
    assertEquals(2, ItCluster.ofType(events, "app_start").size());
    List<Integer> batches = ItCluster.ofType(events, "batch_completed").stream().map(e -> e.path("batch").asInt())
        .toList();
    assertEquals(java.util.stream.IntStream.range(0, 20).boxed().toList(), batches.stream().distinct().sorted()
        .toList(), "every batch completed: " + batches);
    // The journal is written behind the batches: one that completed after its last write before the
    // kill runs again (at least once). Every batch it had is done exactly once.
    List<Integer> twice = batches.stream().filter(b -> java.util.Collections.frequency(batches, b) > 1).distinct()
        .toList();
    assertTrue(twice.size() <= 1 && twice.stream().allMatch(b -> b >= journaled),
        "only a batch completed after the journal's last record before the kill (" + journaled + " done) ran twice: "
            + batches);
    assertEquals(live, ItCluster.ofType(events, "executor_registered").stream()
        .filter(e -> e.path("reattached").asBoolean()).map(e -> e.path("executor_id").asText())
        .collect(Collectors.toCollection(TreeSet::new)), "every executor live at the kill came back");
    assertStagingRemoved(id);
  }

  /**
   * Once the last attempt's AM has exited, its staging directory is gone: the journal, written
   * behind the event loop, must not write into it (or make it again) after the AM removed it.
   */
  private static void assertStagingRemoved(ApplicationId id) throws Exception {
    List<JsonNode> registered = ItCluster.ofType(it.events(id), "am_registered");
    long pid = registered.get(registered.size() - 1).path("pid").asLong();
    java.util.Optional<ProcessHandle> am = ProcessHandle.of(pid);
    if (am.isPresent()) {
      am.get().onExit().get(60, TimeUnit.SECONDS);
    }
    assertFalse(org.apache.hadoop.fs.FileSystem.get(it.conf()).exists(it.stagingDir(id)),
        "the staging directory " + it.stagingDir(id) + " is removed and stays removed");
  }

  /** Executors registered and not removed. */
  private static Set<String> registered(List<JsonNode> events) {
    Set<String> ids = new TreeSet<>();
    ItCluster.ofType(events, "executor_registered").forEach(e -> ids.add(e.path("executor_id").asText()));
    ItCluster.ofType(events, "executor_removed").forEach(e -> ids.remove(e.path("executor_id").asText()));
    return ids;
  }

  /** The journal is written behind the event loop: wait until it holds the completed stage. */
  private static void awaitJournaled(ApplicationId id, int stageId) throws Exception {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
    while (org.elasticam.am.recovery.RecoveryJournal.read(it.conf(), it.stagingDir(id).toString())
        .map(j -> j.getCompletedStagesList().stream().noneMatch(s -> s.getStageId() == stageId)).orElse(true)) {
      if (System.nanoTime() > deadline) {
        throw new AssertionError("the journal does not have stage " + stageId + " completed");
      }
      Thread.sleep(100);
    }
  }
}
