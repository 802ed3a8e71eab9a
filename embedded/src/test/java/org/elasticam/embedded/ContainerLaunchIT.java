package org.elasticam.embedded;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.yarn.api.ApplicationConstants;
import org.apache.hadoop.yarn.api.ApplicationConstants.Environment;
import org.apache.hadoop.yarn.api.records.Container;
import org.apache.hadoop.yarn.api.records.ContainerLaunchContext;
import org.apache.hadoop.yarn.api.records.ContainerState;
import org.apache.hadoop.yarn.api.records.ContainerStatus;
import org.apache.hadoop.yarn.api.records.Priority;
import org.apache.hadoop.yarn.api.records.Resource;
import org.apache.hadoop.yarn.client.api.AMRMClient.ContainerRequest;
import org.apache.hadoop.yarn.client.api.NMClient;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** Real containers on a chosen node, through an unmanaged AM: environment and NodeManager recovery. */
@Timeout(120)
class ContainerLaunchIT {

  private static final Duration WAIT = Duration.ofSeconds(30);
  private static final String LOG_DIR = ApplicationConstants.LOG_DIR_EXPANSION_VAR;

  private static EmbeddedCluster cluster;
  private UnmanagedApplication app;
  private NMClient nm;

  @BeforeAll
  static void start() throws Exception {
    cluster = EmbeddedCluster.start(
        EmbeddedCluster.Settings.in(Path.of("target/it-clusters/ContainerLaunchIT")).withLogToFile(false));
  }

  @AfterAll
  static void stop() {
    if (cluster != null) {
      cluster.close();
    }
  }

  @BeforeEach
  void register() throws Exception {
    app = UnmanagedApplication.register(cluster.configuration(), getClass().getSimpleName(), WAIT);
    nm = NMClient.createNMClient();
    nm.init(cluster.configuration());
    nm.start();
  }

  @AfterEach
  void unregister() throws Exception {
    nm.stop();
    app.close();
  }

  @Test
  void aContainerPlacedStrictlyOnTheSecondNodeGetsThisJavaHome() throws Exception {
    Container c = allocateOn(cluster.nodeHosts().get(1));
    nm.startContainer(c, launch(Map.of(), "echo \"$JAVA_HOME\" > " + LOG_DIR + "/java_home"
        + " && " + Environment.JAVA_HOME.$$() + "/bin/java -version 2> " + LOG_DIR + "/java_version"));

    assertEquals(0, awaitState(c, ContainerState.COMPLETE).getExitStatus());
    Path logs = containerLogDir(1, c);
    assertEquals(System.getProperty("java.home"), Files.readString(logs.resolve("java_home")).strip());
    assertTrue(Files.readString(logs.resolve("java_version")).contains("version"));
  }

  @Test
  void aContainerThatSetsJavaHomeKeepsItsOwn() throws Exception {
    Container c = allocateOn(cluster.nodeHosts().get(1));
    nm.startContainer(c, launch(Map.of("JAVA_HOME", "/opt/own-jdk"), "echo \"$JAVA_HOME\" > " + LOG_DIR + "/java_home"));

    assertEquals(0, awaitState(c, ContainerState.COMPLETE).getExitStatus());
    assertEquals("/opt/own-jdk", Files.readString(containerLogDir(1, c).resolve("java_home")).strip());
  }

  @Test
  void aRunningContainerSurvivesARestartOfItsNodeManager() throws Exception {
    Container c = allocateOn(cluster.nodeHosts().get(1));
    nm.startContainer(c, launch(Map.of(), "echo > " + LOG_DIR + "/started; sleep 60 1>" + LOG_DIR + "/stdout 2>"
        + LOG_DIR + "/stderr"));
    awaitProcess(c);

    cluster.restartNodeManager(1);

    assertEquals(ContainerState.RUNNING, nm.getContainerStatus(c.getId(), c.getNodeId()).getState());
    nm.stopContainer(c.getId(), c.getNodeId());
    awaitState(c, ContainerState.COMPLETE);
  }

  @Test
  void aContainerThatOutlivesARestartOfItsNodeManagerReportsItsOwnExitStatus() throws Exception {
    Container c = allocateOn(cluster.nodeHosts().get(1));
    nm.startContainer(c, launch(Map.of(), "echo > " + LOG_DIR + "/started; sleep 5; exit 7"));
    awaitProcess(c);

    cluster.restartNodeManager(1);

    assertEquals(7, awaitState(c, ContainerState.COMPLETE).getExitStatus());
  }

  private Container allocateOn(String host) throws Exception {
    Resource resource = Resource.newInstance(256, 1);
    app.client().addContainerRequest(
        new ContainerRequest(resource, new String[] {host}, null, Priority.newInstance(1), false));
    List<Container> granted = new ArrayList<>();
    Poll.until(() -> granted.addAll(app.client().allocate(0.1f).getAllocatedContainers()) || !granted.isEmpty(),
        WAIT, Duration.ofMillis(100), "a container on " + host, granted::toString);
    Container c = granted.get(0);
    app.client().removeContainerRequest(
        app.client().getMatchingRequests(c.getPriority(), host, resource).get(0).iterator().next());
    assertEquals(host, c.getNodeId().getHost());
    return c;
  }

  /** {@code command} runs under bash and redirects its own output. */
  private static ContainerLaunchContext launch(Map<String, String> env, String command) {
    return ContainerLaunchContext.newInstance(Map.of(), env, List.of(command), null, null, null);
  }

  private ContainerStatus awaitState(Container c, ContainerState state) throws Exception {
    ContainerStatus[] last = new ContainerStatus[1];
    Poll.until(() -> (last[0] = nm.getContainerStatus(c.getId(), c.getNodeId())).getState() == state,
        WAIT, Duration.ofMillis(100), c.getId() + " to be " + state, () -> String.valueOf(last[0]));
    return last[0];
  }

  /**
   * The NodeManager reports RUNNING once it begins the launch, before the process exists; restarted
   * then, it has no process to recover, and the container ended COMPLETE (seen once in CI). The
   * command's first line writes a file, so the process, and the pid file written before it, exist.
   */
  private void awaitProcess(Container c) throws Exception {
    awaitState(c, ContainerState.RUNNING);
    Path started = containerLogDir(1, c).resolve("started");
    Poll.until(() -> Files.exists(started), WAIT, Duration.ofMillis(100), "the container's process to start",
        () -> "no " + started);
  }

  private Path containerLogDir(int node, Container c) {
    return cluster.nodeManagerLogDir(node)
        .resolve(c.getId().getApplicationAttemptId().getApplicationId().toString())
        .resolve(c.getId().toString());
  }
}
