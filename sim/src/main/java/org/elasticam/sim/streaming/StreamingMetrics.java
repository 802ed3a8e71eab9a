package org.elasticam.sim.streaming;

import java.util.ArrayList;
import java.util.List;
import org.elasticam.allocator.streaming.BatchStats;

/**
 * The figures of a streaming run, from its batches alone (so they apply as well to batches read
 * from a real run's event log). Batches are taken in the order given, which should be batch order.
 *
 * <ul>
 *   <li><b>late batches</b>: processing longer than the interval, not counting the first
 *       {@value #WARM_UP} batches (JIT, connections: every policy pays them alike).</li>
 *   <li><b>segments</b>: the change points of the rate cut the run into segments; a batch belongs to
 *       the segment its due time falls in after a change point, so the first batch of a segment is
 *       the first due after the change — the first whose input holds any of the new rate.</li>
 *   <li><b>settle batches</b>, one per change point: how many batches after the first of its segment
 *       until processing/interval enters [{@value #SETTLED_LOW}, {@value #SETTLED_HIGH}] and stays
 *       there {@value #SETTLED_RUN} batches in a row, within the segment; -1 if it never does. The
 *       band is "busy but on time": below it the executors are more than the load needs.</li>
 *   <li><b>changes in the last {@value #TAIL} batches</b> of each segment: batches whose executors
 *       differ from the batch before — churn once the load has been steady for a while.</li>
 *   <li><b>executor-seconds</b>: given by the caller from the executor timeline when it has one, else
 *       approximated: each batch's executors held from its submission to the next one's.</li>
 * </ul>
 *
 * @param settleBatches one per change point, in order
 * @param changesInTail one per segment, in order (one segment when there are no change points)
 * @param meanProcessingRatio mean of processing / interval over all batches, 0 with none
 */
public record StreamingMetrics(int batches, int lateBatches, List<Integer> settleBatches, List<Integer> changesInTail,
    double executorSeconds, double meanProcessingRatio) {

  static final int WARM_UP = 10;
  static final double SETTLED_LOW = 0.7;
  static final double SETTLED_HIGH = 1.0;
  static final int SETTLED_RUN = 3;
  static final int TAIL = 20;

  public StreamingMetrics {
    settleBatches = List.copyOf(settleBatches);
    changesInTail = List.copyOf(changesInTail);
  }

  /** The figures, with executor-seconds measured by the caller. */
  public static StreamingMetrics of(List<BatchStats> batches, long batchMs, List<Long> changePointsMs,
      double executorSeconds) {
    List<List<BatchStats>> segments = segments(batches, changePointsMs);
    List<Integer> settle = new ArrayList<>();
    for (int k = 1; k < segments.size(); k++) {
      settle.add(settleBatches(segments.get(k), batchMs));
    }
    List<Integer> churn = new ArrayList<>();
    int before = 0;
    for (List<BatchStats> segment : segments) {
      churn.add(changesInTail(batches, before + Math.max(0, segment.size() - TAIL), before + segment.size()));
      before += segment.size();
    }
    return new StreamingMetrics(batches.size(), lateBatches(batches, batchMs), settle, churn, executorSeconds,
        meanRatio(batches, batchMs));
  }

  /** The figures, with executor-seconds approximated from the batches. */
  public static StreamingMetrics of(List<BatchStats> batches, long batchMs, List<Long> changePointsMs) {
    return of(batches, batchMs, changePointsMs, approximateExecutorSeconds(batches));
  }

  static int lateBatches(List<BatchStats> batches, long batchMs) {
    return (int) batches.stream().filter(b -> b.batch() >= WARM_UP && b.processingMs() > batchMs).count();
  }

  /** Segment k holds the batches due after k change points; always changePoints + 1 segments. */
  static List<List<BatchStats>> segments(List<BatchStats> batches, List<Long> changePointsMs) {
    List<List<BatchStats>> segments = new ArrayList<>();
    for (int k = 0; k <= changePointsMs.size(); k++) {
      segments.add(new ArrayList<>());
    }
    for (BatchStats b : batches) {
      int k = 0;
      while (k < changePointsMs.size() && b.batchTimeMs() > changePointsMs.get(k)) {
        k++;
      }
      segments.get(k).add(b);
    }
    return segments;
  }

  /** Batches from the segment's first until {@value #SETTLED_RUN} in a row are in the band; -1 if never. */
  static int settleBatches(List<BatchStats> segment, long batchMs) {
    int run = 0;
    for (int i = 0; i < segment.size(); i++) {
      double ratio = (double) segment.get(i).processingMs() / batchMs;
      run = ratio >= SETTLED_LOW && ratio <= SETTLED_HIGH ? run + 1 : 0;
      if (run == SETTLED_RUN) {
        return i - SETTLED_RUN + 1;
      }
    }
    return -1;
  }

  /** Batches in positions [from, to) whose executors differ from the batch before them. */
  static int changesInTail(List<BatchStats> batches, int from, int to) {
    int changes = 0;
    for (int i = Math.max(1, from); i < to; i++) {
      if (batches.get(i).executors() != batches.get(i - 1).executors()) {
        changes++;
      }
    }
    return changes;
  }

  static double meanRatio(List<BatchStats> batches, long batchMs) {
    return batches.stream().mapToDouble(b -> (double) b.processingMs() / batchMs).average().orElse(0);
  }

  /** Each batch's executors from its submission to the next batch's, the last to its completion. */
  static double approximateExecutorSeconds(List<BatchStats> batches) {
    double ms = 0;
    for (int i = 0; i < batches.size(); i++) {
      BatchStats b = batches.get(i);
      long end = i + 1 < batches.size() ? batches.get(i + 1).submittedAtMs() : b.completedAtMs();
      ms += (double) b.executors() * (end - b.submittedAtMs());
    }
    return ms / 1000;
  }
}
