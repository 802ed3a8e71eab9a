package org.elasticam.am;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.yarn.api.records.NodeReport;
import org.apache.hadoop.yarn.api.records.NodeState;
import org.apache.hadoop.yarn.client.api.YarnClient;
import org.elasticam.am.yarn.NodeDirectory;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The cluster's running nodes, refreshed off the event loop every 30 s from the ResourceManager's
 * node reports: for spread placement and for mapping a trace's hosts onto the cluster.
 */
final class ClusterNodes implements NodeDirectory, AutoCloseable {

  private static final Logger LOG = LoggerFactory.getLogger(ClusterNodes.class);

  private final YarnClient client;
  private final ScheduledExecutorService refresher;
  private volatile List<String> hosts = List.of();

  ClusterNodes(Configuration conf) {
    client = YarnClient.createYarnClient();
    client.init(conf);
    client.start();
    refresh();
    refresher = Executors.newSingleThreadScheduledExecutor(r -> {
      Thread t = new Thread(r, "node-reports");
      t.setDaemon(true);
      return t;
    });
    refresher.scheduleWithFixedDelay(this::refresh, 30, 30, TimeUnit.SECONDS);
  }

  private void refresh() {
    try {
      List<String> h = new ArrayList<>();
      for (NodeReport r : client.getNodeReports(NodeState.RUNNING)) {
        h.add(r.getNodeId().getHost());
      }
      h.sort(null);
      hosts = List.copyOf(h);
    } catch (Exception e) {
      LOG.warn("Could not refresh the cluster's node list (spread placement pauses): {}", e.toString());
    }
  }

  @Override
  public List<String> liveHosts() {
    return hosts;
  }

  @Override
  public void close() {
    refresher.shutdownNow();
    client.stop();
  }
}
