package org.elasticam.engine.scheduling;

import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;

/**
 * Nodes the job stops using after its tasks failed there repeatedly, as Spark's application-level
 * {@code excludeOnFailure} does: no task runs there until the exclusion expires, and the
 * ResourceManager is told, so no new executor lands there either. A node is never excluded when
 * no other node with executors would be left: a job whose tasks fail everywhere fails by
 * {@code elasticam.task.maxFailures}, not by running out of nodes. Off by default, as in Spark.
 */
public final class TaskFailureExclusions {

  /** {@code host} excluded until {@code untilMs}, after {@code failures} failed tasks there. */
  public record Exclusion(String host, long untilMs, int failures) {}

  private final boolean enabled;
  private final int maxFailuresPerNode;
  private final long timeoutMs;
  private final Map<String, Integer> failures = new HashMap<>();
  private final Map<String, Long> untilMs = new HashMap<>();

  public TaskFailureExclusions(boolean enabled, int maxFailuresPerNode, Duration timeout) {
    this.enabled = enabled;
    this.maxFailuresPerNode = maxFailuresPerNode;
    this.timeoutMs = timeout.toMillis();
  }

  /**
   * A task failed on {@code host} (not killed, not lost input).
   *
   * @param hostsWithExecutors the hosts that have live executors now
   * @return the exclusion this failure makes, if it makes one
   */
  public Optional<Exclusion> taskFailed(String host, long nowMs, Set<String> hostsWithExecutors) {
    if (!enabled || host == null || isExcluded(host, nowMs)) {
      return Optional.empty();
    }
    int n = failures.merge(host, 1, Integer::sum);
    if (n < maxFailuresPerNode) {
      return Optional.empty();
    }
    boolean anotherLeft = hostsWithExecutors.stream().anyMatch(h -> !h.equals(host) && !isExcluded(h, nowMs));
    if (!anotherLeft) {
      return Optional.empty();
    }
    failures.remove(host);
    long until = nowMs + timeoutMs;
    untilMs.put(host, until);
    return Optional.of(new Exclusion(host, until, n));
  }

  public boolean isExcluded(String host, long nowMs) {
    Long until = untilMs.get(host);
    if (until != null && nowMs >= until) {
      untilMs.remove(host);
      return false;
    }
    return until != null;
  }

  /** The hosts excluded now, sorted. */
  public Set<String> excluded(long nowMs) {
    untilMs.values().removeIf(until -> nowMs >= until);
    return new TreeSet<>(untilMs.keySet());
  }
}
