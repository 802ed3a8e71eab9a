package org.elasticam.allocator.streaming;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Spark Streaming's ratio rule, with an interval D of 1 s and Spark's default ratios (up 0.9, down
 * 0.3), evaluated every 60 s from the first tick; time moves only when the test says.
 */
class RatioPolicyTest {

  private static final long D = 1_000;
  private static final long EVERY = 60_000;

  private int nextBatch;

  private static RatioPolicy policy(int min, int max, int executors, long seed) {
    StreamingSettings s = new StreamingSettings(min, max, executors, D, 10, 1, 0.2, 5, EVERY, 0.9, 0.3, 0.8);
    RatioPolicy p = new RatioPolicy(s, new Random(seed));
    for (int i = 1; i <= executors; i++) {
      p.executorAdded(Integer.toString(i), 0);
    }
    return p;
  }

  private void complete(RatioPolicy p, long processingMs) {
    int n = nextBatch++;
    long due = n * D;
    p.batchCompleted(new BatchStats(n, due, due, due + processingMs, 100, p.target(), false), due + processingMs);
  }

  @ParameterizedTest(name = "processing {0} ms of {1} ms -> {2}")
  @CsvSource({
      "1000, 1000, +1", "2000, 1000, +2", "900, 1000, +1", "899, 1000, 0",
      // Math.round rounds halves up: 2.5 -> +3
      "2500, 1000, +3", "2499, 1000, +2", "3500, 1000, +4",
      "300, 1000, -1", "299, 1000, -1", "301, 1000, 0", "0, 1000, -1", "500, 1000, 0"})
  void theRatioDecides(long processingMs, long batchMs, int change) {
    RatioPolicy p = policy(2, 20, 5, 1);
    p.tick(0);
    complete(p, processingMs);
    complete(p, processingMs);
    StreamingDecision d = p.tick(EVERY);
    assertEquals(5 + change, d.target(), d.inputs());
    assertEquals(5 + change, p.target());
    assertEquals(change < 0 ? 1 : 0, d.remove().size());
    assertEquals(change == 0, d.isEmpty());
    if (change != 0) {
      assertTrue(d.reason().contains(processingMs + " ms of a 1000 ms interval"), d.reason());
    }
  }

  @Test
  void theMeanIsInWholeMillisecondsLikeSpark() {
    RatioPolicy p = policy(2, 20, 5, 1);
    p.tick(0);
    complete(p, 899);
    complete(p, 900);
    // 1799 / 2 = 899 in long division: ratio 0.899 < 0.9
    assertTrue(p.tick(EVERY).isEmpty());
  }

  @Test
  void itAddsFromTheExecutorsThereNotFromTheTarget() {
    RatioPolicy p = policy(2, 20, 5, 1);
    p.tick(0);
    complete(p, 2_000);
    assertEquals(7, p.tick(EVERY).target());
    // the 2 asked for have not arrived: the next round asks for 5 + 2 again, not 7 + 2
    complete(p, 2_000);
    assertTrue(p.tick(2 * EVERY).isEmpty());
    assertEquals(7, p.target());
  }

  @Test
  void theMaximumCapsTheAdd() {
    RatioPolicy p = policy(2, 6, 5, 1);
    p.tick(0);
    complete(p, 4_000);
    assertEquals(6, p.tick(EVERY).target());
  }

  @Test
  void itEvaluatesEveryIntervalFromTheFirstTick() {
    RatioPolicy p = policy(2, 20, 5, 1);
    assertTrue(p.tick(5_000).isEmpty());
    assertEquals(5_000 + EVERY, p.nextEvaluationMs());
    complete(p, 2_000);
    assertTrue(p.tick(5_000 + EVERY - 1).isEmpty(), "not yet");
    assertEquals(7, p.tick(5_000 + EVERY).target());
    assertEquals(5_000 + 2 * EVERY, p.nextEvaluationMs());
    complete(p, 2_000);
    assertTrue(p.tick(5_000 + EVERY + 100).isEmpty(), "once per interval");
    // a tick that comes late evaluates once and skips what it missed
    StreamingDecision late = p.tick(5_000 + 3 * EVERY + 50);
    assertEquals(7, late.target());
    assertEquals(5_000 + 4 * EVERY, p.nextEvaluationMs());
    complete(p, 2_000);
    assertTrue(p.tick(5_000 + 3 * EVERY + 100).isEmpty());
  }

  @Test
  void theSumStartsAgainAfterEveryEvaluation() {
    RatioPolicy p = policy(2, 20, 5, 1);
    p.tick(0);
    complete(p, 500);
    assertTrue(p.tick(EVERY).isEmpty(), "0.5: neither up nor down");
    complete(p, 100);
    // 100 alone, not (500 + 100) / 2 = 300
    StreamingDecision d = p.tick(2 * EVERY);
    assertTrue(d.inputs().contains("meanProcessingMs=100") && d.inputs().contains("batches=1"), d.inputs());
    assertEquals(4, d.target());
    // an interval without batches does nothing, and the next starts from nothing too
    assertTrue(p.tick(3 * EVERY).isEmpty());
    complete(p, 2_000);
    assertEquals(6, p.tick(4 * EVERY).target());
  }

  @Test
  void failedBatchesAreIgnored() {
    RatioPolicy p = policy(2, 20, 5, 1);
    p.tick(0);
    p.batchCompleted(new BatchStats(0, 0, 0, 9_000, 100, 5, true), 9_000);
    assertTrue(p.tick(EVERY).isEmpty());
    complete(p, 100);
    p.batchCompleted(new BatchStats(1, 1_000, 1_000, 9_000, 100, 5, true), 9_000);
    assertEquals(4, p.tick(2 * EVERY).target());
  }

  @Test
  void itRemovesOneAtRandomAndNeverGoesBelowTheMinimum() {
    RatioPolicy p = policy(2, 20, 5, 7);
    p.tick(0);
    Set<String> chosen = new HashSet<>();
    for (int round = 1; round <= 6; round++) {
      complete(p, 10);
      StreamingDecision d = p.tick(round * EVERY);
      if (round <= 3) {
        assertEquals(1, d.remove().size(), d.inputs());
        assertTrue(chosen.add(d.remove().get(0)), "chosen twice: " + d.remove());
        assertEquals(5 - round, d.target());
      } else {
        // the 3 chosen are still registered, but no longer counted: 2 = min
        assertTrue(d.isEmpty(), d.toString());
      }
    }
    assertEquals(2, p.target());
    assertTrue(chosen.stream().allMatch(id -> Integer.parseInt(id) >= 1 && Integer.parseInt(id) <= 5));
  }

  @Test
  void theSameSeedChoosesTheSameExecutors() {
    List<String> first = removals(42);
    assertEquals(first, removals(42));
    assertEquals(3, first.size());
    assertFalse(first.equals(removals(43)) && first.equals(removals(44)) && first.equals(removals(45)),
        "different seeds should not all choose alike");
  }

  private List<String> removals(long seed) {
    RatioPolicy p = policy(1, 20, 20, seed);
    p.tick(0);
    List<String> out = new ArrayList<>();
    for (int round = 1; round <= 3; round++) {
      complete(p, 10);
      long now = round * EVERY;
      StreamingDecision d = p.tick(now);
      out.addAll(d.remove());
      d.remove().forEach(id -> p.executorRemoved(id, now));
    }
    return out;
  }

  @Test
  void beforeBatchDoesNothing() {
    RatioPolicy p = policy(2, 20, 5, 1);
    p.tick(0);
    complete(p, 5_000);
    assertTrue(p.beforeBatch(1, EVERY).isEmpty());
    assertEquals(5, p.target());
  }
}
