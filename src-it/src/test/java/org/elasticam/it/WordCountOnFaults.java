package org.elasticam.it;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.function.UnaryOperator;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.elasticam.embedded.EmbeddedCluster;
import org.elasticam.embedded.ShuffleServiceInstall;

/**
 * What the fault tests share: a cluster whose NodeManagers run the shuffle service, a generated
 * corpus with its independently counted words, and a two-executor wordcount with a pause between
 * the map and the reduce stage — the window a test injects its fault in.
 */
final class WordCountOnFaults implements AutoCloseable {

  static final int REDUCERS = 2;

  final ItCluster it;
  final FileSystem fs;
  private final Path input;
  private final Map<String, Long> expected;

  private WordCountOnFaults(ItCluster it, FileSystem fs, Path input, Map<String, Long> expected) {
    this.it = it;
    this.fs = fs;
    this.input = input;
    this.expected = expected;
  }

  /** Four files of 512 KiB from {@code seed}, on a cluster of two 6 GiB nodes tuned by {@code tune}. */
  static WordCountOnFaults start(String name, long seed, UnaryOperator<EmbeddedCluster.Settings> tune)
      throws Exception {
    java.nio.file.Path jar = ShuffleJar.path();
    ItCluster it = ItCluster.start(name, s -> tune.apply(s.withNodeResources(6144, 8)
        .withShuffleService(ShuffleServiceInstall.onClasspath(jar))));
    FileSystem fs = FileSystem.get(it.conf());
    Path input = new Path(it.cluster.workDir().resolve("corpus").toUri());
    Corpus.write(fs, input, 4, 1 << 19, seed);
    return new WordCountOnFaults(it, fs, input, Corpus.count(fs, input));
  }

  Path output() {
    return new Path(it.cluster.workDir().resolve("out").toUri());
  }

  /** Submits the wordcount, pausing {@code pauseMs} before the reducers, with extra {@code key=value} settings. */
  CompletableFuture<ItCluster.ClientRun> submit(int pauseMs, String... conf) throws java.io.IOException {
    fs.delete(output(), true);
    List<String> args = new ArrayList<>(List.of("submit", "--conf", "elasticam.shuffle.service.enabled=true",
        "--conf", "elasticam.executor.memory=384m", "--conf", "elasticam.executor.instances=2",
        "--conf", "elasticam.locality.wait=0"));
    for (String kv : conf) {
      args.add("--conf");
      args.add(kv);
    }
    args.addAll(List.of("wordcount", "--input", input.toString(), "--output", output().toString(), "--reducers",
        String.valueOf(REDUCERS), "--pause-ms", String.valueOf(pauseMs)));
    return CompletableFuture.supplyAsync(() -> it.client(args.toArray(new String[0])));
  }

  /**
   * The node a fault is injected on: not the AM's (a fault there is an AM restart, a test of its
   * own), and one that ran map tasks, whose output its shuffle service serves until the fault.
   *
   * @param index the NodeManager's index in the cluster
   * @param maps the map tasks that ran there
   */
  record Victim(String host, int index, List<Integer> maps) {}

  Victim victim(org.apache.hadoop.yarn.api.records.ApplicationId id) throws java.io.IOException {
    List<com.fasterxml.jackson.databind.JsonNode> events = it.events(id);
    String amHost = ItCluster.ofType(events, "am_registered").get(0).path("host").asText();
    String host = it.cluster.nodeHosts().stream().filter(h -> !h.equals(amHost)).findFirst().orElseThrow();
    List<Integer> maps = ItCluster.ofType(events, "task_end").stream()
        .filter(e -> e.path("stage_id").asInt() == 0 && e.path("host").asText().equals(host))
        .map(e -> e.path("task").asInt()).toList();
    if (maps.isEmpty()) {
      throw new AssertionError("no map task ran on " + host + ", the node without the AM");
    }
    return new Victim(host, it.cluster.nodeHosts().indexOf(host), maps);
  }

  /** The run succeeded and its counts are exactly the independent count's. */
  void assertExact(ItCluster.ClientRun run) throws Exception {
    assertEquals(0, run.exitCode(), run.out() + run.err());
    assertEquals(expected, Corpus.output(fs, output(), REDUCERS));
  }

  @Override
  public void close() {
    it.close();
  }
}
