package org.elasticam.engine.lineage;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

class MapOutputsTest {

  private final MapOutputs outputs = new MapOutputs();

  private static MapOutputs.Output on(String exec, boolean external) {
    return new MapOutputs.Output(exec, "h" + exec, 7447, List.of("/d/" + exec), external);
  }

  @Test
  void lostOutputIsMissingAndItsReRunReplacesWhatIsOnDisk() {
    outputs.register(0, 3);
    for (int m = 0; m < 3; m++) {
      outputs.put(0, m, on("1", true));
    }
    assertFalse(outputs.wasLost(0, 1));
    assertEquals(Set.of(1), outputs.lose(0, List.of(1, 7)));
    assertEquals(List.of(1), outputs.missing(0));
    assertTrue(outputs.wasLost(0, 1));
    assertEquals(null, outputs.outputs(0).get(1));
    assertEquals(on("1", true), outputs.outputs(0).get(2));
  }

  @Test
  void anExecutorTakesOnlyTheOutputNoServiceServes() {
    outputs.register(0, 2);
    outputs.register(5, 2);
    outputs.put(0, 0, on("1", false));
    outputs.put(0, 1, on("2", false));
    outputs.put(5, 0, on("1", true));
    outputs.put(5, 1, on("1", true));
    assertTrue(outputs.holdsUnservedOutput("1"));
    assertTrue(outputs.wroteServedOutput("1"));
    assertEquals(Set.of(0), outputs.executorLost("1"));
    assertEquals(List.of(0), outputs.missing(0));
    assertEquals(List.of(), outputs.missing(5), "the service still serves what executor 1 wrote");
    assertFalse(outputs.holdsUnservedOutput("1"));
    assertEquals("its executors are gone and no shuffle service kept their output", outputs.lostWhy(0));
  }

  @Test
  void outputOfADeletedShuffleIsNothingToKeepAnExecutorFor() {
    outputs.register(0, 1);
    outputs.register(1, 1);
    outputs.put(0, 0, on("1", false));
    outputs.put(1, 0, on("2", false));
    outputs.deleted(0);
    assertFalse(outputs.holdsUnservedOutput("1"), "its only output's files were deleted");
    assertTrue(outputs.holdsUnservedOutput("2"));
  }

  @Test
  void aLostNodeTakesEveryOutputOnItServedOrNot() {
    outputs.register(0, 3);
    outputs.put(0, 0, on("1", false));
    outputs.put(0, 1, on("1", true));
    outputs.put(0, 2, on("2", true));
    assertEquals(Set.of(0), outputs.hostLost("h1"));
    assertEquals(List.of(0, 1), outputs.missing(0), "the node's shuffle service went with it");
    assertEquals("its node h1 was lost, and its shuffle service with it", outputs.lostWhy(0));
    assertTrue(outputs.wasLost(0, 1));
    assertEquals(Set.of(), outputs.hostLost("h9"));
  }
}
