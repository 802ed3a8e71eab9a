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
}
