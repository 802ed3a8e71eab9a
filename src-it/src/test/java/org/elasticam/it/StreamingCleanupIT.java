package org.elasticam.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A stream with a shuffle in every batch, served by the NodeManagers' shuffle service: each
 * batch's shuffle files are deleted once the batch is done, so the disk the stream uses stays flat
 * however long it runs; one batch whose reducer always fails is abandoned and reported, and the
 * stream goes on to its end.
 */
@Timeout(value = 3, unit = java.util.concurrent.TimeUnit.HOURS)
class StreamingCleanupIT {

  /** 24 in CI; a soak: {@code -Delasticam.soak.batches=600} (10 minutes). */
  private static final int BATCHES = Integer.getInteger("elasticam.soak.batches", 24);
  private static final int FAILING_BATCH = 5;
  /** Each map task writes this many 64 KiB records: 2 maps, 4 MiB of shuffle per batch. */
  private static final int RECORDS_PER_MAP = 32;
  private static ItCluster it;

  @BeforeAll
  static void start() throws Exception {
    Path jar = ShuffleJar.path();
    it = ItCluster.start("streaming-cleanup", s -> s.withNodeManagers(2)
        .withShuffleService(org.elasticam.embedded.ShuffleServiceInstall.onClasspath(jar)));
  }

  @AfterAll
  static void stop() {
    if (it != null) {
      it.close();
    }
  }

  @Test
  void eachBatchsShuffleIsDeletedAndAFailedBatchDoesNotStopTheStream() throws Exception {
    Path jar = UserJobJar.build(Path.of("target", "streaming-cleanup"), "shuffling-stream.jar", Map.of("Shuffling",
        String.join("\n",
        "package it.user;",
        "import java.util.*;",
        "import org.elasticam.api.*;",
        "public class Shuffling implements StreamingJob {",
        "  public List<Stage> batch(BatchInput in) {",
        "    Stage map = Stage.builder(0, \"write\", Write.class).tasks(2).writesShuffle(2).build();",
        "    Stage.Builder reduce = Stage.builder(1, \"read\", Read.class).parents(0);",
        "    for (int i = 0; i < 2; i++) reduce.task(TaskSpec.of(Map.of(\"fail\", String.valueOf(in.batch() == "
            + FAILING_BATCH + "))));",
        "    return List.of(map, reduce.build());",
        "  }",
        "  public static class Write implements Task {",
        "    public void run(TaskContext ctx) throws Exception {",
        "      byte[] value = new byte[64 * 1024];",
        "      new Random(ctx.partition()).nextBytes(value);",
        "      for (int i = 0; i < " + RECORDS_PER_MAP + "; i++) {",
        "        ctx.shuffleOutput().write(new byte[] {(byte) i}, value);",
        "      }",
        "    }",
        "  }",
        "  public static class Read implements Task {",
        "    public void run(TaskContext ctx) throws Exception {",
        "      if (Boolean.parseBoolean(ctx.params().get(\"fail\"))) throw new IllegalStateException(\"bad batch\");",
        "      ShuffleInput in = ctx.shuffleInput(0);",
        "      while (in.next()) { }",
        "    }",
        "  }",
        "}")));
    List<Long> usage = new CopyOnWriteArrayList<>();
    // The disk use is sampled every 200 ms while the stream runs.
    java.util.concurrent.ScheduledExecutorService sampler = java.util.concurrent.Executors
        .newSingleThreadScheduledExecutor();
    sampler.scheduleAtFixedRate(() -> usage.add(shuffleBytesOnNodes()), 0, 200,
        java.util.concurrent.TimeUnit.MILLISECONDS);
    ItCluster.ClientRun run;
    try {
      run = it.client("submit",
          "--conf", "elasticam.shuffle.service.enabled=true",
          "--conf", "elasticam.executor.instances=2",
          "--conf", "elasticam.executor.memory=256m",
          "--conf", "elasticam.task.maxFailures=2",
          "--conf", "elasticam.yarn.placement=spread",
          "--jar", jar.toString(), "--class", "it.user.Shuffling",
          "--batch-ms", "1000", "--batches", String.valueOf(BATCHES), "--rate", "const:10");
    } finally {
      sampler.shutdown();
      sampler.awaitTermination(10, java.util.concurrent.TimeUnit.SECONDS);
    }
    assertEquals(0, run.exitCode(), run.out() + run.err());
    List<JsonNode> events = it.events(run.appId());

    List<JsonNode> failed = ItCluster.ofType(events, "batch_failed");
    assertEquals(1, failed.size(), "one batch failed: " + failed);
    assertEquals(FAILING_BATCH, failed.get(0).path("batch").asInt());
    assertTrue(failed.get(0).path("reason").asText().contains("bad batch"), failed.get(0).toString());
    List<JsonNode> completed = ItCluster.ofType(events, "batch_completed");
    assertEquals(BATCHES - 1, completed.size(), "every other batch completed, those after the failure included");
    assertEquals(BATCHES - 1, completed.get(completed.size() - 1).path("batch").asInt());
    JsonNode end = ItCluster.ofType(events, "app_end").get(0);
    assertTrue(end.path("diagnostics").asText().contains("1 failed and were abandoned (batches " + FAILING_BATCH + ")"),
        end.toString());

    List<JsonNode> removed = ItCluster.ofType(events, "shuffle_removed");
    assertEquals(BATCHES, removed.size(), "each batch's shuffle deleted, the failed one's too: " + removed.size());

    // One batch's shuffle is 4 MiB; two may be on disk at once (one written, one not deleted yet).
    // While a late start's backlog is caught up, batches end every 0.1-0.2 s and the service's
    // deletes trail them by a few: 3.5 batches' worth once on a busy machine (its first batch took
    // 6.5 s, the next eight ended within 1.6 s). Kept, they would be all 24.
    long perBatch = 2L * RECORDS_PER_MAP * 64 * 1024;
    long peak = usage.stream().mapToLong(Long::longValue).max().orElse(0);
    assertTrue(peak > 0, "the sampler saw shuffle files: " + usage);
    assertTrue(peak <= 6 * perBatch, "at most a few batches' shuffle on disk at any time, not " + BATCHES
        + ": peak " + peak + " bytes, one batch " + perBatch);
    Figures.record("StreamingCleanupIT", "default", String.format(java.util.Locale.ROOT,
        "%d batches of %,d bytes of shuffle: peak on the nodes' disks %,d bytes (%.1f batches); batch %d failed,"
        + " the stream went on", BATCHES, perBatch, peak, (double) peak / perBatch, FAILING_BATCH),
        "batches", BATCHES, "bytes_per_batch", perBatch, "peak_bytes", peak, "samples", usage.size());
  }

  /**
   * Bytes of shuffle files under every NodeManager's local dirs now. The nodes create and delete
   * files and directories all the time (containers' scratch, logs, the shuffles deleted by the test
   * itself): one that vanishes during the walk is skipped, so a sample is never lost to it.
   */
  private static long shuffleBytesOnNodes() {
    long[] bytes = {0};
    try {
      Files.walkFileTree(it.cluster.workDir(), new java.nio.file.SimpleFileVisitor<>() {
        @Override
        public java.nio.file.FileVisitResult visitFile(Path p, java.nio.file.attribute.BasicFileAttributes a) {
          if (a.isRegularFile() && p.toString().contains("/elasticam-shuffle/")) {
            bytes[0] += a.size();
          }
          return java.nio.file.FileVisitResult.CONTINUE;
        }

        @Override
        public java.nio.file.FileVisitResult visitFileFailed(Path p, IOException e) {
          return java.nio.file.FileVisitResult.CONTINUE;
        }

        @Override
        public java.nio.file.FileVisitResult postVisitDirectory(Path dir, IOException e) {
          return java.nio.file.FileVisitResult.CONTINUE; // a directory deleted while it was listed
        }
      });
    } catch (IOException e) {
      // Not thrown: every failure above continues the walk.
    }
    return bytes[0];
  }
}
