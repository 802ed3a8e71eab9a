package org.elasticam.allocator.streaming;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** Registered executors minus those chosen for removal. */
class LiveExecutorsTest {

  private static LiveExecutors of(String... ids) {
    LiveExecutors live = new LiveExecutors();
    for (String id : ids) {
      live.added(id);
    }
    return live;
  }

  @Test
  void newestIsTheHighestNumber() {
    LiveExecutors live = of("9", "10", "2", "100", "driver");
    assertEquals(List.of("driver", "100"), live.takeNewest(2), "names that are no number count as newest");
    assertEquals(List.of("10", "9"), live.takeNewest(2));
    assertEquals(List.of("2"), live.takeNewest(5), "only what is left");
  }

  @Test
  void chosenExecutorsAreNotCountedNorChosenAgainUntilGone() {
    LiveExecutors live = of("1", "2", "3");
    assertEquals(List.of("3"), live.takeNewest(1));
    assertEquals(2, live.current());
    assertEquals(1, live.leaving());
    assertEquals(List.of("2"), live.takeNewest(1));
    live.removed("3");
    assertEquals(1, live.current());
    assertEquals(1, live.leaving());
    assertFalse(live.isLeaving("3"));
    live.removed("1"); // went on its own
    assertEquals(0, live.current());
    assertEquals(List.of(), live.takeNewest(1));
    assertThrows(IllegalStateException.class, () -> live.takeRandom(new Random(1)));
  }

  @Test
  void randomChoicesSkipThoseLeaving() {
    LiveExecutors live = of("1", "2", "3", "4");
    Random random = new Random(3);
    for (int i = 0; i < 4; i++) {
      String id = live.takeRandom(random);
      assertTrue(live.isLeaving(id));
      assertEquals(3 - i, live.current());
    }
  }
}
