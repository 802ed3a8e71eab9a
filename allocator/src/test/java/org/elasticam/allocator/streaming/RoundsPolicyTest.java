package org.elasticam.allocator.streaming;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The rounds policy: greedy up on a late batch, gradual release otherwise; time moves only when the test says. */
class RoundsPolicyTest {

  private static final long D = 10_000;

  private int nextBatch;

  private static StreamingSettings settings(int min, int max, int initial, int delayRounds, int remember,
      double reserveRate, int releaseRounds) {
    return new StreamingSettings(min, max, initial, D, delayRounds, remember, reserveRate, releaseRounds, 60_000,
        0.9, 0.3, 0.8);
  }

  private static RoundsPolicy withExecutors(StreamingSettings s, int executors) {
    RoundsPolicy p = new RoundsPolicy(s);
    for (int i = 1; i <= executors; i++) {
      p.executorAdded(Integer.toString(i), 0);
    }
    return p;
  }

  /** A batch that started on time and ran {@code processingMs}. */
  private BatchStats batch(long processingMs, int executors) {
    int n = nextBatch++;
    long due = n * D;
    return new BatchStats(n, due, due, due + processingMs, 1_000, executors, false);
  }

  private StreamingDecision round(RoundsPolicy p, long processingMs) {
    BatchStats b = batch(processingMs, p.target());
    p.batchCompleted(b, b.completedAtMs());
    return p.beforeBatch(nextBatch, b.completedAtMs());
  }

  @Test
  void theWorkedExampleRemovesOneOfTwenty() {
    RoundsPolicy p = withExecutors(settings(1, 20, 20, 0, 1, 0.2, 5), 20);
    StreamingDecision d = round(p, 4_000);
    assertEquals(List.of("20"), d.remove());
    assertEquals(19, d.target());
    assertEquals(20, d.previousTarget());
    assertEquals(19, p.target());
    assertTrue(d.reason().contains("8 to spare") && d.reason().contains("releasing 1"), d.reason());
    assertTrue(d.inputs().contains("totalRemove=8") && d.inputs().contains("meanProcessingMs=4000"), d.inputs());
  }

  @ParameterizedTest(name = "{0} executors, P {1} ms, reserve {2}, {3} rounds, min {4} -> remove {5}")
  @CsvSource({
      // the worked example, then all at once
      "20, 4000, 0.2, 5, 1, 1", "20, 4000, 0.2, 1, 1, 8",
      // 12 to spare over 5 rounds: floor(2.4) = 2
      "20, 2000, 0.2, 5, 1, 2",
      // 2 to spare over 5 rounds: floor(0.4) = 0, but at least 1 so the release finishes
      "20, 7000, 0.2, 5, 1, 1",
      // round(20 x 0.02) = round(0.4) = 0 and round(20 x 0) = 0: nothing to spare
      "20, 7800, 0.2, 5, 1, 0", "20, 8000, 0.2, 5, 1, 0", "20, 9500, 0.2, 5, 1, 0",
      // round(20 x 0.025) = round(0.5) = 1: halves round up
      "20, 7750, 0.2, 5, 1, 1",
      // the reserve floor: 10 x 0.5 = 5 to spare, 5 kept
      "10, 1, 0.5, 1, 1, 5",
      // round(4.5) = 5 to spare, but ceil(0.55 x 10) = 6 are kept
      "10, 0, 0.55, 1, 1, 4",
      // the minimum floor: 8 to spare, min 8
      "10, 0, 0.2, 1, 8, 2", "10, 0, 0.2, 1, 10, 0"})
  void theRemoveFormula(int executors, long processingMs, double reserveRate, int releaseRounds, int min,
      int removed) {
    RoundsPolicy p = withExecutors(settings(min, 20, executors, 0, 1, reserveRate, releaseRounds), executors);
    StreamingDecision d = round(p, processingMs);
    assertEquals(removed, d.remove().size(), d.inputs());
    assertEquals(executors - removed, p.target());
  }

  @Test
  void theReserveAndTheMinimumHoldOverManyRounds() {
    RoundsPolicy p = withExecutors(settings(5, 20, 10, 0, 1, 0.5, 1), 10);
    for (int i = 0; i < 30; i++) {
      StreamingDecision d = round(p, 1);
      d.remove().forEach(id -> p.executorRemoved(id, 0));
      assertTrue(p.target() >= 5, "round " + i + ": " + d);
    }
    assertEquals(5, p.target());
  }

  @Test
  void theProcessingTimeIsTheMeanOfTheRememberedBatches() {
    RoundsPolicy p = withExecutors(settings(1, 20, 20, 0, 3, 0.2, 1), 20);
    p.batchCompleted(batch(9_000, 20), 0);
    p.batchCompleted(batch(1_000, 20), 0);
    p.batchCompleted(batch(4_000, 20), 0);
    // the 9 s batch is out: mean(1 s, 4 s, 7 s) = 4 s -> 8 to spare
    StreamingDecision d = round(p, 7_000);
    assertEquals(8, d.remove().size(), d.inputs());
  }

  @Test
  void delayRoundsHoldsDecisions() {
    RoundsPolicy p = withExecutors(settings(1, 20, 20, 3, 1, 0.2, 1), 20);
    assertTrue(p.beforeBatch(0, 0).isEmpty());
    assertTrue(round(p, 1_000).isEmpty());
    assertTrue(round(p, 1_000).isEmpty());
    BatchStats failed = new BatchStats(nextBatch, nextBatch * D, nextBatch * D, nextBatch * D + 100, 10, 20, true);
    nextBatch++;
    p.batchCompleted(failed, 0);
    assertTrue(p.beforeBatch(nextBatch, 0).isEmpty(), "a failed batch does not count towards delayRounds");
    StreamingDecision d = round(p, 1_000);
    assertEquals(20 - 14, d.target(), d.inputs());
  }

  @Test
  void aLateBatchAsksForMaxAtOnceAndRemovesNothing() {
    RoundsPolicy p = withExecutors(settings(1, 20, 4, 0, 1, 0.2, 1), 4);
    StreamingDecision d = round(p, 12_000);
    assertEquals(20, d.target());
    assertEquals(4, d.previousTarget());
    assertTrue(d.remove().isEmpty());
    assertTrue(d.reason().contains("processing 12000 ms > interval 10000 ms")
        && d.reason().contains("maxExecutors 20"), d.reason());
    assertTrue(p.beforeBatch(nextBatch, 0).isEmpty(), "one decision per completed batch");
  }

  @Test
  void aBatchThatStartedLateIsLateToo() {
    RoundsPolicy p = withExecutors(settings(1, 20, 4, 0, 1, 0.2, 1), 4);
    BatchStats waited = new BatchStats(0, 0, 300, 1_300, 10, 4, false);
    nextBatch = 1;
    p.batchCompleted(waited, 1_300);
    StreamingDecision d = p.beforeBatch(1, 1_300);
    assertEquals(20, d.target());
    assertTrue(d.reason().contains("waited 300 ms"), d.reason());
  }

  @Test
  void theRequestStaysWhileTheShortfallLasts() {
    // A shared cluster grants 4 of 20: late batches keep max; an on-time batch without spare keeps it too.
    RoundsPolicy p = withExecutors(settings(1, 20, 4, 0, 1, 0.2, 1), 4);
    assertEquals(20, round(p, 12_000).target());
    assertTrue(round(p, 11_000).isEmpty());
    assertTrue(round(p, 9_000).isEmpty());
    assertEquals(20, p.target());
    // spare capacity at last: the release counts from the executors there, withdrawing the rest of the ask
    StreamingDecision d = round(p, 6_000);
    assertEquals(List.of("4"), d.remove());
    assertEquals(3, d.target());
    assertEquals(20, d.previousTarget());
  }

  @Test
  void failedBatchesAreIgnored() {
    RoundsPolicy p = withExecutors(settings(1, 20, 10, 0, 1, 0.2, 1), 10);
    round(p, 8_000);
    p.batchCompleted(new BatchStats(nextBatch, nextBatch * D, nextBatch * D, nextBatch * D + 30_000, 1, 10, true), 0);
    nextBatch++;
    assertTrue(p.beforeBatch(nextBatch, 0).isEmpty());
    assertEquals(10, p.target());
  }

  @Test
  void chosenExecutorsAreNeverChosenTwiceNorCounted() {
    RoundsPolicy p = withExecutors(settings(1, 20, 20, 0, 1, 0.2, 5), 20);
    assertEquals(List.of("20"), round(p, 4_000).remove());
    // "20" is still registered but leaving: 19 count, round(19 x 0.4) = 8 -> 1 more, the next newest
    StreamingDecision d = round(p, 4_000);
    assertEquals(List.of("19"), d.remove());
    assertEquals(18, d.target());
    p.executorRemoved("20", 0);
    p.executorRemoved("7", 0); // died on its own: no longer counted either
    d = round(p, 4_000);
    assertEquals(List.of("18"), d.remove());
    assertEquals(16, d.target(), "18 registered, 19 leaving: 17 current, minus 1");
  }

  @Test
  void newestFirstIsNumericNotAlphabetic() {
    RoundsPolicy p = withExecutors(settings(1, 20, 12, 0, 1, 0.2, 1), 12);
    // round(12 x 0.7999) = 10 to spare, ceil(0.2 x 12) = 3 kept: 9 go
    assertEquals(List.of("12", "11", "10", "9", "8", "7", "6", "5", "4"), round(p, 1).remove());
  }

  @Test
  void withAFixedProcessingTimeTheReleaseStopsWhereNothingIsToSpare() {
    RoundsPolicy p = withExecutors(settings(1, 20, 20, 0, 1, 0.2, 5), 20);
    List<Integer> targets = run(p, b -> 4_000L, 60);
    // round(E x 0.4) reaches 0 only at E = 1: each round releases max(1, floor(0.4 E / 5)) = 1 at a time
    assertEquals(1, p.target());
    for (int i = 1; i < targets.size(); i++) {
      assertTrue(targets.get(i - 1) - targets.get(i) <= 1, "one per round: " + targets);
    }
    assertTrue(round(p, 4_000).isEmpty());
  }

  @Test
  void whenEachExecutorCarriesMoreTheReleaseConverges() {
    // 40 executor-seconds of work a batch: 2 s on 20 executors, 8 s on 5
    RoundsPolicy p = withExecutors(settings(1, 20, 20, 0, 1, 0.2, 5), 20);
    List<Integer> targets = run(p, executors -> 40_000L / executors, 60);
    assertEquals(5, p.target(), "processing 8 s of 10 s: the 20% reserve is all that is left; " + targets);
    int settledAt = targets.indexOf(5);
    assertTrue(settledAt > 0 && settledAt < 20, targets.toString());
    assertTrue(targets.subList(settledAt, targets.size()).stream().allMatch(t -> t == 5), targets.toString());
  }

  /** Runs {@code batches} rounds on a cluster that removes chosen executors at once; the targets after each. */
  private List<Integer> run(RoundsPolicy p, java.util.function.IntToLongFunction processing, int batches) {
    List<Integer> targets = new ArrayList<>();
    Set<String> removed = new HashSet<>();
    for (int i = 0; i < batches; i++) {
      StreamingDecision d = round(p, processing.applyAsLong(p.target()));
      for (String id : d.remove()) {
        assertTrue(removed.add(id), "chosen twice: " + id);
        p.executorRemoved(id, 0);
      }
      assertFalse(d.targetChanged() && d.reason().isEmpty(), "a change without a reason: " + d);
      targets.add(p.target());
    }
    return targets;
  }

  @Test
  void theTickDoesNothing() {
    RoundsPolicy p = withExecutors(settings(1, 20, 10, 0, 1, 0.2, 1), 10);
    p.batchCompleted(batch(30_000, 10), 0);
    assertTrue(p.tick(40_000).isEmpty());
    assertEquals(20, p.beforeBatch(1, 40_000).target());
  }
}
