package org.elasticam.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;

/**
 * A NodeManager in a network namespace of its own, cut off by bringing its veth down: the kernel
 * drops what crosses, for every process on that host at once (its NodeManager, its executors, its
 * shuffle service), as a switch port that dies would. Real daemons in JVMs of their own ({@code
 * deploy/netns-cluster.sh}): the ResourceManager and NodeManager A on 10.213.7.1, NodeManager B on
 * 10.213.7.2 behind the veth. Needs root and iproute2, so it runs only in its profile: {@code mvn -B
 * verify -pl src-it -Pnetns -Dit.test=NetnsPartitionIT}.
 *
 * <p>A wordcount runs its maps on executors on both hosts; between the stages host B is cut off. The
 * ResourceManager finds B LOST, the AM gives up B's executors and the map output on B, runs those
 * maps again on A, and the reducers read everything from A: exact counts. Healed, B joins again.
 */
@EnabledIfSystemProperty(named = "elasticam.netns", matches = "true")
class NetnsPartitionIT {

  private static final String HOST_B = "10.213.7.2";
  private static final int REDUCERS = 2;

  @Test
  @Timeout(value = 10, unit = TimeUnit.MINUTES)
  void aHostCutOffByItsVethLosesItsWorkToTheOtherHostAndTheCountsStayExact() throws Exception {
    DeployScripts.Cluster cluster = DeployScripts.Cluster.fresh("netns");
    Path work = cluster.work();
    Map<String, String> env = cluster.env();
    FileSystem local = FileSystem.getLocal(new Configuration());
    org.apache.hadoop.fs.Path input = cluster.local("input");
    org.apache.hadoop.fs.Path output = cluster.local("output");
    Corpus.write(local, input, 6, 512 << 10, 17);
    Map<String, Long> expected = Corpus.count(local, input);

    DeployScripts.Result up = netns(env, work, "up");
    try {
      assertEquals(0, up.exitCode(), "the cluster came up: " + up.output() + DeployScripts.logs(work));
      Process job = DeployScripts.start("netns-cluster.sh", env, work, "submit", work.toString(),
          "submit", "wordcount", "--input", input.toString(), "--output", output.toString(),
          "--reducers", String.valueOf(REDUCERS), "--pause-ms", "10000",
          "--conf", "elasticam.shuffle.service.enabled=true",
          // The AM's container (1536 + 384 MiB) fits on A (3072 MiB) only, beside one executor;
          // B (1536 MiB) takes two executors of 384 + 384 MiB.
          "--conf", "elasticam.yarn.am.memory=1536m",
          "--conf", "elasticam.executor.memory=384m",
          "--conf", "elasticam.executor.instances=3",
          "--conf", "elasticam.executor.heartbeatTimeout=8",
          "--conf", "elasticam.locality.wait=0",
          "--conf", "elasticam.shuffle.client.readTimeout=4",
          "--conf", "elasticam.shuffle.client.connectTimeout=2",
          "--conf", "elasticam.eventLog.dir=" + work.resolve("events").toUri(),
          "--conf", "elasticam.yarn.stagingDir=" + work.resolve("staging").toUri());
      Path log = awaitEventLog(work.resolve("events"), job);
      List<JsonNode> mapsDone = await(log, "stage_completed", Duration.ofMinutes(3), job);
      assertTrue(ofType(DeployScripts.events(log), "task_end").stream()
          .anyMatch(t -> t.path("host").asText().equals(HOST_B)), "maps ran on host B");

      long cutAt = System.currentTimeMillis();
      assertEquals(0, netns(env, work, "cut").exitCode());
      assertTrue(job.waitFor(5, TimeUnit.MINUTES), "the job ended");
      String out = Files.readString(DeployScripts.outputOf(job));
      assertEquals(0, job.exitValue(), "the job succeeded: " + out + DeployScripts.logs(work));
      assertEquals(expected, Corpus.output(local, output, REDUCERS), "exact counts");

      List<JsonNode> events = DeployScripts.events(log);
      JsonNode lost = ofType(events, "node_lost").stream().filter(e -> e.path("host").asText().equals(HOST_B))
          .findFirst().orElseThrow(() -> new AssertionError("host B was never lost: " + events));
      // B's executors: each removed before the job ended, as lost, and B ran at least one.
      List<String> onB = ofType(events, "executor_registered").stream()
          .filter(e -> e.path("host").asText().equals(HOST_B)).map(e -> e.path("executor_id").asText()).toList();
      assertFalse(onB.isEmpty(), "executors ran on B");
      for (String executor : onB) {
        JsonNode r = ofType(events, "executor_removed").stream()
            .filter(e -> e.path("executor_id").asText().equals(executor)).findFirst()
            .orElseThrow(() -> new AssertionError("executor " + executor + " on B was never removed: " + events));
        assertEquals("lost", r.path("reason").asText(), "executor " + executor + " on B went otherwise than lost: " + r);
      }
      long rerun = ofType(events, "task_end").stream().filter(t -> t.path("stage_id").asInt() == 0
          && t.path("ts").asLong() > cutAt && t.path("status").asText().equals("SUCCESS")).count();
      assertTrue(rerun > 0, "B's maps ran again");
      assertTrue(ofType(events, "task_end").stream().filter(t -> t.path("ts").asLong() > cutAt)
          .noneMatch(t -> t.path("host").asText().equals(HOST_B) && t.path("status").asText().equals("SUCCESS")),
          "nothing succeeded on B after the cut");

      long jobDoneAt = ofType(events, "app_end").get(0).path("ts").asLong();
      long healAt = System.currentTimeMillis();
      assertEquals(0, netns(env, work, "heal").exitCode());
      long rejoined = awaitRegistrations(work.resolve("b/logs/nm.out"), 2, Duration.ofMinutes(2));
      double lostS = Figures.seconds(cutAt, lost.path("ts").asLong());
      double doneS = Figures.seconds(cutAt, jobDoneAt);
      double rejoinedS = Figures.seconds(healAt, rejoined);
      Figures.record("NetnsPartitionIT", "netns", String.format("B lost at the AM %.1f s after the cut (RM expiry"
          + " 6 s); %d map(s) re-ran; job done %.1f s after the cut; B registered again %.1f s after the heal",
          lostS, rerun, doneS, rejoinedS), "lost_s", lostS, "maps_rerun", rerun, "job_done_s", doneS,
          "rejoined_after_heal_s", rejoinedS, "maps_done_before_cut_ms", cutAt - mapsDone.get(0).path("ts").asLong());
    } finally {
      DeployScripts.Result down = netns(env, work, "down");
      assertEquals(0, down.exitCode(), down.output());
    }
  }

  private static DeployScripts.Result netns(Map<String, String> env, Path work, String command) throws Exception {
    return DeployScripts.run("netns-cluster.sh", env, work, Duration.ofMinutes(4), command, work.toString());
  }

  private static List<JsonNode> ofType(List<JsonNode> events, String type) {
    return ItCluster.ofType(events, type);
  }

  /** The one event log the job writes, once the client has submitted it. */
  private static Path awaitEventLog(Path dir, Process job) throws Exception {
    long deadline = System.currentTimeMillis() + 120_000;
    while (System.currentTimeMillis() < deadline && job.isAlive()) {
      if (Files.isDirectory(dir)) {
        try (Stream<Path> logs = Files.list(dir)) {
          var found = logs.filter(p -> p.toString().endsWith(".jsonl")).findFirst();
          if (found.isPresent()) {
            return found.get();
          }
        }
      }
      Thread.sleep(200);
    }
    throw new AssertionError("no event log in " + dir + ": " + Files.readString(DeployScripts.outputOf(job)));
  }

  private static List<JsonNode> await(Path log, String type, Duration timeout, Process job) throws Exception {
    long deadline = System.currentTimeMillis() + timeout.toMillis();
    while (System.currentTimeMillis() < deadline && job.isAlive()) {
      List<JsonNode> found = ofType(readTolerant(log), type);
      if (!found.isEmpty()) {
        return found;
      }
      Thread.sleep(200);
    }
    throw new AssertionError("no " + type + " in " + log + ": " + Files.readString(DeployScripts.outputOf(job)));
  }

  /** The event log as written so far: a last line still being written is left for the next read. */
  private static List<JsonNode> readTolerant(Path log) throws Exception {
    String text = Files.readString(log, StandardCharsets.UTF_8);
    Path complete = Files.createTempFile(log.getParent().getParent(), "events-", ".jsonl");
    Files.writeString(complete, text.substring(0, text.lastIndexOf('\n') + 1));
    try {
      return DeployScripts.events(complete);
    } finally {
      Files.delete(complete);
    }
  }

  /** When the NodeManager's log first shows {@code n} registrations with the ResourceManager. */
  private static long awaitRegistrations(Path nmLog, int n, Duration timeout) throws Exception {
    long deadline = System.currentTimeMillis() + timeout.toMillis();
    while (System.currentTimeMillis() < deadline) {
      long seen = Files.readAllLines(nmLog, StandardCharsets.ISO_8859_1).stream()
          .filter(l -> l.contains("Registered with ResourceManager as")).count();
      if (seen >= n) {
        return System.currentTimeMillis();
      }
      Thread.sleep(200);
    }
    throw new AssertionError("NodeManager B did not register again within " + timeout);
  }
}
