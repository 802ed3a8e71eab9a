package org.elasticam.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.yarn.api.records.ApplicationId;
import org.elasticam.embedded.ShuffleServiceInstall;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Everything at once, for a while: wordcount after wordcount with dynamic allocation and the
 * shuffle service, while a chaos thread kills random executors ({@code kill -9}), restarts
 * NodeManagers, cuts hosts off for a few seconds, and throws malformed requests at the shuffle
 * services and the AM's control plane.
 * Every run's counts must be exact, and every run's event log must account for every executor it
 * launched: registered or removed with a reason, and removed by the end.
 *
 * <p>In CI it runs {@code elasticam.chaos.seconds} (default 120) on a small corpus; the {@code soak}
 * profile runs it for ten minutes on about 100 MiB (RELIABILITY.md has the last result).
 */
@Timeout(3600)
class ChaosSoakIT {

  private static final long SECONDS = Long.getLong("elasticam.chaos.seconds", 120);
  private static final int FILES = Integer.getInteger("elasticam.chaos.files", 8);
  private static final int BYTES_EACH = Integer.getInteger("elasticam.chaos.bytesEach", 1 << 20);
  private static final int REDUCERS = 4;
  private static ItCluster it;
  private static FileSystem fs;
  private static Path input;
  private static Map<String, Long> expected;

  @BeforeAll
  static void start() throws Exception {
    java.nio.file.Path jar = ShuffleJar.path();
    it = ItCluster.start("chaos", s -> s.withNodeManagers(3).withNodeResources(6144, 8)
        .withShuffleService(ShuffleServiceInstall.onClasspath(jar)).withPartitionableNodes()
        // A partition longer than the RM's retry interval costs a heartbeat gap that long.
        .withConf(org.apache.hadoop.yarn.conf.YarnConfiguration.RESOURCEMANAGER_CONNECT_RETRY_INTERVAL_MS, "1000"));
    fs = FileSystem.get(it.conf());
    input = new Path(it.cluster.workDir().resolve("corpus").toUri());
    Corpus.write(fs, input, FILES, BYTES_EACH, 99);
    expected = Corpus.count(fs, input);
  }

  @AfterAll
  static void stop() {
    if (it != null) {
      it.close();
    }
  }

  @Test
  void wordcountStaysExactWhileExecutorsDieNodeManagersRestartAndStrangersKnock() throws Exception {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(SECONDS);
    Chaos chaos = new Chaos(new Random(7));
    List<String> runs = new ArrayList<>();
    int n = 0;
    do {
      Path output = new Path(it.cluster.workDir().resolve("out-" + n).toUri());
      CompletableFuture<ItCluster.ClientRun> job = CompletableFuture.supplyAsync(() -> it.client("submit",
          "--conf", "elasticam.shuffle.service.enabled=true", "--conf", "elasticam.executor.memory=384m",
          "--conf", "elasticam.dynamicAllocation.enabled=true", "--conf", "elasticam.dynamicAllocation.minExecutors=1",
          "--conf", "elasticam.dynamicAllocation.maxExecutors=6",
          "--conf", "elasticam.dynamicAllocation.executorIdleTimeout=5s",
          // The faults are the point: neither limit may end the run.
          "--conf", "elasticam.yarn.maxExecutorFailures=1000", "--conf", "elasticam.task.maxFailures=20",
          "wordcount", "--input", input.toString(), "--output", output.toString(), "--reducers",
          String.valueOf(REDUCERS)));
      ApplicationId id = it.awaitApplication(job);
      while (!job.isDone()) {
        chaos.strike(id);
        Thread.sleep(chaos.pauseMs());
      }
      ItCluster.ClientRun run = job.get();
      assertEquals(0, run.exitCode(), "run " + n + " (" + id + "): " + run.out() + run.err());
      assertEquals(expected, Corpus.output(fs, output, REDUCERS), "run " + n + " counts");
      runs.add(id + ": " + accountFor(id));
      n++;
    } while (System.nanoTime() < deadline);
    System.out.printf("chaos: %d runs of wordcount on %d MiB in %d s, all exact; faults %s%n%s%n", n,
        (long) FILES * BYTES_EACH >> 20, SECONDS, chaos.injected, String.join("\n", runs));
    assertTrue(chaos.injected.values().stream().mapToInt(Integer::intValue).sum() >= 3, "faults were injected");
    // The soak profile sets the duration and corpus; CI leaves them at their defaults.
    String run = java.util.stream.Stream.of("elasticam.chaos.seconds", "elasticam.chaos.files",
        "elasticam.chaos.bytesEach").allMatch(k -> System.getProperty(k) == null) ? "default" : "soak";
    Figures.record("ChaosSoakIT", run, String.format("%d runs of wordcount on %d MiB in %d s, all exact; faults %s;"
        + " every executor launched accounted for", n, (long) FILES * BYTES_EACH >> 20, SECONDS, chaos.injected),
        "runs", n, "mib", (long) FILES * BYTES_EACH >> 20, "seconds", SECONDS, "faults", chaos.injected);
  }

  /** Every executor launched registered or was removed with a reason, and all were removed by the end. */
  private static String accountFor(ApplicationId id) throws IOException {
    List<JsonNode> events = it.events(id);
    Set<String> launched = ids(events, "executor_launched");
    Set<String> registered = ids(events, "executor_registered");
    Map<String, String> removed = new TreeMap<>();
    for (JsonNode e : ItCluster.ofType(events, "executor_removed")) {
      if (!e.path("executor_id").isNull()) {
        removed.put(e.path("executor_id").asText(), e.path("reason").asText());
      }
    }
    assertEquals(launched, removed.keySet(), id + ": every launched executor was removed by the end");
    assertTrue(launched.containsAll(registered), id + ": every registered executor was launched");
    assertTrue(removed.values().stream().noneMatch(String::isBlank), id + ": every removal has a reason");
    Map<String, Integer> byReason = new TreeMap<>();
    removed.values().forEach(r -> byReason.merge(r, 1, Integer::sum));
    return launched.size() + " executors, removed " + byReason;
  }

  private static Set<String> ids(List<JsonNode> events, String type) {
    Set<String> out = new HashSet<>();
    ItCluster.ofType(events, type).forEach(e -> out.add(e.path("executor_id").asText()));
    return out;
  }

  /** The faults, one at a time, at random. */
  private static final class Chaos {
    private final Random random;
    final Map<String, Integer> injected = new TreeMap<>();

    Chaos(Random random) {
      this.random = random;
    }

    long pauseMs() {
      return 2000 + random.nextInt(3000);
    }

    void strike(ApplicationId id) throws Exception {
      switch (random.nextInt(6)) {
        case 0, 1 -> killAnExecutor(id);
        case 2 -> {
          int i = random.nextInt(it.cluster.nodeHosts().size());
          it.cluster.restartNodeManager(i);
          count("nodemanager restarted");
        }
        case 3 -> {
          hostileShuffleRequests(it.cluster.shuffleServiceAddress(random.nextInt(it.cluster.nodeHosts().size())));
          count("hostile shuffle requests");
        }
        case 4 -> {
          partitionAHost(random.nextInt(it.cluster.nodeHosts().size()), 2000 + random.nextInt(4000));
          count("host partitioned");
        }
        default -> {
          if (controlPlaneGarbage(id)) {
            count("control-plane garbage");
          }
        }
      }
    }

    private void killAnExecutor(ApplicationId id) throws IOException {
      List<JsonNode> events = it.events(id);
      Set<String> gone = ids(events, "executor_removed");
      List<Long> pids = new ArrayList<>();
      for (JsonNode e : ItCluster.ofType(events, "executor_registered")) {
        if (!gone.contains(e.path("executor_id").asText())) {
          pids.add(e.path("pid").asLong());
        }
      }
      if (pids.isEmpty()) {
        return;
      }
      ProcessHandle.of(pids.get(random.nextInt(pids.size()))).ifPresent(p -> {
        if (p.destroyForcibly()) {
          count("executor killed");
        }
      });
    }

    /**
     * Cuts a host off from the ResourceManager, the AMs and every reducer for a while: its
     * heartbeats, container starts and stops, and shuffle fetches go nowhere. (Its executors'
     * streams to the AM stay up: they dial the AM directly.)
     */
    private static void partitionAHost(int node, long ms) throws InterruptedException {
      it.cluster.partitionFromResourceManager(node);
      it.cluster.partitionFromApplicationMasters(node);
      it.cluster.partitionShuffleService(node);
      try {
        Thread.sleep(ms);
      } finally {
        it.cluster.healShuffleService(node);
        it.cluster.healFromApplicationMasters(node);
        it.cluster.healPartition(node);
      }
    }

    private void count(String kind) {
      injected.merge(kind, 1, Integer::sum);
    }

    /** Malformed, unsigned and oversized requests; each must be answered with an error or a close. */
    private static void hostileShuffleRequests(InetSocketAddress service) {
      List<String> requests = List.of(
          "GET /shuffle?app=application_1_0001&shuffle=0&reduce=0&maps=0 HTTP/1.1\r\nHost: x\r\n\r\n",
          "GET /" + "a".repeat(20_000) + " HTTP/1.1\r\nHost: x\r\n\r\n",
          "POST /shuffle HTTP/1.1\r\nContent-Length: 99999999999\r\n\r\n",
          "\u0000\u0001\u0002\u0003 not http at all\r\n\r\n");
      for (String r : requests) {
        knock(service.getHostString(), service.getPort(), r);
      }
    }

    private static boolean controlPlaneGarbage(ApplicationId id) throws Exception {
      org.apache.hadoop.yarn.api.records.ApplicationReport r = it.report(id);
      if (r.getRpcPort() <= 0) {
        return false;
      }
      knock(r.getHost(), r.getRpcPort(), "PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n\u0000\u0000\u0004garbage frames");
      return true;
    }

    /** Sends the bytes and reads until the server answers and closes, or ten seconds pass. */
    private static void knock(String host, int port, String bytes) {
      try (Socket s = new Socket(host, port)) {
        s.setSoTimeout(10_000);
        OutputStream out = s.getOutputStream();
        out.write(bytes.getBytes(StandardCharsets.ISO_8859_1));
        out.flush();
        InputStream in = s.getInputStream();
        byte[] buf = new byte[4096];
        while (in.read(buf) >= 0) {
          // drain
        }
      } catch (IOException e) {
        // a reset or a timeout is an answer too
      }
    }
  }
}
