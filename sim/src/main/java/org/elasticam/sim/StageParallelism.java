package org.elasticam.sim;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Time to full parallelism: per stage, from its submission until it first had as many tasks
 * running as it could ever run at once — min(its tasks, the slots of the most executors the
 * application may hold) — or its whole duration when it never got there (it shared the cluster,
 * or executors came too late). Reported as the median over stages with tasks.
 */
final class StageParallelism {

  /** One stage's progress towards its goal. */
  private static final class Progress {
    final long submittedMs;
    final int goal;
    int running;

    Progress(long submittedMs, int goal) {
      this.submittedMs = submittedMs;
      this.goal = goal;
    }
  }

  private final long maxSlots;
  private final Map<Integer, Progress> active = new HashMap<>();
  private final List<Long> times = new ArrayList<>();

  /** @param maxSlots tasks the application could run at once at its largest */
  StageParallelism(long maxSlots) {
    this.maxSlots = Math.max(1, maxSlots);
  }

  void submitted(int stageId, int tasks, long nowMs) {
    active.put(stageId, new Progress(nowMs, (int) Math.min(tasks, maxSlots)));
  }

  void taskStarted(int stageId, long nowMs) {
    Progress p = active.get(stageId);
    if (p != null && ++p.running >= p.goal) {
      times.add(nowMs - p.submittedMs);
      active.remove(stageId);
    }
  }

  void taskEnded(int stageId) {
    Progress p = active.get(stageId);
    if (p != null) {
      p.running--;
    }
  }

  void completed(int stageId, long nowMs) {
    Progress p = active.remove(stageId);
    if (p != null) {
      times.add(nowMs - p.submittedMs);
    }
  }

  /** The median; with an even count, the mean of the two middle values, rounded down. 0 when none. */
  long medianMs() {
    return median(times);
  }

  static long median(List<Long> values) {
    if (values.isEmpty()) {
      return 0;
    }
    long[] sorted = values.stream().mapToLong(Long::longValue).toArray();
    Arrays.sort(sorted);
    int mid = sorted.length / 2;
    return sorted.length % 2 == 1 ? sorted[mid] : Math.floorDiv(sorted[mid - 1] + sorted[mid], 2);
  }
}
