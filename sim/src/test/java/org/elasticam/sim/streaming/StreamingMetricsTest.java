package org.elasticam.sim.streaming;

import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.elasticam.allocator.streaming.BatchStats;
import org.junit.jupiter.api.Test;

/** The figures, worked out by hand on made-up batches of a 1000 ms interval. */
class StreamingMetricsTest {

  private static final long B = 1000;

  /** Batches 0.. on time, each with the processing time and executors given. */
  private static List<BatchStats> batches(long[] processingMs, int[] executors) {
    List<BatchStats> out = new ArrayList<>();
    long free = 0;
    for (int i = 0; i < processingMs.length; i++) {
      long due = (i + 1) * B;
      long submitted = Math.max(due, free);
      free = submitted + processingMs[i];
      out.add(new BatchStats(i, due, submitted, free, 100, executors[i], false));
    }
    return out;
  }

  private static long[] processing(int n, long ms) {
    long[] p = new long[n];
    Arrays.fill(p, ms);
    return p;
  }

  private static int[] executors(int n, int e) {
    int[] x = new int[n];
    Arrays.fill(x, e);
    return x;
  }

  @Test
  void lateBatchesSkipTheFirstTen() {
    long[] p = processing(15, 500);
    p[0] = 3000;
    p[9] = 1001;
    p[10] = 1001;
    p[14] = 1000;
    List<BatchStats> b = batches(p, executors(15, 2));
    assertEquals(1, StreamingMetrics.lateBatches(b, B));
  }

  @Test
  void segmentsStartWithTheFirstBatchDueAfterAChange() {
    List<BatchStats> b = batches(processing(10, 500), executors(10, 1));
    // Batch 2 is due at 3000 = the change: its input is all from before; batch 3 is the first after.
    List<List<BatchStats>> s = StreamingMetrics.segments(b, List.of(3000L, 7500L));
    assertAll(
        () -> assertEquals(3, s.size()),
        () -> assertEquals(3, s.get(0).size()),
        () -> assertEquals(3, s.get(1).get(0).batch()),
        () -> assertEquals(4, s.get(1).size()),
        () -> assertEquals(7, s.get(2).get(0).batch()));
  }

  @Test
  void settleCountsBatchesUntilThreeInARowInTheBand() {
    // Segment from batch 3: 1800 (late), 1200, 900, 650, 800, 700, 1000, 900 …
    long[] p = {500, 500, 500, 1800, 1200, 900, 650, 800, 700, 1000, 900, 800};
    List<BatchStats> b = batches(p, executors(p.length, 1));
    StreamingMetrics m = StreamingMetrics.of(b, B, List.of(3000L));
    // 900 at offset 2 is in the band, 650 breaks it; 800, 700, 1000 from offset 4 make three.
    assertEquals(List.of(4), m.settleBatches());
  }

  @Test
  void settleBoundsAreInclusiveAndAlreadySettledIsZero() {
    long[] p = {700, 1000, 700, 100};
    assertEquals(0, StreamingMetrics.settleBatches(batches(p, executors(4, 1)), B));
    assertEquals(-1, StreamingMetrics.settleBatches(batches(new long[] {699, 1001, 700, 700}, executors(4, 1)), B));
    assertEquals(-1, StreamingMetrics.settleBatches(List.of(), B));
  }

  @Test
  void neverSettlingWithinItsSegmentIsMinusOne() {
    // Over-provisioned after the change at 3000: 300 ms until the next change at 8000, then in band.
    long[] p = {800, 800, 800, 300, 300, 300, 300, 300, 800, 800, 800};
    StreamingMetrics m = StreamingMetrics.of(batches(p, executors(p.length, 1)), B, List.of(3000L, 8000L));
    assertEquals(List.of(-1, 0), m.settleBatches());
  }

  @Test
  void changesCountedInTheLastTwentyBatchesOfEachSegment() {
    int n = 60;
    int[] e = executors(n, 4);
    e[5] = 5;    // segment 0 (batches 0–29), outside its last 20: not counted
    e[15] = 6;   // in segment 0's last 20: changes at 15 and 16
    e[29] = 7;   // last of segment 0: a change; 30, back to 4, is outside segment 1's last 20
    e[59] = 3;   // segment 1's last batch
    List<BatchStats> b = batches(processing(n, 500), e);
    StreamingMetrics m = StreamingMetrics.of(b, B, List.of(30_000L));
    assertEquals(List.of(3, 1), m.changesInTail());
  }

  @Test
  void shortSegmentsAndNoChangePoints() {
    int[] e = {1, 2, 2, 3};
    List<BatchStats> b = batches(processing(4, 500), e);
    assertEquals(List.of(2), StreamingMetrics.of(b, B, List.of()).changesInTail());
    assertEquals(List.of(), StreamingMetrics.of(b, B, List.of()).settleBatches());
  }

  @Test
  void approximateExecutorSecondsHoldEachBatchsExecutorsUntilTheNextSubmission() {
    // Submitted at 1000, 2000 and (late) 3500: 2 × 1 s + 3 × 1.5 s + 4 × 0.5 s (the last, to completion).
    long[] p = {1000, 1500, 500};
    List<BatchStats> b = batches(p, new int[] {2, 3, 4});
    assertEquals(2 + 4.5 + 2, StreamingMetrics.approximateExecutorSeconds(b), 1e-9);
    assertEquals(8.5, StreamingMetrics.of(b, B, List.of()).executorSeconds(), 1e-9);
    assertEquals(99.5, StreamingMetrics.of(b, B, List.of(), 99.5).executorSeconds(), 1e-9);
  }

  @Test
  void meanProcessingRatioAndTheEmptyRun() {
    List<BatchStats> b = batches(new long[] {500, 1000, 1500}, executors(3, 1));
    StreamingMetrics m = StreamingMetrics.of(b, B, List.of(5000L));
    assertAll(
        () -> assertEquals(3, m.batches()),
        () -> assertEquals(1.0, m.meanProcessingRatio(), 1e-9),
        () -> assertEquals(List.of(-1), m.settleBatches()),
        () -> assertEquals(List.of(0, 0), m.changesInTail()));
    StreamingMetrics empty = StreamingMetrics.of(List.of(), B, List.of());
    assertAll(
        () -> assertEquals(0, empty.batches()),
        () -> assertEquals(0, empty.lateBatches()),
        () -> assertEquals(0.0, empty.meanProcessingRatio()),
        () -> assertEquals(0.0, empty.executorSeconds()),
        () -> assertEquals(List.of(0), empty.changesInTail()));
  }
}
