package org.elasticam.allocator.streaming;

/**
 * What every streaming policy keeps the same way: its settings, the executors it counts (registered
 * minus those it chose to remove) and its target, which starts at the initial executors.
 */
abstract class FleetPolicy implements StreamingPolicy {

  final StreamingSettings s;
  final LiveExecutors executors = new LiveExecutors();
  int target;

  FleetPolicy(StreamingSettings settings) {
    this.s = settings;
    this.target = settings.initialExecutors();
  }

  @Override
  public final void executorAdded(String executorId, long nowMs) {
    executors.added(executorId);
  }

  @Override
  public final void executorRemoved(String executorId, long nowMs) {
    executors.removed(executorId);
  }

  @Override
  public final int target() {
    return target;
  }
}
