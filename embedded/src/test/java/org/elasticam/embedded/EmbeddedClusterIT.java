package org.elasticam.embedded;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.yarn.api.records.NodeId;
import org.apache.hadoop.yarn.api.records.NodeReport;
import org.apache.hadoop.yarn.api.records.NodeState;
import org.apache.hadoop.yarn.client.api.YarnClient;
import org.apache.hadoop.yarn.conf.YarnConfiguration;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(120)
class EmbeddedClusterIT {

  private static EmbeddedCluster cluster;

  @BeforeAll
  static void start() throws Exception {
    cluster = EmbeddedCluster.start(
        EmbeddedCluster.Settings.in(Path.of("target/it-clusters/EmbeddedClusterIT")).withLogToFile(false));
  }

  @AfterAll
  static void stop() {
    if (cluster != null) {
      cluster.close();
    }
  }

  @Test
  void startsTwoRunningNodesOnDistinctHosts() throws Exception {
    List<NodeReport> running = nodeReports(cluster.configuration(), NodeState.RUNNING);
    List<String> hosts = cluster.nodeHosts();
    assertEquals(2, hosts.size());
    assertEquals(2, new HashSet<>(hosts).size(), hosts::toString);
    assertEquals(Set.copyOf(hosts), Set.copyOf(running.stream().map(r -> r.getNodeId().getHost()).toList()));
  }

  @Test
  void theConfDirAloneLetsAFreshClientReachTheResourceManager() throws Exception {
    Configuration conf = new YarnConfiguration();
    conf.addResource(new org.apache.hadoop.fs.Path(cluster.confDir().resolve("core-site.xml").toUri()));
    conf.addResource(new org.apache.hadoop.fs.Path(cluster.confDir().resolve("yarn-site.xml").toUri()));
    assertNotEquals(YarnConfiguration.DEFAULT_RM_ADDRESS, conf.get(YarnConfiguration.RM_ADDRESS));

    assertEquals(2, nodeReports(conf, NodeState.RUNNING).size());
    assertTrue(Files.readString(cluster.confDir().resolve("yarn-site.xml"))
        .contains(YarnConfiguration.RM_SCHEDULER_ADDRESS), "an AM needs the scheduler address");
  }

  @Test
  void aRestartedNodeManagerKeepsItsNodeIdAndRunsAgain() throws Exception {
    NodeId before = cluster.nodeId(1);

    cluster.restartNodeManager(1);

    assertEquals(before, cluster.nodeId(1));
    List<NodeId> running = nodeReports(cluster.configuration(), NodeState.RUNNING).stream()
        .map(NodeReport::getNodeId).toList();
    assertTrue(running.contains(before), running::toString);
    assertEquals(2, running.size(), "no second node for the restarted NodeManager: " + running);
  }

  @Test
  void theSchedulerRunsOnOurSettingsAndTheResourceManagerUiAnswers() throws Exception {
    HttpResponse<String> r = HttpClient.newHttpClient().send(
        HttpRequest.newBuilder(URI.create("http://" + cluster.resourceManagerWebAddress() + "/ws/v1/cluster/scheduler"))
            .header("Accept", "application/json").build(),
        HttpResponse.BodyHandlers.ofString());

    assertEquals(200, r.statusCode());
    // hadoop-yarn-server-tests' capacity-scheduler.xml on the classpath says 0.1
    assertTrue(r.body().contains("\"configuredMaxAMResourceLimit\":0.5"), r.body());
  }

  private static List<NodeReport> nodeReports(Configuration conf, NodeState state) throws Exception {
    YarnClient client = YarnClient.createYarnClient();
    client.init(conf);
    client.start();
    try {
      return client.getNodeReports(state);
    } finally {
      client.stop();
    }
  }
}
