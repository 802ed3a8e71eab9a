package org.elasticam.allocator.placement;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.PriorityQueue;

/**
 * Where requests without locality should go under {@code placement=spread}: each one names the
 * live node holding the fewest of our executors (counting those already asked for there), like
 * Spark standalone's spreadOut. Ties go to the node first in name order, so the result is
 * deterministic. The requests still relax to any node, so a full node only delays them.
 *
 * <p>{@code placement=pack} names no node: YARN's schedulers already fill each node that
 * heartbeats with as many containers as fit.
 */
public final class SpreadPlacement {

  private SpreadPlacement() {}

  /**
   * @param count requests to place
   * @param liveHosts nodes that may receive containers (excluded nodes already removed)
   * @param oursOnHost our running, starting and spread-asked containers per host
   * @return one host per request; empty when no live node is known
   */
  public static List<String> hosts(int count, Collection<String> liveHosts, Map<String, Integer> oursOnHost) {
    if (count <= 0 || liveHosts.isEmpty()) {
      return List.of();
    }
    record Load(String host, int count) {}
    PriorityQueue<Load> q = new PriorityQueue<>((a, b) -> a.count != b.count
        ? Integer.compare(a.count, b.count) : a.host.compareTo(b.host));
    for (String h : liveHosts) {
      q.add(new Load(h, oursOnHost.getOrDefault(h, 0)));
    }
    List<String> out = new ArrayList<>(count);
    for (int i = 0; i < count; i++) {
      Load least = q.poll();
      out.add(least.host);
      q.add(new Load(least.host, least.count + 1));
    }
    return out;
  }
}
