package org.elasticam.allocator.health;

import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import org.elasticam.allocator.plan.Action.UpdateExclusions;

/**
 * Which nodes the ResourceManager must not give us: those the scheduler excluded, plus those whose
 * executors failed {@code maxFailuresPerNode} times within the exclusion timeout (ours expire after
 * that timeout). The RM hears only the differences from what it was last told, and never a list
 * that covers every node: rather than starve, a new exclusion that would do that is refused.
 */
public final class NodeExclusions {

  private final boolean enabled;
  private final int maxFailuresPerNode;
  private final Duration timeout;
  private final Map<String, Deque<Long>> failuresByHost = new HashMap<>();
  private final Map<String, Long> ownUntilMs = new HashMap<>();
  private Set<String> schedulerExcluded = Set.of();
  private final TreeSet<String> sentToRm = new TreeSet<>();

  public NodeExclusions(boolean enabled, int maxFailuresPerNode, Duration timeout) {
    this.enabled = enabled;
    this.maxFailuresPerNode = maxFailuresPerNode;
    this.timeout = timeout;
  }

  /**
   * Records a failure blamed on {@code host}.
   *
   * @param clusterNodes live nodes in the cluster, or 0 when unknown
   * @return a warning when the exclusion was refused because it would exclude every node
   */
  public Optional<String> recordFailure(String host, long nowMs, int clusterNodes) {
    if (!enabled || host == null || isExcluded(host)) {
      return Optional.empty();
    }
    Deque<Long> times = failuresByHost.computeIfAbsent(host, h -> new ArrayDeque<>());
    times.addLast(nowMs);
    while (!times.isEmpty() && times.peekFirst() <= nowMs - timeout.toMillis()) {
      times.removeFirst();
    }
    if (times.size() < maxFailuresPerNode) {
      return Optional.empty();
    }
    if (clusterNodes > 0 && excludedCount(nowMs) + 1 >= clusterNodes) {
      return Optional.of("Not excluding " + host + " after " + times.size() + " failures: every node of the"
          + " cluster would be excluded. Executors keep failing on all nodes; check the executor logs.");
    }
    ownUntilMs.put(host, nowMs + timeout.toMillis());
    times.clear();
    return Optional.empty();
  }

  /**
   * Excludes {@code host} at once, for the timeout: its NodeManager reported failed disks, so any
   * container placed there would fail again.
   *
   * @return a warning when the exclusion was refused because it would exclude every node
   */
  public Optional<String> avoid(String host, long nowMs, int clusterNodes) {
    if (!enabled || host == null || isExcluded(host)) {
      return Optional.empty();
    }
    if (clusterNodes > 0 && excludedCount(nowMs) + 1 >= clusterNodes) {
      return Optional.of("Not excluding " + host + " for its failed disks: every node of the cluster would be"
          + " excluded.");
    }
    ownUntilMs.put(host, nowMs + timeout.toMillis());
    return Optional.empty();
  }

  /** The scheduler's own exclusions (from the driver), replacing the previous set. */
  public void setSchedulerExcluded(Set<String> hosts) {
    this.schedulerExcluded = Set.copyOf(hosts);
  }

  public boolean isExcluded(String host) {
    return ownUntilMs.containsKey(host) || schedulerExcluded.contains(host);
  }

  /** The current union of exclusions, after dropping our own that expired by {@code nowMs}. */
  public Set<String> excluded(long nowMs) {
    ownUntilMs.values().removeIf(until -> until <= nowMs);
    TreeSet<String> all = new TreeSet<>(schedulerExcluded);
    all.addAll(ownUntilMs.keySet());
    return all;
  }

  private int excludedCount(long nowMs) {
    return excluded(nowMs).size();
  }

  /** What to tell the ResourceManager now, or empty when it already knows. */
  public Optional<UpdateExclusions> sync(long nowMs) {
    Set<String> now = excluded(nowMs);
    List<String> additions = new ArrayList<>();
    List<String> removals = new ArrayList<>();
    for (String h : now) {
      if (!sentToRm.contains(h)) {
        additions.add(h);
      }
    }
    for (String h : sentToRm) {
      if (!now.contains(h)) {
        removals.add(h);
      }
    }
    if (additions.isEmpty() && removals.isEmpty()) {
      return Optional.empty();
    }
    sentToRm.addAll(additions);
    removals.forEach(sentToRm::remove);
    Map<String, Long> until = new TreeMap<>();
    additions.stream().filter(ownUntilMs::containsKey).forEach(h -> until.put(h, ownUntilMs.get(h)));
    return Optional.of(new UpdateExclusions(additions, removals, until));
  }
}
