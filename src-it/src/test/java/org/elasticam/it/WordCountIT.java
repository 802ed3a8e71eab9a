package org.elasticam.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.yarn.api.records.ApplicationId;
import org.elasticam.embedded.ShuffleServiceInstall;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * wordcount on a real cluster whose NodeManagers load the shuffle service from its shaded jar: the
 * counts are exactly an independent count's; executors removed, killed, or their NodeManager
 * restarted between the map and reduce stages lose nothing (the event log shows no map task ran
 * twice); a corrupted block re-runs its map task and only that one.
 */
@Timeout(300)
class WordCountIT {

  private static final int FILES = 6;
  private static final int REDUCERS = 3;
  private static ItCluster it;
  private static FileSystem fs;
  private static org.apache.hadoop.fs.Path input;
  private static Map<String, Long> expected;

  @BeforeAll
  static void start() throws Exception {
    Path jar = ShuffleJar.path();
    it = ItCluster.start("wordcount", s -> s.withNodeResources(6144, 8)
        .withShuffleService(ShuffleServiceInstall.onClasspath(jar)));
    fs = FileSystem.get(it.conf());
    input = new org.apache.hadoop.fs.Path(it.cluster.workDir().resolve("corpus").toUri());
    Corpus.write(fs, input, FILES, 1 << 20, 42);
    expected = Corpus.count(fs, input);
  }

  @AfterAll
  static void stop() {
    if (it != null) {
      it.close();
    }
  }

  private static org.apache.hadoop.fs.Path output(String name) {
    return new org.apache.hadoop.fs.Path(it.cluster.workDir().resolve("out-" + name).toUri());
  }

  private static List<String> submit(String name, long pauseMs, String... conf) {
    List<String> args = new ArrayList<>(List.of("submit", "--conf", "elasticam.shuffle.service.enabled=true",
        "--conf", "elasticam.executor.memory=384m"));
    for (String c : conf) {
      args.add("--conf");
      args.add(c);
    }
    args.addAll(List.of("wordcount", "--input", input.toString(), "--output", output(name).toString(), "--reducers",
        String.valueOf(REDUCERS), "--pause-ms", String.valueOf(pauseMs)));
    return args;
  }

  private static ItCluster.ClientRun run(List<String> args) {
    ItCluster.ClientRun run = it.client(args.toArray(new String[0]));
    assertEquals(0, run.exitCode(), run.out() + run.err());
    return run;
  }

  /** Every map task ran exactly once and succeeded; no fetch failed; nothing was recomputed. */
  private static void assertNoMapRanTwice(List<JsonNode> events) {
    List<JsonNode> maps = ItCluster.ofType(events, "task_end").stream()
        .filter(e -> e.path("stage_id").asInt() == 0).toList();
    assertEquals(FILES, maps.size(), "one run per map task: " + maps);
    assertTrue(maps.stream().allMatch(e -> e.path("status").asText().equals("SUCCESS")
        && e.path("attempt").asInt() == 0), maps.toString());
    assertEquals(List.of(), ItCluster.ofType(events, "fetch_failed"));
    assertEquals(List.of(), ItCluster.ofType(events, "stage_resubmitted"));
  }

  @Test
  void countsExactlyWhatAnIndependentCountFinds() throws Exception {
    ItCluster.ClientRun run = run(submit("static", 0, "elasticam.executor.instances=2",
        "elasticam.shuffle.client.maxRequestsInFlight=2", "elasticam.shuffle.client.maxBytesInFlight=1m"));
    assertEquals(expected, Corpus.output(fs, output("static"), REDUCERS));
    List<JsonNode> events = it.events(run.appId());
    assertNoMapRanTwice(events);
    List<JsonNode> removed = ItCluster.ofType(events, "shuffle_removed");
    assertEquals(1, removed.size(), "the map stage's shuffle is deleted once its reader completed: " + removed);
    assertEquals(0, removed.get(0).path("shuffle_id").asInt());
    long lastReducer = ItCluster.ofType(events, "task_end").stream().filter(e -> e.path("stage_id").asInt() == 1)
        .mapToLong(e -> e.path("ts").asLong()).max().orElseThrow();
    assertTrue(removed.get(0).path("ts").asLong() >= lastReducer, "not before the last reducer ended");
  }

  /**
   * Speculation as eager as it gets (a task is copied once it has run longer than the median of
   * its stage's finished tasks, from the first finished task on): tasks run twice at once, and the
   * output is still exact, each part published by one attempt, no attempt's file left behind
   * (Corpus.output refuses any file but the parts).
   */
  @Test
  void withEagerSpeculationTheCountsStayExact() throws Exception {
    ItCluster.ClientRun run = run(submit("speculative", 0, "elasticam.executor.instances=3",
        "elasticam.speculation=true", "elasticam.speculation.multiplier=1.0", "elasticam.speculation.quantile=0.01",
        "elasticam.speculation.minTaskRuntime=0", "elasticam.speculation.interval=20ms"));
    assertEquals(expected, Corpus.output(fs, output("speculative"), REDUCERS));
    List<JsonNode> events = it.events(run.appId());
    assertFalse(ItCluster.ofType(events, "task_speculated").isEmpty(), "copies were made");
    assertTrue(ItCluster.ofType(events, "task_end").stream().noneMatch(e -> e.path("status").asText().equals("FAILED")),
        "no attempt failed");
  }

  @Test
  void executorsRemovedAfterTheMapStageLeaveTheirOutputWithTheService() throws Exception {
    ItCluster.ClientRun run = run(submit("dynamic", 8_000,
        "elasticam.dynamicAllocation.enabled=true",
        "elasticam.dynamicAllocation.minExecutors=0",
        "elasticam.dynamicAllocation.maxExecutors=3",
        "elasticam.dynamicAllocation.schedulerBacklogTimeout=500ms",
        "elasticam.dynamicAllocation.executorIdleTimeout=2s"));
    assertEquals(expected, Corpus.output(fs, output("dynamic"), REDUCERS));
    List<JsonNode> events = it.events(run.appId());
    assertNoMapRanTwice(events);
    long reduceSubmitted = ItCluster.ofType(events, "stage_submitted").stream()
        .filter(e -> e.path("stage_id").asInt() == 1).findFirst().orElseThrow().path("ts").asLong();
    List<JsonNode> removedInTheGap = ItCluster.ofType(events, "container_released").stream()
        .filter(e -> e.path("ts").asLong() < reduceSubmitted)
        .filter(e -> e.path("reason").asText().contains("stays served by its node's shuffle service")).toList();
    assertFalse(removedInTheGap.isEmpty(), "executors that ran map tasks went before the reduce stage");
    assertTrue(ItCluster.ofType(events, "executor_idle").stream()
        .anyMatch(e -> e.path("shuffle_output").asText().equals("served by the shuffle service")));
  }

  @Test
  void anExecutorKilledAfterTheMapStageLosesNothing() throws Exception {
    CompletableFuture<ItCluster.ClientRun> job = CompletableFuture.supplyAsync(() ->
        it.client(submit("killed", 6_000, "elasticam.executor.instances=2").toArray(new String[0])));
    ApplicationId id = awaitMapStage(job);
    JsonNode victim = ItCluster.ofType(it.events(id), "executor_registered").get(0);
    long killedAt = System.currentTimeMillis();
    ProcessHandle.of(victim.path("pid").asLong()).orElseThrow().destroyForcibly();
    ItCluster.ClientRun run = job.get(180, TimeUnit.SECONDS);
    assertEquals(0, run.exitCode(), run.out() + run.err());
    assertEquals(expected, Corpus.output(fs, output("killed"), REDUCERS));
    List<JsonNode> events = it.events(id);
    assertNoMapRanTwice(events);
    JsonNode removal = ItCluster.ofType(events, "executor_removed").stream()
        .filter(e -> e.path("executor_id").asText().equals(victim.path("executor_id").asText())).findFirst()
        .orElseThrow(() -> new AssertionError("the killed executor was never removed"));
    double doneS = Figures.seconds(killedAt, lastTaskEnd(events));
    Figures.record("WordCountIT.anExecutorKilledAfterTheMapStageLosesNothing", "default", String.format(
        "0 map tasks re-run, 0 fetch failures; the executor removed (%s) %.1f s after the kill; job's last task done"
        + " %.1f s after it", removal.path("reason").asText(), Figures.seconds(killedAt, removal.path("ts").asLong()),
        doneS), "maps_rerun", 0, "fetch_failures", 0, "removed_s", Figures.seconds(killedAt, removal.path("ts").asLong()),
        "done_s", doneS);
  }

  @Test
  void aNodeManagerRestartedBetweenTheStagesStillServesTheMapOutput() throws Exception {
    CompletableFuture<ItCluster.ClientRun> job = CompletableFuture.supplyAsync(() ->
        it.client(submit("nm-restart", 8_000, "elasticam.executor.instances=2").toArray(new String[0])));
    ApplicationId id = awaitMapStage(job);
    long restartAt = System.currentTimeMillis();
    it.cluster.restartNodeManager(1);
    long backAt = System.currentTimeMillis();
    ItCluster.ClientRun run = job.get(180, TimeUnit.SECONDS);
    assertEquals(0, run.exitCode(), run.out() + run.err());
    assertEquals(expected, Corpus.output(fs, output("nm-restart"), REDUCERS));
    List<JsonNode> events = it.events(id);
    assertNoMapRanTwice(events);
    // A supervised NodeManager with recovery leaves its containers running: the executors survive.
    assertEquals(2, ItCluster.ofType(events, "executor_registered").size(), "no executor was replaced");
    assertTrue(ItCluster.ofType(events, "executor_removed").stream()
        .allMatch(e -> e.path("reason").asText().equals("app_end")), "no executor was lost before the end");
    double doneS = Figures.seconds(restartAt, lastTaskEnd(events));
    Figures.record("WordCountIT.aNodeManagerRestartedBetweenTheStagesStillServesTheMapOutput", "default",
        String.format("NodeManager down and back %.1f s; 0 map tasks re-run, 0 executors replaced, 0 fetch failures;"
            + " job's last task done %.1f s after the restart began", Figures.seconds(restartAt, backAt), doneS),
        "restart_s", Figures.seconds(restartAt, backAt), "maps_rerun", 0, "executors_replaced", 0, "done_s", doneS);
  }

  private static long lastTaskEnd(List<JsonNode> events) {
    return ItCluster.ofType(events, "task_end").stream().mapToLong(e -> e.path("ts").asLong()).max().orElseThrow();
  }

  @Test
  void aCorruptedBlockReRunsOnlyTheMapTaskThatWroteIt() throws Exception {
    CompletableFuture<ItCluster.ClientRun> job = CompletableFuture.supplyAsync(() ->
        it.client(submit("corrupt", 6_000, "elasticam.executor.instances=2").toArray(new String[0])));
    ApplicationId id = awaitMapStage(job);
    int corrupted = corruptOneMapOutput(id);
    ItCluster.ClientRun run = job.get(180, TimeUnit.SECONDS);
    assertEquals(0, run.exitCode(), run.out() + run.err());
    assertEquals(expected, Corpus.output(fs, output("corrupt"), REDUCERS));
    List<JsonNode> events = it.events(id);
    List<JsonNode> failed = ItCluster.ofType(events, "fetch_failed");
    assertFalse(failed.isEmpty(), "a reducer met the corrupt block");
    for (JsonNode f : failed) {
      assertEquals("[" + corrupted + "]", f.path("maps").toString(), f.toString());
    }
    Set<Integer> rerun = new HashSet<>();
    ItCluster.ofType(events, "task_end").stream().filter(e -> e.path("stage_id").asInt() == 0)
        .filter(e -> e.path("attempt").asInt() > 0).forEach(e -> rerun.add(e.path("task").asInt()));
    assertEquals(Set.of(corrupted), rerun, "only the map task whose block was corrupt ran again");
    long firstFailure = failed.stream().mapToLong(e -> e.path("ts").asLong()).min().orElseThrow();
    long rerunEnd = ItCluster.ofType(events, "task_end").stream().filter(e -> e.path("stage_id").asInt() == 0)
        .filter(e -> e.path("attempt").asInt() > 0).mapToLong(e -> e.path("ts").asLong()).max().orElseThrow();
    Figures.record("WordCountIT.aCorruptedBlockReRunsOnlyTheMapTaskThatWroteIt", "default", String.format(
        "%d fetch failure(s) → 1 map re-run, its output back %.1f s after the first failure", failed.size(),
        Figures.seconds(firstFailure, rerunEnd)), "fetch_failures", failed.size(), "maps_rerun", 1,
        "output_back_s", Figures.seconds(firstFailure, rerunEnd));
  }

  /** Waits until the map stage completed (the reduce stage is behind its pause); the application's id. */
  private static ApplicationId awaitMapStage(CompletableFuture<ItCluster.ClientRun> job) throws Exception {
    return it.awaitStageCompleted(job, 0);
  }

  /** Flips bytes in the middle of the largest map output data file of the application; its map id. */
  private static int corruptOneMapOutput(ApplicationId id) throws IOException {
    Path largest = null;
    for (int n = 0; n < it.cluster.nodeHosts().size(); n++) {
      Path local = it.cluster.workDir().resolve("nm-" + n).resolve("local");
      if (!Files.isDirectory(local)) {
        continue;
      }
      try (Stream<Path> files = Files.walk(local)) {
        for (Path p : files.filter(p -> p.toString().contains(id.toString())
            && p.getFileName().toString().matches("map-\\d+\\.data")).toList()) {
          if (largest == null || Files.size(p) > Files.size(largest)) {
            largest = p;
          }
        }
      }
    }
    if (largest == null) {
      throw new AssertionError("no map output of " + id + " under the NodeManagers' local dirs");
    }
    try (RandomAccessFile f = new RandomAccessFile(largest.toFile(), "rw")) {
      for (long pos = 0; pos < f.length(); pos += 4096) {
        f.seek(pos);
        int b = f.read();
        f.seek(pos);
        f.write(b ^ 0x5a);
      }
    }
    String name = largest.getFileName().toString();
    return Integer.parseInt(name.substring("map-".length(), name.length() - ".data".length()));
  }
}
