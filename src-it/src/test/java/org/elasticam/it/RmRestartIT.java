package org.elasticam.it;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.yarn.api.records.ApplicationId;
import org.elasticam.embedded.ShuffleServiceInstall;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The ResourceManager restarted mid-job, with a file-system state store and work-preserving
 * recovery: the AM's heartbeats wait out the restart, it re-registers with the new
 * ResourceManager and resends its requests, and the job goes on with the same attempt, the same
 * executors and exact counts.
 */
@Timeout(300)
class RmRestartIT {

  private static final int FILES = 4;
  private static ItCluster it;
  private static FileSystem fs;
  private static org.apache.hadoop.fs.Path input;
  private static Map<String, Long> expected;

  @BeforeAll
  static void start() throws Exception {
    Path jar = ShuffleJar.path();
    it = ItCluster.start("rmrestart", s -> s.withNodeResources(6144, 8)
        .withShuffleService(ShuffleServiceInstall.onClasspath(jar)).withResourceManagerRecovery());
    fs = FileSystem.get(it.conf());
    input = new org.apache.hadoop.fs.Path(it.cluster.workDir().resolve("corpus").toUri());
    Corpus.write(fs, input, FILES, 1 << 19, 3);
    expected = Corpus.count(fs, input);
  }

  @AfterAll
  static void stop() {
    if (it != null) {
      it.close();
    }
  }

  @Test
  void theJobGoesOnThroughAResourceManagerRestart() throws Exception {
    org.apache.hadoop.fs.Path output = new org.apache.hadoop.fs.Path(it.cluster.workDir().resolve("out").toUri());
    CompletableFuture<ItCluster.ClientRun> job = CompletableFuture.supplyAsync(() -> it.client("submit",
        "--conf", "elasticam.shuffle.service.enabled=true", "--conf", "elasticam.executor.memory=384m",
        "--conf", "elasticam.executor.instances=2", "--conf", "elasticam.locality.wait=0",
        "wordcount", "--input", input.toString(), "--output", output.toString(), "--reducers", "2",
        "--pause-ms", "6000"));
    ApplicationId id = it.awaitStageCompleted(job, 0);
    long t0 = System.currentTimeMillis();
    it.cluster.restartResourceManager();
    long back = System.currentTimeMillis();

    ItCluster.ClientRun run = job.get(240, TimeUnit.SECONDS);
    assertEquals(0, run.exitCode(), run.out() + run.err());
    assertEquals(expected, Corpus.output(fs, output, 2));
    List<JsonNode> events = it.events(id);
    assertEquals(1, ItCluster.ofType(events, "app_start").size(), "one attempt: the AM lived through it");
    assertEquals(1, ItCluster.ofType(events, "rm_resynced").size(), "the AM re-registered with the new RM once");
    assertEquals(2, ItCluster.ofType(events, "executor_registered").size(), "the same two executors throughout");
    assertEquals(List.of(), ItCluster.ofType(events, "executor_removed").stream()
        .filter(e -> !e.path("reason").asText().equals("app_end")).toList(), "no executor lost");
    assertEquals(FILES, ItCluster.ofType(events, "task_end").stream()
        .filter(e -> e.path("stage_id").asInt() == 0).count(), "no map ran twice");
    long reduceSubmitted = ItCluster.ofType(events, "stage_submitted").stream()
        .filter(e -> e.path("stage_id").asInt() == 1).findFirst().orElseThrow().path("ts").asLong();
    System.out.printf("RM restart: down and back in %.1f s; reducers submitted %.1f s after the restart began;"
        + " job done %.1f s after%n", (back - t0) / 1000.0, (reduceSubmitted - t0) / 1000.0,
        (ItCluster.ofType(events, "app_end").get(0).path("ts").asLong() - t0) / 1000.0);
  }
}
