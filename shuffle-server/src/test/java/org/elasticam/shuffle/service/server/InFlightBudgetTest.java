package org.elasticam.shuffle.service.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Executor;
import org.junit.jupiter.api.Test;

/** The service-wide bound on unwritten response bytes, and the order in which waiting fetches get in. */
class InFlightBudgetTest {

  private static final Executor DIRECT = Runnable::run;

  @Test
  void waitingFetchesGetInByArrivalAndASmallOneDoesNotOvertakeALargeOne() {
    InFlightBudget b = new InFlightBudget(100);
    List<String> started = new ArrayList<>();
    assertTrue(b.tryAdmit(80, 1, DIRECT, () -> started.add("a")));
    assertFalse(b.tryAdmit(50, 2, DIRECT, () -> started.add("large")));
    assertFalse(b.tryAdmit(10, 3, DIRECT, () -> started.add("small")), "fits, but an earlier request waits");
    assertEquals(2, b.waiting());
    b.release(20);
    assertEquals(List.of(), started, "50 does not fit beside 60 still in flight");
    b.release(60);
    assertEquals(List.of("large", "small"), started);
    assertEquals(60, b.used());
  }

  @Test
  void aRequestThatArrivedEarlierButWasResolvedLaterGoesFirst() {
    InFlightBudget b = new InFlightBudget(100);
    List<String> started = new ArrayList<>();
    assertTrue(b.tryAdmit(100, 10, DIRECT, () -> started.add("in flight")));
    // Resolved in this order by the disk threads; arrived in the other.
    assertFalse(b.tryAdmit(60, 30, DIRECT, () -> started.add("arrived third")));
    assertFalse(b.tryAdmit(60, 20, DIRECT, () -> started.add("arrived second")));
    b.release(100);
    assertEquals(List.of("arrived second"), started);
    assertFalse(b.tryAdmit(1, 40, DIRECT, () -> { }), "one that arrived after a waiting one waits too, though it fits");
    b.release(60);
    assertEquals(List.of("arrived second", "arrived third"), started);
    assertEquals(61, b.used());
    assertFalse(b.tryAdmit(50, 5, DIRECT, () -> { }), "the earliest arrival still needs room");
  }

  @Test
  void aResponseLargerThanTheBudgetGoesAloneAndNothingIsLeftOverWhenAllIsWritten() {
    InFlightBudget b = new InFlightBudget(100);
    List<String> started = new ArrayList<>();
    assertTrue(b.tryAdmit(500, 1, DIRECT, () -> { }), "alone, it goes");
    assertFalse(b.tryAdmit(60, 2, DIRECT, () -> started.add("next")));
    b.release(450);
    assertEquals(List.of(), started, "60 does not fit beside the 50 left");
    b.release(50);
    assertEquals(List.of("next"), started);
    b.release(60);
    assertEquals(0, b.used());
    assertEquals(0, b.waiting());
  }
}
