package org.elasticam.am.yarn;

import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.hadoop.yarn.api.records.Priority;
import org.apache.hadoop.yarn.api.records.Resource;
import org.apache.hadoop.yarn.api.records.ResourceRequest;
import org.apache.hadoop.yarn.client.api.AMRMClient;
import org.apache.hadoop.yarn.client.api.AMRMClient.ContainerRequest;
import org.elasticam.allocator.model.AskId;
import org.elasticam.allocator.plan.Action.AddAsk;
import org.elasticam.allocator.plan.Action.CancelAsk;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * AMRMClient's request table, kept equal to the allocator core's pending asks: the ContainerRequest
 * behind each ask, added and removed as the core's plans say, and reported as they change.
 *
 * <p>Two priorities: requests with locality under {@link #LOCALITY_PRIORITY}, requests without
 * under {@link #LOCALITY_FREE_PRIORITY}. Schedulers delay a priority's off-node assignment while
 * it has node-level requests (delay scheduling), so keeping locality-free requests apart lets
 * them be granted at once; and YARN honours a node label only on a priority's any-host request.
 */
final class ContainerRequests {

  private static final Logger LOG = LoggerFactory.getLogger(ContainerRequests.class);

  static final Priority LOCALITY_PRIORITY = Priority.newInstance(1);
  static final Priority LOCALITY_FREE_PRIORITY = Priority.newInstance(2);

  private final AMRMClient<ContainerRequest> amClient;
  private final Resource resource;
  private final Optional<String> nodeLabel;
  private final AllocationEvents events;
  private final Map<AskId, ContainerRequest> requests = new HashMap<>();

  ContainerRequests(AMRMClient<ContainerRequest> amClient, Resource resource, Optional<String> nodeLabel,
      AllocationEvents events) {
    this.amClient = amClient;
    this.resource = resource;
    this.nodeLabel = nodeLabel;
    this.events = events;
  }

  /** Whether a granted container answers a locality-free request (or names no priority). */
  static boolean localityFree(Priority granted) {
    return granted == null || granted.getPriority() != LOCALITY_PRIORITY.getPriority();
  }

  void add(AddAsk add) {
    boolean free = add.origin().localityFree();
    List<String> hosts = add.locality().hosts();
    List<String> rackList = add.locality().racks();
    ContainerRequest req = new ContainerRequest(resource,
        hosts.isEmpty() ? null : hosts.toArray(new String[0]),
        rackList.isEmpty() ? null : rackList.toArray(new String[0]),
        free ? LOCALITY_FREE_PRIORITY : LOCALITY_PRIORITY, true,
        free && hosts.isEmpty() ? nodeLabel.orElse(null) : null);
    amClient.addContainerRequest(req);
    requests.put(add.ask(), req);
  }

  void remove(AskId ask) {
    ContainerRequest req = requests.remove(ask);
    if (req != null) {
      amClient.removeContainerRequest(req);
    }
  }

  /** One INFO line and the events for what a round added and cancelled. */
  void report(Map<List<String>, List<AddAsk>> added, List<CancelAsk> cancelled) {
    if (!added.isEmpty()) {
      int total = added.values().stream().mapToInt(List::size).sum();
      LOG.info("Requesting {} executor container(s) of {} MiB and {} vcore(s): {} [{}]", total,
          resource.getMemorySize(), resource.getVirtualCores(), describe(added), added.values().iterator().next()
              .get(0).reason());
      added.forEach((hosts, asks) -> events.containersRequested(asks.size(), hosts, asks.get(0).locality().racks()));
    }
    if (!cancelled.isEmpty()) {
      LOG.info("Cancelled {} container request(s): {}", cancelled.size(), cancelled.get(0).reason());
      events.requestsCancelled(cancelled.size(), cancelled.get(0).reason());
    }
  }

  private static String describe(Map<List<String>, List<AddAsk>> added) {
    StringBuilder sb = new StringBuilder();
    added.forEach((hosts, asks) -> {
      if (sb.length() > 0) {
        sb.append(", ");
      }
      sb.append(asks.size()).append(" on ").append(hosts.isEmpty() ? "any host"
          : hosts.size() <= 5 ? hosts.toString() : hosts.subList(0, 5) + "+" + (hosts.size() - 5) + " more");
    });
    return sb.toString();
  }

  /**
   * The core's pending asks must equal the client's table; a difference means a request was added
   * or removed behind the core's back, and every later round would be wrong.
   */
  void checkMatches(int pendingAsks) {
    int client = clientPendingCount();
    if (client != pendingAsks) {
      LOG.error("Allocator state diverged from AMRMClient: {} pending asks in the ledger, {} in the client's"
          + " request table", pendingAsks, client);
    }
  }

  /** Requests in the client's table, over both priorities. */
  int clientPendingCount() {
    int n = 0;
    for (Priority p : List.of(LOCALITY_PRIORITY, LOCALITY_FREE_PRIORITY)) {
      for (Collection<ContainerRequest> c : amClient.getMatchingRequests(p, ResourceRequest.ANY, resource)) {
        n += c.size();
      }
    }
    return n;
  }
}
