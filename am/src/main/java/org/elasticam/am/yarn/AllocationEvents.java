package org.elasticam.am.yarn;

import java.util.List;
import java.util.Map;
import org.elasticam.allocator.model.ExecutorId;
import org.elasticam.allocator.plan.Action.ContainerCompleted;

/**
 * What YarnAllocator did, for the event log and the driver. Called on the AM's event-loop thread,
 * after the action was applied. Every method has a no-op default.
 */
public interface AllocationEvents {

  /** Requests with the same locality, sent in one round; nodes and racks empty for "anywhere". */
  default void containersRequested(int count, List<String> nodes, List<String> racks) {}

  default void requestsCancelled(int count, String reason) {}

  /** @param matched {@code node}, {@code rack}, {@code any} or {@code unneeded} */
  default void containerAllocated(String containerId, String host, String matched) {}

  default void containerReleased(String containerId, String reason) {}

  default void executorLaunched(ExecutorId executor, String containerId, String host) {}

  default void executorLaunchFailed(ExecutorId executor, String containerId, String host, String why) {}

  /** The AM is killing this container's executor for misbehaving: its exit counts as a failure. */
  default void failedExecutorKilled(String containerId) {}

  /** A container of ours completed, with the verdict on its exit. */
  default void containerCompleted(ContainerCompleted completed) {}

  /** Nodes newly excluded by the allocator itself, with when each exclusion ends (epoch ms). */
  default void nodesExcluded(Map<String, Long> untilMs) {}

  /** Too many executor failures: the application must fail with this diagnostic. */
  default void applicationFailed(String diagnostics) {}

  /** The ResourceManager reports the node unusable (lost, unhealthy, decommissioned, shut down). */
  default void nodeUnusable(String host, String state) {}

  /** The ResourceManager is decommissioning the node: it takes no new work and will go. */
  default void nodeDecommissioning(String host, Integer timeoutSeconds) {}

  /** A node that was being decommissioned is back in service. */
  default void nodeRecommissioned(String host) {}

  /**
   * The ResourceManager will preempt: {@code named} executors' containers it will take (strict
   * and negotiable contracts), and {@code more} further containers it wants back from us.
   */
  default void preemptionRequested(List<String> named, int more) {}

  /** Something the allocator decided that an operator should see, such as holding requests back. */
  default void warning(String message) {}

  AllocationEvents NONE = new AllocationEvents() {};
}
