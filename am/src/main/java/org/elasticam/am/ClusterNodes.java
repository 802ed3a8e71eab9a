package org.elasticam.am;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.security.UserGroupInformation;
import org.apache.hadoop.yarn.api.records.NodeReport;
import org.apache.hadoop.yarn.api.records.NodeState;
import org.apache.hadoop.yarn.client.api.YarnClient;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The cluster's running nodes, refreshed off the event loop every 30 s from the ResourceManager's
 * node reports: for spread placement and for mapping a trace's hosts onto the cluster.
 *
 * <p>On a secure cluster the AM's AMRMToken opens the scheduler protocol only, not the client
 * protocol node reports come from: those need Kerberos, so they are asked for as the keytab's
 * user, and without a keytab not at all (the list stays empty; a YARN client that cannot
 * authenticate retries for many minutes and would hold up the AM's start).
 */
final class ClusterNodes implements AmClients.Nodes {

  private static final Logger LOG = LoggerFactory.getLogger(ClusterNodes.class);

  private final YarnClient client;
  private final UserGroupInformation rmUser;
  private final ScheduledExecutorService refresher;
  private volatile List<String> hosts = List.of();

  /** @param rmUser who asks the ResourceManager; empty when nobody can (a secure cluster without a keytab) */
  ClusterNodes(Configuration conf, Optional<UserGroupInformation> rmUser) {
    if (rmUser.isEmpty()) {
      LOG.info("No keytab on a secure cluster: the AM cannot read the cluster's node reports (spread placement"
          + " pauses)");
      client = null;
      this.rmUser = null;
      refresher = null;
      return;
    }
    this.rmUser = rmUser.get();
    client = YarnClient.createYarnClient();
    client.init(conf);
    // The RPC proxy authenticates as the user who starts it.
    this.rmUser.doAs((java.security.PrivilegedAction<Void>) () -> {
      client.start();
      return null;
    });
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
      if (rmUser.isFromKeytab()) {
        rmUser.checkTGTAndReloginFromKeytab();
      }
      List<String> h = new ArrayList<>();
      for (NodeReport r : rmUser.doAs((java.security.PrivilegedExceptionAction<List<NodeReport>>) () ->
          client.getNodeReports(NodeState.RUNNING))) {
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
    if (client == null) {
      return;
    }
    refresher.shutdownNow();
    client.stop();
  }
}
