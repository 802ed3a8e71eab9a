package org.elasticam.am.yarn;

import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;
import org.apache.hadoop.yarn.api.records.ContainerId;
import org.apache.hadoop.yarn.api.records.NodeReport;
import org.apache.hadoop.yarn.api.records.NodeState;
import org.apache.hadoop.yarn.api.records.PreemptionMessage;
import org.apache.hadoop.yarn.api.records.PreemptionResourceRequest;

/**
 * What an allocate response tells beyond grants and completions — nodes that changed state, and
 * containers the ResourceManager is about to preempt — read into the AM's events, each change once.
 * The driver decides (and logs) what it means for its executors and shuffle output.
 */
final class ResourceManagerNotices {

  private final AllocationEvents events;
  /** Hosts the RM reported DECOMMISSIONING: a later RUNNING report means they were recommissioned. */
  private final Set<String> decommissioning = new HashSet<>();

  ResourceManagerNotices(AllocationEvents events) {
    this.events = events;
  }

  void nodesUpdated(List<NodeReport> updated) {
    for (NodeReport n : updated) {
      NodeState state = n.getNodeState();
      String host = n.getNodeId().getHost();
      if (state == NodeState.DECOMMISSIONING) {
        if (decommissioning.add(host)) {
          events.nodeDecommissioning(host, n.getDecommissioningTimeout());
        }
      } else if (state.isUnusable()) {
        decommissioning.remove(host);
        events.nodeUnusable(host, state.name());
      } else if (state == NodeState.RUNNING && decommissioning.remove(host)) {
        events.nodeRecommissioned(host);
      }
    }
  }

  /**
   * The containers the RM will preempt, as executors, and how many more it wants back beyond those
   * (a negotiable contract may name resources rather than containers: counted in our containers).
   *
   * @param executorIn the executor in a container of ours, if it is one
   */
  void preemption(PreemptionMessage m, Function<ContainerId, Optional<String>> executorIn) {
    Set<String> named = new LinkedHashSet<>();
    int wanted = 0;
    if (m.getStrictContract() != null) {
      m.getStrictContract().getContainers().forEach(c -> executorIn.apply(c.getId()).ifPresent(named::add));
    }
    if (m.getContract() != null) {
      m.getContract().getContainers().forEach(c -> executorIn.apply(c.getId()).ifPresent(named::add));
      for (PreemptionResourceRequest r : m.getContract().getResourceRequest()) {
        wanted += r.getResourceRequest().getNumContainers();
      }
    }
    int more = Math.max(0, wanted - named.size());
    if (!named.isEmpty() || more > 0) {
      events.preemptionRequested(List.copyOf(named), more);
    }
  }
}
