package org.elasticam.embedded;

import java.io.IOException;
import java.time.Duration;
import java.util.Collection;
import java.util.List;
import java.util.stream.Collectors;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.yarn.api.records.NodeId;
import org.apache.hadoop.yarn.api.records.NodeReport;
import org.apache.hadoop.yarn.api.records.NodeState;
import org.apache.hadoop.yarn.client.api.YarnClient;

/**
 * Node states as the ResourceManager reports them: a NodeManager that registered may still be
 * UNHEALTHY (a full disk marks every dir bad), and only RUNNING nodes get containers.
 */
final class NodeWatch implements AutoCloseable {

  private static final Duration INTERVAL = Duration.ofMillis(50);

  private final YarnClient client;

  NodeWatch(Configuration conf) {
    client = YarnClient.createYarnClient();
    client.init(conf);
    client.start();
  }

  void awaitRunning(Collection<NodeId> expected, Duration timeout) throws IOException, InterruptedException {
    Poll.until(() -> running().containsAll(expected), timeout, INTERVAL,
        expected.size() + " node(s) " + expected + " to be RUNNING", this::describeNodes);
  }

  private List<NodeId> running() throws Exception {
    return client.getNodeReports(NodeState.RUNNING).stream().map(NodeReport::getNodeId).toList();
  }

  /** Every node's state and health report: says why a node is not RUNNING. */
  private String describeNodes() {
    try {
      List<NodeReport> all = client.getNodeReports();
      if (all.isEmpty()) {
        return "the ResourceManager knows no nodes";
      }
      return all.stream()
          .map(r -> r.getNodeId() + " " + r.getNodeState() + " '" + r.getHealthReport() + "'")
          .collect(Collectors.joining(", ", "nodes: ", ""));
    } catch (Exception e) {
      return "node reports unavailable: " + e;
    }
  }

  @Override
  public void close() {
    client.stop();
  }
}
