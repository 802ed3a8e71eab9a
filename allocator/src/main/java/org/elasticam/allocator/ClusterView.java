package org.elasticam.allocator;

import java.util.List;
import java.util.Map;

/**
 * What the adapter knows of the cluster this round.
 *
 * @param liveHosts nodes in RUNNING state, for spread placement; empty when unknown
 * @param rackOfHost racks resolved outside the core (the topology resolver may run a script)
 * @param clusterNodes the ResourceManager's node count, 0 when unknown
 */
public record ClusterView(List<String> liveHosts, Map<String, String> rackOfHost, int clusterNodes) {

  public static final ClusterView UNKNOWN = new ClusterView(List.of(), Map.of(), 0);

  public ClusterView {
    liveHosts = List.copyOf(liveHosts);
    rackOfHost = Map.copyOf(rackOfHost);
  }
}
