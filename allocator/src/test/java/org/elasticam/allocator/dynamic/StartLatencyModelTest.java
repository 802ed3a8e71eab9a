package org.elasticam.allocator.dynamic;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class StartLatencyModelTest {

  private final StartLatencyModel model = new StartLatencyModel();

  @Test
  void nothingIsPredictedBeforeAnExecutorStarted() {
    assertTrue(model.predictMs(1).isEmpty());
  }

  @Test
  void anExecutorAskedForAloneIsPredictedFasterThanTheLastOfABurst() {
    // Ten asked for in one round at t = 0: each start slows the others (1 s alone, +100 ms per
    // executor in flight), and they register one after another.
    model.inFlight(0, 0);
    model.inFlight(100, 10);
    for (int i = 0; i < 10; i++) {
      long latency = 1_000 + 100L * (10 - 1);
      model.registered(latency + i, latency);
    }
    // Later, one asked for alone, twice.
    askAlone(20_000, 1_000);
    askAlone(30_000, 1_000);

    assertEquals(1_000, model.predictMs(1).orElseThrow(), 1.0);
    assertEquals(1_900, model.predictMs(10).orElseThrow(), 1.0);
    // A moving average of these starts (1.75 s) would have sized the lone ask as if it came with the burst.
  }

  @Test
  void theRoundsOwnAsksCountAsInFlightWithIt() {
    model.inFlight(0, 0);
    model.inFlight(100, 4);
    model.registered(2_000, 2_000);
    model.registered(2_100, 2_100);
    askAlone(10_000, 1_000);
    // Asked for at 0 with three others: the tick after saw four in flight. Fitted: 1 s at one,
    // ~2 s at four.
    assertEquals(1_000, model.predictMs(1).orElseThrow(), 1.0);
    assertTrue(model.predictMs(4).orElseThrow() > 1_900, "the burst's own starts: " + model.predictMs(4));
  }

  /** One executor asked for at {@code t} with nothing else in flight, registered {@code latency} later. */
  private void askAlone(long t, long latency) {
    model.inFlight(t, 0);
    model.inFlight(t + 100, 1);
    model.registered(t + latency, latency);
  }

  @Test
  void neverBelowTheFastestStartSeen() {
    for (int i = 0; i < 5; i++) {
      long t = i * 10_000L;
      model.inFlight(t, 0);
      model.inFlight(t + 100, 5 + i * 5);
      model.registered(t + 3_000, 800 + 400L * i);
    }
    assertTrue(model.predictMs(1).orElseThrow() >= 800, "the fit's intercept undershoots the fastest start");
  }
}
