package org.elasticam.workload;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeSet;

/**
 * Recorded hosts onto cluster hosts: the distinct recorded hosts of the whole trace, sorted, are
 * dealt round-robin onto the cluster hosts in the order given. Built from every task attempt, so
 * a host keeps its cluster host whichever attempts the replay picks.
 */
final class HostMap {

  private final Map<String, String> clusterHostOf;

  private HostMap(Map<String, String> clusterHostOf) {
    this.clusterHostOf = clusterHostOf;
  }

  static HostMap of(List<TraceStage> attempts, List<String> clusterHosts) {
    TreeSet<String> recorded = new TreeSet<>();
    for (TraceStage stage : attempts) {
      for (TraceTask task : stage.tasks()) {
        if (!task.host().isEmpty()) {
          recorded.add(task.host());
        }
      }
    }
    Map<String, String> map = new HashMap<>();
    if (!clusterHosts.isEmpty()) {
      int i = 0;
      for (String host : recorded) {
        map.put(host, clusterHosts.get(i++ % clusterHosts.size()));
      }
    }
    return new HostMap(map);
  }

  /** The cluster host a task prefers: where it ran, if it ran there data-local. */
  Optional<String> preferredHost(TraceTask task) {
    boolean local = task.locality().equals("PROCESS_LOCAL") || task.locality().equals("NODE_LOCAL");
    return local ? Optional.ofNullable(clusterHostOf.get(task.host())) : Optional.empty();
  }
}
