package org.elasticam.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.elasticam.embedded.EmbeddedContainerExecutor;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The AM and executors run on the node's Java, not the client's: the NodeManagers here give
 * containers a Java home at a path the client never uses, and nothing of the client's reaches the
 * containers. Keys point either elsewhere; a Java that is too old stops the container before its
 * JVM with one line that names the version and the key.
 */
@Timeout(300)
class JavaHomeIT {

  private static final Path WORK = Path.of("target", "java-home-it").toAbsolutePath();
  private static Path nodeJdk;
  private static ItCluster it;

  @BeforeAll
  static void start() throws Exception {
    nodeJdk = linkedJdk("node-jdk");
    it = ItCluster.start("java-home", s -> s.withNodeManagers(1)
        .withConf(EmbeddedContainerExecutor.NODE_JAVA_HOME, nodeJdk.toString()));
  }

  @AfterAll
  static void stop() {
    if (it != null) {
      it.close();
    }
  }

  /** A Java home of its own path, whose entries are links to this JVM's JDK. */
  private static Path linkedJdk(String name) throws IOException {
    Path home = Files.createDirectories(WORK.resolve(name));
    Path real = Path.of(System.getProperty("java.home"));
    try (Stream<Path> entries = Files.list(real)) {
      for (Path e : entries.toList()) {
        Path link = home.resolve(e.getFileName().toString());
        if (!Files.exists(link, java.nio.file.LinkOption.NOFOLLOW_LINKS)) {
          Files.createSymbolicLink(link, e);
        }
      }
    }
    return home;
  }

  /** A Java 11 home as far as anyone can tell before starting it: its release file and its java -version. */
  private static Path oldJdk() throws IOException {
    Path home = Files.createDirectories(WORK.resolve("jdk-11"));
    Path java = Files.createDirectories(home.resolve("bin")).resolve("java");
    Files.writeString(java, "#!/bin/sh\necho 'openjdk version \"11.0.2\" 2019-01-15' >&2\nexit 1\n");
    assertTrue(java.toFile().setExecutable(true));
    Files.writeString(home.resolve("release"), "JAVA_VERSION=\"11.0.2\"\nOS_NAME=\"Linux\"\n");
    return home;
  }

  @Test
  void withNoJavaSettingsTheAmAndExecutorsRunOnTheNodesJava() throws Exception {
    assertFalse(nodeJdk.toString().equals(System.getenv("JAVA_HOME")), "the node's path is not the client's");
    ItCluster.ClientRun run = it.client("submit", "--conf", "elasticam.executor.instances=2", "sleep", "--tasks", "2",
        "--task-ms", "10");
    assertEquals(0, run.exitCode(), run.out() + run.err());
    List<JsonNode> events = it.events(run.appId());
    JsonNode start = ItCluster.ofType(events, "app_start").get(0);
    assertEquals(nodeJdk.toString(), start.path("java_home").asText());
    assertTrue(start.path("java_version").asText().startsWith("17"), start.toString());
    List<JsonNode> registered = ItCluster.ofType(events, "executor_registered");
    assertFalse(registered.isEmpty());
    for (JsonNode r : registered) {
      assertEquals(nodeJdk.toString(), r.path("java_home").asText(), r.toString());
    }
  }

  @Test
  void keysPointTheAmAndTheExecutorsAtOtherJavaHomes() throws Exception {
    Path amJdk = linkedJdk("am jdk");
    Path executorJdk = linkedJdk("executor-jdk");
    ItCluster.ClientRun run = it.client("submit", "--conf", "elasticam.yarn.appMasterEnv.JAVA_HOME=" + amJdk,
        "--conf", "elasticam.executorEnv.JAVA_HOME=" + executorJdk, "--conf", "elasticam.executor.instances=1",
        "sleep", "--tasks", "1", "--task-ms", "10");
    assertEquals(0, run.exitCode(), run.out() + run.err());
    assertFalse(run.err().contains("unknown configuration key"), run.err());
    List<JsonNode> events = it.events(run.appId());
    assertEquals(amJdk.toString(), ItCluster.ofType(events, "app_start").get(0).path("java_home").asText());
    assertEquals(executorJdk.toString(),
        ItCluster.ofType(events, "executor_registered").get(0).path("java_home").asText());
  }

  @Test
  void theUsersJvmOptionsClasspathLibraryPathAndVariablesReachTheTask() throws Exception {
    Path dir = Files.createDirectories(WORK.resolve("probe"));
    Path extra = Files.createDirectories(dir.resolve("extra classes"));
    Files.writeString(extra.resolve("probe-resource.txt"), "from the extra classpath");
    Path natives = Files.createDirectories(dir.resolve("native"));
    Path out = dir.resolve("seen");
    Files.deleteIfExists(out);
    Path jar = UserJobJar.build(dir.resolve("jar"), "probe.jar", java.util.Map.of("Probe", String.join("\n",
        "package it.user;",
        "import java.nio.file.*;",
        "import java.util.*;",
        "import org.elasticam.api.*;",
        "public class Probe implements Job {",
        "  public List<Stage> stages(String[] args) {",
        "    return List.of(Stage.builder(0, \"probe\", See.class).task(TaskSpec.of(Map.of(\"out\", args[0]))).build());",
        "  }",
        "  public static class See implements Task {",
        "    public void run(TaskContext ctx) throws Exception {",
        "      String res = new String(See.class.getClassLoader().getResourceAsStream(\"probe-resource.txt\").readAllBytes());",
        "      Files.writeString(Paths.get(ctx.params().get(\"out\")), String.join(\"\\n\",",
        "          System.getProperty(\"probe.option\"), System.getProperty(\"probe.executor\"), System.getenv(\"PROBE_VAR\"),",
        "          res, System.getenv(\"LD_LIBRARY_PATH\"), System.getProperty(\"java.library.path\")));",
        "    }",
        "  }",
        "}")));
    ItCluster.ClientRun run = it.client("submit", "--conf", "elasticam.executor.instances=1",
        "--conf", "elasticam.executor.extraJavaOptions='-Dprobe.option=a b $HOME' -Dprobe.executor={{EXECUTOR_ID}}"
            + " -Xlog:gc:file=<LOG_DIR>/gc.log",
        "--conf", "elasticam.executor.extraClassPath=" + extra,
        "--conf", "elasticam.executor.extraLibraryPath=" + natives,
        "--conf", "elasticam.executorEnv.PROBE_VAR=$(echo never) `run`",
        "--conf", "elasticam.yarn.am.extraJavaOptions=-Dprobe.am={{APP_ID}}",
        "--jar", jar.toString(), "--class", "it.user.Probe", out.toString());
    assertEquals(0, run.exitCode(), run.out() + run.err());
    List<String> seen = Files.readAllLines(out);
    assertEquals("a b $HOME", seen.get(0), "an option with a space and a $, as written");
    JsonNode registered = ItCluster.ofType(it.events(run.appId()), "executor_registered").get(0);
    assertEquals(registered.path("executor_id").asText(), seen.get(1), "{{EXECUTOR_ID}} replaced");
    assertEquals("$(echo never) `run`", seen.get(2), "a variable, literally");
    assertEquals("from the extra classpath", seen.get(3));
    assertTrue(seen.get(4).startsWith(natives + ":"), seen.get(4));
    assertTrue(seen.get(5).startsWith(natives + ":"), "the JVM looks there for native libraries: " + seen.get(5));
    List<Path> containers;
    try (Stream<Path> dirs = Files.list(it.cluster.nodeManagerLogDir(0).resolve(run.appId().toString()))) {
      containers = dirs.toList();
    }
    assertTrue(containers.stream().anyMatch(c -> Files.exists(c.resolve("gc.log"))),
        "<LOG_DIR> is the container's log dir");
    Path am = containers.stream().filter(c -> Files.exists(c.resolve("AppMaster.stderr"))).findFirst().orElseThrow();
    String amLaunch = Files.readString(am.resolve("launch_container.sh"));
    assertTrue(amLaunch.contains("-Dprobe.am=" + run.appId()), "the AM's options, {{APP_ID}} replaced");
    assertTrue(amLaunch.contains("-XX:Tier3InvocationThreshold=600 -XX:Tier3MinInvocationThreshold=300"
        + " -XX:Tier3CompileThreshold=6000 -XX:Tier3BackEdgeThreshold=180000 -XX:Tier4InvocationThreshold=15000"
        + " -XX:Tier4CompileThreshold=45000 -XX:Tier4BackEdgeThreshold=120000 -Dprobe.am="),
        "the AM's compilers three times as hot, before the user's options (which may set them back)");
  }

  @Test
  void anAmNodeWithTooOldAJavaIsOneLineNamingTheVersionAndTheKey() throws Exception {
    Path old = oldJdk();
    ItCluster.ClientRun run = it.client("submit", "--conf", "elasticam.yarn.appMasterEnv.JAVA_HOME=" + old,
        "--conf", "elasticam.yarn.maxAppAttempts=1", "sleep", "--tasks", "1");
    assertEquals(1, run.exitCode(), run.out() + run.err());
    String line = "elasticam: the AM container's Java is 11.0.2 (JAVA_HOME=" + old + " on "
        + it.cluster.nodeHosts().get(0) + "); ElasticAM's AM and executors need Java 17 or later: set"
        + " elasticam.yarn.appMasterEnv.JAVA_HOME to a Java 17 home on the nodes";
    List<String> errors = run.err().lines().filter(l -> l.startsWith("elasticam:")).toList();
    assertEquals(List.of(line), errors, run.err());
    assertFalse(run.out().contains("diagnostics:"), "not YARN's page of launch details:\n" + run.out());
    assertTrue(it.report(run.appId()).getDiagnostics().contains(line.substring("elasticam: ".length())),
        "the application's diagnostics say the same");
    assertFalse(org.apache.hadoop.fs.FileSystem.get(it.conf()).exists(it.stagingDir(run.appId())),
        "the client removed the staging directory of an AM that never ran");
  }

  @Test
  void executorsOnTooOldAJavaFailTheJobWithTheSameReason() throws Exception {
    Path old = oldJdk();
    ItCluster.ClientRun run = it.client("submit", "--conf", "elasticam.executorEnv.JAVA_HOME=" + old,
        "--conf", "elasticam.executor.instances=1", "--conf", "elasticam.yarn.maxExecutorFailures=2",
        "sleep", "--tasks", "1");
    assertEquals(1, run.exitCode(), run.out() + run.err());
    String reason = "an executor container's Java is 11.0.2 (JAVA_HOME=" + old + " on " + it.cluster.nodeHosts().get(0)
        + "); ElasticAM's AM and executors need Java 17 or later: set elasticam.executorEnv.JAVA_HOME to a Java 17"
        + " home on the nodes";
    assertTrue(run.out().contains(reason), run.out());
    List<JsonNode> removed = ItCluster.ofType(it.events(run.appId()), "executor_removed");
    assertFalse(removed.isEmpty());
    for (JsonNode r : removed) {
      assertEquals(40, r.path("exit_status").asInt(), r.toString());
      assertTrue(r.path("message").asText().contains(reason), r.toString());
      assertTrue(r.path("counted_as_failure").asBoolean(), r.toString());
    }
  }
}
