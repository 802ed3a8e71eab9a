package org.elasticam.allocator.dynamic;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Deque;
import java.util.List;

/**
 * How long executors of this job sat idle before they were given a task again: the evidence for how
 * long an idle executor is worth keeping. The most recent gaps only, so the estimate follows the job.
 */
final class ReuseGaps {

  private static final int KEPT = 64;
  /** Gaps this short are back-to-back tasks, not idleness. */
  private static final long NOISE_MS = 200;

  private final Deque<Long> gaps = new ArrayDeque<>();

  void observe(long gapMs) {
    if (gapMs < NOISE_MS) {
      return;
    }
    gaps.addLast(gapMs);
    if (gaps.size() > KEPT) {
      gaps.removeFirst();
    }
  }

  /** The 90th percentile of the recent gaps, 0 before any. */
  long percentile90Ms() {
    if (gaps.isEmpty()) {
      return 0;
    }
    List<Long> sorted = new ArrayList<>(gaps);
    Collections.sort(sorted);
    return sorted.get((int) Math.ceil(0.9 * sorted.size()) - 1);
  }

  /** The longest of the recent gaps, 0 before any. */
  long longestMs() {
    return gaps.stream().mapToLong(Long::longValue).max().orElse(0);
  }
}
