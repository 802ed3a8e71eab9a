package org.elasticam.engine.job;

import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * What the driver needs from the allocator, on the event loop: set the target with locality
 * hints, kill an executor, and check that a registering executor is one we launched.
 */
public interface AllocatorPort {

  /**
   * @param excludedNodes hosts the job stopped using (after task failures there), for YARN too
   * @return whether the target changed
   */
  boolean requestTotalExecutors(int target, int localityAwareTasks, Map<String, Integer> hostToLocalTaskCount,
      Set<String> excludedNodes);

  void killExecutor(String executorId, String reason);

  /** The executor registered: the allocator then knows starting executors works. */
  default void executorRegistered(String executorId) {}

  /** Kills an executor that misbehaved; counts as a failure of the application and the node. */
  void killFailedExecutor(String executorId, String why);

  /** The container and host we launched this executor in, if we did and it still runs. */
  Optional<Launched> launched(String executorId);

  /**
   * A launched executor's container and host.
   *
   * @param askedAtMs when the request for its container was sent
   */
  record Launched(String containerId, String host, long askedAtMs) {}
}
