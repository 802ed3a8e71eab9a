package org.elasticam.allocator.model;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * What the scheduler knows of where pending tasks would like to run: how many tasks have a
 * preference at all, and per host how many of them prefer it. Host order is kept: placement
 * breaks ties by it.
 */
public record LocalityHints(int localityAwareTasks, Map<String, Integer> hostToLocalTaskCount) {

  public static final LocalityHints NONE = new LocalityHints(0, Map.of());

  public LocalityHints {
    if (localityAwareTasks < 0) {
      throw new IllegalArgumentException("localityAwareTasks < 0: " + localityAwareTasks);
    }
    hostToLocalTaskCount = Collections.unmodifiableMap(new LinkedHashMap<>(hostToLocalTaskCount));
  }

  public boolean prefers(String host) {
    return hostToLocalTaskCount.getOrDefault(host, 0) > 0;
  }

  /** These hints without the given hosts (excluded nodes get no requests). */
  public LocalityHints without(java.util.Set<String> hosts) {
    if (hosts.isEmpty() || Collections.disjoint(hosts, hostToLocalTaskCount.keySet())) {
      return this;
    }
    Map<String, Integer> kept = new LinkedHashMap<>(hostToLocalTaskCount);
    kept.keySet().removeAll(hosts);
    return new LocalityHints(localityAwareTasks, kept);
  }
}
