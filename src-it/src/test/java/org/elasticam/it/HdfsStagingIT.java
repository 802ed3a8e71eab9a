package org.elasticam.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.hdfs.MiniDFSCluster;
import org.apache.hadoop.yarn.api.records.ApplicationId;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * With fs.defaultFS on HDFS (a MiniDFSCluster), the client stages the jars on HDFS, NodeManagers
 * localize them from there, the AM writes its event log there (hflushed), and the staging
 * directory is removed at the end. wordcount reads its input from HDFS and writes its output there;
 * this cluster has no shuffle service, so executors serve their own map output.
 */
@Timeout(240)
class HdfsStagingIT {

  private static MiniDFSCluster dfs;
  private static ItCluster it;

  @BeforeAll
  static void start() throws Exception {
    Configuration c = new Configuration();
    c.set(MiniDFSCluster.HDFS_MINIDFS_BASEDIR, Path.of("target", "it-clusters", "hdfs-" + System.currentTimeMillis())
        .toAbsolutePath().toString());
    dfs = new MiniDFSCluster.Builder(c).numDataNodes(1).build();
    dfs.waitActive();
    String uri = dfs.getFileSystem().getUri().toString();
    it = ItCluster.start("hdfs", s -> s.withNodeManagers(1).withConf("fs.defaultFS", uri));
  }

  @AfterAll
  static void stop() {
    if (it != null) {
      it.close();
    }
    if (dfs != null) {
      dfs.shutdown();
    }
  }

  @Test
  void stagingAndTheEventLogLiveOnHdfs() throws Exception {
    Configuration conf = it.conf();
    assertTrue(conf.get("fs.defaultFS").startsWith("hdfs://"), conf.get("fs.defaultFS"));
    org.apache.hadoop.fs.Path events = new org.apache.hadoop.fs.Path("/user/it/events");
    ItCluster.ClientRun run = it.client(conf, "submit", "sleep", "--tasks", "2", "--task-ms", "10",
        "--conf", "elasticam.executor.instances=1", "--conf", "elasticam.eventLog.dir=" + events);
    assertEquals(0, run.exitCode(), run.out() + run.err());
    ApplicationId id = run.appId();
    FileSystem fs = FileSystem.get(conf);
    assertFalse(fs.exists(it.stagingDir(id)), "staging dir removed from HDFS");
    assertTrue(fs.exists(new org.apache.hadoop.fs.Path(fs.getHomeDirectory(), ".elasticam/staging")),
        "staging happened under the HDFS home");
    org.apache.hadoop.fs.Path log = new org.apache.hadoop.fs.Path(events, id + ".jsonl");
    try (BufferedReader r = new BufferedReader(new InputStreamReader(fs.open(log), StandardCharsets.UTF_8))) {
      String last = r.lines().reduce((a, b) -> b).orElse("");
      assertTrue(last.contains("\"event\":\"app_end\"") && last.contains("SUCCEEDED"), last);
    }
  }

  /**
   * An event log directory on another file system than fs.defaultFS, here the local one: the AM
   * writes the log there and the client's summary reads it back. Both qualified the directory on
   * fs.defaultFS, and the AM failed ("Wrong FS") on every attempt.
   */
  @Test
  void anEventLogOnAnotherFileSystemThanTheDefault() throws Exception {
    Path local = java.nio.file.Files.createTempDirectory(Path.of("target").toAbsolutePath(), "local-events");
    ItCluster.ClientRun run = it.client(it.conf(), "submit", "sleep", "--tasks", "2", "--task-ms", "10",
        "--conf", "elasticam.executor.instances=1", "--conf", "elasticam.eventLog.dir=" + local.toUri());
    assertEquals(0, run.exitCode(), run.out() + run.err());
    Path log = local.resolve(run.appId() + ".jsonl");
    List<String> lines = java.nio.file.Files.readAllLines(log);
    String last = lines.get(lines.size() - 1);
    assertTrue(last.contains("\"event\":\"app_end\"") && last.contains("SUCCEEDED"), last);
    assertTrue(run.out().contains("event log       " + log), run.out());
    assertTrue(run.out().contains("tasks           2 succeeded"), run.out());
  }

  /**
   * A later AM attempt goes on writing the log an attempt killed mid-run left open, on a cluster
   * with fewer datanodes than the file's replication (one, against HDFS's default of three): HDFS's
   * client would refuse the append for want of a datanode to add, and the log would be abandoned.
   */
  @Test
  void aLaterAttemptWritesOnInTheEventLogOfAKilledOneOnASmallCluster() throws Exception {
    Configuration conf = it.conf();
    assertTrue(dfs.getDataNodes().size() < conf.getInt("dfs.replication", 3), "fewer datanodes than replicas");
    org.apache.hadoop.fs.Path dir = new org.apache.hadoop.fs.Path("/user/it/takeover");
    String app = "application_1_0042";
    // The first attempt's client stays open, holding the file's lease, as a killed AM's did.
    FileSystem firstClient = FileSystem.newInstance(FileSystem.getDefaultUri(conf), conf);
    org.elasticam.am.events.EventLog first = org.elasticam.am.events.EventLog.create(firstClient, dir, app,
        org.elasticam.time.Clock.system());
    first.write(org.elasticam.report.events.Event.APP_START, org.elasticam.report.events.EventFields.ATTEMPT, 1);
    // Its line reached HDFS before the kill: the log's writer flushes off the caller's thread, and a
    // kill within its flush would lose the line (the log's documented loss), not what this case is about.
    assertTrue(first.awaitFlushed(30_000), "the first attempt's line flushed");
    try (org.elasticam.am.events.EventLog second = org.elasticam.am.events.EventLog.continueOrCreate(
        FileSystem.get(conf), dir, app, org.elasticam.time.Clock.system())) {
      for (int i = 0; i < 3; i++) {
        second.write(org.elasticam.report.events.Event.APP_START, org.elasticam.report.events.EventFields.ATTEMPT, 2);
      }
    }
    List<String> lines;
    try (BufferedReader r = new BufferedReader(new InputStreamReader(
        FileSystem.get(conf).open(new org.apache.hadoop.fs.Path(dir, app + ".jsonl")), StandardCharsets.UTF_8))) {
      lines = r.lines().toList();
    }
    assertEquals(4, lines.size(), lines.toString());
    assertTrue(lines.get(0).contains("\"attempt\":1"), lines.get(0));
    for (String l : lines.subList(1, 4)) {
      assertTrue(l.contains("\"attempt\":2"), l);
    }
    try {
      firstClient.close();
    } catch (java.io.IOException e) {
      // Its lease was taken over: closing its stream fails, as it would have for the killed AM.
    }
  }

  /**
   * Our jar goes to HDFS once per build and reaches the NodeManager once: the second application's
   * AM and executor get the copy the first one's localized (PRIVATE, in the user's file cache), and
   * the file on HDFS keeps the time the first submission saw.
   */
  @Test
  void theJarIsUploadedAndLocalizedOnceForTwoApplications() throws Exception {
    Configuration conf = it.conf();
    FileSystem fs = FileSystem.get(conf);
    String digest = org.elasticam.am.JarDigest.of(it.appJar);
    org.apache.hadoop.fs.Path cached = new org.apache.hadoop.fs.Path(fs.getHomeDirectory(),
        ".elasticam/staging/jars/" + digest + ".jar");
    long[] times = new long[2];
    for (int i = 0; i < 2; i++) {
      ItCluster.ClientRun run = it.client(conf, "submit", "sleep", "--tasks", "2", "--task-ms", "10",
          "--conf", "elasticam.executor.instances=1", "--conf", "elasticam.eventLog.dir=/user/it/events");
      assertEquals(0, run.exitCode(), run.out() + run.err());
      times[i] = fs.getFileStatus(cached).getModificationTime();
    }
    assertEquals(times[0], times[1], "the cached jar was written again");
    List<Path> copies = ItCluster.paths(it.cluster.nodeManagerLocalDir(0).resolve("usercache"),
        p -> p.getFileName().toString().equals(digest + ".jar"));
    assertEquals(1, copies.size(), "localized copies: " + copies);
    assertTrue(copies.get(0).toString().contains("/filecache/") && !copies.get(0).toString().contains("/appcache/"),
        copies.get(0).toString());
  }

  @Test
  void wordcountReadsAndWritesHdfsWithExecutorsServingTheirOwnShuffle() throws Exception {
    Configuration conf = it.conf();
    FileSystem fs = FileSystem.get(conf);
    org.apache.hadoop.fs.Path in = new org.apache.hadoop.fs.Path("/user/it/corpus");
    org.apache.hadoop.fs.Path out = new org.apache.hadoop.fs.Path("/user/it/counts");
    Corpus.write(fs, in, 3, 512 * 1024, 11);
    ItCluster.ClientRun run = it.client(conf, "submit", "--conf", "elasticam.executor.instances=2",
        "--conf", "elasticam.executor.memory=384m", "--conf", "elasticam.eventLog.dir=/user/it/events",
        "wordcount", "--input", in.toString(), "--output", out.toString(), "--reducers", "2");
    assertEquals(0, run.exitCode(), run.out() + run.err());
    assertEquals(Corpus.count(fs, in), Corpus.output(fs, out, 2));
  }

  /**
   * A measurement, not a check (BENCHMARKS.md, "A short task's round trip"): the second of two
   * stages of 2,000 one-ms tasks on two executors, with the event log alternately on HDFS and on the
   * local file system, three rounds; each stage's time, from its log, is printed and written to
   * target/event-log-placement.txt. Runs only when asked:
   * {@code mvn -B verify -pl src-it -Dit.test='HdfsStagingIT#eventLogPlacement' -Delasticam.bench.eventLog=true}.
   */
  @Test
  @Timeout(1800)
  @org.junit.jupiter.api.condition.EnabledIfSystemProperty(named = "elasticam.bench.eventLog", matches = "true",
      disabledReason = "a measurement; -Delasticam.bench.eventLog=true runs it")
  void eventLogPlacement() throws Exception {
    Configuration conf = it.conf();
    FileSystem fs = FileSystem.get(conf);
    StringBuilder report = new StringBuilder();
    for (int round = 1; round <= 3; round++) {
      for (boolean onHdfs : new boolean[] {true, false}) {
        Path local = java.nio.file.Files.createTempDirectory(Path.of("target").toAbsolutePath(), "placement-events");
        String dir = onHdfs ? "/user/it/placement-events" : local.toUri().toString();
        ItCluster.ClientRun run = it.client(conf, "submit", "sleep", "--stages", "2", "--tasks", "2000",
            "--task-ms", "1", "--conf", "elasticam.dynamicAllocation.enabled=false",
            "--conf", "elasticam.executor.instances=2", "--conf", "elasticam.eventLog.dir=" + dir);
        assertEquals(0, run.exitCode(), run.out() + run.err());
        List<String> lines;
        try (BufferedReader r = new BufferedReader(new InputStreamReader(onHdfs
            ? fs.open(new org.apache.hadoop.fs.Path(dir, run.appId() + ".jsonl"))
            : java.nio.file.Files.newInputStream(local.resolve(run.appId() + ".jsonl")), StandardCharsets.UTF_8))) {
          lines = r.lines().toList();
        }
        ItCluster.holdToSchema(run.appId().toString(), lines);
        List<com.fasterxml.jackson.databind.JsonNode> events = new java.util.ArrayList<>();
        for (String line : lines) {
          events.add(new com.fasterxml.jackson.databind.ObjectMapper().readTree(line));
        }
        long submitted = secondStage(events, "stage_submitted");
        long completed = secondStage(events, "stage_completed");
        assertTrue(lines.get(lines.size() - 1).contains("\"event\":\"app_end\""), "the log ends with app_end");
        report.append(String.format(java.util.Locale.ROOT, "round %d, log %s: second stage %d ms, %d lines%n",
            round, onHdfs ? "on HDFS" : "local", completed - submitted, lines.size()));
      }
    }
    System.out.print(report);
    java.nio.file.Files.writeString(Path.of("target", "event-log-placement.txt"), report.toString());
  }

  private static long secondStage(List<com.fasterxml.jackson.databind.JsonNode> events, String type) {
    return ItCluster.ofType(events, type).stream().filter(e -> e.path("stage_id").asInt() == 1)
        .findFirst().orElseThrow().path("ts").asLong();
  }
}
