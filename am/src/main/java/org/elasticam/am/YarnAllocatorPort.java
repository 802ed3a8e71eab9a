package org.elasticam.am;

import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.elasticam.allocator.model.ExecutorId;
import org.elasticam.engine.job.AllocatorPort;
import org.elasticam.am.yarn.YarnAllocator;

/** The driver's view of YarnAllocator; a target change wakes the heartbeat. */
final class YarnAllocatorPort implements AllocatorPort {

  private final YarnAllocator allocator;
  private final Runnable wakeHeartbeat;
  private Runnable firstRegistered;

  /** @param firstRegistered run once, on the loop, when the application's first executor registered */
  YarnAllocatorPort(YarnAllocator allocator, Runnable wakeHeartbeat, Runnable firstRegistered) {
    this.allocator = allocator;
    this.wakeHeartbeat = wakeHeartbeat;
    this.firstRegistered = firstRegistered;
  }

  @Override
  public boolean requestTotalExecutors(int target, int localityAwareTasks, Map<String, Integer> hostToLocalTaskCount,
      Set<String> excludedNodes) {
    boolean changed = allocator.requestTotalExecutors(target, localityAwareTasks, hostToLocalTaskCount, excludedNodes);
    if (changed) {
      wakeHeartbeat.run();
    }
    return changed;
  }

  @Override
  public void killExecutor(String executorId, String reason) {
    allocator.killExecutor(ExecutorId.parse(executorId), reason);
  }

  @Override
  public void executorRegistered(String executorId) {
    allocator.executorRegistered(ExecutorId.parse(executorId));
    if (firstRegistered != null) {
      Runnable r = firstRegistered;
      firstRegistered = null;
      r.run();
    }
  }

  @Override
  public void killFailedExecutor(String executorId, String why) {
    allocator.killFailedExecutor(ExecutorId.parse(executorId), why);
  }

  @Override
  public Optional<Launched> launched(String executorId) {
    try {
      return allocator.core().liveExecutor(ExecutorId.parse(executorId)).map(c -> new Launched(c.container().id(), c.host(), c.askedAtMs()));
    } catch (IllegalArgumentException e) {
      return Optional.empty();
    }
  }
}
