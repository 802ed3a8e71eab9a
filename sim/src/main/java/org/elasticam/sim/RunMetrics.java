package org.elasticam.sim;

import java.util.HashMap;
import java.util.Map;
import org.elasticam.allocator.model.ContainerRef;

/**
 * The figures of one simulated run that follow containers and requests. Executor-seconds as DESIGN
 * §3 defines them: per container, from its allocation to its release by us or its completion,
 * whichever comes first; idle executor-seconds: the part of that when its executor ran no task,
 * start-up included.
 */
final class RunMetrics {

  /** One container's life. */
  private static final class Held {
    final long allocatedMs;
    long endMs = -1;
    long busyMs;
    long busySinceMs;
    int runningTasks;

    Held(long allocatedMs) {
      this.allocatedMs = allocatedMs;
    }

    long heldMs(long nowMs) {
      return Math.max(0, (endMs >= 0 ? endMs : nowMs) - allocatedMs);
    }

    long busyMs(long nowMs) {
      return busyMs + (runningTasks > 0 && endMs < 0 ? nowMs - busySinceMs : 0);
    }
  }

  private final Map<ContainerRef, Held> containers = new HashMap<>();
  private int liveExecutors;
  private int peakExecutors;
  private int requestsAdded;
  private int requestsCancelled;
  private int executorsKilled;

  void allocated(ContainerRef c, long nowMs) {
    containers.putIfAbsent(c, new Held(nowMs));
  }

  /** Released or completed: the first report counts, as in the AM's ExecutorSeconds. */
  void ended(ContainerRef c, long nowMs) {
    Held h = containers.get(c);
    if (h != null && h.endMs < 0) {
      if (h.runningTasks > 0) {
        h.busyMs += nowMs - h.busySinceMs;
        h.runningTasks = 0;
      }
      h.endMs = nowMs;
    }
  }

  void executorLaunched() {
    liveExecutors++;
    peakExecutors = Math.max(peakExecutors, liveExecutors);
  }

  void executorStopped() {
    liveExecutors--;
  }

  void taskStarted(ContainerRef c, long nowMs) {
    Held h = containers.get(c);
    if (h != null && h.endMs < 0 && h.runningTasks++ == 0) {
      h.busySinceMs = nowMs;
    }
  }

  void taskEnded(ContainerRef c, long nowMs) {
    Held h = containers.get(c);
    if (h != null && h.endMs < 0 && h.runningTasks > 0 && --h.runningTasks == 0) {
      h.busyMs += nowMs - h.busySinceMs;
    }
  }

  void requestsAdded(int n) {
    requestsAdded += n;
  }

  void requestsCancelled(int n) {
    requestsCancelled += n;
  }

  void executorKilled() {
    executorsKilled++;
  }

  /** Containers not yet released count until {@code nowMs}. */
  long executorMs(long nowMs) {
    long total = 0;
    for (Held h : containers.values()) {
      total += h.heldMs(nowMs);
    }
    return total;
  }

  long idleExecutorMs(long nowMs) {
    long idle = 0;
    for (Held h : containers.values()) {
      idle += h.heldMs(nowMs) - Math.min(h.heldMs(nowMs), h.busyMs(nowMs));
    }
    return idle;
  }

  int liveExecutors() {
    return liveExecutors;
  }

  int peakExecutors() {
    return peakExecutors;
  }

  int requestsAdded() {
    return requestsAdded;
  }

  int requestsCancelled() {
    return requestsCancelled;
  }

  int executorsKilled() {
    return executorsKilled;
  }
}
