package org.elasticam.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.yarn.client.api.YarnClient;
import org.apache.hadoop.yarn.conf.YarnConfiguration;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** A user's mistakes: one clear line, the right exit code, no stack trace, nothing submitted. */
@Timeout(120)
class ClientBadInputIT {

  private static ItCluster it;

  @BeforeAll
  static void start() throws Exception {
    it = ItCluster.start("bad-input", s -> s.withNodeManagers(1));
  }

  @AfterAll
  static void stop() {
    if (it != null) {
      it.close();
    }
  }

  private static int applications() throws Exception {
    try (YarnClient yarn = YarnClient.createYarnClient()) {
      yarn.init(it.conf());
      yarn.start();
      return yarn.getApplications().size();
    }
  }

  private static void assertRefused(int code, String expected, String... args) throws Exception {
    int before = applications();
    ItCluster.ClientRun run = it.client(args);
    assertEquals(code, run.exitCode(), run.out() + run.err());
    List<String> lines = run.err().lines().filter(l -> !l.contains("WARN")).toList();
    assertEquals(1, lines.size(), "one line:\n" + run.err());
    assertTrue(lines.get(0).contains(expected), lines.get(0));
    assertFalse(run.err().contains("\tat "), "no stack trace");
    assertEquals(before, applications(), "nothing submitted");
  }

  @Test
  void unknownJob() throws Exception {
    assertRefused(2, "unknown job 'dance'", "submit", "dance");
  }

  @Test
  void unknownFlag() throws Exception {
    assertRefused(2, "unknown option '--speed'", "submit", "sleep", "--speed", "3");
  }

  @Test
  void missingJar() throws Exception {
    assertRefused(2, "user jar /nonexistent.jar does not exist", "submit", "--jar", "/nonexistent.jar", "--class", "a.B");
  }

  @Test
  void missingClass() throws Exception {
    Path jar = UserJobJar.build(Path.of("target", "bad-input-job"));
    assertRefused(2, "class a.Missing is not in", "submit", "--jar", jar.toString(), "--class", "a.Missing");
  }

  @Test
  void aWrongClassNameGetsTheNearestNamesInTheJar() throws Exception {
    Path jar = UserJobJar.build(Path.of("target", "bad-input-job"));
    assertRefused(2, "class it.user.hellojob is not in " + jar + " (did you mean it.user.HelloJob", "submit", "--jar",
        jar.toString(), "--class", "it.user.hellojob");
  }

  @Test
  void aJobWhoseStagesCannotRunIsRefusedBeforeSubmitting() throws Exception {
    Path jar = UserJobJar.build(Path.of("target", "bad-input-job"));
    // PlacedJob reads its arguments: none given, its stages() throws, in the client already.
    assertRefused(2, "the job could not be planned: its code threw ArrayIndexOutOfBoundsException: Index 0 out of"
        + " bounds for length 0 at it.user.PlacedJob.stages(PlacedJob.java:", "submit", "--jar", jar.toString(),
        "--class", "it.user.PlacedJob");
    assertRefused(2, "the job could not be planned: it.user.HelloTask implements neither", "submit", "--jar",
        jar.toString(), "--class", "it.user.HelloTask");
  }

  @Test
  void anOptionAmongTheJobsArgumentsIsRefused() throws Exception {
    Path jar = UserJobJar.build(Path.of("target", "bad-input-job"));
    assertRefused(2, "--name comes after the job's own arguments (which start at '3')", "submit", "--jar",
        jar.toString(), "--class", "it.user.HelloJob", "3", "--name", "x");
  }

  @Test
  void aKeytabThatCannotBeReadStopsTheSubmissionOnAnyCluster() throws Exception {
    assertRefused(2, "the keytab /nonexistent/me.keytab (--keytab, elasticam.yarn.keytab) does not exist or cannot be"
        + " read", "submit", "--principal", "me@EXAMPLE.COM", "--keytab", "/nonexistent/me.keytab", "sleep");
    assertRefused(2, "elasticam.yarn.principal and elasticam.yarn.keytab must be set together", "submit",
        "--principal", "me@EXAMPLE.COM", "sleep");
  }

  @Test
  void invalidConfiguration() throws Exception {
    assertRefused(2, "elasticam.executor.cores = 'lots': not an integer", "submit", "sleep",
        "--conf", "elasticam.executor.cores=lots");
  }

  @Test
  void badTraceFile() throws Exception {
    Path f = Files.writeString(Files.createTempFile("bad", ".trace.jsonl"), "{\"stage_id\": \"x\"}\n");
    assertRefused(2, "bad trace file", "submit", "trace", "--file", f.toString());
  }

  @Test
  void unknownCommand() throws Exception {
    assertRefused(2, "unknown command 'launch'", "launch");
  }

  @Test
  void anUnreachableClusterIsARuntimeError() throws Exception {
    Configuration conf = new YarnConfiguration(it.conf());
    conf.set(YarnConfiguration.RM_ADDRESS, "127.0.0.1:1");
    conf.setLong(YarnConfiguration.RESOURCEMANAGER_CONNECT_MAX_WAIT_MS, 2_000);
    conf.setLong(YarnConfiguration.RESOURCEMANAGER_CONNECT_RETRY_INTERVAL_MS, 500);
    conf.setInt("ipc.client.connect.max.retries", 0);
    ItCluster.ClientRun run = it.client(conf, "submit", "sleep");
    assertEquals(1, run.exitCode(), run.out() + run.err());
    assertEquals(1, run.err().lines().count(), run.err());
    assertFalse(run.err().contains("\tat "));
  }
}
