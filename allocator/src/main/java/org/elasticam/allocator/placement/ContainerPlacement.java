package org.elasticam.allocator.placement;

import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.elasticam.allocator.model.LocalityHints;
import org.elasticam.allocator.model.LocalityPreference;
import org.elasticam.allocator.model.PendingAsk;

/**
 * Locality-preferred placement of new container requests, with the semantics of Spark's
 * LocalityPreferredContainerPlacementStrategy and a cost linear in hosts + containers.
 *
 * <p>The containers the locality-aware tasks need, E = ceil(tasks x task.cpus / cores), are shared
 * out over the preferred hosts in proportion to each host's local tasks; what a host already has
 * (running and starting containers, plus its share of locality-matched pending asks) is
 * subtracted and the rest rounded up. Requests that find no host left are "anywhere" and come
 * first. The locality-aware requests get host lists that shrink: host h appears in as many
 * requests as its quota, ceil(required_h x localityAware / max required), so the most wanted hosts
 * appear in the most requests.
 *
 * <p>Worked example (5-core executors): nothing existing on the hosts, 3 containers, 15 locality
 * tasks, {host3: 15, host4: 15, host5: 10}. E = 3 and T = 40, so expected = {1.125, 1.125, 0.75},
 * required = {2, 2, 1}; all 3 requests are locality-aware; quotas = {3, 3, 2}; result:
 * [host3, host4, host5], [host3, host4, host5], [host3, host4].
 *
 * <p>Why linear: Spark filters every host for every container (O(containers x hosts)). Host h is in
 * request i exactly when quota_h > i, so with hosts sorted by quota (descending, ties in hint
 * order) every request's host list is a prefix of one array, and the requests share it.
 *
 * <p>One departure from Spark: a request names at most {@link #MAX_HOSTS_PER_REQUEST} hosts.
 */
public final class ContainerPlacement {

  /**
   * The most hosts one request names. AMRMClient spends time on every host of every request
   * (≈3 µs each, measured: BENCHMARKS.md), and a request naming hundreds of hosts buys no locality
   * over one naming a few dozen; beyond the cap, requests take rotating windows of the wanted hosts.
   */
  public static final int MAX_HOSTS_PER_REQUEST = 32;

  private ContainerPlacement() {}

  /**
   * @param containers how many container requests to place
   * @param hints the pending tasks' locality hints
   * @param containersOnHost our running and starting containers per host
   * @param localityMatched pending asks whose hosts are still preferred
   * @param executorCores vcores per executor
   * @param taskCpus cores per task
   * @param rackOfHost resolved racks; hosts without an entry contribute no rack
   * @return one preference per container, locality-free ones first
   */
  public static List<LocalityPreference> place(int containers, LocalityHints hints,
      Map<String, Integer> containersOnHost, Collection<PendingAsk> localityMatched,
      int executorCores, int taskCpus, Map<String, String> rackOfHost) {
    if (containers <= 0) {
      return List.of();
    }
    Map<String, Integer> required = required(hints, containersOnHost, localityMatched, executorCores, taskCpus);
    int requiredTotal = 0;
    int largest = 0;
    for (int r : required.values()) {
      requiredTotal += r;
      largest = Math.max(largest, r);
    }
    int localityFree = Math.max(0, containers - requiredTotal);
    int localityAware = containers - localityFree;
    List<LocalityPreference> out = new ArrayList<>(containers);
    for (int i = 0; i < localityFree; i++) {
      out.add(LocalityPreference.NONE);
    }
    if (localityAware > 0) {
      addLocalityAware(out, required, largest, localityAware, rackOfHost);
    }
    return out;
  }

  /** Per preferred host (in hint order): containers still to ask there, possibly 0. */
  static Map<String, Integer> required(LocalityHints hints, Map<String, Integer> containersOnHost,
      Collection<PendingAsk> localityMatched, int executorCores, int taskCpus) {
    long totalLocalTasks = 0;
    for (int c : hints.hostToLocalTaskCount().values()) {
      totalLocalTasks += c;
    }
    Map<String, Integer> required = new java.util.LinkedHashMap<>();
    if (totalLocalTasks == 0) {
      return required;
    }
    long executorsForLocality = ((long) hints.localityAwareTasks() * taskCpus + executorCores - 1) / executorCores;
    Map<String, Double> pendingShare = pendingShare(localityMatched);
    for (Map.Entry<String, Integer> e : hints.hostToLocalTaskCount().entrySet()) {
      double expected = e.getValue().doubleValue() * executorsForLocality / totalLocalTasks;
      double existing = containersOnHost.getOrDefault(e.getKey(), 0) + pendingShare.getOrDefault(e.getKey(), 0.0);
      required.put(e.getKey(), (int) Math.max(0, Math.ceil(expected - existing)));
    }
    return required;
  }

  /** Each matched pending ask counts once, spread evenly over the hosts it names. */
  private static Map<String, Double> pendingShare(Collection<PendingAsk> localityMatched) {
    if (localityMatched.isEmpty()) {
      return Map.of();
    }
    Map<String, Integer> hits = new HashMap<>();
    long totalHits = 0;
    for (PendingAsk ask : localityMatched) {
      for (String h : ask.locality().hosts()) {
        hits.merge(h, 1, Integer::sum);
        totalHits++;
      }
    }
    Map<String, Double> share = new HashMap<>();
    double asks = localityMatched.size();
    for (Map.Entry<String, Integer> e : hits.entrySet()) {
      share.put(e.getKey(), e.getValue() * asks / totalHits);
    }
    return share;
  }

  private static void addLocalityAware(List<LocalityPreference> out, Map<String, Integer> required,
      int largest, int localityAware, Map<String, String> rackOfHost) {
    List<Map.Entry<String, Integer>> byQuota = new ArrayList<>();
    for (Map.Entry<String, Integer> e : required.entrySet()) {
      int quota = (int) Math.ceil((double) e.getValue() * localityAware / largest);
      if (quota > 0) {
        byQuota.add(Map.entry(e.getKey(), quota));
      }
    }
    // Stable sort keeps hint order among equal quotas.
    byQuota.sort((a, b) -> Integer.compare(b.getValue(), a.getValue()));
    List<String> hosts = new ArrayList<>(byQuota.size());
    List<String> racks = new ArrayList<>();
    int[] racksInPrefix = new int[byQuota.size() + 1];
    Set<String> seenRacks = new LinkedHashSet<>();
    for (int i = 0; i < byQuota.size(); i++) {
      String host = byQuota.get(i).getKey();
      hosts.add(host);
      String rack = rackOfHost.get(host);
      if (rack != null && seenRacks.add(rack)) {
        racks.add(rack);
      }
      racksInPrefix[i + 1] = racks.size();
    }
    List<String> allHosts = Collections.unmodifiableList(hosts);
    List<String> allRacks = Collections.unmodifiableList(racks);
    int prefix = byQuota.size();
    LocalityPreference current = null;
    Map<Long, LocalityPreference> windows = new HashMap<>();
    for (int i = 0; i < localityAware; i++) {
      int before = prefix;
      while (prefix > 0 && byQuota.get(prefix - 1).getValue() <= i) {
        prefix--;
      }
      if (prefix > MAX_HOSTS_PER_REQUEST) {
        // Windows repeat every prefix / gcd(cap, prefix) requests: share them, as prefixes are.
        int start = (int) ((long) i * MAX_HOSTS_PER_REQUEST % prefix);
        int size = prefix;
        out.add(windows.computeIfAbsent(((long) size << 32) | start, k -> window(allHosts, size, start, rackOfHost)));
        continue;
      }
      if (current == null || prefix != before) {
        current = new LocalityPreference(allHosts.subList(0, prefix), allRacks.subList(0, racksInPrefix[prefix]));
      }
      out.add(current);
    }
  }

  /**
   * A share of a host list longer than the cap: the cap's worth of hosts from {@code start}; the
   * start rotates with the request, so that together the requests still name every wanted host.
   */
  private static LocalityPreference window(List<String> hosts, int prefix, int start, Map<String, String> rackOfHost) {
    List<String> picked = new ArrayList<>(MAX_HOSTS_PER_REQUEST);
    Set<String> racks = new LinkedHashSet<>();
    for (int j = 0; j < MAX_HOSTS_PER_REQUEST; j++) {
      String h = hosts.get((start + j) % prefix);
      picked.add(h);
      String rack = rackOfHost.get(h);
      if (rack != null) {
        racks.add(rack);
      }
    }
    return new LocalityPreference(picked, new ArrayList<>(racks));
  }
}
