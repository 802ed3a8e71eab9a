package org.elasticam.sim.streaming;

import java.util.List;
import org.elasticam.allocator.streaming.BatchStats;

/**
 * What one simulated streaming run produced, before the figures are made of it.
 *
 * @param endMs when the last batch completed
 * @param executorMs registered executors integrated over [0, endMs]
 * @param peakExecutors most executors registered at once
 * @param asks executors asked for
 * @param asksWithdrawn asks withdrawn before they were granted
 * @param targetChanges decisions that changed the target
 */
record StreamingResult(String policy, List<BatchStats> batches, long endMs, long executorMs, int peakExecutors,
    int asks, int asksWithdrawn, int targetChanges) {

  StreamingResult {
    batches = List.copyOf(batches);
  }
}
