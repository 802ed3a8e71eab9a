package org.elasticam.allocator.streaming;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

/** The factory, and the arithmetic the policies share. */
class StreamingPoliciesTest {

  private static final StreamingSettings SETTINGS = StreamingSettings.defaults(1, 10, 4, 2_000);

  @Test
  void createsEachKnownPolicyByName() {
    assertEquals(List.of("rounds", "ratio", "model"), StreamingPolicies.names());
    for (String name : StreamingPolicies.names()) {
      StreamingPolicy p = StreamingPolicies.create(name, SETTINGS, 1);
      assertEquals(name, p.name());
      assertEquals(4, p.target());
    }
    assertEquals("model", StreamingPolicies.create("Model", SETTINGS, 1).name());
  }

  @Test
  void anUnknownNameListsTheKnownOnes() {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> StreamingPolicies.create("greedy", SETTINGS, 1));
    assertTrue(e.getMessage().contains("'greedy'") && e.getMessage().contains("rounds, ratio, model"),
        e.getMessage());
  }

  @Test
  void roundingForgivesFloatingPointNoise() {
    assertEquals(3, StreamingPolicies.ceil(0.1 * 30));
    assertEquals(4, StreamingPolicies.ceil(3.01));
    assertEquals(5, StreamingPolicies.round((1 - 0.55) * 10));
    assertEquals(3, StreamingPolicies.round(2.5));
    assertEquals(2, StreamingPolicies.round(2.49));
  }

  @Test
  void numbersPrintShort() {
    assertEquals("4", StreamingPolicies.num(4.0));
    assertEquals("0.1", StreamingPolicies.num(0.1));
    assertEquals("4.742", StreamingPolicies.num(4.7424));
    assertEquals("0", StreamingPolicies.num(0.0001));
  }
}
