package org.elasticam.sim;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.elasticam.allocator.exit.ExitStatus;
import org.elasticam.allocator.model.AskId;
import org.elasticam.allocator.model.ContainerExit;
import org.elasticam.allocator.model.ContainerRef;
import org.elasticam.allocator.model.Grant;

/**
 * A ResourceManager that keeps a real request table and a real container count: a request can be
 * granted {@code grantMs} after it arrived, while the application holds fewer than
 * {@code capacity} containers, oldest request first; the grant is delivered in the response to an
 * AM heartbeat, as YARN delivers grants only on allocate calls. A released container is freed and
 * reported completed (ABORTED, as YARN reports containers the AM released) in the response to the
 * heartbeat that carried the release.
 *
 * <p>Where a grant lands: every host holds at most its share of the capacity (capacity / hosts,
 * rounded up), as a NodeManager offers only its own memory and cores. A request lands on the named
 * host holding fewest of the application's containers (ties to the first named), since YARN grants
 * node-local requests on the named nodes; when every named host is full, on the least loaded host
 * with room, as YARN relaxes a node-local request to its rack (the cluster is one rack, {@link
 * SimParams#RACK}, as a cluster without a topology script) and then to any host. Requests naming
 * none go round-robin over the hosts with room.
 *
 * <p>Granted requests stay in the table until the AM withdraws them ({@link #withdraw}), as with
 * AMRMClient, whose absolute counts overwrite the ResourceManager's: the AM withdraws the ask the
 * grant was matched to, which may not be the request that produced it.
 */
final class SimResourceManager {

  /** One AM heartbeat's response. */
  record Response(List<Grant> grants, List<ContainerExit> completed) {}

  private record Request(AskId id, List<String> hosts, boolean localityFree, long arrivedMs) {}

  private final long grantMs;
  private final int capacity;
  /** The containers one host holds at most: its share of the capacity. */
  private final int perHost;
  private final List<String> hosts;
  private final Map<AskId, Request> table = new LinkedHashMap<>();
  private final Map<ContainerRef, String> held = new LinkedHashMap<>();
  private final Map<String, Integer> heldOnHost = new HashMap<>();
  private final List<ContainerRef> released = new ArrayList<>();
  private int roundRobin;
  private int nextContainer = 2;

  SimResourceManager(long grantMs, int capacity, List<String> hosts) {
    this.grantMs = grantMs;
    this.capacity = capacity;
    this.hosts = List.copyOf(hosts);
    this.perHost = (capacity + hosts.size() - 1) / hosts.size();
  }

  /** A container request the AM added; it reaches us with the next heartbeat. */
  void request(AskId id, List<String> namedHosts, boolean localityFree, long nowMs) {
    table.put(id, new Request(id, List.copyOf(namedHosts), localityFree, nowMs));
  }

  void withdraw(AskId id) {
    table.remove(id);
  }

  void release(ContainerRef container) {
    if (held.containsKey(container)) {
      released.add(container);
    }
  }

  /** One allocate call: frees what was released, then grants what is due and fits. */
  Response allocate(long nowMs) {
    List<ContainerExit> completed = new ArrayList<>(released.size());
    for (ContainerRef c : released) {
      String host = held.remove(c);
      if (host != null) {
        heldOnHost.merge(host, -1, Integer::sum);
        completed.add(new ContainerExit(c, ExitStatus.ABORTED, "Container released by the application"));
      }
    }
    released.clear();
    List<Grant> grants = new ArrayList<>();
    for (Request r : table.values()) {
      if (held.size() >= capacity) {
        break;
      }
      if (r.arrivedMs + grantMs <= nowMs) {
        grants.add(grant(r));
      }
    }
    return new Response(grants, completed);
  }

  private Grant grant(Request r) {
    String host = r.hosts.isEmpty() ? nextWithRoom() : leastLoaded(r.hosts);
    if (!hasRoom(host)) {
      host = leastLoaded(hosts);
    }
    ContainerRef c = new ContainerRef(String.format(Locale.ROOT, "container_%d_0001_01_%06d",
        EventLogSink.EPOCH_BASE_MS, nextContainer++));
    held.put(c, host);
    heldOnHost.merge(host, 1, Integer::sum);
    return new Grant(c, host, SimParams.RACK, r.localityFree);
  }

  private boolean hasRoom(String host) {
    return heldOnHost.getOrDefault(host, 0) < perHost;
  }

  /** The next host with room in round-robin order; the caller knows the cluster has room. */
  private String nextWithRoom() {
    for (int i = 0; i < hosts.size(); i++) {
      String h = hosts.get(roundRobin++ % hosts.size());
      if (hasRoom(h)) {
        return h;
      }
    }
    throw new IllegalStateException("no host has room under capacity " + capacity);
  }

  private String leastLoaded(List<String> named) {
    String best = named.get(0);
    for (String h : named) {
      if (heldOnHost.getOrDefault(h, 0) < heldOnHost.getOrDefault(best, 0)) {
        best = h;
      }
    }
    return best;
  }

  int heldContainers() {
    return held.size();
  }

  int outstandingRequests() {
    return table.size();
  }
}
